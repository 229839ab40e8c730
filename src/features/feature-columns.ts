/**
 * The feature table as it is filled: one growable column per (variable,
 * feature type) and the per-instance slots (id, class, duration, start,
 * kind...), and the summary of one instance's records into them (SPEC §2,
 * Table 2.1; the plain reading of each feature is event-features.ts and
 * state-features.ts, the oracle of this inlined copy in
 * test/table-2-1.test.ts).
 */
import type { ClassName } from '../parse/records.js';
import { GrowableFloat64, GrowableInt32 } from '../memory/growable.js';
import { SlotClasses, SlotKinds } from './slot-labels.js';
import { InputError } from '../errors.js';
import { VariableIndex } from '../memory/variable-index.js';
import { emptyList } from '../memory/lists.js';
import { medianOfSorted } from '../stats/median.js';
import { EVENT_FEATURE_TYPES, STATE_FEATURE_TYPES } from './types.js';
import { EVENT_LEADERS, follow, leadersOf, STATE_LEADERS, unfollow } from './followers.js';
import { StreamedInstance } from './streamed.js';
import type { SharedColumns } from './contribution.js';
import { reserveTogether } from '../memory/placement.js';
import { SeriesStore } from './series-store.js';
import { changePoints, countBuckets, finiteMeanOf, minMaxSum, scatterRecords, SummaryScratch, timeOrder, valueAtIn, valueAtRecords } from './summary-loops.js';

const EV = Object.fromEntries(EVENT_FEATURE_TYPES.map((f, i) => [f, i])) as Record<(typeof EVENT_FEATURE_TYPES)[number], number>;
const ST = Object.fromEntries(STATE_FEATURE_TYPES.map((f, i) => [f, i])) as Record<(typeof STATE_FEATURE_TYPES)[number], number>;
const QUARTERS = [0.25, 0.5, 0.75] as const;
// Feature positions as constants (the summaries' inner loop reads them per instance and variable).
const EV_FIRST_ABS = EV['first.abs'];
const EV_MEDIAN_ABS = EV['median.abs'];
const EV_LAST_ABS = EV['last.abs'];
const EV_FIRST_REL = EV['first.rel'];
const EV_MEDIAN_REL = EV['median.rel'];
const EV_LAST_REL = EV['last.rel'];
const EV_COUNT = EV.count;
const EV_GAP = EV.gap;
const EV_GAP_AFTER = EV['gap.after'];
const EV_WAIT = EV.wait;
const ST_MIN = ST.min;
const ST_MEAN = ST.mean;
const ST_MAX = ST.max;
const ST_FINAL = ST.final;
const ST_Q1_REL = ST['q1.rel'];
const ST_Q1_ABS = ST['q1.abs'];
/** One instance's features computed elsewhere (FeatureCollector.addSummarized): SPEC §2's absolute values. */
export interface SummarizedInstance {
  readonly className: ClassName;
  readonly id: string;
  readonly kind: string | null;
  /** Named by an instance column (as by `I` records): without kinds, its kind is its entry event. */
  readonly named: boolean;
  readonly duration: number;
  readonly start: number;
  readonly records: number;
  /** The event variable of its first event, or −1. */
  readonly entry: number;
  readonly events: readonly { variable: number; first: number; median: number; last: number; count: number; gap: number; gapAfter: number; wait: number }[];
  readonly states: readonly { variable: number; min: number; mean: number; max: number; final: number; rel: readonly [number, number, number]; abs: readonly [number, number, number] }[];
}

/**
 * The feature columns being filled, and one instance summarized into them
 * (summarize: SPEC §2, Table 2.1 plus `gap`, `gap.after`, `wait`). Features
 * land in one growable column per (variable, feature type), indexed by the
 * order instances were summarized; `FeatureSet` construction reorders them.
 */
export abstract class FeatureColumns {
  readonly events = new VariableIndex();
  readonly states = new VariableIndex();
  /** eventColumns[v][f]: feature f (EVENT_FEATURE_TYPES order) of event variable v per instance slot. */
  readonly eventColumns: GrowableFloat64[][] = emptyList();
  readonly stateColumns: GrowableFloat64[][] = emptyList();

