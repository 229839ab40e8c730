/**
 * Two modes in one sample (issue 52: two slow paths inside the bad set): a
 * two-component normal mixture fitted by EM, kept only where the data
 * clearly hold two separate groups.
 */

/** What a kept split says: the two components (low first) and which values belong to the high one. */
export interface TwoModes {
  readonly low: { readonly weight: number; readonly mean: number; readonly sd: number };
  readonly high: { readonly weight: number; readonly mean: number; readonly sd: number };
  /** Ashman's D = √2·|μ₁ − μ₂| / √(σ₁² + σ₂²). */
  readonly separation: number;
  /** Per value, whether it belongs to the high component (posterior > ½); false for a missing value. */
  readonly isHigh: Uint8Array;
  /** Values in each component. */
  readonly counts: readonly [number, number];
}

/** At most this many values are fitted (evenly spaced order statistics of the sample). */
export const MAX_FIT = 10_000;

/** The level of the sign test that the valley between the modes is emptier than the lower peak (see dips). */
export const VALLEY_ALPHA = 0.05;

/**
 * Whether the values themselves dip between the two components: in windows
 * of half-width h = ½·min(σ) at the fitted mixture's lowest density between
 * the means and at each mean, the valley holds significantly fewer values
 * than the lower peak: a sign test, P(Binomial(v + p, ½) ≤ v) < VALLEY_ALPHA
 * (v the valley's count, p the lower peak's). A sample spread evenly (a
 * uniform) is fitted by two components better than by one normal, with
 * D ≈ 3.5, yet has no valley; a few values cannot show one.
 */
function dips(sorted: readonly number[], lo: TwoModes['low'], hi: TwoModes['high']): boolean {
  const density = (y: number): number => [lo, hi].reduce((s, c) => s + (c.weight / c.sd) * Math.exp(-0.5 * ((y - c.mean) / c.sd) ** 2), 0);
  let valley = lo.mean;
  let lowest = Infinity;
  for (let k = 1; k < 200; k++) {
    const y = lo.mean + ((hi.mean - lo.mean) * k) / 200;
    const d = density(y);
    if (d < lowest) {
      lowest = d;
      valley = y;
    }
  }
  const h = Math.min(lo.sd, hi.sd) / 2;
  const within = (c: number): number => upperBound(sorted, c + h) - lowerBound(sorted, c - h);
  const v = within(valley);
  const peak = Math.min(within(lo.mean), within(hi.mean));
  // Without a dip a value of the two windows is as likely in either: P(Binomial(v + peak, ½) ≤ v) must be < VALLEY_ALPHA.
  let p = 0;
  let term = 0.5 ** (v + peak); // C(v + peak, 0) / 2^(v + peak)
  for (let k = 0; k <= v; k++) {
    p += term;
    term *= (v + peak - k) / (k + 1);
  }
  return p < VALLEY_ALPHA;
}

/** The first index of sorted with a value ≥ y. */
function lowerBound(sorted: readonly number[], y: number): number {
  let a = 0;
  let b = sorted.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if ((sorted[m] as number) < y) a = m + 1;
    else b = m;
  }
  return a;
}

/** The first index of sorted with a value > y. */
function upperBound(sorted: readonly number[], y: number): number {
  let a = 0;
  let b = sorted.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if ((sorted[m] as number) <= y) a = m + 1;
    else b = m;
  }
  return a;
}

/** Ashman's D at or above which two normal components are clearly apart (Ashman, Bird & Zepf, AJ 108, 1994: D > 2). */
export const MIN_SEPARATION = 2;
/** The smaller component must hold at least this share of the values... */
export const MIN_MODE_SHARE = 0.1;
/** ...and at least this many of them, so that each can be tested against a class. */
export const MIN_MODE_VALUES = 3;

const LN_2PI = Math.log(2 * Math.PI);

/**
 * Two modes of the finite values of x, or null when the sample does not
 * clearly hold two. A two-component normal mixture is fitted by EM (started
 * from the split of the sorted values that maximises the between-group
 * variance, Otsu's rule, so it is deterministic; at most 500 iterations, until
 * the log-likelihood gains under 1e-10 relative; variances floored at 1e-9 of
 * the sample's; on at most MAX_FIT evenly spaced order statistics) and kept
 * where all hold:
 *  - BIC prefers it to one normal: −2 ln L₂ + 5 ln n < −2 ln L₁ + 2 ln n;
 *  - Ashman's D ≥ MIN_SEPARATION (a split of one normal at its mean gives
 *    two-means groups whose D is 2.65, but a fitted mixture of one normal
 *    collapses to overlapping components: D near 0);
 *  - each component has a weight ≥ MIN_MODE_SHARE and ≥ MIN_MODE_VALUES
 *    values assigned to it (posterior > ½);
 *  - the values dip between the two (dips).
 * Fewer than 2·MIN_MODE_VALUES values, or no spread: null.
 */
