import { describe, expect, it } from 'vitest';
import { GrowableFloat64, GrowableInt32 } from '../src/memory/growable.js';

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

  it('append, room and growth keep every value; unset slots read as the fill (NaN or 0)', () => {
    const nan = new GrowableFloat64(2);
    const zero = new GrowableFloat64(2, 0);
    const src = Float64Array.from({ length: 40 }, (_, i) => i / 4 - 3);
    for (const g of [nan, zero]) {
      g.append(src, 3);
      g.append(src.subarray(3), 37);
      expect([...g.data.subarray(0, g.length)]).toEqual([...src]);
      const room = g.room(100);
      expect(room.length).toBeGreaterThanOrEqual(140);
      room[g.length] = 9;
      g.length += 1;
      expect(g.toArray(42)[40]).toBe(9);
      expect(g.toArray(42)[41]).toBe(g.fill);
      // Beyond the length nothing is meaningful: read through at (or toArray), never data.
      expect(g.at(g.data.length - 1)).toBe(g === nan ? NaN : 0);
    }
  });

  it('fills skipped slots when set, never ahead: after clear no old value shows through; take hands over the storage', () => {
    const g = new GrowableFloat64(4);
    for (let i = 0; i < 6; i++) g.set(i, i + 1);
    g.clear();
    g.set(3, 40);
    // Slots 0–2 held 1, 2, 3 before clear: they read as missing now.
    expect([...g.toArray(6)]).toEqual([NaN, NaN, NaN, 40, NaN, NaN]);
    expect([g.at(0), g.at(3), g.at(4), g.at(1000)]).toEqual([NaN, 40, NaN, NaN]);
    // Reserved room is not written (it reads as 0 in data) until used.
    g.reserve(1 << 20);
    expect(g.data[5]).toBe(0);
    const taken = g.take(8);
    expect(taken.buffer).toBe(g.data.buffer);
    expect([...taken]).toEqual([NaN, NaN, NaN, 40, NaN, NaN, NaN, NaN]);
    // Without room for n it is a copy.
    const small = new GrowableFloat64(2);
    small.push(1);
    const copy = small.take(5);
    expect(copy.buffer).not.toBe(small.data.buffer);
    expect([...copy]).toEqual([1, NaN, NaN, NaN, NaN]);
  });

  it('copyIn is setting each value: skipped slots read as the fill, the length ends after the last', () => {
    const g = new GrowableFloat64(2);
    g.set(0, 5);
    g.clear();
    g.set(0, 1);
    g.copyIn(3, Float64Array.of(7, 8));
    expect(g.length).toBe(5);
    expect([...g.toArray(6)]).toEqual([1, NaN, NaN, 7, 8, NaN]);
    const one = new GrowableFloat64(2);
    one.set(0, 1);
    one.set(3, 7);
    one.set(4, 8);
    expect([...one.toArray(6)]).toEqual([...g.toArray(6)]);
  });
});

describe('the room a column is expected to need (SlotRoom, issue 17 thirty-fourth pass)', () => {
  it('past its first room a column grows straight to the room expected, then doubles from it; no guess: doubling', () => {
    const room = { expected: 1000 };
    const guided = new GrowableFloat64(16, Number.NaN, 2, room);
    const plain = new GrowableFloat64(16);
    const ints = new GrowableInt32(16, 2, room);
    for (let i = 0; i < 17; i++) {
      guided.set(i, i);
      plain.set(i, i);
      ints.push(i);
    }
    expect([guided.data.length, plain.data.length, ints.data.length]).toEqual([1000, 32, 1000]);
    expect([...guided.toArray(17)]).toEqual([...plain.toArray(17)]);
    // Beyond the room expected: doubling again. A guess withdrawn (0) leaves doubling alone.
    guided.set(1000, 5);
    expect(guided.data.length).toBe(2000);
    room.expected = 0;
    const after = new GrowableFloat64(16, Number.NaN, 2, room);
    for (let i = 0; i < 17; i++) after.push(i);
    expect(after.data.length).toBe(32);
    // A room smaller than doubling gives does not shrink the growth.
    const small = new GrowableFloat64(16, Number.NaN, 2, { expected: 20 });
    small.set(40, 1);
    expect(small.data.length).toBe(64);
    expect([small.at(39), small.at(40)]).toEqual([NaN, 1]);
  });
});

describe('GrowableInt32', () => {
  it('reserve keeps the values, makes the room, and growth goes on from it', () => {
    const g = new GrowableInt32(2);
    g.push(3);
    g.push(-4);
    g.reserve(100);
    expect(g.data.length).toBe(100);
    expect([...g.data.subarray(0, g.length)]).toEqual([3, -4]);
    g.reserve(10); // less than the room: nothing
    expect(g.data.length).toBe(100);
    g.repeat(9, 120);
    expect(g.length).toBe(122);
    expect([...g.data.subarray(0, 4)]).toEqual([3, -4, 9, 9]);
  });


  it('push, append, repeat and room keep every value across growth', () => {
    const g = new GrowableInt32(1);
    g.push(5);
    g.append(Int32Array.from([1, 2, 3, 4]), 3);
    g.repeat(-7, 20);
    g.push(8);
    const room = g.room(3);
    room[g.length] = 11;
    g.length += 1;
    // A few values are copied in a loop, many in one native copy (SMALL_COPY): the same values either way.
    const many = Int32Array.from({ length: 50 }, (_, i) => 100 + i);
    g.append(many, 40);
    g.repeat(6, 40);
    expect([...g.data.subarray(0, g.length)]).toEqual([5, 1, 2, 3, ...Array(20).fill(-7), 8, 11, ...many.subarray(0, 40), ...Array(40).fill(6)]);
  });
});
