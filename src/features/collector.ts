import { STREAMED_MIN_BYTES, type InputFile } from '../parse/files.js';
import type { ClassSink } from '../parse/reader.js';
import { RereadFile, type ClassName, type RecordIntake } from '../parse/records.js';
import { GROW_FAST, GrowableFloat64, GrowableInt32, float64sIn, freeNow, int32sIn, prefixIn, type ExportMemory } from '../memory/growable.js';
import { SlotClasses, SlotKinds } from './slot-labels.js';
import { InputError } from '../errors.js';
import { VariableIndex } from '../memory/variable-index.js';
import { emptyList, pushAll } from '../memory/lists.js';
import { medianOfSorted } from '../stats/median.js';
import { EVENT_FEATURE_TYPES, STATE_FEATURE_TYPES } from './types.js';
import { EVENT_LEADERS, STATE_LEADERS, follow, leadersOf, sameValues, unfollow } from './followers.js';
import { StreamedInstance } from './streamed.js';

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
/** Instances summarized at the end of a class before its dense columns are grown to their final size. */
const RESERVE_AFTER = 1024;

/** Bytes per record assumed to size the held records from a file's size (dlog records are ~20–40 bytes a line). */
const HELD_BYTES_PER_RECORD = 16;

/** Instances per part handed on by exportWholeClass: at most this many, ... */
const FLUSH_SLOTS = 1 << 16;
/** ... and fewer when a part's feature values would exceed this many bytes (many variables), down to FLUSH_SLOTS_MIN. */
const FLUSH_BYTES = 32 << 20;
const FLUSH_SLOTS_MIN = 1024;

/** A held record's bytes: its time and value (Float64), code and instance (Int32). */
const HELD_RECORD_BYTES = 24;

/** Records not yet summarized: event variable v is coded v, state variable v is coded −1−v. */
class RecordBuffer {
  /** memory: where the records are (SharedArrayBuffer for a worker's, which may cross to the main thread: exportFile's handOver). */
  constructor(private readonly memory: ExportMemory = ArrayBuffer) {}

  // Read only below their length: no NaN fill on growing; by GROW_FAST (a class's held records reach millions).
  readonly code = new GrowableInt32(16, GROW_FAST);
  readonly t = new GrowableFloat64(16, 0, GROW_FAST);
  readonly v = new GrowableFloat64(16, 0, GROW_FAST);
  /** Instance index, for the buffer of instances named by `I` records. */
  readonly inst = new GrowableInt32(16, GROW_FAST);

  get length(): number {
    return this.code.length;
  }

  /**
   * Room for n more records (at least GROW_FAST times the present room when
   * it must grow): the four columns in one allocation, each a view of its
   * part. One mapping of 24 bytes a record, not four: with huge pages
   * (docs/internals.md, "Memory": huge pages) a mapping is in small pages from
   * its start to the first 2 MiB boundary and from the last one to its end,
   * which for a worker's batch of a few MB was nearly all of each (a million
   * requests in 20 files a class: ~24 000 faults of the worker's reading).
   */
  reserveMore(n: number): void {
    const need = this.length + n;
    if (need <= this.code.data.length) return;
    const size = Math.max(need, this.code.data.length * GROW_FAST);
    // Float64 columns first (8-byte aligned), then the Int32 ones.
    const buffer = new this.memory(size * HELD_RECORD_BYTES);
    this.t.moveTo(new Float64Array(buffer, 0, size));
    this.v.moveTo(new Float64Array(buffer, size * 8, size));
    this.code.moveTo(new Int32Array(buffer, size * 16, size));
    this.inst.moveTo(new Int32Array(buffer, size * 20, size));
  }

  clear(): void {
    this.code.clear();
    this.t.clear();
    this.v.clear();
    this.inst.clear();
  }
}

/**
 * What one file contributed, in a form that crosses a worker boundary
 * (structured clone): its own instances already summarized, the raw records of
 * instances named by `I` records (they may continue in other files), and the
 * variable names its codes refer to.
 */
export interface FileContribution {
  readonly className: ClassName;
  readonly eventNames: string[];
  readonly stateNames: string[];
  readonly ids: string[];
  readonly durations: Float64Array;
  readonly starts: Float64Array;
  // Per slot, in typed arrays where they can be (a structured clone of an array of
  // 46 603 booleans or nulls takes ~3 ms; of a typed array, a copy).
  readonly recordCounts: Float64Array;
  /** null: no slot has a kind. */
  readonly kinds: (string | null)[] | null;
  readonly entryEvents: Int32Array;
  /** 1: named by `I` records. */
  readonly named: Int32Array;
  /**
   * Feature values of this file's slots, packed in one buffer per log kind:
   * value of local variable v, feature type f, slot s at [(v × types + f) × slots + s]
   * (NaN = missing), for the first eventVariables / stateVariables variables.
   */
  readonly eventValues: Float64Array;
  readonly eventVariables: number;
  readonly stateValues: Float64Array;
  readonly stateVariables: number;
  readonly seriesVar: Int32Array;
  readonly seriesT: Float64Array;
  readonly seriesV: Float64Array;
  /** Each slot's first point in seriesVar/T/V (typed: a part of 65 536 slots crosses to another thread as one buffer). */
  readonly seriesStart: Int32Array;
  readonly unorderedInstances: number;
  readonly emptyFile: string | null;
  readonly heldIds: string[];
  /** The kinds of heldIds, up to the last one given (null before it): shorter than heldIds, or empty, when the rest have none. */
  readonly heldKinds: (string | null)[];
  readonly heldCode: Int32Array;
  readonly heldT: Float64Array;
  readonly heldV: Float64Array;
  readonly heldInst: Int32Array;
  /**
   * Instances named by `I` records that the file's reader already summarized
   * (the file was its class's whole input), in order of first appearance: the
   * absorbing collector only notes their ids (for ids shared by both classes).
   */
  readonly namedIds: string[];
  /**
   * heldIds are strictly ascending as they were named, so each instance's
   * records are one run of held records, in id order (absorbSegments).
   */
  readonly heldAscending?: boolean;
  /** The instances named by `I` records are this part's named slots, in slot order: their ids are namedIds too. */
  readonly namedInSlots?: boolean;
  /**
   * Its slots are the next ones of the ids its sender named ahead, taken in
   * their sorted order (namedIdsAhead, namedOrderAhead): `ids` is empty, the
   * slots are counted by `durations` (see withSlotIds).
   */
  readonly idsAhead?: boolean;
  /** Its state change points stayed in the worker that sent it (WorkerInit.seriesInWorkers): q*.abs come later (QuartileRequest). */
  readonly pointsKept?: boolean;
  /**
   * At most how many slots this part and the parts its export hands on after
   * it hold together (0: no more than its own): the absorbing collector makes
   * room for them at once instead of growing its columns by doubling.
   */
  readonly slotsAhead: number;
  /**
   * Present when the feature values were summarized straight into the
   * absorbing collector's shared columns (see shareColumns): each column's
   * length (event variables by feature, then state variables), and
   * eventValues / stateValues are empty.
   */
  readonly sharedLengths?: Int32Array;
}

/**
 * Columns shared between threads (see FeatureCollector.shareColumns): per
 * variable of the worker's numbering, one buffer per feature type, and the
 * slots of the worker's instances in them.
 */
export interface SharedColumns {
  readonly base: number;
  readonly slots: number;
  /** Each column's whole storage: a view of a SharedArrayBuffer that holds many columns (shareAll). */
  readonly events: readonly (readonly Float64Array[])[];
  readonly states: readonly (readonly Float64Array[])[];
}

/**
 * The held records of a prepared class, grouped by instance, in one or more
 * runs of arrays: instances from `from` on (in summarizing order) have their
 * records in these arrays, at their `start` less `base`.
 */
interface HeldSegment {
  readonly from: number;
  readonly base: number;
  readonly code: Int32Array;
  readonly t: Float64Array;
  readonly v: Float64Array;
}

/**
 * A class's held instances ready to be summarized: where each one's records
 * are (start: k + 1 offsets, in summarizing order), the order to summarize
 * them in (the held index of each: null when it is the order they were named
 * in), and how many have records.
 */
interface PreparedClass {
  /** Per instance in summarizing order, where its records begin (k + 1 offsets, over all segments). */
  readonly start: Int32Array;
  readonly segments: readonly HeldSegment[];
  readonly order: Int32Array | null;
  readonly named: number;
}

/**
 * Walks a prepared class's instances in summarizing order, from `done` on:
 * `at(p)` (p one past the last asked) points code/t/v and [from, to) at
 * instance p's records.
 */
class HeldCursor {
  code: Int32Array;
  t: Float64Array;
  v: Float64Array;
  from = 0;
  to = 0;
  private seg = 0;
  private base: number;
  private nextFrom: number;

  constructor(private readonly prepared: PreparedClass, private readonly k: number, done: number) {
    const segments = prepared.segments;
    while (this.seg + 1 < segments.length && (segments[this.seg + 1] as HeldSegment).from <= done) this.seg++;
    const s = segments[this.seg] as HeldSegment;
    this.code = s.code;
    this.t = s.t;
    this.v = s.v;
    this.base = s.base;
    this.nextFrom = (segments[this.seg + 1] as HeldSegment | undefined)?.from ?? k;
  }

  /** Instance p's records; whether it has any. */
  at(p: number): boolean {
    if (p === this.nextFrom) {
      const segments = this.prepared.segments;
      const s = segments[++this.seg] as HeldSegment;
      this.code = s.code;
      this.t = s.t;
      this.v = s.v;
      this.base = s.base;
      this.nextFrom = (segments[this.seg + 1] as HeldSegment | undefined)?.from ?? this.k;
    }
    const start = this.prepared.start;
    this.from = (start[p] as number) - this.base;
    this.to = (start[p + 1] as number) - this.base;
    return this.to > this.from;
  }
}

/**
 * Turns the record stream of both classes into per-instance features (SPEC §2).
 * Each instance is summarized as soon as its input ends — at the end of its file,
 * or for instances named by `I` records (which may span files), at the end of
 * its class — so memory grows with the largest instance, not the input. Features
 * land in one growable column per (variable, feature type), indexed by the order
 * instances were summarized; `FeatureSet` construction reorders them.
 */
export class FeatureCollector implements ClassSink, RecordIntake {
  readonly events = new VariableIndex();
  readonly states = new VariableIndex();
  /** eventColumns[v][f]: feature f (EVENT_FEATURE_TYPES order) of event variable v per instance slot. */
  readonly eventColumns: GrowableFloat64[][] = emptyList();
  readonly stateColumns: GrowableFloat64[][] = emptyList();

  /**
   * The slots every per-slot column is expected to need (SlotRoom): while each file read so far gave one instance,
   * those and one a file still to come (expectFiles); else no guess.
   */
  private readonly slotRoom = { expected: 0 };
  /** Files still to come into this collector (expectFiles), and those begun since: beginFile counts them. */
  private filesLeft = 0;
  private filesBegun = 0;

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
  /** Instance ids named by `I` records in both classes. */
  get sharedIds(): string[] {
    return this.shared;
  }

  // State change points per instance slot, for q*.abs once Dref is known.
  private readonly series = new SeriesStore();
  private scratch = new SummaryScratch();