export function twoModes(x: Float64Array): TwoModes | null {
  const at: number[] = [];
  for (let i = 0; i < x.length; i++) if (Number.isFinite(x[i])) at.push(i);
  const n = at.length;
  if (n < 2 * MIN_MODE_VALUES) return null;
  const sorted = at.map((i) => x[i] as number).sort((a, b) => a - b);
  // Fitted on at most MAX_FIT evenly spaced order statistics: the same shape, at a bounded cost.
  const nf = Math.min(n, MAX_FIT);
  const v = nf === n ? sorted : Array.from({ length: nf }, (_, k) => sorted[Math.floor(((k + 0.5) * n) / nf)] as number);
  const mean = v.reduce((s, y) => s + y, 0) / nf;
  const variance = v.reduce((s, y) => s + (y - mean) * (y - mean), 0) / nf;
  if (!(variance > 0)) return null;
  const floor = 1e-9 * variance;
  const ll1 = -0.5 * nf * (LN_2PI + Math.log(variance) + 1);

  // Otsu's split of the sorted values: the largest between-group variance.
  let best = 1;
  let bestScore = -Infinity;
  let left = 0;
  const total = v.reduce((s, y) => s + y, 0);
  for (let k = 1; k < nf; k++) {
    left += v[k - 1] as number;
    const m1 = left / k;
    const m2 = (total - left) / (nf - k);
    const score = k * (nf - k) * (m1 - m2) * (m1 - m2);
    if (score > bestScore) {
      bestScore = score;
      best = k;
    }
  }
  const moments = (ys: readonly number[]): [number, number] => {
    const m = ys.reduce((s, y) => s + y, 0) / ys.length;
    return [m, Math.max(floor, ys.reduce((s, y) => s + (y - m) * (y - m), 0) / ys.length)];
  };
  let [mu1, var1] = moments(v.slice(0, best));
  let [mu2, var2] = moments(v.slice(best));
  let w1 = best / nf;
  let c1 = 0;
  let c2 = 0;
  const constants = (): void => {
    c1 = Math.log(w1) - 0.5 * (LN_2PI + Math.log(var1));
    c2 = Math.log(1 - w1) - 0.5 * (LN_2PI + Math.log(var2));
  };
  constants();
  /** ln of component 1's and component 2's weighted density at y. */
  const logParts = (y: number): [number, number] => [c1 - (0.5 * (y - mu1) * (y - mu1)) / var1, c2 - (0.5 * (y - mu2) * (y - mu2)) / var2];
  const r = new Float64Array(nf); // posterior of component 2
  let ll = -Infinity;
  for (let iteration = 0; iteration < 500; iteration++) {
    // E step, in log space
    let next = 0;
    for (let j = 0; j < nf; j++) {
      const [a, b] = logParts(v[j] as number);
      const top = Math.max(a, b);
      const lse = top + Math.log(Math.exp(a - top) + Math.exp(b - top));
      r[j] = Math.exp(b - lse);
      next += lse;
    }
    // M step
    let s2 = 0;
    let m1 = 0;
    let m2 = 0;
    for (let j = 0; j < nf; j++) {
      s2 += r[j] as number;
      m1 += (1 - (r[j] as number)) * (v[j] as number);
      m2 += (r[j] as number) * (v[j] as number);
    }
    const s1 = nf - s2;
    if (!(s1 > 0) || !(s2 > 0)) return null;
    mu1 = m1 / s1;
    mu2 = m2 / s2;
    let q1 = 0;
    let q2 = 0;
    for (let j = 0; j < nf; j++) {
      const y = v[j] as number;
      q1 += (1 - (r[j] as number)) * (y - mu1) * (y - mu1);
      q2 += (r[j] as number) * (y - mu2) * (y - mu2);
    }
    var1 = Math.max(floor, q1 / s1);
    var2 = Math.max(floor, q2 / s2);
    w1 = s1 / nf;
    constants();
    const done = Math.abs(next - ll) <= 1e-10 * Math.abs(next);
    ll = next;
    if (done) break;
  }
  if (!(-2 * ll + 5 * Math.log(nf) < -2 * ll1 + 2 * Math.log(nf))) return null;
  const [lo, hi] = mu1 <= mu2 ? [{ weight: w1, mean: mu1, sd: Math.sqrt(var1) }, { weight: 1 - w1, mean: mu2, sd: Math.sqrt(var2) }]
    : [{ weight: 1 - w1, mean: mu2, sd: Math.sqrt(var2) }, { weight: w1, mean: mu1, sd: Math.sqrt(var1) }];
  const separation = (Math.SQRT2 * (hi.mean - lo.mean)) / Math.sqrt(lo.sd * lo.sd + hi.sd * hi.sd);
  const isHigh = new Uint8Array(x.length);
  let highCount = 0;
  for (const i of at) {
    const [a, b] = logParts(x[i] as number);
    if (mu1 <= mu2 ? b > a : a > b) {
      isHigh[i] = 1;
      highCount++;
    }
  }
  const counts: [number, number] = [n - highCount, highCount];
  if (!(separation >= MIN_SEPARATION) || Math.min(lo.weight, hi.weight) < MIN_MODE_SHARE || Math.min(...counts) < MIN_MODE_VALUES) return null;
  if (!dips(sorted, lo, hi)) return null;
  return { low: lo, high: hi, separation, isHigh, counts };
}
