import { FEW_VALUES, REFERENCE_MIN_VALUES } from '../stats/sample-sizes.js';
import { studentTTwoSided } from '../stats/student-t.js';
import type { WelchResult } from './types.js';
import { classMoments, finiteMaxAbs, sampleVariance, ZERO_SPREAD_RELATIVE, type ClassMoments } from './welch.js';

/** Which test produced a result (SPEC §3): Welch's, or the prediction test for a class of 1–2 values. */
export type TestMethod = 'welch' | 'prediction';

/** The test's sample sizes live with the statistics (stats/sample-sizes.ts), where features' input check reads them too. */
export { FEW_VALUES, REFERENCE_MIN_VALUES } from '../stats/sample-sizes.js';

/**
 * The prediction test of one new value x against a reference sample
 * (SPEC §3 "Few instances"): is x a plausible further draw from it?
 *   t = (x − x̄) / (s·√(1 + 1/n)),  df = n − 1,  p two-sided from Student's t,
 * with n = Σw, x̄, s² the weighted (replication-count) moments of the reference.
 * Positive t: x is larger. Edge cases: s = 0 (within ZERO_SPREAD_RELATIVE) and
 * x equal to x̄ → t = 0, p = 1; s = 0 and x different → t = ±∞, p = 0
 * (separated). null when the reference has fewer than REFERENCE_MIN_VALUES
 * values or x is not finite.
 */
export function predictionTest(reference: Float64Array, x: number, weights?: Float64Array): PredictionResult | null {
  return predictionReference(reference, weights)(x);
}

/** One prediction test's result: t, df, p and log10p with the reference's mean, sd and n. */
export type PredictionResult = { t: number; df: number; p: number; log10p: number; mean: number; sd: number; n: number };

/**
 * predictionTest against one reference for many values x (the unit outlier test: every bad unit against the good
 * ones): the reference's largest |value| found once, its moments once per scale (commonScale of the reference and x,
 * which only a value beyond the reference's own power of two changes), so k values cost O(n + k), not O(n·k), with
 * results identical to predictionTest's.
 */
export function predictionReference(reference: Float64Array, weights?: Float64Array): (x: number) => PredictionResult | null {
  const referenceMax = finiteMaxAbs(reference);
  const moments = new Map<number, ClassMoments>();
  return (x) => {
    if (!Number.isFinite(x)) return null;
    // commonScale(reference, [x]): the larger |value| of both, rounded down to a power of two.
    const max = Math.max(referenceMax, Math.abs(x));
    const scale = max === 0 ? 1 : 2 ** Math.floor(Math.log2(max));
    let m = moments.get(scale);
    if (m === undefined) moments.set(scale, (m = classMoments(reference, weights, scale)));
    if (m.count < REFERENCE_MIN_VALUES || !(m.n > 1)) return null;
    const variance = sampleVariance(m);
    const sd = Math.sqrt(variance);
    const mean = m.mean;
    const xs = x / scale;
    let diff = xs - mean;
    const df = m.n - 1;
    const out = { mean: mean * scale, sd: sd * scale, n: m.n, df };
    if (sd === 0) {
      if (Math.abs(diff) <= ZERO_SPREAD_RELATIVE * Math.max(m.maxAbs, Math.abs(xs))) diff = 0;
      if (diff === 0) return { ...out, t: 0, p: 1, log10p: 0 };
      return { ...out, t: diff > 0 ? Infinity : -Infinity, p: 0, log10p: -Infinity };
    }
    const t = diff / (sd * Math.sqrt(1 + 1 / m.n));
    const { p, log10p } = studentTTwoSided(t, df);
    return { ...out, t, p, log10p };
  };
}

/**
 * SPEC §3 "Few instances": where one class has 1 or 2 values of a feature and
 * the other at least 3, each of the few values is prediction-tested against the
 * other class; the smallest p, Bonferroni-corrected over those k values
 * (p·k, log10p + log10 k, capped at 1), stands for the feature. t keeps the
 * orientation of Welch's (positive: bad larger). meanGood/meanBad are the class
 * means; effectSize is (bad − good) in reference standard deviations
 * (±∞ when the reference is constant). null when the rule does not apply.
 */
export function fewValuesTest(good: Float64Array, bad: Float64Array, wGood?: Float64Array, wBad?: Float64Array): WelchResult | null {
  // Only whether a class has 1–2 values or ≥ 3 matters: each scan stops at the third value.
  const g = finiteIndices(good, REFERENCE_MIN_VALUES);
  const b = finiteIndices(bad, REFERENCE_MIN_VALUES);
  let few: { values: Float64Array; at: number[]; weights?: Float64Array | undefined };
  let reference: { values: Float64Array; weights?: Float64Array | undefined };
  let sign: 1 | -1;
  if (b.length >= 1 && b.length <= FEW_VALUES && g.length >= REFERENCE_MIN_VALUES) {
    few = { values: bad, at: b, weights: wBad };
    reference = { values: good, weights: wGood };
    sign = 1;
  } else if (g.length >= 1 && g.length <= FEW_VALUES && b.length >= REFERENCE_MIN_VALUES) {
    few = { values: good, at: g, weights: wGood };
    reference = { values: bad, weights: wBad };
    sign = -1;
  } else {
    return null;
  }
  let best: NonNullable<ReturnType<typeof predictionTest>> | null = null;
  for (const i of few.at) {
    const r = predictionTest(reference.values, few.values[i] as number, reference.weights);
    if (r !== null && (best === null || r.log10p < best.log10p || (r.log10p === best.log10p && Math.abs(r.t) > Math.abs(best.t)))) best = r;
  }
  if (best === null) return null;
  const k = few.at.length;
  const log10p = Math.min(0, best.log10p + Math.log10(k));
  const p = Math.min(1, best.p * k);
  const fewMean = weightedMean(few.values, few.at, few.weights);
  const fewN = few.at.reduce((s, i) => s + (few.weights === undefined ? 1 : (few.weights[i] as number)), 0);
  const t = sign * best.t;
  const diff = sign * (fewMean - best.mean);
  const effectSize = best.sd > 0 ? diff / best.sd : diff === 0 ? 0 : diff > 0 ? Infinity : -Infinity;
  return sign === 1
    ? { t, df: best.df, p, log10p, meanGood: best.mean, meanBad: fewMean, nGood: best.n, nBad: fewN, effectSize }
    : { t, df: best.df, p, log10p, meanGood: fewMean, meanBad: best.mean, nGood: fewN, nBad: best.n, effectSize };
}

/**
 * Indices of the first `limit` finite values of x (all of them when there are
 * fewer): a column of a million instances costs a scan of a few values, not
 * an array of a million indices. limit must exceed FEW_VALUES, so that a class
 * with exactly FEW_VALUES values is told from a larger one.
 */
function finiteIndices(x: Float64Array, limit: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < x.length && out.length < limit; i++) if (Number.isFinite(x[i])) out.push(i);
  return out;
}

/** The weighted mean of x at the indices `at` (weights 1 where w is undefined). */
export function weightedMean(x: Float64Array, at: readonly number[], w: Float64Array | undefined): number {
  let sum = 0;
  let n = 0;
  for (const i of at) {
    const wi = w === undefined ? 1 : (w[i] as number);
    sum += wi * (x[i] as number);
    n += wi;
  }
  return sum / n;
}
