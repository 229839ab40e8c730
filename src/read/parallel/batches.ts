/**
 * The input cut into batches of consecutive files (batchesOf), what each asks
 * a worker to read (tasksOf), and the main thread's pace shared with the
 * workers (MainPace).
 */
import type { InputFile } from '../../parse/files.js';
import type { ClassName } from '../../parse/records.js';
import { MAX_BATCH_FILES } from '../../parse/tail-help.js';
import type { WorkerTask } from './protocol.js';

/** A task's input bytes. */
export function batchBytes(task: WorkerTask): number {
  return task.files.reduce((sum, f) => sum + f.size, 0);
}

/**
 * How fast the main thread goes through its batches (bytes per ms: its last
 * batch, read and summarized, and the one it is reading, so far) and how many
 * bytes of that one are left, shared with the workers. The last unclaimed
 * batch goes to whoever would finish it first: with a few large files, a
 * worker that goes more slowly (it starts later, and its first batch is
 * cold) would otherwise take the last one while the main thread, faster by
 * then, waits for it (4 files of 47–74 MB: idle for ~100 ms of ~560).
 */
export class MainPace {
  private readonly values: Float64Array;

  constructor(readonly buffer = new SharedArrayBuffer(4 * Float64Array.BYTES_PER_ELEMENT)) {
    this.values = new Float64Array(buffer);
  }

  /** This thread: a batch of `bytes` begins (the last one's pace: `rate`, 0 before the first). */
  begin(bytes: number, rate: number): void {
    this.values[RATE] = rate;
    this.values[LEFT] = bytes;
    this.values[READ] = 0;
    this.values[SINCE] = performance.timeOrigin + performance.now();
  }

  /** This thread: `n` more bytes of its batch read. */
  read(n: number): void {
    this.values[LEFT] = Math.max(0, (this.values[LEFT] as number) - n);
    this.values[READ] = (this.values[READ] as number) + n;
  }

  /**
   * A worker going through batches at `rate` bytes per ms: whether it would
   * finish a batch of `bytes` before the main thread would, after the rest of
   * its own (at the faster of its last batch's pace and its present one's).
   * Yes while either pace is unknown.
   */
  workerFirst(bytes: number, rate: number): boolean {
    // (The present batch's pace once a MiB of it is read: before, a few ms say little.)
    const read = this.values[READ] as number;
    const elapsed = performance.timeOrigin + performance.now() - (this.values[SINCE] as number);
    const now = read >= PACE_MIN_BYTES && elapsed > 0 ? read / elapsed : 0;
    const main = Math.max(this.values[RATE] as number, now);
    if (!(main > 0) || !(rate > 0)) return true;
    return bytes / rate <= ((this.values[LEFT] as number) + bytes) / main;
  }
}
const RATE = 0;
const LEFT = 1;
const READ = 2;
const SINCE = 3;
const PACE_MIN_BYTES = 1 << 20;

export interface ParallelInput {
  readonly file: InputFile;
  readonly className: ClassName;
}

/** Consecutive inputs [first, first + count) of one class, read by one worker into one contribution. */
export interface Batch {
  readonly first: number;
  readonly count: number;
  readonly wholeClass: boolean;
}

/** Batches hold about this share of the input (1/16 per worker), within BATCH_MIN_BYTES..BATCH_MAX_BYTES. */
const BATCHES_PER_WORKER = 16;
const BATCH_MIN_BYTES = 1 << 20;
const BATCH_MAX_BYTES = 16 << 20;

/**
 * Cut the inputs into batches of consecutive files of one class: about
 * 1/16 of the input per worker each, 1–16 MiB, at most 1 024 files, and
 * smaller towards the middle of the input, down to 1 MiB: this thread reads
 * from the front and the workers from the back, so the middle batches are the
 * last ones read, and small last batches finish close together (a batch of
 * size s starting at distance d from the middle holds s ≤ d / 2). A class's only file is a batch of
 * its own (its worker summarizes its named instances). Batching spares a
 * collector, a message and an absorb per file: with thousands of small files
 * those dominated. `batchBytes` replaces the target (tests: batches of one file).
 */
export function batchesOf(inputs: readonly ParallelInput[], jobs: number, batchBytes?: number): Batch[] {
  const filesPerClass = new Map<ClassName, number>();
  for (const input of inputs) filesPerClass.set(input.className, (filesPerClass.get(input.className) ?? 0) + 1);
  const total = inputs.reduce((n, i) => n + i.file.size, 0);
  const target = batchBytes ?? Math.min(BATCH_MAX_BYTES, Math.max(BATCH_MIN_BYTES, total / (jobs * BATCHES_PER_WORKER)));
  const batches: Batch[] = [];
  let first = 0;
  let bytes = 0;
  /** Bytes of the inputs before input i. */
  let offset = 0;
  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i] as ParallelInput;
    const wholeClass = filesPerClass.get(input.className) === 1;
    const count = i - first;
    const sameClass = count > 0 && (inputs[first] as ParallelInput).className === input.className;
    // This batch's limit: the target, tapered by its start's distance from the middle.
    const limit = batchBytes ?? Math.max(BATCH_MIN_BYTES, Math.min(target, Math.abs(offset - bytes - total / 2) / 2));
    if (count > 0 && (!sameClass || wholeClass || bytes + input.file.size > limit || count >= MAX_BATCH_FILES)) {
      batches.push({ first, count, wholeClass: false });
      first = i;
      bytes = 0;
    }
    bytes += input.file.size;
    offset += input.file.size;
    if (wholeClass) {
      batches.push({ first: i, count: 1, wholeClass: true });
      first = i + 1;
      bytes = 0;
    }
  }
  if (first < inputs.length) batches.push({ first, count: inputs.length - first, wholeClass: false });
  return batches;
}

/** What each batch asks a worker to read (tasks[b] is batch b). */
export function tasksOf(inputs: readonly ParallelInput[], batches: readonly Batch[]): WorkerTask[] {
  return batches.map((batch, b): WorkerTask => ({
    batch: b,
    first: batch.first,
    files: inputs.slice(batch.first, batch.first + batch.count).map((i) => i.file),
    className: (inputs[batch.first] as ParallelInput).className,
    wholeClass: batch.wholeClass,
  }));
}
