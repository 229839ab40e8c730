import { describe, expect, it } from 'vitest';
import { twoModes } from '../src/stats/mixture.js';
import { mulberry32 } from '../src/stats/prng.js';

// Two modes in one sample (stats/mixture.ts): a two-normal mixture by EM, kept only where BIC prefers
// it, Ashman's D ≥ 2, each mode holds ≥ 10% and ≥ 3 values, and the values dip between the modes.

/** A standard normal draw (Box–Muller). */
const normal = (r: () => number): number => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
const sample = (seed: number, n: number, draw: (r: () => number) => number): Float64Array => {
  const r = mulberry32(seed);
  return Float64Array.from({ length: n }, () => draw(r));
};

describe('twoModes (stats/mixture.ts)', () => {
  it('two groups far apart: each value in its own group, the components where they were drawn', () => {
    const r = mulberry32(5);
    const high = Array.from({ length: 120 }, () => r() < 0.3);
    const x = Float64Array.from(high, (h) => (h ? 10 : 0) + normal(r));
    const m = twoModes(x)!;
    expect(m).not.toBeNull();
    expect(Array.from(m.isHigh, (v) => v === 1)).toEqual(high);
    expect(m.low.mean).toBeCloseTo(0, 0);
    expect(m.high.mean).toBeCloseTo(10, 0);
    expect(m.separation).toBeGreaterThan(8);
  });

  it('one normal is one mode (0 of 50 samples of 200), a uniform seldom two (a flat valley is no dip)', () => {
    let normals = 0;
    let uniforms = 0;
    for (let s = 1; s <= 50; s++) {
      if (twoModes(sample(s, 200, normal)) !== null) normals++;
      if (twoModes(sample(1000 + s, 200, (r) => r())) !== null) uniforms++;
    }
    expect(normals).toBe(0);
    // Without the valley's sign test, 49 of 50 of these uniforms were split (D ≈ 3.5).
    expect(uniforms).toBeLessThanOrEqual(5);
  });

  it('too few values, no spread, a group of 2: no split', () => {
    expect(twoModes(Float64Array.of(0, 0, 10, 10, 10))).toBeNull();
    expect(twoModes(new Float64Array(30).fill(4))).toBeNull();
    expect(twoModes(Float64Array.from([...sample(9, 60, normal), 50, 51]))).toBeNull();
  });
});
