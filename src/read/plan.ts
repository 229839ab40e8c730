/**
 * The reading plan: every decision about *how* the two classes are read, as
 * pure functions of what is known when it is taken. None changes the result
 * (the features are the same whichever way they are read); each changes time
 * or memory. The executor (index.ts) does the I/O between them.
 *
 * The decisions come in three moments, because each needs what the one before
 * let the reading find out:
 * 1. from the listing (sizes, names) and the options: planRead — threads,
 *    the template mining, whether inputs can be read twice;
 * 2. once it is known whether the logs were mined (raw text): planEnds — where
 *    each file's first and last times (its ends) come from, before reading;
 * 3. once the ends are known or not: planSeries — Dref guessed ahead, state
 *    series held or a second pass, which files are summarized as read.
 * After the reading, needsSecondPass says whether that pass is made.
 */
import type { InputFile } from '../parse/input-file.js';
import type { ClassName } from '../parse/records.js';
import { automaticJobs } from './parallel/threads.js';
import { performanceOf, type ReadOptions } from '../read-options.js';

/** Below this much input, starting workers costs more than it saves (template mining). */
export const PARALLEL_MIN_BYTES = 16 * 1024 * 1024;
/** Above this much input, state change points are not held in memory: see AbsoluteQuartilePass. */
export const SERIES_IN_MEMORY_MAX_BYTES = 1024 * 1024 * 1024;

/** What the machine offers (availableParallelism() for the CLI and the library). */
export interface ReadEnv {
  readonly cores: number;
}

/** Decided from the listing and the options, before any file is opened. */
export interface ReadPlan {
  /** Every input file, good's then bad's, and their bytes on disk. */
  readonly totalBytes: number;
  /** No class is standard input: the files can be read again (their ends ahead, a second pass). */
  readonly rereadable: boolean;
  /** Parsing threads: options.jobs, or automaticJobs (read/parallel/threads.ts) from the sizes and the cores. */
  readonly jobs: number;
  /**
   * Worker threads read (readParallel): more than one job and file, no metric join (it watches every record on
   * this thread), no loaded Translator object (it cannot be sent), the input rereadable (a second pass may be
   * needed) and no windows by entry (named on this thread).
   */
  readonly parallel: boolean;
  /** Workers started at once, loading their modules while this thread looks at the files (parallel: jobs − 1). */
  readonly workersAhead: number;
  /** No translator: look for raw text and, if the logs are raw, mine templates over both classes first. */
  readonly mineIfRaw: boolean;
  /** Mining threads: options.jobs, else all cores from PARALLEL_MIN_BYTES of input, else 1. */
  readonly miningJobs: number;
  /** Resource metrics are joined to the instances (options.metrics): read on this thread, series held. */
  readonly metricJoin: boolean;
  /** The metric join's band in robust SDs: a number, or 'bonferroni' (auto: the Bonferroni band over the series). */
  readonly metricsBand: number | 'bonferroni';
}

export function planRead(files: Readonly<Record<ClassName, readonly InputFile[]>>, options: ReadOptions, env: ReadEnv): ReadPlan {
  const all = [...files.good, ...files.bad];
  const totalBytes = all.reduce((s, f) => s + f.size, 0);
  const rereadable = all.every((f) => f.path !== '-');
  // Workers pay off on large inputs (automaticJobs); an explicit jobs always uses them.
  const speed = performanceOf(options);
  const jobs = speed.jobs ?? automaticJobs(totalBytes, all.length, env.cores, all.reduce((min, f) => Math.min(min, f.size), Infinity));
  const metricJoin = (options.metrics ?? []).length > 0;
  const parallel = !metricJoin && typeof options.translator !== 'object' && jobs > 1 && all.length > 1 && rereadable && options.windowsByEntry !== true;
  const band = options.metricsBand ?? 'auto';
  return {
    totalBytes,
    rereadable,
    jobs,
    parallel,
    workersAhead: parallel ? jobs - 1 : 0,
    mineIfRaw: options.translator === undefined,
    miningJobs: speed.jobs ?? (totalBytes >= PARALLEL_MIN_BYTES ? env.cores : 1),
    metricJoin,
    metricsBand: band === 'auto' ? 'bonferroni' : band,
  };
}

