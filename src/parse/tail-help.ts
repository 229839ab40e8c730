/**
 * The rest of a large file read by a second thread, with the result of one
 * thread's read (docs/internals.md, "Threads": "The rest of a large run is
 * read by a thread with nothing left").
 *
 * Parsing threads claim whole files (parallel.ts). With a few large runs the
 * last file read keeps one thread busy while the others have nothing left:
 * 4 runs of 0.43–0.67 GB on two threads gave one of them ~340 MB to read
 * alone. A thread with nothing left (the helper) takes the rest of such a
 * file from its reader (the owner) instead:
 *
 * 1. Every parsing thread shows the large plain dlog file it reads on a
 *    shared board (HelpBoard): which file, its size, and where its next chunk
 *    ends. The helper claims a cut there, at a chunk boundary 0.4 of the
 *    way into what is left (HELPER_SHARE), under the board's lock (the owner takes the
 *    lock before each chunk, so it has not passed the cut).
 * 2. Both find the same place: the first line start after the cut (the
 *    owner's chunk there is the one the helper reads first). The owner reads
 *    up to it; the helper parses on from it into records numbered by its own
 *    names, and sends them in pieces, each ending at the end of a chunk's
 *    last whole line (with the states' values only: an event's is 0).
 * 3. The owner gives the pieces to its sink's intake as its own reader would
 *    have (a name numbered when its first record comes, as its reader numbers
 *    it; the helper's names are in the order it met them, which is the order
 *    of first appearance), so the records, their order and the variable
 *    numbers are the sequential read's, and whatever the sink makes of them
 *    is too.
 *
 * The helper parses only what the fast lane takes: at anything else (a line
 * that is not such a record, an `I` record, a NUL byte, invalid UTF-8, an
 * error) it stops at the end of its last whole chunk of lines and says where:
 * the owner reads on from there itself, in the same 1 MiB chunks as a
 * sequential read, so skipped lines, messages and line numbers are the
 * sequential read's by construction. The helper never waits for the owner;
 * the owner waits for the helper's pieces only once it is done with its own
 * part.
 */
import { withLock } from './claims.js';
import { READ_SIZE } from './chunks.js';
import type { InputFile } from './input-file.js';

/** Files from this size on are shown on the board (a smaller one's rest is not worth a thread's start on it). */
export const TAIL_MIN_BYTES = 64 * 1024 * 1024;
/** A rest is taken only from this size on. */
const TAIL_MIN_REST = 32 * 1024 * 1024;
/**
 * The share of what is left that the helper parses: the owner reads the rest
 * up to it and then takes in the helper's records. Parsing is ~0.8 of reading
 * a large run, summarizing ~0.2 (a profile of 4 runs in 383 MB), so with 0.6
 * both end at about half of what one would take (the owner 0.4 + 0.2 × 0.6,
 * the helper 0.8 × 0.6 and its copies).
 */
const HELPER_SHARE = 0.6;

/** Records the helper sends a piece with, at least (the last one may hold fewer). */
export const PIECE_RECORDS = 1 << 16;

/** What the helper sends the owner, in order: pieces, then one end. */
export interface TailPiece {
  readonly type: 'tail-piece';
  /** The owner's thread (0: the main thread; w + 1: worker w) and the claim's generation (HelpBoard.claim). */
  readonly owner: number;
  readonly gen: number;
  /** n records as a RecordIntake takes them, numbered by the helper's names (events ≥ 0, state s as −1 − s)... */
  readonly code: Int32Array;
  readonly t: Float64Array;
  /** ...and the values of the states among them, in order (an event's value is 0). */
  readonly values: Float64Array;
  readonly n: number;
  /** The names first met in this piece, in that order (the helper's numbers continue from the last piece's). */
  readonly eventNames: readonly string[];
  readonly stateNames: readonly string[];
  /** Lines and bytes the piece's records come from (whole lines). */
  readonly lines: number;
  readonly bytes: number;
}

export interface TailEnd {
  readonly type: 'tail-end';
  readonly owner: number;
  readonly gen: number;
  /** Where the owner reads on from itself (the file's size: nowhere); −1: the helper read nothing (the owner reads on from its split). */
  readonly resumeAt: number;
}

