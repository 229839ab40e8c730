import { InputError } from '../errors.js';
import { MAX_JOBS } from '../validate.js';
import type { ClickHouseSource } from '../clickhouse/reader.js';
import type { Command } from 'commander';
import type { WeightOption } from '../features/index.js';
import type { Correction } from '../ttest/types.js';
import type { ColumnOverrides } from '../parse/layout.js';

type ColumnFlags = Pick<RawOptions, 'messageColumn' | 'entityColumn' | 'traceColumn' | 'timeColumn'>;
const COLUMN_FLAGS = [['--message-column', 'messageColumn'], ['--entity-column', 'entityColumn'], ['--trace-column', 'traceColumn'], ['--time-column', 'timeColumn']] as const;

/** The column options given, as [option, value] pairs. */
export function columnOptions(raw: ColumnFlags): Array<readonly [string, string | undefined]> {
  return COLUMN_FLAGS.map(([flag, key]) => [flag, raw[key]] as const).filter(([, v]) => v !== undefined);
}

/** --message-column, --entity-column, --trace-column, --time-column as ColumnOverrides (undefined: none given). */
export function columnOverrides(raw: ColumnFlags): ColumnOverrides | undefined {
  const given = COLUMN_FLAGS.filter(([, key]) => raw[key] !== undefined);
  return given.length === 0 ? undefined : Object.fromEntries(given.map(([, key]) => [key, raw[key]])) as ColumnOverrides;
}

/** Option values as commander hands them over (strings, booleans). */
export interface RawOptions {
  metric?: string;
  eventMetric?: string;
  stateMetric?: string;
  weight: string;
  alpha: string;
  correction: string;
  kinds: string;
  inflation: string;
  windows?: boolean;
  window?: string;
  minSplit?: string;
  splitAlpha: string;
  splitTest: string;
  dnSample: string;
  dnClass: string;
  balance: string;
  top: string;
  maxNodes: string;
  seed: string;
  dot?: string;
  json?: string;
  tsv?: string;
  html?: string;
  failOnDivergence?: boolean;
  strict?: boolean;
  color: boolean;
  quiet?: boolean;
  translator?: string;
  timestamp?: string;
  instancePattern?: string;
  headerPattern?: string;
  messageColumn?: string;
  entityColumn?: string;
  traceColumn?: string;
  timeColumn?: string;
  year?: string;
  jobs?: string;
  limit: string;
  sort: string;
  timings?: boolean;
  twoPass?: boolean;
  metrics?: string[];
  metricsEntity?: string;
  metricsTime?: string;
  metricsBand: string;
  metricsAlign: string;
  clickhouse?: string;
  table?: string;
  mapping?: string;
  columns?: string;
}

export interface Options {
  readonly metric?: string;
  readonly eventMetric?: string;
  readonly stateMetric?: string;
  readonly weight: WeightOption;
  readonly alpha: number;
  readonly correction: Correction;
  readonly kinds: 'on' | 'combine' | 'off';
  readonly inflation: 'auto' | 'off';
  readonly minSplit?: number;
  readonly splitAlpha: number;
  readonly splitTest: 'rank' | 'f-splits' | 'f-predictors';
  readonly dnSample: number;
  readonly dnClass: 'good' | 'bad' | 'both';
  readonly balance: number;
  readonly top: number;
  readonly maxNodes: number;
  readonly seed: number;
  readonly dot?: string;
  readonly json?: string;
  readonly tsv?: string;
  readonly html?: string;
  readonly failOnDivergence: boolean;
  readonly strict: boolean;
  readonly color: boolean;
  readonly quiet: boolean;
  readonly translator?: string;
  /** Raw logs without a translator: the timestamp format and the instance-id regex (src/parse/templates). */
  readonly timestamp?: string;
  readonly instancePattern?: string;
  readonly headerPattern?: string;
  /** Raw tables without a translator: columns named instead of detected (src/parse/layout.ts). */
  readonly columns?: ColumnOverrides;
  readonly year?: number;
  readonly jobs?: number;
  readonly limit: number;
  /** The terminal report's first list (src/report/text.ts). */
  readonly sort: 'cause' | 'divergence';
  readonly timings: boolean;
  readonly twoPass: boolean;
  /** Directories (or files) of resource metrics joined to instances (src/features/metric-join.ts). */
  readonly metrics: readonly string[];
  readonly metricsEntity?: string;
  readonly metricsTime?: string;
  /** k of the normal band a metric sample is measured beyond (MetricJoinOptions). */
  readonly metricsBand: number | 'auto';
  readonly metricsAlign: 'end' | 'start';
  /** The logs are a ClickHouse table (src/clickhouse): the two classes are conditions or time windows on it. */
  readonly clickhouse?: ClickHouseSource;
  /** `--windows`: each entry of a class directory is one window (TestOptions.windows). */
  readonly windowsByEntry: boolean;
  /** `--window DURATION`: windows of this many seconds by each instance's first time. */
  readonly window?: number;
}


