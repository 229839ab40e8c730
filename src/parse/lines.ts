import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { InputError } from '../errors.js';
import { ChunkChecks, plainChunks } from './chunks.js';
import { openInputFile, plainFile, readFailure, type InputFile } from './files.js';

/** (Defined beside openInputFile, whose compressed streams fail with it.) */
export { readFailure };

/** Bytes per read: 64 KiB (a stream's, and a plain file's: LineEnds decides a file's line ends from its first chunk). */
const LINE_CHUNK = 64 * 1024;

/** Lines longer than this are skipped (and counted), so one runaway line cannot exhaust memory. */
export const MAX_LINE_LENGTH = 1024 * 1024;

export interface LineHandler {
  /** One line without its terminator (`\n` or `\r\n`), 1-based number. */
  line(text: string, lineNo: number): void;
  /** A line over MAX_LINE_LENGTH characters was passed over. */
  tooLong(lineNo: number, length: number): void;
}

export interface LineStats {
  readonly bytes: number;
  readonly lines: number;
}

/**
 * Split a file into lines over 64 KB chunks (not `readline`, ~3× slower).
 * Strips a UTF-8 BOM, accepts CRLF, rejects binary input (a NUL byte) and
 * corrupt or truncated gzip data with an InputError naming the file. A plain
 * file is read synchronously on this thread (plainChunks), in the same 64 KB
 * chunks, not through a stream: a stream's open, reads and close each wait
 * for libuv's pool and a turn of the event loop (6 000 raw logs of 3.6 KB
 * each: the parse stage was idle half its time).
 */
export async function readLines(
  file: InputFile,
  handler: LineHandler,
  onBytes?: (n: number) => void,
  stream?: Readable,
): Promise<LineStats> {
  // A compressed file's progress is its compressed bytes (its size), told as they are read.
  const tellsBytes = stream !== undefined || !file.gzip;
  const plain = stream === undefined && plainFile(file);
  // The event loop runs before a plain file is read, as before a stream's first read: a line translator's timers and
  // promises settle while the file that set them is still the one read (its error names it), and signals are heard.
  if (plain) await new Promise(setImmediate);
  const source: AsyncIterable<Uint8Array> = stream ?? (plain ? plainChunks(file.path, 0, file.size, false, LINE_CHUNK) : openInputFile(file, LINE_CHUNK, onBytes));
  const decoder = new StringDecoder('utf8');
  let carry = '';
  let skipping = false; // inside an over-long line: drop until its end
  let skippedLength = 0;
  let lineNo = 0;
  const checks = new ChunkChecks(file, () => lineNo, onBytes, tellsBytes);
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const from = checks.check(chunk);
      // (Past a BOM: the first chunk holds it whole.)
      const text = decoder.write(from === 0 ? chunk : chunk.subarray(from));
      let start = 0;
      for (;;) {
        const nl = text.indexOf('\n', start);
        if (nl === -1) break;
        lineNo++;
        if (skipping) {
          handler.tooLong(lineNo, skippedLength + nl - start);
          skipping = false;
        } else {
          let line = carry.length > 0 ? carry + text.slice(start, nl) : text.slice(start, nl);
          carry = '';
          if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
          if (line.length > MAX_LINE_LENGTH) handler.tooLong(lineNo, line.length);
          else handler.line(line, lineNo);
        }
        start = nl + 1;
      }
      if (skipping) {
        skippedLength += text.length - start;
      } else if (start < text.length) {
        carry = carry.length > 0 ? carry + text.slice(start) : text.slice(start);
        // A CR last may be the first half of the line's CRLF (split by the chunk boundary): not the line's.
        // (Its last character is text's: asking the carry would flatten a long concatenation on every chunk.)
        if (carry.length > MAX_LINE_LENGTH + (text.charCodeAt(text.length - 1) === 13 ? 1 : 0)) {
          skipping = true;
          skippedLength = carry.length;
          carry = '';
        }
      }
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(readFailure(err, file), file.path);
  } finally {
    if (file.path !== '-') (source as Partial<Readable>).destroy?.();
  }
  checks.end();
  const rest = carry + decoder.end();
  if (skipping) {
    lineNo++;
    handler.tooLong(lineNo, skippedLength + rest.length);
  } else if (rest.length > 0) {
    lineNo++;
    const line = rest.charCodeAt(rest.length - 1) === 13 ? rest.slice(0, -1) : rest;
    if (line.length > MAX_LINE_LENGTH) handler.tooLong(lineNo, line.length);
    else handler.line(line, lineNo);
  }
  return { bytes: checks.bytes, lines: lineNo };
}