  private className: ClassName = 'good';
  private fileDefaultId = '';
  private fileBuffer = new RecordBuffer();
  /** The file being read, summarized as it is read (null: its records are held); the one to hold when read again. */
  private streamed: StreamedInstance | null = null;
  private rereading: string | null = null;
  /** The least file size summarized as it is read (STREAMED_MIN_BYTES; tests set it lower). */
  streamedMinBytes = STREAMED_MIN_BYTES;
  private fileRecords = 0;
  /**
   * Until the current file's first `I` record (see instance): its size, or the
   * bytes of its class from it on when larger (expectClassBytes).
   */
  private fileBytes = 0;
  /** The bytes of the class being read in files not begun yet, as expectClassBytes foretold them. */
  private classBytesLeft = 0;
  /** Instances named by `I` records in the current class: held until the class ends. */
  private held: RecordBuffer;
  private heldIds: string[] = [];
  /**
   * heldIds' kinds up to the last one given (null before it), none beyond: a
   * million request ids without kinds hold no array of a million nulls
   * (grown by copying into new memory, a page fault each 4 KB). See heldKind.
   */
  private heldKinds: (string | null)[] = [];
  private heldAscending = true;
  /** dedupeHeld: heldIds in sorted order (indices), once they are each named once; null until then. */
  private sortedHeld: Int32Array | null = null;
  private shared: string[] = [];
  /** Ids named by `I` records per class (see NamedScan). */
  private namedByClass = new Map<ClassName, NamedIds>();
  /** -1: the file's own instance; otherwise an index into heldIds. */
  private target = -1;
  /** exportWholeClass: receives the summarized instances in parts while the class is finished. */
  private onFlush: ((part: FileContribution) => void) | null = null;
  /** Ids of instances of the current class named by `I` records and summarized by a worker (see absorb). */
  private namedElsewhere: NamedScan | null = null;
  /**
   * Slots the next class is known to bring (absorb: a worker's export of it
   * says how many): finishing this class makes room for them too, so the
   * columns are allocated once at their final size instead of being copied
   * into twice-larger ones when the next class's first part comes in.
   */
  private slotsAfterClass = 0;
  /**
   * shareColumns: the slots another thread summarizes into the columns (from
   * `next` on, up to `end`); they must not move until it is done.
   */
  private sharedInto: { next: number; readonly end: number } | null = null;
  /** prepareClass: finishClass's first steps, done ahead. */
  private prepared: PreparedClass | null = null;
  /** summarizeSome: the prepared instances summarized so far (in id order), and the slots they took. */
  private cursor = 0;
  private cursorSlots = 0;
  /** pendingSlots' last count, and what it was counted over (the held records and the slots then). */
  private pendingCount: { readonly held: RecordBuffer; readonly records: number; readonly slots: number; readonly pending: number } | null = null;
  /** exportWholeClass: the class's named instances are its named slots, in order (FileContribution.namedInSlots). */
  private namedInSlots = false;
  /** namedIdsAhead: the class's named ids were handed on ahead of its contribution. */
  private namedSent = false;
  /** namedOrderAhead: the slots exportWholeClass fills are those ids in that order (FileContribution.idsAhead). */
  private idsAhead = false;
  /** useSharedColumns: the columns this collector summarizes into, and how many slots of them it has handed on. */
  private sharing: { readonly columns: SharedColumns; sent: number } | null = null;
  /** useReferenceDuration: Dref, once known before the instances left are summarized (their q*.abs written then). */
  private reference: number | null = null;
  /** useReferenceDurationLater: how to get Dref when the first part is handed on. */
  private referenceLater: (() => number) | null = null;

  /**
   * keepSeries: hold every state variable's change points until Dref is known
   * (memory grows with the input's state records). Without it, `q*.abs` are
   * left missing here and filled by a second pass over the input.
   *
   * exportMemory: where exportFile makes what it returns, and the held
   * records it may hand over. A worker's collector makes them in
   * SharedArrayBuffers, so that they cross to the main thread shared,
   * neither copied nor moved: a move (a transfer list) detaches the
   * sender's buffer, and V8 then recompiles every typed-array access of that
   * thread with a check for it (a parsing thread 6–14 % slower from then on;
   * docs/internals.md, "Threads").
   */
  constructor(readonly keepSeries = true, private readonly exportMemory: ExportMemory = ArrayBuffer) {
    this.held = new RecordBuffer(exportMemory);
    // Written twice, so that V8 makes it a plain field now: a field that has kept its first value is compiled as a
    // constant, and changing it (at the second class) threw away every function compiled on that promise
    // (`summarize`, "code dependencies" in `--trace-deopt`; docs/internals.md, "V8: keep what it compiles").
    this.className = 'bad';
    this.className = 'good';
  }

  /**
   * Take over the summaries' scratch buffers and the file buffer of `other`,
   * which is not used after (a worker's collector per batch): they are sized
   * for its largest instance already, and new ones would be memory written
   * for the first time again, a page fault each 4 KB. Its change points'
   * last block too: what it held of them went out copied (pack).
   */
  reuseBuffersOf(other: FeatureCollector): void {
    this.scratch = other.scratch;
    other.fileBuffer.clear();
    this.fileBuffer = other.fileBuffer;
    this.series.reuseBlockOf(other.series);
  }

  /**
   * This collector as the sink of reads on this thread, its fast lane
   * included (records by variable number, in batches), calling `fileDone`
   * after each file (progress).
   */
  sink(fileDone: () => void): ClassSink {
    return {
      beginFile: (f, c) => this.beginFile(f, c),
      endFile: (f) => {
        const streamed = this.endFile(f);
        fileDone();
        return streamed;
      },
      instance: (id, kind) => this.instance(id, kind),
      event: (t, n) => this.event(t, n),
      state: (t, n, v) => this.state(t, n, v),
      intake: this.intake,
    };
  }

  beginFile(file: InputFile, className: ClassName): void {
    if (className !== this.className) {
      this.finishClass();
      this.className = className;
    }
    this.fileDefaultId = file.relativePath;
    this.target = -1;
    this.fileRecords = 0;
    const again = this.rereading === file.path;
    this.rereading = null;
    if (!again && this.filesLeft > 0) {
      // (A file read again, summarized as read the first time, is counted once.)
      this.slotRoom.expected = this.ids.length === this.filesBegun ? this.ids.length + this.filesLeft : 0;
      this.filesLeft--;
      this.filesBegun++;
    }
    // (Without Dref: with no change points kept, q*.abs come from a second pass, as for the records held.)
    this.streamed = !again && file.ends !== undefined && file.size >= this.streamedMinBytes && (this.reference !== null || !this.keepSeries) &&
      this.onFlush === null ? new StreamedInstance(file.ends, this.reference ?? Number.NaN, this.scratch.timeBlocks) : null;
    this.fileBytes = Math.max(file.size, this.classBytesLeft);
    this.classBytesLeft = Math.max(0, this.classBytesLeft - file.size);
  }

  /**
   * The files of a class about to be read hold `bytes` in all: the first of
   * them with an `I` record makes room for the held records of all of them at
   * once, not file by file (growing the buffer and copying millions of
   * records; room never written is no memory). Call before the class's first
   * file; a guess (the class may be read in part here) only sizes the room.
   */
  expectClassBytes(bytes: number): void {
    this.classBytesLeft = bytes;
  }

  /**
   * `files` more files will be read into this collector (both classes; those
   * another thread reads and this one absorbs count too). While each file
   * begun here has given one instance (dlog files without `I` records), a
   * per-slot column that outgrows its first room grows straight to one slot
   * for each of them (SlotRoom), not by doublings. A guess: it only sizes
   * the room.
   */
  expectFiles(files: number): void {
    this.filesLeft = files;
    this.filesBegun = 0;
    this.slotRoom.expected = this.ids.length === 0 ? files : 0;
  }

  /**
   * The file's own instance summarized (as it was read, or from its records held: returns whether as read). Throws
   * RereadFile when it was to be summarized as it was read and could not be (StreamedInstance): call beginFile and
   * read it again, and its records are held.
   */
  endFile(file: InputFile): boolean {
    const streamed = this.streamed;
    if (streamed !== null) {
      this.streamed = null;
      const read = streamed.records > 0 || streamed.broken;
      const complete = read && streamed.complete();
      if (complete) this.summarizeStreamed(this.fileDefaultId, streamed);
      streamed.release();
      if (complete) return true;
      if (read) {
        this.rereading = file.path;
        throw new RereadFile(file.path);
      }
    }
    if (this.fileBuffer.length > 0) {
      const b = this.fileBuffer;
      this.summarize(this.fileDefaultId, null, false, b.code.data, b.t.data, b.v.data, 0, b.length);
      b.clear();
    }
    if (this.fileRecords === 0) this.emptyFiles.push(file.path);
    return false;
  }

  /** Summarize the instances named by `I` records of the class being read. Call after its last file. */
  finishClass(): void {
    this.dedupeHeld();
    this.summarizeSome(Infinity);
    const scan = this.namedElsewhere;
    const elsewhere = scan?.ids ?? [];
    const named = elsewhere.length === 0 ? this.heldIds : this.heldIds.length === 0 ? elsewhere : [...elsewhere, ...this.heldIds];
    const other = this.namedByClass.get(this.className === 'good' ? 'bad' : 'good');
    // Ids that all came in absorbed parts were scanned as they came (NamedScan); others are scanned now.
    // (Ids not in order, named here: merged with the other class's in sorted order, when it is known.)
    const myOrder = named === this.heldIds && !this.heldAscending ? this.sortedHeld : null;
    const scanned = (this.heldIds.length === 0 ? scan?.result(other) : null) ?? NamedScan.over(named, other, myOrder);
    const namedAscending = scanned.ascending;
    // Taken as it is when it is the first (a million ids are not copied).
    if (this.shared.length === 0) this.shared = scanned.shared;
    else pushAll(this.shared, scanned.shared);
    // finishClass may run twice for a class (explicitly, then on the next class's first file): add, never replace.
    const own = this.namedByClass.get(this.className) ?? { ids: [], ascending: true, set: null, sorted: null };
    own.ascending = own.ascending && namedAscending &&
      (own.ids.length === 0 || named.length === 0 || (named[0] as string) > (own.ids[own.ids.length - 1] as string));
    if (own.ids.length === 0 && own.set === null) {
      // The class's first: its list as it is (not changed after this: heldIds and namedElsewhere are replaced below).
      own.ids = named;
      own.sorted = myOrder ?? (named === elsewhere ? (scan?.sortedOrder ?? null) : null);
    } else {
      // (Ids added: their sorted order is not known. None, when finishClass runs again for the class: it stays.)
      if (named.length > 0) own.sorted = null;
      for (const id of named) {
        own.ids.push(id);
        own.set?.add(id);
      }
    }
    this.namedByClass.set(this.className, own);
    this.namedElsewhere = null;
    this.held = new RecordBuffer(this.exportMemory);
    this.heldIds = [];
    this.heldKinds = [];
    this.heldAscending = true;
    this.sortedHeld = null;
  }

  /**
   * Summarize the next `limit` held instances (named by `I` records) of the
   * class being read, in id order (finishClass: all of them); whether none is
   * left. In steps, the class stays prepared between them (pendingSlots,
   * shareColumns and pendingDurations count what is left).
   */
  summarizeSome(limit: number): boolean {
    if (this.prepared === null) {
      if (this.held.length === 0) return true;
      this.prepared = this.prepare();
    } else if (this.held.length > 0) {
      throw new Error('records came after prepareClass');
    }
    const order = this.prepared.order;
    const k = this.heldIds.length;
    const flushSlots = this.flushSlots();
    const end = Math.min(k, this.cursor + limit);
    const at = new HeldCursor(this.prepared, k, this.cursor);
    for (let done = this.cursor; done < end; done++) {
      // Its id and kind by the order it was named in; its records at its place in this order.
      const j = order === null ? done : (order[done] as number);
      // Once the first instances show which columns nearly every instance sets, make room for all of them.
      // (Handing on parts, the slots are emptied every FLUSH_SLOTS instances: room for a part only.)
      if (done === RESERVE_AFTER) {
        const slots = this.ids.length + k - RESERVE_AFTER;
        this.reserveDenseColumns(this.onFlush !== null ? Math.min(slots, flushSlots) : slots + this.slotsAfter(k));
      }
      if (at.at(done)) {
        this.cursorSlots++;
        this.summarize(this.heldIds[j] as string, this.heldKind(j), true, at.code, at.t, at.v, at.from, at.to);
        if (this.onFlush !== null && this.ids.length >= flushSlots) {
          this.onFlush(this.exportFile(false, this.ids.length + k - done - 1));
          this.clearSlots();
        }
      }
    }
    this.cursor = end;
    if (end < k) return false;
    this.prepared = null;
    this.cursor = 0;
    this.cursorSlots = 0;
    return true;
  }

