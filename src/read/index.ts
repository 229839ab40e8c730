import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import type { ClassInputSummary } from '../analysis.js';
import { InputError } from '../errors.js';
import { FeatureCollector } from '../features/collector.js';
import { buildFeatureSet, checkInstanceCounts } from '../features/index.js';
import { variableLimit } from '../memory/limits.js';
import { AbsoluteQuartilePass, QuartileSlots, quartileLayoutOf, referenceDurationOf } from '../features/quartile-pass.js';
import type { WorkerInit } from './parallel/worker-init.js';
import { listInputFiles } from '../parse/files.js';
import type { InputFile, RecordEnds } from '../parse/input-file.js';
import { compressedEndsPay, largeCompressedLog, largeRunEnds, recordEndsAhead, recordEndsDecompressing, referenceDurationOfEnds, translatedEnds } from '../parse/sniff.js';
import type { MetricSeries } from '../parse/metrics.js';
import { emptyReadStats, readClass, type ClassSink, type ReadStats } from '../parse/reader.js';
import type { ClassName } from '../parse/records.js';
import { automaticJobs, prestartWorkers, stopPrestarted } from './parallel/threads.js';
import type { MinedTranslator, TemplateModel } from '../parse/templates/index.js';
import { rawLogs } from '../parse/templates/raw.js';
import type { Translator } from '../parse/translator.js';
import { checkReadOptions, performanceOf, type ClassesRead, type ReadHooks, type ReadOptions, type ReadPass } from '../read-options.js';
import { needsSecondPass, planEnds, planRead, planSeries, type CompressedEnds, type EndsFound, type EndsPlan, type ReadPlan } from './plan.js';

export { automaticJobs };
export { PARALLEL_MIN_BYTES, SERIES_IN_MEMORY_MAX_BYTES } from './plan.js';
export type { ClassesRead, ReadHooks, ReadOptions } from '../read-options.js';

/**
 * Read the good and bad logs (a directory, a file, or '-' for stdin; one of
 * the two at most) and build the FeatureSet, executing the reading plan
 * (plan.ts: worker threads for large inputs, template mining for raw logs with
 * no translator, each file's ends ahead, a second streaming pass for the
 * absolute quartiles of very large inputs) and the metric join.
 */
