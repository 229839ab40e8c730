/**
 * Two-sided tail probability of Student's t distribution with real df > 0,
 * computed in log space so that p stays meaningful far past double underflow.
 *
 * p = P(|T| ≥ |t|) = I_x(ν/2, ½), x = ν/(ν + t²)   (A&S 26.7.1, 26.5.27)
 *
 * Three methods, each used where it converges fast and loses nothing:
 * - t² ≥ ν, or ν < 30 away from the centre: the continued fraction of
 *   I_x(a, b) (DLMF 8.17.22), prefactor xᵃ·y^b/(a·B(a, b)) taken in logs;
 * - ν < 30 near the centre: p = 1 − I_y(½, ν/2), y = t²/(ν + t²), the same
 *   continued fraction; p ≳ 0.1 there, so the subtraction is harmless;
 * - ν ≥ 30 and t² < ν: the asymptotic expansion of I_x(a, b) for a ≥ 15, b ≤ 1
 *   in incomplete gamma functions (DiDonato & Morris 1992, ACM TOMS 708, §9),
 *   which for b = ½ is erfc(√z)·(1 + O(1/ν)), z = (ν/2 − ¼)·ln(1 + t²/ν):
 *   a few terms at any ν, however large;
 * - ν = ∞: the normal limit, p = erfc(|t|/√2).
 */
import { lnGammaHalfRatio } from './gamma.js';
import { erfcx } from './erfc.js';

export { lnGamma } from './gamma.js';

export interface TwoSidedP {
  /** P(|T| ≥ |t|); underflows to 0 (or a subnormal) far in the tail. */
  readonly p: number;
  /** log10 of p, finite wherever t is (−Infinity only for |t| = ∞). */
  readonly log10p: number;
}

const LN10 = Math.LN10;
const HALF_LN_PI = 0.5 * Math.log(Math.PI);
const SQRT_PI = Math.sqrt(Math.PI);
/** ν from which the asymptotic expansion (a = ν/2 ≥ 15) is accurate to double precision. */
const ASYMPTOTIC_MIN_DF = 30;
const EPS = 1e-16;

/** p from ln p; ln p is clamped to ≤ 0, as rounding may leave it a few ulps above near t = 0. */
function fromLog(lnp: number): TwoSidedP {
  if (lnp > 0) lnp = 0;
  return { p: Math.exp(lnp), log10p: lnp / LN10 };
}

/**
 * Two-sided p-value of Student's t with `df` degrees of freedom (real, > 0;
 * `Infinity` gives the normal distribution). Relative error of p ≲ 1e-13 down
 * to p = 1e-300, and log10p is accurate (in absolute terms, to ~1e-13·|log10p|)
 * far beyond that. Edge cases: t = 0 → p = 1; |t| = ∞ → p = 0,
 * log10p = −Infinity; NaN t, NaN df or df ≤ 0 → NaN for both.
 */
export function studentTTwoSided(t: number, df: number): TwoSidedP {
  if (Number.isNaN(t) || !(df > 0)) return { p: NaN, log10p: NaN };
  const at = Math.abs(t);
  if (at === Infinity) return { p: 0, log10p: -Infinity };
  if (at === 0) return { p: 1, log10p: 0 };
  // erfc(x) = e^(−x²)·erfcx(x) with x² = t²/2 taken from t, not from the rounded t/√2
  if (df === Infinity) return fromLog(-(at * at) / 2 + Math.log(erfcx(at / Math.SQRT2)));

  // q = t²/ν; ln x = −ln(1 + q), ln y = ln(q/(1 + q)), without overflow.
  const a = df / 2;
  let q = (at * at) / df;
  let lnx: number;
  let lny: number;
  if (q === Infinity) q = at * (at / df);
  if (q === Infinity) {
    const lnq = 2 * Math.log(at) - Math.log(df);
    lnx = -lnq;
    lny = -Math.exp(-lnq);
  } else if (q >= 1) {
    lnx = -Math.log1p(q);
    lny = -Math.log1p(1 / q);
  } else {
    if (q === 0) return { p: 1, log10p: 0 };
    lnx = -Math.log1p(q);
    lny = Math.log(q) + lnx;
  }

  if (q < 1 && df >= ASYMPTOTIC_MIN_DF) return fromLog(logTailAsymptotic(a, lnx));
  const x = q === Infinity ? 0 : 1 / (1 + q);
  // ln B(a, ½) = ½ln π − ½ln a − h(a)
  const lnBeta = HALF_LN_PI - 0.5 * Math.log(a) - lnGammaHalfRatio(a);
  if (q >= 1 || x < (a + 1) / (a + 2.5)) {
    const front = a * lnx + 0.5 * lny - Math.log(a) - lnBeta;
    return fromLog(front + Math.log(betaContinuedFraction(a, 0.5, x)));
  }
  const y = q / (1 + q);
  const front = 0.5 * lny + a * lnx + Math.LN2 - lnBeta;
  const p = 1 - Math.exp(front) * betaContinuedFraction(0.5, a, y);
  return { p, log10p: Math.log10(p) };
}

