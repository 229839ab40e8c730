import { describe, expect, it } from 'vitest';
import { verdictOf } from '../src/attention/verdict.js';
import { runTests } from '../src/ttest/index.js';
import { dlog, featuresOf } from './helpers/collect.js';

/** An instance: Start at 0, a step at 0.1 with the given events at the same time, End at 1 (so every wait is the same). */
const run = (...events: string[]): string => dlog('E 0 Start', 'E 0.1 Step', ...events.map((e) => `E 0.1 ${e}`), 'E 1 End');

describe('the verdict\'s candidate causes (src/attention/verdict.ts)', () => {
  it('with nothing significant, lists the strongest divergences as weak, an event new in bad before a stronger shift in frequency', () => {
    // shift: in 2 of 6 good runs, 6 of 6 bad (Fisher p = 0.061); ERROR: in none of 6 good, 3 of 6 bad (p = 0.18).
    const good = [run('shift'), run('shift'), run(), run(), run(), run()];
    const bad = [run('shift', 'ERROR'), run('shift', 'ERROR'), run('shift', 'ERROR'), run('shift'), run('shift'), run('shift')];
    const { features: fs } = featuresOf({ good, bad });
    const summary = runTests(fs, { alpha: 0.05, correction: 'bonferroni' });
    expect(summary.tests.some((t) => t.significant)).toBe(false);
    const v = verdictOf(fs, summary, [], 0.5);
    expect(v.causes.map((c) => c.source)).toEqual(v.causes.map(() => 'weak'));
    expect(v.causes[0]).toMatchObject({ variable: 'ERROR', presence: 'new' });
    expect(v.causes.map((c) => c.variable)).toContain('shift');
    // By |z| alone, ERROR would not come first.
    expect(Math.max(...v.causes.slice(1).map((c) => Math.abs(c.z)))).toBeGreaterThan(Math.abs(v.causes[0]!.z));
  });

  it('an alias of P is no cause in the features where it is P, but its occurrence still is', () => {
    // ERROR closes each failing run at its end (first.abs = D: an alias of P); it occurs in 4 of 12 good runs
    // and in every one of 12 bad runs (scipy 1.17 fisher_exact: p = 0.0014).
    const at = (end: number, error: boolean): string => dlog('E 0 Start', 'E 0.1 Step', ...(error ? [`E ${end} ERROR`] : []), `E ${end} End`);
    const good = Array.from({ length: 12 }, (_, i) => at(1 + i / 10, i < 4));
    // Three ends as in good, so that ERROR's first.abs correlates with D in both classes (r = 1).
    const bad = Array.from({ length: 12 }, (_, i) => at(1 + (i % 6) / 10, true));
    const { features: fs } = featuresOf({ good, bad });
    const summary = runTests(fs, { alpha: 0.05, correction: 'bonferroni' });
    const v = verdictOf(fs, summary, [], 0.5);
    expect(v.aliases.map((a) => a.variable)).toContain('ERROR');
    const error = v.causes.find((c) => c.variable === 'ERROR');
    // Listed by a feature of its own (its count and occurrence are both significant), not by first.abs.
    expect(error).toMatchObject({ source: 'divergence' });
    expect(['count', 'occurrence']).toContain(error!.feature);
    expect(v.causes.every((c) => !(c.variable === 'ERROR' && c.feature === 'first.abs'))).toBe(true);
  });
});