export async function readClasses(goodSpec: string, badSpec: string, options: ReadOptions = {}, hooks: ReadHooks = {}): Promise<ClassesRead> {
  checkReadOptions(options);
  if (options.clickhouse !== undefined) return (await import('../clickhouse/reader.js')).readClickHouse(goodSpec, badSpec, options.clickhouse, options, hooks);
  if (goodSpec === '-' && badSpec === '-') throw new InputError('only one class can be read from standard input (-)');
  let stageStart = performance.now();
  const stageDone = (name: string): void => {
    const now = performance.now();
    hooks.onStage?.(name, now - stageStart);
    stageStart = now;
  };
  // Both listed at once; a failure of each is reported as listing them in turn would (good's first).
  const [good, bad] = await Promise.allSettled([listInputFiles(goodSpec, 'good'), listInputFiles(badSpec, 'bad')]);
  if (good.status === 'rejected') throw good.reason;
  if (bad.status === 'rejected') throw bad.reason;
  const files: Record<ClassName, InputFile[]> = { good: good.value, bad: bad.value };
  const all = [...files.good, ...files.bad];
  const plan = planRead(files, options, { cores: availableParallelism() });
  const { totalBytes, parallel, jobs } = plan;
  await hooks.onFiles?.(files, totalBytes);
  const strict = options.strict === true;
  const translatorPath = typeof options.translator === 'string' ? options.translator : undefined;
  // Its workers start now (unless started ahead: ahead.ts), loading their modules while this thread looks
  // at the files (templates, their ends): a directory's size is known only once it is listed.
  if (plan.workersAhead > 0) prestartWorkers(plan.workersAhead);
  const mined = plan.mineIfRaw ? await minedTranslator(files, plan, options, hooks) : undefined;
  const endsPlan = planEnds(plan, options, mined !== undefined);
  const { ends, found, sniffed } = await endsAhead(endsPlan, all, files.good.length, translatorPath, mined, options, hooks);
  if (endsPlan.countInstancesEarly && found === 'all') checkInstanceCounts({ good: files.good.length, bad: files.bad.length });
  const series = planSeries(plan, options, endsPlan, found);
  const { keepSeries } = series;
  const guessed = series.guessDref && ends !== null ? referenceDurationOfEnds(ends) : null;
  const each = series.endsCarried === 'all' ? ends : series.endsCarried === 'found' ? sniffed : series.endsCarried === 'large runs' ? largeRunEnds(all) : null;
  if (each !== null) {
    all.forEach((file, i) => { const e = each[i]; if (e !== null && e !== undefined) all[i] = { ...file, ends: e }; });
    files.good = all.slice(0, files.good.length);
    files.bad = all.slice(files.good.length);
  }
  const collector = new FeatureCollector(keepSeries);
  const entryOfId = options.windowsByEntry === true ? new Map<string, string>() : undefined;
  // Every file, read here or by a worker and absorbed: room for one instance each, while each gives one.
  collector.expectFiles(all.length);
  if (guessed !== null) collector.useReferenceDuration(guessed);
  collector.events.limit = collector.states.limit = variableLimit(getHeapStatistics().heap_size_limit);
  const stats: Record<ClassName, ReadStats> = { good: emptyReadStats(), bad: emptyReadStats() };
  let loaded: Translator | undefined = typeof options.translator === 'object' ? options.translator : mined;
  const translatorOnce = async (): Promise<Translator | undefined> => {
    if (translatorPath !== undefined && loaded === undefined) {
      const { loadTranslator } = await import('../parse/translators/load.js');
      loaded = await loadTranslator(translatorPath, options.year !== undefined ? { year: options.year } : {});
    }
    return loaded;
  };
  const metrics = plan.metricJoin ? await readMetricsOption(options.metrics ?? [], options) : undefined;
  const progress = { addBytes: (n: number) => hooks.onBytes?.(n), fileDone: () => hooks.onFileDone?.() };
  let joined: ReadonlySet<string> | undefined;
  let joinNotes: string[] = [];
  // What a parsing worker reads with (both passes), and the inputs in order.
  const workerInit: WorkerInit = {
    ...(translatorPath !== undefined ? { translator: translatorPath } : {}),
    ...(options.year !== undefined ? { year: options.year } : {}),
    ...(mined !== undefined ? { templates: mined.model } : {}),
    strict,
    keepSeries,
    ...(guessed !== null ? { referenceDuration: guessed } : {}),
  };
  const inputs = (['good', 'bad'] as const).flatMap((className) => files[className].map((file) => ({ file, className })));
  if (parallel) {
    const { readParallel } = await import('./parallel/parallel.js');
    await readParallel(inputs, jobs, workerInit, collector, stats, progress, await translatorOnce().then((translator) => (translator !== undefined ? { translator } : {})));
    collector.finishClass();
  } else {
    const translator = await translatorOnce();
    const direct = entryOfId === undefined ? collector.sink(progress.fileDone) : entryRecorder(collector.sink(progress.fileDone), entryOfId);
    // Loaded with --metrics only: it brings spans.js and csv-parse, which a plain dlog run never needs.
    const mj = metrics === undefined ? undefined : await import('../features/metric-join.js');
    const join = metrics === undefined || mj === undefined ? undefined : new mj.MetricJoin(metrics, direct, {
      band: plan.metricsBand === 'bonferroni' ? mj.bonferroniBand(options.alpha ?? 0.05, mj.seriesCount(metrics)) : plan.metricsBand,
      window: 1800,
      align: options.metricsAlign ?? 'end',
      beyondRange: plan.metricsBand === 'bonferroni',
    });
    for (const c of ['good', 'bad'] as const) {
      collector.expectClassBytes(files[c].reduce((n, f) => n + f.size, 0));
      await readClass(files[c], c, join ?? direct, {
        ...(translator !== undefined ? { translator } : {}),
        strict,
        onBytes: progress.addBytes,
      }, stats[c]);
      join?.finishClass();
      collector.finishClass();
    }
    joined = join?.variables;
    joinNotes = join?.notes() ?? [];
  }
  // The instances' own Dref: for a second pass, or to check the guess.
  const referenceDuration = guessed !== null || !keepSeries ? referenceDurationOf(collector) : Number.NaN;
  const guessedWrong = guessed !== null && !Object.is(guessed, referenceDuration);
  if (needsSecondPass(series, guessedWrong, collector.states.names.length)) {
    const layout = quartileLayoutOf(collector, referenceDuration);
    const pass = new AbsoluteQuartilePass(new QuartileSlots(layout));
    const translator = await translatorOnce();
    passBegins(hooks, 'second', totalBytes, all.length);
    if (parallel) {
      const { readStatesParallel } = await import('./parallel/second-pass.js');
      await readStatesParallel(inputs, jobs, workerInit, pass, layout, progress, translator !== undefined ? { translator } : {});
    } else {
      for (const { file, className } of inputs) {
        await readClass([file], className, pass, { ...(translator !== undefined ? { translator } : {}), strict, onBytes: progress.addBytes }, emptyReadStats());
        progress.fileDone();
      }
    }
    pass.finish(collector);
    passDone(hooks, 'second');
  }
  // Every q*.abs is now the instances' own Dref's (buildFeatureSet checks the one the collector used).
  if (guessedWrong) collector.useReferenceDuration(referenceDuration);
  // Workers started ahead that the reading did not use (prestartFor).
  stopPrestarted();
  stageDone('parse');
  // Lines were read but none became a record: say why (the first skipped line's reason, e.g. a rule that
  // matched but found no timestamp in its format) rather than "no instances" further on.
  for (const c of ['good', 'bad'] as const) {
    const s = stats[c];
    if (s.records === 0 && s.skippedLines > 0) {
      // A line a rule matched but could not use names the cause better than one no rule matched.
      const example = s.skippedExamples.find((e) => !e.includes(': no translator rule matched: ')) ?? s.skippedExamples[0] ?? '';
      throw new InputError(`${c} class: no records: ${s.skippedLines.toLocaleString('en-US')} lines were skipped, e.g. ${example}`, undefined, undefined,
        translatorPath !== undefined ? `check the translator on one file: distalyze translate --translator ${translatorPath} FILE -o -` : undefined);
    }
  }
  const built = buildFeatureSet(collector, {
    ...(options.metric !== undefined ? { metric: options.metric } : {}),
    ...(options.eventMetric !== undefined ? { eventMetric: options.eventMetric } : {}),
    ...(options.stateMetric !== undefined ? { stateMetric: options.stateMetric } : {}),
    weight: options.weight ?? { mode: 'none' },
    ...(joined !== undefined ? { joined } : {}),
  });
  const features = { ...built, warnings: [...built.warnings, ...stats.good.notes, ...stats.bad.notes, ...(metrics?.notes ?? []), ...joinNotes] };
  stageDone('features');
  const summary = (c: ClassName): ClassInputSummary => ({
    instances: c === 'good' ? features.features.nGood : features.features.nBad,
    files: stats[c].files,
    bytes: stats[c].bytes,
    records: stats[c].records,
    skippedLines: stats[c].skippedLines,
    skippedExamples: stats[c].skippedExamples,
  });
  const entryOf = entryOfId === undefined ? undefined : features.features.instances.map((i) => entryOfId.get(`${i.className}\u0000${i.id}`) ?? null);
  return { classes: { good: summary('good'), bad: summary('bad') }, features, stats, parallel, ...(entryOf !== undefined ? { entryOf } : {}) };
}

