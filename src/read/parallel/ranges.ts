/**
 * One large dlog file (a class's only input) read by several threads, each a
 * byte range cut at line starts, with the result of a sequential read. Two
 * phases (see docs/internals.md, "Threads"):
 *
 * 1. Each worker parses its range into a compact record store and reports
 *    the instance ids its `I` records name (in order of first appearance),
 *    its variable names, its last id, and how many records come before its
 *    first `I` record (they continue the instance the previous range ended in).
 * 2. The main thread marks the ids that are not one range's alone: named in
 *    more than one range, or continued into the next range. Each worker
 *    summarizes its other instances itself (in parts, as for a whole class)
 *    and sends the marked ones' records raw; the main thread absorbs range
 *    by range, so those records meet in input order and it summarizes them.
 *
 * Variable names are interned here in the sequential read's order (range by
 * range, each in order of first appearance) before anything is absorbed.
 * Anything irregular — a line that is not a record, an error, a first range
 * with no `I` record (the file's own instance would span ranges) — falls back
 * to reading the file from the start on this thread, so counts, examples and
 * messages are the sequential read's by construction.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import { killProcessGroups, processGroupTable } from '../../cleanup.js';
import { InputError } from '../../errors.js';
import { FeatureCollector } from '../../features/collector.js';
import type { FileContribution } from '../../features/contribution.js';
import { GrowableFloat64, GrowableInt32 } from '../../memory/growable.js';
import { readDlogFast } from '../../parse/fast/dlog-fast.js';
import { plainFile, type InputFile } from '../../parse/files.js';
import type { ReadStats } from '../../parse/reader.js';
import type { ClassName, RecordIntake, RecordSink } from '../../parse/records.js';
import type { WorkerInit } from './worker-init.js';
import { parsingWorker } from './threads.js';

/** A file is split only from this size on: below it one thread reads it faster than several start. */
export const SPLIT_MIN_BYTES = 16 * 1024 * 1024;
const NAMED_FORMATS = /\.(csv|tsv|json|jsonl|ndjson)$/i;

/** Phase 1: read bytes [start, end) of `file`. */
export interface RangeTask {
  readonly type: 'range';
  /** Which split file (one pool of workers reads them in turn). */
  readonly split: number;
  readonly range: number;
  readonly file: InputFile;
  readonly className: ClassName;
  readonly start: number;
  readonly end: number;
}

/** Phase 1's answer. `regular` false: a skipped line or an error; the file is read again sequentially. */
export interface RangeSummary {
  readonly type: 'range-read';
  readonly split: number;
  readonly range: number;
  readonly regular: boolean;
  readonly bytes: number;
  readonly lines: number;
  readonly records: number;
  /** Records before the range's first `I` record. */
  readonly leading: number;
  /** Ids of the range's `I` records, in order of first appearance; the last one named. */
  readonly ids: readonly string[];
  readonly lastId: string | null;
  readonly eventNames: readonly string[];
  readonly stateNames: readonly string[];
}

/** Phase 2: the range's ids that are not its own alone, and the id its leading records continue. */
export interface RangeSplit {
  readonly type: 'range-split';
  readonly split: number;
  readonly shared: readonly string[];
  readonly carry: string | null;
}

export interface RangeDone {
  readonly type: 'range-done';
  readonly split: number;
  readonly range: number;
  /** The instances summarized in the worker (and, in the first range, the file's own instance). */
  readonly local: FileContribution;
  /** The raw records of the shared instances (held, not summarized). */
  readonly shared: FileContribution;
}

/** I records are stored as this code, with the id's index as their instance. */
const INSTANCE_OP = 0x7fffffff;

/**
 * A range's records, in input order: code (event e ≥ 0, state −1−s, or INSTANCE_OP), instance (−1: before any I), t, v.
 * Its own intake too (RecordIntake: the same codes), so the dlog reader hands it records in batches by
 * variable number rather than one call and one name lookup each (a split file of 500 000 requests: parse −5 %).
 */
