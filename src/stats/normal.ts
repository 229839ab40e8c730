/**
 * The standard normal's tails in log space, and z, the one currency of
 * ranking and attention (SPEC §3): ln Q(z) = ln(½·erfc(z/√2)) for any z; the
 * upper quantile from ln q, past double underflow; the signed z of a two-sided
 * p, sign·Φ⁻¹(1 − p/2) capped at |z| = Z_CAP; and the p and z of a perfect
 * separation. Edge cases are in each function's comment.
 */
import { logErfc } from './erfc.js';
import { lnGamma } from './gamma.js';
import { normalQuantile } from './normal-quantile.js';

const LN10 = Math.LN10;
const LN2 = Math.LN2;
const HALF_LN_2PI = 0.5 * Math.log(2 * Math.PI);

/** |z| is capped here (SPEC §3): p ≈ 1e-300, and perfectly separated features. */
export const Z_CAP = 38;

/**
 * ln Q(z) for the standard normal upper tail Q(z) = ½·erfc(z/√2), finite far
 * past double underflow (via logErfc). For z < 0, Q = 1 − Q(−z).
 */
export function logNormalUpper(z: number): number {
  if (z >= 0) return logErfc(z / Math.SQRT2) - LN2;
  return Math.log1p(-Math.exp(logErfc(-z / Math.SQRT2) - LN2));
}

/** Below this ln q, q is no longer a normal double: the quantile comes from ln q itself. */
const LN_SMALLEST_Q = Math.log(1e-300);

/**
 * The z with Q(z) = q, given ln q (q ≤ ½ gives z ≥ 0): the normal quantile
 * Φ⁻¹(1 − q). While q is a normal double, Wichura's AS 241
 * (`normalQuantile`); below, where q underflows, Newton's method on ln Q
 * started from the asymptotic √(−2 ln q) guess:
 * z ← z + (ln Q(z) − ln q)·Q(z)/φ(z), a few steps to ~1e-13 relative.
 * ln q ≥ ln ½ returns the mirror image; ln q = −∞ returns +∞.
 */
export function normalUpperQuantileFromLog(lnQ: number): number {
  if (Number.isNaN(lnQ) || lnQ > 0) return NaN;
  if (lnQ === -Infinity) return Infinity;
  if (lnQ > -LN2) return -normalUpperQuantileFromLog(Math.log1p(-Math.exp(lnQ)));
  if (lnQ >= LN_SMALLEST_Q) return -normalQuantile(Math.exp(lnQ));
  let z = lnQ > -2 ? 0.5 : Math.sqrt(-2 * lnQ - Math.log(-4 * Math.PI * lnQ));
  for (let i = 0; i < 60; i++) {
    const logQ = logNormalUpper(z);
    const logPhi = -0.5 * z * z - HALF_LN_2PI;
    const step = (logQ - lnQ) * Math.exp(logQ - logPhi);
    z += step;
    if (Math.abs(step) <= 1e-14 * Math.max(1, Math.abs(z))) break;
  }
  return z;
}

/**
 * The signed z of a two-sided test (SPEC §3): z = sign · Φ⁻¹(1 − p/2), from
 * log10 p so that p below double precision still gives its z, capped at
 * |z| = Z_CAP (perfectly separated features, p = 0, get the cap). sign is the
 * sign of the test's statistic (t); z = 0 when sign is 0 or p = 1; NaN for NaN.
 */
export function signedZ(sign: number, log10p: number): number {
  if (Number.isNaN(sign) || Number.isNaN(log10p)) return NaN;
  if (sign === 0 || log10p >= 0) return 0;
  const z = Math.min(Z_CAP, normalUpperQuantileFromLog(log10p * LN10 - LN2));
  return sign > 0 ? z : -z;
}

/**
 * log10 of the two-sided p of a complete separation of samples of sizes a and
 * b under an exact rank test: p = 2 / C(a + b, a) (Mann–Whitney: one of the
 * C(a+b, a) equally likely arrangements at each extreme), at most 1. The
 * evidence of a perfectly separated feature (both classes constant and
 * different): 2 against 4 values give p = 2/15, 40 against 40 give 1.9e-23.
 * Sizes are rounded down (weighted counts); 0 (p = 1) when either is below 1.
 */
export function separationLog10p(a: number, b: number): number {
  const m = Math.floor(a);
  const n = Math.floor(b);
  if (m < 1 || n < 1) return 0;
  const lnChoose = lnGamma(m + n + 1) - lnGamma(m + 1) - lnGamma(n + 1);
  return Math.min(0, (Math.LN2 - lnChoose) / LN10);
}

/**
 * The largest |z| two samples of sizes a and b can support on their own: the
 * z of `separationLog10p(a, b)`, at most Z_CAP. 2 against 4 values: z ≈ 1.5;
 * 40 against 40: z ≈ 9.98.
 */
export function separationZ(a: number, b: number): number {
  return Math.abs(signedZ(1, separationLog10p(a, b)));
}
