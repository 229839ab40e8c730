import { float64sIn, GrowableFloat64, prefixIn } from '../memory/growable.js';
import { SlotKinds } from './slot-labels.js';
import { pushAll } from '../memory/lists.js';
import { EVENT_FEATURE_TYPES, STATE_FEATURE_TYPES } from './types.js';
import { follow, sameValues, unfollow } from './followers.js';
import { type HeldSegment, InstanceIntake } from './intake.js';
import type { FileContribution, SharedColumns } from './contribution.js';
import { shareAll } from '../memory/placement.js';
import { runEnd } from './summary-loops.js';
import { NamedScan } from './named-ids.js';

/**
 * The collector of features (SPEC §2) that reads run through: an
 * InstanceIntake (records in, instances summarized into FeatureColumns) that
 * also hands what it holds to another collector and takes in another's, so
 * that files read on other threads (read/parallel/) end up as if read here:
 * contributions exported (exportFile, exportWholeClass) and absorbed in file
 * order (absorb, absorbSegments), columns shared for a worker to summarize
 * into (shareColumns, useSharedColumns).
 */
export class FeatureCollector extends InstanceIntake {
  /** exportWholeClass: the class's named instances are its named slots, in order (FileContribution.namedInSlots). */
  private namedInSlots = false;
  /** namedIdsAhead: the class's named ids were handed on ahead of its contribution. */
  private namedSent = false;
  /** namedOrderAhead: the slots exportWholeClass fills are those ids in that order (FileContribution.idsAhead). */
  private idsAhead = false;
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
    const fromSpans = this.spanEventList();
    return {
      className: this.className,
      eventNames: [...this.events.names],
      stateNames: [...this.states.names],
      ...(fromSpans.length > 0 ? { eventsFromSpans: fromSpans } : {}),
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
  protected clearSlots(): void {
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
    for (const e of part.eventsFromSpans ?? []) this.markSpanEvent(eventMap[e] as number);
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
      for (const e of part.eventsFromSpans ?? []) this.markSpanEvent(eventMap[e] as number);
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
}

/** Record codes in another numbering of the variables (eventMap, stateMap) into `to` from `at` on (in place: to = codes, at = 0). */
export function renumberCodes(codes: Int32Array, to: Int32Array, at: number, eventMap: readonly number[], stateMap: readonly number[]): void {
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i] as number;
    to[at + i] = c >= 0 ? (eventMap[c] as number) : -1 - (stateMap[-1 - c] as number);
  }
}

/**
 * absorbSegments: the ends of `k` instances' records (their held indices
 * `inst`, which never decrease) into start[from + 1 …], after start[from];
 * returns how many have records. (Its own function, as the loops below.)
 */
export function runEnds(inst: Int32Array, start: Int32Array, from: number, k: number): number {
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
export function countRuns(inst: Int32Array, start: Int32Array, from: number): void {
  const n = inst.length;
  for (let i = 0; i < n;) {
    const j = inst[i] as number;
    const e = runEnd(inst, i, n);
    start[from + j + 1] = (start[from + j + 1] as number) + e - i;
    i = e;
  }
}

/** runEnds' counts into ends (start[from + j + 1] += start[from + j]); returns how many are not 0. */
export function cumulate(start: Int32Array, from: number, k: number): number {
  let named = 0;
  for (let j = 0; j < k; j++) {
    if ((start[from + j + 1] as number) > 0) named++;
    start[from + j + 1] = (start[from + j + 1] as number) + (start[from + j] as number);
  }
  return named;
}

/** The part's entry events, renumbered by eventMap (−1 stays: none), into entries[base, base + slots). */
export function mapEntries(from: Int32Array, eventMap: readonly number[], entries: Int32Array, base: number, slots: number): void {
  for (let i = 0; i < slots; i++) {
    const entry = from[i] as number;
    entries[base + i] = entry < 0 ? -1 : (eventMap[entry] as number);
  }
}

/** The part's slots' kinds, in order. */
export function pushKinds(kinds: SlotKinds, from: readonly (string | null)[], slots: number): void {
  for (let i = 0; i < slots; i++) kinds.push(from[i] as string | null);
}

/** The ids of the part's slots named by `I` records, in slot order. */
export function pushNamed(scan: NamedScan, named: Int32Array, ids: readonly string[], slots: number): void {
  for (let i = 0; i < slots; i++) if (named[i] === 1) scan.push(ids[i] as string);
}

/** Whether map[i] is i for every i. */
export function isIdentity(map: readonly number[]): boolean {
  for (let i = 0; i < map.length; i++) if (map[i] !== i) return false;
  return true;
}
