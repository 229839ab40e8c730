import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { gateOf } from '../src/check/index.js';
import { ignoreMatcher } from '../src/check/ignore.js';
import { escapeXml } from '../src/check/render.js';
import { ROOT, run } from './helpers/run.js';

const NIGHTLY = join(ROOT, 'fixtures', 'history', 'nightly');
const night = (d: number): string => join(NIGHTLY, `2026-11-${String(d).padStart(2, '0')}`);
let baseline = '';
let out = '';

beforeAll(() => {
  // The baseline: nights 1–18 (before the regression at 20), copied as a CI job would keep them.
  const root = mkdtempSync(join(tmpdir(), 'distalyze-check-'));
  baseline = join(root, 'baseline');
  out = join(root, 'out');
  mkdirSync(out);
  for (let d = 1; d <= 18; d++) cpSync(night(d), join(baseline, `2026-11-${String(d).padStart(2, '0')}`), { recursive: true });
});

const PASS_19 = 'pass: duration is 4.4% slower than the baseline (+0.1534 s: 3.602 against 3.448 ± 0.1568 over 18 baseline runs; p 0.35, effect 0.98 sd), within --max-slowdown 5%';
// The failure names the added time and the verdict's top cause (from 6 new instances the graphs tie nothing: said so).
const FAIL_20 = 'FAIL: duration is 19.2% slower than the baseline (+0.6635 s: 4.112 against 3.448 ± 0.1568 over 18 baseline runs; p 0.00072, effect 4.23 sd), beyond --max-slowdown 5%; ' +
  'top cause: load_done (event gap 0.9945 → 1.759 s, changed; the graphs tie nothing to the slowdown, so it is unconfirmed); 15 other features differ significantly';

describe('distalyze check BASELINE NEW (one new run)', () => {
  it('passes a run without regression, saying why in one line, once', async () => {
    const r = await run('check', baseline, night(19));
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[1]).toBe(PASS_19);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('check: 1 new run (');
  });

  it('fails the regressed run (exit 1) with the one-line reason, naming the top cause; the line once', async () => {
    const r = await run('check', baseline, night(20));
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[1]).toBe(FAIL_20);
    expect(r.stdout.split('FAIL:')).toHaveLength(2);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('   1. load_done (event gap): 0.9945 → 1.759 s, z +6.16;');
  });

  it('-q: only the gate\'s line, or only what was asked for; beside --json - the line goes to stderr', async () => {
    const q = await run('check', baseline, night(20), '-q');
    expect(q.code).toBe(1);
    expect(q.stdout).toBe(`distalyze check: ${FAIL_20}\n`);
    expect(q.stderr).toBe('');
    const github = await run('check', baseline, night(20), '-q', '--github');
    expect(github.stdout.split('\n').every((l) => l === '' || l.startsWith('::'))).toBe(true);
    const json = await run('check', baseline, night(20), '--json', '-');
    expect(json.stderr).toBe(`distalyze check: ${FAIL_20}\n`);
    expect((await run('check', baseline, night(20), '--json', '-', '-q')).stderr).toBe('');
  });

  it('a larger --max-slowdown lets the same run pass; --min-effect likewise', async () => {
    const a = await run('check', baseline, night(20), '--max-slowdown', '25%');
    expect(a.code).toBe(0);
    expect(a.stdout.split('\n')[1]).toMatch(/^pass: duration is 19\.2% slower .*, within --max-slowdown 25%; 15 other features differ significantly$/);
    const b = await run('check', baseline, night(20), '--min-effect', '5');
    expect(b.code).toBe(0);
    expect(b.stdout.split('\n')[1]).toMatch(/, below --min-effect 5 sd; /);
  });

  it('one instance is a run too', async () => {
    // node-2 took 4.23 s (node-1 of the same night, 3.61 s, passes: one instance is noisier than a run).
    const r = await run('check', baseline, join(night(20), 'node-2.dlog'), '--json', '-');
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { new: { instances: number }; metric: { method: string } };
    expect(doc.new.instances).toBe(1);
    expect(doc.metric.method).toBe('prediction');
  });

  it('--ignore leaves the version bump out and names it in the JSON; the gate still passes', async () => {
    const r = await run('check', baseline, night(19), '--ignore', 'config_*', '--json', '-');
    expect(r.code).toBe(0);
    const validate = new Ajv({ strict: true, strictTypes: false }).compile(JSON.parse(readFileSync(join(ROOT, 'schema', 'check.schema.json'), 'utf8')) as object);
    expect(validate(JSON.parse(r.stdout)), JSON.stringify(validate.errors)).toBe(true);
    const doc = JSON.parse(r.stdout) as { passed: boolean; ignored: string[]; tests: { variable: string; t: number | null }[] };
    expect(doc.passed).toBe(true);
    expect(doc.ignored).toEqual(['config_version']);
    expect(doc.tests.some((t) => t.variable === 'config_version')).toBe(false);
    expect(r.stdout).not.toMatch(/Infinity|NaN/);
    const plain = JSON.parse((await run('check', baseline, night(19), '--json', '-')).stdout) as { ignored: string[]; tests: { variable: string }[] };
    expect(plain.ignored).toEqual([]);
    expect(plain.tests.some((t) => t.variable === 'config_version')).toBe(true);
  });

  it('--junit writes well-formed JUnit XML with the failure', async () => {
    const file = join(out, 'junit.xml');
    const r = await run('check', baseline, night(20), '--junit', file);
    expect(r.code).toBe(1);
    const xml = readFileSync(file, 'utf8');
    expect(wellFormed(xml)).toBe(true);
    expect(xml).toContain('<testsuite name="distalyze check" tests="16" failures="1" errors="0" skipped="0">');
    expect(xml).toContain(`<failure message="${escapeXml(FAIL_20)}" type="regression">`);
    const pass = join(out, 'pass.xml');
    await run('check', baseline, night(19), '--junit', pass);
    expect(wellFormed(readFileSync(pass, 'utf8'))).toBe(true);
    expect(readFileSync(pass, 'utf8')).toContain('failures="0"');
  });

  it('--github writes workflow commands, escaped, on a log file of the new run, causes in the verdict\'s order', async () => {
    const r = await run('check', baseline, night(20), '--github');
    const lines = r.stdout.split('\n');
    // Attached to a file GitHub can find: a log file of the run, relative to the workspace (the repository root here).
    expect(lines[0]).toBe(`::error file=fixtures/history/nightly/2026-11-20/node-1.dlog,title=distalyze check::${FAIL_20.replace(/%/g, '%25')}`);
    expect(lines[1]).toBe('::warning file=fixtures/history/nightly/2026-11-20/node-1.dlog,title=distalyze%3A 1. load_done (untied)::load_done (event gap): 0.9945 → 1.759 s, z +6.16; changed; the graphs tie nothing to the slowdown, so it is unconfirmed');
  });

  it('input errors: one line, exit 2', async () => {
    const small = mkdtempSync(join(tmpdir(), 'distalyze-check-small-'));
    cpSync(night(1), join(small, 'a'), { recursive: true });
    cpSync(night(2), join(small, 'b'), { recursive: true });
    const r = await run('check', small, night(20));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`distalyze: check: the baseline '${small}' holds 2 runs; at least 3 are needed for a distribution\n  hint: BASELINE is a directory of earlier runs, one subdirectory (or file) per run\n`);
    const missing = await run('check', baseline);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("distalyze: missing required argument 'new'\n  usage: distalyze check [options] BASELINE NEW… (see distalyze check --help)\n");
    const bad = await run('check', baseline, night(20), '--max-slowdown', 'lots');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('distalyze: --max-slowdown lots: expected a percentage such as 5%\n');
  });
});

