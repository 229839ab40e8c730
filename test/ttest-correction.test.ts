import { describe, it, expect } from 'vitest';
import { significantFlags } from '../src/ttest/correction.js';

const log10 = (ps: number[]) => ps.map((p) => Math.log10(p));

describe('significantFlags', () => {
  // Wikipedia, "Holm–Bonferroni method", Example: four hypotheses, α = 0.05
  const holmExample = [0.01, 0.04, 0.03, 0.005];

  it('holm: the Wikipedia example rejects H1 and H4', () => {
    // sorted: 0.005 < 0.05/4 ✓, 0.01 < 0.05/3 ✓, 0.03 < 0.05/2 ✗ → stop
    expect(significantFlags(log10(holmExample), 0.05, 'holm')).toEqual([true, false, false, true]);
  });

  it('bonferroni: p < α/m only', () => {
    expect(significantFlags(log10(holmExample), 0.05, 'bonferroni')).toEqual([true, false, false, true]);
    expect(significantFlags(log10([0.016, 0.017, 0.5]), 0.05, 'bonferroni')).toEqual([true, false, false]);
  });

  it('none: p < α', () => {
    expect(significantFlags(log10(holmExample), 0.05, 'none')).toEqual([true, true, true, true]);
    expect(significantFlags(log10([0.05, 0.0499]), 0.05, 'none')).toEqual([false, true]);
  });

  // Benjamini & Hochberg (1995), §4.1: 15 p-values of a clinical trial, α = 0.05.
  // Bonferroni and Holm reject 3, BH rejects 4. (Listed here out of order.)
  const bhExample = [0.0298, 0.0004, 0.3240, 0.0001, 0.0459, 0.0201, 1.0, 0.0019, 0.4262,
    0.0344, 0.5719, 0.0095, 0.6528, 0.0278, 0.7590];
  const rejected = (flags: boolean[]) => bhExample.filter((_, i) => flags[i]).sort((a, b) => a - b);

  it('BH 1995 example: bonferroni 3, holm 3, bh 4', () => {
    expect(rejected(significantFlags(log10(bhExample), 0.05, 'bonferroni'))).toEqual([0.0001, 0.0004, 0.0019]);
    expect(rejected(significantFlags(log10(bhExample), 0.05, 'holm'))).toEqual([0.0001, 0.0004, 0.0019]);
    // k = 4: 0.0095 < 4·0.05/15 = 0.0133 ✓; k = 5..15 all fail
    expect(rejected(significantFlags(log10(bhExample), 0.05, 'bh'))).toEqual([0.0001, 0.0004, 0.0019, 0.0095]);
  });

  it('bh steps up: a larger p that passes carries the smaller ones', () => {
    // 0.04 ≥ 2·0.05/3, but 0.045 < 3·0.05/3, so all three are significant
    expect(significantFlags(log10([0.045, 0.01, 0.04]), 0.05, 'bh')).toEqual([true, true, true]);
    expect(significantFlags(log10([0.06, 0.01, 0.04]), 0.05, 'bh')).toEqual([false, true, false]);
  });

  it('holm steps down: once one fails, larger ones fail too', () => {
    // sorted 0.02 < 0.05/2 ✓, 0.03 < 0.05/1 ✓; then 0.026 ≥ 0.05/2 stops at once
    expect(significantFlags(log10([0.03, 0.02]), 0.05, 'holm')).toEqual([true, true]);
    expect(significantFlags(log10([0.03, 0.026]), 0.05, 'holm')).toEqual([false, false]);
  });

  it('compares in log space: underflowed p-values still order', () => {
    const logs = [-400, -1, -350, -300.4, -2];
    expect(significantFlags(logs, 0.05, 'bonferroni')).toEqual([true, false, true, true, false]);
    // α/m = 1e-300/5: −400 ✓; 1e-300/4: −350 ✓; 1e-300/3 = 10^−300.48: −300.4 ✗ → stop
    expect(significantFlags(logs, 1e-300, 'holm')).toEqual([true, false, true, false, false]);
    expect(significantFlags(logs, 1e-300, 'bonferroni')).toEqual([true, false, true, false, false]);
    // k = 4: 10^−2 < 4·0.05/5 ✓
    expect(significantFlags(logs, 0.05, 'bh')).toEqual([true, false, true, true, true]);
    expect(significantFlags([-Infinity, -Infinity], 0.05, 'holm')).toEqual([true, true]);
  });

  it('handles m = 0 and NaN', () => {
    for (const method of ['bonferroni', 'holm', 'bh', 'none'] as const) {
      expect(significantFlags([], 0.05, method)).toEqual([]);
      expect(significantFlags([NaN, -5], 0.05, method)).toEqual([false, true]);
    }
  });
});
