import { describe, expect, it } from 'vitest';
import { predictionTest } from '../src/ttest/prediction.js';
import { FEW_VALUES, REFERENCE_MIN_VALUES } from '../src/stats/sample-sizes.js';
import { mulberry32 } from '../src/stats/prng.js';
import { unitOutlierTest, windowsByEntry, windowsByTime, windowTest, type Windows } from '../src/ttest/windows.js';

const f64 = (xs: readonly number[]): Float64Array => Float64Array.from(xs);

/** Good windows then bad windows, flattened, with each value's window. */
function layout(good: number[][], bad: number[][]): { x: Float64Array; windows: Windows; nGood: number } {
  const all = [...good, ...bad];
  const x = f64(all.flat());
  const of = Int32Array.from(all.flatMap((w, j) => w.map(() => j)));
  return { x, windows: { of, good: good.length, bad: bad.length }, nGood: good.flat().length };
}

describe('windowTest (random effects: the bad class against the spread between good windows)', () => {
  it('matches the formula computed independently (numpy 2, scipy 1.17)', () => {
    // Python, beside: n,m,ss per window; N=Σn; x̄=Σn·m/N; σ²=Σss/(N−k); H=Σ(n/N)²;
    // τ² = max(0, var(m_good, ddof=1) − σ²_good·mean(1/n_good));
    // V = σ²_b/N_b + σ²_g/N_g + τ²(H_b + H_g); df = V² / Σ v²/df over (N_b−k_b, N_g−k_g, k_g−1);
    // t = (x̄_b − x̄_g)/√V; p = 2·scipy.stats.t.sf(|t|, df)
    // → τ² = 4.916666666666667, t = 2.875, df = 2.3467922906752823, p = 0.08532240336420416
    const { x, windows, nGood } = layout([[10, 12, 11, 13], [15, 14, 16, 17], [11, 10, 12, 13]], [[20, 19, 21, 22]]);
    const r = windowTest(x, undefined, windows, 0, nGood, nGood, x.length)!;
    expect(r.tau2).toBeCloseTo(4.916666666666667, 12);
    expect(r.t).toBeCloseTo(2.875, 12);
    expect(r.df).toBeCloseTo(2.3467922906752823, 10);
    expect(r.p).toBeCloseTo(0.08532240336420416, 8);
    expect(r.meanGood).toBeCloseTo(154 / 12, 12);
    expect(r).toMatchObject({ meanBad: 20.5, nGood: 12, nBad: 4, windowsGood: 3, windowsBad: 1 });
    // The same difference tested over requests alone (Welch) would be p ≈ 2e-6: the windows' drift is what it is judged against.
  });

  it('windows that differ no more than their requests predict: τ² = 0, the within-window Welch test', () => {
    const { x, windows, nGood } = layout([[1, 2, 3], [3, 1, 2]], [[4, 5, 6], [6, 5, 4]]);
    const r = windowTest(x, undefined, windows, 0, nGood, nGood, x.length)!;
    expect(r.tau2).toBe(0);
    // σ² = 1 in both classes, N = 6 each: t = 3 / √(1/6 + 1/6) = 3/√(1/3)
    expect(r.t).toBeCloseTo(3 / Math.sqrt(1 / 3), 12);
  });

  it('null with one good window (drift cannot be told from cause) or windows of single values', () => {
    const one = layout([[1, 2, 3, 4]], [[5, 6, 7]]);
    expect(windowTest(one.x, undefined, one.windows, 0, one.nGood, one.nGood, one.x.length)).toBeNull();
    const singles = layout([[1], [2], [3]], [[5], [6]]);
    expect(windowTest(singles.x, undefined, singles.windows, 0, singles.nGood, singles.nGood, singles.x.length)).toBeNull();
  });
});

