import { Worker } from 'node:worker_threads';
import { killProcessGroups, processGroupTable } from '../cleanup.js';
import { InputError } from '../errors.js';
import type { FeatureCollector, FileContribution } from '../features/collector.js';
import type { InputFile } from './files.js';
import type { ReadStats } from './reader.js';
import type { ClassName } from './records.js';
import type { TemplateModel } from './templates/index.js';

export interface WorkerInit {
  readonly translator?: string;
  readonly year?: number;
  /** Templates mined from raw logs (no translator): each worker rebuilds the same translator from them. */
  readonly templates?: TemplateModel;
  readonly strict: boolean;
  /** Whether to build state change points (see FeatureCollector): off when the main collector would drop them. */
  readonly keepSeries: boolean;
  /** Shared with the main thread: the translator programs running (see cleanup.ts). */
  readonly processGroups?: SharedArrayBuffer;
  /**
   * One Int32 shared with the main thread: how many of this worker's 'part'
   * messages it has absorbed (STOP_PARTS when the run stops). The worker sends
   * at most PARTS_AHEAD parts beyond that, then waits: parts of a file that is
   * not yet next in order stay in the worker instead of piling up here.
   */
  readonly partsAbsorbed?: SharedArrayBuffer;
}

/** Parts a worker may have sent and not yet seen absorbed. */
export const PARTS_AHEAD = 2;
/** partsAbsorbed's value once the run stops: no worker waits any more. */
export const STOP_PARTS = 1 << 30;

export type WorkerReply =
  | { readonly type: 'done'; readonly index: number; readonly contribution: FileContribution; readonly stats: ReadStats }
  /** A leading part of file `index`'s contribution (a class's only file, in parts of summarized instances); 'done' follows. */
  | { readonly type: 'part'; readonly index: number; readonly contribution: FileContribution }
  | { readonly type: 'error'; readonly index: number; readonly message: string; readonly hint?: string }
  | { readonly type: 'crash'; readonly index: number; readonly message: string }
  | { readonly type: 'bytes'; readonly n: number }
  /** An error outside any file's reading (a translator's timer): ends the run at once. */
  | { readonly type: 'fatal'; readonly message: string; readonly hint?: string; readonly internal?: boolean };

export interface ParallelInput {
  readonly file: InputFile;
  readonly className: ClassName;
}

/**
 * Parse files on `jobs` worker threads and absorb their contributions into
 * `collector` strictly in file order, so the result is byte-identical to
 * reading them one by one. Files are handed out one at a time (a slow file
 * does not hold up a whole batch). On an input error, the first failing file
 * in input order is reported, as a sequential read would.
 */
