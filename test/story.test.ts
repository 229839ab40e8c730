import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from './helpers/run.js';
import { FIXTURES, FIXTURES_DIR } from './helpers/synth.js';

// Golden tests of issue 57: one story from the first line to the CI annotation. On the
// pipeline fixture (cause lock_wait_ms; herrings config_version, heap_mb) the verdict, the
// first list, the graphs and check's failure and annotations all name the cause first and
// the herrings as herrings.

const FIRST_SCREEN = [
  "Verdict: Bad instances are worse: duration 6.964 s → 12.6 s, 80.98% slower (+5.639 s); Welch's t-test, p 1.4e-12. Top cause: lock_wait_ms (state min 8.607 → 645.1, z +7.42, tied to the slowdown). Where the time went: +5.723 s before FlushEnd (101% of the added time); other waits shrank, so a share passes 100%.",
  '',
  "What changed, the cause first — the verdict's candidates; a herring changed but is not tied to P in the dependency graphs",
  '   1. lock_wait_ms   state min       8.607 → 645.1              z +7.42 cause: tied to the slowdown',
  '   2. FlushEnd       event wait      0.7257 → 6.449 s           z +7.33 cause: tied to the slowdown',
  '   3. config_version state min       3 → 4                      z +9.98 herring: changed, but not tied to the slowdown',
  '   4. heap_mb        state final     419.9 → 779.1              z +9.98 herring: changed, but not tied to the slowdown',
  // FlushBegin's gap.after is FlushEnd's gap seen from the other event: the cause's twin, not a herring.
  '   5. FlushBegin     event gap.after 0.1205 → 0.907 s           z +7.29 cause: tied to the slowdown: the same change as FlushEnd gap',
  '   6. Compaction     event first.rel 85.13% → 91.29% of the run z +7.93 moved in time with the slowdown: a consequence, not a cause',
  '   7. OpenSegment    event last.abs  5.058 → 9.961 s            z +6.93 moved in time with the slowdown: a consequence, not a cause',
  '   8. cpu_pct        state min       54.72 → 51.97              z -1.77 not significant: where to look next',
  '   9. queue_len      state max       12.88 → 14.2               z +1.61 not significant: where to look next',
  '  10. mem_mb         state max       2060 → 2100                z +1.22 not significant: where to look next',
  '  … 3 more (--limit, or --json)',
  '  P under other names (aliases, not causes): Finish',
  '',
  'Where to look — how the causes are tied to P: its dependency graph, significant variables and their paths to P',
  '  States, feature min (same graph: mean, max, final, q1.abs, half.abs, q3.abs, q1.rel, half.rel, q3.rel), bad class: score 0.195',
  '    duration (P) z +7.08',
  '    └─ lock_wait_ms z +7.42  weight 1.00',
  '  Events, feature wait (same graph: gap), bad class: score 0.193',
  '    duration (P) z +7.08',
  '    └─ FlushEnd z +7.33  weight 1.00',
  '',
];

describe('the first screen of the pipeline fixture', () => {
  it('tells the verdict, then the cause first and the herrings as herrings, then the graphs that support it', async () => {
    const r = await run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--no-color');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('Verdict: '));
    expect(lines.slice(at, at + FIRST_SCREEN.length)).toEqual(FIRST_SCREEN);
    // The divergence-only ranking comes second, with the herrings on top and marked as such.
    expect(lines[at + FIRST_SCREEN.length]).toMatch(/^Divergence alone — every significant variable by Σ\|z\|/);
    expect(lines[at + FIRST_SCREEN.length + 1]).toBe('   1. config_version state Σ|z|    99.8  (herring)');
    // Identical features of one variable are one line.
    expect(lines[at + FIRST_SCREEN.length + 2]).toBe('        min = mean = max = final = q1.abs = half.abs = q3.abs = q1.rel = half.rel = q3.rel 3 → 4  z +9.98  p 1.9e-23');
  });

  it('--sort divergence puts the ranking by divergence alone first', async () => {
    const r = await run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--no-color', '--sort', 'divergence');
    expect(r.stdout.indexOf('Divergence alone')).toBeLessThan(r.stdout.indexOf('What changed, the cause first'));
    expect(r.stdout.indexOf('Verdict: ')).toBeLessThan(r.stdout.indexOf('Divergence alone'));
  });
});

