/**
 * A parsing worker (worker_threads): reads batches of whole files, each batch
 * into a fresh FeatureCollector, and posts back the batch's contribution. See
 * parallel.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { useProcessGroupTable } from '../../cleanup.js';
import { InputError } from '../../errors.js';
import { FeatureCollector } from '../../features/collector.js';
import type { FileContribution } from '../../features/contribution.js';
import { valueAtIn } from '../../features/summary-loops.js';
import { emptyContribution, forEachRun, withoutPoints } from './contribution.js';
import { emptyReadStats, readClass } from '../../parse/reader.js';
import type { Translator } from '../../parse/translator.js';
import { consoleOnStderr } from '../../parse/translators/console.js';
import { readRange, splitRange, type RangeSplit, type RangeTask } from './ranges.js';
import { batchBytes, MainPace } from './batches.js';
import { PARTS_AHEAD, QUARTILE_STRIDE, ReferenceCell, type ColumnsOffer, type QuartileChunk, type QuartileRequest, type WorkerBatches, type WorkerReply, type WorkerTask } from './protocol.js';
import type { WorkerInit, WorkerStart } from './worker-init.js';
import { BatchClaims } from '../../parse/claims.js';
import { HelpBoard, TailOwner, type TailMessage } from '../../parse/tail-help.js';
import { helpOthers } from './tail-helper.js';
import { AbsoluteQuartilePass, QuartileSlots } from '../../features/quartile-pass.js';
import { float64sIn } from '../../memory/growable.js';
import type { StatesBatches, StatesReply } from './second-pass.js';

// This thread prints nothing to stdout of its own: a translator module's console output (its timers' too) goes to stderr.
consoleOnStderr();
const port = parentPort!;
// Nothing this worker sends is moved (no transfer list): its contributions' arrays are shared (FeatureCollector's
// exportMemory says why), the rest copied.
let translator: Translator | undefined;
let pendingBytes = 0;
let partsSent = 0;
// This worker's settings: its workerData, or, started ahead of the reading (threads.ts), its first message.
let init!: WorkerInit;
let partsAbsorbed: Int32Array | undefined;
let currentFile: Int32Array | undefined;
/** This worker's entry on the board of large files being read (tail-help.ts), and the board. */
let tail: TailOwner | undefined;
function applyInit(settings: WorkerInit): void {
  init = settings;
  tail = settings.tailBoard !== undefined ? new TailOwner(new HelpBoard(settings.tailBoard), settings.tailSelf ?? 0, settings.tailMinBytes) : undefined;
  partsAbsorbed = settings.partsAbsorbed !== undefined ? new Int32Array(settings.partsAbsorbed) : undefined;
  currentFile = settings.currentFile !== undefined ? new Int32Array(settings.currentFile) : undefined;
  // Translator programs started here are registered where the main thread's signal handler sees them.
  if (settings.processGroups !== undefined) useProcessGroupTable(settings.processGroups);
}
let initFrom: ((start: WorkerStart) => void) | null = null;
const initialized = workerData !== null
  ? Promise.resolve(applyInit(workerData as WorkerInit))
  : new Promise<void>((resolve) => { initFrom = (start) => { applyInit(start.init); resolve(); }; });

/**
 * After sending a part: wait (blocking this worker only) while more than
 * PARTS_AHEAD of its parts are not yet absorbed by the main thread. The
 * wait re-checks every 100 ms, so a stop is seen even if a wake-up is missed.
 */
function awaitRoom(): void {
  if (partsAbsorbed === undefined) return;
  for (;;) {
    const absorbed = Atomics.load(partsAbsorbed, 0);
    if (partsSent - absorbed <= PARTS_AHEAD) return;
    Atomics.wait(partsAbsorbed, 0, absorbed, 100);
  }
}
/** Progress: bytes read, reported every MiB. */
function countBytes(n: number): void {
  pendingBytes += n;
  if (pendingBytes >= 1 << 20) flushBytes();
}

function flushBytes(): void {
  if (pendingBytes === 0) return;
  port.postMessage({ type: 'bytes', n: pendingBytes } satisfies WorkerReply);
  pendingBytes = 0;
}

