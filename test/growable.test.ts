import { describe, expect, it } from 'vitest';
import { GrowableFloat64 } from '../src/features/growable.js';

describe('GrowableFloat64', () => {
  it('reserve keeps the values and reads unset slots as the fill, before and after', () => {
    const g = new GrowableFloat64(4);
    g.set(0, 1.5);
    g.set(2, -3);
    g.reserve(1000);
    expect(g.data.length).toBe(1000);
    expect(g.length).toBe(3);
    expect([...g.toArray(5)]).toEqual([1.5, NaN, -3, NaN, NaN]);
    // Within the reserved room a set does not reallocate; beyond it, it grows as before.
    const data = g.data;
    g.set(999, 7);
    expect(g.data).toBe(data);
    g.set(1000, 8);
    expect(g.data).not.toBe(data);
    expect([g.data[999], g.data[1000], g.data[998]]).toEqual([7, 8, NaN]);
    // Reserving less than the room is a no-op; a zero fill is kept too.
    g.reserve(10);
    expect(g.data.length).toBeGreaterThan(1000);
    const zeros = new GrowableFloat64(2, 0);
    zeros.push(4);
    zeros.reserve(6);
    expect([...zeros.data]).toEqual([4, 0, 0, 0, 0, 0]);
  });
});
