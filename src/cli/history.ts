import type { Command } from 'commander';
import type { AnalysisOptions } from '../analysis.js';
import { InputError } from '../errors.js';
import { OutputGuard } from './guard.js';
import { writeReportFiles, writeStream } from './output.js';
import { addRunsOptions, numberOption, readRunsFor, readTableRunsFor, runDirectories, tableSource, type RunCommandIo, type RunsRawOptions } from './runs.js';
import { runArgument, runsInDirectory, type RunInput, type RunsRead } from '../read/runs.js';

/** Default options of the before/after comparison (the main command's defaults). */
export function comparisonOptions(seed: number): AnalysisOptions {
  return {
    alpha: 0.05,
    correction: 'bonferroni',
    attention: { balance: 0.5, top: 1, maxNodes: 10, dnClass: 'bad' },
    network: { splitAlpha: 0.05, splitTest: 'rank', sample: 100_000, seed },
    distributions: false,
  };
}

/** `distalyze history RUN... | DIR`: register the subcommand. */
export function registerHistoryCommand(program: Command, io: RunCommandIo, setCode: (code: number) => void): Command {
  const cmd = program
    .command('history')
    .description('one point per nightly run: find the runs where P or a variable changes (mean, variance, correlation with P), and compare before against after')
    .argument('<runs...>', 'run directories in time order, or one directory whose subdirectories (sorted by name) are the runs (--clickhouse: one time window START/END or SQL condition, its runs in time order)')
    .option('--alpha <p>', "false-alarm rate of P's own series, and apart of all the other series (Bonferroni within each group)", '0.05')
    .option('--min-segment <n>', 'fewest runs on each side of a change', '3')
    .option('--seed <n>', 'seed of the permutations (and of the comparisons\' sampling)', '1')
    .option('--json <file>', 'write everything as JSON (- for stdout)')
    .option('--html <file>', 'write a self-contained HTML page: each changed variable\'s trend, the change marked, linked to its comparison');
  addRunsOptions(cmd).action(async (args: string[], raw: RunsRawOptions & { minSegment: string; seed: string; html?: string }) => {
    setCode(await runHistory(args, raw, io));
  });
  return cmd;
}

async function runHistory(args: readonly string[], raw: RunsRawOptions & { minSegment: string; seed: string; html?: string }, io: RunCommandIo): Promise<number> {
  const alpha = numberOption('--alpha', raw.alpha, (x) => x > 0 && x < 1, 'must be between 0 and 1 (exclusive)');
  const minSegment = numberOption('--min-segment', raw.minSegment, (x) => Number.isInteger(x) && x >= 2, 'must be a whole number ≥ 2');
  const seed = numberOption('--seed', raw.seed, (x) => Number.isInteger(x) && x >= 0, 'must be a whole number ≥ 0');
  if (raw.html === '-') throw new InputError('--html needs a file name (the page is one self-contained file)');
  const guard = await OutputGuard.before([['--json', raw.json], ['--html', raw.html]]);
  const table = tableSource(raw);
  if (table !== undefined && args.length !== 1) {
    throw new InputError(`history with --clickhouse takes one selection (a time window START/END or an SQL condition), its runs in time order; got ${args.length}`);
  }
  const [{ ignoreMatcher }, { detectHistory }, { renderHistoryJson, renderHistoryText }] = await Promise.all([
    import('../check/ignore.js'), import('../history/index.js'), import('../history/render.js'),
  ]);
  const enough = (n: number): void => {
    if (n < 2 * minSegment) throw new InputError(`history needs at least ${2 * minSegment} runs (--min-segment ${minSegment} on each side of a change); got ${n}`);
  };
  // From a table, the runs are known once read (its one selection's, in time order).
  const read = table !== undefined
    ? await readTableRunsFor('history', table, [{ className: 'good', label: 'selection', specs: args }], raw, { good: 2, bad: 0 })
    : await historyRunsInFiles(args, raw, guard, enough);
  enough(read.runs.length);
  const runs = read.runs;
  const ignored = ignoreMatcher(raw.ignore);
  const history = detectHistory({ features: read.features, runOf: read.runOf, runNames: runs.map((r) => r.name), skipped: read.skipped }, {
    alpha, minSegment, seed, ignored, analysis: comparisonOptions(seed),
  });
  const toStdout = await writeReportFiles([
    ['--json', raw.json, () => renderHistoryJson(history)],
    ['--html', raw.html, async () => (await import('../history/html.js')).renderHistoryHtml(history)],
  ]);
  // One directory of files only: each file is taken as a run (nightly runs of one file each), which a run
  // directory given alone (its instances' files) is not: said, so that a history of instances is not taken for one of runs.
  const filesAsRuns = table === undefined && args.length === 1 && runs.every((r) => r.file === true)
    ? `note: each run is one file of '${args[0]!}' (it holds no directories); to read a directory of instance files as one run, give the run directories\n` : '';
  const text = renderHistoryText(history) + filesAsRuns;
  if (toStdout !== undefined) {
    await writeStream(io.stdout, toStdout);
    if (raw.quiet !== true) await writeStream(io.stderr, text, 'standard error');
  } else {
    await writeStream(io.stdout, text);
  }
  return 0;
}

/** The runs from files: the arguments in the order given, or one directory's entries by name. */
async function historyRunsInFiles(args: readonly string[], raw: RunsRawOptions, guard: OutputGuard, enough: (runs: number) => void): Promise<RunsRead> {
  const runs = args.length === 1 ? await runsInDirectory(args[0]!, 'good', 'history') : args.map((a) => runArgument(a, 'good'));
  enough(runs.length);
  // A report must not replace a log, nor land among the runs, where the next history would read it.
  return readRunsFor(runs, raw, { good: 2, bad: 0 }, (listed) => guard.against(listed.flat(),
    args.length === 1 ? [['directory of runs', args[0]!]] : runDirectories(runs, listed, 'run directory')));
}
