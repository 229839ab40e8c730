import { describe, expect, it } from 'vitest';
import { verdictOf } from '../src/attention/verdict.js';
import { compareEffect } from '../src/ttest/effect.js';
import { runTests } from '../src/ttest/index.js';
import { dlog, featuresOf } from './helpers/collect.js';

// SPEC §3: "Ties in the ranking are broken by effect size, never by name."
describe('ties at the capped z are broken by effect size', () => {
  it('compareEffect: |g| first; between perfect separations (g = ∞), the change relative to the larger mean', () => {
    const r = (effectSize: number, meanGood: number, meanBad: number) => ({ effectSize, meanGood, meanBad });
    expect(compareEffect(r(3, 1, 2), r(2, 1, 5))).toBeLessThan(0);
    expect(compareEffect(r(Infinity, 1, 1.1), r(2, 1, 5))).toBeLessThan(0);
    expect(compareEffect(r(Infinity, 1, 1.1), r(Infinity, 1, 10))).toBeGreaterThan(0);
    expect(compareEffect(r(-Infinity, 10, 1), r(Infinity, 1, 1.1))).toBeLessThan(0);
    expect(compareEffect(r(NaN, 0, 0), r(0, 0, 0))).toBe(0);
  });

  it('two perfectly separated states of equal Σ|z|: the larger change ranks first, whatever the names', () => {
    // `a:herring` moves 1.0 → 1.1, `z:cause` 1 → 10, each constant within a class: both separated, both at the same
    // capped z in every state feature. By name, `a:herring` would come first.
    const one = (herring: number, cause: number, end: number): string =>
      dlog('E 0 Start', `S 0.5 a:herring ${herring}`, `S 0.5 z:cause ${cause}`, `E ${end} End`);
    const good = Array.from({ length: 8 }, (_, i) => one(1, 1, 1 + i / 100));
    const bad = Array.from({ length: 8 }, (_, i) => one(1.1, 10, 1 + i / 100));
    const { features: fs } = featuresOf({ good, bad });
    const summary = runTests(fs, { alpha: 0.05, correction: 'bonferroni' });
    const ranked = summary.ranking.filter((r) => r.variable !== 'duration');
    expect(ranked.map((r) => r.variable)).toEqual(['z:cause', 'a:herring']);
    expect(ranked[0]!.score).toBe(ranked[1]!.score); // a tie in Σ|z|
    const v = verdictOf(fs, summary, [], 0.5);
    expect(v.causes.map((c) => c.variable).filter((x) => x !== 'duration').slice(0, 2)).toEqual(['z:cause', 'a:herring']);
  });
});
