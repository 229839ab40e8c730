/**
 * The loops of FeatureColumns.summarize over one instance's records: time
 * order, buckets by variable, gaps and waits, min/max/sum, change points and
 * the value at a time (SPEC §2). Each long loop is a function of its own
 * (docs/internals.md, "V8: keep what it compiles").
 */

/*
 * summarize's loops over an instance's records, each its own function: summarize runs once per
 * instance over thousands of records, so V8 optimizes it on-stack inside its first loop, before
 * the code after that loop has run, and each later part then deoptimizes it and recompiles the
 * whole method (the dlog set: 5–8 compiles of ~20 ms each per thread). Small loop functions are
 * optimized once each (docs/internals.md, "V8: keep what it compiles").
 */

/** The end of the run of records of inst[i]'s instance that starts at i (inst: held indices, n of them). */
export function runEnd(inst: Int32Array, i: number, n: number): number {
  const h = inst[i];
  let e = i + 1;
  while (e < n && inst[e] === h) e++;
  return e;
}

/** Records per bucket (count) and the buckets in order of first appearance (touched); returns how many. */
export function countBuckets(code: Int32Array, from: number, n: number, order: Int32Array | null, nEvents: number, count: Int32Array, touched: Int32Array): number {
  let nTouched = 0;
  for (let i = 0; i < n; i++) {
    const c = code[order === null ? from + i : (order[i] as number)] as number;
    const b = c >= 0 ? c : nEvents - 1 - c;
    if (count[b]++ === 0) touched[nTouched++] = b;
  }
  return nTouched;
}

/**
 * Records in time order into their buckets' places (bt: time since t0, bv: a state's value), and
 * each event's gap, gap.after and wait (SPEC §2), measured from and to the event records of its own
 * source: `spanOf[e]` 1 for a span's event, 0 for a log line's (null: all are log lines); returns the
 * first event's variable (−1: none).
 */
export function scatterRecords(code: Int32Array, ts: Float64Array, vs: Float64Array, from: number, n: number, order: Int32Array | null, t0: number, nEvents: number,
  fill: Int32Array, bt: Float64Array, bv: Float64Array, gapOf: Float64Array, gapAfterOf: Float64Array, waitOf: Float64Array, spanOf: Uint8Array | null): number {
  // The previous event record of each source: its time since t0 (NaN: none yet) and its variable.
  let previousLog = Number.NaN;
  let previousLogCode = -1;
  let previousSpan = Number.NaN;
  let previousSpanCode = -1;
  let entry = -1;
  for (let i = 0; i < n; i++) {
    const r = order === null ? from + i : (order[i] as number);
    const c = code[r] as number;
    const tn = (ts[r] as number) - t0;
    const b = c >= 0 ? c : nEvents - 1 - c;
    const at = fill[b]++;
    bt[at] = tn;
    if (c >= 0) {
      if (entry < 0) entry = c;
      const fromSpan = spanOf !== null && spanOf[c] === 1;
      const previousEvent = fromSpan ? previousSpan : previousLog;
      // The first event of its source waits 0: waitOf starts at 0 for every event.
      if (!Number.isNaN(previousEvent)) {
        const previousCode = fromSpan ? previousSpanCode : previousLogCode;
        const gap = tn - previousEvent;
        const best = gapOf[c] as number;
        if (Number.isNaN(best) || gap > best) gapOf[c] = gap;
        const after = gapAfterOf[previousCode] as number;
        if (Number.isNaN(after) || gap > after) gapAfterOf[previousCode] = gap;
        waitOf[c] = (waitOf[c] as number) + gap;
      }
      if (fromSpan) {
        previousSpan = tn;
        previousSpanCode = c;
      } else {
        previousLog = tn;
        previousLogCode = c;
      }
    } else {
      bv[at] = vs[r] as number;
    }
  }
  return entry;
}

/** out = [min, max, sum] of values[from, to) (sum in index order). */
export function minMaxSum(values: Float64Array, from: number, to: number, out: Float64Array): void {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (let i = from; i < to; i++) {
    const x = values[i] as number;
    if (x < min) min = x;
    if (x > max) max = x;
    sum += x;
  }
  out[0] = min;
  out[1] = max;
  out[2] = sum;
}

/**
 * A state variable's change points (a value differing from the one before it; the first always)
 * of bt/bv [begin, end), written from w on into the series block; returns the new end.
 */
export function changePoints(bt: Float64Array, bv: Float64Array, begin: number, end: number, v: number, sVar: Int32Array, sT: Float64Array, sV: Float64Array, w: number): number {
  let previous = Number.NaN;
  for (let i = begin; i < end; i++) {
    const x = bv[i] as number;
    if (i > begin && x === previous) continue;
    sVar[w] = v;
    sT[w] = bt[i] as number;
    sV[w] = x;
    w++;
    previous = x;
  }
  return w;
}

/** state-features.ts's valueAt of the series t/v [from, to) (to > from), without views of it. */
export function valueAtIn(t: Float64Array, v: Float64Array, from: number, to: number, x: number): number {
  return v[indexAtIn(t, from, to, x)] as number;
}