export type TailMessage = TailPiece | TailEnd;

const IDLE = 0;
const OPEN = 1;
const CUT = 2;
// Int32 words per thread: lock, state, file key, claim generation, busy; Float64 per thread: next chunk's end, cut, size.
const WORDS = 5;
const LOCK = 0;
const STATE = 1;
const KEY = 2;
const GEN = 3;
/** 1 while the thread may still read a batch: the main thread from the start, a worker from its first batch on. */
const BUSY = 4;
const NUMBERS = 3;
const NEXT = 0;
const AT = 1;
const SIZE = 2;
/** Int32 words, padded to 8 bytes, then the numbers. */
const WORDS_BYTES = Math.ceil((WORDS * 4) / 8) * 8;
const PER_THREAD = WORDS_BYTES + NUMBERS * 8;

/** A claimed rest: the owner's file (its key), where the helper starts (a chunk boundary), and the claim's generation. */
export interface TailClaim {
  readonly owner: number;
  readonly key: number;
  readonly cut: number;
  readonly gen: number;
}

/** The board every parsing thread shares (a SharedArrayBuffer): per thread, the large file it reads and how far. */
export class HelpBoard {
  readonly buffer: SharedArrayBuffer;
  private readonly words: Int32Array;
  private readonly numbers: Float64Array;

  /** A board for `threads` threads, or the one in `buffer` (another thread's). */
  constructor(from: number | SharedArrayBuffer) {
    this.buffer = typeof from === 'number' ? new SharedArrayBuffer(from * PER_THREAD) : from;
    const threads = this.buffer.byteLength / PER_THREAD;
    this.words = new Int32Array(this.buffer, 0, threads * WORDS);
    this.numbers = new Float64Array(this.buffer, threads * WORDS_BYTES, threads * NUMBERS);
    if (typeof from === 'number') this.words[BUSY] = 1;
  }

  /** Thread `self` reads a batch (it may read more). */
  busy(self: number): void {
    Atomics.store(this.words, self * WORDS + BUSY, 1);
  }

  /** Thread `self` will read no more batches of its own (it may help others). */
  idle(self: number): void {
    Atomics.store(this.words, self * WORDS + BUSY, 0);
  }

  /** Whether a thread but `self` may still read a batch. */
  othersBusy(self: number): boolean {
    for (let i = 0; i < this.threads; i++) if (i !== self && Atomics.load(this.words, i * WORDS + BUSY) === 1) return true;
    return false;
  }

  get threads(): number {
    return this.words.length / WORDS;
  }

  /** Owner `self` reads file `key` of `size` bytes, in chunks from its start; the next it parses begins at `next`. */
  open(self: number, key: number, size: number, next: number): void {
    this.locked(self, () => {
      this.words[self * WORDS + STATE] = OPEN;
      this.words[self * WORDS + KEY] = key;
      this.numbers[self * NUMBERS + NEXT] = next;
      this.numbers[self * NUMBERS + SIZE] = size;
    });
  }

  /**
   * Owner `self` is about to parse its chunk [start, end): the cut, when a
   * helper claimed the rest from `start` on (the owner stops at the first
   * line start after it); else −1, and the chunk is the owner's.
   */
  reach(self: number, start: number, end: number): number {
    return this.locked(self, () => {
      const state = this.words[self * WORDS + STATE];
      const at = this.numbers[self * NUMBERS + AT] as number;
      if (state === CUT && at === start) return at;
      this.numbers[self * NUMBERS + NEXT] = end;
      return -1;
    });
  }

  /** Owner `self` is done with its file (read, or failed). */
  close(self: number): void {
    this.locked(self, () => {
      this.words[self * WORDS + STATE] = IDLE;
    });
  }

  /** The generation of owner `self`'s claim, while a helper has one (else −1): pieces of any other are stale. */
  claimed(self: number): number {
    return this.locked(self, () => (this.words[self * WORDS + STATE] === CUT ? (this.words[self * WORDS + GEN] as number) : -1));
  }

