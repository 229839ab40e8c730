/**
 * The HTML report in a real headless Chromium (Debian's, at /usr/bin/chromium,
 * driven by playwright-core): the verdict and the planted cause are shown, the
 * table sorts and filters, a clicked row shows its distributions, a hostile
 * variable name never runs, and nothing is fetched. Screenshots go to a temp
 * directory (or $DISTALYZE_SCREENSHOT_DIR) for a person to look at.
 *
 * Without Chromium the suite is skipped, except under CI=true, where it fails:
 * run scripts/ensure-chromium.sh first.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { HOSTILE, HOSTILE_INSTANCE, makeAnalysis } from './analysis-fixture.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const inCi = process.env.CI === 'true' || process.env.CI === '1';
const haveChromium = existsSync(CHROMIUM);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Opened {
  readonly page: Page;
  readonly dialogs: string[];
  readonly errors: string[];
  readonly requests: string[];
}

describe.skipIf(!haveChromium && !inCi)('HTML report in headless Chromium', () => {
  let work: string;
  let shots: string;
  let context: BrowserContext;

  beforeAll(async () => {
    if (!haveChromium) throw new Error(`Chromium is missing at ${CHROMIUM} (CI=true): run scripts/ensure-chromium.sh`);
    work = mkdtempSync(join(tmpdir(), 'distalyze-browser-'));
    shots = process.env.DISTALYZE_SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'distalyze-screenshots-'));
    mkdirSync(shots, { recursive: true });
    const profile = join(work, 'profile');
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1400, height: 900 },
    });
  });

  afterAll(async () => {
    await context?.close();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  async function open(file: string): Promise<Opened> {
    const page = await context.newPage();
    const opened: Opened = { page, dialogs: [], errors: [], requests: [] };
    page.on('dialog', (d) => { opened.dialogs.push(d.message()); void d.dismiss(); });
    page.on('pageerror', (e) => opened.errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') opened.errors.push(m.text()); });
    page.on('request', (r) => { if (!/^(?:file|data|about):/.test(r.url())) opened.requests.push(r.url()); });
    await page.goto(`file://${file}`);
    await page.waitForSelector('#tests-table tbody tr');
    return opened;
  }

  /** Nothing ran that should not have, nothing was fetched, our script threw nothing. */
  async function expectClean(o: Opened): Promise<void> {
    expect(o.dialogs).toEqual([]);
    expect(o.errors).toEqual([]);
    expect(o.requests).toEqual([]);
    expect(await o.page.locator('script').count()).toBe(2);
    expect(await o.page.locator('img, iframe, object, embed').count()).toBe(0);
  }

  /** The text of one column (by its header's data-key) in the first `rows` rows shown. */
  async function column(page: Page, key: string, rows = 25): Promise<string[]> {
    const keys = await Promise.all((await page.locator('#tests-table thead th').all()).map((th) => th.getAttribute('data-key')));
    const nth = keys.indexOf(key) + 1;
    expect(nth).toBeGreaterThan(0);
    return (await page.locator(`#tests-table tbody tr td:nth-child(${nth})`).allTextContents()).slice(0, rows);
  }

  function parseStat(s: string): number {
    if (s === 'n/a') return NaN;
    return Number(s.replace('+∞', 'Infinity').replace('−∞', '-Infinity').replace('−', '-'));
  }

  function expectOrdered(xs: number[], dir: 1 | -1): void {
    const finite = xs.filter((x) => !Number.isNaN(x));
    for (let i = 1; i < finite.length; i++) {
      const [a, b] = [finite[i - 1]!, finite[i]!];
      expect(dir > 0 ? a <= b : a >= b, `${a} then ${b}`).toBe(true);
    }
  }

  it('shows the pipeline fixture\'s verdict and planted cause; sorts, filters, plots; a hostile name stays text', async () => {
    const { run } = await import('../helpers/run.js');
    const good = join(work, 'good');
    const bad = join(work, 'bad');
    copyWithHostileVariable(join(ROOT, 'fixtures/pipeline/good'), good, 1);
    copyWithHostileVariable(join(ROOT, 'fixtures/pipeline/bad'), bad, 2);
    const out = join(work, 'pipeline.html');
    const r = await run(good, bad, '--html', out, '--quiet', '--no-color');
    expect(r.code, r.stderr).toBe(0);
    console.log(`pipeline report: ${out}, ${statSync(out).size.toLocaleString('en-US')} bytes`);

    const o = await open(out);
    const { page } = o;
    // The verdict first, naming the planted cause, with the graphs drawn.
    await expect.poll(() => page.textContent('#verdict-headline')).toContain('lock_wait_ms');
    expect(await page.locator('#verdict .graph svg').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('#verdict article[data-kind=state]').textContent()).toContain('lock_wait_ms');
    expect(await page.locator('#ranking-list').textContent()).toContain('lock_wait_ms');

    // Sort by clicking headers: t descending, then ascending; variable names A→Z.
    await page.click('th[data-key=t] button');
    expect(await page.getAttribute('th[data-key=t]', 'aria-sort')).toBe('descending');
    expectOrdered((await column(page, 't')).map(parseStat), -1);
    await page.click('th[data-key=t] button');
    expect(await page.getAttribute('th[data-key=t]', 'aria-sort')).toBe('ascending');
    expectOrdered((await column(page, 't')).map(parseStat), 1);
    await page.click('th[data-key=variable] button');
    const names = await column(page, 'variable', 1000);
    expect(names).toEqual([...names].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : x.toLowerCase() > y.toLowerCase() ? 1 : 0)));

    // Filter, then click a row: its two distributions appear.
    await page.fill('#filter', 'lock_wait_ms mean');
    const filtered = await column(page, 'variable');
    expect(filtered).toEqual(['lock_wait_ms']);
    expect(await page.textContent('#count')).toMatch(/^1 of [\d,]+ tests$/);
    expect(await page.locator('#detail svg.plot').count()).toBe(0);
    await page.click('#tests-table tbody tr >> nth=0');
    await page.waitForSelector('#detail svg.plot');
    expect(await page.textContent('#detail h3')).toBe('lock_wait_ms');
    expect(await page.locator('#detail svg.plot .good circle').count()).toBe(40);
    expect(await page.locator('#detail svg.plot .bad circle').count()).toBe(40);
    expect(await page.locator('#detail svg.plot .bad circle title').first().textContent()).toMatch(/^node-0\d\d\.dlog \(bad\): /);
    await page.fill('#filter', '');
    await page.locator('#tests-table tr.sel').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'pipeline-report.png'), fullPage: true });
    await page.screenshot({ path: join(shots, 'pipeline-table.png'), clip: await boxOf(page, '#tests') });

    // The hostile variable read from the logs: shown as text in the table and its plot.
    await page.fill('#filter', 'script');
    const hostileRows = page.locator('#tests-table tbody tr');
    expect(await hostileRows.count()).toBeGreaterThan(0);
    expect(await hostileRows.first().locator('td.name .var').textContent()).toBe(HOSTILE);
    await hostileRows.first().click();
    expect(await page.textContent('#detail h3')).toBe(HOSTILE);
    await expectClean(o);
    console.log(`screenshots: ${shots}`);
    await page.close();
  });

  it('draws a hand-built Analysis: hostile names in the graph, ranking, table and plot stay text', async () => {
    const file = join(work, 'hand.html');
    writeFileSync(file, await renderHtml(makeAnalysis({ heavyTail: true, padTests: 400 })));
    const o = await open(file);
    const { page } = o;
    expect(await page.textContent('#heavy-tail')).toContain('Heavy tail');
    expect(await page.textContent('#verdict-headline')).toContain('lock_wait_ms');
    // In Graphviz's SVG, the name is a text node.
    const label = page.locator('#verdict .graph g.node text', { hasText: 'alert(1)' });
    expect(await label.textContent()).toBe(HOSTILE);
    expect(await page.locator('#ranking-list td.name .var', { hasText: 'alert(1)' }).textContent()).toBe(HOSTILE);
    // Clicking the graph node selects that variable's feature and plots it, hostile instance name included.
    await page.locator('#verdict .graph g.node', { hasText: 'alert(1)' }).click();
    await page.waitForSelector('#detail svg.plot');
    expect(await page.textContent('#detail h3')).toBe(HOSTILE);
    const titles = await page.locator('#detail svg.plot circle title').allTextContents();
    expect(titles.some((t) => t.startsWith(`${HOSTILE_INSTANCE} (bad)`))).toBe(true);
    expect(await page.locator('#tests-table tr.sel td.name .var').textContent()).toBe(HOSTILE);
    // A ranking chip selects a feature too; keyboard moves the selection.
    await page.locator('#ranking-list tr', { hasText: 'lock_wait_ms' }).locator('.chip').first().click();
    expect(await page.textContent('#detail h3')).toBe('lock_wait_ms');
    await page.locator('#tests-table tr.sel').press('ArrowDown');
    expect(await page.textContent('#detail h3')).not.toBe('lock_wait_ms');
    // "show more" reveals further rows of a long table.
    const before = await page.locator('#tests-table tbody tr').count();
    await page.click('#more button');
    expect(await page.locator('#tests-table tbody tr').count()).toBeGreaterThan(before);
    await page.check('#sig-only');
    expect(await page.textContent('#count')).toMatch(/^\d+ of [\d,]+ tests$/);
    await page.uncheck('#sig-only');
    await page.locator('#ranking-list tr', { hasText: 'lock_wait_ms' }).click();
    await page.screenshot({ path: join(shots, 'hand-built-report.png'), fullPage: true });
    await expectClean(o);
    await page.close();
  });

  it('says "no divergence found" when nothing differs', async () => {
    const file = join(work, 'none.html');
    writeFileSync(file, await renderHtml(makeAnalysis({ nothing: true })));
    const o = await open(file);
    expect(await o.page.textContent('#verdict-headline')).toContain('No feature differs significantly between the two classes.');
    expect(await o.page.textContent('#ranking-list')).toContain('No variable has a significant feature');
    await o.page.screenshot({ path: join(shots, 'no-divergence.png'), fullPage: true });
    await expectClean(o);
    await o.page.close();
  });
});

/** The page region of `selector`, for a clipped screenshot. */
async function boxOf(page: Page, selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await page.locator(selector).boundingBox();
  if (box === null) throw new Error(`${selector} is not visible`);
  return box;
}

/**
 * Copy a class directory of dlog files, adding to each file a state variable
 * named like a script tag, its value `base` plus a little spread, logged right
 * after the first record.
 */
function copyWithHostileVariable(from: string, to: string, base: number): void {
  cpSync(from, to, { recursive: true });
  readdirSync(to).filter((f) => f.endsWith('.dlog')).sort().forEach((f, i) => {
    const path = join(to, f);
    const lines = readFileSync(path, 'utf8').split('\n');
    const first = lines.findIndex((l) => /^[ES]\t/.test(l));
    const ts = lines[first]!.split('\t')[1]!;
    lines.splice(first + 1, 0, `S\t${ts}\t${HOSTILE}\t${base + ((i * 7) % 10) / 10}`);
    writeFileSync(path, lines.join('\n'));
  });
}
