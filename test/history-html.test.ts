import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, run } from './helpers/run.js';

describe('distalyze history --html', () => {
  it('plots each changed variable, marks the change and links it to its comparison', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'distalyze-hh-')), 'h.html');
    const r = await run('history', join(ROOT, 'fixtures', 'history', 'nightly'), '--html', out);
    expect(r.code).toBe(0);
    const page = readFileSync(out, 'utf8');
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`);
    expect(page).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(page).toContain('<section id="cmp-0"><h3>Change at run 2026-11-12 (#12)</h3>');
    expect(page).toContain('<section id="cmp-1"><h3>Change at run 2026-11-20 (#20)</h3>');
    // Every link into the page has its target.
    for (const [, id] of page.matchAll(/href="#([^"]+)"/g)) expect(page).toContain(`id="${id}"`);
    expect(page).toMatch(/<a href="#cmp-1"><line class="chg"[^>]*\/><text class="chg-label"[^>]*>change at #20<\/text><\/a>/);
    expect((page.match(/<svg /g) ?? []).length).toBeGreaterThanOrEqual(4);
  });

  it('escapes names from the logs', async () => {
    // 16 runs of 3 instances; a state variable with markup in its name steps up at run 9.
    const root = mkdtempSync(join(tmpdir(), 'distalyze-hx-'));
    const name = '<img src=x onerror=alert(1)>&"';
    for (let run = 1; run <= 16; run++) {
      const dir = join(root, `run-${String(run).padStart(2, '0')}`);
      mkdirSync(dir);
      for (let i = 1; i <= 3; i++) {
        const v = (run >= 9 ? 50 : 10) + i + (run % 3);
        writeFileSync(join(dir, `n${i}.dlog`), `E\t0\tstart\nS\t0.5\t${name}\t${v}\nE\t${1 + i / 10 + (run % 2) / 1000}\tend\n`);
      }
    }
    // Beside the runs, not among them: a file in the directory of runs is a run to the next history (refused).
    const out = join(mkdtempSync(join(tmpdir(), 'distalyze-hx-out-')), 'h.html');
    const r = await run('history', root, '--html', out, '--json', '-', '--quiet');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { events: { runName: string }[] }).events.map((e) => e.runName)).toEqual(['run-09']);
    const page = readFileSync(out, 'utf8');
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;&amp;&quot;');
  });
});
