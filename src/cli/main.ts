import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { Command, CommanderError, Option } from 'commander';
import { analyze, type Analysis, type ClassInputSummary } from '../analysis.js';
import { InputError } from '../errors.js';
import { FeatureCollector } from '../features/collector.js';
import { buildFeatureSet } from '../features/index.js';
import { variableLimit } from '../features/limits.js';
import { AbsoluteQuartilePass, referenceDurationOf } from '../features/quartile-pass.js';
import { listInputFiles, type InputFile } from '../parse/files.js';
import { readParallel } from '../parse/parallel.js';
import { bonferroniBand, MetricJoin, seriesCount } from '../features/metric-join.js';
import { readMetrics, type MetricSeries } from '../parse/metrics.js';
import { emptyReadStats, readClass, type ClassSink, type ReadStats } from '../parse/reader.js';
import type { ClassName } from '../parse/records.js';
import type { MinedTranslator } from '../parse/templates/index.js';
import type { Translator } from '../parse/translator.js';
import { renderDot } from '../report/dot.js';
import { renderJson } from '../report/json.js';
import { renderText } from '../report/text.js';
import { renderTsv } from '../report/tsv.js';
import { VERSION } from '../version.js';
import { parseOptions, type Options, type RawOptions } from './options.js';
import { registerTemplatesCommand } from './templates.js';
import { registerCheckCommand } from './check.js';
import { registerHistoryCommand } from './history.js';
import { registerTranslateCommand } from './translate.js';
import { checkOutputPath, checkReportTargets, formatUserError, guardStream, StagedOutputs, writeStream } from './output.js';
import { clearProgressLine, Progress, StageProgress } from './progress.js';

/** Below this much input, starting workers costs more than it saves. */
const PARALLEL_MIN_BYTES = 16 * 1024 * 1024;
/** Above this much input, state change points are not held in memory: see AbsoluteQuartilePass. */
const SERIES_IN_MEMORY_MAX_BYTES = 1024 * 1024 * 1024;

const SUBCOMMAND_USAGE: Readonly<Record<string, string>> = {
  check: 'distalyze check [options] BASELINE NEW… (see distalyze check --help)',
  history: 'distalyze history [options] RUN… | DIR (see distalyze history --help)',
};

export interface Io {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream;
}

/** Run the command line; returns the exit code (0 done, 1 divergence with --fail-on-divergence, 2 usage or input error). */
export async function main(argv: readonly string[], io: Io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let code = 0;
  // A reader that closes stdout or stderr early (`| head -1`) must not crash the process.
  guardStream(io.stdout);
  guardStream(io.stderr);
  const program = buildProgram(io, (c) => { code = c; });
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return code;
  } catch (err) {
    clearProgressLine();
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      // Commander adds a suggestion on a second line: "(Did you mean --json?)".
      const [first = '', ...rest] = err.message.replace(/^error: /, '').split('\n');
      const suggestion = rest.join(' ').trim().replace(/^\((.*)\)$/, '$1');
      io.stderr.write(formatUserError(first, suggestion === '' ? undefined : suggestion));
      if (err.code === 'commander.missingArgument' || err.code === 'commander.excessArguments') {
        const usage = SUBCOMMAND_USAGE[argv[0] ?? ''] ?? 'distalyze [options] GOOD BAD (see distalyze --help)';
        io.stderr.write(`  usage: ${usage}\n`);
      }
      return 2;
    }
    if (err instanceof InputError) {
      io.stderr.write(formatUserError(err.message, err.hint));
      return 2;
    }
    throw err;
  }
}

