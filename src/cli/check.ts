import type { Command } from 'commander';
import { isAbsolute, relative, sep } from 'node:path';
import { InputError } from '../errors.js';
import { OutputGuard } from './guard.js';
import { writeReportFiles, writeStream } from './output.js';
import type { ClickHouseSource } from '../read-options.js';
import { addRunsOptions, numberOption, readRunsFor, readTableRunsFor, runDirectories, tableSource, type RunCommandIo, type RunsRawOptions } from './runs.js';
import { runArgument, runsInDirectory, type RunInput, type RunsRead } from '../read/runs.js';
import { comparisonOptions } from './history.js';

interface CheckRawOptions extends RunsRawOptions {
  maxSlowdown: string;
  minEffect: string;
  junit?: string;
  github?: boolean;
}

/** `distalyze check BASELINE NEW...`: register the subcommand. Exit 0 pass, 1 regression of P, 2 input error. */
export function registerCheckCommand(program: Command, io: RunCommandIo, setCode: (code: number) => void): Command {
  const cmd = program
    .command('check')
    .description('CI gate: test one new run (or a few) against the distribution of baseline runs; exit 1 only on a regression of P beyond the thresholds')
    .argument('<baseline>', 'a directory of earlier runs: each subdirectory (or file) in it is one run (--clickhouse: a time window START/END or an SQL condition, taking the runs of its rows)')
    .argument('<new...>', 'the new run(s): each a directory of instances or one file (--clickhouse: each a window or condition, as BASELINE)')
    .option('--max-slowdown <percent>', 'fail only when P is more than this much slower than the baseline (5% or 5)', '5%')
    .option('--min-effect <sd>', 'fail only when P is at least this many baseline standard deviations slower', '0')
    .option('--alpha <p>', 'significance of the test on P (and, Bonferroni-corrected, of the other features)', '0.05')
    .option('--json <file>', 'write the result as JSON (- for stdout)')
    .option('--junit <file>', 'write JUnit XML')
    .option('--github', 'write GitHub Actions annotations (::error …) to stdout');
  addRunsOptions(cmd).action(async (baseline: string, news: string[], raw: CheckRawOptions) => {
    setCode(await runCheckCommand(baseline, news, raw, io));
  });
  return cmd;
}

/** `5%`, `5` (percent) or `0.5%` → a fraction. */
export function parsePercent(option: string, text: string): number {
  const m = /^\s*([0-9]*\.?[0-9]+)\s*%?\s*$/.exec(text);
  if (m === null) throw new InputError(`${option} ${text}: expected a percentage such as 5%`);
  return Number(m[1]) / 100;
}

async function runCheckCommand(baselineDir: string, news: readonly string[], raw: CheckRawOptions, io: RunCommandIo): Promise<number> {
  const [{ runCheck, CheckInputError }, { ignoreMatcher }, { gateLine, renderCheckJson, renderCheckText, renderGithub, renderJunit }] = await Promise.all([
    import('../check/index.js'), import('../check/ignore.js'), import('../check/render.js'),
  ]);
  const maxSlowdown = parsePercent('--max-slowdown', raw.maxSlowdown);
  const minEffect = numberOption('--min-effect', raw.minEffect, (x) => x >= 0, 'must be a number ≥ 0 (standard deviations)');
  const alpha = numberOption('--alpha', raw.alpha, (x) => x > 0 && x < 1, 'must be between 0 and 1 (exclusive)');
  if (raw.junit === '-') throw new InputError('--junit needs a file name');
  const guard = await OutputGuard.before([['--json', raw.json], ['--junit', raw.junit]], raw.github === true ? ['--github'] : []);
  const table = tableSource(raw);
  const { runs, read } = table !== undefined ? await checkRunsInTable(baselineDir, news, raw, table) : await checkRunsInFiles(baselineDir, news, raw, guard);
  let result;
  try {
    result = runCheck({
      features: read.features.features, runOf: read.runOf, runNames: runs.map((r) => r.name), runIsNew: runs.map((r) => r.className === 'bad'), skipped: read.skipped,
    }, { alpha, maxSlowdown, minEffect, ignored: ignoreMatcher(raw.ignore), analysis: comparisonOptions(1) });
  } catch (err) {
    if (err instanceof CheckInputError) throw new InputError(`check: ${err.message}`);
    throw err;
  }
  const json = await writeReportFiles([
    ['--json', raw.json, () => renderCheckJson(result)],
    ['--junit', raw.junit, () => renderJunit(result)],
  ]);
  // The gate's line once: in the text report, else (JSON on stdout) on stderr; --quiet leaves only what was asked for.
  const quiet = raw.quiet === true;
  let stdout = '';
  if (raw.github === true) stdout += renderGithub(result, table !== undefined ? null : await annotationFile(news[0]!));
  if (json !== undefined) stdout += json;
  else if (!quiet) stdout += renderCheckText(result);
  else if (raw.github !== true) stdout += gateLine(result);
  await writeStream(io.stdout, stdout);
  if (json !== undefined && !quiet) await writeStream(io.stderr, gateLine(result), 'standard error');
  return result.gate.passed ? 0 : 1;
}

