import { describe, expect, it } from 'vitest';
import { negligibleTime, NEGLIGIBLE_SHARE, verdictOf } from '../src/attention/verdict.js';
import { sourceKey } from '../src/features/sources.js';
import { verdictSentence } from '../src/report/verdict.js';
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

  it('weak candidates: one per component, so one service\'s several new lines leave room for another\'s', () => {
    // order:A..order:F new in 3 of 6 bad runs (Fisher p = 0.18 each: weak); pay:ERROR new in 2 of 6 (p = 0.45), weaker.
    const order = ['order:A', 'order:B', 'order:C', 'order:D', 'order:E', 'order:F'];
    const good = Array.from({ length: 6 }, () => run());
    const bad = [run(...order), run(...order), run(...order, 'pay:ERROR'), run('pay:ERROR'), run(), run()];
    const { features: fs } = featuresOf({ good, bad });
    const summary = runTests(fs, { alpha: 0.05, correction: 'bonferroni' });
    expect(summary.tests.some((t) => t.significant)).toBe(false);
    const v = verdictOf(fs, summary, [], 0.5);
    const weak = v.causes.filter((c) => c.source === 'weak').map((c) => c.variable);
    expect(weak.filter((w) => w.startsWith('order:'))).toHaveLength(1);
    expect(weak).toContain('pay:ERROR');
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

  describe('a significant time too small to matter comes after every other candidate', () => {
    // Runs of 1 s (Dref = 1 s). Query's gap moves by `shift` s in every bad run, with 10 µs of jitter, so the
    // move is significant whatever its size; ERROR is new in 3 of 12 bad runs (Fisher p = 0.22: weak).
    const runs = (shift: number, errors: number): { good: string[]; bad: string[] } => {
      const one = (i: number, moved: number, error: boolean): string =>
        dlog('E 0 Start', `E ${(0.12 + moved + (i % 4) * 1e-5).toFixed(6)} Query`, ...(error ? ['E 0.5 ERROR'] : []), 'E 1 End');
      return {
        good: Array.from({ length: 12 }, (_, i) => one(i, 0, false)),
        bad: Array.from({ length: 12 }, (_, i) => one(i, shift, i < errors)),
      };
    };
    const verdict = (shift: number) => {
      const { features: fs } = featuresOf(runs(shift, 3));
      const summary = runTests(fs, { alpha: 0.05, correction: 'bonferroni' });
      return { fs, summary, v: verdictOf(fs, summary, [], 0.5) };
    };

    it('0.5 ms in a 1 s run: listed after the weak new ERROR, marked negligible', () => {
      const { summary, v } = verdict(0.0005);
      expect(summary.tests.find((t) => t.variable === 'Query' && t.feature === 'gap')!.significant).toBe(true);
      const order = v.causes.map((c) => [c.variable, c.source, c.negligible]);
      expect(order[0]).toEqual(['ERROR', 'weak', false]);
      // Query's gap, and Start's gap.after (the same interval), close the list.
      expect(order.slice(-2)).toEqual([['Query', 'divergence', true], ['Start', 'divergence', true]]);
    });

    it('50 ms in a 1 s run (5%): the top cause, before the weak ERROR', () => {
      const { v } = verdict(0.05);
      expect(v.causes[0]).toMatchObject({ variable: 'Query', source: 'divergence', negligible: false });
      expect(v.causes.findIndex((c) => c.variable === 'ERROR')).toBeGreaterThan(0);
    });
  });

  it('negligibleTime: times in seconds against 1% of Dref, shares of the run against 1%; counts, occurrences, metrics and log states never', () => {
    expect(NEGLIGIBLE_SHARE).toBe(0.01);
    const fs = { referenceDuration: 0.26, sources: new Map([[sourceKey('state', 'db:SELECT self'), 'span' as const], [sourceKey('state', 'db:CpuUsage'), 'metric' as const]]) };
    const t = (kind: 'event' | 'state', variable: string, feature: string, meanGood: number, meanBad: number) =>
      negligibleTime(fs, { kind, variable, feature: feature as never, meanGood, meanBad });
    // A span's self time 0.37 → 0.20 ms in requests of 260 ms (1% = 2.6 ms): negligible; 2.4 → 88 ms is not.
    expect(t('state', 'db:SELECT self', 'min', 0.00037, 0.0002)).toBe(true);
    expect(t('state', 'db:SELECT self', 'mean', 0.0024, 0.088)).toBe(false);
    // A metric or a translator's state has no unit to judge by.
    expect(t('state', 'db:CpuUsage', 'min', 0, 0.001)).toBe(false);
    expect(t('state', 'queue_len', 'min', 0, 0.001)).toBe(false);
    expect(t('event', 'Query', 'gap', 0.01, 0.0125)).toBe(true);
    expect(t('event', 'Query', 'wait', 0.01, 0.0127)).toBe(false);
    expect(t('event', 'Query', 'first.rel', 0.5, 0.505)).toBe(true);
    expect(t('event', 'Query', 'first.rel', 0.5, 0.52)).toBe(false);
    expect(t('event', 'ERROR', 'count', 0, 0.001)).toBe(false);
    expect(t('event', 'ERROR', 'occurrence', 0, 0.001)).toBe(false);
  });

  it('the sentence when the only significant divergences are negligible times', () => {
    const cause = { variable: 'db:SELECT self', kind: 'state' as const, feature: 'min' as const, method: 'welch' as const, z: -5.2, t: -9.9,
      meanGood: 0.00037, meanBad: 0.0002, presence: 'both' as const, source: 'divergence' as const, weight: null, negligible: true };
    const sentence = verdictSentence({ metric: null, causes: [cause], components: [], timeShares: [], eventSpan: null, aliases: [], modes: [], anySignificant: true });
    expect(sentence).toBe('Only times that differ by less than 1% of a run differ significantly, e.g. db:SELECT self (state min 3.700e-4 → 2.000e-4, z -5.2).');
  });
});
