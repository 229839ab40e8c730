import { Worker } from 'node:worker_threads';
import { InputError } from '../errors.js';
import type { FeatureCollector, FileContribution } from '../features/collector.js';
import type { InputFile } from './files.js';
import type { ReadStats } from './reader.js';
import type { ClassName } from './records.js';

export interface WorkerInit {
  readonly translator?: string;
  readonly year?: number;
  readonly strict: boolean;
  /** Whether to build state change points (see FeatureCollector): off when the main collector would drop them. */
  readonly keepSeries: boolean;
}

export type WorkerReply =
  | { readonly type: 'done'; readonly index: number; readonly contribution: FileContribution; readonly stats: ReadStats }
  | { readonly type: 'error'; readonly index: number; readonly message: string; readonly hint?: string }
  | { readonly type: 'crash'; readonly index: number; readonly message: string }
  | { readonly type: 'bytes'; readonly n: number };

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
  const workers = Array.from({ length: Math.min(jobs, inputs.length) }, () => new Worker(workerUrl, { workerData: init }));
  const results = new Map<number, WorkerReply>();
  let next = 0;
  let absorbed = 0;
  let failure: WorkerReply | null = null;
  try {
    await new Promise<void>((resolve, reject) => {
      const dispatch = (w: Worker): boolean => {
        if (failure !== null || next >= inputs.length) return false;
        const index = next++;
        const input = inputs[index] as ParallelInput;
        w.postMessage({ index, file: input.file, className: input.className });
        return true;
      };
      let busy = 0;
      for (const w of workers) {
        w.on('message', (reply: WorkerReply) => {
          if (reply.type === 'bytes') {
            progress.addBytes(reply.n);
            return;
          }
          busy--;
          results.set(reply.index, reply);
          if (reply.type !== 'done' && (failure === null || reply.index < (failure as { index: number }).index)) failure = reply;
          // Hand out the next file before absorbing, so the worker never waits for the main thread.
          if (dispatch(w)) busy++;
          // Absorb whatever is now contiguous, in file order.
          while (failure === null && results.has(absorbed)) {
            const r = results.get(absorbed) as Extract<WorkerReply, { type: 'done' }>;
            results.delete(absorbed);
            collector.absorb(r.contribution);
            mergeStats(stats[(inputs[absorbed] as ParallelInput).className], r.stats, examples);
            progress.fileDone();
            absorbed++;
          }
          if (busy === 0) resolve();
        });
        w.on('error', reject);
      }
      // Two files in flight per worker: one being parsed, one queued behind it.
      for (let round = 0; round < 2; round++) for (const w of workers) if (dispatch(w)) busy++;
      if (busy === 0) resolve();
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  if (failure !== null) {
    const f = failure as Exclude<WorkerReply, { type: 'done' | 'bytes' }>;
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
