/**
 * What readClasses takes and gives (its options, hooks and result), and the
 * check of its options: apart from read/index.ts so that the readers it calls (the
 * ClickHouse reader) and the library can name them without importing it.
 */
import type { ClassInputSummary } from './analysis.js';
import { InputError } from './errors.js';
import type { FeatureResult, WeightOption } from './features/index.js';
import type { InputFile } from './parse/input-file.js';
import type { ColumnOverrides } from './parse/layout.js';
import type { ReadStats } from './parse/reader.js';
import type { ClassName } from './parse/records.js';
import type { Translator } from './parse/translator.js';
import { boolean, checkEach, fail, hooks, MAX_JOBS, oneOf, probability, string, translator, weight, wholeFrom, type Check } from './validate.js';

/** A ClickHouse table as a source of both classes (src/clickhouse). */
export interface ClickHouseSource {
  /** http(s)://host:port[/database]; credentials from CLICKHOUSE_USER / CLICKHOUSE_PASSWORD. */
  readonly url: string;
  /** The table (or `database.table`); a Distributed table sharded by the instance is computed shard by shard. */
  readonly table: string;
  /** `records` (default), `otel_traces` or `otel_logs` (mapping.ts). */
  readonly mapping?: string;
  /** `field=column,…` overrides of the mapping's columns. */
  readonly columns?: string;
}

/**
 * The speed knobs of the reading (ReadOptions.performance): each changes time and memory, never the result
 * (the reading plan, src/read/plan.ts, decides them when not given).
 */
export interface PerformanceOptions {
  /** Parsing threads (default: automaticJobs, up to all cores with 32 MiB and two files each; a number always uses them). */
  readonly jobs?: number;
  /** Read twice instead of holding state series (automatic above 1 GiB when the input can be reread). */
  readonly twoPass?: boolean;
  /**
   * Decompress the compressed files once before reading them, for their first and last times, so that a large
   * compressed run is summarized as it is read, not held (default: dlog files when one decompresses to 256 MiB,
   * sniff.ts compressedEndsPay; raw logs through a rules translator, each that decompresses to 256 MiB,
   * largeCompressedLog).
   */
  readonly compressedEnds?: boolean;
}

/** The performance options in force: ReadOptions.performance, or the deprecated top-level names (checkReadOptions: not both). */
export function performanceOf(options: ReadOptions): PerformanceOptions {
  const p = options.performance ?? {};
  const jobs = p.jobs ?? options.jobs;
  const twoPass = p.twoPass ?? options.twoPass;
  const compressedEnds = p.compressedEnds ?? options.compressedEnds;
  return {
    ...(jobs !== undefined ? { jobs } : {}),
    ...(twoPass !== undefined ? { twoPass } : {}),
    ...(compressedEnds !== undefined ? { compressedEnds } : {}),
  };
}

/** A pass over the input besides the reading: the ends of compressed runs, the template mining, the second pass for q*.abs. */
export type ReadPass = 'ends' | 'mining' | 'second';

/** How to read the two classes and build features (the CLI's input options; every field optional). */
export interface ReadOptions {
  /** Raw logs: a rules file (.yaml/.json), a JS module or an executable (a path), or a loaded Translator. */
  readonly translator?: string | Translator;
  /** Raw logs without a translator (template mining): the timestamp format and the instance-id regex. */
  readonly timestamp?: string;
  readonly instancePattern?: string;
  /** Raw text logs without a translator: the header after the timestamp, given instead of learned (groups level, entity). */
  readonly headerPattern?: string;
  /** Raw tables without a translator: columns named instead of detected (src/parse/layout.ts). */
  readonly columns?: ColumnOverrides;
  /** Year for timestamps that have none (syslog). */
  readonly year?: number;
  /** Stop at the first line that is not a record (default false: skip and count it). */
  readonly strict?: boolean;
  /** How fast and in how much memory the input is read: none of it changes the result. */
  readonly performance?: PerformanceOptions;
  /** @deprecated Use performance.jobs (still read; giving both is an error). */
  readonly jobs?: number;
  /** @deprecated Use performance.twoPass (still read; giving both is an error). */
  readonly twoPass?: boolean;
  /** @deprecated Use performance.compressedEnds (still read; giving both is an error). */
  readonly compressedEnds?: boolean;
  /** Resource metrics (directories or files of .csv/.csv.gz) joined to instances. */
  readonly metrics?: readonly string[];
  readonly metricsEntity?: string;
  readonly metricsTime?: string;
  /** k robust SDs, or 'auto' (default): see docs/input.md, "Microservices: logs, traces and metrics from Kubernetes". */
  readonly metricsBand?: number | 'auto';
  readonly metricsAlign?: 'end' | 'start';
  /**
   * `--windows`: each subdirectory (or file) directly inside a class's
   * directory is one window (run, minute, day); the reading then names each
   * instance's entry (ClassesRead.entryOf) and reads on this thread.
   */
  readonly windowsByEntry?: boolean;
  /** The significance level, for the metrics band 'auto' (default 0.05). */
  readonly alpha?: number;
  /** The performance metric (default: the built-in duration). */
  readonly metric?: string;
  readonly eventMetric?: string;
  readonly stateMetric?: string;
  /** Cost weights for a heavy tail (default none). */
  readonly weight?: WeightOption;
  /** The logs are a ClickHouse table: the classes are conditions or time windows on it (src/clickhouse). */
  readonly clickhouse?: ClickHouseSource;
}

