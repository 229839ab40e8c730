import { Command, CommanderError, Option } from 'commander';
import type { Analysis } from '../analysis.js';
import type { InputFile } from '../parse/input-file.js';
import type { ReadPass } from '../read-options.js';
import { InputError } from '../errors.js';
import { VERSION } from '../version.js';
import { parseOptions, typedOption, type Options, type RawOptions } from './options.js';
import { registerTemplatesCommand } from './templates.js';
import { registerCheckCommand } from './check.js';
import { registerHistoryCommand } from './history.js';
import { registerTranslateCommand } from './translate.js';
import { OutputGuard } from './guard.js';
import { formatUserError, guardStream, writeReportFiles, writeStream } from './output.js';
import { clearProgressLine, Progress, StageProgress } from './progress.js';
import { RELAUNCHED_ENV, relaunch, relaunchFor } from './relaunch.js';

const SUBCOMMAND_USAGE: Readonly<Record<string, string>> = {
  check: 'distalyze check [options] BASELINE NEW… (see distalyze check --help)',
  history: 'distalyze history [options] RUN… | DIR (see distalyze history --help)',
};

export interface Io {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream;
}

/** How main() may run: as the executable (bin/distalyze.js), or in-process (tests, a library user). */
export interface MainOptions {
  /**
   * Whether a large run may start the command again in a child process with
   * huge pages (relaunch.ts): only the executable, whose process and standard
   * streams the run owns.
   */
  readonly relaunch?: boolean;
}