/** The index of the last time at or before x in t [from, to) (in time order), or `from` when none is. */
function indexAtIn(t: Float64Array, from: number, to: number, x: number): number {
  let lo = from;
  let hi = to; // first index with t > x
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((t[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo === from ? from : lo - 1;
}

/**
 * valueAtIn over a state variable's records [from, to), giving what it gives
 * over their change points (changePoints): the first record of the run of
 * equal (===) values that holds the last record at or before x. The two
 * differ only where a 0 and a −0 meet (equal, yet not the same number), so
 * only a 0 looks back.
 */
export function valueAtRecords(t: Float64Array, v: Float64Array, from: number, to: number, x: number): number {
  let i = indexAtIn(t, from, to, x);
  const value = v[i] as number;
  if (value !== 0) return value;
  while (i > from && v[i - 1] === 0) i--;
  return v[i] as number;
}

/** stats/sum.ts's finiteMean of values [from, to) whose sum is `sum`: the same arithmetic, on a range. */
export function finiteMeanOf(values: Float64Array, from: number, to: number, sum: number): number {
  const n = to - from;
  if (Number.isFinite(sum)) return sum / n;
  let mean = 0;
  for (let i = from; i < to; i++) mean += (values[i] as number) / n;
  return mean;
}

/**
 * The first index in (from, to) whose time is before the one before it; `to`
 * when there is none. A function of its own: V8 compiles a long-running loop
 * while it runs (on-stack replacement), and when that loop was timeOrder's
 * first, the code went on into the sort, which had never run, and stopped
 * there — for every instance not in order, each time entering the same
 * compiled loop again and sorting in the interpreter (a worker on the dlog
 * set: 61 stops a run; docs/internals.md, "V8: keep what it compiles").
 */
function inTimeOrderFrom(ts: Float64Array, from: number, to: number): number {
  let i = from + 1;
  while (i < to && (ts[i] as number) >= (ts[i - 1] as number)) i++;
  return i;
}

/**
 * null when [from, to) is already in time order (an O(n) check); otherwise a
 * stable time order of its indices, in scratch memory valid until the next call:
 * a natural merge sort (runs already in order are merged pairwise, left first on
 * ties, so equal times keep input order as the comparator sort by (t, index) did).
 */
export function timeOrder(ts: Float64Array, from: number, to: number, sc: SummaryScratch): Int32Array | null {
  if (inTimeOrderFrom(ts, from, to) >= to) return null;
  const n = to - from;
  sc.orders(n);
  let a = sc.order;
  let b = sc.orderTmp;
  const runs = sc.runs;
  let r = 0;
  runs[r++] = 0;
  a[0] = from;
  for (let k = 1; k < n; k++) {
    a[k] = from + k;
    if ((ts[from + k] as number) < (ts[from + k - 1] as number)) runs[r++] = k;
  }
  runs[r] = n;
  while (r > 1) {
    let w = 0;
    for (let p = 0; p < r; p += 2) {
      const lo = runs[p] as number;
      const mid = runs[p + 1] as number;
      const hi = p + 2 <= r ? (runs[p + 2] as number) : mid;
      let x = lo;
      let y = mid;
      let o = lo;
      while (x < mid && y < hi) {
        const ax = a[x] as number;
        const ay = a[y] as number;
        if ((ts[ay] as number) < (ts[ax] as number)) {
          b[o++] = ay;
          y++;
        } else {
          b[o++] = ax;
          x++;
        }
      }
      while (x < mid) b[o++] = a[x++] as number;
      while (y < hi) b[o++] = a[y++] as number;
      runs[w++] = lo;
    }
    runs[w] = n;
    r = w;
    const swap = a;
    a = b;
    b = swap;
  }
  return a;
}

/** Buffers reused by every `summarize` call (grown, never shrunk). */
export class SummaryScratch {
  /** Per bucket (event e, then state E + v): records so far; 0 between calls. */
  count = new Int32Array(0);
  fill = new Int32Array(0);
  touched = new Int32Array(0);
  /** Per event variable: largest gap before / after it (NaN = none), sum of waits (0 between calls). */
  gap = new Float64Array(0);
  gapAfter = new Float64Array(0);
  wait = new Float64Array(0);
  private bt = new Float64Array(0);
  values = new Float64Array(0);
  order = new Int32Array(0);
  orderTmp = new Int32Array(0);
  runs = new Int32Array(0);
  /** minMaxSum's answer: min, max, sum. */
  readonly minMaxSum = new Float64Array(3);
  /** One record given by name, for a StreamedInstance. */
  readonly one = { code: new Int32Array(1), t: new Float64Array(1), v: new Float64Array(1) };
  /** Blocks of a StreamedInstance's event times, from one file to the next. */
  readonly timeBlocks: Float64Array[] = [];
  /** A streamed instance's features of one variable (StreamedInstance.eventFeatures, stateFeatures). */
  readonly streamedFeatures = new Float64Array(11);

  buckets(k: number): void {
    if (this.count.length >= k) return;
    const cap = Math.max(16, k * 2);
    this.count = new Int32Array(cap);
    this.fill = new Int32Array(cap);
    this.touched = new Int32Array(cap);
    this.gap = new Float64Array(cap).fill(Number.NaN);
    this.gapAfter = new Float64Array(cap).fill(Number.NaN);
    this.wait = new Float64Array(cap);
  }

  /** Times (and state values) of n records, grouped by bucket. */
  times(n: number): Float64Array {
    if (this.bt.length < n) {
      const cap = Math.max(1024, n * 2);
      this.bt = new Float64Array(cap);
      this.values = new Float64Array(cap);
    }
    return this.bt;
  }

  orders(n: number): void {
    if (this.order.length >= n + 1) return;
    const cap = Math.max(1024, n * 2);
    this.order = new Int32Array(cap);
    this.orderTmp = new Int32Array(cap);
    this.runs = new Int32Array(cap + 1);
  }
}
