/**
 * The rank gate's statistics (SPEC §4 steps 1–3, the gate as cart.ts states it): weighted mid-ranks, the Šidák
 * level and critical value, the statistic c_j over a node's rows, and its p.
 */
import { erfcx } from '../stats/erfc.js';
import { normalQuantile } from '../stats/normal-quantile.js';
import { squaresAbout, weightedSumAt, type NodeSums } from './node-sums.js';
import type { SortedColumn } from './sort-order.js';

/** Šidák's per-test level for k tests at family-wise α: 1 − (1 − α)^(1/k), computed without cancellation. */
export function sidakLevel(alpha: number, k: number): number {
  return alpha >= 1 ? 1 : -Math.expm1(Math.log1p(-alpha) / k);
}

/** The rank gate's critical value for k candidates: c* = Φ⁻¹(1 − α_k/2)² (taken as Φ⁻¹(α_k/2)², the accurate tail). */
export function rankCriticalValue(alpha: number, k: number): number {
  const z = normalQuantile(sidakLevel(alpha, k) / 2);
  return z * z;
}

/** P(χ²₁ > c) = erfc(√(c/2)); 1 for c ≤ 0, 0 for c = ∞. */
export function chiSquare1Upper(c: number): number {
  if (!(c > 0)) return 1;
  const x = Math.sqrt(c / 2);
  return x === Infinity ? 0 : erfcx(x) * Math.exp(-x * x);
}

/** Šidák-adjusted p of the best of k: 1 − (1 − p)^k. */
export function sidakAdjust(p: number, k: number): number {
  return p >= 1 ? 1 : -Math.expm1(k * Math.log1p(-p));
}

/**
 * Weighted mid-ranks: rank(v) = Σ_{x<v} w + (Σ_{x=v} w + 1)/2, in row order.
 * Unweighted, the usual mid-ranks 1..n (ties get the mean of their positions).
 */
export function midRanks(sorted: SortedColumn, weights: Float64Array | undefined): Float64Array {
  const { order, values } = sorted;
  const n = order.length;
  const out = new Float64Array(n);
  let below = 0;
  let i = 0;
  while (i < n) {
    let j = i;
    let tied = 0;
    while (j < n && values[j] === values[i]) tied += weights ? weights[order[j++]] : (j++, 1);
    const rank = below + (tied + 1) / 2;
    for (let t = i; t < j; t++) out[order[t]] = rank;
    below += tied;
    i = j;
  }
  return out;
}

/**
 * The target ranks' weighted mean over the node's rows `rows[lo, hi)` and
 * their centred sum of squares S_aa, two-pass. Values and weights are in row
 * order and read through `rows`; summed in the order of `rows`.
 */
export function centred(a: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, W: number): Moments {
  const mean = weightedSumAt(a, rows, w, lo, hi) / W;
  return { mean, ss: squaresAbout(a, rows, w, lo, hi, mean) };
}

/**
 * c = (W − 1)·S_ab² / (S_aa·S_bb) over the rows `rows[lo, hi)` (SPEC §4 step
 * 3), the ranks centred at their weighted node means (the predictor's, `mb`,
 * from its rank sum taken with its check for variation); 0 when either side
 * has no spread. As `centred`: row-order values, summed in the order of `rows`.
 */
export function rankStatistic(
  a: Float64Array,
  ta: Moments,
  b: Float64Array,
  mb: number,
  rows: Uint32Array,
  w: Float64Array | undefined,
  lo: number,
  hi: number,
  W: number,
  sums: NodeSums,
): number {
  const sab = crossAbout(a, ta.mean, b, mb, rows, w, lo, hi, sums);
  const sbb = sums.crossSquares;
  if (!(ta.ss > 0 && sbb > 0)) return 0;
  return ((W - 1) * sab * sab) / (ta.ss * sbb);
}

/**
 * c = (W − 1)·N_ab² / (N_aa·N_bb), N_xy = W·Σxy − Σx·Σy: SPEC §4's c_j with
 * S_xy = N_xy / W², from plain sums. Unweighted mid-ranks are multiples of ½
 * and W is the row count, so every sum and N is exact while W·Σab < 2^51
 * (EXACT_RANK_ROWS); only the last division rounds. 0 when either side has
 * no spread.
 */
export function exactRankStatistic(W: number, sa: number, saa: number, sb: number, sbb: number, sab: number): number {
  const naa = W * saa - sa * sa;
  const nbb = W * sbb - sb * sb;
  const nab = W * sab - sa * sb;
  return naa > 0 && nbb > 0 ? ((W - 1) * nab * nab) / (naa * nbb) : 0;
}

/** Weighted mean and centred sum of squares. */
export interface Moments {
  readonly mean: number;
  readonly ss: number;
}

/**
 * `rankStatistic` over all rows in row order, with both columns' moments
 * known (`TreeColumns.rankMoments`): only S_ab is summed; the same value to
 * the bit.
 */
export function rootRankStatistic(a: Float64Array, ta: Moments, b: Float64Array, tb: Moments, w: Float64Array | undefined, W: number): number {
  if (!(ta.ss > 0 && tb.ss > 0)) return 0;
  const sab = crossAboutAll(a, ta.mean, b, tb.mean, w);
  return ((W - 1) * sab * sab) / (ta.ss * tb.ss);
}

/**
 * Σw·(a − ma)(b − mb) over every row, in row order. A function that ends with its loop: compiled while it ran
 * (on-stack replacement), rootRankStatistic's loop went on into its result, which had not run yet, and that code,
 * kept, stopped there on every call after (269 times in three runs of 10 000 instances with -j2, none in others).
 */
function crossAboutAll(a: Float64Array, ma: number, b: Float64Array, mb: number, w: Float64Array | undefined): number {
  let sab = 0;
  for (let r = 0; r < a.length; r++) sab += (w ? (w[r] as number) : 1) * ((a[r] as number) - ma) * ((b[r] as number) - mb);
  return sab;
}

/** Σw·(a − ma)(b − mb) over rows[lo, hi), in that order; Σw·(b − mb)² into out.crossSquares. */
function crossAbout(a: Float64Array, ma: number, b: Float64Array, mb: number, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, out: NodeSums): number {
  let sab = 0;
  let sbb = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const wi = w ? (w[r] as number) : 1;
    const db = (b[r] as number) - mb;
    sab += wi * ((a[r] as number) - ma) * db;
    sbb += wi * db * db;
  }
  out.crossSquares = sbb;
  return sab;
}

/** Rows up to which unweighted rank sums are exact: W·Σab ≤ n⁴ (ranks ≤ n) stays below 2^51 up to 6 888. */
export const EXACT_RANK_ROWS = 4096;
