/**
 * A parsing worker's settings (parallel.ts sends them, threads.ts starts the
 * worker with them, worker.ts applies them): a leaf of types, so the
 * threads and the range reader need not import the parallel reader that
 * calls them (issue 56: no import circles).
 */
import type { TemplateModel } from '../../parse/templates/index.js';

/** A worker started ahead of the reading (threads.ts prestartWorkers) gets its settings in this, its first message. */
export interface WorkerStart {
  readonly type: 'init';
  readonly init: WorkerInit;
}

export interface WorkerInit {
  readonly translator?: string;
  readonly year?: number;
  /** Templates mined from raw logs (no translator): each worker rebuilds the same translator from them. */
  readonly templates?: TemplateModel;
  readonly strict: boolean;
  /** Whether to build state change points (see FeatureCollector): off when the main collector would drop them. */
  readonly keepSeries: boolean;
  /** Dref guessed before the reading (read.ts, sniff.ts referenceDurationAhead): every collector writes q*.abs with it and holds no change point. */
  readonly referenceDuration?: number;
  /** Shared with the main thread: the translator programs running (see cleanup.ts). */
  readonly processGroups?: SharedArrayBuffer;
  /**
   * One Int32 shared with the main thread: how many of this worker's 'part'
   * messages it has absorbed (STOP_PARTS when the run stops). The worker sends
   * at most PARTS_AHEAD parts beyond that, then waits: parts of a file that is
   * not yet next in order stay in the worker instead of piling up here.
   */
  readonly partsAbsorbed?: SharedArrayBuffer;
  /** One Int32 shared with the main thread: the input index of the file this worker is reading. */
  readonly currentFile?: SharedArrayBuffer;
  /**
   * Keep each contribution's state change points in the worker and send
   * q*.abs once Dref is known (QuartileRequest), instead of the points.
   */
  readonly seriesInWorkers?: boolean;
  /**
   * A class's only file (a whole-class batch) may be summarized straight into
   * the main thread's columns, shared (its 'layout' reply, ColumnsOffer), when it
   * is the last batch and this thread has read its own by the time it asks.
   */
  readonly shareColumns?: boolean;
  /**
   * A worker that reads every batch of a class (the main thread left it the
   * rest: leaveRest) summarizes its instances named by `I` records, as for a
   * class's only file, instead of sending them as records.
   */
  readonly ownClasses?: boolean;
  /** The board of large files being read (tail-help.ts), shared by every parsing thread, and this worker's place on it. */
  readonly tailBoard?: SharedArrayBuffer;
  readonly tailSelf?: number;
  /** Tests: the least file size shown on the board, and rest taken (tail-help.ts TAIL_MIN_BYTES). */
  readonly tailMinBytes?: number;
  /** ReadOptions.readAhead for this worker (absent: true). */
  readonly readAhead?: boolean;
}