function buildProgram(io: Io, setCode: (c: number) => void): Command {
  const program = new Command('distalyze')
    .description('Compare two sets of logs (good and bad) and show the divergent variables that most affect performance.')
    .version(VERSION)
    .argument('<good>', 'logs of acceptable performance: a directory (searched recursively), a file, or - for stdin')
    .argument('<bad>', 'logs with the problem: a directory, a file, or -')
    .option('--metric <name>', 'the variable that measures performance, for events and states (default: the built-in duration)')
    .option('--event-metric <name>', 'the event variable that is the metric (e.g. Finish)')
    .option('--state-metric <name>', 'the state variable that is the metric (e.g. runtime)')
    .option('--weight <mode>', 'cost weights for a heavy tail: none, auto, or exp:HALF (weight ⌊2^(P/HALF)⌋)', 'none')
    .option('--alpha <p>', 'significance level before correction', '0.05')
    .addOption(new Option('--correction <method>', 'multiple-testing correction').choices(['bonferroni', 'holm', 'bh', 'none']).default('bonferroni'))
    .addOption(new Option('--kinds <mode>', 'instance kinds (request types): test within each kind (on), combine the kinds\' differences by inverse variance (combine), or pool them (off)').choices(['on', 'combine', 'off']).default('on'))
    .option('--min-split <n>', 'minimum samples to split a regression-tree node (default ⌈N/3⌉ per class)')
    .option('--split-alpha <p>', 'family-wise level of the tree split gate at each node', '0.05')
    .addOption(new Option('--split-test <gate>', 'tree split gate: rank (SPEC §4), or the earlier F-tests per candidate split or per predictor').choices(['rank', 'f-splits', 'f-predictors']).default('rank'))
    .option('--dn-sample <n>', 'at most this many instances per class for dependency networks', '100000')
    .addOption(new Option('--dn-class <class>', 'the class whose dependency networks are searched').choices(['good', 'bad', 'both']).default('bad'))
    .option('--balance <a>', 'score = Σ T̂^(2a)·ŵ^(2(1−a)): 0.5 weighs divergence and dependency equally', '0.5')
    .option('--top <k>', 'graphs to show per log kind', '1')
    .option('--max-nodes <n>', 'nodes to draw per graph (besides P and the paths to it)', '10')
    .option('--seed <n>', 'seed for sampling instances', '1')
    .option('--limit <n>', 'ranked variables listed in the terminal report', '10')
    .option('--translator <file>', 'translate raw logs: a rules file (.yaml/.json), a JS module, or an executable')
    .option('--timestamp <format>', 'raw logs without a translator: the timestamp format (default: detected per file)')
    .option('--instance-pattern <regex>', 'raw logs without a translator: a regex whose group id (or 1) names instances (default: a request-id field, else one file = one instance)')
    .option('--metrics <dir>', 'resource metrics (.csv, .csv.gz) joined to the instances that touched their entity (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--metrics-entity <column>', 'the metric files\' entity column (default: PodName, Pod, ServiceName, …)')
    .option('--metrics-time <column>', 'the metric files\' time column (default: TimeStamp, Timestamp, Time)')
    .option('--metrics-band <k>', 'a metric sample counts by how far it lies beyond k robust SDs of its entity\'s usual level; auto: beyond both the Bonferroni band over the series and the entity\'s own range elsewhere (0: the plain robust z)', 'auto')
    .addOption(new Option('--metrics-align <end|start>', 'a metric sample describes the interval ending at its time (rates) or holds from its time on (gauges)').choices(['end', 'start']).default('end'))
    .option('--year <yyyy>', 'year for timestamps that have none (syslog)')
    .option('--dot <file>', 'write the top graphs as Graphviz DOT (- for stdout)')
    .option('--json <file>', 'write everything as JSON (- for stdout)')
    .option('--tsv <file>', 'write every t-test as TSV (- for stdout)')
    .option('--html <file>', 'write a self-contained HTML report')
    .option('--fail-on-divergence', 'exit 1 when any feature diverges significantly (for CI gates)')
    .option('--strict', 'stop at the first line that is not a record')
    .option('--no-color', 'no colors in the terminal report')
    .option('-q, --quiet', 'no progress line')
    .option('-j, --jobs <n>', 'parallel parsing workers (default: all cores)')
    .option('--timings', 'print the time of each stage and the peak memory on stderr, as JSON')
    .addOption(new Option('--two-pass', 'read the input twice instead of holding state series (automatic above 1 GiB)').hideHelp())
    // `translate` has its own --translator: options after a subcommand's name are the subcommand's.
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => {
        // Commander's own errors are reported by main() as one line; keep help text.
        if (!s.startsWith('error:')) io.stderr.write(s);
      },
    })
    .action(async (good: string, bad: string, raw: RawOptions) => {
      setCode(await runAnalysis(good, bad, parseOptions(raw), io));
    });
  registerTranslateCommand(program, io, setCode);
  registerTemplatesCommand(program, io, setCode);
  registerCheckCommand(program, io, setCode);
  registerHistoryCommand(program, io, setCode);
  return program;
}

