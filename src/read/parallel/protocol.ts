/**
 * The messages between the main thread and its parsing workers (worker.ts),
 * beside the settings a worker starts with (worker-init.ts): what a worker is
 * asked to read, what it answers, and the cells they share.
 */
import type { FileContribution, SharedColumns } from '../../features/contribution.js';
import type { InputFile } from '../../parse/files.js';
import type { ReadStats } from '../../parse/reader.js';
import type { ClassName } from '../../parse/records.js';
import type { TailMessage } from '../../parse/tail-help.js';

/**
 * The main thread's answer to a worker's 'layout' reply: the columns to
 * summarize its whole-class batch into, or null to send the values in parts
 * as usual (FeatureCollector.shareColumns).
 */
export interface ColumnsOffer {
  readonly type: 'columns';
  readonly batch: number;
  readonly shared: SharedColumns | null;
  /**
   * Where Dref comes (a ReferenceCell), once this thread has it from the
   * durations the layout brought (the batch being the last to read): the
   * worker summarizes meanwhile, and from its first part on writes q*.abs as
   * it summarizes (FeatureCollector.useReferenceDurationLater); no change
   * point is kept or sent.
   */
  readonly reference?: SharedArrayBuffer;
}

/**
 * Dref, from this thread to a worker that is summarizing (and so reads no
 * message): a Float64 written once, then an Int32 flag set and notified. The
 * worker waits for it only once it needs it.
 */
export class ReferenceCell {
  private readonly flag: Int32Array;
  private readonly value: Float64Array;

  constructor(readonly buffer = new SharedArrayBuffer(16)) {
    this.flag = new Int32Array(buffer, 0, 1);
    this.value = new Float64Array(buffer, 8, 1);
  }

  set(referenceDuration: number): void {
    this.value[0] = referenceDuration;
    Atomics.store(this.flag, 0, 1);
    Atomics.notify(this.flag, 0);
  }

  /** The run stops: a worker waiting for Dref stops waiting (get throws). */
  stop(): void {
    Atomics.compareExchange(this.flag, 0, 0, -1);
    Atomics.notify(this.flag, 0);
  }

  /** Dref, this thread blocked until it is set (re-checked every 100 ms, so a stop is seen even if a wake-up is missed). */
  get(): number {
    for (;;) {
      const flag = Atomics.load(this.flag, 0);
      if (flag === 1) return this.value[0] as number;
      if (flag < 0) throw new Error('the run stopped before Dref was known');
      Atomics.wait(this.flag, 0, flag, 100);
    }
  }
}

/**
 * The main thread's request once every batch is absorbed: Dref (the median
 * duration of all instances), for the workers to compute `q*.abs` from the
 * state change points they kept (see WorkerInit.seriesInWorkers).
 */
export interface QuartileRequest {
  readonly referenceDuration: number;
}

/**
 * A worker's `q*.abs` values for one contribution it sent (batch, and its
 * place among that batch's parts, the 'done' one last): QUARTILE_STRIDE
 * numbers per (slot, state variable) that has change points: the slot and
 * variable in the contribution's own numbering, then q1.abs, half.abs, q3.abs.
 */
export interface QuartileChunk {
  readonly batch: number;
  readonly seq: number;
  readonly values: Float64Array;
}
export const QUARTILE_STRIDE = 5;

/** Parts a worker may have sent and not yet seen absorbed. */
export const PARTS_AHEAD = 8;
/** partsAbsorbed's value once the run stops: no worker waits any more. */
export const STOP_PARTS = 1 << 30;

export type WorkerReply =
  /**
   * Batch `batch` read: its files' contribution in one message (typed arrays
   * moved, not copied), the files that held no record (in order), and the
   * batch's counts.
   */
  | { readonly type: 'done'; readonly batch: number; readonly contribution: FileContribution; readonly emptyFiles: readonly string[]; readonly stats: ReadStats }
  /**
   * Batch `batch` (a class's only file) is read: may its instances, `slots`
   * of them, be summarized into the main thread's columns? (ColumnsOffer.)
   */
  | {
    readonly type: 'layout'; readonly batch: number; readonly slots: number; readonly eventNames: readonly string[]; readonly stateNames: readonly string[];
    /** With WorkerInit.seriesInWorkers: the durations the slots will have, in slot order (for Dref ahead: ColumnsOffer.reference). */
    readonly durations?: Float64Array;
  }
  /** Batch `batch`'s named ids, ahead of its parts (FeatureCollector.namedIdsAhead): its contribution leaves them out. */
  | {
    readonly type: 'named'; readonly batch: number; readonly ids: readonly string[];
    /** Their sorted order, when they do not ascend (FeatureCollector.namedOrderAhead). */
    readonly sorted?: Int32Array;
  }
  /** A leading part of batch `batch`'s contribution (a class's only file, in parts of summarized instances); 'done' follows. */
  | { readonly type: 'part'; readonly batch: number; readonly contribution: FileContribution }
  /** File `index` (of batch `batch`) failed; the batch's later files were not read. */
  | { readonly type: 'error'; readonly batch: number; readonly index: number; readonly message: string; readonly hint?: string }
  | { readonly type: 'crash'; readonly batch: number; readonly index: number; readonly message: string }
  | { readonly type: 'bytes'; readonly n: number }
  /** A helper's piece or end of the rest of a large file (tail-help.ts), for thread `owner` (0: the main thread). */
  | TailMessage
  /** The answer to a QuartileRequest: every contribution's q*.abs that this worker kept change points for. */
  | { readonly type: 'quartiles'; readonly chunks: readonly QuartileChunk[] }
  /** An error outside any file's reading (a translator's timer): ends the run at once. */
  | { readonly type: 'fatal'; readonly message: string; readonly hint?: string; readonly internal?: boolean };

/** What a worker is asked to read: consecutive files of one class, `first` being the index of files[0]. */
export interface WorkerTask {
  readonly batch: number;
  readonly first: number;
  readonly files: readonly InputFile[];
  readonly className: ClassName;
  /** The class's only file: the worker summarizes the instances its I records name. */
  readonly wholeClass: boolean;
}

/**
 * Every batch of one readBatches call (tasks[b] is batch b) and the claims
 * over them: the worker claims batches from the back, reads each and answers
 * it, until none is left.
 */
export interface WorkerBatches {
  readonly type: 'batches';
  readonly claims: SharedArrayBuffer;
  readonly tasks: readonly WorkerTask[];
  /** The main thread's pace (MainPace), for a worker to leave it the last batch when it would finish it sooner. */
  readonly pace?: SharedArrayBuffer;
}
