/**
 * A growth factor for buffers that may reach millions of values (held
 * records): 4 copies a third as much as doubling on the way there, and the
 * room not yet written costs no memory (a large zeroed allocation is mapped
 * page by page as it is first written).
 */
export const GROW_FAST = 4;

/** Below this many values, append and repeat copy in a loop: a typed-array view and a native call cost more. */
const SMALL_COPY = 32;

/**
 * How many slots a per-instance column is expected to need in all (0: no
 * guess), kept by its owner (FeatureCollector.expectFiles): a column that
 * outgrows its first room grows straight to it, in one allocation and one
 * copy, instead of doubling to it (10 000 small files: ten copies of each of
 * a few hundred columns, the last ones in the parse stage's serial end under
 * `--jobs 2`). Room not yet written costs no memory (see GROW_FAST).
 */
export interface SlotRoom {
  readonly expected: number;
}

/**
 * A Float64Array that grows by doubling; unset slots read as `fill`. Only
 * `data[0, length)` is meaningful: slots skipped by a `set` beyond `length`
 * are filled then, and what lies at or beyond `length` is never filled
 * ahead, so room reserved and not yet written costs no memory (see GROW_FAST;
 * toArray and readers of `data` treat it as fill).
 */
export class GrowableFloat64 {
  data: Float64Array;
  length = 0;
  /**
   * Set while this column holds no values of its own and reads as another
   * column does (its owner knows which): every value so far was the same as
   * that column's. See FeatureCollector's followers.
   */
  following = false;

  /** growth: the factor capacity grows by (see GROW_FAST); slotRoom: the slots it is expected to need. */
  constructor(capacity = 16, readonly fill = Number.NaN, private readonly growth = 2, private readonly slotRoom?: SlotRoom) {
    this.data = new Float64Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }

  set(i: number, v: number): void {
    // The usual case, the slot after the last one set, in a body small enough to be inlined where it is called.
    if (i === this.length && i < this.data.length) {
      this.data[i] = v;
      this.length = i + 1;
      return;
    }
    this.setBeyond(i, v);
  }

  /** set, for a slot not right after the last one (or beyond the room). */
  private setBeyond(i: number, v: number): void {
    if (i >= this.data.length) this.grow(i + 1);
    const data = this.data;
    if (i >= this.length) {
      // The skipped slots read as the fill. (Filled by the builtin, not a loop here: over a long gap, the loop was
      // compiled while it ran and went on into code that had not run yet, where it stopped on every later call.)
      data.fill(this.fill, this.length, i);
      this.length = i + 1;
    }
    data[i] = v;
  }

  /** Room for n more values (growing by doubling): write them to `data` from `length` on, then set `length`. */
  room(n: number): Float64Array {
    if (this.length + n > this.data.length) this.grow(this.length + n);
    return this.data;
  }

  /**
   * Write `values` to slots at, at + 1, …: as setting each of them, skipped
   * slots before `at` reading as the fill, in one copy.
   */
  copyIn(at: number, values: Float64Array): void {
    const end = at + values.length;
    if (end > this.data.length) this.grow(end);
    if (at > this.length) this.data.fill(this.fill, this.length, at);
    this.data.set(values, at);
    if (end > this.length) this.length = end;
  }

  /** Push the first n values of `from`. */
  append(from: Float64Array, n: number): void {
    const at = this.length;
    if (at + n > this.data.length) this.grow(at + n);
    const data = this.data;
    if (n < SMALL_COPY) {
      // A few records (a named instance's, between two I lines): a loop, without a view of `from`.
      for (let i = 0; i < n; i++) data[at + i] = from[i] as number;
    } else {
      // One copy (memcpy) rather than an element loop: ~3× faster for the parser's 4 096-record batches.
      data.set(n === from.length ? from : from.subarray(0, n), at);
    }
    this.length = at + n;
  }

  /** Room for `n` values without growing again (one copy of the values now instead of doublings later). */
  reserve(n: number): void {
    if (n <= this.data.length) return;
    const next = new Float64Array(n);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }

  /** Use `room` (zeroed, longer than `data`) as the storage from now on: the values are copied into it. */
  moveTo(room: Float64Array): void {
    room.set(this.data.subarray(0, this.length));
    this.data = room;
  }

  /**
   * Values another thread wrote into `data` at [at, at + n) (shared storage:
   * see FeatureCollector.shareColumns): as setting each of them, skipped slots
   * before `at` reading as the fill.
   */
  adoptWritten(at: number, n: number): void {
    if (at > this.length) this.data.fill(this.fill, this.length, at);
    if (at + n > this.length) this.length = at + n;
  }

  /**
   * The first n values (unset ones = fill), as `data`'s own first n slots when
   * it has room for them (the slots from `length` on filled now), else a copy.
   * A FeatureSet column is handed the storage so: no second copy of a
   * million-slot column, and its unwritten room never becomes memory.
   */
  take(n: number): Float64Array {
    if (this.data.length < n) return this.toArray(n);
    if (this.length < n) this.data.fill(this.fill, this.length, n);
    this.length = Math.max(this.length, n);
    return this.data.subarray(0, n);
  }

