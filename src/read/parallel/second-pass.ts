/**
 * The second pass (q*.abs for inputs too large to hold every state change
 * point: features/quartile-pass.ts) on several threads: the files in
 * batches, claimed as the first pass claims them (claims.ts), this thread
 * from the front into its own pass, the workers from the back, each batch
 * into a pass of its own whose findings come back and are merged here in
 * input order. The result is the one pass over all files in turn.
 */
import type { Worker } from 'node:worker_threads';
import { killProcessGroups, processGroupTable } from '../../cleanup.js';
import { InputError } from '../../errors.js';
import type { AbsoluteQuartilePass, QuartileFindings, QuartileLayout } from '../../features/quartile-pass.js';
import { BatchClaims } from '../../parse/claims.js';
import { batchesOf, tasksOf, type ParallelInput } from './batches.js';
import type { WorkerReply, WorkerTask } from './protocol.js';
import type { WorkerInit } from './worker-init.js';
import { emptyReadStats, readClass } from '../../parse/reader.js';
import { parsingWorker } from './threads.js';
import type { Translator } from '../../parse/translator.js';

/** The second pass's batches for a worker: claimed from the back, each read into a pass over `layout`. */
export interface StatesBatches {
  readonly type: 'states';
  readonly claims: SharedArrayBuffer;
  readonly tasks: readonly WorkerTask[];
  readonly layout: QuartileLayout;
}

/** A worker's answer to StatesBatches: each batch's findings (or its failure), then 'states-end' once none is left. */
export type StatesReply =
  | { readonly type: 'states-done'; readonly batch: number; readonly findings: QuartileFindings }
  | { readonly type: 'states-end' }
  | Extract<WorkerReply, { type: 'error' | 'crash' | 'fatal' | 'bytes' }>;

/**
 * Read `inputs` (in input order) into `pass` on `jobs` threads, as reading
 * them one after another into it would. `init` as for readParallel (the
 * translator the workers load); `local.translator`, this thread's. On a
 * failure, the first failing file in input order is reported. For tests:
 * `local.batchBytes` (see batchesOf) and `local.frontBatches` (at most this
 * many batches read by this thread, the workers claim the others).
 */
export async function readStatesParallel(
  inputs: readonly ParallelInput[],
  jobs: number,
  init: WorkerInit,
  pass: AbsoluteQuartilePass,
  layout: QuartileLayout,
  progress: { addBytes(n: number): void; fileDone(): void },
  local: { readonly translator?: Translator; readonly batchBytes?: number; readonly frontBatches?: number } = {},
): Promise<void> {
  const batches = batchesOf(inputs, jobs, local.batchBytes);
  // (A class's only file is a batch of its own, as in the first pass; nothing is summarized here.)
  const tasks = tasksOf(inputs, batches);
  const claims = new BatchClaims(batches.length);
  const workers: Worker[] = Array.from({ length: Math.max(0, Math.min(jobs - 1, batches.length - 1)) }, () =>
    parsingWorker({ ...init, processGroups: processGroupTable() }));
  /** Each worker batch's findings or failure, by batch. */
  const answers = new Map<number, StatesReply>();
  let stopping = false;
  try {
    const workersDone = Promise.all(workers.map((w) => new Promise<void>((resolve, reject) => {
      w.on('message', (reply: StatesReply) => {
        if (reply.type === 'bytes') progress.addBytes(reply.n);
        else if (reply.type === 'states-end') resolve();
        else if (reply.type === 'fatal') reject(reply.internal === true ? new Error(`parsing worker failed: ${reply.message}`) : new InputError(reply.message, undefined, undefined, reply.hint));
        else {
          answers.set(reply.batch, reply);
          for (let i = 0; i < (tasks[reply.batch] as WorkerTask).files.length; i++) progress.fileDone();
        }
      });
      w.on('error', reject);
      w.on('exit', (code) => {
        if (!stopping) reject(new InputError(`${init.translator !== undefined ? `translator ${init.translator}` : 'a parsing worker'} exited (exit code ${code}) in the second pass`));
      });
      w.postMessage({ type: 'states', claims: claims.buffer, tasks, layout } satisfies StatesBatches);
    })));
    // (A worker's failure is kept for its turn in input order; one that ends the run is seen as soon as it comes.)
    workersDone.catch(() => undefined);
    let own = 0;
    const claim = (): number => (own++ < (local.frontBatches ?? Infinity) ? claims.front() : -1);
    for (let b = claim(); b >= 0; b = claim()) {
      const task = tasks[b] as WorkerTask;
      for (const file of task.files) {
        await readClass([file], task.className, pass, { ...(local.translator !== undefined ? { translator: local.translator } : {}), strict: init.strict, onBytes: (n) => progress.addBytes(n) }, emptyReadStats());
        progress.fileDone();
      }
    }
    // (Tests: the batches beyond frontBatches are left for the workers to claim.)
    while (local.frontBatches !== undefined && workers.length > 0 && !claims.exhausted()) await new Promise((resolve) => setTimeout(resolve, 1));
    const from = claims.close();
    await workersDone;
    for (let b = from; b < batches.length; b++) {
      const answer = answers.get(b);
      if (answer === undefined) throw new Error(`second pass: batch ${b} was not answered`);
      if (answer.type === 'states-done') pass.merge(answer.findings);
      else if (answer.type === 'crash') throw new Error(`parsing worker failed: ${answer.message}`);
      else if (answer.type === 'error') throw new InputError(answer.message, undefined, undefined, answer.hint);
    }
  } finally {
    stopping = true;
    await Promise.all(workers.map((w) => w.terminate())).then(() => killProcessGroups());
  }
}