  /**
   * finishClass's first steps, ahead of it, for a thread that has read its
   * class and is waiting (the main thread, for a worker's layout): the held
   * records grouped by instance, the order to summarize them in, the slots
   * they will take. No record may come before finishClass.
   */
  prepareClass(): void {
    if (this.prepared === null && this.held.length > 0) this.prepared = this.prepare();
  }

  private prepare(): PreparedClass {
    this.dedupeHeld();
    const k = this.heldIds.length;
    // Ids that came in ascending order need no sort (nor an array of their order).
    const order = this.heldAscending ? null : this.sortedHeld;
    const start = new Int32Array(k + 1);
    // Grouped in that order, so that summarizing reads the records front to back (not an instance here, the next there).
    const { code, t, v } = this.groupHeldByInstance(start, order === null ? null : rankOf(order));
    let named = 0;
    for (let p = 0; p < k; p++) if ((start[p + 1] as number) > (start[p] as number)) named++;
    return { start, segments: [{ from: 0, base: 0, code, t, v }], order, named };
  }

  /**
   * Room to make, on finishing this class, for the next one: the slots it is
   * known to bring (slotsAfterClass), or after the good class as many as this
   * one has (`k` named instances: the two classes of a comparison are often
   * alike), so the bad class's first instance does not copy every column into
   * one twice as large. Room never written costs no memory (GrowableFloat64),
   * so a guess too large costs nothing; one too small, the copy it would have
   * cost anyway.
   */
  private slotsAfter(k: number): number {
    if (this.slotsAfterClass > 0) return this.slotsAfterClass;
    return this.className === 'good' ? k : 0;
  }

  /**
   * Instances per part handed on (exportWholeClass): FLUSH_SLOTS, or as many
   * as keep a part's packed feature values (8 bytes per column and slot)
   * within FLUSH_BYTES, so the parts a worker may send ahead (PARTS_AHEAD)
   * stay within a bound whatever the number of variables.
   */
  private flushSlots(): number {
    const columns = this.events.names.length * EVENT_FEATURE_TYPES.length + this.states.names.length * STATE_FEATURE_TYPES.length;
    return Math.max(FLUSH_SLOTS_MIN, Math.min(FLUSH_SLOTS, Math.floor(FLUSH_BYTES / (8 * Math.max(1, columns)))));
  }

