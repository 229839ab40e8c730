/**
 * Batches not yet claimed, [lo, hi), shared by every parsing thread through
 * a SharedArrayBuffer: the main thread claims from the front, the workers
 * from the back, each one batch when it is ready for it. Nothing is queued
 * for a thread in advance, so when the last batch is claimed the threads'
 * remaining work differs by less than one batch, and a worker never waits
 * for the main thread to hand it one. One lock word guards both ends (a
 * claim is a few loads and stores; threads claim every few milliseconds).
 */
export class BatchClaims {
  readonly buffer: SharedArrayBuffer;
  private readonly words: Int32Array;

  /** Claims over batches [0, count), or over the ones in `buffer` (another thread's BatchClaims). */
  constructor(from: number | SharedArrayBuffer) {
    this.buffer = typeof from === 'number' ? new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT) : from;
    this.words = new Int32Array(this.buffer);
    if (typeof from === 'number') this.words[HI] = from;
  }

  /**
   * The first unclaimed batch, now claimed; -1 when none is left, or when
   * `leave` says to leave the unclaimed ones [lo, hi) to the back (they stay
   * claimable there: see `frontEnd`). Asked only while no claim from the
   * back has come back empty (a thread there still claims: the ones left
   * will be read).
   */
  front(leave?: (lo: number, hi: number) => boolean): number {
    return this.locked((lo, hi) => {
      if (lo >= hi || (leave !== undefined && this.words[BACK_ENDED] === 0 && leave(lo, hi))) return -1;
      this.words[LO] = lo + 1;
      return lo;
    });
  }

  /** Where the batches claimed from the back begin once the front claims no more (see `front`'s leave). */
  frontEnd(): number {
    return this.locked((lo) => lo);
  }

  /**
   * The last unclaimed batch, now claimed; -1 when none is left, or when it
   * is the only one left and `takeLast` declines it (it is left to the front).
   */
  back(takeLast?: (batch: number) => boolean): number {
    return this.locked((lo, hi) => {
      if (lo >= hi || (takeLast !== undefined && lo === hi - 1 && !takeLast(lo))) {
        this.words[BACK_ENDED] = 1;
        return -1;
      }
      this.words[HI] = hi - 1;
      return hi - 1;
    });
  }

  /** Whether every batch is claimed. */
  exhausted(): boolean {
    return this.locked((lo, hi) => lo >= hi);
  }

  /** Leave nothing to claim; returns where the batches claimed from the back begin. */
  close(): number {
    return this.locked((_lo, hi) => {
      this.words[LO] = hi;
      return hi;
    });
  }

  /** `body` run with the range's ends while no other thread can change them. */
  private locked<T>(body: (lo: number, hi: number) => T): T {
    return withLock(this.words, LOCK, () => body(this.words[LO] as number, this.words[HI] as number));
  }
}

/**
 * `body` run while this thread holds the lock word `words[lock]` (0: free,
 * 1: held), shared with other threads: each holds it for a few instructions,
 * so a thread that finds it held waits for its release.
 */
export function withLock<T>(words: Int32Array, lock: number, body: () => T): T {
  while (Atomics.compareExchange(words, lock, 0, 1) !== 0) Atomics.wait(words, lock, 1, 1);
  try {
    return body();
  } finally {
    Atomics.store(words, lock, 0);
    Atomics.notify(words, lock, 1);
  }
}

const LOCK = 0;
const LO = 1;
const HI = 2;
/** 1 once a claim from the back found nothing (or declined the last batch): that thread claims no more. */
const BACK_ENDED = 3;
