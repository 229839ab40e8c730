import type { RecordEnds } from '../parse/files.js';
import { GrowableInt32 } from './growable.js';
import { midpoint } from './stats.js';

const QUARTERS = [0.25, 0.5, 0.75] as const;

/**
 * One run's records summarized as they are read, for a large file that is
 * one instance: the numbers FeatureCollector.summarize computes from the
 * records held (SPEC §2), with memory for the event times only (their
 * medians), not 24 bytes and more for every record. A run of 600 MB held
 * ~43 bytes a record, 0.9 GB, and a page fault for every 4 KB of it.
 *
 * It needs what summarize would find first: the records in time order (it
 * sorts them otherwise), and the instance's last time, for `q*.rel` at q × D
 * (the file's last record, read from its tail: sniff.ts), and Dref for
 * `q*.abs`. Anything else breaks it (`broken`: a record earlier than the one
 * before, an `I` record, ends other than foretold, a sum that overflows, for
 * which the mean needs every value), and the file is read again with its
 * records held (RereadFile). Every comparison and sum is the one summarize
 * makes, in the same order, so the features are the same numbers.
 */
export class StreamedInstance {
  /** No feature can be taken from what was read (see the class comment): the file is read again. */
  broken = false;
  records = 0;
  t0 = Number.NaN;
  private lastTime = Number.NEGATIVE_INFINITY;
  /** The times q × D (q*.rel), then q × Dref (q*.abs), for q = ¼, ½, ¾. */
  private readonly at0: number;
  private readonly at1: number;
  private readonly at2: number;
  private readonly at3: number;
  private readonly at4: number;
  private readonly at5: number;
  /** Variables in order of first appearance (an event's number, or −1 − a state's), as summarize's buckets. */
  readonly touched = new GrowableInt32();
  /** The first event's variable (−1: none); the previous event's time and its place in `ev`. */
  entry = -1;
  private previousEvent = Number.NaN;
  private previousAt = -1;
  /** Per event variable, EV_STRIDE numbers: count, first and last time, longest gap before and after (NaN: none), wait. */
  private ev: Float64Array = new Float64Array(0);
  private evTimes: MedianTail[] = [];
  /**
   * Per state variable, ST_STRIDE numbers: count, min, max, sum, final; the first value of the run of zeros the
   * last value ends (valueAtRecords' look back); the values at the six times (at0 … at5).
   */
  private st: Float64Array = new Float64Array(0);

  /** `pool`: blocks for the event times, given back by the tails and taken again (see MedianTail). */
  constructor(readonly ends: RecordEnds, referenceDuration: number, private readonly pool: Float64Array[] = []) {
    const duration = ends.last - ends.first;
    this.at0 = QUARTERS[0] * duration;
    this.at1 = QUARTERS[1] * duration;
    this.at2 = QUARTERS[2] * duration;
    this.at3 = QUARTERS[0] * referenceDuration;
    this.at4 = QUARTERS[1] * referenceDuration;
    this.at5 = QUARTERS[2] * referenceDuration;
  }

  /** The first n records of the arrays, in the order read. */
  add(code: Int32Array, t: Float64Array, v: Float64Array, n: number): void {
    if (this.broken) return;
    if (this.records === 0 && n > 0) this.t0 = t[0] as number;
    const t0 = this.t0;
    let lastTime = this.lastTime;
    let previousEvent = this.previousEvent;
    let previousAt = this.previousAt;
    let ev = this.ev;
    let st = this.st;
    const { at0, at1, at2, at3, at4, at5 } = this;
    for (let i = 0; i < n; i++) {
      const time = t[i] as number;
      // (NaN too: summarize's order check stops there.)
      if (!(time >= lastTime)) {
        this.broken = true;
        return;
      }
      lastTime = time;
      const tn = time - t0;
      const c = code[i] as number;
      if (c >= 0) {
        const k = c * EV_STRIDE;
        if (k >= ev.length) ev = this.ev = grown(ev, k + EV_STRIDE, EV_STRIDE, EV_START);
        if ((ev[k] as number) === 0) this.firstEvent(c, tn);
        ev[k] = (ev[k] as number) + 1;
        ev[k + 2] = tn;
        (this.evTimes[c] as MedianTail).push(tn, this.pool);
        // scatterRecords' gap, gap.after and wait, in the same order.
        if (!Number.isNaN(previousEvent)) {
          const gap = tn - previousEvent;
          const best = ev[k + 3] as number;
          if (Number.isNaN(best) || gap > best) ev[k + 3] = gap;
          const after = ev[previousAt + 4] as number;
          if (Number.isNaN(after) || gap > after) ev[previousAt + 4] = gap;
          ev[k + 5] = (ev[k + 5] as number) + gap;
        }
        previousEvent = tn;
        previousAt = k;
        continue;
      }
      const x = v[i] as number;
      const k = (-1 - c) * ST_STRIDE;
      if (k >= st.length) st = this.st = grown(st, k + ST_STRIDE, ST_STRIDE, ST_START);
      if ((st[k] as number) === 0) {
        this.touched.push(c);
        // Every value at a time before the first record's is the first value.
        st[k + 5] = x;
        for (let q = 6; q < ST_STRIDE; q++) st[k + q] = x;
      } else if (x !== 0 || (st[k + 4] as number) !== 0) {
        st[k + 5] = x;
      }
      st[k] = (st[k] as number) + 1;
      // minMaxSum's comparisons and sum.
      if (x < (st[k + 1] as number)) st[k + 1] = x;
      if (x > (st[k + 2] as number)) st[k + 2] = x;
      st[k + 3] = (st[k + 3] as number) + x;
      st[k + 4] = x;
      if (tn <= at0) st[k + 6] = x;
      if (tn <= at1) st[k + 7] = x;
      if (tn <= at2) st[k + 8] = x;
      const first = st[k + 5] as number;
      if (tn <= at3) st[k + 9] = first;
      if (tn <= at4) st[k + 10] = first;
      if (tn <= at5) st[k + 11] = first;
    }
    this.lastTime = lastTime;
    this.previousEvent = previousEvent;
    this.previousAt = previousAt;
    this.records += n;
  }