/** What a caller may watch while reading: all optional, none changes the result. */
export interface ReadHooks {
  /** The files found, before any is read (the CLI checks report paths against them here). */
  readonly onFiles?: (files: Readonly<Record<ClassName, readonly InputFile[]>>, totalBytes: number) => void | Promise<void>;
  readonly onBytes?: (n: number) => void;
  readonly onFileDone?: () => void;
  /** A line for the user (the template-mining summary). */
  readonly onNote?: (text: string) => void;
  /**
   * A pass over the input begins, besides the reading: 'ends' (the compressed files decompressed once for their
   * first and last times, performance.compressedEnds), 'mining' (raw logs with no translator: templates mined
   * before the reading), 'second' (q*.abs of inputs over 1 GiB, or twoPass). Its bytes and files come through
   * onBytes and onFileDone as the reading's do, until onPassDone.
   */
  readonly onPass?: (pass: ReadPass, bytes: number, files: number) => void;
  readonly onPassDone?: (pass: ReadPass) => void;
  /** @deprecated onPass('second', …). */
  /**
   * The second pass begins (q*.abs of inputs over 1 GiB, or --two-pass): its
   * bytes and files come through onBytes and onFileDone as the first pass's did.
   */
  readonly onSecondPass?: (totalBytes: number, files: number) => void;
  /** @deprecated onPass('ends', …). */
  readonly onEndsPass?: (compressedBytes: number, files: number) => void;
  /** @deprecated onPassDone('ends'). */
  readonly onEndsPassDone?: () => void;
  /** @deprecated onPass('mining', …). */
  readonly onMiningPass?: (bytes: number, files: number) => void;
  /** @deprecated onPassDone('mining'). */
  readonly onMiningPassDone?: () => void;
  /** Stage durations in milliseconds ('parse', 'features'). */
  readonly onStage?: (stage: string, ms: number) => void;
}

/** The two classes read: what each held (for the report) and the features. */
export interface ClassesRead {
  readonly classes: Readonly<Record<ClassName, ClassInputSummary>>;
  readonly features: FeatureResult;
  readonly stats: Readonly<Record<ClassName, ReadStats>>;
  /** Whether parsing ran in worker threads. */
  readonly parallel: boolean;
  /** With `windowsByEntry`: each instance's entry (its window), in FeatureSet.instances order; null where unknown. */
  readonly entryOf?: readonly (string | null)[];
}

const PERFORMANCE_CHECKS: Readonly<Record<keyof PerformanceOptions, Check>> = {
  // More threads than this cost memory (tens of MB each) and gain nothing: as --jobs.
  jobs: wholeFrom(1, MAX_JOBS),
  twoPass: boolean,
  compressedEnds: boolean,
};

/** Every option readClasses takes: a new option without a check here does not compile. */
export const READ_CHECKS: Readonly<Record<keyof ReadOptions, Check>> = {
  translator,
  timestamp: string,
  instancePattern: string,
  headerPattern: string,
  columns: (v, name) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(name, 'must be an object { messageColumn?, entityColumn?, traceColumn?, timeColumn? }', v);
    for (const [key, value] of Object.entries(v)) {
      if (!['messageColumn', 'entityColumn', 'traceColumn', 'timeColumn'].includes(key)) fail(`${name}.${key}`, 'is not a column role (messageColumn, entityColumn, traceColumn, timeColumn)', value);
      if (value !== undefined) string(value, `${name}.${key}`);
    }
  },
  year: wholeFrom(1970, 9999),
  strict: boolean,
  performance: (v, name) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(name, 'must be an object { jobs?, twoPass?, compressedEnds? }', v);
    const given = v as Record<string, unknown>;
    for (const key of Object.keys(given)) if (!Object.hasOwn(PERFORMANCE_CHECKS, key)) fail(`${name}.${key}`, 'is not a performance option (jobs, twoPass, compressedEnds)', given[key]);
    checkEach(given, PERFORMANCE_CHECKS, `${name}.`);
  },
  jobs: PERFORMANCE_CHECKS.jobs,
  twoPass: boolean,
  compressedEnds: boolean,
  metrics: (v, name) => {
    if (!Array.isArray(v)) fail(name, 'must be an array of paths', v);
    v.forEach((p, i) => string(p, `${name}[${i}]`));
  },
  metricsEntity: string,
  metricsTime: string,
  metricsBand: (v, name) => { if (v !== 'auto' && (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v))) fail(name, "must be 'auto' or a number ≥ 0", v); },
  metricsAlign: oneOf('end', 'start'),
  windowsByEntry: boolean,
  alpha: probability,
  metric: string,
  eventMetric: string,
  stateMetric: string,
  weight,
  clickhouse: (v, name) => {
    const c = v as { url?: unknown; table?: unknown; mapping?: unknown; columns?: unknown } | null;
    if (typeof c !== 'object' || c === null || Array.isArray(c)) fail(name, 'must be an object { url, table, mapping?, columns? }', v);
    string(c.url, `${name}.url`);
    string(c.table, `${name}.table`);
    if (c.mapping !== undefined) oneOf('records', 'otel_traces', 'otel_logs')(c.mapping, `${name}.mapping`);
    if (c.columns !== undefined) string(c.columns, `${name}.columns`);
  },
};

/** readClasses's options (those it knows; the CLI passes its own besides). An option given as undefined is not given. */
export function checkReadOptions(options: unknown): asserts options is ReadOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) fail('options', 'must be an object', options);
  const given = options as Record<string, unknown>;
  checkEach(given, READ_CHECKS);
  const performance = given.performance as Record<string, unknown> | undefined;
  for (const key of Object.keys(PERFORMANCE_CHECKS)) {
    if (given[key] !== undefined && performance?.[key] !== undefined) throw new InputError(`${key} is given twice: give performance.${key} alone (${key} is its deprecated name)`);
  }
  if (given.metric !== undefined && (given.eventMetric !== undefined || given.stateMetric !== undefined)) {
    throw new InputError('metric sets both kinds; give it alone, or eventMetric / stateMetric instead');
  }
}