class RangeStore implements RecordSink, RecordIntake {
  readonly intake: RecordIntake = this;
  readonly ids: string[] = [];
  readonly idIndex = new Map<string, number>();
  readonly eventNames: string[] = [];
  readonly stateNames: string[] = [];
  private readonly events = new Map<string, number>();
  private readonly states = new Map<string, number>();
  readonly code = new GrowableInt32(1024);
  readonly inst = new GrowableInt32(1024);
  readonly t = new GrowableFloat64(1024);
  readonly v = new GrowableFloat64(1024);
  readonly kinds: (string | null)[] = [];
  /** Records stored (I records not counted). */
  recordCount = 0;
  leading = 0;
  private target = -1;

  instance(id: string, kind?: string): void {
    let j = this.idIndex.get(id);
    if (j === undefined) {
      j = this.ids.length;
      this.ids.push(id);
      this.idIndex.set(id, j);
    }
    this.target = j;
    this.push(INSTANCE_OP, 0, 0);
    this.kinds.push(kind ?? null);
  }

  event(t: number, name: string): void {
    this.record(this.eventVariable(name), t, 0);
  }

  state(t: number, name: string, value: number): void {
    this.record(-1 - this.stateVariable(name), t, value);
  }

  eventVariable(name: string): number {
    let e = this.events.get(name);
    if (e === undefined) {
      e = this.eventNames.length;
      this.events.set(name, e);
      this.eventNames.push(name);
    }
    return e;
  }

  stateVariable(name: string): number {
    let s = this.states.get(name);
    if (s === undefined) {
      s = this.stateNames.length;
      this.states.set(name, s);
      this.stateNames.push(name);
    }
    return s;
  }

  /** A batch of records (RecordIntake): as `record` for each, in one copy per array. */
  records(code: Int32Array, t: Float64Array, v: Float64Array, n: number): void {
    this.recordCount += n;
    if (this.target < 0) this.leading += n;
    this.code.append(code, n);
    this.t.append(t, n);
    this.v.append(v, n);
    const inst = this.inst.room(n);
    inst.fill(this.target, this.inst.length, this.inst.length + n);
    this.inst.length += n;
  }

  private record(code: number, t: number, v: number): void {
    this.recordCount++;
    if (this.target < 0) this.leading++;
    this.push(code, t, v);
  }

  private push(code: number, t: number, v: number): void {
    this.code.push(code);
    this.inst.push(this.target);
    this.t.push(t);
    this.v.push(v);
  }
}

// ---------------------------------------------------------------- worker side

/** Per split file: the range this worker read, until phase 2. */
const stored = new Map<number, { store: RangeStore; task: RangeTask }>();

/** Phase 1 in a worker: parse the range into a RangeStore (kept for phase 2). */
export async function readRange(t: RangeTask, onBytes: (n: number) => void): Promise<RangeSummary> {
  const s = new RangeStore();
  stored.set(t.split, { store: s, task: t });
  let regular = true;
  let r = { bytes: 0, lines: 0 };
  try {
    const stream = createReadStream(t.file.path, { start: t.start, end: t.end - 1, highWaterMark: 1 << 20 });
    r = await readDlogFast(t.file, s, () => { regular = false; }, onBytes, stream);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    regular = false;
  }
  return {
    type: 'range-read', split: t.split, range: t.range, regular, bytes: r.bytes, lines: r.lines, records: s.recordCount, leading: s.leading,
    ids: s.ids, lastId: s.ids.length > 0 ? (s.ids[s.inst.data[lastInstanceOp(s)] as number] as string) : null,
    eventNames: s.eventNames, stateNames: s.stateNames,
  };
}

/** Index of the store's last I record (the store has one). */
function lastInstanceOp(s: RangeStore): number {
  for (let i = s.code.length - 1; i >= 0; i--) if (s.code.data[i] === INSTANCE_OP) return i;
  return -1;
}

/**
 * Phase 2 in a worker: replay the stored records in input order into two
 * collectors — the range's own instances (summarized here, handed on in
 * parts through `send`) and the shared ones (exported raw, with the leading
 * records under the id they continue).
 */
