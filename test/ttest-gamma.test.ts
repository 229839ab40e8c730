import { describe, it, expect } from 'vitest';
import { lnGamma, lnGammaHalfRatio } from '../src/stats/gamma.js';

// mpmath 1.3.0, mp.dps = 40: float(mp.loggamma(mp.mpf(x)))
const LN_GAMMA: [number, number][] = [
  [1e-300, 690.7755278982137],
  [1e-5, 11.512919692895826],
  [0.5, 0.5723649429247001],
  [1, 0],
  [1.5, -0.12078223763524522],
  [2, 0],
  [2.5, 0.2846828704729192],
  [3.7, 1.428072326665388],
  [9.99, 12.779315214350193],
  [10, 12.801827480081469],
  [10.5, 13.940625219403763],
  [100.5, 361.4355404677776],
  [100000.25, 1051290.5872040857],
  [1e15, 3.3538776394910668e16],
  [1e300, 6.897755278982137e302],
];

// mpmath, mp.dps = 400: float(mp.loggamma(a + 1/2) - mp.loggamma(a) - mp.log(a)/2)
const HALF_RATIO: [number, number][] = [
  [0.001, -2.8828973483937532],
  [0.5, -0.22579135264472744],
  [1.85, -0.0668053114275665],
  [9.5, -0.013151840019046446],
  [15, -0.00833179217417291],
  [10000, -1.2499999994791666e-5],
  [5e8, -2.5e-10],
  [5e14, -2.5e-16],
];

describe('lnGamma', () => {
  it('matches mpmath to 1e-14 absolute (1e-15 relative for large x)', () => {
    for (const [x, expected] of LN_GAMMA) {
      expect(Math.abs(lnGamma(x) - expected)).toBeLessThanOrEqual(1e-14 + 1e-15 * Math.abs(expected));
    }
  });
  it('edge cases', () => {
    expect(lnGamma(0)).toBe(Infinity);
    expect(lnGamma(Infinity)).toBe(Infinity);
    expect(lnGamma(-1)).toBeNaN();
    expect(lnGamma(NaN)).toBeNaN();
  });
});

describe('lnGammaHalfRatio', () => {
  it('matches mpmath to 1e-15 absolute, and 1e-12 relative', () => {
    for (const [a, expected] of HALF_RATIO) {
      const got = lnGammaHalfRatio(a);
      expect(Math.abs(got - expected)).toBeLessThanOrEqual(1e-15);
      expect(Math.abs(got - expected)).toBeLessThanOrEqual(1e-12 * Math.abs(expected));
    }
  });
  it('tends to −1/(8a) without cancellation, and agrees with lnGamma where both are exact enough', () => {
    expect(lnGammaHalfRatio(5e299)).toBeCloseTo(-1 / (8 * 5e299), 310);
    expect(lnGammaHalfRatio(5e299) / (-1 / (8 * 5e299))).toBeCloseTo(1, 12);
    for (const a of [0.3, 2, 7.5, 12]) {
      expect(lnGammaHalfRatio(a)).toBeCloseTo(lnGamma(a + 0.5) - lnGamma(a) - 0.5 * Math.log(a), 13);
    }
    expect(lnGammaHalfRatio(Infinity)).toBe(0);
    expect(lnGammaHalfRatio(0)).toBeNaN();
  });
});
