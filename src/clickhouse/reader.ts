import type { ClassInputSummary } from '../analysis.js';
import { InputError } from '../errors.js';
import { FeatureCollector } from '../features/collector.js';
import { buildFeatureSet } from '../features/index.js';
import { median } from '../stats/median.js';
import { emptyReadStats, type ReadStats } from '../parse/reader.js';
import type { ClassName } from '../parse/records.js';
import type { ClassesRead, ClickHouseSource, ReadHooks, ReadOptions } from '../read-options.js';
export type { ClickHouseSource } from '../read-options.js';
import { tableShape, type TableShape, type TimeUnit, UNIT_SCALE } from './mapping.js';
import { connect, notClickHouse, queryAll, queryRows, serverError } from './runner.js';
import { durationQuery, featureQuery, servicesQuery, float64Literal, keyUnit, timeKey, type ClassFilter, type ResolvedShape, type TimeType, column } from './sql.js';

/** The logs are a ClickHouse table (ReadOptions.clickhouse): where, which table, and how its columns map. */

/**
 * Read the two classes from a ClickHouse table: each class's per-instance
 * features (SPEC §2) are computed on the server by one query (sql.ts
 * featureQuery) and come back one row an instance, into the same FeatureSet
 * the file path builds. Dref (q*.abs) needs every instance's duration first:
 * a small query per class before the features.
 */
export async function readClickHouse(goodSpec: string, badSpec: string, source: ClickHouseSource, options: ReadOptions = {}, hooks: ReadHooks = {}): Promise<ClassesRead> {
  const started = performance.now();
  const shape = tableShape(source.mapping ?? 'records', source.columns);
  const read = await onTable(source, shape, (runner, resolved) =>
    pushdown(runner, resolved, { good: goodSpec, bad: badSpec }, source.table, namedInstances(shape), options, hooks.onBytes));
  hooks.onStage?.('parse', performance.now() - started);
  hooks.onStage?.('features', 0);
  return read;
}

/** Whether instances are named by a column (as by `I` records): all but a records table with `kind=none`. */
export function namedInstances(shape: TableShape): boolean {
  return !(shape.type === 'records' && shape.columns.kind === 'none');
}

/**
 * Connect, check the table's columns against the mapping (DESCRIBE TABLE), choose the settings its queries run with
 * (a cluster's: shardSettings), run `work`, and close; every failure of the server or of the way to it one line
 * (serverError).
 */
export async function onTable<T>(source: ClickHouseSource, shape: TableShape, work: (runner: QueryRunner, resolved: ResolvedShape) => Promise<T>): Promise<T> {
  const conn = connect(source.url);
  try {
    const name = tableName(source.table);
    const described = await queryAll(conn, `DESCRIBE TABLE ${name}`);
    // A table has a column at least: no row is an HTTP server that is not ClickHouse's (a web page is no JSON row).
    if (described.length === 0) throw notClickHouse(conn, 'DESCRIBE TABLE gave no row');
    const resolved = resolveShape(shape, name, source.table, new Map(described.map((r) => [String(r.name), String(r.type)])));
    const statement = String((await queryAll(conn, `SHOW CREATE TABLE ${name}`))[0]?.statement ?? '');
    const settings = shardSettings(statement, shape.type === 'spans' ? shape.columns.trace : shape.columns.instance, shape.columns.run ?? null);
    // The span query's arrays are written once and used many times: its aliases expand past 18.16's default
    // 500 000 AST elements (the query stays one per class; the server parses it once).
    const runner: QueryRunner = (query, onBytes) => queryRows(conn, query, { ...settings, max_expanded_ast_elements: 5_000_000 }, onBytes);
    return await work(runner, resolved);
  } catch (err) {
    throw serverError(err, conn);
  } finally {
    await conn.client.close();
  }
}

/** Runs a query and yields its rows (JSONEachRow objects), telling the bytes each brought. */
export type QueryRunner = (query: string, onBytes: (n: number) => void) => AsyncIterable<Record<string, unknown>>;

/**
 * The pushdown on any ClickHouse that runs queries (a server through its client; chdb in the tests): each class's
 * durations, Dref, then each class's feature rows into a FeatureCollector, built as the file path builds it.
 */
