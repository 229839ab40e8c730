/**
 * Plain files read in chunks (the readers' bytes: dlog-fast.ts, lines.ts,
 * and the streams files.ts's openInputFile makes of them for csv-parse):
 * synchronously on the reading thread into reused buffers, or a large file's
 * next chunk on libuv's pool while one is parsed; the event loop let run
 * every 8 MB; a file's end found at the size the listing gave it. And each
 * chunk's checks, the same for every reader (ChunkChecks).
 */
import { closeSync, openSync, read, readSync } from 'node:fs';
import { InputError } from '../errors.js';
import { plainFile, type InputFile } from './input-file.js';
import { LineEnds } from './line-ends.js';
import { invalidUtf8Message, lineAt, Utf8Check, UTF8_HINT } from './utf8-check.js';

/** Free 1 MB read buffers, reused (a fresh buffer costs a page fault per 4 KB on its first read). */
const freeBuffers: Buffer[] = [];
/** Bytes per read of a plain file (plainChunks, ChunkReads): 1 MiB; a tail helper's cuts are aligned to it (tail-help.ts CHUNK_BYTES). */
export const READ_SIZE = 1 << 20;

export function takeBuffer(): Buffer {
  return freeBuffers.pop() ?? Buffer.allocUnsafe(READ_SIZE);
}

export function giveBuffer(b: Buffer): void {
  if (freeBuffers.length < 4) freeBuffers.push(b);
}

/** Bytes this thread has read since it last let its event loop run (see fileChunks). */
let unyielded = 0;
const YIELD_BYTES = 8 << 20;

/**
 * A plain file's bytes from `from` in chunks of up to 1 MB (the first to the
 * next multiple of READ_SIZE: the chunks of a read from the start, whatever
 * `from`: tail-help.ts). `ahead`: each chunk is read on libuv's pool while the
 * one before is parsed (chunksAhead); otherwise on this thread (fileChunks),
 * in chunks of `readSize` (readLines: 64 KiB, as its streams read).
 * A chunk is valid until the one after it is asked for (the parser copies
 * what it keeps: carried line pieces, names, UTF-8 tails).
 *
 * `size` is the file's size when it was listed: a read that comes back short
 * exactly there is its end, and the read that would return nothing is not
 * made. A file that grew since is read on to its new end (its read is not
 * short at `size`), as is one that shrank. Most small files are then one
 * read, not two: of the five system calls each of 10 000 small files cost
 * (listing, open, reads, close), one fewer.
 */
export function plainChunks(path: string, from: number, size: number, ahead: boolean, readSize = READ_SIZE): AsyncGenerator<Buffer> {
  return ahead ? chunksAhead(path, from, size) : fileChunks(path, from, size, readSize);
}

/**
 * plainChunks read synchronously into one reused buffer, on the parsing
 * thread itself, not through libuv's pool: with every core parsing, an
 * asynchronous read's answer waits for a core to run the pool's thread and
 * then for an event-loop turn (measured on the dlog set: the parse stage of
 * `-j1` 557 → 536 ms, `-j2` 414 → 390 ms, and no slower from a cold page
 * cache; docs/internals.md, "Reading"). The kernel still reads ahead of a sequential
 * reader. Every YIELD_BYTES the event loop runs once (worker messages,
 * signals, the progress line), as the asynchronous reads let it.
 */
async function* fileChunks(path: string, from: number, size: number, readSize: number): AsyncGenerator<Buffer> {
  const fd = openSync(path, 'r');
  const buffer = takeBuffer();
  try {
    const reads = new ChunkReads(fd, from, size, buffer, readSize);
    for (let chunk = reads.next(); chunk !== null; chunk = reads.next()) {
      if (yieldDue()) await new Promise(setImmediate);
      yield chunk;
    }
  } finally {
    closeSync(fd);
    giveBuffer(buffer);
  }
}

/**
 * A plain file's chunks read on this thread into `buffer` (fileChunks's, and
 * readDlogSmall's): from `from`, the first to the next multiple of
 * `readSize` (at most the buffer's length), each counted towards this
 * thread's next event-loop turn (yieldDue).
 */
export class ChunkReads {
  private at: number;
  private done = false;

  constructor(private readonly fd: number, from: number, private readonly size: number, private readonly buffer: Buffer, private readonly readSize = READ_SIZE) {
    this.at = from;
  }

  /** The next chunk (valid until the next call), or null at the file's end. */
  next(): Buffer | null {
    if (this.done) return null;
    const asked = this.readSize - (this.at % this.readSize);
    const n = readSync(this.fd, this.buffer, 0, asked, this.at);
    if (n === 0) {
      this.done = true;
      return null;
    }
    this.at += n;
    unyielded += n;
    this.done = endsAtListedSize(n, asked, this.at, this.size);
    return this.buffer.subarray(0, n);
  }
}

/** Whether this thread is to let its event loop run now (YIELD_BYTES read since it last did); if so, counted as done. */
export function yieldDue(): boolean {
  if (unyielded < YIELD_BYTES) return false;
  unyielded = 0;
  return true;
}