  /**
   * The slots every per-slot column is expected to need (SlotRoom): while each file read so far gave one instance,
   * those and one a file still to come (expectFiles); else no guess.
   */
  protected readonly slotRoom = { expected: 0 };
  readonly ids: string[] = emptyList();
  readonly classes = new SlotClasses();
  readonly durations = new GrowableFloat64(16, Number.NaN, 2, this.slotRoom);
  /** Each instance's first timestamp t0, for a second pass over the input (see AbsoluteQuartilePass). */
  readonly starts = new GrowableFloat64(16, Number.NaN, 2, this.slotRoom);
  // Per slot, in typed arrays (absorb takes a part's in one copy each, not a push per slot).
  readonly recordCounts = new GrowableFloat64(16, 0, 2, this.slotRoom);
  /** The kind an instance's `I` record gave it, or null. */
  readonly kinds = new SlotKinds();
  /** The event variable of each instance's first event in time (its entry point), or −1. */
  readonly entryEvents = new GrowableInt32(16, 2, this.slotRoom);
  /** 1 where the instance was named by `I` records (not a whole file), else 0. */
  readonly named = new GrowableInt32(16, 2, this.slotRoom);
  /** Instances whose records were not in time order (accepted: they are sorted). */
  unorderedInstances = 0;
  /** Files that held no record at all. */
  readonly emptyFiles: string[] = [];
  // State change points per instance slot, for q*.abs once Dref is known.
  protected readonly series = new SeriesStore();
  protected scratch = new SummaryScratch();
  /**
   * Per event variable: 1 where it is a span's (RecordSink.eventFromSpans), 0 where a log line's; null while none
   * is a span's. An event's waits end at records of its own source (docs/method.md, "Waits within one source").
   */
  protected spanEvents: { marks: Uint8Array } | null = null;

  protected className: ClassName = 'good';
  /**
   * shareColumns: the slots another thread summarizes into the columns (from
   * `next` on, up to `end`); they must not move until it is done.
   */
  protected sharedInto: { next: number; readonly end: number } | null = null;
  /** useSharedColumns: the columns this collector summarizes into, and how many slots of them it has handed on. */
  protected sharing: { readonly columns: SharedColumns; sent: number } | null = null;
  /** useReferenceDuration: Dref, once known before the instances left are summarized (their q*.abs written then). */
  protected reference: number | null = null;
  /** useReferenceDurationLater: how to get Dref when the first part is handed on. */
  protected referenceLater: (() => number) | null = null;

  /**
   * Grow every column that at least half of the slots so far have set (and
   * the durations and starts) to `slots` at once: the million-instance
   * columns would otherwise double ~20 times, copying and refilling each
   * time. Sparse columns are left to grow on demand. Values are unchanged.
   */
  protected reserveDenseColumns(slots: number): void {
    const half = this.ids.length / 2;
    const dense: GrowableFloat64[] = [this.durations, this.starts];
    // Shared columns have their room already, and must keep their storage.
    if (this.sharedInto === null && this.sharing === null) {
      for (const all of [this.eventColumns, this.stateColumns]) {
        for (const byFeature of all) for (const c of byFeature) if (c.length >= half) dense.push(c);
      }
    }
    reserveTogether(dense, slots);
  }

