import { describe, expect, it } from 'vitest';
import { normalUpperQuantileFromLog, separationZ, signedZ, Z_CAP } from '../src/stats/normal.js';

describe('signed z of a two-sided p (SPEC §3 ranking)', () => {
  // Reference: scipy 1.17.1 stats.norm.isf(p/2); 1e-400 from mpmath (50 digits), findroot of ln(erfc(z/√2)/2) = ln(p/2).
  const cases: [p: number, log10p: number, z: number][] = [
    [0.05, Math.log10(0.05), 1.9599639845400545],
    [1e-5, -5, 4.417173413469023],
    [0.5, Math.log10(0.5), 0.6744897501960817],
    [0.9, Math.log10(0.9), 0.12566134685507402],
    [1e-30, -30, 11.523883577380248],
    [1e-300, -300, 37.06578788077213],
  ];
  for (const [p, log10p, z] of cases) {
    it(`p = ${p}: z = ${z}`, () => {
      expect(signedZ(1, log10p) / z).toBeCloseTo(1, 12);
      expect(signedZ(-1, log10p) / -z).toBeCloseTo(1, 12);
    });
  }

  it('far below double precision (p = 1e-400) the quantile is still right, and z is capped at 38', () => {
    expect(normalUpperQuantileFromLog(-400 * Math.LN10 - Math.LN2) / 42.826406491171177).toBeCloseTo(1, 12);
    expect(signedZ(1, -400)).toBe(Z_CAP);
    expect(signedZ(-1, -Infinity)).toBe(-Z_CAP);
  });

  it('p = 1 or no sign gives 0; NaN stays NaN', () => {
    expect(signedZ(1, 0)).toBe(0);
    expect(signedZ(0, -5)).toBe(0);
    expect(signedZ(1, NaN)).toBeNaN();
  });
});

describe('separationZ: the evidence of a complete separation (rank test bound)', () => {
  // p = 2/C(a + b, a); z = scipy 1.17.1 stats.norm.isf(p/2).
  const cases: [a: number, b: number, z: number][] = [
    [2, 4, 1.501085946044025],
    [40, 40, 9.980230538832828],
    [1, 3, 0.6744897501960817],
    [3, 5, 2.1001654928444697],
  ];
  for (const [a, b, z] of cases) it(`${a} against ${b} values: z = ${z}`, () => expect(separationZ(a, b)).toBeCloseTo(z, 10));
  it('is 0 without values on a side', () => expect(separationZ(0, 10)).toBe(0));
});