/** The translator of `init` (templates mined, or a translator's path), loaded once. */
async function loadTranslator(): Promise<void> {
  if (init.templates !== undefined && translator === undefined) {
    const { templateTranslator } = await import('../../parse/templates/index.js');
    translator = templateTranslator(init.templates);
  }
  if (init.translator !== undefined && translator === undefined) {
    const { loadTranslator: load } = await import('../../parse/translators/load.js');
    translator = await load(init.translator, init.year !== undefined ? { year: init.year } : {});
  }
}

/**
 * The second pass's batches (second-pass.ts), claimed from the back until
 * none is left: each read into a pass of its own over the layout, its
 * findings (or its failure) sent, its arrays moved, not copied.
 */
async function readStates(msg: StatesBatches): Promise<void> {
  const claims = new BatchClaims(msg.claims);
  const slots = new QuartileSlots(msg.layout);
  for (let b = claims.back(); b >= 0; b = claims.back()) {
    const task = msg.tasks[b] as WorkerTask;
    let index = task.first;
    try {
      await loadTranslator();
      const pass = new AbsoluteQuartilePass(slots);
      for (const file of task.files) {
        await readClass([file], task.className, pass, { ...(translator !== undefined ? { translator } : {}), strict: init.strict, onBytes: countBytes }, emptyReadStats());
        index++;
      }
      flushBytes();
      const findings = pass.results();
      port.postMessage({ type: 'states-done', batch: b, findings } satisfies StatesReply);
    } catch (err) {
      // (Read on: every batch is answered, and the main thread reports the first failure in input order.)
      port.postMessage(failureOf(err, b, index));
    }
  }
  port.postMessage({ type: 'states-end' } satisfies StatesReply);
}

/** The collector of the batch read last (handle): its buffers go on to the next one's. */
let lastCollector: FeatureCollector | null = null;

/** A collector as this worker's settings ask: change points or not, Dref guessed ahead or not. */
function newCollector(): FeatureCollector {
  const collector = new FeatureCollector(init.keepSeries, SharedArrayBuffer);
  if (init.referenceDuration !== undefined) collector.useReferenceDuration(init.referenceDuration);
  return collector;
}

/**
 * Read a batch of consecutive files of one class into one collector (as a
 * sequential read would: each file's own instance summarized at its end, the
 * records of `I`-named instances held) and export it as one contribution.
 */
async function handle(task: WorkerTask): Promise<WorkerReply> {
  const { batch, first, files, className, wholeClass } = task;
  let index = first;
  try {
    await loadTranslator();
    const collector = newCollector();
    // The last batch's scratch and file buffer, sized already (new ones: fresh memory, a page fault each 4 KB).
    if (lastCollector !== null) collector.reuseBuffersOf(lastCollector);
    lastCollector = collector;
    collector.expectClassBytes(batchBytes(task));
    collector.expectFiles(files.length);
    const stats = emptyReadStats();
    tail?.reading(batch, files);
    const options = {
      ...(translator !== undefined ? { translator } : {}),
      strict: init.strict,
      onBytes: countBytes,
      ...(tail !== undefined ? { tail } : {}),
      ...(init.readAhead !== undefined ? { readAhead: init.readAhead } : {}),
    };
    for (const file of files) {
      if (currentFile !== undefined) Atomics.store(currentFile, 0, index);
      await readClass([file], className, collector, options, stats);
      index++;
    }
    // The batch's empty files go as a list (a contribution names one): taken before a whole class's parts clear them.
    const emptyFiles = [...collector.emptyFiles];
    // (The batch's collector is dropped after: its held records go as they are, not copied.)
    const contribution = wholeClass ? await exportClass(batch, collector) : collector.exportFile(true, 0, true);
    return { type: 'done', batch, contribution: { ...contribution, emptyFile: null }, emptyFiles, stats };
  } catch (err) {
    return failureOf(err, batch, index);
  }
}

