import { describe, expect, it } from 'vitest';
import { brownForsytheTest } from '../src/ttest/spread.js';

// The Brown–Forsythe test (Levene's with the group median; Brown & Forsythe, JASA 1974), against
// SciPy 1.17.1: `scipy.stats.levene(good, bad, center='median')` gives F and p; with two classes
// F = t² of src/ttest/spread.ts's pooled t on |x − median|, and p is the same.
const f64 = (x: number[]): Float64Array => Float64Array.from(x);

describe('brownForsytheTest (spread.ts)', () => {
  it('a wider bad class: F and p as SciPy computes them', () => {
    const good = f64([12.1, 9.8, 10.4, 11.0, 10.1, 9.5, 10.9, 10.2]);
    const bad = f64([6.0, 14.5, 9.9, 17.2, 3.1, 10.0, 12.8]);
    const r = brownForsytheTest(good, bad)!;
    // scipy.stats.levene(good, bad, center='median') → statistic 8.508016877637132, pvalue 0.012012939064853583
    expect(r.t * r.t).toBeCloseTo(8.508016877637132, 10);
    expect(r.p).toBeCloseTo(0.012012939064853583, 12);
    expect(r.t).toBeGreaterThan(0); // bad is the wider
    expect(r.df).toBe(13);
  });

  it('one outlier: the median keeps it from looking like a spread (F 0.845, p 0.378)', () => {
    const r = brownForsytheTest(f64([1, 2, 3, 4, 5, 6]), f64([1, 2, 3, 4, 5, 6, 100]))!;
    // scipy.stats.levene([1..6], [1..6, 100], center='median') → 0.8451049863497672, 0.37765909377976004
    expect(r.t * r.t).toBeCloseTo(0.8451049863497672, 10);
    expect(r.p).toBeCloseTo(0.37765909377976004, 12);
  });

  it('weights are replication counts: the same as the values repeated', () => {
    const r = brownForsytheTest(f64([1, 2, 3, 10]), f64([0, 5, 9]), f64([2, 1, 3, 1]), f64([1, 2, 1]))!;
    // scipy.stats.levene([1, 1, 2, 3, 3, 3, 10], [0, 5, 5, 9], center='median') → 0.11300853842290311, 0.7444495043922383
    expect(r.t * r.t).toBeCloseTo(0.11300853842290311, 10);
    expect(r.p).toBeCloseTo(0.7444495043922383, 12);
    expect(r.nGood).toBe(7);
  });

  it('edge cases: too few values; no spread in either class', () => {
    expect(brownForsytheTest(f64([1]), f64([1, 2, 3]))).toBeNull();
    expect(brownForsytheTest(f64([NaN, 4, NaN]), f64([1, 2, 3]))).toBeNull();
    expect(brownForsytheTest(f64([5, 5, 5]), f64([7, 7]))).toMatchObject({ t: 0, p: 1 });
  });
});
