import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { killProcessGroup, registerProcessGroup, releaseProcessGroup } from '../cleanup.js';
import { InputError, thrownMessage } from '../errors.js';
import { clip, parseDlogLine } from './dlog.js';
import { readDlogFast, readDlogSmall, smallPlainFile } from './fast/dlog-fast.js';
import type { SkipHandler } from './fast/dlog-parser.js';
import { SPAN_OR_TABLE_NAME, type InputFile } from './files.js';
import { readLines } from './lines.js';
import { RereadFile, type ClassName, type LineContext, type RecordIntake, type RecordSink } from './records.js';
import type { TailOwner } from './tail-help.js';
import type { ExecutableTranslator, LineTranslator, Translator } from './translator.js';

// csv.js and spans.js (with csv-parse, ~11 ms to load) are loaded on the first file that can be a
// span file or a table (SPAN_OR_TABLE_NAME): a plain dlog run never needs them.
let spans: Promise<typeof import('./spans.js')> | undefined;
let csv: Promise<typeof import('./csv.js')> | undefined;

/** A record sink that is also told where each file starts and ends. */
export interface ClassSink extends RecordSink {
  beginFile(file: InputFile, className: ClassName): void;
  /** true: the file's own instance was summarized as it was read (counted in ReadStats.streamed). May throw RereadFile. */
  endFile(file: InputFile, className: ClassName): boolean | void;
}

export interface ReadOptions {
  readonly translator?: Translator;
  /** Make the first line that is not a record fatal. */
  readonly strict: boolean;
  /** Called with each chunk's size in bytes, for progress. */
  readonly onBytes?: (n: number) => void;
  /** How many skipped lines to keep as examples. */
  readonly examples?: number;
  /** A parsing thread's entry on the board where idle threads find the rest of a large file to read (tail-help.ts). */
  readonly tail?: TailOwner;
  /**
   * Read a large plain file's next chunk on libuv's pool while this one is
   * parsed (dlog-fast.ts chunksAhead): worth it with a core free beside the
   * parsing threads, not with every core parsing. Default true.
   */
  readonly readAhead?: boolean;
}

export interface ReadStats {
  files: number;
  bytes: number;
  lines: number;
  records: number;
  skippedLines: number;
  skippedExamples: string[];
  /**
   * Of skippedLines, those no translator rule matched: the lines a translator is meant to pass over, where the
   * others (not a record, a rule that matched but could not use its line, a line over the limit) are records lost.
   */
  unmappedLines: number;
  /** The first skipped line that is not an unmapped one (`file:line: reason`), '' if none. */
  firstLost: string;
  /** Counted notes about input that was used but irregular (e.g. spans whose parent is missing), one line each. */
  notes: string[];
  /** Files summarized as they were read (large runs: features/streamed.ts), their records not held. */
  streamed: number;
  /** Large files whose rest a second thread read (tail-help.ts). */
  helped: number;
}

export function emptyReadStats(): ReadStats {
  return { files: 0, bytes: 0, lines: 0, records: 0, skippedLines: 0, skippedExamples: [], unmappedLines: 0, firstLost: '', notes: [], streamed: 0, helped: 0 };
}

/**
 * Read every file of one class into `sink`: dlog by default, CSV/TSV by file
 * name, or through a translator. Lines that are not records are counted (with
 * a few examples) and never silently dropped; `strict` makes the first fatal.
 */
export async function readClass(files: readonly InputFile[], className: ClassName, sink: ClassSink, options: ReadOptions, stats: ReadStats = emptyReadStats()): Promise<ReadStats> {
  const counting = new CountingSink(sink, stats);
  const onBytes = options.onBytes;
  for (const file of files) {
    stats.files++;
    const before = { bytes: stats.bytes, lines: stats.lines, records: stats.records, skippedLines: stats.skippedLines, unmappedLines: stats.unmappedLines, firstLost: stats.firstLost, skippedExamples: stats.skippedExamples.length, notes: stats.notes.length };
    // The progress hears of each byte once, also when the file is read again (RereadFile).
    let told = 0;
    let read = 0;
    const once = onBytes === undefined ? options : {
      ...options,
      onBytes: (n: number) => {
        read += n;
        if (read > told) {
          onBytes(read - told);
          told = read;
        }
      },
    };
    sink.beginFile(file, className);
    await readFile(file, className, counting, once, stats);
    try {
      if (sink.endFile(file, className) === true) stats.streamed++;
    } catch (err) {
      if (!(err instanceof RereadFile)) throw err;
      // Read again, counted once: its lines, records and skipped lines as this reading finds them.
      Object.assign(stats, { bytes: before.bytes, lines: before.lines, records: before.records, skippedLines: before.skippedLines, unmappedLines: before.unmappedLines, firstLost: before.firstLost });
      stats.skippedExamples.length = before.skippedExamples;
      stats.notes.length = before.notes;
      read = 0;
      sink.beginFile(file, className);
      await readFile(file, className, counting, once, stats);
      sink.endFile(file, className);
    }
  }
  return stats;
}

