/**
 * Change points in one series of per-run values (one point per run, in order):
 * binary segmentation with a permutation-calibrated maximum two-sample t.
 *
 * Within a segment x_1..x_n, every split k (both sides ≥ `minSegment` points)
 * is scored by the pooled two-sample t of x_1..k against x_k+1..n,
 *   t_k = (x̄_after − x̄_before) / (s_p·√(1/k + 1/(n−k))),  s_p² = (SS_before + SS_after)/(n − 2),
 * and the statistic is T = max_k |t_k| (s_p = 0: ∞ if the means differ, else 0).
 * Under "no change" the points are exchangeable, so T's null distribution is
 * that of T over random orderings of the same points: p = (h + 1)/(B + 1), h =
 * the permutations with T ≥ the observed one. This holds for any distribution
 * of the points (per-run means, standard deviations, correlations) and any n,
 * which is why it was chosen over Pettitt's rank test (at 30 runs its p cannot
 * go below ~1e-4 for a perfect split, too weak once corrected over hundreds of
 * series) and over CUSUM with asymptotic limits (not valid at 30 points).
 *
 * A change is accepted when p < `threshold` (the caller's α/m: Bonferroni over
 * every series tested); then both sides are searched again with the same
 * threshold. Permutations stop early (Besag & Clifford 1991) once `stopAfter`
 * exceed T: such a p is far above any threshold. Deterministic for a seed.
 */
import { mulberry32 } from '../stats/prng.js';

export interface ChangePointOptions {
  /** Accept a change when its permutation p is below this. */
  readonly threshold: number;
  /** Fewest points on each side of a change (default 3). */
  readonly minSegment?: number;
  readonly seed: number;
}

export interface ChangePoint {
  /** Index of the first point after the change. */
  readonly at: number;
  /** Permutation p of the segment's maximum |t|. */
  readonly p: number;
  /** The segment searched: indices [from, to) of `values`; `at` splits it. */
  readonly from: number;
  readonly to: number;
}

/** Finite points needed before a series is searched at all: two segments. */
export function searchable(values: Float64Array, minSegment = 3): boolean {
  let n = 0;
  for (const x of values) if (Number.isFinite(x)) n++;
  return n >= 2 * minSegment;
}

/**
 * All change points of `values` (NaN points are skipped; indices refer to
 * `values`), sorted by position.
 */
export function changePoints(values: Float64Array, options: ChangePointOptions): ChangePoint[] {
  const minSegment = options.minSegment ?? 3;
  const at: number[] = [];
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) at.push(i);
  const x = Float64Array.from(at, (i) => values[i] as number);
  standardize(x);
  const random = mulberry32(options.seed);
  const found: ChangePoint[] = [];
  const segments: [number, number][] = [[0, x.length]];
  while (segments.length > 0) {
    const [from, to] = segments.pop()!;
    if (to - from < 2 * minSegment) continue;
    const segment = x.slice(from, to);
    const best = maxAbsT(segment, minSegment);
    if (best.t === 0) continue;
    const p = permutationP(segment, best.t, minSegment, options.threshold, random);
    if (!(p < options.threshold)) continue;
    const k = from + best.k;
    found.push({ at: at[k] as number, p, from: at[from] as number, to: to < at.length ? (at[to] as number) : values.length });
    segments.push([from, k], [k, to]);
  }
  return found.sort((a, b) => a.at - b.at);
}

/** Centre and scale in place, so the sums of squares below lose no precision. */
function standardize(x: Float64Array): void {
  let mean = 0;
  for (const v of x) mean += v;
  mean /= x.length || 1;
  let ss = 0;
  for (const v of x) ss += (v - mean) ** 2;
  const sd = Math.sqrt(ss / Math.max(1, x.length - 1));
  for (let i = 0; i < x.length; i++) x[i] = sd > 0 ? ((x[i] as number) - mean) / sd : 0;
}

/** max over splits of |pooled two-sample t|, and the split (count of points before it). */
export function maxAbsT(x: Float64Array, minSegment: number): { t: number; k: number } {
  const n = x.length;
  let total = 0;
  let total2 = 0;
  for (const v of x) {
    total += v;
    total2 += v * v;
  }
  let s = 0;
  let s2 = 0;
  let bestT = 0;
  let bestK = 0;
  for (let k = 1; k <= n - minSegment; k++) {
    const v = x[k - 1] as number;
    s += v;
    s2 += v * v;
    if (k < minSegment) continue;
    const m1 = s / k;
    const m2 = (total - s) / (n - k);
    const ss = Math.max(0, s2 - s * m1) + Math.max(0, total2 - s2 - (total - s) * m2);
    const diff = Math.abs(m2 - m1);
    // Differences at rounding level are no difference (a constant series, standardized).
    const t = ss <= 1e-24 * n ? (diff > 1e-12 ? Infinity : 0) : diff / Math.sqrt((ss / (n - 2)) * (1 / k + 1 / (n - k)));
    if (t > bestT) {
      bestT = t;
      bestK = k;
    }
  }
  return { t: bestT, k: bestK };
}

/**
 * p = (h + 1)/(B + 1) over B random orderings (Fisher–Yates), B up to the
 * number needed to reach `threshold` with room (4/threshold), stopping after
 * `STOP_AFTER` exceedances (then p ≥ STOP_AFTER/B is reported as such).
 */
function permutationP(x: Float64Array, observed: number, minSegment: number, threshold: number, random: () => number): number {
  const STOP_AFTER = 10;
  const maxB = Math.ceil(4 / threshold);
  const y = x.slice();
  let h = 0;
  let b = 0;
  while (b < maxB) {
    for (let i = y.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      const tmp = y[i] as number;
      y[i] = y[j] as number;
      y[j] = tmp;
    }
    b++;
    // Relative tolerance: ties of the statistic (common in tied data) count as exceedances.
    if (maxAbsT(y, minSegment).t >= observed * (1 - 1e-12)) {
      h++;
      if (h >= STOP_AFTER) return h / b;
    }
  }
  return (h + 1) / (b + 1);
}
