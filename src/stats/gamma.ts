/**
 * Log-gamma and the log-gamma ratio the t distribution needs, written for
 * absolute accuracy: an error δ here becomes a relative error δ in a p-value.
 */

const HALF_LN_2PI = 0.5 * Math.log(2 * Math.PI);

/** Below this the Stirling series is not used directly; arguments are shifted up by recurrence. */
const STIRLING_MIN = 10;

/**
 * The Stirling series remainder S(z) of lnΓ(z) = (z − ½)ln z − z + ½ln 2π + S(z):
 * Σ B₂ₖ / (2k(2k−1) z^(2k−1)), k = 1..7 (DLMF 5.11.1). For z ≥ 10 the first
 * omitted term is below 1e-17.
 */
function stirlingRemainder(z: number): number {
  const r = 1 / z;
  const r2 = r * r;
  return r * (1 / 12 + r2 * (-1 / 360 + r2 * (1 / 1260 + r2 * (-1 / 1680
    + r2 * (1 / 1188 + r2 * (-691 / 360360 + r2 * (1 / 156)))))));
}

/**
 * lnΓ(x) for x > 0: the Stirling series (DLMF 5.11.1) for x ≥ 10, and below
 * that the recurrence lnΓ(x) = lnΓ(x + n) − ln(x(x+1)…(x+n−1)).
 * Absolute error ≲ 1e-14 (relative error grows near the zeros x = 1, 2).
 * Returns +Infinity at x = 0 and x = +Infinity, NaN for x < 0 or NaN.
 */
export function lnGamma(x: number): number {
  if (!(x >= 0)) return NaN;
  if (x === 0 || x === Infinity) return Infinity;
  let shift = 0;
  if (x < STIRLING_MIN) {
    let product = 1;
    while (x < STIRLING_MIN) {
      product *= x;
      x += 1;
    }
    shift = Math.log(product);
  }
  return (x - 0.5) * Math.log(x) - x + HALF_LN_2PI + stirlingRemainder(x) - shift;
}

/**
 * h(a) = lnΓ(a + ½) − lnΓ(a) − ½ ln a, for a > 0, without the cancellation of
 * subtracting two large log-gammas: from the Stirling series for a ≥ 10,
 *   h(a) = a·ln(1 + u) − ½ + S(a + ½) − S(a),  u = 1/(2a)   (→ −1/(8a) as a → ∞),
 * with a·ln(1 + u) − ½ = Σₖ≥₁ (−u)ᵏ/(2(k + 1)) summed directly, and below 10 the
 * recurrence h(a) = h(a + 1) + ½ ln(1 + 1/a) − ln(1 + 1/(2a)).
 * Error ≲ 1e-16 absolute and 1e-14 relative. NaN for a ≤ 0 or NaN; 0 at a = +Infinity.
 */
export function lnGammaHalfRatio(a: number): number {
  if (!(a > 0)) return NaN;
  if (a === Infinity) return 0;
  let correction = 0;
  while (a < STIRLING_MIN) {
    correction += 0.5 * Math.log1p(1 / a) - Math.log1p(0.5 / a);
    a += 1;
  }
  return logSeries(0.5 / a) + stirlingRemainder(a + 0.5) - stirlingRemainder(a) + correction;
}

/** ln(1 + u)/(2u) − ½ = Σₖ≥₁ (−u)ᵏ/(2(k + 1)), for 0 ≤ u ≤ 0.05 (≤ 14 terms). */
function logSeries(u: number): number {
  let power = -u;
  let sum = power / 4;
  for (let k = 2; Math.abs(power) > 1e-17 * u; k++) {
    power *= -u;
    sum += power / (2 * (k + 1));
  }
  return sum;
}
