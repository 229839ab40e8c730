/**
 * A Float64Array that grows by doubling; unset slots read as `fill`. With
 * fill 0 (buffers only read below their length) growing skips the fill pass:
 * a new typed array is zero already.
 */
/**
 * A growth factor for zero-filled buffers that may reach millions of values
 * (held records): 4 copies a third as much as doubling on the way there, and
 * the room not yet written costs no memory (a large zeroed allocation is
 * mapped page by page as it is first written).
 */
export const GROW_FAST = 4;

export class GrowableFloat64 {
  data: Float64Array;
  length = 0;
  private readonly zeroFill: boolean;

  /** growth: the factor capacity grows by (see GROW_FAST). */
  constructor(capacity = 16, readonly fill = Number.NaN, private readonly growth = 2) {
    this.zeroFill = Object.is(fill, 0);
    this.data = new Float64Array(capacity);
    if (!this.zeroFill) this.data.fill(fill);
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }

  set(i: number, v: number): void {
    if (i >= this.data.length) this.grow(i + 1);
    this.data[i] = v;
    if (i >= this.length) this.length = i + 1;
  }

  /** Room for n more values (growing by doubling): write them to `data` from `length` on, then set `length`. */
  room(n: number): Float64Array {
    if (this.length + n > this.data.length) this.grow(this.length + n);
    return this.data;
  }

  /** Push the first n values of `from`. */
  append(from: Float64Array, n: number): void {
    const at = this.length;
    if (at + n > this.data.length) this.grow(at + n);
    const data = this.data;
    for (let i = 0; i < n; i++) data[at + i] = from[i] as number;
    this.length = at + n;
  }

  /** Room for `n` values without growing again (one copy now instead of doublings later). */
  reserve(n: number): void {
    if (n <= this.data.length) return;
    const next = new Float64Array(n);
    next.set(this.data);
    if (!this.zeroFill) next.fill(this.fill, this.data.length);
    this.data = next;
  }

  /** A copy of the first n values (unset ones = fill). */
  toArray(n = this.length): Float64Array {
    const out = new Float64Array(n).fill(this.fill);
    out.set(this.data.subarray(0, Math.min(n, this.data.length)));
    return out;
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
    let cap = Math.max(16, this.data.length * this.growth);
    while (cap < min) cap *= this.growth;
    // Only the new part is filled: the old part is copied over it.
    const next = new Float64Array(cap);
    next.set(this.data);
    if (!this.zeroFill) next.fill(this.fill, this.data.length);
    this.data = next;
  }
}

export class GrowableInt32 {
  data: Int32Array;
  length = 0;

  /** growth: the factor capacity grows by (see GROW_FAST). */
  constructor(capacity = 16, private readonly growth = 2) {
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
    for (let i = 0; i < n; i++) data[at + i] = from[i] as number;
    this.length = at + n;
  }

  /** Push `value` n times. */
  repeat(value: number, n: number): void {
    const at = this.length;
    if (at + n > this.data.length) this.grow(at + n);
    this.data.fill(value, at, at + n);
    this.length = at + n;
  }

  clear(): void {
    this.length = 0;
  }

  private grow(min: number): void {
    let cap = Math.max(16, this.data.length * this.growth);
    while (cap < min) cap *= this.growth;
    const next = new Int32Array(cap);
    next.set(this.data);
    this.data = next;
  }
}