/**
 * The continued fraction of I_x(a, b) without its prefactor (DLMF 8.17.22):
 * 1/(1 + d₁/(1 + d₂/(1 + …))), d₂ₘ₊₁ = −(a+m)(a+b+m)x/((a+2m)(a+2m+1)),
 * d₂ₘ = m(b−m)x/((a+2m−1)(a+2m)); modified Lentz. Converges fast for
 * x < (a+1)/(a+b+2).
 */
function betaContinuedFraction(a: number, b: number, x: number): number {
  // coefficients as products of ratios, so that nothing overflows for huge a
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) / (a + 1)) * x;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 100_000; m++) {
    const m2 = 2 * m;
    let aa = ((m * (b - m)) / (a + m2 - 1)) * (x / (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -((a + m) / (a + m2)) * ((a + b + m) / (a + m2 + 1)) * x;
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return h;
}

/** Terms of the expansion at most. */
const MAX_TERMS = 30;

/**
 * The expansion's coefficients for b = ½, which depend on nothing else: cₙ = 1/(2n+1)! and
 * dₙ = (b−1)cₙ + (1/n)·Σᵢ₌₁ⁿ⁻¹ (ib − n)·cᵢ·dₙ₋ᵢ, n = 1…MAX_TERMS (index 0 unused). Computed once, never written
 * after: a table, not state (the same doubles as computing them in each call, in the same order).
 */
const EXPANSION_D: Float64Array = (() => {
  const b = 0.5;
  const cs = new Float64Array(MAX_TERMS + 1);
  const ds = new Float64Array(MAX_TERMS + 1);
  let c = 1;
  for (let n = 1; n <= MAX_TERMS; n++) {
    c /= 2 * n * (2 * n + 1);
    cs[n] = c;
    let s = 0;
    for (let i = 1; i < n; i++) s += (i * b - n) * cs[i]! * ds[n - i]!;
    ds[n] = (b - 1) * c + s / n;
  }
  return ds;
})();

/**
 * ln I_x(a, ½) for a ≥ 15 by the asymptotic expansion of DiDonato & Morris
 * (1992, §9) with b = ½: with T = a − ¼, z = −T·ln x, L = (ln x / 2)²,
 *   I_x(a, b) = M·Σₙ dₙ·Jₙ,  M = e^(−z)·z^b/Γ(b) · Γ(a+b)/(Γ(a)·T^b),
 *   J₀ = Q(b, z)·Γ(b)·e^z/z^b,
 *   Jₙ = ((b+2n−2)(b+2n−1)·Jₙ₋₁ + (z+b+2n−1)·Lⁿ⁻¹) / (4T²),
 *   d₀ = 1, dₙ = (b−1)cₙ + (1/n)·Σᵢ₌₁ⁿ⁻¹ (ib − n)·cᵢ·dₙ₋ᵢ,  cₙ = 1/(2n+1)!.
 * For b = ½, M·J₀ = erfc(√z)·Γ(a+½)/(Γ(a)·√T), so
 *   ln p = ln erfc(√z) + h(a) − ½ln(1 − 1/(4a)) + ln(1 + Σₙ≥₁ dₙ·Jₙ/J₀)
 * with h(a) = lnΓ(a+½) − lnΓ(a) − ½ln a: no large terms cancel, even for z → 0.
 */
function logTailAsymptotic(a: number, lnx: number): number {
  const b = 0.5;
  const T = a - 0.25;
  const z = -T * lnx;
  const sqrtZ = Math.sqrt(z);
  const erfcxRoot = erfcx(sqrtZ);
  const j0 = (SQRT_PI * erfcxRoot) / sqrtZ;
  const v = 0.25 / (T * T);
  const L = 0.25 * lnx * lnx;
  let j = 1; // Jₙ/J₀
  let rest = 0; // Σₙ≥₁ dₙ·Jₙ/J₀
  let power = 1 / j0; // Lⁿ⁻¹/J₀
  for (let n = 1; n <= MAX_TERMS; n++) {
    const k = b + 2 * n - 2;
    j = (k * (k + 1) * j + (z + k + 1) * power) * v;
    power *= L;
    const term = EXPANSION_D[n]! * j;
    rest += term;
    if (Math.abs(term) <= EPS * (1 + rest)) break;
  }
  const lnErfc = -z + Math.log(erfcxRoot);
  return lnErfc + lnGammaHalfRatio(a) - 0.5 * Math.log1p(-0.25 / a) + Math.log1p(rest);
}