async function runAnalysis(goodSpec: string, badSpec: string, options: Options, io: Io): Promise<number> {
  if (goodSpec === '-' && badSpec === '-') throw new InputError('only one class can be read from standard input (-)');
  const reportPaths = [['--json', options.json], ['--tsv', options.tsv], ['--dot', options.dot], ['--html', options.html]] as const;
  for (const [option, path] of reportPaths) {
    if (path !== undefined) await checkOutputPath(path, option);
  }
  const stages: Record<string, number> = {};
  let stageStart = performance.now();
  const stageDone = (name: string): void => {
    const now = performance.now();
    stages[name] = Math.round(now - stageStart);
    stageStart = now;
  };
  const files: Record<ClassName, InputFile[]> = {
    good: await listInputFiles(goodSpec, 'good'),
    bad: await listInputFiles(badSpec, 'bad'),
  };
  const all = [...files.good, ...files.bad];
  // A class given as a directory (a single file's list is that file): reports must not go inside it.
  const classDirectories = (['good', 'bad'] as const)
    .map((c) => [c, c === 'good' ? goodSpec : badSpec] as const)
    .filter(([c, spec]) => spec !== '-' && !(files[c].length === 1 && files[c][0]!.path === spec));
  await checkReportTargets(reportPaths, all, classDirectories);
  const totalBytes = all.reduce((s, f) => s + f.size, 0);
  const progress = new Progress(totalBytes, all.length, Progress.enabledFor(options.quiet));
  // Holding every state change point until Dref is known costs memory in
  // proportion to the input; above a size (and when the input can be read
  // again) q*.abs come from a second, streaming pass instead.
  const rereadable = goodSpec !== '-' && badSpec !== '-';
  // Joined metrics exist in the one pass only: with --metrics, series are always held.
  const keepSeries = options.metrics.length > 0 || !(rereadable && (options.twoPass || totalBytes > SERIES_IN_MEMORY_MAX_BYTES));
  const collector = new FeatureCollector(keepSeries);
  collector.events.limit = collector.states.limit = variableLimit(getHeapStatistics().heap_size_limit);
  const stats: Record<ClassName, ReadStats> = { good: emptyReadStats(), bad: emptyReadStats() };
  // No translator and raw text: mine templates over both classes first (src/parse/templates).
  const mined = options.translator === undefined ? await minedTranslator(files, options, io) : undefined;
  let loaded: Translator | undefined = mined;
  const translatorOnce = async (): Promise<Translator | undefined> => {
    if (options.translator !== undefined && loaded === undefined) loaded = await loadTranslatorOption(options.translator, options.year);
    return loaded;
  };
  const jobs = options.jobs ?? availableParallelism();
  // Workers pay off on large inputs; an explicit --jobs always uses them.
  // Automatically only with at least two files per worker: a few huge files of
  // `I`-named instances (requests) cost more to ship back than to parse here.
  const metrics = options.metrics.length > 0 ? await readMetricsOption(options) : undefined;
  // The metric join watches every record, so it runs on this thread.
  const parallel = metrics === undefined && jobs > 1 && all.length > 1 && goodSpec !== '-' && badSpec !== '-' &&
    (options.jobs !== undefined || (totalBytes >= PARALLEL_MIN_BYTES && all.length >= 2 * jobs));
  if (parallel) {
    const inputs = (['good', 'bad'] as const).flatMap((className) => files[className].map((file) => ({ file, className })));
    await readParallel(inputs, jobs, {
      ...(options.translator !== undefined ? { translator: options.translator } : {}),
      ...(options.year !== undefined ? { year: options.year } : {}),
      ...(mined !== undefined ? { templates: mined.model } : {}),
      strict: options.strict,
      keepSeries,
    }, collector, stats, progress);
    collector.finishClass();
  } else {
    const translator = await translatorOnce();
    const direct: ClassSink = {
      beginFile: (f, cl) => collector.beginFile(f, cl),
      endFile: (f) => { collector.endFile(f); progress.fileDone(); },
      instance: (id, kind) => collector.instance(id, kind),
      event: (t, n) => collector.event(t, n),
      state: (t, n, v) => collector.state(t, n, v),
    };
    const join = metrics === undefined ? undefined : new MetricJoin(metrics, direct, {
      band: options.metricsBand === 'auto' ? bonferroniBand(options.alpha, seriesCount(metrics)) : options.metricsBand, window: 1800, align: options.metricsAlign, beyondRange: options.metricsBand === 'auto',
    });
    for (const c of ['good', 'bad'] as const) {
      await readClass(files[c], c, join ?? direct, {
        ...(translator !== undefined ? { translator } : {}),
        strict: options.strict,
        onBytes: (n) => progress.addBytes(n),
      }, stats[c]);
      join?.finishClass();
      collector.finishClass();
    }
  }
  if (!keepSeries && collector.states.names.length > 0) {
    const pass = new AbsoluteQuartilePass(collector, referenceDurationOf(collector));
    const translator = await translatorOnce();
    for (const c of ['good', 'bad'] as const) {
      await readClass(files[c], c, pass, { ...(translator !== undefined ? { translator } : {}), strict: options.strict }, emptyReadStats());
    }
    pass.finish();
  }
  progress.done();
  stageDone('parse');
  const built = buildFeatureSet(collector, {
    ...(options.metric !== undefined ? { metric: options.metric } : {}),
    ...(options.eventMetric !== undefined ? { eventMetric: options.eventMetric } : {}),
    ...(options.stateMetric !== undefined ? { stateMetric: options.stateMetric } : {}),
    weight: options.weight,
  });
  const features = { ...built, warnings: [...built.warnings, ...stats.good.notes, ...stats.bad.notes] };
  stageDone('features');
  const summary = (c: ClassName): ClassInputSummary => ({
    instances: c === 'good' ? features.features.nGood : features.features.nBad,
    files: stats[c].files,
    bytes: stats[c].bytes,
    records: stats[c].records,
    skippedLines: stats[c].skippedLines,
    skippedExamples: stats[c].skippedExamples,
  });
  const dnProgress = new StageProgress(Progress.enabledFor(options.quiet));
  let analysis: Analysis;
  try {
    analysis = analyze({ classes: { good: summary('good'), bad: summary('bad') }, features }, {
      alpha: options.alpha,
      correction: options.correction,
      kinds: options.kinds,
      attention: { balance: options.balance, top: options.top, maxNodes: options.maxNodes, dnClass: options.dnClass },
      network: {
        ...(options.minSplit !== undefined ? { minSplit: options.minSplit } : {}),
        splitAlpha: options.splitAlpha,
        splitTest: options.splitTest,
        sample: options.dnSample,
        seed: options.seed,
        onProgress: dnProgress.update,
      },
      distributions: options.html !== undefined,
      onStage: (name, ms) => { stages[name] = Math.round(ms); },
    });
  } finally {
    dnProgress.done();
  }
  stageStart = performance.now();
  await writeReports(analysis, options, io);
  stageDone('reports');
  if (options.timings) {
    const instances = features.features.instances.length;
    io.stderr.write(`${JSON.stringify({ stages, maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024), instances, bytes: stats.good.bytes + stats.bad.bytes, lines: stats.good.lines + stats.bad.lines, parallel })}\n`);
  }
  return options.failOnDivergence && analysis.tests.some((t) => t.significant) ? 1 : 0;
}