export function splitRange(split: RangeSplit, keepSeries: boolean, send: (part: FileContribution) => void): RangeDone {
  const kept = stored.get(split.split);
  if (kept === undefined) throw new Error('range split before the range was read');
  stored.delete(split.split);
  const { store: s, task: t } = kept;
  // (Exported shared: see FeatureCollector's exportMemory.)
  const local = new FeatureCollector(keepSeries, SharedArrayBuffer);
  const shared = new FeatureCollector(keepSeries, SharedArrayBuffer);
  local.beginFile(t.file, t.className);
  shared.beginFile(t.file, t.className);
  const isShared = new Uint8Array(s.ids.length);
  for (const id of split.shared) {
    const j = s.idIndex.get(id);
    if (j !== undefined) isShared[j] = 1;
  }
  // Leading records: the file's own instance in the first range, else the previous range's last instance.
  const leadingTo = t.range === 0 ? local : shared;
  if (t.range > 0 && s.leading > 0) {
    if (split.carry === null) throw new Error('range split: leading records without an instance to continue');
    shared.instance(split.carry, null);
  }
  const code = s.code.data;
  const inst = s.inst.data;
  const ts = s.t.data;
  const vs = s.v.data;
  let k = 0;
  for (let i = 0; i < s.code.length; i++) {
    const c = code[i] as number;
    const j = inst[i] as number;
    const to = j < 0 ? leadingTo : isShared[j] === 1 ? shared : local;
    if (c === INSTANCE_OP) to.instance(s.ids[j] as string, s.kinds[k++]);
    else if (c >= 0) to.event(ts[i] as number, s.eventNames[c] as string);
    else to.state(ts[i] as number, s.stateNames[-1 - c] as string, vs[i] as number);
  }
  local.endFile(t.file);
  const done = local.exportWholeClass(send);
  return { type: 'range-done', split: t.split, range: t.range, local: { ...done, emptyFile: null }, shared: { ...shared.exportFile(), emptyFile: null } };
}

// ------------------------------------------------------------------ main side

/**
 * Whether `file` may be split: plain dlog on disk (no translator, not compressed, not CSV/TSV/spans), large enough,
 * and not one run's whose ends were read ahead (InputFile.ends: no `I` record at either end). That one is one
 * instance, which ranges cannot summarize apart: each range's records would be held until the end (a 671 MB run:
 * 0.9 GB), where one thread summarizes it as it reads it.
 */
export function splittable(file: InputFile, init: WorkerInit, jobs: number, minBytes = SPLIT_MIN_BYTES): boolean {
  return jobs > 1 && init.translator === undefined && init.templates === undefined && plainFile(file) &&
    file.size >= minBytes && !NAMED_FORMATS.test(file.relativePath) && file.ends === undefined;
}

/**
 * Byte offsets cutting the file into about `parts` ranges, each starting a
 * line (right after a '\n'; never before a line that starts with a BOM,
 * which only the file's first line may lose). Fewer ranges when lines are
 * too long to find a cut.
 */
export async function cutPoints(file: InputFile, parts: number): Promise<number[]> {
  const cuts = [0];
  const handle = await open(file.path, 'r');
  try {
    const buf = Buffer.alloc(1 << 16);
    for (let k = 1; k < parts; k++) {
      let at = Math.max(Math.floor((file.size * k) / parts), (cuts[cuts.length - 1] as number) + 1);
      let cut = -1;
      while (cut < 0 && at < file.size) {
        const { bytesRead } = await handle.read(buf, 0, buf.length, at);
        if (bytesRead === 0) break;
        const view = buf.subarray(0, bytesRead);
        let nl = view.indexOf(10);
        while (nl !== -1 && cut < 0) {
          const next = at + nl + 1;
          const bom = next + 3 <= at + bytesRead && view[nl + 1] === 0xef && view[nl + 2] === 0xbb && view[nl + 3] === 0xbf;
          if (next + 3 > at + bytesRead && next < file.size) break; // read on: the next line's first bytes are not here
          if (!bom) cut = next;
          else nl = view.indexOf(10, nl + 1);
        }
        if (cut < 0) at += nl === -1 ? bytesRead : nl + 1;
      }
      if (cut <= 0 || cut >= file.size) break;
      cuts.push(cut);
    }
  } finally {
    await handle.close();
  }
  cuts.push(file.size);
  return cuts;
}

