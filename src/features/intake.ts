/**
 * Taking in records (RecordSink, and the fast lane RecordIntake): a file's own
 * instance held until the file ends, instances named by `I` records held by
 * instance until their class ends, then summarized (feature-columns.ts).
 */
import { type InputFile, STREAMED_MIN_BYTES } from '../parse/files.js';
import type { ClassSink } from '../parse/reader.js';
import { type ClassName, type RecordIntake, RereadFile } from '../parse/records.js';
import { type ExportMemory, freeNow } from '../memory/growable.js';
import { pushAll } from '../memory/lists.js';
import { EVENT_FEATURE_TYPES, STATE_FEATURE_TYPES } from './types.js';
import { StreamedInstance } from './streamed.js';
import type { FileContribution } from './contribution.js';
import { RecordBuffer } from '../memory/record-buffer.js';
import { runEnd } from './summary-loops.js';
import { type NamedIds, NamedScan, rankOf, sortedOrder } from './named-ids.js';
import { FeatureColumns } from './feature-columns.js';

/** Instances summarized at the end of a class before its dense columns are grown to their final size. */
const RESERVE_AFTER = 1024;

/** Bytes per record assumed to size the held records from a file's size (dlog records are ~20–40 bytes a line). */
const HELD_BYTES_PER_RECORD = 16;

/** Instances per part handed on by exportWholeClass: at most this many, ... */
const FLUSH_SLOTS = 1 << 16;
/** ... and fewer when a part's feature values would exceed this many bytes (many variables), down to FLUSH_SLOTS_MIN. */
const FLUSH_BYTES = 32 << 20;
const FLUSH_SLOTS_MIN = 1024;

/**
 * The held records of a prepared class, grouped by instance, in one or more
 * runs of arrays: instances from `from` on (in summarizing order) have their
 * records in these arrays, at their `start` less `base`.
 */
export interface HeldSegment {
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
export interface PreparedClass {
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
 * its class — so memory grows with the largest instance, not the input.
 */
export abstract class InstanceIntake extends FeatureColumns implements ClassSink, RecordIntake {
  /** Files still to come into this collector (expectFiles), and those begun since: beginFile counts them. */
  protected filesLeft = 0;
  protected filesBegun = 0;

  /** Instance ids named by `I` records in both classes. */
  get sharedIds(): string[] {
    return this.shared;
  }

  protected fileDefaultId = '';
  protected fileBuffer = new RecordBuffer();
  /** The file being read, summarized as it is read (null: its records are held); the one to hold when read again. */
  protected streamed: StreamedInstance | null = null;
  protected rereading: string | null = null;
  /** The least file size summarized as it is read (STREAMED_MIN_BYTES; tests set it lower). */
  streamedMinBytes = STREAMED_MIN_BYTES;
  protected fileRecords = 0;
  /**
   * Until the current file's first `I` record (see instance): its size, or the
   * bytes of its class from it on when larger (expectClassBytes).
   */
  protected fileBytes = 0;
  /** The bytes of the class being read in files not begun yet, as expectClassBytes foretold them. */
  protected classBytesLeft = 0;
  /** Instances named by `I` records in the current class: held until the class ends. */
  protected held: RecordBuffer;
  protected heldIds: string[] = [];
  /**
   * heldIds' kinds up to the last one given (null before it), none beyond: a
   * million request ids without kinds hold no array of a million nulls
   * (grown by copying into new memory, a page fault each 4 KB). See heldKind.
   */
  protected heldKinds: (string | null)[] = [];
  protected heldAscending = true;
  /** dedupeHeld: heldIds in sorted order (indices), once they are each named once; null until then. */
  protected sortedHeld: Int32Array | null = null;
  protected shared: string[] = [];
  /** Ids named by `I` records per class (see NamedScan). */
  protected namedByClass = new Map<ClassName, NamedIds>();
  /** -1: the file's own instance; otherwise an index into heldIds. */
  protected target = -1;
  /** exportWholeClass: receives the summarized instances in parts while the class is finished. */
  protected onFlush: ((part: FileContribution) => void) | null = null;
  /** Ids of instances of the current class named by `I` records and summarized by a worker (see absorb). */
  protected namedElsewhere: NamedScan | null = null;
  /**
   * Slots the next class is known to bring (absorb: a worker's export of it
   * says how many): finishing this class makes room for them too, so the
   * columns are allocated once at their final size instead of being copied
   * into twice-larger ones when the next class's first part comes in.
   */
  protected slotsAfterClass = 0;
  /** prepareClass: finishClass's first steps, done ahead. */
  protected prepared: PreparedClass | null = null;
  /** summarizeSome: the prepared instances summarized so far (in id order), and the slots they took. */
  protected cursor = 0;
  protected cursorSlots = 0;
  /** pendingSlots' last count, and what it was counted over (the held records and the slots then). */
  protected pendingCount: { readonly held: RecordBuffer; readonly records: number; readonly slots: number; readonly pending: number } | null = null;
  /**
   * keepSeries: see FeatureColumns.
   *
   * exportMemory: where exportFile makes what it returns, and the held
   * records it may hand over. A worker's collector makes them in
   * SharedArrayBuffers, so that they cross to the main thread shared,
   * neither copied nor moved: a move (a transfer list) detaches the
   * sender's buffer, and V8 then recompiles every typed-array access of that
   * thread with a check for it (a parsing thread 6–14 % slower from then on;
   * docs/internals.md, "Threads").
   */
  constructor(keepSeries = true, protected readonly exportMemory: ExportMemory = ArrayBuffer) {
    super(keepSeries);
    this.held = new RecordBuffer(exportMemory);
  }