/** `--window`: seconds from `500ms`, `10s`, `5m`, `1h` or a plain number of seconds; positive and finite. */
export function windowDuration(text: string): number {
  const m = /^\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600 } as const;
  const seconds = m === null ? Number.NaN : Number(m[1]) * unit[(m[2]?.toLowerCase() ?? 's') as keyof typeof unit];
  if (!(seconds > 0) || !Number.isFinite(seconds)) throw new InputError(`--window ${text}: a duration such as 10s, 5m or 1h`);
  return seconds;
}

/** Validate every option, naming the option in the one-line error (`jobsOption`: `--jobs` or `-j`, as typed). */
export function parseOptions(raw: RawOptions, jobsOption = '--jobs'): Options {
  if (raw.windows === true && raw.window !== undefined) throw new InputError('--windows and --window both say what a window is; use one');
  if (raw.html === '-') throw new InputError('--html needs a file name (the report is one self-contained file)');
  // Reports that share a file or standard output: the output guard (guard.ts), as for every command.
  const columns = columnOverrides(raw);
  for (const [option, value] of [['--timestamp', raw.timestamp], ['--instance-pattern', raw.instancePattern], ['--header-pattern', raw.headerPattern], ...columnOptions(raw)] as const) {
    if (value !== undefined && raw.translator !== undefined) throw new InputError(`${option} is for raw logs without a translator; with --translator, the translator says where times and instances are`);
  }
  if (raw.metric !== undefined && (raw.eventMetric !== undefined || raw.stateMetric !== undefined)) {
    throw new InputError('--metric sets both kinds; use it alone, or --event-metric / --state-metric instead');
  }
  const clickhouse = clickhouseSource(raw, [['--translator', raw.translator], ['--timestamp', raw.timestamp], ['--instance-pattern', raw.instancePattern], ['--header-pattern', raw.headerPattern], ['--metrics', raw.metrics]]);
  return {
    ...(clickhouse !== undefined ? { clickhouse } : {}),
    ...(raw.metric !== undefined ? { metric: raw.metric } : {}),
    ...(raw.eventMetric !== undefined ? { eventMetric: raw.eventMetric } : {}),
    ...(raw.stateMetric !== undefined ? { stateMetric: raw.stateMetric } : {}),
    weight: parseWeight(raw.weight),
    alpha: probability('--alpha', raw.alpha),
    correction: oneOf('--correction', raw.correction, ['bonferroni', 'holm', 'bh', 'none'] as const),
    kinds: oneOf('--kinds', raw.kinds, ['on', 'combine', 'off'] as const),
    inflation: oneOf('--inflation', raw.inflation, ['auto', 'off'] as const),
    windowsByEntry: raw.windows === true,
    ...(raw.window !== undefined ? { window: windowDuration(raw.window) } : {}),
    ...(raw.minSplit !== undefined ? { minSplit: integer('--min-split', raw.minSplit, 2) } : {}),
    splitAlpha: probability('--split-alpha', raw.splitAlpha),
    splitTest: oneOf('--split-test', raw.splitTest, ['rank', 'f-splits', 'f-predictors'] as const),
    dnSample: integer('--dn-sample', raw.dnSample, 2),
    dnClass: oneOf('--dn-class', raw.dnClass, ['good', 'bad', 'both'] as const),
    balance: fraction('--balance', raw.balance),
    top: integer('--top', raw.top, 1),
    maxNodes: integer('--max-nodes', raw.maxNodes, 1),
    seed: integer('--seed', raw.seed, 0),
    ...(raw.dot !== undefined ? { dot: raw.dot } : {}),
    ...(raw.json !== undefined ? { json: raw.json } : {}),
    ...(raw.tsv !== undefined ? { tsv: raw.tsv } : {}),
    ...(raw.html !== undefined ? { html: raw.html } : {}),
    failOnDivergence: raw.failOnDivergence === true,
    strict: raw.strict === true,
    color: raw.color,
    quiet: raw.quiet === true,
    ...(raw.translator !== undefined ? { translator: raw.translator } : {}),
    ...(raw.timestamp !== undefined ? { timestamp: raw.timestamp } : {}),
    ...(raw.instancePattern !== undefined ? { instancePattern: raw.instancePattern } : {}),
    ...(raw.headerPattern !== undefined ? { headerPattern: raw.headerPattern } : {}),
    ...(columns !== undefined ? { columns } : {}),
    ...(raw.year !== undefined ? { year: parseYear(raw.year) } : {}),
    ...(raw.jobs !== undefined ? { jobs: integer(jobsOption, raw.jobs, 1, MAX_JOBS) } : {}),
    limit: integer('--limit', raw.limit, 1),
    sort: oneOf('--sort', raw.sort, ['cause', 'divergence'] as const),
    timings: raw.timings === true,
    twoPass: raw.twoPass === true,
    metrics: raw.metrics ?? [],
    ...(raw.metricsEntity !== undefined ? { metricsEntity: raw.metricsEntity } : {}),
    ...(raw.metricsTime !== undefined ? { metricsTime: raw.metricsTime } : {}),
    metricsBand: raw.metricsBand === 'auto' ? 'auto' : nonNegative('--metrics-band', raw.metricsBand),
    metricsAlign: oneOf('--metrics-align', raw.metricsAlign, ['end', 'start'] as const),
  };
}

