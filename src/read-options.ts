/**
 * What readClasses takes and gives (its options, hooks and result), and the
 * check of its options: apart from read/index.ts so that the readers it calls (the
 * ClickHouse reader) and the library can name them without importing it.
 */
import type { ClassInputSummary } from './analysis.js';
import { InputError } from './errors.js';
import type { FeatureResult, WeightOption } from './features/index.js';
import type { InputFile } from './parse/files.js';
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

/** How to read the two classes and build features (the CLI's input options; every field optional). */
export interface ReadOptions {
  /** Raw logs: a rules file (.yaml/.json), a JS module or an executable (a path), or a loaded Translator. */
  readonly translator?: string | Translator;
  /** Raw logs without a translator (template mining): the timestamp format and the instance-id regex. */
  readonly timestamp?: string;
  readonly instancePattern?: string;
  /** Raw tables without a translator: columns named instead of detected (src/parse/layout.ts). */
  readonly columns?: ColumnOverrides;
  /** Year for timestamps that have none (syslog). */
  readonly year?: number;
  /** Stop at the first line that is not a record (default false: skip and count it). */
  readonly strict?: boolean;
  /** Parsing threads (default: automaticJobs, up to all cores with 32 MiB and two files each; a number always uses them). */
  readonly jobs?: number;
  /** Read twice instead of holding state series (automatic above 1 GiB when the input can be reread). */
  readonly twoPass?: boolean;
  /**
   * Decompress the compressed files once before reading them, for their first and last times, so that a large
   * compressed run is summarized as it is read, not held (default: dlog files when one decompresses to 256 MiB,
   * sniff.ts compressedEndsPay; raw logs through a rules translator, each that decompresses to 256 MiB,
   * largeCompressedLog). The result is the same either way; only time and memory differ.
   */
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
   * The second pass begins (q*.abs of inputs over 1 GiB, or --two-pass): its
   * bytes and files come through onBytes and onFileDone as the first pass's did.
   */
  readonly onSecondPass?: (totalBytes: number, files: number) => void;
  /**
   * The compressed files are decompressed once before the reading, for their ends (ReadOptions.compressedEnds):
   * their compressed bytes and files come through onBytes and onFileDone until onEndsPassDone.
   */
  readonly onEndsPass?: (compressedBytes: number, files: number) => void;
  readonly onEndsPassDone?: () => void;
  /**
   * Raw logs with no translator: templates are mined in a pass over them before the reading; its bytes and files
   * come through onBytes and onFileDone until onMiningPassDone.
   */
  readonly onMiningPass?: (bytes: number, files: number) => void;
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

/** Every option readClasses takes: a new option without a check here does not compile. */
export const READ_CHECKS: Readonly<Record<keyof ReadOptions, Check>> = {
  translator,
  timestamp: string,
  instancePattern: string,
  columns: (v, name) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(name, 'must be an object { messageColumn?, entityColumn?, traceColumn?, timeColumn? }', v);
    for (const [key, value] of Object.entries(v)) {
      if (!['messageColumn', 'entityColumn', 'traceColumn', 'timeColumn'].includes(key)) fail(`${name}.${key}`, 'is not a column role (messageColumn, entityColumn, traceColumn, timeColumn)', value);
      if (value !== undefined) string(value, `${name}.${key}`);
    }
  },
  year: wholeFrom(1970, 9999),
  strict: boolean,
  // More threads than this cost memory (tens of MB each) and gain nothing: as --jobs.
  jobs: wholeFrom(1, MAX_JOBS),
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
  if (given.metric !== undefined && (given.eventMetric !== undefined || given.stateMetric !== undefined)) {
    throw new InputError('metric sets both kinds; give it alone, or eventMetric / stateMetric instead');
  }
}