/** Run the command line; returns the exit code (0 done, 1 divergence with --fail-on-divergence, 2 usage or input error). */
export async function main(argv: readonly string[], io: Io = { stdout: process.stdout, stderr: process.stderr }, how: MainOptions = {}): Promise<number> {
  let code = 0;
  // A reader that closes stdout or stderr early (`| head -1`) must not crash the process.
  guardStream(io.stdout);
  guardStream(io.stderr);
  const program = buildProgram(io, (c) => { code = c; }, how);
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

function buildProgram(io: Io, setCode: (c: number) => void, how: MainOptions): Command {
  const program = new Command('distalyze')
    .description('Compare two sets of logs (good and bad) and show the divergent variables that most affect performance.')
    .version(VERSION)
    .argument('<good>', 'logs of acceptable performance: a directory (searched recursively), a file, or - for stdin')
    .argument('<bad>', 'logs with the problem: a directory, a file, or -')
    .optionsGroup('Input:')
    .option('--translator <file>', 'translate raw logs: a rules file (.yaml/.json), a JS module, or an executable (default: records are read as they are; raw text is mined into templates)')
    .option('--timestamp <format>', 'raw logs without a translator: the timestamp format (default: detected per file)')
    .option('--instance-pattern <regex>', 'raw logs without a translator: a regex whose group id (or 1) names instances (default: a request-id field, else one file = one instance)')
    .option('--header-pattern <regex>', 'raw text logs without a translator: the header after the timestamp, groups level and entity (default: learned per file)')
    .option('--message-column <name>', 'raw tables (CSV/TSV, JSON Lines, logfmt) without a translator: the column (field, key) holding the message (default: detected)')
    .option('--entity-column <name>', 'raw tables or logfmt without a translator: the column or key naming the component (service, pod, host) (default: detected)')
    .option('--trace-column <name>', 'raw tables or logfmt without a translator: the request/trace id column or key that names instances (default: detected)')
    .option('--time-column <name>', 'raw tables or logfmt without a translator: the time column or key (default: detected)')
    .option('--year <yyyy>', 'year for timestamps that have none (syslog) (default: the current year)')
    .option('--metrics <dir>', 'resource metrics (.csv, .csv.gz) joined to the instances that touched their entity (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--metrics-entity <column>', 'the metric files\' entity column (default: PodName, Pod, ServiceName, …)')
    .option('--metrics-time <column>', 'the metric files\' time column (default: TimeStamp, Timestamp, Time)')
    .option('--strict', 'stop at the first line that is not a record')
    .option('--clickhouse <url>', 'the logs are in ClickHouse (http://host:8123/db; user and password from CLICKHOUSE_USER, CLICKHOUSE_PASSWORD): GOOD and BAD are time windows START/END or SQL conditions, the features computed on the server')
    .option('--table <name>', 'with --clickhouse: the table of the logs (a Distributed table sharded by the instance is computed shard by shard)')
    .option('--mapping <name>', 'with --clickhouse: the table\'s shape: records (instance, time, event, state, value), otel_traces or otel_logs (default: records)')
    .option('--columns <field=col,...>', 'with --clickhouse: the mapping\'s columns renamed (instance, time, unit, event, state, value, kind, entity, order)')
    .option('-j, --jobs <n>', 'parallel parsing threads: this one and n-1 workers (default: up to all cores, two files and 32 MiB of input each, or one large file per class)')
    .optionsGroup('Analysis:')
    .option('--metric <name>', 'the variable that measures performance, for events and states (default: the built-in duration)')
    .option('--event-metric <name>', 'the event variable that is the metric (e.g. Finish)')
    .option('--state-metric <name>', 'the state variable that is the metric (e.g. runtime)')
    .option('--weight <mode>', 'cost weights for a heavy tail: none, auto, or exp:HALF (weight ⌊2^(P/HALF)⌋)', 'none')
    .option('--alpha <p>', 'significance level before correction', '0.05')
    .addOption(new Option('--correction <method>', 'multiple-testing correction').choices(['bonferroni', 'holm', 'bh', 'none']).default('bonferroni'))
    .addOption(new Option('--inflation <mode>', 'deflate a family of tests (one source and feature type, 100+ tests) that diverges as a whole, as when the two sets differ in load (auto), or test each as it is (off)').choices(['auto', 'off']).default('auto'))
    .option('--windows', 'each subdirectory (or file) inside GOOD and BAD is one window (a minute, a run, a day): differences are tested against how much the good windows differ from one another (give several fault-free windows)')
    .option('--window <duration>', 'cut each class into windows of this length by each instance\'s first time (e.g. 10s, 5m), and test against how much the good windows differ')
    .addOption(new Option('--kinds <mode>', 'instance kinds (request types): test within each kind (on), combine the kinds\' differences by inverse variance (combine), or pool them (off)').choices(['on', 'combine', 'off']).default('on'))
    .optionsGroup('Output:')
    .option('--json <file>', 'write everything as JSON (- for stdout)')
    .option('--html <file>', 'write a self-contained HTML report')
    .option('--dot <file>', 'write the top graphs as Graphviz DOT (- for stdout)')
    .option('--tsv <file>', 'write every t-test as TSV (- for stdout)')
    .option('--limit <n>', 'causes and ranked variables listed in the terminal report', '10')
    .option('--sort <order>', 'the terminal report\'s first list: cause (the verdict\'s order) or divergence (Σ|z| alone)', 'cause')
    .option('--top <k>', 'graphs to show per log kind', '1')
    .option('--max-nodes <n>', 'nodes to draw per graph (besides P and the paths to it)', '10')
    .option('--fail-on-divergence', 'exit 1 when any feature diverges significantly (for CI gates)')
    .option('--no-color', 'no colors in the terminal report')
    .option('-q, --quiet', 'no progress line or notes on stderr; with a report option (--json, --html, --dot, --tsv) no terminal report either')
    .optionsGroup('Advanced:')
    .option('--balance <a>', 'score = Σ T̂^(2a)·ŵ^(2(1−a)): 0.5 weighs divergence and dependency equally', '0.5')
    .option('--min-split <n>', 'minimum samples to split a regression-tree node (default ⌈N/3⌉ per class)')
    .option('--split-alpha <p>', 'family-wise level of the tree split gate at each node', '0.05')
    .addOption(new Option('--split-test <gate>', 'tree split gate: rank (SPEC §4), or the earlier F-tests per candidate split or per predictor').choices(['rank', 'f-splits', 'f-predictors']).default('rank'))
    .option('--dn-sample <n>', 'at most this many instances per class for dependency networks', '100000')
    .addOption(new Option('--dn-class <class>', 'the class whose dependency networks are searched').choices(['good', 'bad', 'both']).default('bad'))
    .option('--seed <n>', 'seed for sampling instances', '1')
    .option('--metrics-band <k>', 'a metric sample counts by how far it lies beyond k robust SDs of its entity\'s usual level; auto: beyond both the Bonferroni band over the series and the entity\'s own range elsewhere (0: the plain robust z)', 'auto')
    .addOption(new Option('--metrics-align <end|start>', 'a metric sample describes the interval ending at its time (rates) or holds from its time on (gauges)').choices(['end', 'start']).default('end'))
    .option('--timings', 'print the time of each stage and the peak memory on stderr, as JSON')
    .addOption(new Option('--two-pass', 'read the input twice instead of holding state series (automatic above 1 GiB)').hideHelp())
    .addHelpText('after', `
Examples:
  distalyze good/ bad/                          the terminal report: the verdict, its causes, the graphs that support it
  distalyze good/ bad/ --html report.html -q    a self-contained HTML report, nothing else printed
  distalyze good/ bad/ --json - | jq .verdict   JSON on stdout (the terminal report goes to stderr)
  distalyze good/ bad/ --translator rules.yaml  raw logs through a rules file (see examples/README.md)
  distalyze templates good/ bad/ -o rules.yaml  a starter rules file from the templates mined in raw logs
  distalyze check baseline-runs/ new-run/       a CI gate against the distribution of earlier runs

In a clone, run it as node bin/distalyze.js (npm run demo runs the fixture); npm install -g . puts it on PATH.
`)
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
    .action(async (good: string, bad: string, raw: RawOptions, cmd: Command) => {
      setCode(await runAnalysis(good, bad, parseOptions(raw, typedOption(cmd, '--jobs', '-j')), io, how.relaunch === true));
    });
  registerTranslateCommand(program, io, setCode);
  registerTemplatesCommand(program, io, setCode);
  registerCheckCommand(program, io, setCode);
  registerHistoryCommand(program, io, setCode);
  return program;
}

/** What the progress line says during each pass besides the reading. */
const PASS_DOING: Readonly<Record<ReadPass, string>> = {
  ends: 'finding where compressed runs end',
  mining: 'mining templates',
  second: 'reading again for q*.abs',
};

/** Thrown by the reading's onFiles hook to stop it: the run starts again in a child process (relaunch.ts). */
class RelaunchInstead extends Error {
  constructor(readonly tunables: string) {
    super('relaunching with huge pages');
  }
}

async function runAnalysis(goodSpec: string, badSpec: string, options: Options, io: Io, mayRelaunch: boolean): Promise<number> {
  if (goodSpec === '-' && badSpec === '-') throw new InputError('only one class can be read from standard input (-)');
  const reportPaths = [['--json', options.json], ['--tsv', options.tsv], ['--dot', options.dot], ['--html', options.html]] as const;
  const guard = await OutputGuard.before(reportPaths);
  // The speed options go to the reading as its performance object (ReadOptions.performance).
  const { jobs, twoPass, ...rest } = options;
  const readOptions = { ...rest, performance: { ...(jobs !== undefined ? { jobs } : {}), twoPass } };
  // Parsing workers the reading will use start now, while this thread loads the stages (read/ahead.ts).
  const ahead = await import('../read/ahead.js');
  ahead.startWorkersAhead(goodSpec, badSpec, readOptions);
  // The stages are loaded when a run needs them, not at start-up (`--version`, `--help`, subcommands).
  // Reading starts as soon as its own modules are in (with -j2 the workers start sooner); the modules it
  // loads itself once it has listed the files are asked for now.
  const { loadReadersAhead, readClasses } = await import('../read/index.js');
  loadReadersAhead(readOptions);
  // The analysis modules load once the first bytes are read (after the modules reading needs, while
  // reading: with -j2 the workers take up the time), awaited after the parse (a failure is reported then).
  let analysisModule: Promise<typeof import('../analysis.js')> | undefined;
  const loadAnalysis = (): Promise<typeof import('../analysis.js')> => {
    if (analysisModule === undefined) {
      analysisModule = import('../analysis.js');
      analysisModule.catch(() => undefined);
      for (const report of reportModules(options)) report.catch(() => undefined);
    }
    return analysisModule;
  };
  const stages: Record<string, number> = {};
  const onStage = (name: string, ms: number): void => { stages[name] = Math.round(ms); };
  let progress: Progress | undefined;
  /** The reading's progress line, from nothing read (after the compressed files' ends are found). */
  let restartProgress = (): void => undefined;
  /** A pass before or after the reading (its bytes and files `doing`): a progress line of its own. */
  const passBegins = (doing: string) => (bytes: number, files: number): void => {
    progress?.done();
    progress = new Progress(bytes, files, Progress.enabledFor(options.quiet), doing);
  };
  /** A pass before the reading ended: the reading's line again, from nothing read. */
  const passEnds = (): void => {
    progress?.done();
    restartProgress();
  };
  const readHere = (relaunchable: boolean): ReturnType<typeof readClasses> => readClasses(goodSpec, badSpec, readOptions, {
    onFiles: async (files, totalBytes) => {
      const all = [...files.good, ...files.bad];
      // A class given as a directory (a single file's list is that file): reports must not go inside it.
      const classDirectories = (['good', 'bad'] as const)
        .map((c) => [c, c === 'good' ? goodSpec : badSpec] as const)
        .filter(([c, spec]) => spec !== '-' && !(files[c].length === 1 && files[c][0]!.path === spec))
        .map(([c, spec]) => [`${c} class directory`, spec] as const);
      await guard.against(all, classDirectories);
      // Large input of many instances, read from files (not stdin): the run starts again with huge pages. (What a
      // translator makes of its files is not known ahead: records read as they are only.)
      const namesManyInstances = async (): Promise<boolean> => {
        const largest = all.reduce<InputFile | undefined>((a, b) => (a === undefined || b.size > a.size ? b : a), undefined);
        return options.translator === undefined && largest !== undefined && (await import('../parse/sniff.js')).namesManyInstances(largest);
      };
      const tunables = relaunchable && goodSpec !== '-' && badSpec !== '-' ? await relaunchFor({ totalBytes, namesManyInstances }) : null;
      if (tunables !== null) throw new RelaunchInstead(tunables);
      progress = new Progress(totalBytes, all.length, Progress.enabledFor(options.quiet));
      restartProgress = () => { progress = new Progress(totalBytes, all.length, Progress.enabledFor(options.quiet)); };
    },
    onBytes: (n) => {
      if (analysisModule === undefined) void loadAnalysis();
      progress?.addBytes(n);
    },
    onFileDone: () => progress?.fileDone(),
    onNote: (text) => { if (!options.quiet) io.stderr.write(`${text}\n`); },
    onPass: (pass, bytes, files) => passBegins(PASS_DOING[pass])(bytes, files),
    // After the second pass, the reading's line is not shown again (onStage 'parse' ends it).
    onPassDone: (pass) => { if (pass !== 'second') passEnds(); },
    onStage: (name, ms) => {
      if (name === 'parse') progress?.done();
      onStage(name, ms);
    },
  });
  let read: Awaited<ReturnType<typeof readClasses>>;
  try {
    read = await readHere(mayRelaunch);
  } catch (err) {
    if (!(err instanceof RelaunchInstead)) throw err;
    // Nothing was read yet. The workers started ahead are this process's: stopped.
    ahead.stopWorkersAhead();
    const code = await relaunch(err.tunables);
    if (code !== null) return code;
    // The child could not be started: the run goes on here.
    read = await readHere(false);
  }
  const { features, stats, parallel } = read;
  const { analyze } = await loadAnalysis();
  const dnProgress = new StageProgress(Progress.enabledFor(options.quiet));
  let analysis: Analysis;
  try {
    const windows = await windowsOf(read, options);
    analysis = analyze({ classes: read.classes, features }, {
      alpha: options.alpha,
      correction: options.correction,
      kinds: options.kinds,
      inflation: options.inflation,
      ...(windows !== undefined ? { windows } : {}),
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
      onStage,
    });
  } finally {
    dnProgress.done();
  }
  const reportsStart = performance.now();
  await writeReports(analysis, options, io);
  onStage('reports', performance.now() - reportsStart);
  if (options.timings) {
    const instances = features.features.instances.length;
    // Relaunched with huge pages: how long the first process ran before starting this one.
    const relaunchedAfter = process.env[RELAUNCHED_ENV];
    io.stderr.write(`${JSON.stringify({
      stages, maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024), instances, bytes: stats.good.bytes + stats.bad.bytes, lines: stats.good.lines + stats.bad.lines, parallel,
      // Large files whose rest a second thread read (tail-help.ts).
      ...(stats.good.helped + stats.bad.helped > 0 ? { helped: stats.good.helped + stats.bad.helped } : {}),
      ...(relaunchedAfter !== undefined ? { relaunchedAfterMs: Number(relaunchedAfter) } : {}),
    })}\n`);
  }
  return options.failOnDivergence && analysis.tests.some((t) => t.significant) ? 1 : 0;
}

/** The windows `--windows` / `--window` ask for, or undefined. */
async function windowsOf(read: { readonly features: { readonly features: import('../features/types.js').FeatureSet }; readonly entryOf?: readonly (string | null)[] }, options: Options): Promise<import('../ttest/windows.js').Windows | undefined> {
  const fs = read.features.features;
  if (options.windowsByEntry && read.entryOf !== undefined) return (await import('../ttest/windows.js')).windowsByEntry(read.entryOf, fs.nGood);
  if (options.window !== undefined && fs.starts !== undefined) return (await import('../ttest/windows.js')).windowsByTime(fs.starts, fs.nGood, fs.nBad, options.window);
  return undefined;
}

/** Whether a report option names a file or stdout (then --quiet leaves out the terminal report). */
function reportAsked(options: Options): boolean {
  return reportRenderers(options).some(([, path]) => path !== undefined);
}

/** The file reports: option, where it goes, and how to load its renderer (a module loaded on first use). */
function reportRenderers(options: Options): [option: string, path: string | undefined, load: () => Promise<(a: Analysis) => string | Promise<string>>][] {
  return [
    ['--json', options.json, async () => (await import('../report/json.js')).renderJson],
    ['--tsv', options.tsv, async () => (await import('../report/tsv.js')).renderTsv],
    ['--dot', options.dot, async () => (await import('../report/dot.js')).renderDot],
    ['--html', options.html, async () => (await import('../report/html.js')).renderHtml],
  ];
}

/**
 * The report modules writeReports will load, asked for ahead (while reading) so they are in by
 * then; writeReports's own imports return them (or report a failure to load).
 */
function reportModules(options: Options): Promise<unknown>[] {
  return [
    ...reportRenderers(options).filter(([, path]) => path !== undefined).map(([, , load]) => load()),
    ...(options.quiet && reportAsked(options) ? [] : [import('../report/text.js')]),
  ];
}

async function writeReports(analysis: Analysis, options: Options, io: Io): Promise<void> {
  // Files all or nothing; the one report on stdout after them.
  const toStdout = await writeReportFiles(reportRenderers(options).map(([option, path, load]) => [option, path, async () => (await load())(analysis)]));
  if (toStdout !== undefined) await writeStream(io.stdout, toStdout);
  // The terminal report goes to stdout unless a machine-readable format took it.
  // --quiet with any report asked for (a file or stdout): no terminal report at all.
  if (options.quiet && reportAsked(options)) return;
  const { renderText } = await import('../report/text.js');
  const text = renderText(analysis, { color: options.color && io.stdout.isTTY === true && !process.env.NO_COLOR, limit: options.limit, sort: options.sort });
  if (toStdout !== undefined) {
    await writeStream(io.stderr, text, 'standard error');
  } else {
    await writeStream(io.stdout, text);
  }
}
