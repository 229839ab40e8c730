import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { WorkerInit } from './parallel.js';

const workerUrl = new URL('./worker.js', import.meta.url);

/**
 * Parsing workers compile their hot functions on their own thread. V8
 * optimizes on a background thread by default, which on the main thread of
 * `--jobs 1` runs on an idle core; with every core parsing it waits for one,
 * and a worker runs its first megabytes unoptimized (measured on the dlog
 * set, 2 cores: the parse stage of `-j2` 430 → 400 ms; bench/README.md). The
 * flag is V8's, read when an isolate starts: set once before the first
 * worker, it leaves this thread's isolate as it is.
 */
let compileFlagSet = false;

/** A parsing worker (worker.ts) reading with `init`. */
export function parsingWorker(init: WorkerInit): Worker {
  if (!compileFlagSet) {
    compileFlagSet = true;
    setFlagsFromString('--no-concurrent-recompilation');
  }
  return new Worker(workerUrl, { workerData: init });
}
