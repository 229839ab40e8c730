import { closeSync, openSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { open } from 'node:fs/promises';
import { median } from '../stats/median.js';
import { parseDlogLine } from './dlog.js';
import { openInputFile, plainFile, SPAN_OR_TABLE_NAME, STREAMED_MIN_BYTES, type InputFile, type RecordEnds } from './files.js';
import type { RecordSink } from './records.js';
import type { LineTranslator } from './translator.js';

/** Whether a file is read as it is on disk, as dlog: not standard input, compressed, or a table. */
function plainDlog(file: InputFile): boolean {
  return plainFile(file) && !/\.(csv|tsv)$/i.test(file.relativePath);
}

/** Bytes read from the head of a file to see how it names instances. */
const HEAD_BYTES = 64 * 1024;

/**
 * Whether a plain dlog file names its instances by `I` records, many of them
 * (at least two in its first 64 KiB: a log of requests, not one run's log,
 * which names at most itself). Compressed files, tables and standard input
 * are not looked at (false); nor is what a translator would make of a file.
 * The CLI asks this of a large input before relaunching it (cli/relaunch.ts):
 * memory grows with instances, not bytes.
 */
export async function namesManyInstances(file: InputFile): Promise<boolean> {
  if (!plainDlog(file)) return false;
  const handle = await open(file.path, 'r');
  try {
    const head = Buffer.alloc(Math.min(HEAD_BYTES, file.size));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const text = head.toString('latin1', 0, bytesRead);
    let named = 0;
    for (let at = text.indexOf('I\t'); at >= 0 && named < 2; at = text.indexOf('I\t', at + 2)) {
      if (at === 0 || text.charCodeAt(at - 1) === 10) named++;
    }
    return named >= 2;
  } finally {
    await handle.close();
  }
}

/** Bytes read from each end of a file for its first and last record (referenceDurationAhead). */
const END_BYTES = 4096;
/**
 * Files smaller than this on average are not looked at: their ends are much
 * of them, and each costs an open and two reads (10 000 files of 12 KB: more
 * than the change points it would save).
 */
const AHEAD_MIN_AVERAGE_BYTES = 64 * 1024;

/**
 * Each file's first and last times before anything is read, when every file
 * is one instance (plain dlog, no `I` record at either end) whose first
 * record is at its head and whose last is at its tail: read from 4 KiB at
 * each end of each file (the earliest and latest of the records there, from
 * 8 MiB on). Null when any file cannot be read so
 * (compressed, a table, standard input, an `I` record, no record within its
 * ends, a broken record, a span that is not finite), and for many small
 * files (AHEAD_MIN_AVERAGE_BYTES).
 *
 * A guess, not a fact: a file whose records are out of time order, or that
 * names instances past its head, has other ends. Their users check them
 * exactly: Dref (referenceDurationAhead) against the instances read
 * (read.ts), a file's own (features/streamed.ts) once it is read.
 */
export function recordEndsAhead(files: readonly InputFile[]): RecordEnds[] | null {
  if (files.length === 0 || files.reduce((n, f) => n + f.size, 0) < AHEAD_MIN_AVERAGE_BYTES * files.length) return null;
  const all: RecordEnds[] = [];
  for (const file of files) {
    if (!plainDlog(file)) return null;
    const ends = endsOf(file);
    if (ends === null) return null;
    all.push(ends);
  }
  return all;
}

/**
 * A compressed run from which its ends are found before it is read, by
 * decompressing it once more (recordEndsDecompressing): one that decompresses
 * to this much (its gzip trailer says). Held, its records would take ~1.4
 * times that in memory (and twice with two threads); summarized as it is
 * read, a few MB. Decompressing costs about as long as parsing (~300 MB/s
 * here), so below this size holding it is the better trade, in time and in
 * memory enough.
 */
export const COMPRESSED_ENDS_MIN_BYTES = 256 << 20;

/**
 * Whether to find the compressed files' ends by decompressing them once
 * more (recordEndsDecompressing) before reading: when one of them is a run
 * that large (COMPRESSED_ENDS_MIN_BYTES, by its gzip trailer) and every file
 * could give its ends (dlog, not a table or standard input).
 */
export function compressedEndsPay(files: readonly InputFile[]): boolean {
  if (!files.every(dlogFile)) return false;
  return files.some((f) => compressedLog(f) && decompressedSizeHint(f) >= COMPRESSED_ENDS_MIN_BYTES);
}

/**
 * recordEndsAhead for files some of which are compressed: theirs found by
 * decompressing each once (its first and last 4 KiB kept), several at once
 * (zlib decompresses on libuv's threads), `onRead` told the compressed bytes
 * read and `onFile` each file done. Null as recordEndsAhead's (a file that
 * cannot be decompressed too), before any is decompressed when a plain file
 * has none.
 */
export async function recordEndsDecompressing(
  files: readonly InputFile[],
  onRead: (n: number) => void = () => undefined,
  onFile: () => void = () => undefined,
): Promise<RecordEnds[] | null> {
  if (files.length === 0 || !files.every(dlogFile)) return null;
  // The plain files' ends first, as recordEndsAhead reads them: one without, and nothing is decompressed.
  const all: (RecordEnds | null)[] = [];
  for (const file of files) {
    const ends = file.gzip ? null : endsOf(file);
    if (!file.gzip && ends === null) return null;
    all.push(ends);
  }
  let failed = false;
  const stopped = (): boolean => failed;
  await severalAtOnce(files.flatMap((f, i) => (f.gzip ? [i] : [])), async (i) => {
    all[i] = await compressedEndsOf(files[i] as InputFile, onRead, stopped);
    if (all[i] === null) failed = true;
    onFile();
  }, stopped);
  return failed ? null : (all as RecordEnds[]);
}

/**
 * `each` of the indices, as many at once as there are cores (zlib decompresses on libuv's threads), in order of
 * start; none begun once `stopped()`.
 */
async function severalAtOnce(indices: readonly number[], each: (i: number) => Promise<void>, stopped: () => boolean = () => false): Promise<void> {
  let next = 0;
  const one = async (): Promise<void> => {
    for (let k = next++; k < indices.length && !stopped(); k = next++) await each(indices[k] as number);
  };
  await Promise.all(Array.from({ length: Math.min(indices.length, availableParallelism()) }, one));
}

/** The first (`all`: the earliest) record's time in a file's first bytes but the line cut off at their end (see endsIn). */
function headTime(head: string, all: boolean, records: LineRecords = dlogRecords): number | null {
  const text = head.replace(/^\uFEFF/, '');
  return recordTime(linesOf(text.slice(0, Math.max(0, text.lastIndexOf('\n'))), false), all ? 'earliest' : 'first', records);
}

/**
 * A compressed file's ends (null: see recordEndsAhead), decompressed whole, its first and last bytes kept; not
 * decompressed further once its head gives none (a log of requests names them by `I` records from its first line),
 * nor once `stopped` (another file gave none).
 */
async function compressedEndsOf(
  file: InputFile,
  onRead: (n: number) => void,
  stopped: () => boolean,
  records: LineRecords = dlogRecords,
  bytes = END_BYTES,
): Promise<RecordEnds | null> {
  const head = Buffer.allocUnsafe(2 * bytes);
  const tail = Buffer.allocUnsafe(bytes);
  let headBytes = 0;
  let headSeen = false;
  let tailBytes = 0;
  let total = 0;
  try {
    for await (const data of openInputFile(file, DECOMPRESS_CHUNK, onRead)) {
      // (Another file gave none: the ends of all are not known, and this one's is not needed.)
      if (stopped()) return null;
      const chunk = data as Buffer;
      total += chunk.length;
      if (headBytes < head.length) headBytes += chunk.copy(head, headBytes);
      // Its head known (more than twice `bytes`: not the whole file), and giving no time: no further.
      if (!headSeen && total > head.length) {
        headSeen = true;
        if (headTime(head.toString('utf8', 0, bytes), file.size >= STREAMED_MIN_BYTES, records) === null) return null;
      }
      // The last `bytes` bytes so far: the chunk's, after what is kept of the ones before.
      const keep = Math.min(tailBytes, bytes - Math.min(bytes, chunk.length));
      tail.copyWithin(0, tailBytes - keep, tailBytes);
      tailBytes = keep + chunk.copy(tail, keep, Math.max(0, chunk.length - (bytes - keep)));
    }
    const whole = total <= 2 * bytes;
    return endsIn(head.toString('utf8', 0, whole ? total : bytes), whole ? null : tail.toString('utf8', 0, tailBytes), file.size >= STREAMED_MIN_BYTES, records);
  } catch {
    return null; // not gzip, or a broken record: reported as the reading finds it
  }
}
const DECOMPRESS_CHUNK = 1 << 20;

/**
 * What a gzip file decompresses to, by its trailer (the size modulo 4 GiB of
 * its last member): at least its own size (a larger file wrapped, or the
 * last of several members). Its own size if the trailer cannot be read.
 */
function decompressedSizeHint(file: InputFile): number {
  let fd: number | undefined;
  try {
    fd = openSync(file.path, 'r');
    const trailer = Buffer.alloc(4);
    if (file.size < 18 || readSync(fd, trailer, 0, 4, file.size - 4) !== 4) return file.size;
    return Math.max(file.size, trailer.readUInt32LE(0));
  } catch {
    return file.size;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A file whose ends recordEndsDecompressing can find: plain dlog, or compressed dlog. */
function dlogFile(file: InputFile): boolean {
  return plainDlog(file) || compressedLog(file);
}

/** A compressed log (dlog, or raw for a translator): not a table or spans (as reader.ts tells them), not standard input. */
function compressedLog(file: InputFile): boolean {
  return file.gzip && file.path !== '-' && !SPAN_OR_TABLE_NAME.test(file.relativePath);
}

/**
 * A compressed raw log whose ends a rules translator's copy finds by
 * decompressing it once more (translatedEnds) by default: as compressedLog,
 * and of COMPRESSED_ENDS_MIN_BYTES decompressed at least (its gzip trailer says).
 */
export function largeCompressedLog(file: InputFile): boolean {
  return compressedLog(file) && decompressedSizeHint(file) >= COMPRESSED_ENDS_MIN_BYTES;
}

/**
 * The ends of each plain dlog file of STREAMED_MIN_BYTES and more, as recordEndsAhead reads them (null: a smaller
 * or compressed file, or one whose ends cannot be read so), for a large run to be summarized as it is read where
 * Dref is not known ahead (its q*.abs from the second pass): not every file gives its ends.
 */
export function largeRunEnds(files: readonly InputFile[]): (RecordEnds | null)[] {
  return files.map((f) => (plainDlog(f) && f.size >= STREAMED_MIN_BYTES ? endsOf(f) : null));
}

/** How a line becomes records, for a file's ends: the dlog parser's (a broken record throws), or a translator's. */
type LineRecords = (line: string, sink: RecordSink) => void;
const dlogRecords: LineRecords = (line, sink) => parseDlogLine(line, sink, '', 0);

/** Bytes read from each end of a file given to a translator (which may map few of its lines). */
const TRANSLATED_END_BYTES = 64 * 1024;

/**
 * The ends of raw files a rules translator reads, as recordEndsAhead reads a dlog file's (null: a span or table file,
 * one the translator maps no line of at either end, or stops at; a compressed one that decompresses to less than
 * COMPRESSED_ENDS_MIN_BYTES; and every file smaller than STREAMED_MIN_BYTES when they average less than
 * AHEAD_MIN_AVERAGE_BYTES): 64 KiB of each end translated by `translator`, a copy of the one that reads them (loaded
 * for this: what it counts stays the reading's). A compressed file `decompress` picks (by default a large one:
 * largeCompressedLog) is decompressed once more for its ends, as a compressed dlog run is: `progress.onPass` told
 * their compressed bytes and count before, `onRead` the bytes read and `onFile` each file done. A file is one
 * instance unless the translator names instances (`I` records: then none).
 */
export async function translatedEnds(
  files: readonly InputFile[],
  goodFiles: number,
  translator: LineTranslator,
  decompress: (file: InputFile) => boolean = largeCompressedLog,
  progress: { onPass?(bytes: number, files: number): void; onRead?(n: number): void; onFile?(): void } = {},
): Promise<(RecordEnds | null)[]> {
  const small = files.reduce((n, f) => n + f.size, 0) < AHEAD_MIN_AVERAGE_BYTES * files.length;
  const recordsOf = (file: InputFile, i: number): LineRecords => {
    const ctx = { file: file.path, relativePath: file.relativePath, className: i < goodFiles ? 'good' as const : 'bad' as const, line: 0 };
    translator.beginFile?.(ctx, NO_RECORDS);
    return (line, sink) => { translator.translateLine(line, ctx, sink); };
  };
  const all = files.map((file, i) => {
    if (file.gzip || file.path === '-' || SPAN_OR_TABLE_NAME.test(file.relativePath) || (small && file.size < STREAMED_MIN_BYTES)) return null;
    return endsOf(file, recordsOf(file, i), TRANSLATED_END_BYTES);
  });
  const compressed = files.flatMap((f, i) => (compressedLog(f) && decompress(f) ? [i] : []));
  if (compressed.length > 0) progress.onPass?.(compressed.reduce((n, i) => n + (files[i] as InputFile).size, 0), compressed.length);
  await severalAtOnce(compressed, async (i) => {
    const file = files[i] as InputFile;
    all[i] = await compressedEndsOf(file, progress.onRead ?? (() => undefined), () => false, recordsOf(file, i), TRANSLATED_END_BYTES);
    progress.onFile?.();
  });
  return all;
}
const NO_RECORDS: RecordSink = { instance: () => undefined, event: () => undefined, state: () => undefined };

/** Dref (SPEC §2: the median duration over all instances) of files with these ends (recordEndsAhead). */
export function referenceDurationOfEnds(ends: readonly RecordEnds[]): number {
  return median(Float64Array.from(ends, (e) => e.last - e.first));
}

/** Dref before anything is read (recordEndsAhead's files), or null. */
export function referenceDurationAhead(files: readonly InputFile[]): number | null {
  const ends = recordEndsAhead(files);
  return ends === null ? null : referenceDurationOfEnds(ends);
}

/**
 * A file's first and last records' times, from its two ends (null: see recordEndsAhead): `bytes` of each, their
 * lines made records by `records` (the dlog parser, or a translator's: translatedEnds).
 */
function endsOf(file: InputFile, records: LineRecords = dlogRecords, bytes = END_BYTES): RecordEnds | null {
  let fd: number;
  try {
    fd = openSync(file.path, 'r');
  } catch {
    return null; // reported as the reading finds it
  }
  try {
    const buffer = bytes === END_BYTES ? endsBuffer : Buffer.allocUnsafe(2 * bytes);
    const whole = file.size <= 2 * bytes;
    const headBytes = readSync(fd, buffer, 0, whole ? file.size : bytes, 0);
    const head = buffer.toString('utf8', 0, headBytes);
    const tail = whole ? null : buffer.toString('utf8', 0, readSync(fd, buffer, 0, bytes, file.size - bytes));
    return endsIn(head, tail, file.size >= STREAMED_MIN_BYTES, records);
  } catch {
    return null; // a broken record: reported as the reading finds it
  } finally {
    closeSync(fd);
  }
}

/**
 * The times of the first and last records in a file's first and last bytes
 * (`tail` null: `head` is the whole file). A large file's (`all`) are the
 * earliest and latest of every record there: in a log several threads write,
 * a record may come after later ones, and its summary as it is read takes
 * them in their place (features/streamed.ts). A small one's are its first
 * record's and its last one's. Throws on a broken record.
 */
function endsIn(head: string, tail: string | null, all: boolean, records: LineRecords = dlogRecords): RecordEnds | null {
  const whole = head.replace(/^\uFEFF/, '');
  const first = tail === null ? recordTime(linesOf(whole, false), all ? 'earliest' : 'first', records) : headTime(head, all, records);
  // A line cut off at the start of the tail is not looked at: from the first line that starts within it.
  const tailText = tail === null ? whole : tail.slice(tail.indexOf('\n') + 1 || tail.length);
  const last = all ? recordTime(linesOf(tailText, false), 'latest', records) : recordTime(linesOf(tailText, true), 'first', records);
  if (first === null || last === null || !Number.isFinite(last - first)) return null;
  return { first, last };
}

/**
 * The time of the first event or state record of `lines` (null: none, or an
 * `I` record before it); or the earliest (the latest) time of all of them
 * (null: none, or an `I` record among them).
 */
function recordTime(lines: Iterable<string>, pick: 'first' | 'earliest' | 'latest', records: LineRecords = dlogRecords): number | null {
  let time: number | null = null;
  let named = false;
  const at = (t: number): void => {
    if (time === null || (pick === 'latest' ? t > time : t < time)) time = t;
  };
  const sink: RecordSink = {
    instance: () => { named = true; },
    event: at,
    state: at,
  };
  for (const line of lines) {
    records(line.endsWith('\r') ? line.slice(0, -1) : line, sink);
    if (named) return null;
    if (time !== null && pick === 'first') return time;
  }
  return time;
}

/**
 * The lines of `text` (split at '\n', as String#split gives them), first to
 * last or last to first, made as they are asked for: a file's first record
 * is in its first lines, and its last in its last ones.
 */
function* linesOf(text: string, backwards: boolean): Generator<string> {
  if (!backwards) {
    for (let at = 0; at <= text.length;) {
      const nl = text.indexOf('\n', at);
      const end = nl < 0 ? text.length : nl;
      yield text.slice(at, end);
      at = end + 1;
    }
    return;
  }
  for (let end = text.length; end >= 0;) {
    const nl = end === 0 ? -1 : text.lastIndexOf('\n', end - 1);
    yield text.slice(nl + 1, end);
    end = nl;
  }
}

/** Where a file's ends are read (reused: fresh memory is a page fault each 4 KB). */
const endsBuffer = Buffer.allocUnsafe(2 * END_BYTES);