/** The baseline's runs and the new runs, from files: a directory of runs and run arguments. */
async function checkRunsInFiles(baselineDir: string, news: readonly string[], raw: CheckRawOptions, guard: OutputGuard): Promise<{ runs: readonly RunInput[]; read: RunsRead }> {
  const baseline = await runsInDirectory(baselineDir, 'good', 'check: baseline');
  const fresh = news.map((n) => runArgument(n, 'bad'));
  const runs = [...baseline, ...fresh];
  const seen = new Set<string>();
  for (const r of runs) {
    if (seen.has(r.name)) throw new InputError(`check: two runs are named '${r.name}'; give each run its own name`);
    seen.add(r.name);
  }
  enoughBaseline(baselineDir, baseline.length, 'BASELINE is a directory of earlier runs, one subdirectory (or file) per run');
  // A report must not replace a log, nor land in the baseline or a new run, where the next check would read it.
  const read = await readRunsFor(runs, raw, { good: 3, bad: 1 }, (listed) => guard.against(listed.flat(),
    [['baseline directory', baselineDir], ...runDirectories(fresh, listed.slice(baseline.length), 'run directory')]));
  return { runs, read };
}

/** The baseline's runs and the new runs, from a table: the runs of the rows BASELINE matches, and of those each NEW matches. */
async function checkRunsInTable(baseline: string, news: readonly string[], raw: CheckRawOptions, table: ClickHouseSource): Promise<{ runs: readonly RunInput[]; read: RunsRead }> {
  const read = await readTableRunsFor('check', table, [
    { className: 'good', label: 'baseline', specs: [baseline] },
    { className: 'bad', label: news.length === 1 ? 'new run' : 'new runs', specs: news },
  ], raw, { good: 3, bad: 1 });
  enoughBaseline(baseline, read.runs.filter((r) => r.className === 'good').length, 'BASELINE is a time window or an SQL condition that takes the rows of earlier runs');
  return { runs: read.runs, read };
}

/** A distribution needs 3 baseline runs at least. */
function enoughBaseline(baseline: string, n: number, hint: string): void {
  if (n < 3) throw new InputError(`check: the baseline '${baseline}' holds ${n} run${n === 1 ? '' : 's'}; at least 3 are needed for a distribution`, undefined, undefined, hint);
}

/** A log file of the new run, relative to the working directory (GitHub attaches annotations to files of the workspace); null when there is none. */
async function annotationFile(run: string): Promise<string | null> {
  const { listInputFiles } = await import('../parse/files.js');
  const first = (await listInputFiles(run, 'check: new run').catch(() => []))[0];
  if (first === undefined || first.path === '-') return null;
  const path = relative(process.cwd(), first.path).split(sep).join('/');
  return path === '' || path.startsWith('../') || isAbsolute(path) ? null : path;
}