  /** Features of one instance from its records [from, to) (SPEC §2, Table 2.1 plus `gap`, `gap.after`, `wait`). */
  protected summarize(id: string, kind: string | null, named: boolean, code: Int32Array, ts: Float64Array, vs: Float64Array, from: number, to: number): void {
    const n = to - from;
    const order = timeOrder(ts, from, to, this.scratch);
    if (order !== null) this.unorderedInstances++;
    const first = order === null ? from : (order[0] as number);
    const lastAt = order === null ? to - 1 : (order[n - 1] as number);
    const t0 = ts[first] as number;
    const duration = (ts[lastAt] as number) - t0;
    if (!Number.isFinite(duration)) {
      // Every timestamp is finite, but their span is not: no time within this instance can be computed.
      throw new InputError(`${this.className} class, instance '${id}': its timestamps span from ${t0} to ${ts[lastAt]}, more than the largest number`,
        undefined, undefined, 'timestamps are seconds (epoch or since start)');
    }
    // (openSlot's pushes, here for the same reason as the column sets below.)
    const slot = this.ids.length;
    this.ids.push(id);
    this.classes.push(this.className);
    this.durations.push(duration);
    this.starts.push(t0);
    this.recordCounts.push(n);
    this.kinds.push(kind);
    this.named.push(named ? 1 : 0);

    // Counting sort of the records by variable (bucket e for event e, E + v for state v), stable in
    // time order, into reused buffers; the buckets in order of first appearance, as the features' order.
    const sc = this.scratch;
    const nEvents = this.events.names.length;
    sc.buckets(nEvents + this.states.names.length);
    const count = sc.count;
    const touched = sc.touched;
    const nTouched = countBuckets(code, from, n, order, nEvents, count, touched);
    const fill = sc.fill;
    let offset = 0;
    for (let k = 0; k < nTouched; k++) {
      const b = touched[k] as number;
      fill[b] = offset;
      offset += count[b] as number;
    }
    const bt = sc.times(n);
    const bv = sc.values;
    // Event waits in time order: `gap` of the later event and `gap.after` of the earlier (SPEC §2).
    const gapOf = sc.gap;
    const gapAfterOf = sc.gapAfter;
    const waitOf = sc.wait;
    this.entryEvents.push(scatterRecords(code, ts, vs, from, n, order, t0, nEvents, fill, bt, bv, gapOf, gapAfterOf, waitOf, this.spanMarks(nEvents)));

    // Room for every state record of the instance in one block (its change points are at most that many); none
    // with Dref known (q*.abs come from the records).
    const series = this.series;
    if (this.keepSeries && this.reference === null) series.room(n);
    series.beginSlot();
    for (let k = 0; k < nTouched; k++) {
      const b = touched[k] as number;
      const m = count[b] as number;
      const end = fill[b] as number;
      const begin = end - m;
      count[b] = 0;
      if (b < nEvents) {
        // Each column's set called here, not through a helper (setEventFeatures, which summarizeStreamed calls once per
        // large run): a worker thread's compile left a helper not inlined (~100 ms of calls per 500 000 requests;
        // docs/internals.md, "V8: keep what it compiles"; through setEventFeatures again, a million hashed ids' -j2 parse 2.33 → 2.46 s).
        // median and last follow first (followers.ts) while they are the same (an event that occurred once).
        const cols = this.columnsOf(this.eventColumns, b, EVENT_FEATURE_TYPES.length);
        const firstT = bt[begin] as number;
        const mid = medianOfSorted(bt, begin, end);
        const lastT = bt[end - 1] as number;
        const medianAbs = cols[EV_MEDIAN_ABS] as GrowableFloat64;
        if (medianAbs.following && (!Object.is(mid, firstT) || !Object.is(lastT, firstT))) unfollow(cols, EVENT_LEADERS, slot);
        const following = medianAbs.following;
        (cols[EV_FIRST_ABS] as GrowableFloat64).set(slot, firstT);
        if (!following) {
          medianAbs.set(slot, mid);
          (cols[EV_LAST_ABS] as GrowableFloat64).set(slot, lastT);
        }
        if (duration > 0) {
          (cols[EV_FIRST_REL] as GrowableFloat64).set(slot, firstT / duration);
          if (!following) {
            (cols[EV_MEDIAN_REL] as GrowableFloat64).set(slot, mid / duration);
            (cols[EV_LAST_REL] as GrowableFloat64).set(slot, lastT / duration);
          }
        }
        (cols[EV_COUNT] as GrowableFloat64).set(slot, m);
        const gap = gapOf[b] as number;
        if (!Number.isNaN(gap)) (cols[EV_GAP] as GrowableFloat64).set(slot, gap);
        const after = gapAfterOf[b] as number;
        if (!Number.isNaN(after)) (cols[EV_GAP_AFTER] as GrowableFloat64).set(slot, after);
        (cols[EV_WAIT] as GrowableFloat64).set(slot, waitOf[b] as number);
        gapOf[b] = Number.NaN;
        gapAfterOf[b] = Number.NaN;
        waitOf[b] = 0;
        continue;
      }
      const v = b - nEvents;
      // The series is bt/bv [begin, end) (no subarray views: one object each per instance and variable).
      const sc2 = sc.minMaxSum;
      minMaxSum(bv, begin, end, sc2);
      const cols = this.setStateFeatures(slot, v, sc2[0] as number, finiteMeanOf(bv, begin, end, sc2[2] as number), sc2[1] as number, bv[end - 1] as number,
        valueAtIn(bt, bv, begin, end, (QUARTERS[0] as number) * duration),
        valueAtIn(bt, bv, begin, end, (QUARTERS[1] as number) * duration),
        valueAtIn(bt, bv, begin, end, (QUARTERS[2] as number) * duration));
      if (!this.keepSeries) continue;
      const reference = this.reference;
      if (reference !== null) {
        // Dref known: q*.abs from the records now, exactly as fillAbsoluteQuartiles would from their change points,
        // which are not made.
        for (let q = 0; q < 3; q++) (cols[ST_Q1_ABS + q] as GrowableFloat64).set(slot, valueAtRecords(bt, bv, begin, end, QUARTERS[q] * reference));
        continue;
      }
      // Keep the change points only: the step function (last value at or before x) is unchanged.
      series.used = changePoints(bt, bv, begin, end, v, series.blockVar, series.blockT, series.blockV, series.used);
    }
    series.endSlot();
  }

