import { describe, expect, it } from 'vitest';
import { formatP, grouped, plural } from '../src/report/format.js';

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

describe('grouped (thousands, without loading ICU)', () => {
  it('writes what toLocaleString(\'en-US\') writes', () => {
    const cases = [0, -0, 1, -1, 12, 999, 1000, -1000, 9999, 12345, 100000, 999999, 1000000, 1234567, -7654321, 2 ** 31, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER,
      2 ** 53, 1e21, 1.5, 1234.5678, -0.25, Number.NaN, Infinity, -Infinity];
    for (const n of cases) expect([n, grouped(n)]).toEqual([n, n.toLocaleString('en-US')]);
    expect(grouped(1234567)).toBe('1,234,567');
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(12345, 'file')).toBe('12,345 files');
  });
});
