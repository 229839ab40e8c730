import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { welchTest } from '../src/ttest/welch.js';
import { studentTTwoSided } from '../src/stats/student-t.js';
import type { WelchResult } from '../src/ttest/types.js';

const f64 = (xs: readonly number[]): Float64Array => Float64Array.from(xs);

function run(good: readonly number[], bad: readonly number[], wGood?: readonly number[], wBad?: readonly number[]): WelchResult {
  const r = welchTest(f64(good), f64(bad), wGood && f64(wGood), wBad && f64(wBad));
  expect(r).not.toBeNull();
  return r!;
}

function expectRel(actual: number, expected: number, tol: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol * Math.abs(expected));
}

/**
 * Reference values for welchTest(good, bad), computed on 2026-11-22 two ways:
 * - scipy 1.17.1: `stats.ttest_ind(bad, good, equal_var=False)` (statistic,
 *   pvalue, df);
 * - mpmath 1.3.0 at 40 digits on the exact binary values of the inputs:
 *   means, s² = Σ(x − x̄)²/(n − 1), t, Welch–Satterthwaite df,
 *   p = betainc(df/2, 1/2, 0, df/(df + t²), regularized=True),
 *   Hedges' g = (1 − 3/(4(n₁+n₂) − 9))·(x̄_bad − x̄_good)/s_pooled.
 * The two agree to ~3e-14 (scipy's one-pass rounding on the first case);
 * the mpmath values are the exact answer for these doubles.
 */
const CASES: {
  name: string;
  good: number[];
  bad: number[];
  scipy: { t: number; p: number; df: number };
  mpmath: { t: number; df: number; p: number; log10p: number; g: number; meanGood: number; meanBad: number };
}[] = [
  {
    // Wikipedia, "Student's t-test", Worked examples, Unequal variances:
    // A1 (bad) = {30.02, 29.99, 30.11, 29.97, 30.01, 29.99}, A2 (good) = {29.89, …};
    // published: sqrt(s1²/n1 + s2²/n2) ≈ 0.04849, d.f. ≈ 7.031, t ≈ 1.959, p ≈ 0.09077.
    name: 'wikipedia',
    good: [29.89, 29.93, 29.72, 29.98, 30.02, 29.98],
    bad: [30.02, 29.99, 30.11, 29.97, 30.01, 29.99],
    scipy: { t: 1.9590058081081434, p: 0.09077332428566112, df: 7.030559959884322 },
    mpmath: { t: 1.9590058081080824, df: 7.0305599598843201, p: 0.090773324285669405, log10p: -1.0420417596026691, g: 1.0440300282971462, meanGood: 29.92, meanBad: 30.014999999999999 },
  },
  {
    // Rosetta Code, "Welch's t-test", first data pair (expected p ≈ 0.010751).
    name: 'rosetta',
    good: [3.0, 4.0, 1.0, 2.1],
    bad: [490.2, 340.0, 433.9],
    scipy: { t: 9.559497721932658, p: 0.010751561149784488, df: 2.0008523488562844 },
    mpmath: { t: 9.559497721932659, df: 2.0008523488562839, p: 0.010751561149784495, log10p: -1.9685284706775841, g: 7.3479226823552575, meanGood: 2.525, meanBad: 421.36666666666666 },
  },
  {
    name: 'unequal sizes and variances',
    good: [0.8, 1.1, 0.95, 1.3, 0.7, 1.05, 0.99, 1.2],
    bad: [1.9, 2.6, 1.4, 3.3, 2.2],
    scipy: { t: 3.8554317200472568, p: 0.015343597101800496, df: 4.382030377870192 },
    mpmath: { t: 3.8554317200472568, df: 4.3820303778701925, p: 0.015343597101800496, log10p: -1.8140728138987827, g: 2.5577752195315106, meanGood: 1.01125, meanBad: 2.28 },
  },
  {
    name: 'bad smaller (negative t)',
    good: [12.5, 13.1, 11.9, 12.2, 12.8, 13.0, 12.4],
    bad: [10.1, 9.8, 11.2, 10.5, 10.9, 9.9, 10.4, 10.0, 10.7],
    scipy: { t: -9.440241436125325, p: 2.41115629629901e-7, df: 13.60193621645255 },
    mpmath: { t: -9.4402414361253196, df: 13.60193621645255, p: 2.4111562962990293e-7, log10p: -6.617774636814523, g: -4.4388207910097694, meanGood: 12.557142857142857, meanBad: 10.388888888888889 },
  },
  {
    name: 'far tail (p ≈ 5e-97)',
    good: Array.from({ length: 3 }, () => [1.0, 1.01, 0.99, 1.02, 0.98, 1.0, 1.01, 0.99, 1.0, 1.01]).flat(),
    bad: Array.from({ length: 3 }, () => [2.0, 2.01, 1.99, 2.02, 1.98, 2.0, 2.01, 1.99, 2.0, 2.01]).flat(),
    scipy: { t: 335.2657166714097, p: 4.773168032375126e-97, df: 58.0 },
    mpmath: { t: 335.26571667140991, df: 58.0, p: 4.7731680323749175e-97, log10p: -96.321193276664828, g: 85.441011973093103, meanGood: 1.001, meanBad: 2.0009999999999999 },
  },
];