  /** Event variable `e` is a span's (RecordSink.eventFromSpans): its waits are measured among span records. */
  markSpanEvent(e: number): void {
    this.spanEvents ??= { marks: new Uint8Array(0) };
    (this.spanMarks(e + 1) as Uint8Array)[e] = 1;
  }

  /** The event variables that are spans' (markSpanEvent), by number, in order. */
  spanEventList(): number[] {
    const marks = this.spanEvents?.marks;
    const out: number[] = [];
    if (marks !== undefined) for (let e = 0; e < marks.length; e++) if (marks[e] === 1) out.push(e);
    return out;
  }

  /** The span marks with room for `nEvents` event variables (0 for those not marked), or null while no event is a span's. */
  protected spanMarks(nEvents: number): Uint8Array | null {
    const spans = this.spanEvents;
    if (spans === null) return null;
    if (spans.marks.length < nEvents) {
      const grown = new Uint8Array(Math.max(16, 2 * nEvents));
      grown.set(spans.marks);
      spans.marks = grown;
    }
    return spans.marks;
  }

  /** A new slot for an instance: its id, class, duration, start, records, kind and whether `I` records named it. */
  protected openSlot(id: string, kind: string | null, named: boolean, duration: number, t0: number, n: number): number {
    const slot = this.ids.length;
    this.ids.push(id);
    this.classes.push(this.className);
    this.durations.push(duration);
    this.starts.push(t0);
    this.recordCounts.push(n);
    this.kinds.push(kind);
    this.named.push(named ? 1 : 0);
    return slot;
  }

  /**
   * Event variable b's features in `slot` (SPEC §2): its first, median and last times and count, its longest
   * gap before and after it (NaN: none) and its wait.
   */
  protected setEventFeatures(slot: number, b: number, duration: number, firstT: number, mid: number, lastT: number, m: number,
    gap: number, after: number, wait: number): void {
    const cols = this.columnsOf(this.eventColumns, b, EVENT_FEATURE_TYPES.length);
    // median and last follow first (followers.ts) while they are the same (an event that occurred once).
    const medianAbs = cols[EV_MEDIAN_ABS] as GrowableFloat64;
    if (medianAbs.following && (!Object.is(mid, firstT) || !Object.is(lastT, firstT))) unfollow(cols, EVENT_LEADERS, slot);
    const following = medianAbs.following;
    (cols[EV_FIRST_ABS] as GrowableFloat64).set(slot, firstT);
    if (!following) {
      medianAbs.set(slot, mid);
      (cols[EV_LAST_ABS] as GrowableFloat64).set(slot, lastT);
    }
    if (duration > 0) {
      (cols[EV_FIRST_REL] as GrowableFloat64).set(slot, firstT / duration);
      if (!following) {
        (cols[EV_MEDIAN_REL] as GrowableFloat64).set(slot, mid / duration);
        (cols[EV_LAST_REL] as GrowableFloat64).set(slot, lastT / duration);
      }
    }
    (cols[EV_COUNT] as GrowableFloat64).set(slot, m);
    if (!Number.isNaN(gap)) (cols[EV_GAP] as GrowableFloat64).set(slot, gap);
    if (!Number.isNaN(after)) (cols[EV_GAP_AFTER] as GrowableFloat64).set(slot, after);
    (cols[EV_WAIT] as GrowableFloat64).set(slot, wait);
  }

