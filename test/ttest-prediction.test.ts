import { describe, expect, it } from 'vitest';
import { fewValuesTest, predictionTest } from '../src/ttest/prediction.js';

const f = (...x: number[]): Float64Array => Float64Array.from(x);

describe('prediction test (SPEC §3, few instances)', () => {
  it('matches scipy: t = (x − mean)/(s·√(1 + 1/n)), n − 1 df', () => {
    // scipy 1.17.1: ref = [1, 2, 4, 7], x = 12 → t = (12 − 3.5)/(s·√1.25), p = 2·t.sf(|t|, 3)
    const r = predictionTest(f(1, 2, 4, 7), 12)!;
    expect(r.t).toBeCloseTo(2.873524466076956, 12);
    expect(r.df).toBe(3);
    expect(r.p).toBeCloseTo(0.06386598287726536, 12);
  });

  it('one bad value far outside the good ones: p from scipy, bad − good orientation', () => {
    // scipy 1.17.1: ref = [0.10, 0.12, 0.11, 0.13, 0.09], x = 1.0 → t 51.384173957876705, p 8.584953826610003e-07
    const r = fewValuesTest(f(0.10, 0.12, 0.11, 0.13, 0.09), f(1.0, NaN))!;
    expect(r.t).toBeCloseTo(51.384173957876705, 9);
    expect(r.p / 8.584953826610003e-07).toBeCloseTo(1, 9);
    expect(r.meanBad).toBe(1);
    expect(r.nBad).toBe(1);
  });

  it('two values: the smaller p, Bonferroni-corrected over both (×2)', () => {
    // scipy: x = 1.0 → p 8.584953826610003e-07; x = 0.5 → p 2.3038073815036855e-05; min·2
    const r = fewValuesTest(f(0.10, 0.12, 0.11, 0.13, 0.09), f(1.0, 0.5))!;
    expect(r.p / (2 * 8.584953826610003e-07)).toBeCloseTo(1, 9);
    expect(r.meanBad).toBeCloseTo(0.75, 15);
  });

  it('few good values against many bad ones: t keeps positive = bad larger', () => {
    const r = fewValuesTest(f(12), f(1, 2, 4, 7))!;
    expect(r.t).toBeCloseTo(-2.873524466076956, 12);
    expect(r.meanGood).toBe(12);
  });

  it('a constant reference: equal → p 1, different → separated', () => {
    expect(predictionTest(f(3, 3, 3), 3)).toMatchObject({ t: 0, p: 1 });
    expect(predictionTest(f(3, 3, 3), 4)).toMatchObject({ t: Infinity, p: 0, log10p: -Infinity });
  });

  it('does not apply with 3+ values in both classes, or fewer than 3 in the reference', () => {
    expect(fewValuesTest(f(1, 2, 3), f(4, 5, 6))).toBeNull();
    expect(fewValuesTest(f(1, 2), f(4))).toBeNull();
    expect(fewValuesTest(f(1, 2, 3), f(NaN, NaN))).toBeNull();
  });

  it('counts values past missing ones: 2 scattered values are few, 3 are not (each scan stops at the third)', () => {
    const good = f(NaN, 0.10, NaN, 0.12, 0.11, NaN, 0.13, 0.09, NaN);
    // The same two bad values as above, between missing ones: the same test (scipy: min p 8.584953826610003e-07, ×2).
    const two = fewValuesTest(good, f(NaN, NaN, 1.0, NaN, NaN, NaN, 0.5, NaN))!;
    expect(two.p / (2 * 8.584953826610003e-07)).toBeCloseTo(1, 9);
    expect(two.nBad).toBe(2);
    expect(two.nGood).toBe(5);
    // A third value far behind: Welch's territory, whatever follows it.
    expect(fewValuesTest(good, f(NaN, 1.0, NaN, 0.5, NaN, NaN, NaN, 0.7, 0.8, NaN))).toBeNull();
    // The reference needs 3 values: two scattered ones are not enough.
    expect(fewValuesTest(f(NaN, 1, NaN, NaN, 2, NaN), f(NaN, 4))).toBeNull();
  });
});
