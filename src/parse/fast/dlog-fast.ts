import { closeSync, openSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { InputError } from '../../errors.js';
import { openInputFile, plainFile, type InputFile } from '../files.js';
import { readFailure } from '../lines.js';
import type { RecordIntake, RecordSink } from '../records.js';
import type { TailOwner } from '../tail-help.js';
import { AHEAD_MIN_BYTES, ChunkChecks, ChunkReads, giveBuffer, plainChunks, takeBuffer, yieldDue } from '../chunks.js';
import { DlogBufferParser, NL, STREAM_CHUNK, type SkipHandler } from './dlog-parser.js';
import { takeTail } from './dlog-tail.js';

/**
 * Read a dlog file (SPEC §1) straight from its Buffer chunks: the same records,
 * errors and skipped lines as `readLines` + `parseDlogLine`, without making a
 * string of every line. Records of the usual shape — ASCII, decimal timestamp
 * and value that Clinger's fast path takes — are parsed from the bytes; only
 * names and instance ids become strings, and repeated names come from a cache.
 * Anything else (ISO timestamps, exponents, non-ASCII, broken or non-record
 * lines, over-long lines, lines across chunks with non-ASCII bytes) is decoded
 * exactly as the string path decodes it and handed to `parseDlogLine`, so
 * messages and results are identical by construction. A sink with an `intake`
 * gets the usual records by variable number (`records` counts them: they pass
 * no counting wrapper), the rest by name. `readAhead`: a large plain file's
 * next chunk is read on libuv's pool while one is parsed (ReadOptions.readAhead).
 */
export async function readDlogFast(
  file: InputFile,
  sink: RecordSink,
  onSkip: SkipHandler,
  onBytes?: (n: number) => void,
  stream?: Readable,
  tail?: TailOwner,
  readAhead = true,
): Promise<{ bytes: number; lines: number; records: number; helped: boolean }> {
  // A plain file is read into reused buffers (fresh 1 MB buffers cost page faults on every read).
  // A compressed file's progress is its compressed bytes (its size), told as they are read.
  const tellsBytes = stream !== undefined || !file.gzip;
  const large = stream === undefined && plainFile(file) && file.size >= AHEAD_MIN_BYTES;
  const source: AsyncIterable<Uint8Array> = stream ?? (plainFile(file) ? plainChunks(file.path, 0, file.size, large && readAhead) : openInputFile(file, STREAM_CHUNK, onBytes));
  const parser = new DlogBufferParser(sink, onSkip, file.path);
  const checks = new ChunkChecks(file, () => parser.lineNo, onBytes, tellsBytes);
  // The rest of a large file may be read by a thread with nothing left to read (tail-help.ts): shown on the board
  // once its lines are known to end in LF, until it ends.
  const intake = sink.intake;
  const helped = large && tail !== undefined && intake !== undefined && intake.statesOnly !== true && file.size >= tail.minBytes ? tail : null;
  let shown = false;
  /** Where the helper's part begins (a line start), once the owner stopped there; −1: read whole here. */
  let split = -1;
  /**
   * Records taken from the helper, and where it stopped (−1: none): past the split, it read some of the rest; at
   * the file's size, it read to the end (its last line and the UTF-8's end were its to check).
   */
  let helperRecords = 0;
  let resumeAt = -1;
  try {
    for await (const data of source) {
      const chunk = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const start = checks.check(chunk);
      const bytes = checks.bytes;
      if (helped !== null) {
        if (!shown && checks.lf && intake?.splittable === true) shown = helped.open(file, bytes - chunk.length);
        // Claimed from this chunk on: this thread reads to the end of the line it begins in (the helper finds the
        // same line start), unless the chunk has no line end (then the helper has declined, and it is read here).
        const cut = shown ? helped.reach(bytes - chunk.length, bytes) : -1;
        const nl = cut < 0 ? -1 : chunk.indexOf(NL, start);
        if (nl !== -1 && bytes - chunk.length + nl + 1 < file.size) {
          parser.chunk(chunk.subarray(0, nl + 1), start);
          split = bytes - chunk.length + nl + 1;
          break;
        }
      }
      parser.chunk(chunk, start);
    }
    if (split >= 0) {
      let helperTo = split;
      resumeAt = await takeTail(helped as TailOwner, intake as RecordIntake, split, (lines, n, pieceBytes) => {
        parser.lineNo += lines;
        helperRecords += n;
        helperTo += pieceBytes;
        checks.tell(helperTo);
      });
      checks.resumeAt(resumeAt);
      if (resumeAt < file.size) {
        // Read on from where the helper stopped, in the sequential read's chunks (plainChunks aligns them).
        for await (const chunk of plainChunks(file.path, resumeAt, file.size, readAhead)) parser.chunk(chunk, checks.check(chunk));
      }
    }
  } catch (err) {
    parser.release();
    if (err instanceof InputError) throw err;
    throw new InputError(readFailure(err, file), file.path);
  } finally {
    if (file.path !== '-') (source as Partial<Readable>).destroy?.();
    if (shown) (helped as TailOwner).close();
  }
  try {
    if (resumeAt < file.size) {
      checks.end();
      parser.end();
    }
  } finally {
    parser.release();
  }
  return { bytes: checks.bytes, lines: parser.lineNo, records: parser.intakeRecords + helperRecords, helped: split >= 0 && resumeAt > split };
}

/**
 * Whether readDlogSmall reads `file` (else readDlogFast): a plain file, not
 * standard input, below AHEAD_MIN_BYTES (read on this thread, never helped).
 */
export function smallPlainFile(file: InputFile): boolean {
  return plainFile(file) && file.size < AHEAD_MIN_BYTES;
}

/**
 * readDlogFast for a smallPlainFile: the same reads (fileChunks's), checks,
 * records and errors, by a synchronous loop. With many small files the
 * asynchronous one cost each file an async generator, its promises and
 * their turns, and V8 compiled readDlogFast and fileChunks for it, in each
 * thread (docs/internals.md, "Reading"). Every YIELD_BYTES the event
 * loop runs once, as fileChunks lets it.
 */
export async function readDlogSmall(file: InputFile, sink: RecordSink, onSkip: SkipHandler, onBytes?: (n: number) => void): Promise<{ bytes: number; lines: number; records: number; helped: boolean }> {
  const read = new SmallRead(file, sink, onSkip, onBytes);
  while (!read.step()) await new Promise(setImmediate);
  return { bytes: read.checks.bytes, lines: read.parser.lineNo, records: read.parser.intakeRecords, helped: false };
}

/** readDlogSmall's file, read in steps: each up to the file's end or until the event loop is to run (YIELD_BYTES). */
class SmallRead {
  readonly parser: DlogBufferParser;
  readonly checks: ChunkChecks;
  private readonly fd: number;
  private readonly buffer = takeBuffer();
  private readonly reads: ChunkReads;

  constructor(private readonly file: InputFile, sink: RecordSink, onSkip: SkipHandler, onBytes: ((n: number) => void) | undefined) {
    this.parser = new DlogBufferParser(sink, onSkip, file.path);
    this.checks = new ChunkChecks(file, () => this.parser.lineNo, onBytes, true);
    try {
      this.fd = openSync(file.path, 'r');
    } catch (err) {
      this.stop();
      throw new InputError(readFailure(err, file), file.path);
    }
    this.reads = new ChunkReads(this.fd, 0, file.size, this.buffer);
  }

  /** Reads on: true once the file is read to its end and checked, false when this thread's event loop is to run first. */
  step(): boolean {
    const { file, parser, reads } = this;
    try {
      for (let chunk = reads.next(); chunk !== null; chunk = reads.next()) {
        parser.chunk(chunk, this.checks.check(chunk));
        if (yieldDue()) return false;
      }
    } catch (err) {
      closeSync(this.fd);
      this.stop();
      if (err instanceof InputError) throw err;
      throw new InputError(readFailure(err, file), file.path);
    }
    closeSync(this.fd);
    try {
      this.checks.end();
      parser.end();
    } finally {
      this.stop();
    }
    return true;
  }

  /** The parser's and the read buffer's scratch given back. */
  private stop(): void {
    this.parser.release();
    giveBuffer(this.buffer);
  }
}