describe('unitOutlierTest (one bad unit among its peers)', () => {
  it('the prediction test of the one unit outside, Bonferroni over the bad units (scipy 1.17)', () => {
    // g = [1300,1320,1290,1310,1335,1305,1298,1315], x = 1550:
    // t = (x − mean(g)) / (std(g, ddof=1)·√(1 + 1/8)) = 15.984999099512915, p = 2·t.sf(t, 7) = 9.104587281514269e-07, ×8
    const good = f64([1300, 1320, 1290, 1310, 1335, 1305, 1298, 1315]);
    const bad = f64([1302, 1318, 1550, 1296, 1311, 1308, 1322, 1301]);
    const r = unitOutlierTest(good, bad, 0.05)!;
    expect(r.t).toBeCloseTo(15.984999099512915, 9);
    expect(r.p).toBeCloseTo(8 * 9.104587281514269e-7, 12);
    expect(r.df).toBe(7);
  });

  it('null when no unit stands out, when more than two do (a shift of a share), or with fewer than 3 units', () => {
    const good = f64([10, 11, 12, 10.5, 11.5]);
    expect(unitOutlierTest(good, f64([10.2, 11.1, 11.9, 10.7]), 0.05)).toBeNull();
    expect(unitOutlierTest(good, f64([40, 41, 42, 11]), 0.05)).toBeNull();
    expect(unitOutlierTest(good, f64([40, 11]), 0.05)).toBeNull();
  });

  it('a constant reference: one unit beyond it carries only the rank evidence 2/(n + 1), times k', () => {
    const r = unitOutlierTest(f64([0, 0, 0, 0, 0, 0, 0, 0, 0]), f64([1, 0, 0]), 0.05)!;
    expect(r.p).toBeCloseTo(Math.min(1, (2 / 10) * 3), 12);
  });
  it('equals its plain reading, every bad unit prediction-tested (the speed form tests only the farthest)', () => {
    // The plain reading of the rule: every finite bad unit against the good ones at α/k; 1..FEW_VALUES out → the one
    // with the smallest p (ties: the larger |t|, then the first), else null. Random sets with planted outliers,
    // symmetric pairs (equal |t|), ties, missing values and values beyond the good units' power of two.
    const plain = (good: Float64Array, bad: Float64Array, alpha: number) => {
      const units = [...bad].filter((v) => Number.isFinite(v));
      if (units.length < REFERENCE_MIN_VALUES) return null; // fewer units: the prediction test's own case (fewValuesTest)
      const out = units.map((v) => ({ v, r: predictionTest(good, v) })).filter((o) => o.r !== null && o.r.log10p < Math.log10(alpha / units.length));
      if (out.length === 0 || out.length > FEW_VALUES) return null;
      return out.reduce((b, o) => (o.r!.log10p < b.r!.log10p || (o.r!.log10p === b.r!.log10p && Math.abs(o.r!.t) > Math.abs(b.r!.t)) ? o : b));
    };
    const random = mulberry32(52);
    let outliers = 0;
    for (let trial = 0; trial < 400; trial++) {
      const n = 3 + Math.floor(random() * 30);
      const good = Float64Array.from({ length: n }, () => 100 + random() * 10);
      const bad = Float64Array.from({ length: 3 + Math.floor(random() * 30) }, () => 100 + random() * 10);
      const planted = Math.floor(random() * 4);
      for (let j = 0; j < planted; j++) bad[Math.floor(random() * bad.length)] = random() < 0.5 ? 160 + random() * 400 : 40 - random() * 30;
      if (trial % 7 === 0) bad[0] = NaN;
      if (trial % 11 === 0 && bad.length > 2) [bad[1], bad[2]] = [205, 5]; // equally far each side of ~105
      const expected = plain(good, bad, 0.05);
      const got = unitOutlierTest(good, bad, 0.05);
      expect(got === null, `trial ${trial}`).toBe(expected === null);
      if (got !== null && expected !== null) {
        outliers++;
        expect(got.t, `trial ${trial}`).toBe(expected.r!.t);
        expect(got.log10p, `trial ${trial}`).toBe(Math.min(0, expected.r!.log10p + Math.log10([...bad].filter(Number.isFinite).length)));
      }
    }
    expect(outliers).toBeGreaterThan(50);
  });
});

describe('windows of instances', () => {
  it('by time: slices of each class from its first start, numbered densely, good first', () => {
    const w = windowsByTime(f64([100, 104, 111, 131, 500, 509, 512]), 4, 3, 10);
    expect([...w.of]).toEqual([0, 0, 1, 2, 3, 3, 4]);
    expect([w.good, w.bad]).toEqual([3, 2]);
  });

  it('by entry: entries in code-unit order within each class', () => {
    const w = windowsByEntry(['b', 'a', 'b', null, 'z', 'y'], 4);
    expect([...w.of]).toEqual([1, 0, 1, -1, 3, 2]);
    expect([w.good, w.bad]).toEqual([2, 2]);
  });
});