/**
 * A sink that passes everything on and notes, per (class, instance id), the
 * entry of the class directory its file is in: the first segment of the file's
 * path relative to the class root (the file itself when it lies directly
 * inside). A whole-file instance is known by its relative path.
 */
function entryRecorder(sink: ClassSink, entryOfId: Map<string, string>): ClassSink {
  let entry = '';
  let className: ClassName = 'good';
  return {
    beginFile: (file, c) => {
      className = c;
      const slash = file.relativePath.indexOf('/');
      entry = slash < 0 ? file.relativePath : file.relativePath.slice(0, slash);
      entryOfId.set(`${c}\u0000${file.relativePath}`, entry);
      sink.beginFile(file, c);
    },
    endFile: (file, c) => sink.endFile(file, c),
    instance: (id, kind) => {
      entryOfId.set(`${className}\u0000${id}`, entry);
      sink.instance(id, kind);
    },
    event: (t, n) => sink.event(t, n),
    state: (t, n, v) => sink.state(t, n, v),
    eventFromSpans: (n) => sink.eventFromSpans?.(n),
  };
}

async function minedTranslator(files: Record<ClassName, InputFile[]>, plan: ReadPlan, options: ReadOptions, hooks: ReadHooks): Promise<MinedTranslator | undefined> {
  // The sniff first: the miner is loaded only for raw logs.
  const logs = await rawLogs(files);
  if (logs === undefined) {
    if (options.timestamp !== undefined || options.instancePattern !== undefined || options.headerPattern !== undefined || options.columns !== undefined) {
      const option = options.timestamp !== undefined ? '--timestamp' : options.instancePattern !== undefined ? '--instance-pattern'
        : options.headerPattern !== undefined ? '--header-pattern' : 'a --*-column option';
      throw new InputError(`${option} is for raw logs, but the input holds records`);
    }
    return undefined;
  }
  const { mineRawLogs } = await import('../parse/templates/index.js');
  let mining = false;
  const mined = await mineRawLogs(logs, {
    jobs: plan.miningJobs,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
    ...(options.instancePattern !== undefined ? { instancePattern: options.instancePattern } : {}),
    ...(options.headerPattern !== undefined ? { headerPattern: options.headerPattern } : {}),
    ...(options.columns !== undefined ? { columns: options.columns } : {}),
    ...(options.year !== undefined ? { year: options.year } : {}),
  }, {
    onMining: (n, count) => { mining = true; passBegins(hooks, 'mining', n, count); },
    onBytes: (n) => hooks.onBytes?.(n),
    onFileDone: () => hooks.onFileDone?.(),
  }).finally(() => { if (mining) passDone(hooks, 'mining'); });
  hooks.onNote?.(mined.summary());
  return mined;
}