/** The reply for an error while reading file `index` of batch `batch`: the input's (InputError), or distalyze's. */
function failureOf(err: unknown, batch: number, index: number): WorkerReply {
  if (err instanceof InputError) return { type: 'error', batch, index, message: err.message, ...(err.hint !== undefined ? { hint: err.hint } : {}) };
  return { type: 'crash', batch, index, message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}

/**
 * A whole class read (a class's only file, or every batch of one: exportOwned)
 * exported: its named instances summarized here, straight into the main
 * thread's columns when it offers them (ColumnsOffer), and handed on in parts
 * of batch `batch` as they are; what is left is returned.
 */
async function exportClass(batch: number, collector: FeatureCollector): Promise<FileContribution> {
  const send = (whole: FileContribution): void => {
    const part = keepSeries(batch, whole);
    port.postMessage({ type: 'part', batch, contribution: part } satisfies WorkerReply);
    partsSent++;
    // A part summarized into shared columns holds no values (ids, durations, a few counts per slot): not held back.
    if (part.sharedLengths === undefined) awaitRoom();
  };
  const offer = init.shareColumns === true ? await columnsOffered(batch, collector) : null;
  const shared = offer?.shared ?? null;
  if (shared !== null) {
    collector.useSharedColumns(shared);
    // Dref known ahead (by the first part): q*.abs written as the instances are summarized, no change point sent.
    if (offer?.reference !== undefined) {
      const cell = new ReferenceCell(offer.reference);
      collector.useReferenceDurationLater(() => cell.get());
    }
  }
  // A whole class's named ids that are not its slots' ids cross now, not after its last part: the main thread
  // takes them in (finding the ids both classes name) while this thread summarizes.
  const named = collector.namedIdsAhead();
  const sorted = collector.namedOrderAhead();
  if (named !== null) {
    port.postMessage({ type: 'named', batch, ids: named, ...(sorted !== null ? { sorted } : {}) } satisfies WorkerReply);
  }
  return shared !== null ? collector.exportSharedClass(shared, send) : collector.exportWholeClass(send);
}

type Done = Extract<WorkerReply, { type: 'done' }>;

/** A batch's reply sent: its contribution's change points kept here (keepSeries), its arrays shared. */
function post(reply: Done): void {
  const contribution = keepSeries(reply.batch, reply.contribution);
  port.postMessage({ ...reply, contribution } satisfies WorkerReply);
}

/**
 * Every batch of a class was read here (`kept`, from the class's last batch
 * down to its first): its records taken in, in input order, by one
 * collector, and the class exported as a class's only file would be
 * (exportClass), under its first batch; the other batches answered with
 * nothing but their empty files and counts.
 */
async function exportOwned(kept: readonly Done[]): Promise<void> {
  const inOrder = [...kept].reverse();
  const first = inOrder[0] as Done;
  const merged = newCollector();
  // Summarized from each batch's own records when each instance lies in one batch, ids ascending (a rotated log);
  // else taken in as records, room for all of them made at once (not grown batch by batch, copying them).
  if (!merged.absorbSegments(inOrder.map((reply) => reply.contribution))) {
    const held = inOrder.reduce((n, reply) => n + reply.contribution.heldCode.length, 0);
    for (const reply of inOrder) merged.absorb(reply.contribution, reply === first ? held : 0);
  }
  const contribution = await exportClass(first.batch, merged);
  post({ ...first, contribution: { ...contribution, emptyFile: null } });
  for (const reply of inOrder.slice(1)) post({ ...reply, contribution: emptyContribution(reply.contribution.className) });
}

// An error escaping from a translator module (a timer, a forgotten promise) ends the run as the
// translator's failure; anything else is distalyze's bug.
const escaped = (err: unknown): void => {
  void import('../../parse/translators/module.js').then(({ translatorFailureOf }) => {
    const failure = translatorFailureOf(err);
    port.postMessage(failure !== null
      ? { type: 'fatal', message: failure.message, ...(failure.hint !== undefined ? { hint: failure.hint } : {}) } satisfies WorkerReply
      : { type: 'fatal', message: err instanceof Error ? (err.stack ?? err.message) : String(err), internal: true } satisfies WorkerReply);
  });
};
process.on('uncaughtException', escaped);
process.on('unhandledRejection', escaped);

/**
 * State change points of the contributions sent, kept here until Dref is
 * known (see QuartileRequest), with their runs (one state variable's points
 * in one slot) found as each is kept, while the other threads still parse:
 * at the end only the runs' binary searches remain.
 */
interface KeptSeries {
  readonly batch: number;
  readonly seq: number;
  /** Per run: slot, state variable, first point, end (one past the last). */
  readonly runs: Int32Array;
  readonly seriesT: Float64Array;
  readonly seriesV: Float64Array;
}
const kept: KeptSeries[] = [];
const sentOf = new Map<number, number>();
const RUN_STRIDE = 4;

/**
 * A contribution about to be sent, without its state change points: they
 * stay here (each slot's range empty there), and only their q*.abs cross
 * at the end. Without keepSeries there are none.
 */
function keepSeries(batch: number, c: FileContribution): FileContribution {
  const seq = sentOf.get(batch) ?? 0;
  sentOf.set(batch, seq + 1);
  if (init.seriesInWorkers !== true || c.seriesVar.length === 0) return c;
  kept.push({ batch, seq, runs: runsOf(c.seriesStart, c.seriesVar), seriesT: c.seriesT, seriesV: c.seriesV });
  return { ...withoutPoints(c), pointsKept: true };
}

/** The runs of a contribution's points (forEachRun), as RUN_STRIDE numbers each: slot, variable, first point, end. */
function runsOf(seriesStart: Int32Array, vars: Int32Array): Int32Array {
  let runs = 0;
  forEachRun(seriesStart, vars, () => { runs++; });
  const out = new Int32Array(runs * RUN_STRIDE);
  let w = 0;
  forEachRun(seriesStart, vars, (slot, v, from, to) => {
    out[w++] = slot;
    out[w++] = v;
    out[w++] = from;
    out[w++] = to;
  });
  return out;
}

/**
 * q*.abs of every kept contribution: for each run, valueAt at q × Dref,
 * exactly as FeatureCollector.fillAbsoluteQuartiles computes them.
 */
function quartiles(referenceDuration: number): QuartileChunk[] {
  const targets = [0.25, 0.5, 0.75].map((q) => q * referenceDuration);
  const chunks = kept.map((k) => {
    const { runs } = k;
    // Shared, not moved (see the note at the top).
    const values = float64sIn(SharedArrayBuffer, (runs.length / RUN_STRIDE) * QUARTILE_STRIDE);
    let w = 0;
    for (let r = 0; r < runs.length; r += RUN_STRIDE) {
      values[w++] = runs[r] as number;
      values[w++] = runs[r + 1] as number;
      for (const x of targets) values[w++] = valueAtIn(k.seriesT, k.seriesV, runs[r + 2] as number, runs[r + 3] as number, x);
    }
    return { batch: k.batch, seq: k.seq, values };
  });
  kept.length = 0;
  return chunks;
}

/** The main thread's answers to 'layout' replies (ColumnsOffer), by batch. */
const offers = new Map<number, (offer: ColumnsOffer) => void>();

/** Ask the main thread for columns to summarize batch `batch`'s instances into (see FeatureCollector.shareColumns). */
function columnsOffered(batch: number, collector: FeatureCollector): Promise<ColumnsOffer> {
  return new Promise((resolve) => {
    offers.set(batch, resolve);
    const { events, states } = collector;
    const layout = { type: 'layout', batch, slots: collector.pendingSlots(), eventNames: [...events.names], stateNames: [...states.names] } as const;
    // With the points kept until Dref: the durations, so that Dref is known before summarizing (ColumnsOffer.reference).
    if (init.seriesInWorkers !== true) port.postMessage(layout satisfies WorkerReply);
    else {
      const durations = collector.pendingDurations();
      port.postMessage({ ...layout, durations } satisfies WorkerReply);
    }
  });
}

// Batches are read one after another, in the order they were handed out; a
// QuartileRequest comes once all are answered.
let queue: Promise<void> = initialized;
port.on('message', (msg: WorkerBatches | QuartileRequest | RangeTask | RangeSplit | ColumnsOffer | WorkerStart | StatesBatches | TailMessage) => {
  if ('type' in msg && msg.type === 'init') {
    initFrom?.(msg);
    return;
  }
  if ('type' in msg && msg.type === 'states') {
    queue = queue.then(() => readStates(msg));
    return;
  }
  if ('type' in msg && (msg.type === 'tail-piece' || msg.type === 'tail-end')) {
    tail?.deliver(msg);
    return;
  }
  if ('type' in msg && msg.type === 'columns') {
    const answer = offers.get(msg.batch);
    offers.delete(msg.batch);
    answer?.(msg);
    return;
  }
  if ('type' in msg && msg.type !== 'batches') {
    // A byte range of one large file (ranges.ts): read it, then split it as the main thread says.
    const range = msg;
    queue = queue.then(async () => {
      try {
        if (range.type === 'range') {
          const summary = await readRange(range, countBytes);
          flushBytes();
          port.postMessage(summary);
          return;
        }
        const done = splitRange(range, init.keepSeries, (part) => {
          port.postMessage({ type: 'part', batch: -1, split: range.split, contribution: part });
          partsSent++;
          awaitRoom();
        });
        port.postMessage(done);
      } catch (err) {
        port.postMessage({ type: 'crash', batch: -1, index: -1, split: range.split, message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      }
    });
    return;
  }
  if ('referenceDuration' in msg) {
    const chunks = quartiles(msg.referenceDuration);
    port.postMessage({ type: 'quartiles', chunks } satisfies WorkerReply);
    return;
  }
  // Batches claimed from the back, one at a time, until none is left or one fails.
  const claims = new BatchClaims(msg.claims);
  const { tasks } = msg;
  const pace = msg.pace !== undefined ? new MainPace(msg.pace) : null;
  /** The last batch's pace (bytes per ms): the first one, cold, is slower than the rest. */
  let rate = 0;
  /** A class's batches not yet sent, from its last one down: if this worker reads them all, it summarizes the class (exportOwned). */
  let kept: Done[] = [];
  const sameClass = (b: number, c: number): boolean => c >= 0 && c < tasks.length && (tasks[b] as WorkerTask).className === (tasks[c] as WorkerTask).className;
  // The last batch left only when this worker would finish it before the main thread (MainPace), or when it is
  // of the class kept here: taking it, this worker summarizes the class, which the main thread would do alone
  // after everything else (its pace does not foretell that).
  const takeLast = pace === null ? undefined : (b: number): boolean =>
    (kept.length > 0 && sameClass(b, (kept[0] as Done).batch)) || pace.workerFirst(batchBytes(tasks[b] as WorkerTask), rate);
  queue = queue.then(async () => {
    for (let b = claims.back(takeLast); b >= 0; b = claims.back(takeLast)) {
      const task = tasks[b] as WorkerTask;
      const started = performance.now();
      const reply = await handle(task);
      rate = batchBytes(task) / Math.max(1, performance.now() - started);
      flushBytes();
      if (currentFile !== undefined) Atomics.store(currentFile, 0, -1);
      if (reply.type !== 'done') {
        port.postMessage(reply);
        break;
      }
      // A class's last batch with named instances, and the batches before it in this class, are kept: if the
      // main thread leaves this worker the rest (parallel.ts, leaveRest), its first batch comes here too. Only
      // while they follow one another: another worker claimed one in between, and this one owns nothing.
      const next = kept.length > 0 && b === (kept[kept.length - 1] as Done).batch - 1;
      if (kept.length > 0 && !next) {
        for (const r of kept) post(r);
        kept = [];
      }
      const keep = init.ownClasses === true && !task.wholeClass &&
        (next || (!sameClass(b, b + 1) && reply.contribution.heldIds.length > 0));
      if (!keep) {
        post(reply);
        continue;
      }
      kept.push(reply);
      if (sameClass(b, b - 1)) continue;
      const owned = kept;
      kept = [];
      try {
        await exportOwned(owned);
      } catch (err) {
        // (Summarizing the class failed: an instance's timestamps, say, as a sequential read's finishClass would.)
        port.postMessage(failureOf(err, b, task.first));
        for (const r of owned.slice(0, -1)) post(r);
        break;
      }
    }
    // The main thread read some of the class: its batches go as records.
    for (const reply of kept) post(reply);
    kept = [];
    // Nothing left to claim: the rest of a large file another thread still reads, read here too.
    if (tail !== undefined) {
      await helpOthers(tail.board, tail.self, (batch) => tasks[batch]?.files, (_owner, m) => port.postMessage(m), Infinity, init.tailMinBytes, init.readAhead);
    }
  });
});