/**
 * Where each file's ends (first and last record times) come from, found before the reading:
 * - 'none': not looked for (standard input, a metric join, a loaded Translator object);
 * - 'mined': the template mining pass read every line's time (TemplateModel.ends);
 * - 'rules': a translator file, each file's ends translated by it (sniff.ts translatedEnds; none unless it is a
 *   rules translator of lines);
 * - 'records': dlog records, read from both ends of each plain file (sniff.ts recordEndsAhead).
 */
export type EndsSource = 'none' | 'mined' | 'rules' | 'records';

/**
 * Whether compressed files are decompressed once more before the reading, for their ends: 'always' / 'never'
 * (options.compressedEnds), or 'if large' (the default: records when one file decompresses to 256 MiB,
 * sniff.ts compressedEndsPay; a rules translator's, each file that does, largeCompressedLog).
 */
export type CompressedEnds = 'always' | 'never' | 'if large';

export interface EndsPlan {
  readonly source: EndsSource;
  readonly compressed: CompressedEnds;
  /**
   * Mined, every file with its ends: each file is one instance, so too few instances are an error before the
   * reading, not after it.
   */
  readonly countInstancesEarly: boolean;
}

/** Once the logs were mined or not (`mined`): where the ends come from. */
export function planEnds(plan: ReadPlan, options: ReadOptions, mined: boolean): EndsPlan {
  const source: EndsSource = !plan.rereadable || plan.metricJoin ? 'none'
    : mined ? 'mined'
    : typeof options.translator === 'string' ? 'rules'
    : options.translator === undefined ? 'records'
    : 'none';
  const given = performanceOf(options).compressedEnds;
  const compressed: CompressedEnds = given === undefined ? 'if large' : given ? 'always' : 'never';
  return { source, compressed, countInstancesEarly: source === 'mined' };
}

/** How the ends found before the reading came out: every file's, some files' (a list with gaps), or none. */
export type EndsFound = 'all' | 'some' | 'none';

/**
 * Which files carry their ends into the reading (a large one is then summarized as it is read,
 * features/streamed.ts): 'all' (the ends found, every file's), 'found' (those found, where some are missing),
 * 'large runs' (each plain dlog file of the streamed size whose ends can be read, sniff.ts largeRunEnds), or none.
 */
export type EndsCarried = 'all' | 'found' | 'large runs' | 'none';

export interface SeriesPlan {
  /**
   * Dref is guessed from the files' ends (the median of last − first, sniff.ts referenceDurationOfEnds): q*.abs
   * are written as each instance is summarized. Needs every file's ends; not with twoPass (its second pass gives
   * q*.abs). Checked after the reading against the instances' own Dref (needsSecondPass).
   */
  readonly guessDref: boolean;
  /**
   * State change points are held until Dref is known (FeatureCollector keepSeries), rather than a second,
   * streaming pass giving q*.abs: always with a metric join (it exists in one pass only) or a guessed Dref; else
   * unless the input can be read again and twoPass is asked or it is over SERIES_IN_MEMORY_MAX_BYTES.
   */
  readonly keepSeries: boolean;
  readonly endsCarried: EndsCarried;
}

/** Once the ends are looked for (`found`): Dref guessed, series held or a second pass, the ends each file carries. */
export function planSeries(plan: ReadPlan, options: ReadOptions, ends: EndsPlan, found: EndsFound): SeriesPlan {
  const twoPass = performanceOf(options).twoPass === true;
  const guessDref = found === 'all' && !twoPass;
  const keepSeries = plan.metricJoin || guessDref || !(plan.rereadable && (twoPass || plan.totalBytes > SERIES_IN_MEMORY_MAX_BYTES));
  // With q*.abs left to the second pass, a large run whose own ends are known is summarized as it is read,
  // whether or not the other files' are.
  const endsCarried: EndsCarried = found === 'all' ? 'all'
    : keepSeries ? 'none'
    : found === 'some' && (ends.source === 'mined' || ends.source === 'rules') ? 'found'
    : ends.source === 'records' ? 'large runs'
    : 'none';
  return { guessDref, keepSeries, endsCarried };
}

/**
 * After the reading: a second pass over the input gives q*.abs when series were not held, or when the guessed
 * Dref was not the instances' own (`guessedWrong`); never without state variables.
 */
export function needsSecondPass(series: SeriesPlan, guessedWrong: boolean, stateVariables: number): boolean {
  return (!series.keepSeries || guessedWrong) && stateVariables > 0;
}
