import type { Command } from 'commander';
import type { AnalysisOptions } from '../analysis.js';
import { ignoreMatcher } from '../check/ignore.js';
import { InputError } from '../errors.js';
import { detectHistory } from '../history/index.js';
import { renderHistoryJson, renderHistoryText } from '../history/render.js';
import { parseWeight } from './options.js';
import { checkOutputPath, StagedOutputs, writeStream } from './output.js';
import { readRuns, runArgument, runsInDirectory, type RunInput } from './runs.js';

export interface RunCommandIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream;
}

/** Options shared by `check` and `history`: the metric, the reader, --ignore. */
export interface RunsRawOptions {
  metric?: string;
  eventMetric?: string;
  stateMetric?: string;
  ignore: string[];
  translator?: string;
  year?: string;
  strict?: boolean;
  alpha: string;
  seed: string;
  json?: string;
  quiet?: boolean;
}

export function addRunsOptions(cmd: Command): Command {
  return cmd
    .option('--metric <name>', 'the variable that measures performance (default: the built-in duration)')
    .option('--event-metric <name>', 'the event variable that is the metric')
    .option('--state-metric <name>', 'the state variable that is the metric')
    .option('--ignore <glob>', 'leave out variables whose whole name matches this glob (* any characters, ? one); repeatable', (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--translator <file>', 'translate raw logs: a rules file (.yaml/.json), a JS module, or an executable')
    .option('--year <yyyy>', 'year for timestamps that have none (syslog)')
    .option('--strict', 'stop at the first line that is not a record')
    .option('--seed <n>', 'seed for permutations and sampling', '1')
    .option('-q, --quiet', 'no text report on stderr when --json - takes stdout');
}

export async function readRunsFor(runs: readonly RunInput[], raw: RunsRawOptions, minInstances: { good: number; bad: number }) {
  if (raw.metric !== undefined && (raw.eventMetric !== undefined || raw.stateMetric !== undefined)) {
    throw new InputError('--metric sets both kinds; use it alone, or --event-metric / --state-metric instead');
  }
  let translator;
  if (raw.translator !== undefined) {
    const { loadTranslator } = await import('../parse/translators/load.js');
    translator = await loadTranslator(raw.translator, raw.year !== undefined ? { year: Number(raw.year) } : {});
  }
  return readRuns(runs, {
    ...(raw.metric !== undefined ? { metric: raw.metric } : {}),
    ...(raw.eventMetric !== undefined ? { eventMetric: raw.eventMetric } : {}),
    ...(raw.stateMetric !== undefined ? { stateMetric: raw.stateMetric } : {}),
    weight: parseWeight('none'),
    minInstances,
    ...(translator !== undefined ? { translator } : {}),
    strict: raw.strict === true,
  });
}

export function numberOption(option: string, text: string, ok: (x: number) => boolean, what: string): number {
  const x = Number(text);
  if (text.trim() === '' || !Number.isFinite(x) || !ok(x)) throw new InputError(`${option} ${text}: ${what}`);
  return x;
}

/** Default options of the before/after comparison (the main command's defaults). */
export function comparisonOptions(seed: number): AnalysisOptions {
  return {
    alpha: 0.05,
    correction: 'bonferroni',
    attention: { balance: 0.5, top: 1, maxNodes: 10, dnClass: 'bad' },
    network: { splitAlpha: 0.05, splitCorrection: 'splits', sample: 100_000, seed },
    distributions: false,
  };
}

/** `distalyze history RUN... | DIR`: register the subcommand. */
export function registerHistoryCommand(program: Command, io: RunCommandIo, setCode: (code: number) => void): Command {
  const cmd = program
    .command('history')
    .description('one point per nightly run: find the runs where P or a variable changes (mean, variance, correlation with P), and compare before against after')
    .argument('<runs...>', 'run directories in time order, or one directory whose subdirectories (sorted by name) are the runs')
    .option('--alpha <p>', 'false-alarm rate of one whole history (Bonferroni over every series searched)', '0.05')
    .option('--min-segment <n>', 'fewest runs on each side of a change', '3')
    .option('--json <file>', 'write everything as JSON (- for stdout)')
    .option('--html <file>', 'write a self-contained HTML page: each changed variable\'s trend, the change marked, linked to its comparison');
  addRunsOptions(cmd).action(async (args: string[], raw: RunsRawOptions & { minSegment: string; html?: string }) => {
    setCode(await runHistory(args, raw, io));
  });
  return cmd;
}

async function runHistory(args: readonly string[], raw: RunsRawOptions & { minSegment: string; html?: string }, io: RunCommandIo): Promise<number> {
  const alpha = numberOption('--alpha', raw.alpha, (x) => x > 0 && x < 1, 'must be between 0 and 1 (exclusive)');
  const minSegment = numberOption('--min-segment', raw.minSegment, (x) => Number.isInteger(x) && x >= 2, 'must be a whole number ≥ 2');
  const seed = numberOption('--seed', raw.seed, (x) => Number.isInteger(x) && x >= 0, 'must be a whole number ≥ 0');
  if (raw.html === '-') throw new InputError('--html needs a file name (the page is one self-contained file)');
  for (const [option, path] of [['--json', raw.json], ['--html', raw.html]] as const) {
    if (path !== undefined && path !== '-') await checkOutputPath(path, option);
  }
  const runs = args.length === 1 ? await runsInDirectory(args[0]!, 'good', 'history') : args.map((a) => runArgument(a, 'good'));
  if (runs.length < 2 * minSegment) {
    throw new InputError(`history needs at least ${2 * minSegment} runs (--min-segment ${minSegment} on each side of a change); got ${runs.length}`);
  }
  const read = await readRunsFor(runs, raw, { good: 2, bad: 0 });
  const ignored = ignoreMatcher(raw.ignore);
  const history = detectHistory({ features: read.features, runOf: read.runOf, runNames: runs.map((r) => r.name) }, {
    alpha, minSegment, seed, ignored, analysis: comparisonOptions(seed),
  });
  const files = new StagedOutputs();
  let toStdout: string | undefined;
  try {
    if (raw.json !== undefined) {
      if (raw.json === '-') toStdout = renderHistoryJson(history);
      else await files.stage(raw.json, renderHistoryJson(history), '--json');
    }
    if (raw.html !== undefined) await files.stage(raw.html, (await import('../history/html.js')).renderHistoryHtml(history), '--html');
    await files.commit();
  } finally {
    await files.discard();
  }
  const text = renderHistoryText(history);
  if (toStdout !== undefined) {
    await writeStream(io.stdout, toStdout);
    if (raw.quiet !== true) await writeStream(io.stderr, text, 'standard error');
  } else {
    await writeStream(io.stdout, text);
  }
  return 0;
}