  /** An `I` record: the file is not one instance. */
  named(): void {
    this.broken = true;
  }

  /** Event variable e occurs for the first time, at tn. */
  private firstEvent(e: number, tn: number): void {
    this.touched.push(e);
    this.ev[e * EV_STRIDE + 1] = tn;
    this.evTimes[e] = new MedianTail();
    if (this.entry < 0) this.entry = e;
  }

  /**
   * Whether the features can be taken: read whole, in time order, from the
   * first time to the last foretold, every state's sum finite. Otherwise the
   * file is read again with its records held.
   */
  complete(): boolean {
    if (this.broken || this.records === 0 || !Object.is(this.t0, this.ends.first) || !Object.is(this.lastTime, this.ends.last)) return false;
    const touched = this.touched;
    for (let k = 0; k < touched.length; k++) {
      const c = touched.data[k] as number;
      if (c < 0 && !Number.isFinite(this.st[(-1 - c) * ST_STRIDE + 3] as number)) return false;
    }
    return true;
  }

  /** Its duration D: the last time − the first. */
  get duration(): number {
    return this.lastTime - this.t0;
  }

  /** Event variable e: [first, median, last time, count, gap, gap.after, wait] into `out`. */
  eventFeatures(e: number, out: Float64Array): void {
    const ev = this.ev;
    const k = e * EV_STRIDE;
    out[0] = ev[k + 1] as number;
    out[1] = (this.evTimes[e] as MedianTail).median();
    out[2] = ev[k + 2] as number;
    out[3] = ev[k] as number;
    out[4] = ev[k + 3] as number;
    out[5] = ev[k + 4] as number;
    out[6] = ev[k + 5] as number;
  }

  /** State variable s: [min, sum, max, final, its records, then its values at q × D and at q × Dref] into `out`. */
  stateFeatures(s: number, out: Float64Array): void {
    const st = this.st;
    const k = s * ST_STRIDE;
    out[0] = st[k + 1] as number;
    out[1] = st[k + 3] as number;
    out[2] = st[k + 2] as number;
    out[3] = st[k + 4] as number;
    out[4] = st[k] as number;
    for (let q = 0; q < 6; q++) out[5 + q] = st[k + 6 + q] as number;
  }

  /** Its event times' blocks back to the pool (it is done with them). */
  release(): void {
    for (const tail of this.evTimes) tail?.release(this.pool);
    this.evTimes = [];
  }
}

/** Event times per block of a MedianTail (32 KB). */
const BLOCK_BITS = 12;
const BLOCK = 1 << BLOCK_BITS;

/**
 * One event variable's times, in time order, from the place of their median
 * on: with n times, medianOfSorted reads the ones at ⌊n/2⌋ − 1 and ⌊n/2⌋ at
 * most, and that place only moves on as times come, so the blocks before it
 * go back to the pool (half the times are held, in blocks taken again, not
 * fresh memory written for the first time: a page fault each 4 KB).
 */
class MedianTail {
  private readonly blocks: Float64Array[] = [];
  /** Blocks given back from the front of `blocks` (their slots left undefined). */
  private head = 0;
  private count = 0;

  push(x: number, pool: Float64Array[]): void {
    const i = this.count++;
    const k = i >> BLOCK_BITS;
    if (k === this.blocks.length) this.blocks.push(pool.pop() ?? new Float64Array(BLOCK));
    (this.blocks[k] as Float64Array)[i & (BLOCK - 1)] = x;
    // The lowest place the median may read, past the first block held: that block goes back.
    if ((this.count >> 1) - 1 >= (this.head + 1) << BLOCK_BITS) {
      pool.push(this.blocks[this.head] as Float64Array);
      this.blocks[this.head++] = EMPTY;
    }
  }

  /** medianOfSorted of the times. */
  median(): number {
    const n = this.count;
    const mid = n >> 1;
    return n % 2 === 1 ? this.at(mid) : midpoint(this.at(mid - 1), this.at(mid));
  }

  release(pool: Float64Array[]): void {
    for (let k = this.head; k < this.blocks.length; k++) pool.push(this.blocks[k] as Float64Array);
    this.blocks.length = 0;
  }

  private at(i: number): number {
    return (this.blocks[i >> BLOCK_BITS] as Float64Array)[i & (BLOCK - 1)] as number;
  }
}
const EMPTY = new Float64Array(0);

/** Numbers per event and per state variable (see StreamedInstance.ev, st), and a variable's before its first record. */
const EV_STRIDE = 6;
const EV_START = [0, 0, 0, Number.NaN, Number.NaN, 0];
const ST_STRIDE = 12;
const ST_START = [0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/** `a` grown to hold at least n numbers (variables of `stride` numbers), the new ones set to `start`. */
function grown(a: Float64Array, n: number, stride: number, start: readonly number[]): Float64Array {
  const b = new Float64Array(Math.max(16 * stride, 2 * n));
  b.set(a);
  for (let k = a.length; k < b.length; k++) b[k] = start[k % stride] as number;
  return b;
}