  /**
   * Grow every column that at least half of the slots so far have set (and
   * the durations and starts) to `slots` at once: the million-instance
   * columns would otherwise double ~20 times, copying and refilling each
   * time. Sparse columns are left to grow on demand. Values are unchanged.
   */
  private reserveDenseColumns(slots: number): void {
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

  /**
   * Counting sort of the held records by instance, stable: each instance's
   * records become contiguous, in input order, the instances in the order of
   * `rank` (each held index's place; null: the held order). Fills `start`
   * (k + 1 offsets, by place) and frees the held buffer before returning
   * (freeNow, not when it is collected), so the records exist twice only
   * while being copied. Records already grouped
   * in that order (each instance's records in one run, the usual case with
   * ids that came in order) are returned as they are.
   */
  private groupHeldByInstance(start: Int32Array, rank: Int32Array | null): { code: Int32Array; t: Float64Array; v: Float64Array } {
    const held = this.held;
    const n = held.length;
    const k = this.heldIds.length;
    const inst = held.inst.data;
    let contiguous = true;
    let previous = -1;
    // Run by run (an instance's records are usually together): its place looked up once, not per record.
    for (let i = 0; i < n;) {
      const h = inst[i] as number;
      const e = runEnd(inst, i, n);
      const j = rank === null ? h : (rank[h] as number);
      start[j + 1] = (start[j + 1] as number) + e - i;
      // Each instance's records are one run, in this order, iff this never decreases.
      if (j < previous) contiguous = false;
      previous = j;
      i = e;
    }
    for (let j = 0; j < k; j++) start[j + 1] = (start[j + 1] as number) + (start[j] as number);
    if (contiguous) {
      // Already grouped, in input order: the held columns as they are (no copy).
      const grouped = { code: held.code.data, t: held.t.data, v: held.v.data };
      this.held = new RecordBuffer(this.exportMemory);
      return grouped;
    }
    const fill = start.slice(0, k);
    const code = new Int32Array(n);
    const t = new Float64Array(n);
    const v = new Float64Array(n);
    const hc = held.code.data;
    const ht = held.t.data;
    const hv = held.v.data;
    for (let i = 0; i < n;) {
      const h = inst[i] as number;
      const e = runEnd(inst, i, n);
      const j = rank === null ? h : (rank[h] as number);
      let at = fill[j] as number;
      fill[j] = at + e - i;
      for (; i < e; i++, at++) {
        code[at] = hc[i] as number;
        t[at] = ht[i] as number;
        v[at] = hv[i] as number;
      }
    }
    this.held = new RecordBuffer(this.exportMemory);
    // (With -j2 both threads group their class at about the same time: the old records' memory kept until a full
    // collection was most of the difference in peak RSS from -j1.)
    freeNow([hc.buffer, ht.buffer, hv.buffer, inst.buffer]);
    return { code, t, v };
  }

  /**
   * The first kind given for an instance sticks. While the ids come in
   * ascending order, an id above the last is new. Once one does not, each id
   * is taken as new (but the one just named): an id named again is merged
   * with its first naming when the class is prepared (dedupeHeld), by the
   * sort the summaries are taken in anyway, not looked up in a Map per `I`
   * record (~0.6 µs each, for a million request ids).
   */
  instance(id: string, kind?: string | null): void {
    if (this.streamed !== null) {
      // The file is not one instance: it is read again, and nothing of this reading is kept.
      this.streamed.named();
      return;
    }
    if (this.fileBytes > 0) {
      // The file's first I record: room for as many held records as its size (or its class's rest: see
      // expectClassBytes) allows at HELD_BYTES_PER_RECORD, once, instead of growing to millions.
      this.held.reserveMore(Math.floor(this.fileBytes / HELD_BYTES_PER_RECORD));
      this.fileBytes = 0;
    }
    if (this.heldAscending) {
      const ids = this.heldIds;
      const n = ids.length;
      const last = n === 0 ? null : (ids[n - 1] as string);
      if (last === null || id > last) {
        ids.push(id);
        if (kind != null) this.giveKind(n, kind);
        this.target = n;
        return;
      }
      if (id === last) {
        if (kind != null && this.heldKind(n - 1) === null) this.giveKind(n - 1, kind);
        this.target = n - 1;
        return;
      }
      this.heldAscending = false;
    }
    this.sortedHeld = null;
    if (this.target >= 0 && this.heldIds[this.target] === id) {
      if (kind != null && this.heldKind(this.target) === null) this.giveKind(this.target, kind);
      return;
    }
    this.target = this.heldIds.length;
    this.heldIds.push(id);
    if (kind != null) this.giveKind(this.target, kind);
  }

  /** The kind of held instance j (null: none given). */
  private heldKind(j: number): string | null {
    return this.heldKinds[j] ?? null;
  }

  /** Held instance j is of kind `kind` (the ones before it without a kind given, null). */
  private giveKind(j: number, kind: string): void {
    const kinds = this.heldKinds;
    while (kinds.length < j) kinds.push(null);
    kinds[j] = kind;
  }

  /**
   * Ids named again (not in ascending order: see instance) merged with their
   * first naming: each once in heldIds, in the order first named, its kind
   * the first given, its records (held.inst) renumbered. The sorted order of
   * the ids is kept for prepare (sortedHeld). Nothing to do for ascending ids.
   */
  private dedupeHeld(): void {
    if (this.heldAscending || this.sortedHeld !== null) return;
    const ids = this.heldIds;
    const order = sortedOrder(ids);
    const n = ids.length;
    // Equal ids are next to each other in `order`, the first named first (the sort is stable).
    let duplicates = 0;
    for (let p = 1; p < n; p++) if (ids[order[p] as number] === ids[order[p - 1] as number]) duplicates++;
    if (duplicates === 0) {
      this.sortedHeld = order;
      return;
    }
    // Each id's first naming: its canonical index; kept ones renumbered in naming order.
    const canonical = new Int32Array(n);
    for (let p = 0; p < n;) {
      const first = order[p] as number;
      let e = p;
      while (e < n && ids[order[e] as number] === ids[first]) {
        const j = order[e] as number;
        canonical[j] = first;
        // The first kind given (in naming order: the run is in index order) sticks.
        const given = this.heldKind(j);
        if (given !== null && this.heldKind(first) === null) this.giveKind(first, given);
        e++;
      }
      p = e;
    }
    const renumber = new Int32Array(n);
    const keptIds: string[] = [];
    const keptKinds: (string | null)[] = [];
    for (let j = 0; j < n; j++) {
      if (canonical[j] !== j) continue;
      renumber[j] = keptIds.length;
      keptIds.push(ids[j] as string);
      if (this.heldKinds.length > 0) keptKinds.push(this.heldKind(j));
    }
    const inst = this.held.inst.data;
    for (let i = 0; i < this.held.length; i++) inst[i] = renumber[canonical[inst[i] as number] as number] as number;
    const sorted = new Int32Array(keptIds.length);
    let w = 0;
    for (let p = 0; p < n; p++) {
      const j = order[p] as number;
      if (canonical[j] === j) sorted[w++] = renumber[j] as number;
    }
    if (this.target >= 0) this.target = renumber[canonical[this.target] as number] as number;
    this.heldIds = keptIds;
    this.heldKinds = keptKinds;
    this.sortedHeld = sorted;
  }

  event(t: number, name: string): void {
    this.add(this.events.id(name), t, 0);
  }

  state(t: number, name: string, value: number): void {
    this.add(-1 - this.states.id(name), t, value);
  }

  /** The fast lane (RecordIntake): readers number names once and give records by number. */
  get intake(): RecordIntake {
    return this;
  }

  /** Only a run summarized as it is read (one instance, no `I` record so far) is offered to a helper (tail-help.ts). */
  get splittable(): boolean {
    return this.streamed !== null && !this.streamed.broken;
  }

  eventVariable(name: string): number {
    return this.events.id(name);
  }

  stateVariable(name: string): number {
    return this.states.id(name);
  }

  records(code: Int32Array, t: Float64Array, v: Float64Array, n: number): void {
    this.fileRecords += n;
    if (this.streamed !== null) {
      this.streamed.add(code, t, v, n);
      return;
    }
    const b = this.target < 0 ? this.fileBuffer : this.held;
    b.code.append(code, n);
    b.t.append(t, n);
    b.v.append(v, n);
    if (this.target >= 0) b.inst.repeat(this.target, n);
  }

  private add(code: number, t: number, v: number): void {
    this.fileRecords++;
    if (this.streamed !== null) {
      const one = this.scratch.one;
      one.code[0] = code;
      one.t[0] = t;
      one.v[0] = v;
      this.streamed.add(one.code, one.t, one.v, 1);
      return;
    }
    const b = this.target < 0 ? this.fileBuffer : this.held;
    // Room for the four columns in one allocation of the buffer's memory, not each column's own growth.
    if (b.length === b.code.data.length) b.reserveMore(1);
    b.code.push(code);
    b.t.push(t);
    b.v.push(v);
    if (this.target >= 0) b.inst.push(this.target);
  }

  /** Features of one instance from its records [from, to) (SPEC §2, Table 2.1 plus `gap`, `gap.after`, `wait`). */
  private summarize(id: string, kind: string | null, named: boolean, code: Int32Array, ts: Float64Array, vs: Float64Array, from: number, to: number): void {
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
    this.entryEvents.push(scatterRecords(code, ts, vs, from, n, order, t0, nEvents, fill, bt, bv, gapOf, gapAfterOf, waitOf));

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

  /** A new slot for an instance: its id, class, duration, start, records, kind and whether `I` records named it. */
  private openSlot(id: string, kind: string | null, named: boolean, duration: number, t0: number, n: number): number {
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
  private setEventFeatures(slot: number, b: number, duration: number, firstT: number, mid: number, lastT: number, m: number,
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
  private setStateFeatures(slot: number, v: number, min: number, mean: number, max: number, final: number, q1: number, half: number, q3: number): GrowableFloat64[] {
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
  private summarizeStreamed(id: string, streamed: StreamedInstance): void {
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
  private settleReference(): void {
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

  /**
   * Everything this collector holds, after reading exactly one file (and no
   * finishClass), for `absorb` in another collector.
   */
  exportFile(withHeld = true, slotsAhead = 0, handOver = false): FileContribution {
    // handOver: this collector is not used after, so its held records go as views of its own buffers (shared
    // with another thread whole, room never written included: no memory), not copied.
    const memory = this.exportMemory;
    // (Held records not yet given room of their own are in the buffers a RecordBuffer starts with: copied.)
    const held = <A extends Int32Array | Float64Array>(a: A, n: number): A => (handOver && a.buffer instanceof memory ? a.subarray(0, n) as A : prefixIn(memory, a, n));
    this.settleReference();
    const slots = this.ids.length;
    const heldLength = withHeld ? this.held.length : 0;
    const pack = (cols: GrowableFloat64[][], width: number): Float64Array => {
      const out = float64sIn(memory, cols.length * width * slots);
      const leaders = this.leadersOf(cols);
      cols.forEach((byFeature, v) => byFeature.forEach((own, f) => {
        // (A follower that follows: its leader's values. absorb finds them the same and lets it follow there too.)
        const c = own.following ? (byFeature[leaders[f] as number] as GrowableFloat64) : own;
        // Each column's values, then NaN (missing) for its slots at and beyond its length only: one pass over the buffer.
        const at = (v * width + f) * slots;
        const n = Math.min(slots, c.length);
        out.set(c.data.subarray(0, n), at);
        if (n < slots) out.fill(Number.NaN, at + n, at + slots);
      }));
      return out;
    };
    const shared = this.sharing !== null;
    return {
      className: this.className,
      eventNames: [...this.events.names],
      stateNames: [...this.states.names],
      ids: this.idsAhead ? [] : [...this.ids],
      durations: this.durations.toArray(slots, memory),
      starts: this.starts.toArray(slots, memory),
      recordCounts: prefixIn(memory, this.recordCounts.data, slots),
      kinds: this.kinds.any() ? this.kinds.toArray() : null,
      entryEvents: prefixIn(memory, this.entryEvents.data, slots),
      named: prefixIn(memory, this.named.data, slots),
      eventValues: shared ? new Float64Array(0) : pack(this.eventColumns, EVENT_FEATURE_TYPES.length),
      eventVariables: shared ? 0 : this.eventColumns.length,
      stateValues: shared ? new Float64Array(0) : pack(this.stateColumns, STATE_FEATURE_TYPES.length),
      stateVariables: shared ? 0 : this.stateColumns.length,
      ...this.series.pack(slots, memory),
      unorderedInstances: this.unorderedInstances,
      emptyFile: this.emptyFiles[0] ?? null,
      heldIds: withHeld ? [...this.heldIds] : [],
      heldKinds: withHeld ? [...this.heldKinds] : [],
      heldCode: held(this.held.code.data, heldLength),
      heldT: held(this.held.t.data, heldLength),
      heldV: held(this.held.v.data, heldLength),
      heldInst: held(this.held.inst.data, heldLength),
      ...(withHeld && this.heldAscending && this.heldIds.length > 0 ? { heldAscending: true } : {}),
      namedIds: [],
      slotsAhead,
      ...(this.namedInSlots ? { namedInSlots: true } : {}),
      ...(this.idsAhead ? { idsAhead: true } : {}),
      ...(shared ? { sharedLengths: Int32Array.from([...this.eventColumns, ...this.stateColumns].flat(), (c) => c.length) } : {}),
    };
  }

  /** Forget the summarized instances (after exporting them): the next slot is 0 again. */
  private clearSlots(): void {
    const slotsBefore = this.ids.length;
    for (const list of [this.ids, this.emptyFiles]) list.length = 0;
    this.classes.clear();
    this.kinds.clear();
    for (const g of [this.durations, this.starts, this.recordCounts, this.entryEvents, this.named]) g.clear();
    // Emptied, not refilled: a column reads as missing at and beyond its length (GrowableFloat64).
    // (And their followers follow again: whether they do is said per part, see absorb and adoptShared.)
    for (const all of [this.eventColumns, this.stateColumns]) {
      for (const cols of all) {
        for (const c of cols) c.clear();
        follow(cols, this.leadersOf(all));
      }
    }
    if (this.sharing !== null) this.shareFrom(slotsBefore);
    this.series.clear();
    this.unorderedInstances = 0;
  }

  /**
   * As `exportFile`, for a file that is its class's whole input: the instances
   * its `I` records name cannot continue elsewhere, so they are summarized here
   * (in the worker) instead of crossing as raw records.
   */
  exportWholeClass(send: (part: FileContribution) => void): FileContribution {
    this.namedInSlots = this.namedAreSlots();
    const namedIds = this.namedInSlots || this.namedSent ? [] : [...this.heldIds];
    // Handed on every FLUSH_SLOTS instances, so the worker never holds a million summaries at once.
    this.onFlush = send;
    try {
      this.finishClass();
      return { ...this.exportFile(), namedIds };
    } finally {
      this.onFlush = null;
      this.namedInSlots = false;
      this.namedSent = false;
      this.idsAhead = false;
    }
  }

  /**
   * Ids named in ascending order, each with records, are summarized in that
   * order: the named slots' ids are the list (FileContribution.namedInSlots),
   * and do not cross twice (a million strings at the end).
   */
  private namedAreSlots(): boolean {
    return this.heldAscending && this.pendingSlots() - this.ids.length === this.heldIds.length;
  }

  /**
   * Before exportWholeClass: the class's named ids, in the order they were
   * named, when they will not cross as its slots' ids; its contribution then
   * leaves them out (namedIds). Sent ahead of the parts, they are taken in
   * (absorbNamed) while this collector still summarizes.
   */
  namedIdsAhead(): string[] | null {
    this.dedupeHeld();
    if (this.namedAreSlots() || this.heldIds.length === 0) return null;
    this.namedSent = true;
    return [...this.heldIds];
  }

  /**
   * Ids named by `I` records of the class being absorbed (after its first
   * part), in the order they were named, from namedIdsAhead of the collector
   * that sends its parts: as its contribution's namedIds would add them.
   */
  absorbNamed(ids: readonly string[], sorted: Int32Array | null = null): void {
    const other = this.namedByClass.get(this.className === 'good' ? 'bad' : 'good');
    // With their sorted order (ids not in order), first: scanned by a merge when the class is finished.
    if (this.namedElsewhere === null && sorted !== null) {
      this.namedElsewhere = NamedScan.withOrder(other, [...ids], sorted);
      return;
    }
    const scan = this.namedElsewhere ??= new NamedScan(other);
    for (const id of ids) scan.push(id);
  }

  /**
   * With namedIdsAhead: the sorted order of the ids it gave, when they do not
   * ascend (absorbNamed). When every one of them has records and no other
   * instance came before, they are exportWholeClass's slots in that order:
   * their ids do not cross again with its parts (~0.1 µs a string each way,
   * for a million hashed request ids; withSlotIds).
   */
  namedOrderAhead(): Int32Array | null {
    if (!this.namedSent || this.heldAscending || this.sortedHeld === null) return null;
    this.idsAhead = this.ids.length === 0 && this.pendingSlots() === this.heldIds.length;
    return this.sortedHeld.slice();
  }

  /**
   * Take in one file's contribution as if this collector had read the file
   * itself. Contributions must be absorbed in file order for the result to be
   * identical to reading sequentially. `heldAhead`: held records that parts
   * of the same class absorbed next will bring (room made for them at once).
   */
  absorb(part: FileContribution, heldAhead = 0): void {
    if (part.className !== this.className) {
      this.slotsAfterClass = Math.max(part.slotsAhead, part.ids.length);
      try {
        this.finishClass();
      } finally {
        this.slotsAfterClass = 0;
      }
      this.className = part.className;
    }
    const eventMap = part.eventNames.map((n) => this.events.id(n));
    const stateMap = part.stateNames.map((n) => this.states.id(n));
    const base = this.ids.length;
    const slots = part.ids.length;
    // Room for the parts still to come of the same export (one copy now instead of doublings later).
    const ahead = part.slotsAhead > slots ? base + part.slotsAhead : 0;
    if (ahead > 0) this.reserveSlots(ahead);
    this.durations.append(part.durations, slots);
    this.starts.append(part.starts, slots);
    pushAll(this.ids, part.ids);
    this.recordCounts.append(part.recordCounts, slots);
    this.named.append(part.named, slots);
    // (The loops over the part's slots are functions of their own, each ending with its loop: compiled while one
    // ran here, on a part's thousands of slots, absorb went on into code that had not run yet, and that code, kept,
    // stopped there for every part after: 10 times at each of two places in a run of a million requests.)
    mapEntries(part.entryEvents, eventMap, this.entryEvents.room(slots), base, slots);
    if (part.kinds === null) this.kinds.pushNone(slots);
    else pushKinds(this.kinds, part.kinds, slots);
    this.classes.push(part.className, slots);
    this.entryEvents.length = base + slots;
    const copy = (from: Float64Array, variables: number, to: GrowableFloat64[][], map: number[], width: number) => {
      const leaders = this.leadersOf(to);
      for (let v = 0; v < variables; v++) {
        const cols = this.columnsOf(to, map[v] as number, width);
        // Followers that follow here go on following while the part's values are their leaders' (followers.ts).
        for (let f = 0; f < width; f++) {
          const l = leaders[f] as number;
          if (l >= 0 && (cols[f] as GrowableFloat64).following && !sameValues(from, (v * width + f) * slots, from, (v * width + l) * slots, slots)) {
            unfollow(cols, leaders, base);
          }
        }
        for (let f = 0; f < width; f++) {
          const at = (v * width + f) * slots;
          const col = cols[f] as GrowableFloat64;
          if (col.following) continue;
          // Slots from `base` on hold no value yet (NaN): the part's column is copied as it is (missing = NaN),
          // and the column's length is what setting its present values one by one would have made it.
          let last = slots - 1;
          while (last >= 0 && Number.isNaN(from[at + last] as number)) last--;
          if (last < 0) continue;
          if (ahead > 0) col.reserve(ahead);
          col.copyIn(base, from.subarray(at, at + last + 1));
        }
      }
    };
    copy(part.eventValues, part.eventVariables, this.eventColumns, eventMap, EVENT_FEATURE_TYPES.length);
    copy(part.stateValues, part.stateVariables, this.stateColumns, stateMap, STATE_FEATURE_TYPES.length);
    if (part.sharedLengths !== undefined) this.adoptShared(part.sharedLengths, eventMap, stateMap, base);
    this.series.absorb(part, stateMap, this.keepSeries);
    this.unorderedInstances += part.unorderedInstances;
    if (part.emptyFile !== null) this.emptyFiles.push(part.emptyFile);
    if (part.namedInSlots === true || part.namedIds.length > 0) {
      const scan = this.namedElsewhere ??= new NamedScan(this.namedByClass.get(this.className === 'good' ? 'bad' : 'good'));
      if (part.namedInSlots === true) {
        // The slots of this export still to come, as many named at most (the first part of a whole class summarized elsewhere).
        scan.reserve(Math.max(slots, part.slotsAhead));
        pushNamed(scan, part.named, part.ids, slots);
      }
      for (const id of part.namedIds) scan.push(id);
    }
    const instMap = part.heldIds.map((id, j) => {
      this.instance(id, part.heldKinds[j]);
      return this.target;
    });
    this.target = -1;
    const held = part.heldCode.length;
    if (heldAhead > held) this.held.reserveMore(heldAhead);
    const code = this.held.code.room(held);
    const inst = this.held.inst.room(held);
    const at = this.held.code.length;
    // The usual case in one copy and one pass: the part numbers its variables as this collector does (it read
    // them in the same order), and names its instances one after another, each new here.
    if (isIdentity(eventMap) && isIdentity(stateMap)) code.set(part.heldCode, at);
    else renumberCodes(part.heldCode, code, at, eventMap, stateMap);
    const offset = instMap.length > 0 ? (instMap[0] as number) : 0;
    if (instMap.every((j, i) => j === offset + i)) {
      for (let i = 0; i < held; i++) inst[at + i] = (part.heldInst[i] as number) + offset;
    } else {
      for (let i = 0; i < held; i++) inst[at + i] = instMap[part.heldInst[i] as number] as number;
    }
    this.held.code.length = this.held.inst.length = at + held;
    this.held.t.append(part.heldT, held);
    this.held.v.append(part.heldV, held);
  }

  /** Records held for the instances named by `I` records in the class being read (summarized when it is finished). */
  get heldRecords(): number {
    return this.held.length;
  }

  /**
   * As absorbing `parts` one after another, for a fresh collector and parts
   * that hold nothing but named instances' records, each instance in one
   * part, the ids ascending within and across them (a rotated log's batches:
   * the worker's exportOwned): their records are not copied into one buffer
   * but summarized from each part's own arrays (taken over: codes renumbered
   * in place). False, with nothing changed, when they are not such parts.
   */
  absorbSegments(parts: readonly FileContribution[]): boolean {
    if (this.ids.length > 0 || this.heldIds.length > 0 || this.held.length > 0 || this.prepared !== null || parts.length === 0) return false;
    const className = (parts[0] as FileContribution).className;
    let last: string | null = null;
    for (const part of parts) {
      if (part.className !== className || part.ids.length > 0 || part.namedIds.length > 0) return false;
      const n = part.heldIds.length;
      if (n === 0) continue;
      // Its ids ascending as they were named: each instance's records are one run, in id order (see instance).
      if (part.heldAscending !== true || (last !== null && !((part.heldIds[0] as string) > last))) return false;
      last = part.heldIds[n - 1] as string;
    }
    const k = parts.reduce((n, part) => n + part.heldIds.length, 0);
    if (k === 0) return false;
    if (className !== this.className) {
      this.finishClass();
      this.className = className;
    }
    const start = new Int32Array(k + 1);
    const segments: HeldSegment[] = [];
    let from = 0;
    let base = 0;
    let named = 0;
    for (const part of parts) {
      const eventMap = part.eventNames.map((n) => this.events.id(n));
      const stateMap = part.stateNames.map((n) => this.states.id(n));
      const code = part.heldCode;
      if (!isIdentity(eventMap) || !isIdentity(stateMap)) renumberCodes(code, code, 0, eventMap, stateMap);
      // Each instance's records, counted, then their ends (the records are grouped: heldInst never decreases).
      named += runEnds(part.heldInst, start, from, part.heldIds.length);
      if (part.emptyFile !== null) this.emptyFiles.push(part.emptyFile);
      // (A part that names no instance adds no segment: each segment's `from` is past the one before.)
      if (part.heldIds.length > 0) segments.push({ from, base, code, t: part.heldT, v: part.heldV });
      from += part.heldIds.length;
      base += code.length;
    }
    // The kinds, each one's padded to its ids (the last ones may have none given), if any is given.
    if (this.heldKinds.length > 0 || parts.some((part) => part.heldKinds.length > 0)) {
      const padded = (kinds: readonly (string | null)[], n: number): (string | null)[] => [...kinds, ...new Array<null>(n - kinds.length).fill(null)];
      this.heldKinds = padded(this.heldKinds, this.heldIds.length).concat(...parts.map((part) => padded(part.heldKinds, part.heldIds.length)));
    }
    this.heldIds = this.heldIds.concat(...parts.map((part) => part.heldIds));
    this.heldAscending = true;
    this.prepared = { start, segments, order: null, named };
    return true;
  }

  get instanceCount(): number {
    return this.ids.length;
  }

  /** The slots this collector will hold once the class being read is finished (its named instances with records). */
  pendingSlots(): number {
    if (this.prepared !== null) return this.ids.length + this.prepared.named - this.cursorSlots;
    // Asked up to three times in a row by a worker (layout, useSharedColumns, exportWholeClass): counted once.
    this.dedupeHeld();
    const cached = this.pendingCount;
    if (cached !== null && cached.held === this.held && cached.records === this.held.length && cached.slots === this.ids.length) return cached.pending;
    const inst = this.held.inst.data;
    const seen = new Uint8Array(this.heldIds.length);
    let named = 0;
    for (let i = 0; i < this.held.length; i++) {
      const j = inst[i] as number;
      if (seen[j] === 0) {
        seen[j] = 1;
        named++;
      }
    }
    this.pendingCount = { held: this.held, records: this.held.length, slots: this.ids.length, pending: this.ids.length + named };
    return this.ids.length + named;
  }

  /**
   * The durations the slots of pendingSlots will have, in slot order (the
   * instances summarized so far, then the named ones with records in the
   * order finishClass takes them): each named instance's latest timestamp
   * less its earliest, as summarize computes it from the time-sorted records.
   */
  pendingDurations(): Float64Array {
    // Ids in ascending order: preparing is cheap (their records are grouped already), and done once.
    if (this.heldAscending) this.prepareClass();
    if (this.prepared !== null || this.held.length === 0) return this.durationsLeft();
    // Not prepared: straight from the held records as they are, in one pass (grouping a million hashed ids'
    // records first took ~0.3 s, while the other thread waited for these), then in the order of the slots.
    this.dedupeHeld();
    const k = this.heldIds.length;
    const lo = new Float64Array(k).fill(Number.POSITIVE_INFINITY);
    const hi = new Float64Array(k).fill(Number.NEGATIVE_INFINITY);
    const inst = this.held.inst.data;
    const t = this.held.t.data;
    for (let i = 0; i < this.held.length; i++) {
      const j = inst[i] as number;
      const x = t[i] as number;
      if (x < (lo[j] as number)) lo[j] = x;
      if (x > (hi[j] as number)) hi[j] = x;
    }
    const out = new Float64Array(this.pendingSlots());
    out.set(this.durations.data.subarray(0, this.ids.length));
    const order = this.heldAscending ? null : this.sortedHeld;
    let w = this.ids.length;
    for (let p = 0; p < k; p++) {
      const j = order === null ? p : (order[p] as number);
      if ((hi[j] as number) >= (lo[j] as number)) out[w++] = (hi[j] as number) - (lo[j] as number);
    }
    return out;
  }

  /** pendingDurations of a prepared class (or of none). */
  private durationsLeft(): Float64Array {
    const out = new Float64Array(this.pendingSlots());
    out.set(this.durations.data.subarray(0, this.ids.length));
    const prepared = this.prepared;
    if (prepared === null) return out;
    const k = this.heldIds.length;
    let w = this.ids.length;
    const at = new HeldCursor(prepared, k, this.cursor);
    for (let done = this.cursor; done < k; done++) {
      if (!at.at(done)) continue;
      const { t, from, to } = at;
      let lo = t[from] as number;
      let hi = lo;
      for (let i = from + 1; i < to; i++) {
        const x = t[i] as number;
        if (x < lo) lo = x;
        else if (x > hi) hi = x;
      }
      out[w++] = hi - lo;
    }
    return out;
  }

  /**
   * Before finishing the class being read: put every column in storage
   * shared with another thread, with room for `slots` more instances after
   * this class's, for a worker to summarize the next class straight into it
   * (useSharedColumns) instead of sending its values to be copied in (absorb).
   * The worker's variables are numbered here first, in its order, as absorb
   * would number them. Returns the worker's columns in its own numbering.
   */
  shareColumns(slots: number, eventNames: readonly string[], stateNames: readonly string[]): SharedColumns {
    const base = this.pendingSlots();
    const room = base + slots;
    const eventMap = eventNames.map((n) => this.events.id(n));
    const stateMap = stateNames.map((n) => this.states.id(n));
    // Every column in shared storage (those the other class names first made here), then each one's view.
    this.reserveShared(room);
    this.sharedInto = { next: base, end: room };
    // The other per-slot arrays too: the other thread's parts then find room, not a copy of this class's half.
    this.reserveSlots(room);
    const views = (cols: GrowableFloat64[] | undefined): Float64Array[] => (cols as GrowableFloat64[]).map((c) => c.data);
    return { base, slots, events: eventMap.map((v) => views(this.eventColumns[v])), states: stateMap.map((v) => views(this.stateColumns[v])) };
  }

  /** Room for `slots` slots in every per-slot array but the feature columns. */
  private reserveSlots(slots: number): void {
    for (const g of [this.durations, this.starts, this.recordCounts]) g.reserve(slots);
    for (const g of [this.entryEvents, this.named]) g.reserve(slots);
    this.kinds.reserve(slots);
    this.classes.reserve(slots);
    this.series.reserveSlots(slots);
  }

  /**
   * Put every column in shared storage with room for `room` slots now, before
   * this class is summarized, when another thread will be offered room after
   * it (shareColumns) and their number is only estimated yet: the values this
   * class writes meanwhile are not copied again then, if the room suffices.
   */
  reserveShared(room: number): void {
    const events = this.columnsUpTo(this.eventColumns, this.events.names.length, EVENT_FEATURE_TYPES.length);
    const states = this.columnsUpTo(this.stateColumns, this.states.names.length, STATE_FEATURE_TYPES.length);
    shareAll([...events, ...states].flat(), room);
  }

  /** The columns of variables [0, count) of eventColumns or stateColumns (made if not yet). */
  private columnsUpTo(all: GrowableFloat64[][], count: number, width: number): GrowableFloat64[][] {
    const out: GrowableFloat64[][] = [];
    for (let v = 0; v < count; v++) out.push(this.columnsOf(all, v, width));
    return out;
  }

  /**
   * Summarize the class being read into `shared` (another collector's
   * columns, see shareColumns): every variable of this class is known (its
   * records are all read), and its instances take `shared.slots` slots.
   */
  useSharedColumns(shared: SharedColumns): void {
    if (this.pendingSlots() !== shared.slots || shared.events.length !== this.events.names.length || shared.states.length !== this.states.names.length) {
      throw new Error('shared columns do not match the class read');
    }
    this.sharing = { columns: shared, sent: 0 };
    this.shareFrom(0);
  }

  /**
   * Each column as a view of its shared buffer from the slot of instance
   * `sent` of this collector's class (the slots before it handed on: see
   * clearSlots), holding the values it has (copied in).
   */
  private shareFrom(sent: number): void {
    const sharing = this.sharing as { readonly columns: SharedColumns; sent: number };
    sharing.sent += sent;
    const { base, slots } = sharing.columns;
    const from = sharing.sent;
    const use = (all: GrowableFloat64[][], views: readonly (readonly Float64Array[])[], width: number): void => {
      views.forEach((byFeature, v) => {
        const cols = this.columnsOf(all, v, width);
        byFeature.forEach((view, f) => (cols[f] as GrowableFloat64).moveTo(view.subarray(base + from, base + slots)));
      });
    };
    use(this.eventColumns, sharing.columns.events, EVENT_FEATURE_TYPES.length);
    use(this.stateColumns, sharing.columns.states, STATE_FEATURE_TYPES.length);
  }

  /**
   * exportWholeClass into shared columns (useSharedColumns): the instances
   * summarized in place, its parts and contribution without their values.
   */
  exportSharedClass(shared: SharedColumns, send: (part: FileContribution) => void): FileContribution {
    // Handed on in parts as usual (ids, durations, ...), so that they are taken in while this class is summarized.
    const contribution = this.exportWholeClass(send);
    for (const [all, views] of [[this.eventColumns, shared.events], [this.stateColumns, shared.states]] as const) {
      all.forEach((cols, v) => cols.forEach((c, f) => {
        // Storage that moved (grew) would not be the other thread's: never expected, but never silent.
        const view = views[v]?.[f];
        const { buffer, byteOffset, byteLength } = c.data;
        if (view === undefined || buffer !== view.buffer || byteOffset < view.byteOffset || byteOffset + byteLength > view.byteOffset + view.byteLength) {
          throw new Error('a shared column was moved while summarizing');
        }
      }));
    }
    return contribution;
  }

  /** absorb of a contribution summarized into this collector's shared columns (shareColumns). */
  private adoptShared(lengths: Int32Array, eventMap: readonly number[], stateMap: readonly number[], base: number): void {
    const into = this.sharedInto;
    if (into === null || base !== into.next) throw new Error(`a contribution summarized into shared columns at slot ${into?.next} came at slot ${base}`);
    let i = 0;
    for (const [all, map, width] of [[this.eventColumns, eventMap, EVENT_FEATURE_TYPES.length], [this.stateColumns, stateMap, STATE_FEATURE_TYPES.length]] as const) {
      const leaders = this.leadersOf(all);
      for (const v of map) {
        const cols = all[v] as GrowableFloat64[];
        const at = i;
        i += width;
        // Followers (followers.ts): the other thread wrote one (lengths > 0) where it stopped following.
        for (let f = 0; f < width; f++) {
          if ((leaders[f] as number) >= 0 && (lengths[at + f] as number) > 0 && (cols[f] as GrowableFloat64).following) unfollow(cols, leaders, base);
        }
        for (let f = 0; f < width; f++) {
          const n = lengths[at + f] as number;
          const col = cols[f] as GrowableFloat64;
          const l = leaders[f] as number;
          if (n > 0) col.adoptWritten(base, n);
          // One that followed there and not here: its leader's values (adopted just before: leaders come first).
          else if (l >= 0 && !col.following && (lengths[at + l] as number) > 0) {
            const leader = cols[l] as GrowableFloat64;
            col.copyIn(base, leader.data.subarray(base, base + (lengths[at + l] as number)));
          }
        }
      }
    }
    into.next = this.ids.length;
    // The other thread is done with them: they may grow (and move) again.
    if (into.next >= into.end) this.sharedInto = null;
  }

  private columnsOf(all: GrowableFloat64[][], v: number, width: number): GrowableFloat64[] {
    while (all.length <= v) {
      const cols = Array.from({ length: width }, () => new GrowableFloat64(16, Number.NaN, 2, this.slotRoom));
      follow(cols, this.leadersOf(all));
      all.push(cols);
    }
    return all[v] as GrowableFloat64[];
  }

  /** The followers' leaders (followers.ts) of eventColumns or stateColumns. */
  private leadersOf(all: GrowableFloat64[][]): readonly number[] {
    return leadersOf(all === this.eventColumns ? 'event' : 'state');
  }
}

/** Record codes in another numbering of the variables (eventMap, stateMap) into `to` from `at` on (in place: to = codes, at = 0). */
function renumberCodes(codes: Int32Array, to: Int32Array, at: number, eventMap: readonly number[], stateMap: readonly number[]): void {
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i] as number;
    to[at + i] = c >= 0 ? (eventMap[c] as number) : -1 - (stateMap[-1 - c] as number);
  }
}

/*
 * summarize's loops over an instance's records, each its own function: summarize runs once per
 * instance over thousands of records, so V8 optimizes it on-stack inside its first loop, before
 * the code after that loop has run, and each later part then deoptimizes it and recompiles the
 * whole method (the dlog set: 5–8 compiles of ~20 ms each per thread). Small loop functions are
 * optimized once each (docs/internals.md, "V8: keep what it compiles").
 */

/** The end of the run of records of inst[i]'s instance that starts at i (inst: held indices, n of them). */
function runEnd(inst: Int32Array, i: number, n: number): number {
  const h = inst[i];
  let e = i + 1;
  while (e < n && inst[e] === h) e++;
  return e;
}

/**
 * absorbSegments: the ends of `k` instances' records (their held indices
 * `inst`, which never decrease) into start[from + 1 …], after start[from];
 * returns how many have records. (Its own function, as the loops below.)
 */
function runEnds(inst: Int32Array, start: Int32Array, from: number, k: number): number {
  countRuns(inst, start, from);
  return cumulate(start, from, k);
}

/**
 * runEnds' records per instance, added to start[from + j + 1]. Each of
 * runEnds' loops is a function that returns right after it: V8 compiles a
 * long loop while it runs (on-stack replacement), and that code, going on
 * into the next loop or a call that had never run, stopped there on every
 * call (a million requests in 20 files a class: 20 stops a run;
 * docs/internals.md, "V8: keep what it compiles").
 */
function countRuns(inst: Int32Array, start: Int32Array, from: number): void {
  const n = inst.length;
  for (let i = 0; i < n;) {
    const j = inst[i] as number;
    const e = runEnd(inst, i, n);
    start[from + j + 1] = (start[from + j + 1] as number) + e - i;
    i = e;
  }
}

/** runEnds' counts into ends (start[from + j + 1] += start[from + j]); returns how many are not 0. */
function cumulate(start: Int32Array, from: number, k: number): number {
  let named = 0;
  for (let j = 0; j < k; j++) {
    if ((start[from + j + 1] as number) > 0) named++;
    start[from + j + 1] = (start[from + j + 1] as number) + (start[from + j] as number);
  }
  return named;
}

/** Records per bucket (count) and the buckets in order of first appearance (touched); returns how many. */
function countBuckets(code: Int32Array, from: number, n: number, order: Int32Array | null, nEvents: number, count: Int32Array, touched: Int32Array): number {
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
 * each event's gap, gap.after and wait (SPEC §2); returns the first event's variable (−1: none).
 */
function scatterRecords(code: Int32Array, ts: Float64Array, vs: Float64Array, from: number, n: number, order: Int32Array | null, t0: number, nEvents: number,
  fill: Int32Array, bt: Float64Array, bv: Float64Array, gapOf: Float64Array, gapAfterOf: Float64Array, waitOf: Float64Array): number {
  let previousEvent = Number.NaN;
  let previousCode = -1;
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
      // The first event's wait is 0: waitOf starts at 0 for every event.
      if (!Number.isNaN(previousEvent)) {
        const gap = tn - previousEvent;
        const best = gapOf[c] as number;
        if (Number.isNaN(best) || gap > best) gapOf[c] = gap;
        const after = gapAfterOf[previousCode] as number;
        if (Number.isNaN(after) || gap > after) gapAfterOf[previousCode] = gap;
        waitOf[c] = (waitOf[c] as number) + gap;
      }
      previousEvent = tn;
      previousCode = c;
    } else {
      bv[at] = vs[r] as number;
    }
  }
  return entry;
}

/** out = [min, max, sum] of values[from, to) (sum in index order). */
function minMaxSum(values: Float64Array, from: number, to: number, out: Float64Array): void {
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
function changePoints(bt: Float64Array, bv: Float64Array, begin: number, end: number, v: number, sVar: Int32Array, sT: Float64Array, sV: Float64Array, w: number): number {
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

/**
 * Every column of `columns` in shared storage with room for `room` slots:
 * those that are not yet moved into views of new SharedArrayBuffers, as many
 * columns per buffer as reserveTogether puts in one. One large mapping
 * instead of one per column: with huge pages (docs/internals.md, "Memory":
 * huge pages) each column's own mapping began and ended in small pages, 2 MB at
 * most at each end (a million requests with ids not in order: of the 155
 * blocks of 2 MiB written, 28 wholly in small pages and ~40 in part; 19 000
 * page faults more in all).
 */
function shareAll(columns: readonly GrowableFloat64[], room: number): void {
  placeTogether(columns.filter((c) => !(c.data.buffer instanceof SharedArrayBuffer && c.data.length >= room)), room, SharedArrayBuffer);
}

/**
 * Room for `slots` values in each column that has less, all of it in one
 * allocation (each column a view of its own range). One large allocation is
 * mapped by the system page by page as it is first written, so room never
 * written costs no memory and no time; separate allocations of a few MB each
 * may come from the C heap instead, which clears them in full first (seen
 * as ~0.4 s of 1 M slots × 90 columns on a thread that had freed large
 * buffers before).
 */
function reserveTogether(columns: readonly GrowableFloat64[], slots: number): void {
  placeTogether(columns.filter((c) => c.data.length < slots), slots, ArrayBuffer);
}

/** `columns` moved into views of `slots` values each of new buffers, at most RESERVE_MAX_BYTES each (one column at least), so no single allocation is huge. */
function placeTogether(columns: readonly GrowableFloat64[], slots: number, Buffer: typeof ArrayBuffer | typeof SharedArrayBuffer): void {
  const bytes = slots * Float64Array.BYTES_PER_ELEMENT;
  const perBuffer = Math.max(1, Math.floor(RESERVE_MAX_BYTES / bytes));
  for (let first = 0; first < columns.length; first += perBuffer) {
    const group = columns.slice(first, first + perBuffer);
    const buffer = new Buffer(group.length * bytes);
    group.forEach((c, i) => c.moveTo(new Float64Array(buffer, i * bytes, slots)));
  }
}
const RESERVE_MAX_BYTES = 1 << 30;

/**
 * A part whose slot ids were not sent with it (FileContribution.idsAhead),
 * with them: `ids`, its sender's named ids, in their sorted order `sorted`,
 * from place `from` on.
 */
export function withSlotIds(part: FileContribution, ids: readonly string[], sorted: Int32Array, from: number): FileContribution {
  const slots = part.durations.length;
  if (from + slots > sorted.length) throw new Error(`a part's ${slots} slots go past the ${sorted.length} ids named ahead (from ${from})`);
  const own = new Array<string>(slots);
  for (let i = 0; i < slots; i++) own[i] = ids[sorted[from + i] as number] as string;
  return { ...part, ids: own };
}

/** A contribution of class `className` that brings nothing (absorbing it changes nothing). */
export function emptyContribution(className: ClassName): FileContribution {
  return {
    className, eventNames: [], stateNames: [], ids: [],
    durations: new Float64Array(0), starts: new Float64Array(0), recordCounts: new Float64Array(0), kinds: null,
    entryEvents: new Int32Array(0), named: new Int32Array(0),
    eventValues: new Float64Array(0), eventVariables: 0, stateValues: new Float64Array(0), stateVariables: 0,
    seriesVar: new Int32Array(0), seriesT: new Float64Array(0), seriesV: new Float64Array(0), seriesStart: new Int32Array(0),
    unorderedInstances: 0, emptyFile: null,
    heldIds: [], heldKinds: [], heldCode: new Int32Array(0), heldT: new Float64Array(0), heldV: new Float64Array(0), heldInst: new Int32Array(0),
    namedIds: [], slotsAhead: 0,
  };
}

/** A contribution without its state change points (each slot's range empty): they stay, or are used, elsewhere. */
export function withoutPoints(c: FileContribution): FileContribution {
  return { ...c, seriesStart: new Int32Array(c.seriesStart.length), seriesVar: new Int32Array(0), seriesT: new Float64Array(0), seriesV: new Float64Array(0) };
}

/**
 * Each run of a contribution's change points — one state variable's points
 * [from, to) in one slot — in order: a run ends where the variable or the
 * slot changes (seriesStart: each slot's first point).
 */
export function forEachRun(seriesStart: Int32Array, vars: Int32Array, run: (slot: number, v: number, from: number, to: number) => void): void {
  const slots = seriesStart.length;
  const end = vars.length;
  for (let slot = 0; slot < slots; slot++) {
    let i = seriesStart[slot] as number;
    const stop = slot + 1 < slots ? (seriesStart[slot + 1] as number) : end;
    while (i < stop) {
      const v = vars[i] as number;
      let j = i;
      while (j < stop && vars[j] === v) j++;
      run(slot, v, i, j);
      i = j;
    }
  }
}

/** valueAt of the series t/v [from, to) (to > from), without views of it. */
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
function valueAtRecords(t: Float64Array, v: Float64Array, from: number, to: number, x: number): number {
  let i = indexAtIn(t, from, to, x);
  const value = v[i] as number;
  if (value !== 0) return value;
  while (i > from && v[i - 1] === 0) i--;
  return v[i] as number;
}

/** stats/sum.ts's finiteMean of values [from, to) whose sum is `sum`: the same arithmetic, on a range. */
function finiteMeanOf(values: Float64Array, from: number, to: number, sum: number): number {
  const n = to - from;
  if (Number.isFinite(sum)) return sum / n;
  let mean = 0;
  for (let i = from; i < to; i++) mean += (values[i] as number) / n;
  return mean;
}

/**
 * The value at time x of a series in time order: the last value logged at or
 * before x, or the first value when none is (SPEC §2).
 */
export function valueAt(t: ArrayLike<number>, v: ArrayLike<number>, n: number, x: number): number {
  let lo = 0;
  let hi = n; // first index with t > x
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((t[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? (v[0] as number) : (v[lo - 1] as number);
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
function timeOrder(ts: Float64Array, from: number, to: number, sc: SummaryScratch): Int32Array | null {
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

/** Change points per block: the smallest block, and the size blocks grow to (20 bytes a point). */
const SERIES_BLOCK_MIN = 4096;
const SERIES_BLOCK_MAX = 1 << 20;

/** One block of change points: state variable, time (relative to the instance's start), value. */
interface SeriesBlock {
  readonly v: Int32Array;
  readonly t: Float64Array;
  readonly x: Float64Array;
}

/**
 * State change points of every instance slot, in blocks that are never
 * copied: a slot's points lie in one block (the next block starts when an
 * instance might not fit), so growing costs no copy of what is held and no
 * page faults for memory written twice. Blocks double up to 2^20 points.
 */
class SeriesStore {
  private readonly blocks: SeriesBlock[] = [{ v: new Int32Array(0), t: new Float64Array(0), x: new Float64Array(0) }];
  private capacity = 0;
  /** The current (last) block's arrays and how many of its points are written. */
  blockVar = new Int32Array(0);
  blockT = new Float64Array(0);
  blockV = new Float64Array(0);
  used = 0;
  private readonly slotBlock = new GrowableInt32();
  private readonly slotStart = new GrowableInt32();
  private readonly slotEnd = new GrowableInt32();

  /**
   * Write into `other`'s current block from its start (this store new, `other`
   * not used after, its points sent out copied): a worker's batch after batch
   * goes on in the block the last one grew to, instead of allocating and
   * first writing its own.
   */
  reuseBlockOf(other: SeriesStore): void {
    if (this.blocks.length !== 1 || this.slotStart.length > 0) throw new Error('reuseBlockOf: this series store is in use');
    this.blocks[0] = other.blocks[other.blocks.length - 1] as SeriesBlock;
    this.capacity = other.blockVar.length;
    this.blockVar = other.blockVar;
    this.blockT = other.blockT;
    this.blockV = other.blockV;
    this.used = 0;
    other.blocks.length = 0;
  }

  /** Room for `slots` slots' ranges. */
  reserveSlots(slots: number): void {
    for (const g of [this.slotBlock, this.slotStart, this.slotEnd]) g.reserve(slots);
  }

  /** Room for n more points of one slot in the current block (call before beginSlot). */
  room(n: number): void {
    if (this.used + n <= this.blockVar.length) return;
    const size = Math.max(n, Math.min(SERIES_BLOCK_MAX, Math.max(SERIES_BLOCK_MIN, this.capacity)));
    const block = { v: new Int32Array(size), t: new Float64Array(size), x: new Float64Array(size) };
    this.blocks.push(block);
    this.capacity += size;
    this.blockVar = block.v;
    this.blockT = block.t;
    this.blockV = block.x;
    this.used = 0;
  }

  beginSlot(): void {
    this.slotBlock.push(this.blocks.length - 1);
    this.slotStart.push(this.used);
  }

  endSlot(): void {
    this.slotEnd.push(this.used);
  }

  blockOf(slot: number): SeriesBlock {
    return this.blocks[this.slotBlock.data[slot] as number] as SeriesBlock;
  }

  startOf(slot: number): number {
    return this.slotStart.data[slot] as number;
  }

  endOf(slot: number): number {
    return this.slotEnd.data[slot] as number;
  }

  /** The first `slots` slots' points, contiguous, as a FileContribution holds them (seriesStart: each slot's first). */
  pack(slots: number, memory: ExportMemory = ArrayBuffer): Pick<FileContribution, 'seriesVar' | 'seriesT' | 'seriesV' | 'seriesStart'> {
    const total = this.pointsOf(slots);
    const seriesVar = int32sIn(memory, total);
    const seriesT = float64sIn(memory, total);
    const seriesV = float64sIn(memory, total);
    const seriesStart = int32sIn(memory, slots);
    // No points (all dropped once their q*.abs were written): every slot's first is 0.
    if (total === 0) return { seriesVar, seriesT, seriesV, seriesStart };
    let w = 0;
    let s = 0;
    while (s < slots) {
      // A run of slots one after another in one block: one copy each.
      const block = this.slotBlock.data[s] as number;
      const from = this.startOf(s);
      let to = this.endOf(s);
      seriesStart[s] = w;
      let e = s + 1;
      while (e < slots && this.slotBlock.data[e] === block && this.startOf(e) === to) {
        seriesStart[e] = w + to - from;
        to = this.endOf(e);
        e++;
      }
      const b = this.blocks[block] as SeriesBlock;
      seriesVar.set(b.v.subarray(from, to), w);
      seriesT.set(b.t.subarray(from, to), w);
      seriesV.set(b.x.subarray(from, to), w);
      w += to - from;
      s = e;
    }
    return { seriesVar, seriesT, seriesV, seriesStart };
  }

  /**
   * The points of slots [0, slots). A function of its own: compiled while it
   * ran (on-stack replacement), this loop's code went on in `pack` to calls
   * that had never run and stopped there, on every pack (a million requests:
   * 11 stops a run).
   */
  private pointsOf(slots: number): number {
    let total = 0;
    for (let s = 0; s < slots; s++) total += this.endOf(s) - this.startOf(s);
    return total;
  }

  /** Append a contribution's slots and (with keep) their points, state variables renumbered by `stateMap`. */
  absorb(part: FileContribution, stateMap: readonly number[], keep: boolean): void {
    const n = keep ? part.seriesVar.length : 0;
    const slots = part.seriesStart.length;
    if (n > 0) this.room(n);
    const at = this.used;
    if (n > 0) {
      this.blockT.set(part.seriesT, at);
      this.blockV.set(part.seriesV, at);
      const to = this.blockVar;
      const from = part.seriesVar;
      for (let i = 0; i < n; i++) to[at + i] = stateMap[from[i] as number] as number;
      this.used = at + n;
    }
    const block = this.blocks.length - 1;
    for (let s = 0; s < slots; s++) {
      this.slotBlock.push(block);
      this.slotStart.push(n > 0 ? at + (part.seriesStart[s] as number) : at);
      this.slotEnd.push(n > 0 ? at + (s + 1 < slots ? (part.seriesStart[s + 1] as number) : n) : at);
    }
  }

  /** The first `slots` slots' points dropped (their q*.abs are written). */
  dropPoints(slots: number): void {
    for (let s = 0; s < slots; s++) this.slotEnd.data[s] = this.slotStart.data[s] as number;
  }

  /** Forget every slot (the current block is written again from its start). */
  clear(): void {
    const last = this.blocks[this.blocks.length - 1] as SeriesBlock;
    this.blocks.length = 0;
    this.blocks.push(last);
    this.capacity = last.v.length;
    this.used = 0;
    this.slotBlock.clear();
    this.slotStart.clear();
    this.slotEnd.clear();
  }
}

/** Buffers reused by every `summarize` call (grown, never shrunk). */
class SummaryScratch {
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

/** A class's ids named by `I` records: in order, whether strictly ascending, and a Set of them once one was needed. */
interface NamedIds {
  ids: string[];
  ascending: boolean;
  set: IdSet | null;
  /** The indices of `ids` in sorted order, when they do not ascend and it is known (from summarizing them). */
  sorted: Int32Array | null;
}

/** What a NamedIds' Set is used for. */
interface IdSet {
  has(id: string): boolean;
  add(id: string): void;
}

/** Whether a class's named ids ascend, and those the other class named too (NamedScan). */
interface ScanResult {
  readonly ascending: boolean;
  readonly shared: string[];
}

/** The part's entry events, renumbered by eventMap (−1 stays: none), into entries[base, base + slots). */
function mapEntries(from: Int32Array, eventMap: readonly number[], entries: Int32Array, base: number, slots: number): void {
  for (let i = 0; i < slots; i++) {
    const entry = from[i] as number;
    entries[base + i] = entry < 0 ? -1 : (eventMap[entry] as number);
  }
}

/** The part's slots' kinds, in order. */
function pushKinds(kinds: SlotKinds, from: readonly (string | null)[], slots: number): void {
  for (let i = 0; i < slots; i++) kinds.push(from[i] as string | null);
}

/** The ids of the part's slots named by `I` records, in slot order. */
function pushNamed(scan: NamedScan, named: Int32Array, ids: readonly string[], slots: number): void {
  for (let i = 0; i < slots; i++) if (named[i] === 1) scan.push(ids[i] as string);
}

/**
 * A class's ids named by `I` records, scanned: whether they ascend, and those
 * the other class named too, in this class's order (by a merge while both
 * lists ascend, one step per id, else through a Set of the other's: both find
 * the same ids, so switching from one to the other midway changes nothing but
 * the time). Ids that come in absorbed parts are scanned as they come
 * (`push`), so a class of a million instances summarized elsewhere is not
 * scanned whole after the thread that summarized it is done; finishClass
 * scans the others (`over`).
 */
class NamedScan {
  private ascending = true;
  /**
   * The ids pushed are list[0, size), the shared ones shared[0, sharedSize): room may be made ahead (reserve),
   * each array trimmed to its size when it is handed out.
   */
  private shared: string[] = [];
  private size: number;
  private sharedSize = 0;
  private readonly otherIds: readonly string[];
  private readonly otherLength: number;
  /** merge: while both lists ascend; set: through the other's Set; none: the other class named none. */
  private mode: 'merge' | 'set' | 'none';
  private p = 0;
  private set: IdSet | null = null;

  /** The list's sorted order, while its scan waits for `result` to be a merge of both sorted lists (withOrder). */
  private order: Int32Array | null = null;
  /** withOrder's merge, done when the scan was made. */
  private merged: ScanResult | null = null;

  constructor(private readonly other: NamedIds | undefined, private list: string[] = []) {
    this.size = list.length;
    this.otherIds = other?.ids ?? [];
    this.otherLength = this.otherIds.length;
    this.mode = other === undefined || this.otherLength === 0 ? 'none' : other.ascending && other.set === null ? 'merge' : 'set';
  }

  /** `ids` scanned whole (not copied) against `other`: whether they ascend, and those it names too. */
  static over(ids: readonly string[], other: NamedIds | undefined, order: Int32Array | null = null): ScanResult {
    const scan = order !== null ? NamedScan.withOrder(other, ids as string[], order) : new NamedScan(other, ids as string[]);
    if (order === null) for (let j = 0; j < ids.length; j++) scan.step(j);
    return scan.result(other) as ScanResult;
  }

  /**
   * `ids` (distinct, not copied) with their sorted order: scanned only when
   * the result is asked, by merging the two lists in sorted order when the
   * other's is known too (no Set of a million ids built and looked up),
   * else one by one as usual.
   */
  static withOrder(other: NamedIds | undefined, ids: string[], order: Int32Array): NamedScan {
    const scan = new NamedScan(other, ids);
    scan.order = order;
    // Merged now, when the other's order is known (the main thread takes a worker's ids in while it waits for the
    // worker's parts): not after the worker's last part.
    scan.merged = scan.byOrder(other);
    return scan;
  }

  /** The result from both lists in sorted order (sharedBySort), or null when the other's order is not known. */
  private byOrder(other: NamedIds | undefined): ScanResult | null {
    const order = this.order as Int32Array;
    const theirs = other === undefined || other.ascending ? null : other.sorted;
    if (this.mode !== 'none' && theirs === null && other?.ascending !== true) return null;
    return { ascending: isIdentityOrder(order), shared: this.mode === 'none' ? [] : sharedBySort(this.list, order, this.otherIds, theirs) };
  }

  /** The ids pushed (the list a finished class keeps: the scan is not used after). */
  get ids(): string[] {
    if (this.list.length !== this.size) this.list.length = this.size;
    return this.list;
  }

  /**
   * Room for `n` ids to be pushed, before the first: a million pushes into
   * arrays that grow as they come cost ~3× filling arrays made at their size
   * (each growth a copy into memory written for the first time).
   */
  reserve(n: number): void {
    if (this.size > 0 || this.list.length > 0 || this.order !== null || n <= 0) return;
    this.list = new Array<string>(n);
    if (this.mode !== 'none') this.shared = new Array<string>(Math.min(n, this.otherLength));
  }

  private share(id: string): void {
    if (this.sharedSize < this.shared.length) this.shared[this.sharedSize] = id;
    else this.shared.push(id);
    this.sharedSize++;
  }

  /** The sorted order of `ids`, when they came with it and nothing was pushed after. */
  get sortedOrder(): Int32Array | null {
    return this.order;
  }

  push(id: string): void {
    if (this.order !== null) this.scanAll();
    if (this.size < this.list.length) this.list[this.size] = id;
    else this.list.push(id);
    this.step(this.size++);
  }

  /** The ids that came with their order, scanned one by one after all (more are pushed). */
  private scanAll(): void {
    this.order = null;
    this.merged = null;
    for (let j = 0; j < this.size; j++) this.step(j);
  }

  /** The id at `j`, after those before it. */
  private step(j: number): void {
    const ids = this.list;
    const id = ids[j] as string;
    if (this.ascending && j > 0 && !(id > (ids[j - 1] as string))) {
      this.ascending = false;
      if (this.mode === 'merge') this.toSet(j);
    }
    if (this.mode === 'set') {
      if ((this.set ??= (this.other as NamedIds).set ??= new Set(this.otherIds)).has(id)) this.share(id);
    } else if (this.mode === 'merge') {
      const theirs = this.otherIds;
      // Equal first: the two classes often name the same ids (one comparison each instead of two).
      if (theirs[this.p] === id) {
        this.share(id);
        this.p++;
        return;
      }
      while (this.p < this.otherLength && (theirs[this.p] as string) < id) this.p++;
      // (Past their last id, no later id of an ascending list can be theirs: each step costs one comparison.)
      if (this.p < this.otherLength && theirs[this.p] === id) this.share(id);
    }
  }

  /** The ids stopped ascending at `j`: those before it looked up again, the rest as they come. */
  private toSet(j: number): void {
    this.mode = 'set';
    const set = (this.set = (this.other as NamedIds).set ??= new Set(this.otherIds));
    this.sharedSize = 0;
    for (let i = 0; i < j; i++) if (set.has(this.list[i] as string)) this.share(this.list[i] as string);
  }

  /**
   * Whether the ids ascend, and those the other class named too, when
   * `other` (its ids when this class is finished) is what they were scanned
   * against, unchanged; else null (scan them again).
   */
  result(other: NamedIds | undefined): ScanResult | null {
    const same = other === this.other && (other === undefined || (other.ids === this.otherIds && other.ids.length === this.otherLength));
    if (!same) return null;
    if (this.order !== null) {
      const merged = this.merged ?? this.byOrder(other);
      if (merged !== null) return merged;
      this.scanAll();
    }
    if (this.shared.length !== this.sharedSize) this.shared.length = this.sharedSize;
    return { ascending: this.ascending, shared: this.shared };
  }
}

/** Whether order[i] is i for every i. */
function isIdentityOrder(order: Int32Array): boolean {
  for (let i = 0; i < order.length; i++) if (order[i] !== i) return false;
  return true;
}

/**
 * The ids of `mine` (distinct) that `theirs` (distinct) holds too, in
 * `mine`'s order: both walked in sorted order (`myOrder`; `theirOrder`, null
 * when `theirs` ascends), each step one comparison, the matches marked.
 */
function sharedBySort(mine: readonly string[], myOrder: Int32Array, theirs: readonly string[], theirOrder: Int32Array | null): string[] {
  const marked = new Uint8Array(mine.length);
  let found = 0;
  for (let p = 0, q = 0; p < mine.length && q < theirs.length;) {
    const j = myOrder[p] as number;
    const a = mine[j] as string;
    const b = theirs[theirOrder === null ? q : (theirOrder[q] as number)] as string;
    if (a === b) {
      marked[j] = 1;
      found++;
      p++;
      q++;
    } else if (a < b) {
      p++;
    } else {
      q++;
    }
  }
  const shared: string[] = [];
  for (let j = 0; j < mine.length && shared.length < found; j++) if (marked[j] === 1) shared.push(mine[j] as string);
  return shared;
}

/** Whether map[i] is i for every i. */
function isIdentity(map: readonly number[]): boolean {
  for (let i = 0; i < map.length; i++) if (map[i] !== i) return false;
  return true;
}

/** Each held index's place in `order` (its inverse). */
function rankOf(order: Int32Array): Int32Array {
  const rank = new Int32Array(order.length);
  for (let p = 0; p < order.length; p++) rank[order[p] as number] = p;
  return rank;
}

/**
 * Indices of `ids` in code-unit order, equal ids in index order (dedupeHeld
 * relies on it: every pass is stable); an O(n) check first (ids
 * often come in order). Many ids are ordered by the code units after the
 * prefix they all share, as numbers (a radix sort: RADIX_DIGITS stable passes
 * over 16-bit digits, each two code units where all are below 256, else one),
 * and only ids equal in those by comparing them: a comparator sort of a
 * million random ids takes ~0.5 s, this a tenth.
 */
function sortedOrder(ids: readonly string[]): Int32Array {
  const n = ids.length;
  const order = new Int32Array(n);
  let inOrder = true;
  for (let j = 0; j < n; j++) {
    order[j] = j;
    if (j > 0 && inOrder) inOrder = (ids[j - 1] as string) <= (ids[j] as string);
  }
  if (inOrder) return order;
  if (n < RADIX_MIN_IDS) return order.sort((a, b) => compare(ids[a] as string, ids[b] as string));
  const from = sharedPrefixLength(ids);
  const digits = Array.from({ length: RADIX_DIGITS }, () => new Uint16Array(n));
  // A code unit past an id's end reads as 0: a shorter id ties with one that has a 0 there (ties are compared whole).
  const unit = (id: string, at: number): number => (at < id.length ? id.charCodeAt(at) : 0);
  let narrow = true;
  for (let j = 0; j < n && narrow; j++) {
    const id = ids[j] as string;
    for (let c = 0; c < 2 * RADIX_DIGITS; c++) if (unit(id, from + c) > 0xff) narrow = false;
  }
  for (let j = 0; j < n; j++) {
    const id = ids[j] as string;
    for (let d = 0; d < RADIX_DIGITS; d++) {
      (digits[d] as Uint16Array)[j] = narrow ? (unit(id, from + 2 * d) << 8) | unit(id, from + 2 * d + 1) : unit(id, from + d);
    }
  }
  let a = order;
  let b = new Int32Array(n);
  const count = new Int32Array(0x10001);
  for (let d = RADIX_DIGITS - 1; d >= 0; d--) {
    const digit = digits[d] as Uint16Array;
    count.fill(0);
    for (let i = 0; i < n; i++) count[(digit[a[i] as number] as number) + 1]++;
    for (let c = 0; c < 0x10000; c++) count[c + 1] = (count[c + 1] as number) + (count[c] as number);
    for (let i = 0; i < n; i++) {
      const j = a[i] as number;
      b[count[digit[j] as number]++] = j;
    }
    [a, b] = [b, a];
  }
  // Runs of ids equal in their digits: compared whole.
  for (let i = 0; i < n;) {
    let e = i + 1;
    while (e < n && sameDigits(digits, a[i] as number, a[e] as number)) e++;
    if (e - i > 1) a.subarray(i, e).sort((x, y) => compare(ids[x] as string, ids[y] as string));
    i = e;
  }
  return a;
}

function sameDigits(digits: readonly Uint16Array[], x: number, y: number): boolean {
  for (const digit of digits) if (digit[x] !== digit[y]) return false;
  return true;
}

/** Below this many ids a comparator sort is as fast as the radix passes; the passes (16-bit digits) per id. */
const RADIX_MIN_IDS = 4096;
const RADIX_DIGITS = 4;

/** The length of the prefix every id starts with. */
function sharedPrefixLength(ids: readonly string[]): number {
  const first = ids[0] as string;
  let length = first.length;
  for (let j = 1; j < ids.length && length > 0; j++) {
    const id = ids[j] as string;
    let c = 0;
    while (c < length && c < id.length && id.charCodeAt(c) === first.charCodeAt(c)) c++;
    length = c;
  }
  return length;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

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
