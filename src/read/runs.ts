/**
 * The runs of `check` and `history` (directories of runs, or single files), read into one FeatureSet through the
 * same readers and buildFeatureSet as the two-class analysis: the reading half of those commands, below the CLI.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { RunSkipped } from '../check/skipped.js';
import { InputError } from '../errors.js';
import type { FeatureOptions, FeatureResult } from '../features/index.js';
import { compareCodeUnits, describeFsError, listInputFiles, type InputFile } from '../parse/files.js';
import type { ClassSink } from '../parse/reader.js';
import type { ClassName } from '../parse/records.js';
import type { Translator } from '../parse/translator.js';

/** One run of a nightly history: a directory of instances (or one file), read as a unit. */
export interface RunInput {
  /** Its name in every output: the entry name inside a directory of runs, else the argument as given. */
  readonly name: string;
  readonly path: string;
  readonly className: ClassName;
  /** Whether the run is one file (a directory of runs may hold files, each one run). */
  readonly file?: boolean;
}

/** What reading runs produced: one FeatureSet over all of them, and each instance's run. */
export interface RunsRead {
  readonly features: FeatureResult;
  /** runOf[i]: index into `runs` of FeatureSet.instances[i]. */
  readonly runOf: Int32Array;
  readonly runs: readonly RunInput[];
  /** Per run (as `runs`): the lines it skipped, as the main command counts them. */
  readonly skipped: readonly RunSkipped[];
}

/**
 * The runs inside a directory of runs, sorted by name (dated names sort in
 * time order): each subdirectory or file directly inside `dir` is one run.
 */
export async function runsInDirectory(dir: string, className: ClassName, what: string): Promise<RunInput[]> {
  let names: string[];
  try {
    if (!(await stat(dir)).isDirectory()) throw new InputError(`${what} '${dir}' is not a directory of runs`);
    names = await readdir(dir);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`${what}: cannot read '${dir}': ${describeFsError(err)}`);
  }
  const runs = names.filter((n) => !n.startsWith('.')).sort(compareCodeUnits).map((n) => ({ name: n, path: join(dir, n), className }));
  return Promise.all(runs.map(async (r) => ({ ...r, file: await stat(r.path).then((s) => s.isFile(), () => false) })));
}

/** A run given on the command line: named as written, without a trailing slash. */
export function runArgument(path: string, className: ClassName): RunInput {
  const name = path.replace(/\/+$/, '') || path;
  return { name: name === '.' ? basename(process.cwd()) : name, path, className };
}

/**
 * Read every run into one FeatureCollector (one common Dref, one set of
 * variables), through the same readers and buildFeatureSet as the main
 * command. Instance ids are prefixed with their run's name (`run/instance`),
 * so instances named alike in two runs stay apart.
 */
export async function readRuns(runs: readonly RunInput[], options: FeatureOptions & { readonly translator?: Translator; readonly strict: boolean; readonly onFiles?: RunFilesHook }): Promise<RunsRead> {
  const [{ FeatureCollector }, { buildFeatureSet }, { emptyReadStats, readClass }] = await Promise.all([
    import('../features/collector.js'), import('../features/index.js'), import('../parse/reader.js'),
  ]);
  await refuseOverlaps(runs);
  const collector = new FeatureCollector(true);
  const runOfId = new Map<string, number>();
  const order = [...runs.keys()].sort((a, b) => (runs[a]!.className === runs[b]!.className ? a - b : runs[a]!.className === 'good' ? -1 : 1));
  let current = -1;
  const sink: ClassSink = {
    beginFile: (f, c) => collector.beginFile(f, c),
    endFile: (f) => collector.endFile(f),
    instance: (id, kind) => {
      const prefixed = `${runs[current]!.name}/${id}`;
      runOfId.set(prefixed, current);
      collector.instance(prefixed, kind);
    },
    event: (t, n) => collector.event(t, n),
    state: (t, n, v) => collector.state(t, n, v),
    eventFromSpans: (n) => collector.eventFromSpans(n),
  };
  // Every run listed before any is read: the caller checks its reports against the files (onFiles).
  const listed: InputFile[][] = [];
  for (const run of runs) listed.push(await listInputFiles(run.path, `run ${run.name}`));
  await options.onFiles?.(listed);
  let lastClass: ClassName | undefined;
  const skipped: RunSkipped[] = new Array<RunSkipped>(runs.length);
  for (const r of order) {
    const run = runs[r]!;
    current = r;
    if (lastClass !== undefined && lastClass !== run.className) collector.finishClass();
    lastClass = run.className;
    const files: InputFile[] = listed[r]!.map((f) => {
      const relativePath = `${run.name}/${f.relativePath}`;
      runOfId.set(relativePath, r);
      return { ...f, relativePath };
    });
    const stats = await readClass(files, run.className, sink, { ...(options.translator !== undefined ? { translator: options.translator } : {}), strict: options.strict }, emptyReadStats());
    skipped[r] = { run: run.name, lines: stats.skippedLines, lost: stats.skippedLines - stats.unmappedLines, firstLost: stats.firstLost, examples: stats.skippedExamples };
  }
  collector.finishClass();
  const features = buildFeatureSet(collector, options);
  const runOf = Int32Array.from(features.features.instances, (i) => runOfId.get(i.id) ?? -1);
  const counts = new Int32Array(runs.length);
  for (const r of runOf) if (r >= 0) counts[r]!++;
  counts.forEach((n, r) => {
    if (n === 0) throw new InputError(`run ${runs[r]!.name}: no instances (no records in '${runs[r]!.path}')`);
  });
  return { features, runOf, runs, skipped };
}

/**
 * Two runs that are one path, or one inside the other (`check base base/r1`, a run given twice, a link), would
 * read the same files twice, under two names: an error naming both.
 */
async function refuseOverlaps(runs: readonly RunInput[]): Promise<void> {
  const real = await Promise.all(runs.map((r) => realpath(r.path).catch(() => r.path)));
  for (let a = 0; a < runs.length; a++) {
    for (let b = 0; b < runs.length; b++) {
      if (a === b) continue;
      const inside = real[b]!.startsWith(real[a]!.endsWith('/') ? real[a]! : `${real[a]!}/`);
      if (real[a] === real[b] ? a < b : inside) {
        throw new InputError(`run '${runs[b]!.name}' ${real[a] === real[b] ? 'is the same path as' : 'is inside'} run '${runs[a]!.name}' (${real[b]}): its files would be read twice`);
      }
    }
  }
}

/** The files of each run (in the order of `runs`), listed before any is read. */
export type RunFilesHook = (listed: readonly (readonly InputFile[])[]) => Promise<void>;