describe('--ignore globs', () => {
  it('match whole names, * and ? only', () => {
    const m = ignoreMatcher(['config_*', 'v?r', 'a.b']);
    expect(['config_version', 'config_', 'var', 'a.b'].map(m)).toEqual([true, true, true, true]);
    expect(['my_config_version', 'vaar', 'axb', 'Config_x'].map(m)).toEqual([false, false, false, false]);
  });
});

/** A minimal XML well-formedness check: one root, tags balanced, attributes quoted, entities known. */
function wellFormed(xml: string): boolean {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const m of body.matchAll(token)) {
    if (m[6] !== undefined) return false;
    if (m[5] !== undefined) {
      if (/&(?!(?:amp|lt|gt|quot|apos);)/.test(m[5])) return false;
      if (stack.length === 0 && m[5].trim() !== '') return false;
      continue;
    }
    if (/&(?!(?:amp|lt|gt|quot|apos);)/.test(m[3] ?? '')) return false;
    if (m[1] === '/') {
      if (stack.pop() !== m[2]) return false;
    } else if (m[4] !== '/') {
      if (stack.length === 0) roots++;
      stack.push(m[2]!);
    } else if (stack.length === 0) roots++;
  }
  return stack.length === 0 && roots === 1;
}

describe('the gate on P (gateOf)', () => {
  const p = (meanNew: number, pValue: number, effect: number) => ({
    kind: 'event' as const, variable: 'duration', feature: 'last.abs' as const, method: 'prediction' as const, metric: true,
    significant: false, separated: false, t: effect, df: 9, p: pValue, log10p: Math.log10(pValue),
    meanGood: 10, meanBad: meanNew, nGood: 10, nBad: 1, effectSize: effect,
  });
  const o = { alpha: 0.05, maxSlowdown: 0.05, minEffect: 0, baselineRuns: 10 };
  it('passes a faster run', () => {
    expect(gateOf(p(9, 0.01, -2), [], o)).toMatchObject({ passed: true, reason: 'pass: duration is 10.0% faster than the baseline (−1 s: 9 against 10 ± 0.5 over 10 baseline runs; p 0.01, effect -2 sd)' });
  });
  it('passes a slowdown above the limit that is within the run-to-run spread', () => {
    expect(gateOf(p(12, 0.2, 1), [], o).reason).toBe('pass: duration is 20.0% slower than the baseline (+2 s: 12 against 10 ± 2 over 10 baseline runs; p 0.2, effect 1 sd), within the baseline\'s run-to-run spread (p ≥ 0.05)');
  });
  it('fails a significant slowdown above the limit, and counts the other features that differ', () => {
    const other = { ...p(1, 1e-6, 9), metric: false, significant: true, variable: 'x' };
    const g = gateOf(p(12, 1e-5, 8), [other], o);
    expect(g.passed).toBe(false);
    expect(g.reason).toBe('FAIL: duration is 20.0% slower than the baseline (+2 s: 12 against 10 ± 0.25 over 10 baseline runs; p 1.0e-5, effect 8 sd), beyond --max-slowdown 5%; 1 other feature differs significantly');
  });
});
