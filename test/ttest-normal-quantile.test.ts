import { describe, expect, it } from 'vitest';
import { normalQuantile } from '../src/stats/normal-quantile.js';

// Reference values: scipy.stats.norm.ppf(p) (scipy 1.x, double precision), run
// `python3 -c "from scipy.stats import norm; print(repr(norm.ppf(p)))"`.
const SCIPY: readonly [number, number][] = [
  [1e-300, -37.0470962993612],
  [1e-100, -21.273453560965322],
  [1e-20, -9.262340089798409],
  [1e-12, -7.034483825301131],
  [2.5e-8, -5.451310437845478],
  [1e-6, -4.753424308822899],
  [0.001, -3.090232306167813],
  [0.025, -1.9599639845400545],
  [0.05, -1.6448536269514729],
  [0.075, -1.4395314709384563],
  [0.3, -0.5244005127080409],
  [0.5, 0],
  [0.7, 0.5244005127080407],
  [0.975, 1.959963984540054],
  [0.999, 3.090232306167813],
];

describe('normalQuantile (AS 241)', () => {
  it.each(SCIPY)('Φ⁻¹(%s) matches scipy.stats.norm.ppf to 1e-14 relative', (p, expected) => {
    const got = normalQuantile(p);
    if (expected === 0) expect(got).toBe(0);
    else expect(Math.abs(got - expected) / Math.abs(expected)).toBeLessThan(1e-14);
  });

  it('is ±∞ at the ends and NaN outside [0, 1]', () => {
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(normalQuantile(-0.1)).toBeNaN();
    expect(normalQuantile(1.1)).toBeNaN();
    expect(normalQuantile(NaN)).toBeNaN();
  });
});