describe('welchTest against scipy and mpmath', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const r = run(c.good, c.bad);
      expectRel(r.t, c.mpmath.t, 1e-12);
      expectRel(r.df, c.mpmath.df, 1e-12);
      expectRel(r.p, c.mpmath.p, 1e-11);
      expect(Math.abs(r.log10p - c.mpmath.log10p)).toBeLessThan(1e-12);
      expectRel(r.effectSize, c.mpmath.g, 1e-12);
      expectRel(r.meanGood, c.mpmath.meanGood, 1e-15);
      expectRel(r.meanBad, c.mpmath.meanBad, 1e-15);
      expect(r.nGood).toBe(c.good.length);
      expect(r.nBad).toBe(c.bad.length);
      // scipy is an independent implementation with its own rounding
      expectRel(r.t, c.scipy.t, 1e-12);
      expectRel(r.df, c.scipy.df, 1e-12);
      expectRel(r.p, c.scipy.p, 1e-11);
    });
  }

  it('reproduces the published rounding of the Wikipedia example', () => {
    const { good, bad } = CASES[0]!;
    const r = run(good, bad);
    expect(r.t).toBeCloseTo(1.959, 3);
    expect(r.df).toBeCloseTo(7.031, 3);
    expect(r.p).toBeCloseTo(0.09077, 5);
    expect((r.meanBad - r.meanGood) / r.t).toBeCloseTo(0.04849, 5);
  });
});

describe('welchTest by hand', () => {
  it('t, df and Hedges g of a small example', () => {
    // means 2 and 5, s² = 1 in both: t = 3/sqrt(1/3 + 1/3), df = (2/3)²/(2·(1/3)²/2) = 4,
    // s_pooled = 1, J = 1 − 3/(4·6 − 9) = 0.8, g = 0.8·3 = 2.4
    const r = run([1, 2, 3], [4, 5, 6]);
    expect(r.t).toBeCloseTo(3 / Math.sqrt(2 / 3), 14);
    expect(r.df).toBeCloseTo(4, 13);
    expect(r.effectSize).toBeCloseTo(2.4, 14);
    expect(r.p).toBe(studentTTwoSided(r.t, r.df).p);
    expect([r.meanGood, r.meanBad, r.nGood, r.nBad]).toEqual([2, 5, 3, 3]);
  });

  it('Hedges g pools unequal variances and sizes', () => {
    // good: n=4, mean 2.5, s² = 5/3; bad: n=2, mean 10, s² = 8
    // s²_pooled = (3·5/3 + 1·8)/4 = 13/4, J = 1 − 3/(24 − 9) = 0.8
    const r = run([1, 2, 3, 4], [8, 12]);
    expect(r.effectSize).toBeCloseTo((0.8 * 7.5) / Math.sqrt(13 / 4), 14);
  });
});

