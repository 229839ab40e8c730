import { studentTTwoSided } from '../stats/student-t.js';
import type { WelchResult } from './types.js';

/**
 * A class's standard deviation at most this fraction of its largest |value| is
 * rounding noise (values that are equal but for a few ulps, e.g. 0.1 + 0.2 and
 * 0.3), and counts as exactly 0; likewise two means closer than this fraction
 * of the larger |value| count as equal when both classes are constant.
 */
export const ZERO_SPREAD_RELATIVE = 64 * Number.EPSILON;

/** Weighted moments of one class: n = Σw, mean, m2 = Σw(x − mean)². */
export interface ClassMoments {
  /** Instances with a value (unweighted). */
  readonly count: number;
  readonly n: number;
  readonly mean: number;
  readonly m2: number;
  /** The largest |value|: what rounding noise is relative to. */
  readonly maxAbs: number;
}

/**
 * Weighted mean and sum of squared deviations of `x / scale` by the corrected
 * two-pass algorithm (Chan, Golub & LeVeque 1983): mean₀ = Σwx/Σw, then
 * mean = mean₀ + Σw(x − mean₀)/Σw and m2 = Σw(x − mean₀)² − (Σw(x − mean₀))²/Σw.
 * NaN (and infinite) values are missing and skipped with their weights, as are
 * instances of weight ≤ 0 or NaN. `scale` is a power of two (commonScale).
 */
export function classMoments(x: Float64Array, w: Float64Array | undefined, scale: number): ClassMoments {
  // x / 2^k and x · 2^−k are the same double (each is x·2^−k rounded once) wherever 2^−k is one: a
  // multiplication, several times cheaper than a division, and no weight read when there are none.
  const inverse = 1 / scale;
  if (w === undefined && Number.isFinite(inverse)) return unweightedMoments(x, inverse);
  let count = 0;
  let n = 0;
  let sum = 0;
  let maxAbs = 0;
  for (let i = 0; i < x.length; i++) {
    const wi = w === undefined ? 1 : w[i]!;
    const xi = x[i]! / scale;
    if (!Number.isFinite(xi) || !(wi > 0)) continue;
    count++;
    n += wi;
    sum += wi * xi;
    maxAbs = Math.max(maxAbs, Math.abs(xi));
  }
  const mean0 = count === 0 ? NaN : sum / n;
  let dev = 0;
  let dev2 = 0;
  for (let i = 0; i < x.length; i++) {
    const wi = w === undefined ? 1 : w[i]!;
    const d = x[i]! / scale - mean0;
    if (!Number.isFinite(d) || !(wi > 0)) continue;
    dev += wi * d;
    dev2 += wi * d * d;
  }
  return { count, n, mean: mean0 + dev / n, m2: Math.max(0, dev2 - (dev * dev) / n), maxAbs };
}

/** classMoments with every weight 1, of `x · inverse`: the same sums to the bit (1·x = x, n counts by 1). */
function unweightedMoments(x: Float64Array, inverse: number): ClassMoments {
  // Each pass a function of its own, ending with its loop: compiled while the first loop ran (on-stack
  // replacement), one function went on into the second pass and the result, which had not run yet, and stopped
  // there on each of the next calls until it was compiled again.
  const sums = new MomentSums();
  const count = finiteSums(x, inverse, sums);
  const maxAbs = sums.maxAbs;
  const mean0 = count === 0 ? NaN : sums.sum / count;
  deviationSums(x, inverse, mean0, sums);
  const dev = sums.dev;
  const dev2 = sums.dev2;
  return { count, n: count, mean: mean0 + dev / count, m2: Math.max(0, dev2 - (dev * dev) / count), maxAbs };
}

/** unweightedMoments' sums, as its passes leave them. */
class MomentSums {
  sum = 0;
  maxAbs = 0;
  dev = 0;
  dev2 = 0;
}

/** How many x·inverse are finite; their sum into out.sum and their largest |value| into out.maxAbs. */
function finiteSums(x: Float64Array, inverse: number, out: MomentSums): number {
  let count = 0;
  let sum = 0;
  let maxAbs = 0;
  for (let i = 0; i < x.length; i++) {
    const xi = x[i]! * inverse;
    if (!Number.isFinite(xi)) continue;
    count++;
    sum += xi;
    maxAbs = Math.max(maxAbs, Math.abs(xi));
  }
  out.sum = sum;
  out.maxAbs = maxAbs;
  return count;
}

/** Σd and Σd² over the finite d = x·inverse − mean0, into out.dev and out.dev2. */
function deviationSums(x: Float64Array, inverse: number, mean0: number, out: MomentSums): void {
  let dev = 0;
  let dev2 = 0;
  for (let i = 0; i < x.length; i++) {
    const d = x[i]! * inverse - mean0;
    if (!Number.isFinite(d)) continue;
    dev += d;
    dev2 += d * d;
  }
  out.dev = dev;
  out.dev2 = dev2;
}