async function readFile(file: InputFile, className: ClassName, sink: RecordSink, options: ReadOptions, stats: ReadStats): Promise<void> {
  // Span files (OpenTelemetry CSV, JSON Lines, OTLP/JSON) are read natively, also beside raw logs given to a translator.
  const maybeSpanOrTable = SPAN_OR_TABLE_NAME.test(file.relativePath);
  const spanModule = maybeSpanOrTable ? await (spans ??= import('./spans.js')) : undefined;
  const spanFormat = spanModule === undefined ? null : await spanModule.detectSpanFormat(file);
  if (spanModule !== undefined && spanFormat !== null) {
    const r = await spanModule.readSpanFile(file, spanFormat, sink, options.onBytes);
    stats.bytes += r.bytes;
    stats.lines += r.lines;
    stats.notes.push(...r.notes);
    return;
  }
  const translator = options.translator;
  if (translator?.type === 'executable') return readThroughExecutable(file, translator, sink, options, stats);
  if (translator?.type === 'lines') return readThroughLines(file, className, translator, sink, options, stats);
  const csvModule = maybeSpanOrTable ? await (csv ??= import('./csv.js')) : undefined;
  const delimiter = csvModule === undefined ? null : csvModule.tableFormatOf(file.relativePath);
  if (csvModule !== undefined && delimiter !== null) {
    const r = await csvModule.readCsv(file, delimiter, sink, options.onBytes);
    stats.bytes += r.bytes;
    return;
  }
  // dlog straight from the bytes: the same records, errors and skipped lines as readLines + parseDlogLine.
  const onSkip: SkipHandler = (lineNo, reason, hint) => skip(stats, options, file.path, lineNo, reason, hint);
  const r = smallPlainFile(file) ? await readDlogSmall(file, sink, onSkip, options.onBytes)
    : await readDlogFast(file, sink, onSkip, options.onBytes, undefined, options.tail, options.readAhead);
  stats.bytes += r.bytes;
  stats.lines += r.lines;
  stats.records += r.records;
  if (r.helped) stats.helped++;
}

async function readThroughLines(file: InputFile, className: ClassName, translator: LineTranslator, sink: RecordSink, options: ReadOptions, stats: ReadStats): Promise<void> {
  const base = { file: file.path, relativePath: file.relativePath, className };
  translator.beginFile?.(base, sink);
  // (A compressed file's bytes read are not its size: it is read.)
  const known = file.gzip ? null : translator.translateFile?.(base, sink) ?? null;
  if (known !== null) {
    translator.endFile?.(base, sink);
    options.onBytes?.(known.bytes);
    stats.bytes += known.bytes;
    stats.lines += known.lines;
    return;
  }
  const ctx: { -readonly [K in keyof LineContext]: LineContext[K] } = { ...base, line: 0 };
  const r = await readLines(file, {
    line: (text, lineNo) => {
      ctx.line = lineNo;
      let mapped: boolean;
      try {
        mapped = translator.translateLine(text, ctx, sink);
      } catch (err) {
        if (err instanceof InputError) throw err;
        throw new InputError(`translator ${translator.path} failed: ${thrownMessage(err)}`, file.path, lineNo);
      }
      // A rule that matched but could not use the line (no timestamp in its format…) says so: the true cause.
      if (!mapped) {
        const why = translator.whyUnmapped?.() ?? null;
        if (why === null && !options.strict) stats.unmappedLines++;
        skip(stats, options, file.path, lineNo, () => `${why ?? 'no translator rule matched'}: '${clip(text)}'`, undefined, why !== null);
      }
    },
    tooLong: (lineNo, length) => skip(stats, options, file.path, lineNo, () => `line of ${length} characters is over the 1 MiB limit`),
  }, options.onBytes);
  translator.endFile?.(base, sink);
  stats.bytes += r.bytes;
  stats.lines += r.lines;
}

