import { describe, expect, it } from 'vitest';
import { formatP } from '../src/report/format.js';

describe('formatP', () => {
  it('prints p below double precision from log10 p, the mantissa carried into the exponent when it rounds to 10', () => {
    // log10 p = −2806.0001: p = 10^0.9999 · 10^−2807 = 9.998e−2807, which rounds to 1.0e−2806.
    expect(formatP(0, -2806.0001)).toBe('1.0e-2806');
    expect(formatP(0, -2806.5)).toBe('3.2e-2807');
    expect(formatP(0, -Infinity)).toBe('0 (separated)');
    expect(formatP(0.0123, Math.log10(0.0123))).toBe('0.0123');
    expect(formatP(1.5e-7, Math.log10(1.5e-7))).toBe('1.5e-7');
  });
});
