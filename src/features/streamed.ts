import type { RecordEnds } from '../parse/files.js';
import { GrowableInt32 } from '../memory/growable.js';
import { midpoint } from '../stats/median.js';

const QUARTERS = [0.25, 0.5, 0.75] as const;

/**
 * One run's records summarized as they are read, for a large file that is
 * one instance: the numbers FeatureCollector.summarize computes from the
 * records held (SPEC §2), with memory for the event times only (their
 * medians), not 24 bytes and more for every record. A run of 600 MB held
 * ~43 bytes a record, 0.9 GB, and a page fault for every 4 KB of it.
 *
 * It needs what summarize would find first: the records in time order
 * (summarize sorts them: here a window of the latest records read is kept in
 * time order, so a record may come somewhat after later ones, as in a log
 * several threads write), and the instance's first and last times, for
 * `q*.rel` at q × D (the earliest record of the file's head and the latest of
 * its tail: sniff.ts), and Dref for `q*.abs`. Anything else breaks it
 * (`broken`: a record earlier than one already taken from the window, an `I`
 * record, ends other than foretold, a sum that overflows, for which the mean
 * needs every value), and the file is read again with its records held
 * (RereadFile). Every comparison and sum is the one summarize makes, in the
 * same order, so the features are the same numbers.
 */
export class StreamedInstance {
  /** No feature can be taken from what was read (see the class comment): the file is read again. */
  broken = false;
  records = 0;
  t0 = Number.NaN;
  /** The last record taken's time (records are taken from the window in time order). */
  private lastTime = Number.NEGATIVE_INFINITY;
  /**
   * Records read and not yet taken, in time order (a ring: `windowed` of them from `from`): a record may come up
   * to half a window after records later than it (a log written by several threads), and is taken in its place.
   * Whether any did.
   */
  private readonly windowCode = new Int32Array(WINDOW);
  private readonly windowTime = new Float64Array(WINDOW);
  private readonly windowValue = new Float64Array(WINDOW);
  private from = 0;
  private windowed = 0;
  private taken = 0;
  unordered = false;
  /**
   * The times q × D (q*.rel, st's places 6–8) and q × Dref (q*.abs, places 9–11), for q = ¼, ½, ¾, in time order
   * (but for NaN ones: no value is taken there), and how many of them the records taken have passed: a state's value
   * at one is the one it had when the first record after it came (`passed`), or at the end (`complete`).
   */
  private readonly ats: readonly ValueTime[];
  private passedAts = 0;
  private nextAt: number;
  /** Variables in order of first appearance (an event's number, or −1 − a state's), as summarize's buckets. */
  readonly touched = new GrowableInt32();
  /** The first event's variable (−1: none); the previous event's time and its place in `ev`, a log line's and a span's. */
  entry = -1;
  private previousEvent = Number.NaN;
  private previousAt = -1;
  private previousSpan = Number.NaN;
  private previousSpanAt = -1;
  /**
   * Per event variable, 1 for a span's (summarize's spanOf; null: none is), with room for every variable of the
   * records given: set by the collector before each `add` and `complete`.
   */
  spanOf: Uint8Array | null = null;
  /** Per event variable, EV_STRIDE numbers: count, first and last time, longest gap before and after (−∞: none), wait. */
  private ev: Float64Array = new Float64Array(0);
  private evTimes: MedianTail[] = [];
  /**
   * Per state variable, ST_STRIDE numbers: count, min, max, sum, final; the first value of the run of zeros the
   * last value ends (valueAtRecords' look back); the values at the six times (at0 … at5).
   */
  private st: Float64Array = new Float64Array(0);

  /**
   * `referenceDuration`: Dref, or NaN where q*.abs are left to a second pass (no value is then taken at q × Dref).
   * `pool`: blocks for the event times, given back by the tails and taken again (see MedianTail).
   */
  constructor(readonly ends: RecordEnds, referenceDuration: number, private readonly pool: Float64Array[] = []) {
    const duration = ends.last - ends.first;
    const ats = [...QUARTERS.map((q, k) => ({ at: q * duration, place: 6 + k })), ...QUARTERS.map((q, k) => ({ at: q * referenceDuration, place: 9 + k }))];
    // (Stable: equal times keep q*.rel before q*.abs; either order gives the same values.)
    this.ats = ats.filter((a) => !Number.isNaN(a.at)).sort((a, b) => a.at - b.at);
    this.nextAt = this.ats[0]?.at ?? Number.POSITIVE_INFINITY;
  }

  /** The first n records of the arrays, in the order read. */
  add(code: Int32Array, t: Float64Array, v: Float64Array, n: number): void {
    for (let i = 0; i < n && !this.broken;) {
      if (this.windowed === WINDOW) this.take(WINDOW / 2);
      const e = Math.min(n, i + WINDOW - this.windowed);
      if (this.inOrderAfterWindow(t, i, e)) this.append(code, t, v, i, e);
      else this.insert(code, t, v, i, e);
      i = e;
    }
    if (!this.broken) this.records += n;
  }

