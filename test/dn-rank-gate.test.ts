import { describe, expect, it } from 'vitest';
import { trainRegressionTree, type SplitTest, type TreeSplit } from '../src/dependency-network/cart.js';
import { chiSquare1Upper, midRanks, rankCriticalValue, sidakAdjust } from '../src/dependency-network/rank-gate.js';
import { mulberry32 } from '../src/stats/prng.js';
import { sortColumn } from '../src/dependency-network/sort-order.js';
import { normalStream } from './dn-fixtures.js';

const f64 = (xs: readonly number[]): Float64Array => Float64Array.from(xs);

describe('the rank gate (SPEC §4)', () => {
  // Hand data with ties in both columns.
  const y = f64([3.1, 0.4, 2.2, 5.0, 1.1, 4.4, 2.2, 6.3, 0.9, 3.3]);
  const x = f64([1, 2, 2, 3, 4, 5, 6, 6, 7, 8]);

  it('weighted mid-ranks: rank(v) = Σ_{x<v} w + (Σ_{x=v} w + 1)/2', () => {
    // scipy.stats.rankdata(x) = [1, 2.5, 2.5, 4, 5, 6, 7.5, 7.5, 9, 10].
    expect([...midRanks(sortColumn(x), undefined)]).toEqual([1, 2.5, 2.5, 4, 5, 6, 7.5, 7.5, 9, 10]);
    // Weights as replication counts: rankdata(np.repeat(x, w)) gives 1, 3 3 3, 5, 7 7 7, 9, 10.5 10.5, 12.5 12.5, 14.
    const w = f64([1, 2, 1, 1, 3, 1, 1, 1, 2, 1]);
    expect([...midRanks(sortColumn(x), w)]).toEqual([1, 3, 3, 5, 7, 9, 10.5, 10.5, 12.5, 14]);
  });

  it('c_j = (W − 1)·r_s² with mid-ranks, and its p from χ²₁ (scipy.stats.spearmanr, chi2.sf)', () => {
    // scipy: r = spearmanr(x, y).statistic = 0.1590221503171362; c = 9·r² = 0.22759239862337277;
    // chi2.sf(c, 1) = 0.6333148035612203. α = 1 lets any c > 0 split, so the root reports it.
    const root = trainRegressionTree(y, [x], { minSamplesSplit: 1, splitAlpha: 1 }).nodes[0] as TreeSplit;
    expect(root.kind).toBe('split');
    expect(root.statistic).toBeCloseTo(0.22759239862337277, 12);
    expect(root.p).toBeCloseTo(0.6333148035612203, 12);
    // Weighted = replicated: r = spearmanr(np.repeat(x, w), np.repeat(y, w)).statistic = 0.15117666496153584,
    // c = (14 − 1)·r² = 0.29710699237560195.
    const w = f64([1, 2, 1, 1, 3, 1, 1, 1, 2, 1]);
    const weighted = trainRegressionTree(y, [x], { minSamplesSplit: 1, splitAlpha: 1, weights: w }).nodes[0] as TreeSplit;
    expect(weighted.statistic).toBeCloseTo(0.29710699237560195, 12);
    // At α = 0.05 the same data is a leaf (c < 3.84).
    expect(trainRegressionTree(y, [x], { minSamplesSplit: 1, splitAlpha: 0.05 }).nodes).toHaveLength(1);
  });

  it('critical values: c* = χ²₁ upper α_k quantile with Šidák α_k (scipy.stats.chi2.isf(1 − 0.95^(1/k), 1))', () => {
    expect(rankCriticalValue(0.05, 1)).toBeCloseTo(3.841458820694124, 11);
    expect(rankCriticalValue(0.05, 10)).toBeCloseTo(7.837901368546699, 11);
    expect(rankCriticalValue(0.05, 1000)).toBeCloseTo(16.39975056661949, 10);
    expect(chiSquare1Upper(3.841458820694124)).toBeCloseTo(0.05, 14);
    expect(sidakAdjust(0.05 / 10, 10)).toBeCloseTo(1 - 0.995 ** 10, 14);
  });

  it('a leaf before any scan when W − 1 ≤ c*: 8 rows and 100 predictors, one a perfect copy of the target', () => {
    // c* for k = 100 is 13.2 > W − 1 = 7: even r_s = 1 cannot pass.
    const target = f64([1, 2, 3, 4, 5, 6, 7, 8]);
    const noise = normalStream(5);
    const predictors = Array.from({ length: 100 }, (_, j) => (j === 0 ? f64([...target]) : f64(Array.from({ length: 8 }, () => noise()))));
    expect(trainRegressionTree(target, predictors, { minSamplesSplit: 1, splitAlpha: 0.05 }).nodes).toHaveLength(1);
    // With 2 predictors c* = 5.02 < 7 = c of the copy.
    expect(trainRegressionTree(target, predictors.slice(0, 2), { minSamplesSplit: 1, splitAlpha: 0.05 }).nodes[0]).toMatchObject({ kind: 'split', predictor: 0 });
  });

  it('splits only on a predictor that passes on its own, even when another gives a larger SSE reduction', () => {
    // x0 isolates the one outlier of y (the best SSE split), but its ranks barely follow y's;
    // x1 follows y's order everywhere: only x1 passes, so the split is on x1.
    const n = 40;
    const noise = normalStream(9);
    const base = Array.from({ length: n }, (_, i) => i + 0.5 * noise());
    const yv = base.map((v, i) => (i === 17 ? 1000 : v));
    const x1 = f64(base.map((v) => v + 3 * noise()));
    const x0 = f64(Array.from({ length: n }, (_, i) => (i === 17 ? 1 : 0)));
    const f = trainRegressionTree(f64(yv), [x0, x1], { minSamplesSplit: 10, splitAlpha: 0.05, splitTest: 'f-splits' });
    expect(f.nodes[0]).toMatchObject({ kind: 'split', predictor: 0 });
    const r = trainRegressionTree(f64(yv), [x0, x1], { minSamplesSplit: 10, splitAlpha: 0.05 });
    expect(r.nodes[0]).toMatchObject({ kind: 'split', predictor: 1 });
  });
});