  /** State variable v's features in `slot` but q*.abs (SPEC §2); returns its columns. */
  protected setStateFeatures(slot: number, v: number, min: number, mean: number, max: number, final: number, q1: number, half: number, q3: number): GrowableFloat64[] {
    const cols = this.columnsOf(this.stateColumns, v, STATE_FEATURE_TYPES.length);
    // mean, max, final and q*.rel follow min (followers.ts) while they are the same (a state logged once: its one
    // value is the value at every time, SPEC §2).
    const meanCol = cols[ST_MEAN] as GrowableFloat64;
    if (meanCol.following && (!Object.is(mean, min) || !Object.is(max, min) || !Object.is(final, min) ||
      !Object.is(q1, min) || !Object.is(half, min) || !Object.is(q3, min))) unfollow(cols, STATE_LEADERS, slot);
    (cols[ST_MIN] as GrowableFloat64).set(slot, min);
    if (!meanCol.following) {
      meanCol.set(slot, mean);
      (cols[ST_MAX] as GrowableFloat64).set(slot, max);
      (cols[ST_FINAL] as GrowableFloat64).set(slot, final);
      (cols[ST_Q1_REL] as GrowableFloat64).set(slot, q1);
      (cols[ST_Q1_REL + 1] as GrowableFloat64).set(slot, half);
      (cols[ST_Q1_REL + 2] as GrowableFloat64).set(slot, q3);
    }
    return cols;
  }

  /** The file's own instance, summarized as it was read (StreamedInstance, complete): what summarize would give. */
  protected summarizeStreamed(id: string, streamed: StreamedInstance): void {
    const duration = streamed.duration;
    if (streamed.unordered) this.unorderedInstances++;
    const slot = this.openSlot(id, null, false, duration, streamed.t0, streamed.records);
    this.entryEvents.push(streamed.entry);
    const f = this.scratch.streamedFeatures;
    const touched = streamed.touched;
    this.series.beginSlot();
    for (let k = 0; k < touched.length; k++) {
      const c = touched.data[k] as number;
      if (c >= 0) {
        streamed.eventFeatures(c, f);
        this.setEventFeatures(slot, c, duration, f[0] as number, f[1] as number, f[2] as number, f[3] as number, f[4] as number, f[5] as number, f[6] as number);
        continue;
      }
      const v = -1 - c;
      streamed.stateFeatures(v, f);
      // finiteMeanOf of a finite sum (complete() asks every sum to be).
      const cols = this.setStateFeatures(slot, v, f[0] as number, (f[1] as number) / (f[4] as number), f[2] as number, f[3] as number,
        f[5] as number, f[6] as number, f[7] as number);
      if (this.reference !== null) for (let q = 0; q < 3; q++) (cols[ST_Q1_ABS + q] as GrowableFloat64).set(slot, f[8 + q] as number);
    }
    this.series.endSlot();
  }

  /**
   * An instance summarized elsewhere (the SQL pushdown: src/clickhouse), as `summarize` would have: its slot and
   * each variable's features by number (eventVariable, stateVariable), q*.abs given at the Dref of all instances.
   */
  addSummarized(s: SummarizedInstance): void {
    this.className = s.className;
    const slot = this.openSlot(s.id, s.kind, s.named, s.duration, s.start, s.records);
    this.entryEvents.push(s.entry);
    this.series.beginSlot();
    for (const e of s.events) this.setEventFeatures(slot, e.variable, s.duration, e.first, e.median, e.last, e.count, e.gap, e.gapAfter, e.wait);
    for (const v of s.states) {
      const cols = this.setStateFeatures(slot, v.variable, v.min, v.mean, v.max, v.final, v.rel[0], v.rel[1], v.rel[2]);
      for (let q = 0; q < 3; q++) (cols[ST_Q1_ABS + q] as GrowableFloat64).set(slot, v.abs[q]);
    }
    this.series.endSlot();
  }