/** Run the translator program on one raw file and parse its standard output as dlog. */
async function readThroughExecutable(file: InputFile, translator: ExecutableTranslator, sink: RecordSink, options: ReadOptions, stats: ReadStats): Promise<void> {
  const { cmd, args } = translator.command(file.path);
  // With `-` the program reads the raw log from its standard input.
  // Its own process group, so that an interrupted run stops the program and whatever it started.
  const child = spawn(cmd, args as string[], { stdio: [file.path === '-' ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: true });
  const pid = child.pid;
  if (pid !== undefined) registerProcessGroup(pid);
  if (file.path === '-' && child.stdin !== null) {
    child.stdin.on('error', () => undefined); // the program may exit without reading everything
    process.stdin.pipe(child.stdin);
  }
  let stderr = '';
  const stdout = child.stdout as Readable;
  const stderrStream = child.stderr as Readable;
  stderrStream.setEncoding('utf8');
  stderrStream.on('data', (d: string) => { stderr = (stderr + d).slice(-2000); });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', (err) => reject(new InputError(`cannot run translator ${translator.path}: ${err.message}`, file.path)));
    child.on('close', (code) => resolve(code));
  });
  // What the program left running when it exited (`cmd &`) would hold its stdout open, and the reading would wait
  // for it: stopped once the program exits (its group outlives it only while a member does, so no other is hit).
  child.on('exit', () => {
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // none left
    }
  });
  child.on('close', () => { if (pid !== undefined) releaseProcessGroup(pid); });
  exited.catch(() => undefined);
  const where = `${file.path} (translator ${translator.path} output)`;
  const virtual: InputFile = { path: where, relativePath: file.relativePath, gzip: false, size: 0 };
  try {
    const r = await readLines(virtual, {
      line: (text, lineNo) => {
        if (parseDlogLine(text, sink, where, lineNo) === 'not-a-record') {
          skip(stats, options, where, lineNo, () => `not a record: '${clip(text)}'`);
        }
      },
      tooLong: (lineNo, length) => skip(stats, options, where, lineNo, () => `line of ${length} characters is over the 1 MiB limit`),
    }, options.onBytes, stdout);
    // The size read is the raw file's (as for every other input), not the program's output; stdin's is unknown: its output.
    stats.bytes += file.path === '-' ? r.bytes : file.size;
    stats.lines += r.lines;
  } catch (err) {
    if (pid !== undefined) {
      killProcessGroup(pid);
      releaseProcessGroup(pid);
    }
    throw err;
  }
  const code = await exited;
  if (code !== 0) {
    const last = stderr.trim().split('\n').pop() ?? '';
    throw new InputError(`translator ${translator.path} exited with code ${code}${last ? `: ${clip(last, 200)}` : ''}`, file.path);
  }
}

/**
 * Count a line that yielded no record. `reason` is a function so the message
 * is built only when it is shown: on a translator's log most lines may be
 * skipped, and formatting each one costs half the throughput.
 */
function skip(stats: ReadStats, options: ReadOptions, file: string, lineNo: number, reason: () => string, hint?: string, lost = true): void {
  if (options.strict) throw new InputError(`${reason()} (--strict)`, file, lineNo, hint);
  stats.skippedLines++;
  if (lost && stats.firstLost === '') stats.firstLost = InputError.format(reason(), file, lineNo);
  if (stats.skippedExamples.length < (options.examples ?? 5)) stats.skippedExamples.push(InputError.format(reason(), file, lineNo));
}

/**
 * Counts the records read: events and states (those given to the sink's
 * `intake` are counted by the reader that gives them). Instance records (`I`) are not
 * counted: a translator names the instance again at every switch between
 * interleaved instances, so counting them would make the same data count
 * differently on the fly and after `translate -o` (one `I` per instance).
 */
/**
 * `sink`, counting the records that pass through it in `stats` (the dlog
 * reader counts what it gives the fast lane itself: readFile adds it). A
 * class, not an object of closures: V8 inlines a function made only once as
 * a constant, so closures made again for the second class threw away the
 * compiled readers that called them (`readDlogFast` and the parser's
 * constructor, "code dependencies" in `--trace-deopt`; docs/internals.md,
 * "V8: keep what it compiles").
 */
class CountingSink implements RecordSink {
  readonly intake: RecordIntake | undefined;

  constructor(private readonly sink: RecordSink, private readonly stats: ReadStats) {
    this.intake = sink.intake;
  }

  instance(id: string, kind?: string): void {
    this.sink.instance(id, kind);
  }

  event(t: number, name: string): void {
    this.stats.records++;
    this.sink.event(t, name);
  }

  state(t: number, name: string, value: number): void {
    this.stats.records++;
    this.sink.state(t, name, value);
  }

  eventFromSpans(name: string): void {
    this.sink.eventFromSpans?.(name);
  }
}