/** The workers that read split files, each file's ranges in turn (one range per worker). */
export interface SplitPool {
  readonly workers: readonly Worker[];
  /** Per worker: its parts absorbed (see WorkerInit.partsAbsorbed). */
  readonly counters: readonly Int32Array[];
  /** Replies of split `split` go to its handler. */
  readonly handlers: Map<number, (k: number, reply: { type: string } & Record<string, unknown>) => void>;
  close(): Promise<void>;
}

export function splitPool(init: WorkerInit, size: number, progress: { addBytes(n: number): void }): SplitPool {
  const counters: Int32Array[] = [];
  const handlers = new Map<number, (k: number, reply: { type: string } & Record<string, unknown>) => void>();
  let stopping = false;
  const toAll = (reply: { type: string } & Record<string, unknown>, k: number): void => {
    for (const h of handlers.values()) h(k, reply);
  };
  const workers = Array.from({ length: size }, (_, k) => {
    const partsAbsorbed = new SharedArrayBuffer(4);
    counters.push(new Int32Array(partsAbsorbed));
    // Series travel with the contributions here: the main thread fills q*.abs.
    const w = parsingWorker({ ...init, processGroups: processGroupTable(), partsAbsorbed });
    w.on('message', (reply: { type: string } & Record<string, unknown>) => {
      if (reply.type === 'bytes') progress.addBytes(reply.n as number);
      else if (typeof reply.split === 'number') handlers.get(reply.split)?.(k, reply);
      else toAll(reply, k);
    });
    w.on('error', (err) => toAll({ type: 'crash', message: err instanceof Error ? err.message : String(err) }, k));
    w.on('exit', (code) => {
      if (!stopping) toAll({ type: 'crash', message: `a parsing worker ended (exit code ${code})` }, k);
    });
    return w;
  });
  return {
    workers, counters, handlers,
    async close(): Promise<void> {
      if (stopping) return;
      stopping = true;
      for (const c of counters) {
        Atomics.store(c, 0, 1 << 30);
        Atomics.notify(c, 0);
      }
      await Promise.all(workers.map((w) => w.terminate()));
      killProcessGroups();
    },
  };
}

/** A file being read in ranges: phase 1 started, phase 2 asked for as soon as phase 1 is done. */
export interface SplitRead {
  /** Phase 1 done (and phase 2 asked for): the pool may take the next file's ranges. */
  readonly read: Promise<void>;
  /** Absorb the ranges into the collector, in order (call when everything before this file is absorbed). */
  finish(collector: FeatureCollector, stats: ReadStats): Promise<readonly string[] | false>;
}

/**
 * Start reading one class's only file in byte ranges on the pool's first
 * `cuts.length − 1` workers. Both phases run in the workers without waiting
 * for the main thread (a second class's file is read while the first is
 * absorbed); `finish` then absorbs, and returns false, having absorbed
 * nothing, when the file must be read sequentially instead (see the file
 * comment): the caller then reads it. On success it returns the class's ids
 * in order of first appearance.
 */