export async function readParallel(
  inputs: readonly ParallelInput[],
  jobs: number,
  init: WorkerInit,
  collector: FeatureCollector,
  stats: Record<ClassName, ReadStats>,
  progress: { addBytes(n: number): void; fileDone(): void },
  examples = 5,
): Promise<void> {
  const workerUrl = new URL('./worker.js', import.meta.url);
  const counters = new Map<Worker, Int32Array>();
  const workers = Array.from({ length: Math.min(jobs, inputs.length) }, () => {
    const partsAbsorbed = new SharedArrayBuffer(4);
    const w = new Worker(workerUrl, { workerData: { ...init, processGroups: processGroupTable(), partsAbsorbed } });
    counters.set(w, new Int32Array(partsAbsorbed));
    return w;
  });
  /** A part absorbed: its worker may send the next. */
  const acknowledge = (w: Worker): void => {
    const counter = counters.get(w)!;
    Atomics.add(counter, 0, 1);
    Atomics.notify(counter, 0);
  };
  const absorbPart = (part: { contribution: FileContribution; from: Worker }): void => {
    collector.absorb(part.contribution);
    acknowledge(part.from);
  };
  const results = new Map<number, WorkerReply>();
  const parts = new Map<number, { contribution: FileContribution; from: Worker }[]>();
  let next = 0;
  let absorbed = 0;
  let failure: WorkerReply | null = null;
  let stopping = false;
  /** The files handed to each worker and not yet answered, oldest first. */
  const inFlight = new Map<Worker, number[]>(workers.map((w) => [w, []]));
  const filesPerClass = new Map<ClassName, number>();
  for (const input of inputs) filesPerClass.set(input.className, (filesPerClass.get(input.className) ?? 0) + 1);
  try {
    await new Promise<void>((resolve, reject) => {
      const dispatch = (w: Worker): boolean => {
        if (failure !== null || next >= inputs.length) return false;
        const index = next++;
        const input = inputs[index] as ParallelInput;
        // A class read from one file: the worker summarizes the instances its I records name.
        const wholeClass = filesPerClass.get(input.className) === 1;
        w.postMessage({ index, file: input.file, className: input.className, wholeClass });
        inFlight.get(w)!.push(index);
        return true;
      };
      let busy = 0;
      for (const w of workers) {
        w.on('message', (reply: WorkerReply) => {
          if (reply.type === 'bytes') {
            progress.addBytes(reply.n);
            return;
          }
          if (reply.type === 'fatal') {
            reject(reply.internal === true ? new Error(`parsing worker failed: ${reply.message}`) : new InputError(reply.message, undefined, undefined, reply.hint));
            return;
          }
          if (reply.type === 'part') {
            // Absorbed at once when its file is next in order, else kept until it is.
            if (failure !== null) return;
            const queued = parts.get(reply.index) ?? [];
            queued.push({ contribution: reply.contribution, from: w });
            parts.set(reply.index, queued);
            if (reply.index === absorbed) {
              try {
                for (const part of queued) absorbPart(part);
              } catch (err) {
                next = inputs.length;
                reject(err);
                return;
              }
              parts.delete(absorbed);
            }
            return;
          }
          busy--;
          inFlight.get(w)!.shift();
          results.set(reply.index, reply);
          if (reply.type !== 'done' && (failure === null || reply.index < (failure as { index: number }).index)) failure = reply;
          // Hand out the next file before absorbing, so the worker never waits for the main thread.
          if (dispatch(w)) busy++;
          // Absorb whatever is now contiguous, in file order. absorb may throw an
          // InputError (too many variables): reject, hand out nothing more.
          try {
            while (failure === null && results.has(absorbed)) {
              const r = results.get(absorbed) as Extract<WorkerReply, { type: 'done' }>;
              results.delete(absorbed);
              for (const part of parts.get(absorbed) ?? []) absorbPart(part);
              parts.delete(absorbed);
              collector.absorb(r.contribution);
              mergeStats(stats[(inputs[absorbed] as ParallelInput).className], r.stats, examples);
              progress.fileDone();
              absorbed++;
            }
            // The next file's parts that came early (its worker may be waiting for them to go in).
            const early = failure === null ? parts.get(absorbed) : undefined;
            if (early !== undefined) {
              for (const part of early) absorbPart(part);
              parts.delete(absorbed);
            }
          } catch (err) {
            next = inputs.length;
            reject(err);
            return;
          }
          if (busy === 0) resolve();
        });
        w.on('error', reject);
        // A worker that ends by itself (a translator calling a saved process.exit) must not end the run quietly.
        w.on('exit', (code) => {
          if (stopping) return;
          const index = inFlight.get(w)![0];
          const file = index === undefined ? undefined : (inputs[index] as ParallelInput).file.path;
          const who = init.translator !== undefined ? `translator ${init.translator}` : 'a parsing worker';
          reject(new InputError(`${who} ended its worker thread (exit code ${code})${file === undefined ? '' : ' while reading this file'}`, file));
        });
      }
      // Two files in flight per worker: one being parsed, one queued behind it.
      for (let round = 0; round < 2; round++) for (const w of workers) if (dispatch(w)) busy++;
      if (busy === 0) resolve();
    });
  } finally {
    stopping = true;
    for (const counter of counters.values()) {
      Atomics.store(counter, 0, STOP_PARTS);
      Atomics.notify(counter, 0);
    }
    await Promise.all(workers.map((w) => w.terminate()));
    killProcessGroups(); // programs a terminated worker was still reading from
  }
  if (failure !== null) {
    const f = failure as Extract<WorkerReply, { type: 'error' | 'crash' }>;
    if (f.type === 'crash') throw new Error(`parsing worker failed: ${f.message}`);
    throw new InputError(f.message, undefined, undefined, f.type === 'error' ? f.hint : undefined);
  }
}

function mergeStats(into: ReadStats, from: ReadStats, examples: number): void {
  into.files += from.files;
  into.bytes += from.bytes;
  into.lines += from.lines;
  into.records += from.records;
  into.skippedLines += from.skippedLines;
  for (const e of from.skippedExamples) if (into.skippedExamples.length < examples) into.skippedExamples.push(e);
  into.notes.push(...from.notes);
}