  /**
   * Take over the summaries' scratch buffers and the file buffer of `other`,
   * which is not used after (a worker's collector per batch): they are sized
   * for its largest instance already, and new ones would be memory written
   * for the first time again, a page fault each 4 KB. Its change points'
   * last block too: what it held of them went out copied (pack).
   */
  reuseBuffersOf(other: InstanceIntake): void {
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
      eventFromSpans: (n) => this.eventFromSpans(n),
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
      streamed.spanOf = this.spanMarks(this.events.names.length);
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

  protected prepare(): PreparedClass {
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
  protected slotsAfter(k: number): number {
    if (this.slotsAfterClass > 0) return this.slotsAfterClass;
    return this.className === 'good' ? k : 0;
  }

  /**
   * Instances per part handed on (exportWholeClass): FLUSH_SLOTS, or as many
   * as keep a part's packed feature values (8 bytes per column and slot)
   * within FLUSH_BYTES, so the parts a worker may send ahead (PARTS_AHEAD)
   * stay within a bound whatever the number of variables.
   */
  protected flushSlots(): number {
    const columns = this.events.names.length * EVENT_FEATURE_TYPES.length + this.states.names.length * STATE_FEATURE_TYPES.length;
    return Math.max(FLUSH_SLOTS_MIN, Math.min(FLUSH_SLOTS, Math.floor(FLUSH_BYTES / (8 * Math.max(1, columns)))));
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
  protected groupHeldByInstance(start: Int32Array, rank: Int32Array | null): { code: Int32Array; t: Float64Array; v: Float64Array } {
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
  protected heldKind(j: number): string | null {
    return this.heldKinds[j] ?? null;
  }

  /** Held instance j is of kind `kind` (the ones before it without a kind given, null). */
  protected giveKind(j: number, kind: string): void {
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
  protected dedupeHeld(): void {
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

  /** RecordSink.eventFromSpans: numbered as its first record would number it, and marked. */
  eventFromSpans(name: string): void {
    this.markSpanEvent(this.events.id(name));
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
      this.streamed.spanOf = this.spanMarks(this.events.names.length);
      this.streamed.add(code, t, v, n);
      return;
    }
    const b = this.target < 0 ? this.fileBuffer : this.held;
    b.code.append(code, n);
    b.t.append(t, n);
    b.v.append(v, n);
    if (this.target >= 0) b.inst.repeat(this.target, n);
  }

  protected add(code: number, t: number, v: number): void {
    this.fileRecords++;
    if (this.streamed !== null) {
      const one = this.scratch.one;
      one.code[0] = code;
      one.t[0] = t;
      one.v[0] = v;
      this.streamed.spanOf = this.spanMarks(this.events.names.length);
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

  /** Records held for the instances named by `I` records in the class being read (summarized when it is finished). */
  get heldRecords(): number {
    return this.held.length;
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
  protected durationsLeft(): Float64Array {
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

  /** FeatureCollector's: this collector's summaries handed on as a part (exportWholeClass), then forgotten. */
  abstract exportFile(withHeld?: boolean, slotsAhead?: number, handOver?: boolean): FileContribution;
  protected abstract clearSlots(): void;
}
