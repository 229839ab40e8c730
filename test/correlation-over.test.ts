import { describe, expect, it } from 'vitest';
import { correlation, correlationOver } from '../src/stats/correlation.js';
import { normalStream } from './dn-fixtures.js';

const range = (start: number, end: number): number[] => Array.from({ length: end - start }, (_, i) => start + i);

describe('correlationOver', () => {
  it('is Pearson r over the rows where both are finite (numpy)', () => {
    // numpy: np.corrcoef([0.5,1.5,2.25,8,3],[1,-2,3.5,7,0.25])[0,1] = 0.8070274324570927
    const x = Float64Array.of(9, 0.5, 1.5, Number.NaN, 2.25, 8, 3, Infinity);
    const y = Float64Array.of(9, 1, -2, 4, 3.5, 7, 0.25, 1);
    expect(correlationOver(x, y, 1, 8)).toBeCloseTo(0.8070274324570927, 14);
    // numpy: np.corrcoef([1,2,3,4,5],[2,4,5,4,5])[0,1] = 0.7745966692414834
    expect(correlationOver(Float64Array.of(1, 2, 3, 4, 5), Float64Array.of(2, 4, 5, 4, 5), 0, 5)).toBeCloseTo(0.7745966692414834, 14);
  });

  it('is NaN below three finite pairs and without spread', () => {
    expect(correlationOver(Float64Array.of(1, 2, Number.NaN), Float64Array.of(1, 2, 3), 0, 3)).toBeNaN();
    expect(correlationOver(Float64Array.of(4, 4, 4, 4), Float64Array.of(1, 2, 3, 4), 0, 4)).toBeNaN();
  });

  // Its passes are functions of their own (they return as their loops end, for V8): the sums must still be the
  // ones `correlation` takes, in its order, over every range and after calls of other lengths in between.
  it('equals correlation over the same rows to the bit, call after call', () => {
    const noise = normalStream(7);
    const n = 20_000;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const z = noise();
      x[i] = i % 97 === 0 ? Number.NaN : i % 251 === 0 ? -Infinity : z * 1e3;
      y[i] = i % 89 === 0 ? Number.NaN : 0.3 * z + noise();
    }
    for (const [start, end] of [[0, n], [5, 9], [100, 12_000], [0, 2], [7_000, 20_000], [0, n]] as const) {
      expect(Object.is(correlationOver(x, y, start, end), correlation(x, y, range(start, end))), `${start}–${end}`).toBe(true);
    }
  });
});
