import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../errors.js';
import { describeFsError, listInputFiles, type InputFile } from '../parse/files.js';
import type { ClassSink, ReadStats } from '../parse/reader.js';
import type { LineContext, RecordSink } from '../parse/records.js';
import type { LineTranslator, Translator } from '../parse/translator.js';
import { clip } from '../parse/dlog.js';
import type { TranslatorProblem } from '../parse/translators/rules.js';
import { escapeTerminal, grouped } from '../report/format.js';
import { parseYear, typedOption } from './options.js';
import { isInside } from './guard.js';
import { formatUserError } from './output.js';

export interface TranslateOptions {
  readonly translator: string;
  readonly inputs: readonly string[];
  /** A directory (one `.dlog` per instance) or `-` (one dlog stream on stdout). */
  readonly out: string;
  /** How the user named `out` (`-o`, default, or `--out`), for errors. */
  readonly outOption?: string;
  readonly strict: boolean;
  readonly year?: number;
}

export interface TranslateIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/** How many unmapped lines the summary quotes. */
const EXAMPLES = 5;

/**
 * `distalyze translate --translator FILE INPUT… -o DIR|-`: run a translator
 * over raw logs and write the records, so a user can check the translator
 * before analysing. The summary on stderr says how many lines each rule
 * translated and quotes lines that no rule matched. Returns the exit code:
 * 0 done, 2 input error (printed as one line, like the main command).
 *
 * Instances follow the reader's rules: each file starts in the instance named
 * by its path relative to its INPUT, so run translate once per class (good,
 * bad) as the main command reads one class per directory.
 */
export async function runTranslate(opts: TranslateOptions, io: TranslateIo): Promise<number> {
  try {
    await translate(opts, io);
    return 0;
  } catch (err) {
    if (err instanceof OutputClosed) return 0;
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(formatUserError(err.message, err.hint));
    return 2;
  }
}

/** `distalyze translate`: add the subcommand to the main program (after its exitOverride/configureOutput). */
export function registerTranslateCommand(program: Command, io: TranslateIo, setCode: (code: number) => void): Command {
  return program
    .command('translate')
    .description('run a translator over raw logs and write the records (dlog), to check the translator before analysing')
    .requiredOption('--translator <file>', 'a rules file (.yaml/.json), a JS module, or an executable')
    .requiredOption('-o, --out <dir>', 'a directory for one .dlog per instance, or - for stdout')
    .option('--year <yyyy>', 'year for timestamps that have none (syslog); default: the current year')
    .option('--strict', 'stop at the first line no rule translates')
    .argument('<inputs...>', 'raw log files or directories (searched recursively), or - for stdin')
    .action(async (inputs: string[], raw: { translator: string; out: string; year?: string; strict?: boolean }, cmd: Command) => {
      let year: number | undefined;
      try {
        if (raw.year !== undefined) year = parseYear(raw.year); // validated as the main command does
      } catch (err) {
        io.stderr.write(formatUserError((err as InputError).message));
        setCode(2);
        return;
      }
      setCode(await runTranslate({ translator: raw.translator, inputs, out: raw.out, outOption: typedOption(cmd, '--out', '-o'), strict: raw.strict === true, ...(year !== undefined ? { year } : {}) }, io));
    });
}