describe('P in plain words in the JSON too', () => {
  it('names the test that decided P and, within kinds, the kind it was decided in', async () => {
    const metricOf = async (...args: string[]): Promise<Record<string, unknown>> =>
      (JSON.parse((await run(...args, '--json', '-', '-q')).stdout) as { verdict: { metric: Record<string, unknown> } }).verdict.metric;
    const pipeline = await metricOf(FIXTURES.pipelineGood, FIXTURES.pipelineBad);
    expect([pipeline.method, pipeline.instanceKind, pipeline.test]).toEqual(['welch', null, "Welch's t-test"]);
    const tt = join(FIXTURES_DIR, 'trainticket');
    const kinds = await metricOf(join(tt, 'good'), join(tt, 'bad'), '--translator', join(tt, 'log.mjs'));
    const kind = '/* → ts-food-service:/api/v1/foodservice/foods/{date}/{startStation}/{endStation}/{tripId}';
    expect([kinds.method, kinds.instanceKind, kinds.test]).toEqual(['kinds', kind, `Welch's t-test within ${kind}, the strongest of 7 kinds (p × 7)`]);
  });
});

describe('check on runs of the pipeline fixture', () => {
  let base = '';
  let slow = '';
  beforeAll(() => {
    // Four baseline runs of ten good instances each, and one slow run of ten bad ones.
    const root = mkdtempSync(join(tmpdir(), 'distalyze-story-'));
    base = join(root, 'baseline');
    slow = join(root, 'slow');
    mkdirSync(slow, { recursive: true });
    const name = (i: number): string => `node-${String(i).padStart(3, '0')}.dlog`;
    for (let r = 0; r < 4; r++) {
      const dir = join(base, `run-${r + 1}`);
      mkdirSync(dir, { recursive: true });
      for (let i = r * 10 + 1; i <= r * 10 + 10; i++) symlinkSync(join(FIXTURES.pipelineGood, name(i)), join(dir, name(i)));
    }
    for (let i = 1; i <= 10; i++) symlinkSync(join(FIXTURES.pipelineBad, name(i)), join(slow, name(i)));
  });

  const FAIL = 'FAIL: duration is 75.0% slower than the baseline (+5.224 s: 12.19 against 6.964 ± 0.105 over 4 baseline runs; p 2.5e-5, effect 49.77 sd), beyond --max-slowdown 5%; ' +
    'top cause: lock_wait_ms (state half.abs 9.588 → 679.1, tied to the slowdown); changed, but not tied to it: config_version, heap_mb; 46 other features differ significantly';

  it('fails naming the top cause the main command names, the added time and the herrings, once', async () => {
    const r = await run('check', base, slow);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toBe(FAIL);
    expect(lines.slice(2, 7)).toEqual([
      "what changed, the cause first (the verdict's order; each also differs from the baseline run by run):",
      '   1. lock_wait_ms (state half.abs): 9.588 → 679.1, z +3.59; cause: tied to the slowdown',
      '   2. config_version (state min): 3 → 4, z +6.37; herring: changed, but not tied to the slowdown',
      '   3. heap_mb (state q3.rel): 419.4 → 775.8, z +6.37; herring: changed, but not tied to the slowdown',
      '   4. FlushBegin (event first.rel): 9.906% → 6.141% of the run, z -3.61; moved in time with the slowdown: a consequence, not a cause',
    ]);
    expect(r.stderr).toBe('');
  });

  it('--github: the failure, then the causes in the verdict\'s order; at workflow level when the run is outside the workspace', async () => {
    const r = await run('check', base, slow, '--github', '-q');
    expect(r.stdout).toBe([
      `::error title=distalyze check::${FAIL.replace(/%/g, '%25')}`,
      '::warning title=distalyze%3A 1. lock_wait_ms (cause)::lock_wait_ms (state half.abs): 9.588 → 679.1, z +3.59; cause: tied to the slowdown',
      '::notice title=distalyze%3A 2. config_version (herring)::config_version (state min): 3 → 4, z +6.37; herring: changed, but not tied to the slowdown',
      '::notice title=distalyze%3A 3. heap_mb (herring)::heap_mb (state q3.rel): 419.4 → 775.8, z +6.37; herring: changed, but not tied to the slowdown',
      '::notice title=distalyze%3A 4. FlushBegin (consequence)::FlushBegin (event first.rel): 9.906%25 → 6.141%25 of the run, z -3.61; moved in time with the slowdown: a consequence, not a cause',
      '',
    ].join('\n'));
  });
});