  /**
   * A helper claims the rest of owner `owner`'s file, if it reads one with at
   * least `minRest` bytes left: from a chunk boundary `share` of them before
   * its end.
   */
  claim(owner: number, minRest = TAIL_MIN_REST, share = HELPER_SHARE): TailClaim | null {
    return this.locked(owner, () => {
      if (this.words[owner * WORDS + STATE] !== OPEN) return null;
      const next = this.numbers[owner * NUMBERS + NEXT] as number;
      const size = this.numbers[owner * NUMBERS + SIZE] as number;
      const rest = size - next;
      if (rest < minRest) return null;
      // At a chunk boundary (the owner reads aligned chunks of CHUNK_BYTES from its file's start).
      const cut = next + Math.floor((rest * (1 - share)) / CHUNK_BYTES) * CHUNK_BYTES;
      if (cut % CHUNK_BYTES !== 0 || cut >= size) return null;
      const gen = (this.words[owner * WORDS + GEN] as number) + 1;
      this.words[owner * WORDS + GEN] = gen;
      this.words[owner * WORDS + STATE] = CUT;
      this.numbers[owner * NUMBERS + AT] = cut;
      return { owner, key: this.words[owner * WORDS + KEY] as number, cut, gen };
    });
  }

  /** `body` run while no other thread can change owner `self`'s entry. */
  private locked<T>(self: number, body: () => T): T {
    return withLock(this.words, self * WORDS + LOCK, body);
  }
}

/** The owner's chunks: the dlog reader's 1 MiB reads, aligned from the file's start (dlog-fast.ts READ_SIZE). */
export const CHUNK_BYTES = READ_SIZE;

/** A batch's files by key: its index and a file's place in it (an Int32 on the board). */
export function tailKey(batch: number, file: number): number {
  return batch * MAX_BATCH_FILES + file;
}
/** As many files as a batch holds at most (parallel.ts's batches are made within it): keys fit an Int32 up to 2 M batches. */
export const MAX_BATCH_FILES = 1 << 10;

export function tailFile(files: (batch: number) => readonly InputFile[] | undefined, key: number): InputFile | undefined {
  return files(Math.floor(key / MAX_BATCH_FILES))?.[key % MAX_BATCH_FILES];
}

/**
 * An owner thread's side: the board entry it shows its file on, and the
 * helper's messages for it, queued until it takes them (take).
 */
export class TailOwner {
  private batch = -1;
  private files: readonly InputFile[] = [];
  private queue: TailMessage[] = [];
  private wake: (() => void) | null = null;
  private failure: Error | null = null;

  /** `minBytes`: the least file size shown on the board (TAIL_MIN_BYTES; tests set it lower). */
  constructor(readonly board: HelpBoard, readonly self: number, readonly minBytes = TAIL_MIN_BYTES) {}

  /** The files read next are batch `batch`'s. */
  reading(batch: number, files: readonly InputFile[]): void {
    this.batch = batch;
    this.files = files;
    this.board.busy(this.self);
  }

  /** Tests: called when a file is shown on the board (a helper may claim its rest then, on this thread). */
  onShow: (() => void) | null = null;

  /**
   * Show `file` on the board (it is read from its start, in chunks of
   * CHUNK_BYTES; the next to parse begins at `next`); false when it is not the
   * batch's.
   */
  open(file: InputFile, next: number): boolean {
    const at = this.files.indexOf(file);
    if (this.batch < 0 || at < 0 || at >= MAX_BATCH_FILES) return false;
    this.queue = [];
    this.board.open(this.self, tailKey(this.batch, at), file.size, next);
    this.onShow?.();
    return true;
  }

  reach(start: number, end: number): number {
    return this.board.reach(this.self, start, end);
  }

  close(): void {
    this.board.close(this.self);
    this.queue = [];
  }

  /** A helper's message for this thread (stale ones, of another claim, are dropped). */
  deliver(m: TailMessage): void {
    if (m.gen !== this.board.claimed(this.self)) return;
    this.queue.push(m);
    this.wake?.();
  }

  /** The run stops (a helper failed): a wait for its pieces ends with `err`. */
  stop(err: Error): void {
    this.failure = err;
    this.wake?.();
  }

  /** The helper's next message (waiting for it). */
  async next(): Promise<TailMessage> {
    for (;;) {
      if (this.failure !== null) throw this.failure;
      const m = this.queue.shift();
      if (m !== undefined) return m;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = null;
    }
  }
}