async function writeReports(analysis: Analysis, options: Options, io: Io): Promise<void> {
  // Files all or nothing (StagedOutputs); the one report on stdout after them.
  const files = new StagedOutputs();
  let toStdout: string | undefined;
  const reports: [string, string | undefined, () => string | Promise<string>][] = [
    ['--json', options.json, () => renderJson(analysis)],
    ['--tsv', options.tsv, () => renderTsv(analysis)],
    ['--dot', options.dot, () => renderDot(analysis)],
    ['--html', options.html, async () => (await import('../report/html.js')).renderHtml(analysis)],
  ];
  try {
    for (const [option, path, render] of reports) {
      if (path === undefined) continue;
      if (path === '-') toStdout = await render();
      else await files.stage(path, await render(), option);
    }
    await files.commit();
  } finally {
    await files.discard();
  }
  if (toStdout !== undefined) await writeStream(io.stdout, toStdout);
  // The terminal report goes to stdout unless a machine-readable format took it.
  const text = renderText(analysis, { color: options.color && io.stdout.isTTY === true && !process.env.NO_COLOR, limit: options.limit });
  if (toStdout !== undefined) {
    if (!options.quiet) await writeStream(io.stderr, text, 'standard error');
  } else {
    await writeStream(io.stdout, text);
  }
}

async function minedTranslator(files: Record<ClassName, InputFile[]>, options: Options, io: Io): Promise<MinedTranslator | undefined> {
  const { rawLogTranslator } = await import('../parse/templates/index.js');
  const bytes = [...files.good, ...files.bad].reduce((n, f) => n + f.size, 0);
  const mined = await rawLogTranslator(files, {
    // Mining workers as for parsing: above PARALLEL_MIN_BYTES, or when --jobs says so.
    jobs: options.jobs ?? (bytes >= PARALLEL_MIN_BYTES ? availableParallelism() : 1),
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
    ...(options.instancePattern !== undefined ? { instancePattern: options.instancePattern } : {}),
    ...(options.year !== undefined ? { year: options.year } : {}),
  });
  if (mined === undefined && (options.timestamp !== undefined || options.instancePattern !== undefined)) {
    throw new InputError(`${options.timestamp !== undefined ? '--timestamp' : '--instance-pattern'} is for raw logs, but the input holds records`);
  }
  if (mined !== undefined && !options.quiet) io.stderr.write(`${mined.summary()}\n`);
  return mined;
}

function readMetricsOption(options: Options): Promise<MetricSeries> {
  return readMetrics(options.metrics, {
    ...(options.metricsEntity !== undefined ? { entityColumn: options.metricsEntity } : {}),
    ...(options.metricsTime !== undefined ? { timeColumn: options.metricsTime } : {}),
  });
}

async function loadTranslatorOption(path: string, year: number | undefined): Promise<Translator> {
  const { loadTranslator } = await import('../parse/translators/load.js');
  return loadTranslator(path, year !== undefined ? { year } : {});
}