async function translate(opts: TranslateOptions, io: TranslateIo): Promise<void> {
  if (opts.inputs.length === 0) throw new InputError('translate needs at least one input file or directory');
  // Loaded here, not at start-up: `distalyze --version` does not pay for them.
  const [{ emptyReadStats, readClass }, { DlogDirectoryWriter, DlogStreamWriter }, { loadTranslator }] = await Promise.all([
    import('../parse/reader.js'), import('../parse/translators/dlog-writer.js'), import('../parse/translators/load.js'),
  ]);
  const loaded = await loadTranslator(opts.translator, opts.year !== undefined ? { year: opts.year } : {});
  // Lines no rule matched, apart from lines a rule matched but could not use (counted by the translator's problems).
  const unmatched: Unmatched = { count: 0, examples: [] };
  const translator: Translator = loaded.type === 'lines' ? countUnmatched(loaded, unmatched) : loaded;
  const files: InputFile[] = [];
  for (const spec of opts.inputs) files.push(...await listInputFiles(spec, 'input'));

  const toStdout = opts.out === '-';
  let closed = false;
  let sink: ClassSink & { flush(): void };
  let instances: () => number;
  let written = (): string[] => [];
  let finish = async (): Promise<void> => undefined;
  if (toStdout) {
    // Only EPIPE means the reader went away (`| head`); any other failure (ENOSPC, EIO) is an error.
    let failed: unknown = null;
    const onWriteError = (err: unknown): void => {
      if ((err as NodeJS.ErrnoException).code === 'EPIPE') closed = true;
      else failed ??= err;
    };
    io.stdout.on('error', onWriteError);
    const check = (): void => {
      if (failed !== null) throw new InputError(`cannot write to standard output: ${describeFsError(failed)}`);
      if (closed) throw new OutputClosed();
    };
    const writer = new DlogStreamWriter((text) => {
      check();
      io.stdout.write(text, (err) => { if (err !== undefined && err !== null) onWriteError(err); });
    });
    finish = async () => {
      // Wait until everything written has reached the stream's destination, then look at the outcome.
      await new Promise<void>((done) => io.stdout.write('', () => done()));
      check();
    };
    sink = writer;
    instances = () => writer.instances.size;
  } else {
    prepareOutputDirectory(opts.out, opts.outOption ?? '-o', opts.inputs, files);
    const writer = new DlogDirectoryWriter(opts.out);
    sink = writer;
    instances = () => writer.files().size;
    written = () => [...writer.files().values()];
  }

  const stats = emptyReadStats();
  const started = process.hrtime.bigint();
  for (const file of files) {
    await readClass([file], 'good', sink, { translator, strict: opts.strict, examples: EXAMPLES }, stats);
    // Between files, let a slow reader of stdout catch up.
    if (toStdout && (io.stdout as NodeJS.WritableStream & { writableNeedDrain?: boolean }).writableNeedDrain === true && !closed) {
      await new Promise<void>((done) => {
        const over = (): void => {
          for (const e of ['drain', 'error', 'close'] as const) io.stdout.off(e, over);
          done();
        };
        for (const e of ['drain', 'error', 'close'] as const) io.stdout.once(e, over);
      });
    }
  }
  try {
    sink.flush();
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`cannot write: ${describeFsError(err)}`, opts.out);
  }
  await finish();
  if (!toStdout) writeMarker(opts.out, written());
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  io.stderr.write(summary(loaded, stats, instances(), toStdout ? 'stdout' : opts.out, seconds, unmatched));
}

interface Unmatched {
  count: number;
  readonly examples: string[];
}

/** The translator, counting (with a few examples) the lines it left unmapped with no rule matching them. */
function countUnmatched(translator: LineTranslator, into: Unmatched): LineTranslator {
  return {
    type: 'lines',
    path: translator.path,
    beginFile: (ctx, sink) => translator.beginFile?.(ctx, sink),
    endFile: (ctx, sink) => translator.endFile?.(ctx, sink),
    whyUnmapped: () => translator.whyUnmapped?.() ?? null,
    translateLine(line: string, ctx: LineContext, sink: RecordSink): boolean {
      const mapped = translator.translateLine(line, ctx, sink);
      if (!mapped && (translator.whyUnmapped?.() ?? null) === null) {
        into.count++;
        if (into.examples.length < EXAMPLES) into.examples.push(InputError.format(`no translator rule matched: '${clip(line)}'`, ctx.file, ctx.line));
      }
      return mapped;
    },
  };
}

/** Thrown by the stdout writer when the reader went away (`| head`): stop quietly. */
class OutputClosed extends InputError {
  constructor() {
    super('output closed');
  }
}

/**
 * Marks a directory as translate's output and lists the files it wrote: a
 * rerun into the same directory removes exactly those, nothing else.
 */
export const TRANSLATE_MARKER = '.distalyze-translate';
const MARKER_HEADER = '# written by distalyze translate; a rerun with -o here replaces the files listed below';

/**
 * The output directory: created if missing. An existing one must be empty,
 * or hold only the files an earlier translate run wrote there (listed in its
 * marker file), which are replaced. Anything else there is an error, so a
 * mistyped `-o` never deletes or mixes into a user's files; and it must not
 * hold (or be inside) one of the inputs, which translate would overwrite.
 */