  /**
   * Fill `q1.abs`, `half.abs`, `q3.abs`: the value at q × Dref, where Dref is the
   * median duration of all instances of both classes (one common clock, SPEC §2).
   */
  fillAbsoluteQuartiles(referenceDuration: number): void {
    const slots = this.ids.length;
    const series = this.series;
    this.reserveAbsoluteQuartiles();
    for (let slot = 0; slot < slots; slot++) {
      const block = series.blockOf(slot);
      const varData = block.v;
      const tData = block.t;
      const vData = block.x;
      let i = series.startOf(slot);
      const stop = series.endOf(slot);
      while (i < stop) {
        const v = varData[i] as number;
        let j = i;
        while (j < stop && varData[j] === v) j++;
        const cols = this.stateColumns[v] as GrowableFloat64[];
        for (let q = 0; q < 3; q++) (cols[ST_Q1_ABS + q] as GrowableFloat64).set(slot, valueAtIn(tData, vData, i, j, QUARTERS[q] * referenceDuration));
        i = j;
      }
    }
  }

  /**
   * Dref is known before the instances left are summarized (every instance's
   * duration is: see pendingDurations): from now on summarize writes their
   * `q1.abs`, `half.abs` and `q3.abs` itself, from their records (the values
   * their change points would give: valueAtRecords), and makes no change
   * point. fillAbsoluteQuartiles still fills the slots summarized before, from
   * theirs, with the same Dref.
   */
  useReferenceDuration(referenceDuration: number): void {
    if (!this.keepSeries) throw new Error('useReferenceDuration without change points (keepSeries)');
    this.reference = referenceDuration;
  }

  /**
   * As useReferenceDuration, from the first part handed on (exportFile):
   * `read` gives Dref then (waiting for it if need be: another thread
   * computes it meanwhile). The slots summarized before get their q*.abs
   * from their change points, which are dropped.
   */
  useReferenceDurationLater(read: () => number): void {
    if (!this.keepSeries) throw new Error('useReferenceDurationLater without change points (keepSeries)');
    this.referenceLater = read;
  }

  /** useReferenceDurationLater's Dref, once a part is handed on. */
  protected settleReference(): void {
    const read = this.referenceLater;
    if (read === null) return;
    this.referenceLater = null;
    const referenceDuration = read();
    this.fillAbsoluteQuartiles(referenceDuration);
    this.series.dropPoints(this.ids.length);
    this.useReferenceDuration(referenceDuration);
  }

  /** The Dref given to useReferenceDuration, if any (buildFeatureSet checks it is the one it computes). */
  get referenceDurationUsed(): number | null {
    return this.reference;
  }

  /**
   * Room in every state variable's q1.abs, half.abs and q3.abs column for
   * every slot: they are set only once Dref is known, all in one go, and
   * would otherwise double ~20 times to a million instances.
   */
  reserveAbsoluteQuartiles(): void {
    reserveTogether(this.stateColumns.flatMap((cols) => cols.slice(ST_Q1_ABS, ST_Q1_ABS + 3)), this.ids.length);
  }

  get instanceCount(): number {
    return this.ids.length;
  }

  /** Room for `slots` slots in every per-slot array but the feature columns. */
  protected reserveSlots(slots: number): void {
    for (const g of [this.durations, this.starts, this.recordCounts]) g.reserve(slots);
    for (const g of [this.entryEvents, this.named]) g.reserve(slots);
    this.kinds.reserve(slots);
    this.classes.reserve(slots);
    this.series.reserveSlots(slots);
  }

  protected columnsOf(all: GrowableFloat64[][], v: number, width: number): GrowableFloat64[] {
    while (all.length <= v) {
      const cols = Array.from({ length: width }, () => new GrowableFloat64(16, Number.NaN, 2, this.slotRoom));
      follow(cols, this.leadersOf(all));
      all.push(cols);
    }
    return all[v] as GrowableFloat64[];
  }

  /** The followers' leaders (followers.ts) of eventColumns or stateColumns. */
  protected leadersOf(all: GrowableFloat64[][]): readonly number[] {
    return leadersOf(all === this.eventColumns ? 'event' : 'state');
  }

  /**
   * keepSeries: hold every state variable's change points until Dref is known
   * (memory grows with the input's state records). Without it, `q*.abs` are
   * left missing here and filled by a second pass over the input.
   */
  constructor(readonly keepSeries: boolean) {
    // Written twice, so that V8 makes it a plain field now: a field that has kept its first value is compiled as a
    // constant, and changing it (at the second class) threw away every function compiled on that promise
    // (`summarize`, "code dependencies" in `--trace-deopt`; docs/internals.md, "V8: keep what it compiles").
    this.className = 'bad';
    this.className = 'good';
  }
}