/** The largest finite |value| of both classes, rounded down to a power of two (so dividing by it is exact); 1 if none. */
export function commonScale(a: Float64Array, b: Float64Array): number {
  const max = Math.max(finiteMaxAbs(a), finiteMaxAbs(b));
  return max === 0 ? 1 : 2 ** Math.floor(Math.log2(max));
}

/**
 * The largest finite |value| of x, 0 if none. A function that ends with its loop: in commonScale, the loop was
 * compiled while it ran (on-stack replacement) and went on into code that had not run yet, and that code, kept,
 * stopped there on every call after (a million requests: 26 times a run).
 */
export function finiteMaxAbs(x: Float64Array): number {
  let max = 0;
  for (let i = 0; i < x.length; i++) {
    const v = Math.abs(x[i]!);
    if (v > max && v !== Infinity) max = v;
  }
  return max;
}

/**
 * Welch's two-sample t-test of `bad` against `good` (SPEC §3):
 *   t = (x̄_bad − x̄_good) / sqrt(s²_bad/n_bad + s²_good/n_good),
 *   df = (v_bad + v_good)² / (v_bad²/(n_bad − 1) + v_good²/(n_good − 1)), v = s²/n
 *   (Welch–Satterthwaite), p two-sided from Student's t with df.
 * Weights are replication counts: an instance of weight 3 is three identical
 * observations, so n = Σw, x̄ = Σwx/n and s² = Σw(x − x̄)²/(n − 1).
 * Effect size: Hedges' g = J·(x̄_bad − x̄_good)/s_pooled,
 *   s²_pooled = ((n_bad − 1)s²_bad + (n_good − 1)s²_good)/(n_bad + n_good − 2),
 *   J = 1 − 3/(4(n_bad + n_good) − 9).
 * Values are divided by a common power of two first, so that neither tiny nor
 * huge magnitudes under- or overflow the variances.
 *
 * Edge cases: NaN values are missing (skipped, with their weights; so are
 * ±Infinity and instances of weight ≤ 0). Returns null when a class has fewer
 * than 2 instances with a value (or, with fractional weights, Σw ≤ 1). A standard
 * deviation within ZERO_SPREAD_RELATIVE of the class's largest |value| is 0.
 * Both variances 0: equal means (to the same tolerance) give t = 0, p = 1,
 * g = 0; different means give t = ±Infinity, p = 0, log10p = −Infinity,
 * g = ±Infinity (perfectly separated); df = n_good + n_bad − 2 in both cases.
 */
export function welchTest(
  good: Float64Array,
  bad: Float64Array,
  wGood?: Float64Array,
  wBad?: Float64Array,
): WelchResult | null {
  const scale = commonScale(good, bad);
  const g = classMoments(good, wGood, scale);
  const b = classMoments(bad, wBad, scale);
  if (g.count < 2 || b.count < 2 || !(g.n > 1 && b.n > 1)) return null;

  const varGood = sampleVariance(g);
  const varBad = sampleVariance(b);
  const meanGood = g.mean * scale;
  const meanBad = b.mean * scale;
  let diff = b.mean - g.mean;
  const nTotal = g.n + b.n;
  const j = 1 - 3 / (4 * nTotal - 9);
  const base = { meanGood, meanBad, nGood: g.n, nBad: b.n };

  if (varGood === 0 && varBad === 0) {
    if (Math.abs(diff) <= ZERO_SPREAD_RELATIVE * Math.max(g.maxAbs, b.maxAbs)) diff = 0;
    const df = nTotal - 2;
    if (diff === 0) return { t: 0, df, p: 1, log10p: 0, ...base, effectSize: 0 };
    const t = diff > 0 ? Infinity : -Infinity;
    return { t, df, p: 0, log10p: -Infinity, ...base, effectSize: t };
  }

  const vGood = varGood / g.n;
  const vBad = varBad / b.n;
  const t = diff / Math.sqrt(vGood + vBad);
  const df = (vGood + vBad) ** 2 / (vGood ** 2 / (g.n - 1) + vBad ** 2 / (b.n - 1));
  const { p, log10p } = studentTTwoSided(t, df);
  const pooledSd = Math.sqrt(((g.n - 1) * varGood + (b.n - 1) * varBad) / (nTotal - 2));
  return { t, df, p, log10p, ...base, effectSize: (j * diff) / pooledSd };
}

/** s² = m2/(n − 1), or exactly 0 when s is rounding noise (see ZERO_SPREAD_RELATIVE). */
export function sampleVariance(m: ClassMoments): number {
  const variance = m.m2 / (m.n - 1);
  return Math.sqrt(variance) <= ZERO_SPREAD_RELATIVE * m.maxAbs ? 0 : variance;
}
