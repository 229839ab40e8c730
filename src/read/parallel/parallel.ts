import type { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { killProcessGroups, processGroupTable } from '../../cleanup.js';
import { InputError } from '../../errors.js';
import type { FeatureCollector } from '../../features/collector.js';
import type { FileContribution } from '../../features/contribution.js';
import { withSlotIds } from './contribution.js';
import { median } from '../../stats/median.js';
import type { GrowableFloat64 } from '../../memory/growable.js';
import { referenceDurationOf } from '../../features/quartile-pass.js';
import { STATE_FEATURE_TYPES } from '../../features/types.js';
import type { InputFile } from '../../parse/files.js';
import { readClass, type ReadOptions, type ReadStats } from '../../parse/reader.js';
import { cutPoints, splitPool, splittable, startSplit, type SplitRead } from './ranges.js';
import { BatchClaims } from '../../parse/claims.js';
import { HelpBoard, TailOwner, type TailMessage } from '../../parse/tail-help.js';
import { helpOthers, WAIT_MAIN_MS } from './tail-helper.js';
import { parsingWorker } from './threads.js';
import type { Translator } from '../../parse/translator.js';
import type { ClassName } from '../../parse/records.js';
import type { WorkerInit } from './worker-init.js';
import { batchBytes, batchesOf, MainPace, tasksOf, type Batch, type ParallelInput } from './batches.js';
import { QUARTILE_STRIDE, ReferenceCell, STOP_PARTS, type ColumnsOffer, type QuartileChunk, type QuartileRequest, type WorkerBatches, type WorkerReply, type WorkerTask } from './protocol.js';

/**
 * The durations a worker announced for the batch it summarizes into this
 * thread's shared columns (its 'layout' reply), from which Dref was computed
 * ahead: each part's durations are checked against them as it is absorbed,
 * and all of them must have come. A Dref from durations that did not come is
 * an error, never a silent difference.
 */
class AnnouncedDurations {
  private checked = 0;

  constructor(readonly batch: number, private readonly durations: Float64Array) {}

  check(part: FileContribution): void {
    const { durations } = this;
    const slots = part.ids.length;
    for (let i = 0; i < slots; i++) {
      if (!Object.is(part.durations[i], durations[this.checked + i])) throw new Error(`batch ${this.batch}: the duration of slot ${this.checked + i} is ${part.durations[i]}, announced ${durations[this.checked + i]}`);
    }
    this.checked += slots;
  }

  finish(): void {
    if (this.checked !== this.durations.length) throw new Error(`batch ${this.batch}: ${this.checked} of ${this.durations.length} announced durations came`);
  }
}

/**
 * Dref of every instance of the run, before the last class is summarized:
 * this thread's (its collector's slots and its class's named instances:
 * pendingDurations) and those a worker announced for the batch after them,
 * the last. The median of the same values buildFeatureSet takes it over.
 */
function referenceDurationAhead(own: Float64Array, announced: Float64Array): number {
  const all = new Float64Array(own.length + announced.length);
  all.set(own);
  all.set(announced, own.length);
  return median(all);
}

/** A worker's 'layout' reply, and the worker. */
interface LayoutReply {
  readonly reply: Extract<WorkerReply, { type: 'layout' }>;
  readonly worker: Worker;
}

/** Summarizing an instance's records takes about as long as reading this many bytes per record (leaveRest). */
const SUMMARY_BYTES_PER_RECORD = 32;

/** Instances summarized between two looks at the worker's messages (see leaveRest). */
const SUMMARY_STEP = 4096;

type Progress = { addBytes(n: number): void; fileDone(): void };
/**
 * What this thread reads with: the loaded translator. For tests: batchBytes
 * (see batchesOf), splitBytes (the size from which a class's only file is
 * split, SPLIT_MIN_BYTES), cutsOf (where to cut it, cutPoints),
 * shareColumns, frontBatches, holdOwnDone, tailMinBytes and tailWaitMs.
 */
type LocalOptions = {
  readonly translator?: Translator;
  readonly batchBytes?: number;
  readonly splitBytes?: number;
  readonly cutsOf?: (file: InputFile, jobs: number) => Promise<number[]>;
  /** Whether the worker may be left a whole class to read and summarize (WorkerInit.ownClasses; default yes). */
  readonly ownClasses?: boolean;
  /** Whether a worker may summarize a class's only file into this thread's columns (WorkerInit.shareColumns; default yes). */
  readonly shareColumns?: boolean;
  /** At most this many batches read by this thread (the workers claim the others, however late they start). */
  readonly frontBatches?: number;
  /** This thread's reading ends only once this has settled (a worker may ask for its layout first). */
  readonly holdOwnDone?: Promise<void>;
  /** The least file size shown on the board, and rest taken (tail-help.ts TAIL_MIN_BYTES; tests set it lower). */
  readonly tailMinBytes?: number;
  /**
   * How long this thread looks for a rest to read once it has no batch left (WAIT_MAIN_MS; tests wait for a late
   * worker, which then counts as reading from the start).
   */
  readonly tailWaitMs?: number;
};

/**
 * Parse the inputs on `jobs` threads (this one and `jobs` − 1 workers) into
 * `collector`, with a result byte-identical to reading them one by one, and
 * finish the last class. A class whose only file is a large plain dlog file
 * is read in byte ranges by all threads (ranges.ts); the other files in
 * batches (readBatches). They go class by class, in input order.
 */
export async function readParallel(
  inputs: readonly ParallelInput[],
  jobs: number,
  init: WorkerInit,
  collector: FeatureCollector,
  stats: Record<ClassName, ReadStats>,
  progress: Progress,
  local: LocalOptions = {},
  examples = 5,
): Promise<void> {
  const filesPerClass = new Map<ClassName, number>();
  for (const input of inputs) filesPerClass.set(input.className, (filesPerClass.get(input.className) ?? 0) + 1);
  const segments: ({ readonly split: number } | { readonly from: number; readonly to: number })[] = [];
  // Split only with at least two threads per large file: with fewer, the files
  // themselves keep the threads busy (each class's file on its own thread), at no cost.
  const large = inputs.filter((input) => filesPerClass.get(input.className) === 1 && splittable(input.file, init, jobs, local.splitBytes));
  const split = new Set(jobs >= 2 * large.length ? large : []);
  let from = 0;
  inputs.forEach((input, i) => {
    if (!split.has(input)) return;
    if (from < i) segments.push({ from, to: i });
    segments.push({ split: i });
    from = i + 1;
  });
  if (from < inputs.length) segments.push({ from, to: inputs.length });
  let badOrder: readonly string[] | null = null;
  // Split files are read by one pool of workers, one after another: the next
  // file's ranges are read as soon as the previous file's are (while it is absorbed).
  const cutsOf = new Map<number, number[]>();
  for (const segment of segments) {
    if (!('split' in segment)) continue;
    const { file } = inputs[segment.split] as ParallelInput;
    const cuts = await (local.cutsOf ?? cutPoints)(file, jobs).catch(() => [0, file.size]);
    if (cuts.length > 2) cutsOf.set(segment.split, cuts);
  }
  const pool = cutsOf.size > 0 ? splitPool(init, Math.max(...[...cutsOf.values()].map((c) => c.length - 1)), progress) : null;
  const splits = new Map<number, SplitRead>();
  const start = (at: number): void => {
    const index = [...cutsOf.keys()][at];
    if (pool === null || index === undefined) return;
    const { file, className } = inputs[index] as ParallelInput;
    const split = startSplit(pool, index, file, className, cutsOf.get(index) as number[], progress);
    splits.set(index, split);
    split.read.then(() => start(at + 1), () => undefined);
  };
  start(0);
  try {
    for (const [k, segment] of segments.entries()) {
      if ('split' in segment) {
        const { file, className } = inputs[segment.split] as ParallelInput;
        const split = splits.get(segment.split);
        const order = split !== undefined ? await split.finish(collector, stats[className]) : false;
        // Read sequentially here when the file cannot be split (or must not be: see ranges.ts).
        if (order === false) await readClass([file], className, collector.sink(() => progress.fileDone()), readOptions(init, local, progress), stats[className]);
        else if (className === 'bad') badOrder = order;
        continue;
      }
      // Series stay in the workers only when Dref can be computed right after (nothing read after them).
      const seriesInWorkers = init.keepSeries && k === segments.length - 1;
      await readBatches(inputs.slice(segment.from, segment.to), {
        jobs,
        init: { ...init, seriesInWorkers, shareColumns: local.shareColumns ?? true, ownClasses: local.ownClasses ?? true },
        collector, stats, progress, local, examples,
      });
    }
  } finally {
    await pool?.close();
  }
  collector.finishClass();
  if (badOrder !== null) {
    // Ids of both classes are noted in the bad class's order of first appearance, as a sequential read notes them.
    const rank = new Map(badOrder.map((id, i) => [id, i]));
    collector.sharedIds.sort((a, b) => (rank.get(a) as number) - (rank.get(b) as number));
  }
}

function readOptions(init: WorkerInit, local: LocalOptions, progress: Progress): ReadOptions {
  return {
    ...(local.translator !== undefined ? { translator: local.translator } : {}),
    strict: init.strict,
    onBytes: (n) => progress.addBytes(n),
  };
}

/** What readBatches reads with: readParallel's arguments, the worker init with where the series stay. */
interface BatchRead {
  readonly jobs: number;
  readonly init: WorkerInit;
  readonly collector: FeatureCollector;
  readonly stats: Record<ClassName, ReadStats>;
  readonly progress: Progress;
  readonly local: LocalOptions;
  readonly examples: number;
}

/**
 * Parse files on `jobs` threads — this one and `jobs` − 1 workers — into
 * `collector`, with a result byte-identical to reading them one by one. Each
 * thread claims its next batch when it is ready for it (claims.ts): this
 * thread from the front, reading straight into the collector (as `--jobs 1`
 * does: nothing to export or absorb), the workers from the back; their
 * contributions are absorbed in order once this thread has read up to them.
 * On an input error, the first failing file in input order is reported, as a
 * sequential read would: this thread's batches all come before the workers',
 * and after a worker's error the batches already claimed are still answered.
 */
async function readBatches(inputs: readonly ParallelInput[], read: BatchRead): Promise<void> {
  const { jobs, init, collector, stats, progress, local, examples } = read;
  const batches = batchesOf(inputs, jobs, local.batchBytes);
  const counters = new Map<Worker, Int32Array>();
  /** Per worker: the index of the file it is reading (for a worker that exits on its own). */
  const reading = new Map<Worker, Int32Array>();
  const threads = Math.max(0, Math.min(jobs - 1, batches.length - 1)) + 1;
  // Where a thread with nothing left finds the rest of a large file another reads (tail-help.ts): this one is 0.
  const board = new HelpBoard(threads);
  // (Tests that wait for a late worker: it counts as reading from the start, as this thread does.)
  if (local.tailWaitMs !== undefined) for (let i = 1; i < threads; i++) board.busy(i);
  const tail = new TailOwner(board, 0, local.tailMinBytes);
  // Large files read ahead on libuv's pool only with a core free beside the parsing threads (ReadOptions.readAhead).
  const readAhead = threads < availableParallelism();
  const workers = Array.from({ length: threads - 1 }, (_, i) => {
    const partsAbsorbed = new SharedArrayBuffer(4);
    const currentFile = new SharedArrayBuffer(4);
    new Int32Array(currentFile)[0] = -1; // none yet
    const w = parsingWorker({ ...init, processGroups: processGroupTable(), partsAbsorbed, currentFile, tailBoard: board.buffer, tailSelf: i + 1, readAhead,
      ...(local.tailMinBytes !== undefined ? { tailMinBytes: local.tailMinBytes } : {}) });
    counters.set(w, new Int32Array(partsAbsorbed));
    reading.set(w, new Int32Array(currentFile));
    return w;
  });
  /** A helper's message for owner thread `owner` (w + 1: worker w); a piece's arrays are shared (TailStore.piece). */
  const tailToWorker = (owner: number, m: TailMessage): void => {
    workers[owner - 1]?.postMessage(m);
  };
  /** A part absorbed: its worker may send the next. */
  const acknowledge = (w: Worker): void => {
    const counter = counters.get(w)!;
    Atomics.add(counter, 0, 1);
    Atomics.notify(counter, 0);
  };
  /**
   * With state series kept, each contribution's change points stay in its
   * worker: note where its slots start here and its state variables' names,
   * for the q*.abs the worker sends back at the end (fillQuartiles).
   */
  const placed = new Map<string, Placed>();
  const seqOf = new Map<number, number>();
  /**
   * Batches' named ids sent ahead of their parts ('named' replies): taken in (absorbNamed) with the batch's first
   * part, and kept for the parts that leave their slot ids out (FileContribution.idsAhead; `taken` of them so far).
   */
  const namedAhead = new Map<number, { readonly ids: readonly string[]; readonly sorted: Int32Array | null; scanned: boolean; taken: number }>();
  /** The batch summarized with Dref known ahead (ColumnsOffer.reference): its durations, Dref, and where the worker reads it. */
  let announced: AnnouncedDurations | null = null;
  let referenceDuration: number | null = null;
  let cell: ReferenceCell | null = null;
  const absorbOne = (batch: number, part: FileContribution, heldAhead = 0): void => {
    const named = namedAhead.get(batch);
    let c = part;
    if (c.idsAhead === true) {
      if (named?.sorted == null) throw new Error(`batch ${batch}'s part came without its ids, none named ahead`);
      c = withSlotIds(c, named.ids, named.sorted, named.taken);
      named.taken += c.ids.length;
    }
    const seq = seqOf.get(batch) ?? 0;
    seqOf.set(batch, seq + 1);
    if (announced !== null && batch === announced.batch) announced.check(c);
    collector.absorb(c, heldAhead);
    // Named ids sent ahead: taken in once the batch's class is the one being absorbed (after its first part).
    if (named !== undefined && !named.scanned) {
      named.scanned = true;
      collector.absorbNamed(named.ids, named.sorted);
    }
    // Its slots are the last ones (absorb may first have finished the previous class, adding slots).
    if (c.pointsKept === true) placed.set(`${batch}:${seq}`, { base: collector.instanceCount - c.ids.length, states: c.stateNames });
  };
  const absorbPart = (part: { batch: number; contribution: FileContribution; from: Worker }): void => {
    absorbOne(part.batch, part.contribution);
    acknowledge(part.from);
  };
  const results = new Map<number, WorkerReply>();
  const parts = new Map<number, { batch: number; contribution: FileContribution; from: Worker }[]>();
  // Each thread claims its next batch when it is ready for it: this one from the front, the workers from the back.
  const claims = new BatchClaims(batches.length);
  // (Not with frontBatches, a test option: its batches beyond those are the workers' to claim.)
  const pace = local.frontBatches === undefined ? new MainPace() : null;
  /** The next batch to go into the collector (this thread's own are read into it directly). */
  let absorbed = 0;
  /** Whether this thread has read its own batches; then where the workers' begin (they end at batches.length). */
  let ownDone = false;
  let workersFrom = -1;
  let replies = 0;
  let failure: Extract<WorkerReply, { type: 'error' | 'crash' }> | null = null;
  let stopping = false;
  /** The worker batch this thread waits for the layout of (to share its columns), and what to call with it. */
  let awaitedLayout: { readonly batch: number; readonly resolve: (layout: LayoutReply | null) => void } | null = null;
  /** Batches whose layout was declined (their values come in parts). */
  const declined = new Set<number>();
  /**
   * Layouts asked while this thread still read its own batches (a worker may finish its class first): answered
   * once this thread knows whether it shares its columns, not declined at once (the worker's values would
   * cross in parts and be copied in here: a million requests' parse 3.2 → 4.6 s, one run in five or six).
   */
  const earlyLayouts = new Map<number, LayoutReply>();
  let layoutsDecided = false;
  const decline = (batch: number, worker: Worker): void => {
    declined.add(batch);
    worker.postMessage({ type: 'columns', batch, shared: null } satisfies ColumnsOffer);
  };
  /** Every early layout but batch `keep`'s declined; from now on a layout not awaited is declined as it comes. Returns `keep`'s. */
  const decideLayouts = (keep: number): LayoutReply | undefined => {
    const kept = earlyLayouts.get(keep);
    for (const [batch, { worker }] of earlyLayouts) if (batch !== keep) decline(batch, worker);
    earlyLayouts.clear();
    layoutsDecided = true;
    return kept;
  };
  /** Every batch read and absorbed (the workers are idle). */
  let finished = false;
  try {
    await new Promise<void>((resolve, reject) => {
      /** The class whose held records still to come have room made for them (heldAhead). */
      let roomFor: ClassName | null = null;
      /**
       * The held records of batch `b`'s class in the replies that have come, from `b` on: room for them at
       * once (absorb would grow the held buffer a few times, copying it), when the class's first is absorbed.
       */
      const heldAhead = (b: number): number => {
        const { className } = tasks[b] as WorkerTask;
        if (roomFor === className) return 0;
        roomFor = className;
        let records = 0;
        for (let i = b; i < batches.length && (tasks[i] as WorkerTask).className === className; i++) {
          const r = results.get(i);
          if (r?.type === 'done') records += r.contribution.heldCode.length;
        }
        return records;
      };
      /** Batch `b`'s contribution taken in: its parts, then the rest, its empty files and counts. */
      const absorbBatch = (b: number, r: Extract<WorkerReply, { type: 'done' }>): void => {
        for (const part of parts.get(b) ?? []) absorbPart(part);
        parts.delete(b);
        absorbOne(b, r.contribution, heldAhead(b));
        collector.emptyFiles.push(...r.emptyFiles);
        const batch = batches[b] as Batch;
        mergeStats(stats[(inputs[batch.first] as ParallelInput).className], r.stats, examples);
        for (let i = 0; i < batch.count; i++) progress.fileDone();
      };
      /**
       * Absorb whatever is now next in order (only once this thread has read
       * its own batches: the workers' all come after them). absorb may throw
       * an InputError (too many variables): reject.
       */
      const drain = (): void => {
        if (!ownDone) return;
        try {
          while (failure === null && results.has(absorbed)) {
            const r = results.get(absorbed) as Extract<WorkerReply, { type: 'done' }>;
            results.delete(absorbed);
            absorbBatch(absorbed, r);
            absorbed++;
          }
          // The next batch's parts that came early (its worker may be waiting for them to go in).
          const early = failure === null ? parts.get(absorbed) : undefined;
          if (early !== undefined) {
            for (const part of early) absorbPart(part);
            parts.delete(absorbed);
          }
        } catch (err) {
          claims.close();
          reject(err);
          return;
        }
        if (replies === batches.length - workersFrom) resolve();
      };
      const tasks = tasksOf(inputs, batches);
      /** Whether batch `b` begins the last class (the only batch whose layout this thread may answer with its columns). */
      const lastClassFrom = (b: number): boolean => b > 0 && (tasks[b - 1] as WorkerTask).className !== (tasks[b] as WorkerTask).className &&
        (tasks[batches.length - 1] as WorkerTask).className === (tasks[b] as WorkerTask).className;
      for (const w of workers) {
        w.on('message', (reply: WorkerReply) => {
          if (reply.type === 'bytes') {
            progress.addBytes(reply.n);
            return;
          }
          if (reply.type === 'quartiles') return; // answered in fillQuartiles
          if (reply.type === 'tail-piece' || reply.type === 'tail-end') {
            // A helper's message: for this thread, or passed on to the worker it helps.
            if (reply.owner === 0) tail.deliver(reply);
            else tailToWorker(reply.owner, reply);
            return;
          }
          if (reply.type === 'named') {
            namedAhead.set(reply.batch, { ids: reply.ids, sorted: reply.sorted ?? null, scanned: false, taken: 0 });
            return;
          }
          if (reply.type === 'layout') {
            // Awaited (see readOwn): answered there, with the columns. Before this thread has read its own batches:
            // answered when it has (earlyLayouts). Otherwise: no sharing, its values come in parts.
            if (awaitedLayout?.batch === reply.batch) awaitedLayout.resolve({ reply, worker: w });
            else if (!layoutsDecided && lastClassFrom(reply.batch)) earlyLayouts.set(reply.batch, { reply, worker: w });
            else decline(reply.batch, w);
            return;
          }
          if (reply.type === 'fatal') {
            reject(reply.internal === true ? new Error(`parsing worker failed: ${reply.message}`) : new InputError(reply.message, undefined, undefined, reply.hint));
            return;
          }
          if (reply.type === 'part') {
            // Kept until its batch is next in order (then absorbed as it comes).
            if (failure !== null) return;
            const queued = parts.get(reply.batch) ?? [];
            queued.push({ batch: reply.batch, contribution: reply.contribution, from: w });
            parts.set(reply.batch, queued);
            drain();
            return;
          }
          replies++;
          results.set(reply.batch, reply);
          if (awaitedLayout?.batch === reply.batch) awaitedLayout.resolve(null);
          if (reply.type !== 'done' && (failure === null || reply.index < failure.index)) {
            failure = reply;
            // Nothing more is claimed; the batches already claimed are still answered (an earlier one may fail too).
            const claimed = claims.close();
            // Left to the worker, the batches it had not claimed yet are read by no one: no answer is awaited for them,
            // nor the layout of a class it will not finish.
            if (left) workersFrom = Math.max(workersFrom, claimed);
            awaitedLayout?.resolve(null);
          }
          drain();
        });
        w.on('error', (err) => {
          tail.stop(err);
          reject(err);
        });
        // A worker that ends by itself (a translator calling a saved process.exit) must not end the run quietly.
        // The message is the one a translator exiting on this thread gets (bin/distalyze.js): which thread reads a file varies.
        w.on('exit', (code) => {
          if (stopping) return;
          tail.stop(new Error(`a parsing worker exited (exit code ${code})`));
          const file = (inputs[Atomics.load(reading.get(w)!, 0)] as ParallelInput | undefined)?.file.path;
          const who = init.translator !== undefined ? `translator ${init.translator}` : 'a parsing worker';
          reject(new InputError(`${who} exited (exit code ${code})${file === undefined ? '' : ' while reading this file'}`, file));
        });
        w.postMessage({ type: 'batches', claims: claims.buffer, tasks, ...(pace !== null ? { pace: pace.buffer } : {}) } satisfies WorkerBatches);
      }
      // This thread's share, from the front, straight into the collector. An
      // input error here is the first in input order: it ends the run.
      const sink = collector.sink(() => progress.fileDone());
      /**
       * Whether to leave the unclaimed batches [lo, hi), the next class's, to the worker: when this thread's class
       * holds instances named by `I` records, and the worker will have read them all (at this thread's pace) before
       * this thread has summarized them (finishClass, about as long as reading SUMMARY_BYTES_PER_RECORD bytes per
       * held record). The worker then reads a whole class, and summarizes it (its batches would otherwise cross as
       * records, all summarized here after the rest: a million requests in 20 files a class, ~0.55 s alone at the end).
       */
      let left = false;
      const leaveRest = (lo: number, hi: number): boolean => {
        if (workers.length !== 1 || init.ownClasses !== true || lo === 0 || (tasks[lo] as WorkerTask).className === (tasks[lo - 1] as WorkerTask).className) return false;
        let bytes = 0;
        for (let i = lo; i < hi; i++) bytes += batchBytes(tasks[i] as WorkerTask);
        left = collector.heldRecords > 0 && bytes <= collector.heldRecords * SUMMARY_BYTES_PER_RECORD;
        // The worker takes the rest, the last one included (not left to this thread: MainPace).
        if (left) pace?.begin(0, 0);
        return left;
      };
      /**
       * The slots batches [from, the end) will take, at this thread's class's bytes per slot (its batches
       * before `from`, back to where the class begins), a quarter more: room reserved, never written, is no memory.
       */
      const estimatedSlots = (from: number): number => {
        const { className } = tasks[from - 1] as WorkerTask;
        let own = 0;
        for (let i = from - 1; i >= 0 && (tasks[i] as WorkerTask).className === className; i--) own += batchBytes(tasks[i] as WorkerTask);
        let rest = 0;
        for (let i = from; i < batches.length; i++) rest += batchBytes(tasks[i] as WorkerTask);
        // (This thread's class is the first: its slots are all the collector's.)
        return Math.ceil((rest * Math.max(1, collector.pendingSlots())) / Math.max(1, own) * 1.25) + 1024;
      };
      const readOwn = async (): Promise<void> => {
        /** The last batch's pace (bytes per ms): the first one, cold, is slower than the rest. */
        let rate = 0;
        const claim = (): number => absorbed < (local.frontBatches ?? Infinity) ? claims.front(leaveRest) : -1;
        for (let b = claim(); b >= 0; b = claim()) {
          const task = tasks[b] as WorkerTask;
          const bytes = batchBytes(task);
          const started = performance.now();
          pace?.begin(bytes, rate);
          tail.reading(b, task.files);
          const options = { ...readOptions(init, local, progress), tail, readAhead };
          // A class's first batch here: room for the held records of all its batches (the workers may read some).
          if (b === 0 || (tasks[b - 1] as WorkerTask).className !== task.className) {
            let classBytes = 0;
            for (let i = b; i < tasks.length && (tasks[i] as WorkerTask).className === task.className; i++) classBytes += batchBytes(tasks[i] as WorkerTask);
            collector.expectClassBytes(classBytes);
          }
          await readClass(task.files, task.className, sink, pace === null ? options : { ...options, onBytes: (n) => { pace.read(n); progress.addBytes(n); } }, stats[task.className]);
          rate = bytes / Math.max(1, performance.now() - started);
          absorbed = b + 1;
        }
        // (Tests: the batches beyond frontBatches are left for the workers to claim.)
        while (local.frontBatches !== undefined && !claims.exhausted()) await new Promise((resolve) => setTimeout(resolve, 1));
        // Nothing left to claim: the rest of a large file a worker still reads, read here too.
        if (failure === null) {
          await helpOthers(board, 0, (batch) => (tasks[batch] as WorkerTask | undefined)?.files, tailToWorker, local.tailWaitMs ?? WAIT_MAIN_MS,
            local.tailMinBytes, readAhead);
        }
        await local.holdOwnDone;
        ownDone = true;
        workersFrom = left ? claims.frontEnd() : claims.close();
        let early = decideLayouts(absorbed);
        // The class read here ends where the workers' batches start another: finish it now (its named
        // instances summarized while the workers still read), not when their first part comes in (absorb
        // would finish it first: the same result, and the error a sequential read would stop at).
        const next = tasks[absorbed];
        if (absorbed > 0 && next !== undefined && next.className !== (tasks[absorbed - 1] as WorkerTask).className) {
          // The rest, another class, read by the worker: left to it, or claimed by it before this thread could leave
          // it (the same, then, if it kept them: it asks as it would have).
          const rest = left || (workers.length === 1 && init.ownClasses === true && collector.heldRecords > 0 &&
            (tasks[batches.length - 1] as WorkerTask).className === next.className);
          // (Or the rest, a class the worker reads whole: it asks the same once it has.)
          // (Not after a failure: the batch may never be read.)
          if (init.shareColumns === true && (rest || (next.wholeClass && absorbed === batches.length - 1)) && failure === null && !results.has(absorbed) && !declined.has(absorbed)) {
            // The last batch is the other class's only file (or the rest is a class the worker reads whole), still read
            // by a worker: it summarizes it into this thread's columns (shared), not into its own to be copied here.
            // With the points kept until Dref: this class's durations now, while the worker reads (Dref ahead, below),
            // straight from its records: grouping them first (finishClass's first steps) would keep the worker waiting.
            const own = init.seriesInWorkers === true ? collector.pendingDurations() : null;
            const asked = early !== undefined ? Promise.resolve(early) : new Promise<LayoutReply | null>((resolve) => { awaitedLayout = { batch: absorbed, resolve }; });
            // Left a class of many files, the worker still reads it (and takes its batches in): this class is summarized
            // meanwhile, in steps, until the worker asks (its columns are shared then, with what they hold). Not for a
            // class's only file: the worker asks about when this thread is done reading, and the first step, grouping
            // this class's records (~0.2 s for a million hashed ids), would keep it waiting.
            let answer: LayoutReply | null | undefined = early;
            early = undefined;
            if (rest && !next.wholeClass) {
              // Its columns shared now, with room for the worker's class as this one's bytes per slot foretell (and a
              // quarter more): not copied into shared storage when the worker asks, half summarized (~0.2 s, at 200 MB).
              collector.reserveShared(collector.pendingSlots() + estimatedSlots(absorbed));
              void asked.then((reply) => { answer = reply; });
              while (answer === undefined && !collector.summarizeSome(SUMMARY_STEP)) await new Promise((resolve) => setImmediate(resolve));
            }
            const layout = answer !== undefined ? answer : await asked;
            awaitedLayout = null;
            if (layout !== null) {
              const { slots, eventNames, stateNames, durations } = layout.reply;
              const shared = collector.shareColumns(slots, eventNames, stateNames);
              // The points would be kept until Dref, and nothing is read after this batch: every instance's duration is
              // known, so Dref is, and both threads write q*.abs as they summarize (no points kept, sent or absorbed).
              // The worker starts at once, and reads Dref when it hands on its first part.
              const reference = own !== null && durations !== undefined ? new ReferenceCell() : null;
              cell = reference;
              layout.worker.postMessage({ type: 'columns', batch: absorbed, shared, ...(reference !== null ? { reference: reference.buffer } : {}) } satisfies ColumnsOffer);
              if (reference !== null && own !== null && durations !== undefined) {
                announced = new AnnouncedDurations(absorbed, durations);
                referenceDuration = referenceDurationAhead(own, durations);
                reference.set(referenceDuration);
                collector.useReferenceDuration(referenceDuration);
              }
            }
          }
          collector.finishClass();
        }
        // Asked early, and not shared after all.
        if (early !== undefined) decline(absorbed, early.worker);
        drain();
      };
      readOwn().catch((err: unknown) => {
        claims.close();
        reject(err);
      });
    });
    if (failure === null && init.seriesInWorkers === true) {
      // The last class's named instances, then Dref over all instances, as buildFeatureSet computes it.
      collector.finishClass();
      (announced as AnnouncedDurations | null)?.finish();
      await fillQuartiles(collector, workers, placed, referenceDuration);
    }
    finished = true;
  } finally {
    stopping = true;
    (cell as ReferenceCell | null)?.stop();
    for (const counter of counters.values()) {
      Atomics.store(counter, 0, STOP_PARTS);
      Atomics.notify(counter, 0);
    }
    const ended = Promise.all(workers.map((w) => w.terminate())).then(() => killProcessGroups()); // programs a terminated worker was still reading from
    // After a whole read the workers are idle, and their heaps are freed on their own threads: not waited for.
    if (failure === null && finished) ended.catch(() => undefined);
    else await ended;
  }
  if (failure !== null) {
    const f = failure as Extract<WorkerReply, { type: 'error' | 'crash' }>;
    if (f.type === 'crash') throw new Error(`parsing worker failed: ${f.message}`);
    throw new InputError(f.message, undefined, undefined, f.hint);
  }
}

const Q1_ABS = STATE_FEATURE_TYPES.indexOf('q1.abs');

/** Where a worker's contribution went in the collector: its first slot, and its state variables. */
interface Placed {
  readonly base: number;
  readonly states: readonly string[];
}

/** Per state variable named: its q1.abs, half.abs and q3.abs columns in the collector. */
function absoluteQuartileColumns(collector: FeatureCollector, names: readonly string[]): GrowableFloat64[][] {
  return names.map((name) => (collector.stateColumns[collector.states.indexOf(name)] as GrowableFloat64[]).slice(Q1_ABS, Q1_ABS + 3));
}

/**
 * Ask every worker for the `q*.abs` of the instances it summarized (from the
 * change points it kept) and write them into the collector's columns: the
 * same valueAt over the same points as FeatureCollector.fillAbsoluteQuartiles,
 * which still fills the instances summarized here (named instances spanning
 * files), whose slots hold their own points.
 */
async function fillQuartiles(collector: FeatureCollector, workers: readonly Worker[], placed: ReadonlyMap<string, Placed>, known: number | null): Promise<void> {
  // No worker kept a contribution's points (Dref was known ahead, or there were no state records): nothing to ask.
  if (placed.size === 0) return;
  const referenceDuration = known ?? referenceDurationOf(collector);
  const answers = await Promise.all(workers.map((w) => new Promise<readonly QuartileChunk[]>((resolve, reject) => {
    const onMessage = (reply: WorkerReply): void => {
      if (reply.type === 'quartiles') {
        w.off('message', onMessage);
        w.off('error', reject);
        resolve(reply.chunks);
      }
    };
    w.on('message', onMessage);
    w.on('error', reject);
    w.postMessage({ referenceDuration } satisfies QuartileRequest);
  })));
  collector.reserveAbsoluteQuartiles();
  for (const chunks of answers) {
    for (const { batch, seq, values } of chunks) {
      const at = placed.get(`${batch}:${seq}`);
      if (at === undefined) throw new Error(`parsing worker sent q*.abs for an unknown contribution ${batch}:${seq}`);
      // Per local state variable: its q1.abs, half.abs and q3.abs columns here.
      writeQuartiles(values, at.base, absoluteQuartileColumns(collector, at.states));
    }
  }
}

/** A QuartileChunk's values into the columns (a loop of its own: it runs once, over a million runs with requests). */
function writeQuartiles(values: Float64Array, base: number, columns: readonly (readonly GrowableFloat64[])[]): void {
  for (let i = 0; i < values.length; i += QUARTILE_STRIDE) {
    // (Slot and column as small integers: a slot read from a Float64Array as a double made the columns' `length`
    // a double field, and V8 threw away every function compiled with it as an integer: `summarize`, `flush`.)
    const cols = columns[(values[i + 1] as number) | 0] as readonly GrowableFloat64[];
    const slot = base + ((values[i] as number) | 0);
    (cols[0] as GrowableFloat64).set(slot, values[i + 2] as number);
    (cols[1] as GrowableFloat64).set(slot, values[i + 3] as number);
    (cols[2] as GrowableFloat64).set(slot, values[i + 4] as number);
  }
}

function mergeStats(into: ReadStats, from: ReadStats, examples: number): void {
  into.files += from.files;
  into.bytes += from.bytes;
  into.lines += from.lines;
  into.records += from.records;
  into.skippedLines += from.skippedLines;
  into.unmappedLines += from.unmappedLines;
  if (into.firstLost === '') into.firstLost = from.firstLost;
  into.streamed += from.streamed;
  into.helped += from.helped;
  for (const e of from.skippedExamples) if (into.skippedExamples.length < examples) into.skippedExamples.push(e);
  into.notes.push(...from.notes);
}