describe('welchTest: weights are replication counts', () => {
  it('weighted result equals the result on replicated arrays', () => {
    const good = [3.1, 2.7, 4.4, 3.9, 3.3];
    const wGood = [1, 3, 2, 1, 4];
    const bad = [5.2, 4.1, 6.3, 4.8];
    const wBad = [2, 1, 1, 5];
    const replicate = (xs: number[], ws: number[]) => xs.flatMap((x, i) => Array<number>(ws[i]!).fill(x));
    const weighted = run(good, bad, wGood, wBad);
    const replicated = run(replicate(good, wGood), replicate(bad, wBad));
    for (const key of ['t', 'df', 'p', 'log10p', 'meanGood', 'meanBad', 'nGood', 'nBad', 'effectSize'] as const) {
      expectRel(weighted[key], replicated[key], 1e-13);
    }
    expect(weighted.nGood).toBe(11);
    expect(weighted.nBad).toBe(9);
  });

  it('weights of 1 change nothing', () => {
    const good = [1, 4, 2, 8];
    const bad = [5, 7, 6, 9, 3];
    expect(run(good, bad, [1, 1, 1, 1], [1, 1, 1, 1, 1])).toEqual(run(good, bad));
  });

  it('without weights, the same doubles as with weights of 1, at every magnitude (to the bit)', () => {
    // Unweighted moments multiply by 1/scale where the weighted ones divide by scale (a power of two): the
    // same rounding, so the same bits, down to subnormal values (scale 2^−1074, whose inverse is no double).
    const value = fc.oneof(
      fc.double({ min: -1e3, max: 1e3, noNaN: true }),
      fc.double({ noNaN: true }),
      fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 5e-324, -1e-310, 1.7976931348623157e308),
    );
    const sample = fc.array(value, { minLength: 2, maxLength: 20 });
    fc.assert(fc.property(sample, sample, (good, bad) => {
      const r = welchTest(f64(good), f64(bad));
      const w = welchTest(f64(good), f64(bad), f64(good.map(() => 1)), f64(bad.map(() => 1)));
      expect(r === null ? null : Object.entries(r).map(([k, v]) => [k, Object.is(v, -0) ? '-0' : v]))
        .toEqual(w === null ? null : Object.entries(w).map(([k, v]) => [k, Object.is(v, -0) ? '-0' : v]));
    }), { numRuns: 2000, seed: 17 });
    for (const xs of [[5e-324, 1e-323, 1.5e-323], [1e-310, 3e-310, 2e-310, 4e-310], [1e308, -1.5e308, 1.7e308]]) {
      const good = f64(xs);
      const bad = f64(xs.map((x) => x / 2));
      expect(welchTest(good, bad)).toEqual(welchTest(good, bad, good.map(() => 1), bad.map(() => 1)));
    }
  });

  it('counts instances, not weights, for the 2-value minimum', () => {
    expect(welchTest(f64([5]), f64([1, 2, 3]), f64([10]), f64([1, 1, 1]))).toBeNull();
  });
});

describe('welchTest: missing values', () => {
  it('skips NaN values together with their weights', () => {
    const withMissing = run([1, NaN, 2, 4, NaN], [NaN, 6, 7, 9], [1, 5, 2, 1, 7], [3, 1, 2, 1]);
    const without = run([1, 2, 4], [6, 7, 9], [1, 2, 1], [1, 2, 1]);
    expect(withMissing).toEqual(without);
  });

  it('returns null when a class has fewer than 2 values', () => {
    expect(welchTest(f64([1]), f64([1, 2, 3]))).toBeNull();
    expect(welchTest(f64([1, 2, 3]), f64([]))).toBeNull();
    expect(welchTest(f64([1, NaN, NaN]), f64([1, 2, 3]))).toBeNull();
    expect(welchTest(f64([NaN, NaN]), f64([NaN, NaN]))).toBeNull();
    expect(welchTest(f64([1, 2]), f64([3, 4]))).not.toBeNull();
  });
});