/**
 * --clickhouse URL --table T [--mapping M] [--columns field=col,…], or undefined (files); `fileOnly`, the file
 * reader's own options as given (undefined when not), do not apply to a table. The main command's and check's/history's.
 */
export function clickhouseSource(
  raw: { readonly clickhouse?: string | undefined; readonly table?: string | undefined; readonly mapping?: string | undefined; readonly columns?: string | undefined },
  fileOnly: readonly (readonly [string, unknown])[],
): ClickHouseSource | undefined {
  if (raw.clickhouse === undefined) {
    const stray = (['table', 'mapping', 'columns'] as const).find((k) => raw[k] !== undefined);
    if (stray !== undefined) throw new InputError(`--${stray} is for logs in ClickHouse: give --clickhouse URL too`);
    return undefined;
  }
  if (raw.table === undefined) throw new InputError('--clickhouse needs --table NAME (the table holding the logs)');
  const given = fileOnly.find(([, v]) => v !== undefined);
  if (given !== undefined) throw new InputError(`${given[0]} reads files; with --clickhouse the table's columns are mapped by --mapping and --columns`);
  return {
    url: raw.clickhouse,
    table: raw.table,
    ...(raw.mapping !== undefined ? { mapping: raw.mapping } : {}),
    ...(raw.columns !== undefined ? { columns: raw.columns } : {}),
  };
}

/** `none`, `auto`, or `exp:HALF` with HALF in P's units (seconds for duration); `ms`/`us` suffixes convert. */
export function parseWeight(text: string): WeightOption {
  if (text === 'none') return { mode: 'none' };
  if (text === 'auto') return { mode: 'auto' };
  const m = /^exp:([0-9]*\.?[0-9]+(?:e[+-]?\d+)?)(ms|us|µs|s)?$/i.exec(text);
  if (m === null) throw new InputError(`--weight ${text}: expected none, auto or exp:HALF (e.g. exp:0.15 or exp:150ms)`);
  const scale = m[2] === undefined || m[2] === 's' ? 1 : m[2] === 'ms' ? 1e-3 : 1e-6;
  const half = Number(m[1]) * scale;
  if (!(half > 0)) throw new InputError(`--weight ${text}: HALF must be greater than 0`);
  return { mode: 'exp', half };
}

function number(option: string, text: string): number {
  const x = Number(text);
  if (text.trim() === '' || !Number.isFinite(x)) throw new InputError(`${option} ${text}: not a number`);
  return x;
}

function probability(option: string, text: string): number {
  const x = number(option, text);
  if (!(x > 0 && x < 1)) throw new InputError(`${option} ${text}: must be between 0 and 1 (exclusive)`);
  return x;
}

function nonNegative(option: string, text: string): number {
  const x = number(option, text);
  if (!(x >= 0)) throw new InputError(`${option} ${text}: must be 0 or more`);
  return x;
}

function fraction(option: string, text: string): number {
  const x = number(option, text);
  if (!(x >= 0 && x <= 1)) throw new InputError(`${option} ${text}: must be between 0 and 1`);
  return x;
}

function integer(option: string, text: string, min: number, max?: number): number {
  const x = number(option, text);
  if (max !== undefined && !(Number.isInteger(x) && x >= min && x <= max)) throw new InputError(`${option} ${text}: must be a whole number from ${min} to ${max}`);
  if (!Number.isInteger(x) || x < min) throw new InputError(`${option} ${text}: must be a whole number ≥ ${min}`);
  return x;
}

/** `--year`, for both `distalyze` and `distalyze translate`: four digits, 1970–9999. */
export function parseYear(text: string): number {
  if (!/^\d{4}$/.test(text) || Number(text) < 1970) throw new InputError(`--year ${text}: must be a year from 1970 to 9999, such as 2026`);
  return Number(text);
}

function oneOf<T extends string>(option: string, text: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(text)) throw new InputError(`${option} ${text}: must be one of ${allowed.join(', ')}`);
  return text as T;
}

/**
 * The name the user typed for an option that has a short form (`-o` or
 * `--out`, `-j` or `--jobs`), so that an error names the option as typed.
 * The last use counts, as commander keeps the last value.
 */
export function typedOption(cmd: Command, long: string, short: string): string {
  let root = cmd;
  while (root.parent !== null) root = root.parent;
  let typed = long;
  for (const arg of (root as Command & { rawArgs?: readonly string[] }).rawArgs ?? []) {
    if (arg === '--') break;
    if (arg === long || arg.startsWith(`${long}=`)) typed = long;
    else if (/^-[^-]/.test(arg) && arg.slice(1).startsWith(short.slice(1))) typed = short;
  }
  return typed;
}
