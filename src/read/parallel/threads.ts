import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { WorkerInit, WorkerStart } from './worker-init.js';

const workerUrl = new URL('./worker.js', import.meta.url);

/**
 * Parsing workers compile their hot functions on their own thread. V8
 * optimizes on a background thread by default, which on the main thread of
 * `--jobs 1` runs on an idle core; with every core parsing it waits for one,
 * and a worker runs its first megabytes unoptimized (measured on the dlog
 * set, 2 cores: the parse stage of `-j2` 430 → 400 ms; docs/internals.md, "Threads"). The
 * flag is V8's, read when an isolate starts: set once before the first
 * worker, it leaves this thread's isolate as it is.
 */
let compileFlagSet = false;

function setCompileFlag(): void {
  if (!compileFlagSet) {
    compileFlagSet = true;
    setFlagsFromString('--no-concurrent-recompilation');
  }
}

/** A parsing worker (worker.ts) reading with `init`: one started ahead (prestartWorkers) if there is one. */
export function parsingWorker(init: WorkerInit): Worker {
  const ahead = prestarted.shift();
  if (ahead !== undefined) {
    ahead.handOut();
    ahead.worker.postMessage({ type: 'init', init } satisfies WorkerStart);
    return ahead.worker;
  }
  setCompileFlag();
  return new Worker(workerUrl, { workerData: init });
}

/**
 * Workers started ahead of the reading, idle until parsingWorker hands them
 * their settings: a worker loads its modules in ~50–60 ms, which the main
 * thread otherwise waits for after it has loaded its own stages and listed
 * the files, with the second core idle meanwhile. Unreferenced while idle
 * (the process may end without them); one that stopped is dropped, never
 * handed out (readParallel then starts another).
 */
const prestarted: { readonly worker: Worker; readonly handOut: () => void }[] = [];

/** Workers started ahead so that `n` wait (those waiting already count). */
export function prestartWorkers(n: number): void {
  setCompileFlag();
  for (let i = prestarted.length; i < n; i++) {
    const worker = new Worker(workerUrl, { workerData: null });
    worker.unref();
    const drop = (): void => {
      const at = prestarted.findIndex((p) => p.worker === worker);
      if (at >= 0) prestarted.splice(at, 1);
    };
    worker.on('error', drop);
    worker.on('exit', drop);
    // Handed out: readParallel's handlers take over, and it keeps the process alive.
    const handOut = (): void => {
      worker.off('error', drop);
      worker.off('exit', drop);
      worker.ref();
    };
    prestarted.push({ worker, handOut });
  }
}

/** Workers started ahead and not handed out: stopped (after the reading). Returns how many. */
export function stopPrestarted(): number {
  const idle = prestarted.splice(0);
  for (const { worker } of idle) void worker.terminate();
  return idle.length;
}

/**
 * Before the stages are loaded: workers for a reading that will use them
 * (readParallel), so that they are ready when it starts. With `jobs` given,
 * that many threads (an explicit number always uses workers); else only when
 * both classes are large files (automaticJobs), found by one stat each: a
 * directory is listed by the reading itself, which starts them once it has
 * (read.ts), and a worker not needed would cost a small run ~30 ms of CPU.
 */
export function prestartFor(goodSpec: string, badSpec: string, jobs: number | undefined): void {
  if (goodSpec === '-' || badSpec === '-') return;
  let threads = jobs;
  if (threads === undefined) {
    try {
      const sizes = [goodSpec, badSpec].map((spec) => {
        const st = statSync(spec);
        return st.isFile() ? st.size : -1;
      });
      if (sizes.some((size) => size < 0)) return;
      threads = automaticJobs((sizes[0] as number) + (sizes[1] as number), 2, availableParallelism(), Math.min(...sizes));
    } catch {
      return; // reported by the reading
    }
  }
  if (threads > 1) prestartWorkers(threads - 1);
}

/**
 * Input per parsing thread below which a worker costs more than it saves:
 * its start (~35–60 ms) and its first, unoptimized megabytes (measured on
 * 2 cores, parse stage, files of ~1 MB: 34 MB −j2 137 ms against −j1 116,
 * 66 MB even, 134 MB 277 against 340). Small files cost a cold worker more
 * each (open, parse, summary and their first compiles), so under
 * SMALL_FILE_BYTES on average a worker needs more. Measured as `-j2`'s wall
 * time over `-j1`'s, files of 12 KB (thirty-fourth pass, alternating pairs):
 * 10 000 files (120 MB) 0.91–1.00, 16 000 (195 MB) 0.95, 20 000 (243 MB)
 * 0.83–0.91; before the small files' reader of the thirty-third pass, 10 000
 * files took 1/0.88 of `-j1`'s time and 40 000 (478 MB) 1/1.17. So two
 * threads from ~200 MB of small files (was ~400).
 */
const BYTES_PER_JOB = 32 * 1024 * 1024;
const BYTES_PER_JOB_SMALL_FILES = 96 * 1024 * 1024;
const SMALL_FILE_BYTES = 64 * 1024;

/**
 * Parsing threads when `--jobs` is not given: up to `cores`, each with at
 * least two files and BYTES_PER_JOB of input (1: no workers). Two files per
 * thread at least: a few huge files of `I`-named instances (requests) cost
 * more to ship back than to parse on one thread. Except each class's only
 * file, both of BYTES_PER_JOB at least (`smallestFile`): a worker summarizes
 * its class into this thread's columns (FeatureCollector.shareColumns), and
 * one file per thread pays (1 M requests, 293 MB: 5.7 → 5.0 s; 56 MB: 2.48
 * → 2.37 s; 14 MB: 0.78 → 0.86 s).
 */
export function automaticJobs(totalBytes: number, files: number, cores: number, smallestFile = 0): number {
  const perJob = totalBytes < SMALL_FILE_BYTES * files ? BYTES_PER_JOB_SMALL_FILES : BYTES_PER_JOB;
  const perThread = files === 2 && smallestFile >= perJob ? 1 : 2;
  return Math.max(1, Math.min(cores, Math.floor(files / perThread), Math.floor(totalBytes / perJob)));
}