  /** A copy of the first n values (unset ones = fill), in new memory of that kind. */
  toArray(n = this.length, memory: ExportMemory = ArrayBuffer): Float64Array {
    const out = float64sIn(memory, n);
    const stored = Math.min(n, this.length);
    out.set(this.data.subarray(0, stored));
    if (stored < n && !Object.is(this.fill, 0)) out.fill(this.fill, stored);
    return out;
  }

  /** Value i (the fill at or beyond `length`). */
  at(i: number): number {
    return i < this.length ? (this.data[i] as number) : this.fill;
  }

  clear(): void {
    this.length = 0;
  }

  /** Drop the storage (reads as `fill` afterwards). */
  release(): void {
    this.data = new Float64Array(0);
    this.length = 0;
  }

  private grow(min: number): void {
    const cap = grownCapacity(this.data.length, this.growth, min, this.slotRoom);
    // Only the values are copied: the room beyond them is filled as it is used.
    const next = new Float64Array(cap);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

export class GrowableInt32 {
  data: Int32Array;
  length = 0;

  /** growth: the factor capacity grows by (see GROW_FAST); slotRoom: the slots it is expected to need. */
  constructor(capacity = 16, private readonly growth = 2, private readonly slotRoom?: SlotRoom) {
    this.data = new Int32Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }

  /** Room for n more values (growing by doubling): write them to `data` from `length` on, then set `length`. */
  room(n: number): Int32Array {
    if (this.length + n > this.data.length) this.grow(this.length + n);
    return this.data;
  }

  /** Push the first n values of `from`. */
  append(from: Int32Array, n: number): void {
    const at = this.length;
    if (at + n > this.data.length) this.grow(at + n);
    const data = this.data;
    if (n < SMALL_COPY) {
      // A few records (a named instance's, between two I lines): a loop, without a view of `from`.
      for (let i = 0; i < n; i++) data[at + i] = from[i] as number;
    } else {
      // One copy (memcpy) rather than an element loop: ~3× faster for the parser's 4 096-record batches.
      data.set(n === from.length ? from : from.subarray(0, n), at);
    }
    this.length = at + n;
  }

  /** Room for `n` values without growing again. */
  reserve(n: number): void {
    if (n <= this.data.length) return;
    const next = new Int32Array(n);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }

  /** Use `room` (zeroed, longer than `data`) as the storage from now on: the values are copied into it. */
  moveTo(room: Int32Array): void {
    room.set(this.data.subarray(0, this.length));
    this.data = room;
  }

  /** Push `value` n times. */
  repeat(value: number, n: number): void {
    const at = this.length;
    if (at + n > this.data.length) this.grow(at + n);
    const data = this.data;
    if (n < SMALL_COPY) for (let i = at; i < at + n; i++) data[i] = value;
    else data.fill(value, at, at + n);
    this.length = at + n;
  }

  clear(): void {
    this.length = 0;
  }

  private grow(min: number): void {
    const cap = grownCapacity(this.data.length, this.growth, min, this.slotRoom);
    const next = new Int32Array(cap);
    next.set(this.data);
    this.data = next;
  }
}

/** The next capacity for at least `min` values: `growth` times the present one, or the room expected when larger. */
function grownCapacity(capacity: number, growth: number, min: number, room: SlotRoom | undefined): number {
  let cap = Math.max(16, capacity * growth);
  while (cap < min) cap *= growth;
  return Math.max(cap, room?.expected ?? 0);
}

/**
 * Where arrays that may cross to another thread are made: SharedArrayBuffer
 * in a worker (see FeatureCollector's exportMemory), ArrayBuffer elsewhere.
 */
export type ExportMemory = typeof ArrayBuffer | typeof SharedArrayBuffer;

/** n zeros in new memory of that kind. */
export function float64sIn(memory: ExportMemory, n: number): Float64Array {
  return new Float64Array(new memory(n * Float64Array.BYTES_PER_ELEMENT));
}

/** n zeros in new memory of that kind. */
export function int32sIn(memory: ExportMemory, n: number): Int32Array {
  return new Int32Array(new memory(n * Int32Array.BYTES_PER_ELEMENT));
}

/** A copy of the first n values of `a`, in new memory of that kind. */
export function prefixIn<A extends Int32Array | Float64Array>(memory: ExportMemory, a: A, n: number): A {
  const out = (a instanceof Int32Array ? int32sIn(memory, n) : float64sIn(memory, n)) as A;
  out.set(a.subarray(0, n));
  return out;
}

/**
 * Free the memory of `buffers` now, not at the next full garbage collection,
 * which a heap of long-lived objects may put off past the memory's peak:
 * every view of them is left empty (detached). Node 20 has no
 * ArrayBuffer.prototype.transfer; moved into a clone that nothing keeps,
 * they are freed as it is dropped. (A class's held records once grouped
 * into another order: a million requests with ids not in order, `-j2`, peak
 * RSS ~1 120 → ~910 MB.) Shared, detached and empty buffers are left alone.
 */
export function freeNow(buffers: Iterable<ArrayBufferLike>): void {
  const own = [...new Set(buffers)].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer && b.byteLength > 0);
  if (own.length > 0) structuredClone(null, { transfer: own });
}