describe('welchTest: zero variances (SPEC §3 edge cases)', () => {
  it('both constant and equal: t = 0, p = 1', () => {
    const r = run([2, 2, 2], [2, 2, 2, 2]);
    expect(r).toMatchObject({ t: 0, p: 1, log10p: 0, df: 5, effectSize: 0, meanGood: 2, meanBad: 2 });
  });

  it('both constant and different: perfectly separated', () => {
    const up = run([2, 2, 2], [3, 3], [1, 2, 1], [1, 1]);
    expect(up).toMatchObject({ t: Infinity, p: 0, log10p: -Infinity, df: 4 + 2 - 2, effectSize: Infinity });
    const down = run([3, 3], [2, 2, 2]);
    expect(down).toMatchObject({ t: -Infinity, p: 0, log10p: -Infinity, df: 3, effectSize: -Infinity });
  });

  it('values equal but for rounding count as constant', () => {
    const pointThree = 0.1 + 0.2; // 0.30000000000000004
    const jitter = [pointThree, 0.3, pointThree, 0.3, pointThree];
    expect(run(jitter, [0.3, 0.3, 0.3])).toMatchObject({ t: 0, p: 1, effectSize: 0 });
    expect(run([pointThree, pointThree, pointThree], [0.3, 0.3])).toMatchObject({ t: 0, p: 1 });
    const big = [1e12 + 0.1 + 0.2, 1e12 + 0.3, 1e12 + 0.3];
    expect(run(big, [1e12 + 0.3, 1e12 + 0.3]).t).toBe(0);
    expect(run(jitter, [0.4, 0.4, 0.4])).toMatchObject({ t: Infinity, p: 0, log10p: -Infinity });
  });

  it('one class constant: finite t, df = n − 1 of the other class', () => {
    const r = run([5, 5, 5, 5], [6, 7, 8]);
    expect(r.t).toBeCloseTo(2 / Math.sqrt(1 / 3), 13);
    expect(r.df).toBeCloseTo(2, 13);
    expect(Number.isFinite(r.effectSize)).toBe(true);
  });

  it('tiny and huge magnitudes neither underflow nor overflow', () => {
    const base = run([1, 2, 3, 4], [3, 5, 4, 6, 7]);
    for (const scale of [1e-200, 1e-300, 1e200, 1e300]) {
      const r = run([1, 2, 3, 4].map((x) => x * scale), [3, 5, 4, 6, 7].map((x) => x * scale));
      expectRel(r.t, base.t, 1e-14);
      expectRel(r.df, base.df, 1e-14);
      expectRel(r.effectSize, base.effectSize, 1e-14);
      expectRel(r.meanBad, base.meanBad * scale, 1e-14);
    }
  });
});

describe('welchTest properties', () => {
  const sample = fc.array(fc.double({ min: -1000, max: 1000, noNaN: true }), { minLength: 2, maxLength: 30 });
  const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);

  it('is antisymmetric in its classes: t → −t, same df and p', () => {
    fc.assert(
      fc.property(sample, sample, (a, b) => {
        const ab = run(a, b);
        const ba = run(b, a);
        expect(ba.t === -ab.t).toBe(true);
        expect(ba.df).toBe(ab.df);
        expect(ba.p).toBe(ab.p);
        expect(ba.log10p).toBe(ab.log10p);
        expect(ba.effectSize === -ab.effectSize).toBe(true);
        expect([ba.meanGood, ba.nGood]).toEqual([ab.meanBad, ab.nBad]);
      }),
    );
  });

  it('is invariant to adding a constant to both classes (up to rounding)', () => {
    fc.assert(
      fc.property(sample, sample, fc.double({ min: -1e4, max: 1e4, noNaN: true }), (a, b, c) => {
        fc.pre(spread(a) > 1e-3 && spread(b) > 1e-3);
        const before = run(a, b);
        const after = run(a.map((x) => x + c), b.map((x) => x + c));
        // adding c rounds each value by up to ~1e-12 of its magnitude: allow for that
        const tol = 1e-9 * (1 + Math.abs(c) / Math.min(spread(a), spread(b)));
        expect(Math.abs(after.t - before.t)).toBeLessThanOrEqual(tol * (1 + Math.abs(before.t)));
        expect(Math.abs(after.df - before.df)).toBeLessThanOrEqual(tol * before.df);
        expect(Math.abs(after.log10p - before.log10p)).toBeLessThanOrEqual(tol * (1 + Math.abs(before.log10p)) * (1 + Math.abs(before.t)));
      }),
    );
  });
});