  /**
   * Whether records [i, e) are in time order, none earlier than the window's last (or, the window empty, than the
   * last taken): then they go to the window's end as they are (most batches of most runs).
   */
  private inOrderAfterWindow(t: Float64Array, i: number, e: number): boolean {
    const w = this.windowed;
    let previous = w > 0 ? (this.windowTime[(this.from + w - 1) & WINDOW_MASK] as number) : this.lastTime;
    for (let j = i; j < e; j++) {
      const time = t[j] as number;
      if (!(time >= previous)) return false;
      previous = time;
    }
    return true;
  }

  /**
   * Records [i, e), in time order and none earlier than the window's, copied to its end (e − i fit). The free
   * places are in one piece: the window is taken from in halves, so `from` is 0 (free: from `windowed` to the end)
   * or half the window, and then at least half of it is held (free: from `windowed` − half to `from`). (Were it
   * otherwise, `set` would throw, not write past.)
   */
  private append(code: Int32Array, t: Float64Array, v: Float64Array, i: number, e: number): void {
    const p = (this.from + this.windowed) & WINDOW_MASK;
    this.windowCode.set(code.subarray(i, e), p);
    this.windowTime.set(t.subarray(i, e), p);
    this.windowValue.set(v.subarray(i, e), p);
    this.windowed += e - i;
  }

  /** Records [i, e) one by one into the window (e − i fit), each in its place in time order. */
  private insert(code: Int32Array, t: Float64Array, v: Float64Array, i: number, e: number): void {
    const wc = this.windowCode;
    const wt = this.windowTime;
    const wv = this.windowValue;
    const from = this.from;
    const lastTime = this.lastTime;
    let w = this.windowed;
    for (let j = i; j < e; j++) {
      const time = t[j] as number;
      // (NaN too: summarize's order check stops there.) Earlier than a record taken already: its place is gone.
      if (!(time >= lastTime)) {
        this.broken = true;
        break;
      }
      // Into the window (a ring from `from`) in time order, after the records of the same time (a stable sort's
      // order, as timeOrder's).
      let p = (from + w) & WINDOW_MASK;
      let q = (p - 1) & WINDOW_MASK;
      if (w > 0 && (wt[q] as number) > time) {
        this.unordered = true;
        let left = w;
        do {
          wc[p] = wc[q] as number;
          wt[p] = wt[q] as number;
          wv[p] = wv[q] as number;
          p = q;
          q = (q - 1) & WINDOW_MASK;
        } while (--left > 0 && (wt[q] as number) > time);
      }
      wc[p] = code[j] as number;
      wt[p] = time;
      wv[p] = v[j] as number;
      w++;
    }
    this.windowed = w;
  }

  /** The window's first m records (the earliest) summarized and let go. */
  private take(m: number): void {
    const wc = this.windowCode;
    const wt = this.windowTime;
    const wv = this.windowValue;
    const from = this.from;
    if (this.taken === 0 && m > 0) this.t0 = wt[from] as number;
    const t0 = this.t0;
    const spanOf = this.spanOf;
    let previousEvent = this.previousEvent;
    let previousAt = this.previousAt;
    let previousSpan = this.previousSpan;
    let previousSpanAt = this.previousSpanAt;
    let ev = this.ev;
    let st = this.st;
    let nextAt = this.nextAt;
    for (let j = 0; j < m; j++) {
      const i = (from + j) & WINDOW_MASK;
      const tn = (wt[i] as number) - t0;
      const c = wc[i] as number;
      if (c >= 0) {
        const k = c * EV_STRIDE;
        if (k >= ev.length) ev = this.ev = grown(ev, k + EV_STRIDE, EV_STRIDE, EV_START);
        if ((ev[k] as number) === 0) this.firstEvent(c, tn);
        ev[k] = (ev[k] as number) + 1;
        ev[k + 2] = tn;
        (this.evTimes[c] as MedianTail).push(tn, this.pool);
        // scatterRecords' gap, gap.after and wait, in the same order, from the previous event of its own source.
        const fromSpan = spanOf !== null && spanOf[c] === 1;
        const previous = fromSpan ? previousSpan : previousEvent;
        if (!Number.isNaN(previous)) {
          const gap = tn - previous;
          const before = fromSpan ? previousSpanAt : previousAt;
          // (−∞ for none yet, below every gap: summarize's NaN, told apart from a gap by `gap > ` alone.)
          if (gap > (ev[k + 3] as number)) ev[k + 3] = gap;
          if (gap > (ev[before + 4] as number)) ev[before + 4] = gap;
          ev[k + 5] = (ev[k + 5] as number) + gap;
        }
        if (fromSpan) {
          previousSpan = tn;
          previousSpanAt = k;
        } else {
          previousEvent = tn;
          previousAt = k;
        }
        continue;
      }
      const x = wv[i] as number;
      const k = (-1 - c) * ST_STRIDE;
      if (tn > nextAt) nextAt = this.passed(tn);
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
    }
    if (m > 0) this.lastTime = wt[(from + m - 1) & WINDOW_MASK] as number;
    this.previousEvent = previousEvent;
    this.previousAt = previousAt;
    this.previousSpan = previousSpan;
    this.previousSpanAt = previousSpanAt;
    this.taken += m;
    this.from = (from + m) & WINDOW_MASK;
    this.windowed -= m;
  }