/** Each file's ends found before the reading, as planned (plan.ts EndsPlan): every file's or null, and the list with gaps a translator or the miner gave. */
interface EndsAhead {
  readonly ends: RecordEnds[] | null;
  readonly found: EndsFound;
  /** The mined or translated ends, a file's null where it has none (null: not looked for so). */
  readonly sniffed: (RecordEnds | null)[] | null;
}

async function endsAhead(plan: EndsPlan, all: readonly InputFile[], goodFiles: number, translatorPath: string | undefined, mined: MinedTranslator | undefined, options: ReadOptions, hooks: ReadHooks): Promise<EndsAhead> {
  if (plan.source === 'mined' || plan.source === 'rules') {
    const sniffed = plan.source === 'mined' && mined !== undefined ? minedRunEnds(mined.model, all) : await rulesRunEnds(all, goodFiles, translatorPath, plan.compressed, options, hooks);
    if (sniffed === null) return { ends: null, found: 'none', sniffed };
    return sniffed.every((e) => e !== null) ? { ends: sniffed as RecordEnds[], found: 'all', sniffed } : { ends: null, found: 'some', sniffed };
  }
  if (plan.source === 'none') return { ends: null, found: 'none', sniffed: null };
  // A large compressed run's ends are found by decompressing it once more (sniff.ts compressedEndsPay).
  const decompressing = plan.compressed === 'always' || (plan.compressed === 'if large' && compressedEndsPay(all));
  if (decompressing) passBegins(hooks, 'ends', all.reduce((n, f) => n + (f.gzip ? f.size : 0), 0), all.filter((f) => f.gzip).length);
  const ends = decompressing ? await recordEndsDecompressing(all, (n) => hooks.onBytes?.(n), () => hooks.onFileDone?.()) : recordEndsAhead(all);
  if (decompressing) passDone(hooks, 'ends');
  return { ends, found: ends === null ? 'none' : 'all', sniffed: null };
}