export async function pushdown(run: QueryRunner, resolved: ResolvedShape, specs: Readonly<Record<ClassName, string>>, table: string, named: boolean,
  options: ReadOptions = {}, onBytes?: (n: number) => void): Promise<ClassesRead> {
  const filters: Record<ClassName, ClassFilter> = { good: classFilter(specs.good, resolved), bad: classFilter(specs.bad, resolved) };
  const durations: number[] = [];
  const stats: Record<ClassName, ReadStats> = { good: emptyReadStats(), bad: emptyReadStats() };
  for (const c of ['good', 'bad'] as const) {
    // (Every byte the server sends back is counted, these too: the bytes are O(instances).)
    let rows = 0;
    for await (const r of run(durationQuery(resolved, filters[c]), (n) => { stats[c].bytes += n; })) {
      durations.push(Number(r.duration));
      rows++;
    }
    if (rows === 0) {
      throw new InputError(`${c} class: no rows of ${table} match ${specs[c]}`, undefined, undefined,
        'each class is a time window START/END (ISO-8601 or epoch seconds) or an SQL condition on the table\'s columns');
    }
  }
  const referenceDuration = median(Float64Array.from(durations));
  const collector = new FeatureCollector(false);
  for (const c of ['good', 'bad'] as const) {
    const s = stats[c];
    const services: string[] = [];
    if (resolved.type === 'spans') for await (const r of run(servicesQuery(resolved, filters[c]), (n) => { s.bytes += n; })) services.push(String(r.service));
    for await (const row of run(featureQuery(resolved, filters[c], referenceDuration, services), (n) => { s.bytes += n; onBytes?.(n); })) {
      addRow(collector, c, row, named);
      s.records += Number(row.d_records);
    }
  }
  const built = buildFeatureSet(collector, {
    ...(options.metric !== undefined ? { metric: options.metric } : {}),
    ...(options.eventMetric !== undefined ? { eventMetric: options.eventMetric } : {}),
    ...(options.stateMetric !== undefined ? { stateMetric: options.stateMetric } : {}),
    weight: options.weight ?? { mode: 'none' },
  });
  const summary = (c: ClassName): ClassInputSummary => ({
    instances: c === 'good' ? built.features.nGood : built.features.nBad,
    files: 0,
    bytes: stats[c].bytes,
    records: stats[c].records,
    skippedLines: 0,
    skippedExamples: [],
  });
  return { classes: { good: summary('good'), bad: summary('bad') }, features: built, stats, parallel: false };
}

/** A feature row (sql.ts FEATURE_ROW_COLUMNS) into the collector. JSON's null is a missing value (NaN). */
export function addRow(collector: FeatureCollector, className: ClassName, row: Record<string, unknown>, named: boolean): void {
  const num = (x: unknown): number => (x === null || x === undefined ? Number.NaN : Number(x));
  const nums = (k: string): number[] => (row[k] as unknown[]).map(num);
  const evNames = row.d_evNames as string[];
  const [first, mid, last, count, gap, after, wait] = ['d_evFirst', 'd_evMedian', 'd_evLast', 'd_evCount', 'd_evGap', 'd_evGapAfter', 'd_evWait'].map(nums) as number[][];
  const stNames = row.d_stNames as string[];
  const st = ['d_stMin', 'd_stMean', 'd_stMax', 'd_stFinal', 'd_stQ1Rel', 'd_stHalfRel', 'd_stQ3Rel', 'd_stQ1Abs', 'd_stHalfAbs', 'd_stQ3Abs'].map(nums) as number[][];
  const at = (a: number[] | undefined, i: number): number => (a as number[])[i] as number;
  const entry = row.d_entry as string;
  const kind = row.d_kind as string;
  collector.addSummarized({
    className,
    id: row.d_instance as string,
    kind: kind === '' ? null : kind,
    named,
    duration: num(row.d_duration),
    start: num(row.d_start),
    records: num(row.d_records),
    entry: entry === '' ? -1 : collector.eventVariable(entry),
    events: evNames.map((name, i) => ({
      variable: collector.eventVariable(name),
      first: at(first, i), median: at(mid, i), last: at(last, i), count: at(count, i), gap: at(gap, i), gapAfter: at(after, i), wait: at(wait, i),
    })),
    states: stNames.map((name, i) => ({
      variable: collector.stateVariable(name),
      min: at(st[0], i), mean: at(st[1], i), max: at(st[2], i), final: at(st[3], i),
      rel: [at(st[4], i), at(st[5], i), at(st[6], i)] as const,
      abs: [at(st[7], i), at(st[8], i), at(st[9], i)] as const,
    })),
  });
}

/** A table name (`t` or `db.t`) as SQL. */
export function tableName(table: string): string {
  const parts = table.split('.');
  if (parts.length > 2 || parts.some((p) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p))) throw new InputError(`--table ${table}: not a table name (name or database.name)`);
  return parts.map((p) => `\`${p}\``).join('.');
}

