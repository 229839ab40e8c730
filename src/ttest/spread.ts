/**
 * A difference in spread (issue 52): the bad class's P may have the mean of
 * the good class's and a much wider spread (a cache that now sometimes
 * misses, merges that fall behind and catch up): a test on means sees
 * nothing. Where P's means do not differ, P's spread is tested, and where it
 * differs, every feature's spread is, to find the variable whose spread grew.
 */
import { median } from '../stats/median.js';
import { studentTTwoSided } from '../stats/student-t.js';
import type { WelchResult } from './types.js';

/**
 * The Brown–Forsythe test of equal spread (Brown & Forsythe, JASA 69, 1974:
 * Levene's test with the group median): z = |x − median of its class|, then
 * the one-way ANOVA F of z between the classes, F(k − 1, N − k). With two
 * classes F = t², t the pooled-variance (Student) t of z:
 *   t = (z̄_bad − z̄_good) / √(s²_p·(1/n_good + 1/n_bad)),
 *   s²_p = (Σ(z − z̄_good)² + Σ(z − z̄_bad)²) / (N − 2),  df = N − 2,
 * and p, two-sided in t, is F's upper tail. Positive t: bad is the wider.
 * Weights are replication counts (the median a weighted one). meanGood and
 * meanBad are the classes' mean absolute deviations from their medians (the
 * spread, in the feature's unit); effectSize is Hedges' g of z.
 * Edge cases: null with fewer than 2 values in a class; both classes without
 * spread (z all 0 within each class: s_p = 0) → t = 0, p = 1 when z̄ are equal,
 * else ±∞, p = 0.
 */
export function brownForsytheTest(good: Float64Array, bad: Float64Array, wGood?: Float64Array, wBad?: Float64Array): WelchResult | null {
  const g = deviations(good, wGood);
  const b = deviations(bad, wBad);
  if (g === null || b === null) return null;
  const N = g.n + b.n;
  const df = N - 2;
  const diff = b.mean - g.mean;
  const base = { meanGood: g.mean, meanBad: b.mean, nGood: g.n, nBad: b.n };
  const pooled = (g.m2 + b.m2) / df;
  if (!(pooled > 0)) {
    if (diff === 0) return { t: 0, df, p: 1, log10p: 0, effectSize: 0, ...base };
    const t = diff > 0 ? Infinity : -Infinity;
    return { t, df, p: 0, log10p: -Infinity, effectSize: t, ...base };
  }
  const t = diff / Math.sqrt(pooled * (1 / g.n + 1 / b.n));
  const { p, log10p } = studentTTwoSided(t, df);
  const j = 1 - 3 / (4 * N - 9);
  return { t, df, p, log10p, effectSize: (j * diff) / Math.sqrt(pooled), ...base };
}

/** Σw, mean and Σw(z − mean)² of z = |x − median(x)| over the finite values; null with fewer than 2 (or Σw ≤ 1). */
function deviations(x: Float64Array, w: Float64Array | undefined): { n: number; mean: number; m2: number } | null {
  const at: number[] = [];
  for (let i = 0; i < x.length; i++) if (Number.isFinite(x[i]) && (w === undefined || (w[i] as number) > 0)) at.push(i);
  const weight = (i: number): number => (w === undefined ? 1 : (w[i] as number));
  const n = at.reduce((s, i) => s + weight(i), 0);
  if (at.length < 2 || !(n > 1)) return null;
  const m = w === undefined ? median(x) : weightedMedian(x, at, w);
  let sum = 0;
  for (const i of at) sum += weight(i) * Math.abs((x[i] as number) - m);
  const mean = sum / n;
  let m2 = 0;
  for (const i of at) {
    const d = Math.abs((x[i] as number) - m) - mean;
    m2 += weight(i) * d * d;
  }
  return { n, mean, m2 };
}

/**
 * The median of replication-weighted values: the values sorted, the one
 * where the cumulative weight passes half the total, or the mean of the two
 * values around it where it reaches half exactly (as for an even count of
 * unit weights, SPEC §2).
 */
function weightedMedian(x: Float64Array, at: readonly number[], w: Float64Array): number {
  const order = [...at].sort((a, b) => (x[a] as number) - (x[b] as number) || a - b);
  const half = order.reduce((s, i) => s + (w[i] as number), 0) / 2;
  let cumulative = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k] as number;
    cumulative += w[i] as number;
    if (cumulative > half) return x[i] as number;
    if (cumulative === half) return ((x[i] as number) + (x[order[k + 1] as number] as number)) / 2;
  }
  return x[order[order.length - 1] as number] as number;
}