/**
 * Each file's ends translated by the rules translator at `path` (sniff.ts translatedEnds); null without one. Large
 * compressed files are decompressed once more for theirs, shown as the ends pass (hooks.onEndsPass).
 */
async function rulesRunEnds(files: readonly InputFile[], goodFiles: number, path: string | undefined, compressed: CompressedEnds, options: ReadOptions, hooks: ReadHooks): Promise<(RecordEnds | null)[] | null> {
  if (path === undefined) return null;
  const { isRulesTranslator, loadTranslator } = await import('../parse/translators/load.js');
  if (!isRulesTranslator(path)) return null;
  const translator = await loadTranslator(path, options.year !== undefined ? { year: options.year } : {});
  if (translator.type !== 'lines') return null;
  const decompress = compressed === 'if large' ? largeCompressedLog : () => compressed === 'always';
  let pass = false;
  try {
    return await translatedEnds(files, goodFiles, translator, decompress, {
      onPass: (bytes, n) => { pass = true; passBegins(hooks, 'ends', bytes, n); },
      onRead: (n) => hooks.onBytes?.(n),
      onFile: () => hooks.onFileDone?.(),
    });
  } finally {
    if (pass) passDone(hooks, 'ends');
  }
}

/** Each file's ends as the template mining pass read them (TemplateModel.ends; null: a file not mined, or none). */
function minedRunEnds(model: TemplateModel, files: readonly InputFile[]): (RecordEnds | null)[] {
  return files.map((f) => model.ends?.[f.path] ?? null);
}

/**
 * The modules a reading with these options will load once it has listed the files (template detection without a
 * translator; the parallel reader with more than one job), asked for now by a caller about to read (the CLI), so
 * they compile while the file system answers its stat calls. A failure is reported by the reading's own import.
 */
export function loadReadersAhead(options: ReadOptions): void {
  if (options.translator === undefined) import('../parse/templates/index.js').catch(() => undefined);
  if ((performanceOf(options).jobs ?? availableParallelism()) > 1) import('./parallel/parallel.js').catch(() => undefined);
}

/** A pass begins: hooks.onPass, and the deprecated hook of that pass. */
function passBegins(hooks: ReadHooks, pass: ReadPass, bytes: number, files: number): void {
  hooks.onPass?.(pass, bytes, files);
  (pass === 'ends' ? hooks.onEndsPass : pass === 'mining' ? hooks.onMiningPass : hooks.onSecondPass)?.(bytes, files);
}

/** A pass ended: hooks.onPassDone, and the deprecated hook of that pass (the second pass has none). */
function passDone(hooks: ReadHooks, pass: ReadPass): void {
  hooks.onPassDone?.(pass);
  if (pass === 'ends') hooks.onEndsPassDone?.();
  else if (pass === 'mining') hooks.onMiningPassDone?.();
}

async function readMetricsOption(paths: readonly string[], options: ReadOptions): Promise<MetricSeries> {
  const { readMetrics } = await import('../parse/metrics.js');
  return readMetrics(paths, {
    ...(options.metricsEntity !== undefined ? { entityColumn: options.metricsEntity } : {}),
    ...(options.metricsTime !== undefined ? { timeColumn: options.metricsTime } : {}),
  });
}