/** The table's columns (DESCRIBE TABLE: name → type) checked against the mapping, and its time column's type. */
export function resolveShape(shape: TableShape, name: string, table: string, types: ReadonlyMap<string, string>): ResolvedShape {
  const fields = Object.entries(shape.columns).filter(([k, v]) => typeof v === 'string' && k !== 'unit' && !(k === 'kind' && v === 'none')) as [string, string][];
  for (const [field, col] of fields) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(col) && !types.has(col)) {
      throw new InputError(`table ${table} has no column '${col}' (the mapping's ${field})`, undefined, undefined,
        `its columns: ${[...types.keys()].join(', ')}; map yours with --columns ${field}=COLUMN`);
    }
  }
  const timeColumn = shape.type === 'spans' ? shape.columns.start : shape.columns.time;
  const timeType = timeTypeOf(types.get(timeColumn), timeColumn, table);
  return shape.type === 'spans'
    ? { type: 'spans', table: name, columns: shape.columns, timeType }
    : { type: 'records', table: name, columns: shape.columns.kind === 'none' ? withoutKind(shape.columns) : shape.columns, timeType };
}

/**
 * The settings a table's query runs with, from its CREATE statement: a Distributed table whose sharding key is an
 * expression of the instance column (or of the run column, when instances are grouped by run) holds every instance whole on one shard, so each shard's rows are final and
 * the server asked only concatenates them (distributed_group_by_no_merge); any other is merged there as usual.
 */
export function shardSettings(statement: string, instance: string, run: string | null = null): Record<string, number> {
  const distributed = /ENGINE = Distributed\((.*)\)/.exec(statement);
  const args = distributed?.[1]?.split(',').map((a) => a.trim()) ?? [];
  const key = args.slice(3).join(',');
  // With a run column an instance is (run, instance): a key of either keeps it whole.
  const mentions = (col: string): boolean => new RegExp(`\\b${col.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(key);
  const byInstance = args.length >= 4 && (mentions(instance) || (run !== null && mentions(run))) && !/\brand\w*\(/.test(key);
  return byInstance ? { distributed_group_by_no_merge: 1 } : {};
}

function withoutKind(c: import('./mapping.js').ColumnMapping): import('./mapping.js').ColumnMapping {
  const { kind: _kind, ...rest } = c;
  return rest;
}

function timeTypeOf(type: string | undefined, col: string, table: string): TimeType {
  if (type === undefined) return 'float'; // an expression: taken as seconds
  if (/^Float(32|64)$/.test(type)) return 'float';
  if (/^U?Int(8|16|32|64)$/.test(type)) return 'integer';
  if (/^DateTime(\(.*\))?$/.test(type)) return 'datetime';
  if (/^DateTime64/.test(type)) return 'datetime64';
  throw new InputError(`table ${table}: the time column '${col}' is ${type}`, undefined, undefined, 'a time is a Float64 of seconds, an integer (--columns unit=s|ms|us|ns), a DateTime or a DateTime64');
}

/**
 * A class as given on the command line: a time window `START/END` (ISO-8601,
 * no zone = UTC, or epoch seconds; rows with START ≤ time < END) or an SQL
 * condition on the table's columns (`run = 'bad'`).
 */
export function classFilter(spec: string, shape: ResolvedShape): ClassFilter {
  const window = timeWindow(spec);
  if (window === null) {
    if (spec.trim() === '') throw new InputError('a class is empty: give a time window START/END or an SQL condition');
    return { where: `(${spec})` };
  }
  const col = shape.type === 'spans' ? shape.columns.start : shape.columns.time;
  const unit: TimeUnit = keyUnit(shape.timeType, shape.type === 'spans' ? shape.columns.unit : shape.columns.unit);
  const key = timeKey(column(col), shape.timeType);
  const bound = (ms: number): string => {
    if (shape.timeType === 'float') return float64Literal(ms / 1000 * UNIT_SCALE[unit]);
    // Whole units, exactly: the milliseconds scaled in integers.
    const scaled = BigInt(Math.round(ms)) * BigInt(UNIT_SCALE[unit]);
    return `toInt64(${(scaled + 999n) / 1000n})`;
  };
  return { where: `(${key} >= ${bound(window[0])} AND ${key} < ${bound(window[1])})` };
}

/** [start, end) in epoch milliseconds of `START/END`, or null when spec is not a window. */
export function timeWindow(spec: string): [number, number] | null {
  const parts = spec.split('/');
  if (parts.length !== 2) return null;
  const ms = parts.map((p) => instantMs(p.trim()));
  if (ms[0] === null || ms[1] === null || ms[0] === undefined || ms[1] === undefined) return null;
  if (!(ms[0] < ms[1])) throw new InputError(`class window ${spec}: its start is not before its end`);
  return [ms[0], ms[1]];
}

function instantMs(text: string): number | null {
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text)) return null;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text.includes(':') || text.length > 10 ? text : `${text}T00:00`}Z`;
  const ms = Date.parse(zoned.replace(' ', 'T'));
  return Number.isNaN(ms) ? null : ms;
}
