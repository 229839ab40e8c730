import { describe, expect, it } from 'vitest';
import { mantelHaenszelTest, occurrenceTest } from '../src/ttest/occurrence.js';

describe('occurrence test (SPEC §3)', () => {
  // Reference: scipy 1.17.1 stats.fisher_exact([[a, nBad − a], [c, nGood − c]]).pvalue (two-sided).
  const fisher: [a: number, nBad: number, c: number, nGood: number, p: number][] = [
    [5, 54, 0, 60, 0.02154250349406381], // an ERROR line in 5 of 54 bad requests, never in 60 good ones
    [3, 10, 9, 10, 0.019766611097880443],
    [20, 200, 2, 300, 5.773183226892355e-07],
    [0, 40, 40, 40, 1.8603403656036264e-23], // vanished
  ];
  for (const [a, nBad, c, nGood, p] of fisher) {
    it(`Fisher ${a}/${nBad} bad vs ${c}/${nGood} good: p = ${p}`, () => {
      const r = occurrenceTest({ occursBad: a, nBad, occursGood: c, nGood });
      expect(r.method).toBe('fisher');
      expect(r.p / p).toBeCloseTo(1, 9);
      expect(Math.sign(r.z)).toBe(Math.sign(a / nBad - c / nGood));
    });
  }

  it('G-test above the Fisher margin limit', () => {
    // scipy 1.17.1: chi2_contingency([[12000, 18000], [9000, 21000]], correction=False, lambda_="log-likelihood")
    // → G = 661.0385403068994, p = 8.881308562402394e-146
    const r = occurrenceTest({ occursBad: 12000, nBad: 30000, occursGood: 9000, nGood: 30000 });
    expect(r.method).toBe('g-test');
    expect(r.statistic).toBeCloseTo(661.0385403068994, 8);
    expect(r.p / 8.881308562402394e-146).toBeCloseTo(1, 8);
    expect(r.z).toBeCloseTo(Math.sqrt(661.0385403068994), 8);
  });

  it('Cohen\'s h as the effect size', () => {
    const r = occurrenceTest({ occursBad: 5, nBad: 54, occursGood: 0, nGood: 60 });
    expect(r.effectSize).toBeCloseTo(2 * Math.asin(Math.sqrt(5 / 54)), 14);
  });

  it('Mantel–Haenszel over strata (kinds)', () => {
    // statsmodels 0.14 StratifiedTable([[[3,7],[1,9]], [[10,20],[5,25]], [[2,2],[0,6]]]).test_null_odds(correction=False)
    // → statistic 5.350039573285477, p 0.020721800387410116 (rows: bad, good; columns: occurs, absent)
    const r = mantelHaenszelTest([
      { occursBad: 3, nBad: 10, occursGood: 1, nGood: 10 },
      { occursBad: 10, nBad: 30, occursGood: 5, nGood: 30 },
      { occursBad: 2, nBad: 4, occursGood: 0, nGood: 6 },
    ]);
    expect(r.statistic).toBeCloseTo(5.350039573285477, 10);
    expect(r.p / 0.020721800387410116).toBeCloseTo(1, 9);
    expect(r.z).toBeGreaterThan(0);
  });

  it('equal shares: p = 1, z = 0', () => {
    const r = occurrenceTest({ occursBad: 4, nBad: 8, occursGood: 4, nGood: 8 });
    expect(r.p).toBeCloseTo(1, 12);
    expect(r.z).toBe(0);
  });
});