export function startSplit(
  pool: SplitPool,
  id: number,
  file: InputFile,
  className: ClassName,
  cuts: readonly number[],
  progress: { fileDone(): void },
): SplitRead {
  const n = cuts.length - 1;
  const workers = pool.workers.slice(0, n);
  const counters = pool.counters;
  const summaries: RangeSummary[] = new Array<RangeSummary>(n);
  const parts: FileContribution[][] = workers.map(() => []);
  const done: (RangeDone | undefined)[] = new Array<RangeDone | undefined>(n);
  /** Set by finish: absorb what has come. */
  let onReply: (() => void) | null = null;
  let failed: unknown = null;
  let order: string[] = [];
  let regular = true;
  const read = new Promise<void>((resolve, reject) => {
    let answered = 0;
    pool.handlers.set(id, (k, reply) => {
      if (reply.type === 'range-read') {
        summaries[k] = reply as unknown as RangeSummary;
        if (++answered === n) {
          askSplit();
          resolve();
        }
      } else if (reply.type === 'part') {
        (parts[k] as FileContribution[]).push(reply.contribution as FileContribution);
        onReply?.();
      } else if (reply.type === 'range-done') {
        done[k] = reply as unknown as RangeDone;
        onReply?.();
      } else if (reply.type === 'crash' || reply.type === 'fatal') {
        failed ??= new Error(`parsing worker failed: ${String(reply.message)}`);
        reject(failed);
        onReply?.();
      }
    });
    workers.forEach((w, k) => {
      w.postMessage({ type: 'range', split: id, range: k, file, className, start: cuts[k] as number, end: cuts[k + 1] as number } satisfies RangeTask);
    });
  });
  read.catch(() => undefined);

  /** Phase 2: mark the ids merged here, and let the workers summarize the rest. */
  function askSplit(): void {
    // The file's own instance must end in the first range (it has an I record), and everything must be regular.
    regular = summaries.every((s) => s.regular) && (summaries[0] as RangeSummary).ids.length > 0;
    if (!regular) return;
    const rangesOf = new Map<string, number>();
    order = [];
    for (const s of summaries) {
      for (const sid of s.ids) {
        const seen = rangesOf.get(sid);
        if (seen === undefined) order.push(sid);
        rangesOf.set(sid, (seen ?? 0) + 1);
      }
    }
    // Leading records continue the last instance named before them: that instance is merged here too.
    const carries: (string | null)[] = [null];
    let last = (summaries[0] as RangeSummary).lastId;
    for (let k = 1; k < n; k++) {
      const s = summaries[k] as RangeSummary;
      carries.push(s.leading > 0 ? last : null);
      if (s.leading > 0 && last !== null) rangesOf.set(last, 2);
      if (s.lastId !== null) last = s.lastId;
    }
    workers.forEach((w, k) => {
      const shared = (summaries[k] as RangeSummary).ids.filter((sid) => (rangesOf.get(sid) as number) > 1);
      w.postMessage({ type: 'range-split', split: id, shared, carry: carries[k] ?? null } satisfies RangeSplit);
    });
  }

  async function finish(collector: FeatureCollector, stats: ReadStats): Promise<readonly string[] | false> {
    await read;
    if (!regular) {
      pool.handlers.delete(id);
      return false;
    }
    // Names in the order a sequential read meets them: range by range, each in its own order.
    for (const s of summaries) {
      for (const name of s.eventNames) collector.events.id(name);
      for (const name of s.stateNames) collector.states.id(name);
    }
    let next = 0;
    await new Promise<void>((resolve, reject) => {
      /** Absorb, in range order, what has come: each range's parts, then its own instances, then its shared records. */
      const drain = (): void => {
        if (failed !== null) {
          reject(failed);
          return;
        }
        try {
          while (next < n) {
            const counter = counters[next] as Int32Array;
            for (const part of parts[next] as FileContribution[]) {
              collector.absorb(part);
              Atomics.add(counter, 0, 1);
              Atomics.notify(counter, 0);
            }
            (parts[next] as FileContribution[]).length = 0;
            const d = done[next];
            if (d === undefined) return;
            collector.absorb(d.local);
            collector.absorb(d.shared);
            done[next] = undefined;
            next++;
          }
        } catch (err) {
          reject(err);
          return;
        }
        resolve();
      };
      onReply = drain;
      drain();
    });
    pool.handlers.delete(id);
    stats.files++;
    for (const s of summaries) {
      stats.bytes += s.bytes;
      stats.lines += s.lines;
      stats.records += s.records;
    }
    progress.fileDone();
    return order;
  }

  return { read, finish };
}