function prepareOutputDirectory(dir: string, option: string, inputs: readonly string[], files: readonly InputFile[]): void {
  const out = resolve(dir);
  for (const input of inputs) {
    if (input === '-') continue;
    if (isInside(out, resolve(input))) {
      throw new InputError(`output directory ${dir} is inside input ${input}: the next run would read its own output`);
    }
  }
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new InputError(`${option}: exists and is not a directory`, dir);
    entries = readdirSync(dir);
  } catch (err) {
    if (err instanceof InputError) throw err;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new InputError(`${option}: cannot read: ${describeFsError(err)}`, dir);
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new InputError(`${option}: cannot create directory: ${describeFsError(e)}`, dir);
    }
    return;
  }
  // Real paths: an input reached through a symbolic link is still an input.
  const realOut = realpathSync(dir);
  for (const f of files) {
    if (f.path === '-') continue;
    let real: string;
    try {
      real = realpathSync(f.path);
    } catch {
      continue;
    }
    if (isInside(real, realOut)) throw new InputError(`${option}: directory holds input ${f.path}; translate would overwrite its own input`, dir);
  }
  const ours = new Set(entries.includes(TRANSLATE_MARKER) ? readMarker(dir, option) : []);
  const foreign = entries.filter((e) => e !== TRANSLATE_MARKER && !ours.has(e));
  if (foreign.length > 0) {
    throw new InputError(`${option}: directory is not empty (it holds ${foreign[0]}${foreign.length > 1 ? ` and ${foreign.length - 1} more` : ''})`, dir,
      undefined, 'translate writes into a new or empty directory, or one holding only the files of an earlier translate run (they are replaced)');
  }
  for (const e of entries) rmSync(join(dir, e), { force: true });
}

/** The file names an earlier run listed in its marker; only plain names, never a path. */
function readMarker(dir: string, option: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(dir, TRANSLATE_MARKER), 'utf8');
  } catch (err) {
    throw new InputError(`${option}: cannot read ${TRANSLATE_MARKER}: ${describeFsError(err)}`, dir);
  }
  if (!text.startsWith(MARKER_HEADER)) return [];
  return text.split('\n').slice(1).filter((n) => n.endsWith('.dlog') && !n.includes('/') && !n.includes('\\') && !n.startsWith('.'));
}

function writeMarker(dir: string, names: readonly string[]): void {
  try {
    writeFileSync(join(dir, TRANSLATE_MARKER), `${[MARKER_HEADER, ...names].join('\n')}\n`);
  } catch (err) {
    throw new InputError(`cannot write: ${describeFsError(err)}`, join(dir, TRANSLATE_MARKER));
  }
}

function summary(translator: Translator, stats: ReadStats, instances: number, where: string, seconds: number, unmatched: Unmatched): string {
  const n = grouped;
  const lines: string[] = [];
  // A rate only for a megabyte or more (below, it measures start-up); in the unit that fits it (never "0 MB/s").
  const rate = seconds > 0 && stats.bytes >= 1e6 ? `, ${formatBytes(stats.bytes / seconds)}/s` : '';
  const what = translator.type === 'executable' ? 'output lines of the program' : 'lines';
  lines.push(`translated ${n(stats.files)} file${stats.files === 1 ? '' : 's'} (${formatBytes(stats.bytes)}, ${n(stats.lines)} ${what}${rate}) ` +
    `into ${n(instances)} instance${instances === 1 ? '' : 's'}, ${n(stats.records)} record${stats.records === 1 ? '' : 's'} (events and states) → ${where}`);
  if (translator.type === 'lines' && translator.ruleCounts !== undefined) {
    const counts = [...translator.ruleCounts()];
    const width = Math.max(...counts.map(([, c]) => n(c).length), 1);
    lines.push('lines translated per rule:');
    for (const [label, count] of counts) lines.push(`  ${n(count).padStart(width)}  ${label}${count === 0 ? '   (nothing)' : ''}`);
  }
  // Lines a rule matched but could not use first (a wrong timestamp format shows here), as what they are;
  // then the lines no rule matched.
  const problems = (translator as { problems?: () => readonly TranslatorProblem[] }).problems?.() ?? [];
  for (const p of problems) {
    lines.push(`${n(p.count)} ${p.count === 1 ? 'line' : 'lines'} ${p.reason}, e.g.:`);
    for (const e of p.examples) lines.push(`  ${e}`);
  }
  if (translator.type === 'executable') {
    const skipped = stats.skippedLines;
    lines.push(`${n(skipped)} ${skipped === 1 ? 'line' : 'lines'} were not records${skipped > 0 ? ', e.g.:' : ''}`);
    for (const e of stats.skippedExamples) lines.push(`  ${e}`);
  } else {
    lines.push(`${n(unmatched.count)} ${unmatched.count === 1 ? 'line was' : 'lines were'} not translated (no rule matched)${unmatched.count > 0 ? ', e.g.:' : ''}`);
    for (const e of unmatched.examples) lines.push(`  ${e}`);
  }
  const year = (translator as { assumedYear?: number }).assumedYear;
  if (year !== undefined) lines.push(`note: timestamps without a year were put in ${year} (the current year); pass --year for reproducible output`);
  // File names and log text are the user's: made visible, never obeyed, as everywhere on the terminal.
  return `${lines.map(escapeTerminal).join('\n')}\n`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1e3) return `${Math.round(bytes)} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}