/**
 * A file from which its next chunk is read while one is parsed (chunksAhead):
 * a large file's reads are a sixth to a quarter of its parse on this thread
 * (`read` in a profile of 4 runs in 2 GB: 1.1–2.6 s of 7–10 s), and libuv's
 * thread does them beside it. 4 runs in 2 GB (3 alternating rounds): `-j1`
 * parse 6.64 → 5.93 s, `-j2` 4.46 → 4.24 s; a million requests in a file a
 * class 3.01 → 2.86 s, `-j2` 1.98 → 1.93 s. Below, files are read on this
 * thread (fileChunks: with many small files the asynchronous reads were slower).
 * Only with a core free beside the parsing threads (readAhead): with every
 * core parsing, the pool's thread takes its turns from them, and its hand-off
 * costs more than it saves (4 runs in 0.45 GB, `-j2` on 2 cores, 14
 * alternating rounds: CPU 0.90×, parse 0.90×; in 2 GB, 6 rounds: 0.88×, 0.87×).
 */
export const AHEAD_MIN_BYTES = 8 << 20;

/** Whether a read of `n` bytes, `asked` for, that ended at `at` ended the file at its listed `size` (plainChunks). */
function endsAtListedSize(n: number, asked: number, at: number, size: number): boolean {
  return n < asked && at === size;
}

/** fileChunks, each chunk read on libuv's pool while the one before is parsed. */
async function* chunksAhead(path: string, from: number, size: number): AsyncGenerator<Buffer> {
  const fd = openSync(path, 'r');
  let current = takeBuffer();
  let spare = takeBuffer();
  let at = from;
  /** The pending read's length. */
  let asked = 0;
  const next = (into: Buffer): Promise<number> => new Promise((resolve, reject) => {
    asked = READ_SIZE - (at % READ_SIZE);
    read(fd, into, 0, asked, at, (err, n) => (err !== null ? reject(err) : resolve(n)));
  });
  let pending: Promise<number> | null = next(current);
  try {
    while (pending !== null) {
      const n: number = await pending;
      pending = null;
      if (n === 0) return;
      at += n;
      if (!endsAtListedSize(n, asked, at, size)) pending = next(spare);
      yield current.subarray(0, n);
      [current, spare] = [spare, current];
    }
  } finally {
    // (A read still under way writes into its buffer: it ends before the file is closed.)
    if (pending !== null) await pending.catch(() => 0);
    closeSync(fd);
    giveBuffer(current);
    giveBuffer(spare);
  }
}

/**
 * A file's chunks checked as the readers check them (readLines and the dlog
 * readers): NUL bytes, UTF-8 (and its end), a BOM at its head; its line ends
 * applied (LineEnds), and its bytes counted and told to `onBytes` once each
 * (when `tellsBytes`: a compressed file's progress is its compressed bytes,
 * told as they are read). `lineNo`: the lines finished before the chunk.
 */
export class ChunkChecks {
  /** Bytes checked so far, from the file's start. */
  bytes = 0;
  private first = true;
  private utf8 = new Utf8Check();
  private readonly lineEnds: LineEnds;
  /** Progress: bytes told so far, from the start (a chunk cut at the helper's part, or read on after it, is told once). */
  private toldTo = 0;

  constructor(private readonly file: InputFile, private readonly lineNo: () => number, private readonly onBytes: ((n: number) => void) | undefined,
    private readonly tellsBytes: boolean) {
    this.lineEnds = new LineEnds(plainFile(file) ? file.size : undefined);
  }

  /** Whether the file's lines are known to end in LF (or CRLF). */
  get lf(): boolean {
    return this.lineEnds.lf;
  }

  /** The progress told up to byte `to`. */
  tell(to: number): void {
    if (to > this.toldTo) {
      this.onBytes?.(to - this.toldTo);
      this.toldTo = to;
    }
  }

  /** A chunk's checks; returns its first byte to parse (past a BOM). */
  check(chunk: Buffer): number {
    const file = this.file;
    const bytes = (this.bytes += chunk.length);
    if (this.tellsBytes) this.tell(bytes);
    this.lineEnds.apply(chunk);
    const nul = chunk.indexOf(0);
    if (nul !== -1) {
      // As readLines: lines finished before this chunk, plus the newlines in it before the NUL.
      let line = this.lineNo() + 1;
      for (let i = chunk.indexOf(10); i !== -1 && i < nul; i = chunk.indexOf(10, i + 1)) line++;
      throw new InputError(`binary data (a NUL byte near byte ${bytes - chunk.length + nul}); not a text log`, file.path, line,
        file.gzip ? undefined : 'if it is compressed, name it *.gz');
    }
    const bad = this.utf8.check(chunk);
    if (bad !== null) {
      throw new InputError(invalidUtf8Message(bad.byte, bytes - chunk.length + bad.at), file.path, lineAt(chunk, bad.at, this.lineNo()), UTF8_HINT);
    }
    if (!this.first) return 0;
    this.first = false;
    // A BOM only when the first chunk holds all of it (as readLines had it: U+FEFF stripped from that chunk's text).
    return chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
  }

  /** Checked on from byte `at` (where a helper stopped: its UTF-8 ended at a line end). */
  resumeAt(at: number): void {
    this.bytes = at;
    this.utf8 = new Utf8Check();
  }

  /** The file's end: its last UTF-8 sequence complete. */
  end(): void {
    if (this.utf8.end()) throw new InputError(invalidUtf8Message(undefined, this.bytes), this.file.path, this.lineNo() + 1, UTF8_HINT);
  }
}