describe('on pure noise the share of trees that split stays near α', () => {
  // Independent target and 3 predictors, n rows; each tree splits iff its root does.
  // Binomial band: with 600 trees at α = 0.05, sd = √(0.05·0.95/600) = 0.0089; the band is ±3.5 sd.
  const TREES = 600;
  const draws: Record<string, (u: () => number, z: () => number) => number> = {
    normal: (_u, z) => z(),
    lognormal: (_u, z) => Math.exp(2 * z()),
    pareto: (u) => u() ** (-1 / 1.2), // tail index 1.2: infinite variance
  };
  const rate = (kind: string, n: number, splitTest: SplitTest, seed: number): number => {
    const u = mulberry32(seed);
    const z = normalStream(seed + 1);
    const draw = (): number => draws[kind](u, z);
    let split = 0;
    for (let t = 0; t < TREES; t++) {
      const y = f64(Array.from({ length: n }, draw));
      const xs = [0, 1, 2].map(() => f64(Array.from({ length: n }, draw)));
      if (trainRegressionTree(y, xs, { minSamplesSplit: Math.ceil(n / 3), splitAlpha: 0.05, splitTest }).nodes.length > 1) split++;
    }
    return split / TREES;
  };
  const band = 3.5 * Math.sqrt((0.05 * 0.95) / TREES);

  for (const kind of Object.keys(draws)) {
    for (const n of [30, 100]) {
      it(`${kind}, n = ${n}: rank gate within 0.05 ± ${band.toFixed(3)}`, () => {
        expect(Math.abs(rate(kind, n, 'rank', 1000 + n) - 0.05)).toBeLessThan(band);
      });
    }
  }

  it('the F-test on the best split does not hold it on heavy tails (lognormal, n = 100)', () => {
    expect(rate('lognormal', 100, 'f-splits', 7)).toBeGreaterThan(0.2);
  });
});