  /**
   * A state record at tn comes after the next of the times `ats`: every state's value there is the one it has
   * now (summarize's valueAtRecords: the last value at or before it, for q*.abs the first of the run of zeros
   * that value ends; a state not yet seen keeps its first value, set when it comes). Returns the next time.
   */
  private passed(tn: number): number {
    let next = this.ats[this.passedAts];
    for (; next !== undefined && tn > next.at; next = this.ats[++this.passedAts]) this.valuesAt(next.place);
    return (this.nextAt = next?.at ?? Number.POSITIVE_INFINITY);
  }

  /** Every state's value now into its `place` in st (6–8: its last value; 9–11: the first of its last run of zeros). */
  private valuesAt(place: number): void {
    const st = this.st;
    const from = place < 9 ? 4 : 5;
    const touched = this.touched;
    for (let j = 0; j < touched.length; j++) {
      const c = touched.data[j] as number;
      if (c >= 0) continue;
      const k = (-1 - c) * ST_STRIDE;
      st[k + place] = st[k + from] as number;
    }
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
   * Once the file is read: the window's last records taken, whether the
   * features can be taken (read whole, in time order, from the first time to
   * the last foretold, every state's sum finite). Otherwise the file is read
   * again with its records held.
   */
  complete(): boolean {
    if (!this.broken) this.take(this.windowed);
    // The times not passed are at or after the last record: every state's last values.
    for (let next = this.ats[this.passedAts]; next !== undefined; next = this.ats[++this.passedAts]) this.valuesAt(next.place);
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
    out[4] = orNaN(ev[k + 3] as number);
    out[5] = orNaN(ev[k + 4] as number);
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

/**
 * Records a StreamedInstance's window holds (20 bytes each): a record may come up to half of it after later ones
 * (8 192: 160 KB. Records put in one by one, larger windows cost more time for ordered runs: 4 runs in 2 GB,
 * parse +5 % at 2 048, +9 % at 8 192 and 16 384, against taking each record as it comes; a batch in order is
 * copied whole now, `append`.)
 */
const WINDOW = 1 << 13;
const WINDOW_MASK = WINDOW - 1;

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
  /** Blocks given back from the front of `blocks` (their slots left EMPTY). */
  private head = 0;
  /** The last block, and its places not yet written. */
  private current: Float64Array = EMPTY;
  private room = 0;

  push(x: number, pool: Float64Array[]): void {
    if (this.room === 0) this.nextBlock(pool);
    this.current[BLOCK - this.room--] = x;
  }

  /** The times pushed. */
  private get count(): number {
    return this.blocks.length * BLOCK - this.room;
  }

  /**
   * A block for the next times, before one is pushed; the blocks before the lowest place the median may read
   * go back to the pool first. With n times medianOfSorted reads ⌊n/2⌋ − 1 (n even) or ⌊n/2⌋ (odd), so with
   * n ≥ count + 1 (count even: a whole number of blocks), no place below count / 2. (Checked only here: a block
   * goes back at most a block's times late.)
   */
  private nextBlock(pool: Float64Array[]): void {
    while (this.count >> 1 >= (this.head + 1) << BLOCK_BITS) {
      pool.push(this.blocks[this.head] as Float64Array);
      this.blocks[this.head++] = EMPTY;
    }
    this.current = pool.pop() ?? new Float64Array(BLOCK);
    this.blocks.push(this.current);
    this.room = BLOCK;
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
    this.current = EMPTY;
    this.room = 0;
  }

  private at(i: number): number {
    return (this.blocks[i >> BLOCK_BITS] as Float64Array)[i & (BLOCK - 1)] as number;
  }
}
const EMPTY = new Float64Array(0);

/** A time at which every state's value is taken (q × D or q × Dref), and its place in StreamedInstance.st. */
interface ValueTime {
  readonly at: number;
  readonly place: number;
}

/** Numbers per event and per state variable (see StreamedInstance.ev, st), and a variable's before its first record. */
const EV_STRIDE = 6;
const EV_START = [0, 0, 0, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY, 0];

/** A longest gap: −∞ (none: the start above) as summarize has it, NaN. */
const orNaN = (gap: number): number => (gap === Number.NEGATIVE_INFINITY ? Number.NaN : gap);
const ST_STRIDE = 12;
const ST_START = [0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/** `a` grown to hold at least n numbers (variables of `stride` numbers), the new ones set to `start`. */
function grown(a: Float64Array, n: number, stride: number, start: readonly number[]): Float64Array {
  const b = new Float64Array(Math.max(16 * stride, 2 * n));
  b.set(a);
  for (let k = a.length; k < b.length; k++) b[k] = start[k % stride] as number;
  return b;
}
