import { UNIT_SCALE, type ColumnMapping, type SpanColumns, type TimeUnit } from './mapping.js';

/**
 * Feature extraction (SPEC §2, Table 2.1) as one ClickHouse query, in the SQL
 * subset ClickHouse 18.16 accepts (no window functions, no WITH subqueries):
 * one GROUP BY over the instance at the top level, everything per instance in
 * array functions. At the top level, a Distributed table sharded by the
 * instance computes each instance on its own shard (distributed_group_by_no_merge).
 *
 * The definitions are the file path's (src/features/collector.ts `summarize`,
 * `scatterRecords`), which is the oracle: records in time order, ties broken by
 * a row number; times relative to the instance's first record, taken in the
 * column's own type (an integer time is subtracted before it becomes a float);
 * an exact median (the arrays sorted, the two middle ones' mean), never
 * ClickHouse's sampled median(). Relative features (`*.rel`) are divided by D
 * on the client, as the collector does.
 */

/** How a time column is read: an integer (whole units) or a float (seconds, or `unit`). */
export type TimeType = 'integer' | 'float' | 'datetime' | 'datetime64';

/** A table shape with the types its columns were found to have (DESCRIBE TABLE). */
export type ResolvedShape =
  | { readonly type: 'records'; readonly table: string; readonly columns: ColumnMapping; readonly timeType: TimeType }
  | { readonly type: 'spans'; readonly table: string; readonly columns: SpanColumns; readonly timeType: TimeType };

/** A class: the rows of the table it takes (an SQL condition), as given or made from a time window. */
export interface ClassFilter {
  readonly where: string;
}

/** The columns of featureQuery's rows, in order: one row per instance (each named `d_` + it in the SQL). */
export const FEATURE_ROW_COLUMNS = [
  'instance', 'kind', 'records', 'duration', 'start', 'entry',
  'evNames', 'evFirst', 'evMedian', 'evLast', 'evCount', 'evGap', 'evGapAfter', 'evWait',
  'stNames', 'stMin', 'stMean', 'stMax', 'stFinal', 'stQ1Rel', 'stHalfRel', 'stQ3Rel', 'stQ1Abs', 'stHalfAbs', 'stQ3Abs',
] as const;
export type FeatureRowColumn = (typeof FEATURE_ROW_COLUMNS)[number];

/**
 * An exact Float64 literal: its eight bytes (a decimal literal is parsed by
 * ClickHouse 18.16 to within an ulp, not exactly).
 */
export function float64Literal(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  const b = Buffer.alloc(8);
  b.writeDoubleLE(x);
  return `reinterpretAsFloat64(unhex('${b.toString('hex').toUpperCase()}'))`;
}

/** A string literal in single quotes. */
export function stringLiteral(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A column name as an identifier (backquoted); an expression (anything else) as it is. */
export function column(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `\`${name}\`` : `(${name})`;
}

/**
 * The time as a number to sort and subtract in: Int64 for whole units, Float64
 * for float seconds, Int64 nanoseconds for DateTime64.
 */
export function timeKey(expr: string, type: TimeType): string {
  switch (type) {
    case 'integer': return `toInt64(${expr})`;
    case 'datetime': return `toInt64(toUInt32(${expr}))`;
    case 'datetime64': return `toUnixTimestamp64Nano(${expr})`;
    case 'float': return `toFloat64(${expr})`;
  }
}

/** The unit timeKey counts in. */
export function keyUnit(type: TimeType, unit: TimeUnit): TimeUnit {
  return type === 'datetime' ? 's' : type === 'datetime64' ? 'ns' : unit;
}

/** Seconds since `base` of a time key `t` (same type): subtracted first, then a float. */
function secondsSince(t: string, base: string, unit: TimeUnit, type: TimeType): string {
  const scale = UNIT_SCALE[unit];
  const diff = type === 'float' ? `(${t} - ${base})` : `toFloat64(${t} - ${base})`;
  return scale === 1 ? diff : `${diff} / ${scale}`;
}

/** The per-instance durations of a class (for Dref, the median duration over both classes: SPEC §2). */
export function durationQuery(shape: ResolvedShape, cls: ClassFilter): string {
  const { unit } = instanceAndUnit(shape);
  const key = timeKey(column(startColumn(shape)), shape.timeType);
  const last = shape.type === 'spans' ? spanEndKey(shape) : key;
  const { group, id } = instanceKey(shape);
  return `SELECT ${id} AS instance, ${secondsSince(`max(${last})`, `min(${key})`, keyUnit(shape.timeType, unit), shape.timeType)} AS duration
FROM ${shape.table}
WHERE ${rowsOf(shape, cls)}
GROUP BY ${group}`;
}

/**
 * The instances of some selections of runs (`check`, `history`), one row each: its run, its id (`run/instance`),
 * its duration (for Dref), its first time key as a float (to order the runs in time), and for each selection
 * whether any of its rows matched it (`selected`: 1 or 0 each, in the order given).
 */
export function runInstancesQuery(shape: ResolvedShape, selections: readonly ClassFilter[]): string {
  const { unit } = instanceAndUnit(shape);
  const key = timeKey(column(startColumn(shape)), shape.timeType);
  const last = shape.type === 'spans' ? spanEndKey(shape) : key;
  const { group, id, run } = instanceKey(shape);
  if (run === null) throw new Error('runInstancesQuery: the shape has no run column');
  return `SELECT toString(${column(run)}) AS run, ${id} AS instance,
  ${secondsSince(`max(${last})`, `min(${key})`, keyUnit(shape.timeType, unit), shape.timeType)} AS duration,
  toFloat64(min(${key})) AS first,
  [${selections.map((s) => `max(if(${s.where}, 1, 0))`).join(', ')}] AS selected
FROM ${shape.table}
WHERE ${rowsOf(shape, anyOf(selections))}
GROUP BY ${group}`;
}

/** Rows that any of the selections takes. */
export function anyOf(selections: readonly ClassFilter[]): ClassFilter {
  return { where: selections.length === 1 ? selections[0]!.where : `(${selections.map((s) => s.where).join(' OR ')})` };
}

function instanceAndUnit(shape: ResolvedShape): { instance: string; unit: TimeUnit } {
  return shape.type === 'spans' ? { instance: shape.columns.trace, unit: shape.columns.unit } : { instance: shape.columns.instance, unit: shape.columns.unit };
}

/**
 * An instance as the GROUP BY key and as its id. With a run column, (run, instance) and `run/instance`: instances
 * named alike in two runs stay apart, and the id is the one readRuns gives a run's instance in files.
 */
function instanceKey(shape: ResolvedShape): { group: string; id: string; run: string | null } {
  const { instance } = instanceAndUnit(shape);
  const run = shape.columns.run ?? null;
  if (run === null) return { group: column(instance), id: `toString(${column(instance)})`, run };
  return { group: `${column(run)}, ${column(instance)}`, id: `concat(toString(${column(run)}), '/', toString(${column(instance)}))`, run };
}

function startColumn(shape: ResolvedShape): string {
  return shape.type === 'spans' ? shape.columns.start : shape.columns.time;
}

function spanEndKey(shape: ResolvedShape & { type: 'spans' }): string {
  const c = shape.columns;
  const start = timeKey(column(c.start), shape.timeType);
  if (c.end !== null) return timeKey(column(c.end), shape.timeType);
  // A duration in the start's unit (otel_traces: Duration ns beside a DateTime64(9) start).
  return `(${start} + toInt64(${column(c.duration as string)}))`;
}

/** Working arrays: each defined once by its alias, inside ignore() (one byte a row), so only the features are sent. */
export type Definitions = readonly (readonly [alias: string, expr: string])[];

/**
 * The one query that computes every instance's features of a class (SPEC §2)
 * on the server: one row per instance, FEATURE_ROW_COLUMNS (`d_` + each), and `d_run` with a run column.
 * `referenceDuration` is Dref (the median duration over both classes), for q*.abs.
 */
export function featureQuery(shape: ResolvedShape, cls: ClassFilter, referenceDuration: number, services: readonly string[] = []): string {
  const { group, id, run } = instanceKey(shape);
  const work = featureDefinitions(shape, referenceDuration, services);
  const outputs = FEATURE_ROW_COLUMNS.map((c) => (c === 'instance' ? `${id} AS d_instance`
    : c === 'records' ? 'length(d_recs) AS d_records' : c === 'start' ? 'toFloat64(d_base) AS d_start' : `d_${c}`));
  return `SELECT
  ${outputs[0]},
  ignore(
    ${work.map(([a, e]) => `${e} AS ${a}`).join(',\n    ')}
  ) AS d_work,
  ${outputs.slice(1).join(', ')}${run === null ? '' : `, toString(${column(run)}) AS d_run`}
FROM ${shape.table}
WHERE ${rowsOf(shape, cls)}
GROUP BY ${group}`;
}

/** featureQuery's working arrays in order, each `[alias, expression]` (bench/clickhouse-stages.mjs times them stage by stage). */
export function featureDefinitions(shape: ResolvedShape, referenceDuration: number, services: readonly string[] = []): Definitions {
  const { unit } = instanceAndUnit(shape);
  const records = shape.type === 'spans' ? spanRecords(shape, services) : recordRecords(shape);
  return [...records, ...featuresFromRecords(keyUnit(shape.timeType, unit), shape.timeType, referenceDuration)];
}

/** The services a class's spans name (for featureQuery's gRPC callees), one row each, sorted. */
export function servicesQuery(shape: ResolvedShape & { type: 'spans' }, cls: ClassFilter): string {
  return `SELECT DISTINCT toString(${column(shape.columns.service)}) AS service FROM ${shape.table} WHERE ${cls.where} ORDER BY service`;
}

/** A class's rows that belong to an instance (an empty id, as a log line outside any trace, belongs to none; nor to a run, an empty run). */
function rowsOf(shape: ResolvedShape, cls: ClassFilter): string {
  const { instance } = instanceAndUnit(shape);
  const run = shape.columns.run ?? null;
  return `${cls.where} AND toString(${column(instance)}) != ''${run === null ? '' : ` AND toString(${column(run)}) != ''`}`;
}

/** d_base (the first time key) and d_recs (time key, order, event, state, value, kind) in time order, of a records table. */
function recordRecords(shape: ResolvedShape & { type: 'records' }): Definitions {
  const c = shape.columns;
  const key = timeKey(column(c.time), shape.timeType);
  const entity = c.entity !== undefined ? column(c.entity) : null;
  const named = (col: string | undefined): string => {
    if (col === undefined) return "''";
    const name = `toString(${column(col)})`;
    return entity === null ? name : `if(${name} = '', '', concat(toString(${entity}), ':', ${name}))`;
  };
  const order = c.order !== undefined ? `toUInt64(${column(c.order)})` : 'toUInt64(0)';
  const value = c.value !== undefined ? `toFloat64(${column(c.value)})` : 'toFloat64(0)';
  const kind = c.kind !== undefined ? `toString(${column(c.kind)})` : "''";
  return [
    ['d_base', `min(${key})`],
    ['d_recs', `arraySort(r -> (r.1, r.2), groupArray((${key}, ${order}, ${named(c.event)}, ${named(c.state)}, ${value}, ${kind})))`],
    // The first kind given, in time order (the collector keeps the first an instance's `I` records give).
    ['d_kind', "arrayFilter(k -> k != '', arrayMap(r -> r.6, d_recs))[1]"],
  ];
}

/** A gRPC method's service (spans.ts GRPC_METHOD), in RE2 without escapes: `hipstershop.CartService/GetCart` → `CartService`. */
const GRPC_METHOD_RE2 = '^(?:[A-Za-z0-9_-]+[.])*([A-Za-z0-9_-]+)/[A-Za-z0-9_-]+$';

/** spans.ts serviceKey: lower case, letters and digits only. */
const serviceKeySql = (x: string): string => `replaceRegexpAll(lower(${x}), '[^a-z0-9]', '')`;

/** Parent ids that mean "no parent" (spans.ts NO_PARENT). */
const NO_PARENT = ['', 'root', 'null', 'none', '0', '0000000000000000'];

/**
 * d_base and d_recs of a span table, as the span reader makes them (spans.ts emitTraces): each span, in its
 * order (a row number; else the span id), gives the events `service:operation.start` at its start and `.end` at
 * its end, and the state `service:operation self` (its self time, seconds) at its end; ties in time keep that
 * order. Self time: the span's duration less the union of its children's intervals clipped to it (selfTimes).
 * The trace's kind: the root's operation, and the first span (by start) in another service (kindOf).
 * A client span is billed to the service it calls (spans.ts calleesOf): with exactly one child, in another
 * service, that child's service; with none, the service its gRPC method names among `services`, the class's
 * (servicesQuery; the file path looks among the file's). Its end is then `callee:operation.reply`, its self time
 * `callee:operation wait`.
 */
function spanRecords(shape: ResolvedShape & { type: 'spans' }, services: readonly string[]): Definitions {
  const c = shape.columns;
  const start = timeKey(column(c.start), shape.timeType);
  const end = spanEndKey(shape);
  const unit = keyUnit(shape.timeType, c.unit);
  const sec = (k: string): string => secondsSince(k, 'd_base', unit, shape.timeType);
  const parent = `if(has([${NO_PARENT.map(stringLiteral).join(', ')}], lower(toString(${column(c.parent)}))), '', toString(${column(c.parent)}))`;
  // Spans: (start key, end key, order, span id, parent id, service, operation), in their order.
  const spans = `arraySort(s -> (s.3, s.4), groupArray((${start}, ${end}, ${column(c.order)}, toString(${column(c.span)}), ${parent}, toString(${column(c.service)}), toString(${column(c.operation)}))))`;
  return [
    ['d_base', `min(${start})`],
    ['d_spans', spans],
    ['d_ss', `arrayMap(s -> ${sec('s.1')}, d_spans)`],
    ['d_se', `arrayMap(s -> ${sec('s.2')}, d_spans)`],
    ['d_sid', 'arrayMap(s -> s.4, d_spans)'],
    ['d_spar', 'arrayMap(s -> s.5, d_spans)'],
    ['d_sname', "arrayMap(s -> concat(s.6, ':', s.7), d_spans)"],
    // Each span's children's intervals clipped to it, non-empty, by start: [(a, b)].
    ['d_kids', `arrayMap((id, a0, b0) -> arraySort(x -> x.1, arrayFilter(x -> x.2 > x.1, arrayMap((a, b) -> (greatest(a0, a), least(b0, b)),
      arrayFilter((a, p) -> p = id, d_ss, d_spar), arrayFilter((b, p) -> p = id, d_se, d_spar)))), d_sid, d_ss, d_se)`],
    // The union's length: each interval less what the ones before it (by start) reach.
    ['d_self', `arrayMap((a0, b0, ks) -> greatest(0., b0 - a0 - arraySum(arrayMap((x, k) -> greatest(0., x.2 - greatest(x.1,
      if(k = 1, -inf, arrayReduce('max', arrayMap(y -> y.2, arraySlice(ks, 1, k - 1)))))), ks, arrayEnumerate(ks)))), d_ss, d_se, d_kids)`],
    // The callee of each span ('' for its own work): calleesOf.
    ['d_nkid', 'arrayMap(id -> countEqual(d_spar, id), d_sid)'],
    ['d_kid', 'arrayMap(id -> indexOf(d_spar, id), d_sid)'],
    ['d_known', `[${services.map(stringLiteral).join(', ')}]`],
    ['d_kkey', `arrayMap(x -> ${serviceKeySql('x')}, d_known)`],
    ['d_gkey', `arrayMap(s -> ${serviceKeySql(`extract(s.7, '${GRPC_METHOD_RE2}')`)}, d_spans)`],
    ['d_callee', `arrayMap((s, n, k, g) -> if(n = 1, if(d_spans[k].6 != s.6, d_spans[k].6, ''),
      if(n = 0 AND g != '' AND has(d_kkey, g) AND d_known[indexOf(d_kkey, g)] != s.6, d_known[indexOf(d_kkey, g)], '')), d_spans, d_nkid, d_kid, d_gkey)`],
    ['d_recs', `arraySort(r -> (r.1, r.2), arrayConcat(
      arrayMap((s, i) -> (s.1, 3 * i, concat(s.6, ':', s.7, '.start'), '', 0., ''), d_spans, arrayEnumerate(d_spans)),
      arrayMap((s, i, to) -> (s.2, 3 * i + 1, if(to = '', concat(s.6, ':', s.7, '.end'), concat(to, ':', s.7, '.reply')), '', 0., ''), d_spans, arrayEnumerate(d_spans), d_callee),
      arrayMap((s, i, x, to) -> (s.2, 3 * i + 2, '', if(to = '', concat(s.6, ':', s.7, ' self'), concat(to, ':', s.7, ' wait')), x, ''), d_spans, arrayEnumerate(d_spans), d_self, d_callee)))`],
    // The root: the earliest span without a parent id, else the earliest whose parent is not in the trace.
    ['d_byStart', 'arraySort((i, s) -> (s.1, s.3, s.4), arrayEnumerate(d_spans), d_spans)'],
    ['d_rootAt', `if(arrayExists(i -> d_spar[i] = '', d_byStart), arrayFilter(i -> d_spar[i] = '', d_byStart)[1],
      arrayFilter(i -> NOT has(d_sid, d_spar[i]), d_byStart)[1])`],
    ['d_rootService', 'd_spans[d_rootAt].6'],
    ['d_entryAt', 'arrayFilter(i -> d_spans[i].6 != d_rootService, d_byStart)[1]'],
    ['d_kind', `if(d_entryAt = 0, d_spans[d_rootAt].7, concat(d_spans[d_rootAt].7, ' → ', d_spans[d_entryAt].6, ':', d_spans[d_entryAt].7))`],
  ];
}

/**
 * The per-instance features (SPEC §2) from d_recs (time key, order, event name, state name, value, kind) in time
 * order and d_base, its first time key: the collector's `summarize` and `scatterRecords`, in arrays.
 */
function featuresFromRecords(unit: TimeUnit, type: TimeType, referenceDuration: number): Definitions {
  const half = (a: string): string => `intDiv(length(${a}), 2)`;
  // Exact median of a sorted array: the middle one, or the mean of the two middle ones (stats/median.ts medianOfSorted).
  const median = (a: string): string => `if(length(${a}) % 2 = 1, ${a}[${half(a)} + 1], (${a}[${half(a)}] + ${a}[${half(a)} + 1]) / 2)`;
  // The value at time x (SPEC §2): the last value logged at or before x, or the first when none is.
  const valueAt = (x: string): string => `arrayMap((ts, vs) -> vs[greatest(1, arrayCount(y -> y <= ${x}, ts))], d_stTimes, d_stValues)`;
  const dref = float64Literal(referenceDuration);
  const maxOr = (a: string): string => `arrayMap(gs -> if(empty(gs), nan, arrayReduce('max', arrayPushBack(gs, -inf))), ${a})`;
  return [
    ['d_t', `arrayMap(r -> ${secondsSince('r.1', 'd_base', unit, type)}, d_recs)`],
    ['d_duration', 'd_t[length(d_t)]'],
    ['d_names', 'arrayMap(r -> r.3, d_recs)'],
    // Event records: times, names; each one's wait since the event record before it (the first's is 0), and until the next.
    ['d_et', "arrayFilter((x, e) -> e != '', d_t, d_names)"],
    ['d_en', "arrayFilter(e -> e != '', d_names)"],
    ['d_entry', 'd_en[1]'],
    ['d_eg', 'arrayDifference(d_et)'],
    ['d_ea', 'arrayPushBack(arrayPopFront(d_eg), 0.)'],
    ['d_ei', 'arrayEnumerate(d_en)'],
    ['d_evNames', 'arrayDistinct(d_en)'],
    ['d_evTimes', 'arrayMap(u -> arrayFilter((x, e) -> e = u, d_et, d_en), d_evNames)'],
    ['d_evFirst', 'arrayMap(ts -> ts[1], d_evTimes)'],
    ['d_evMedian', `arrayMap(ts -> ${median('ts')}, d_evTimes)`],
    ['d_evLast', 'arrayMap(ts -> ts[length(ts)], d_evTimes)'],
    ['d_evCount', 'arrayMap(ts -> length(ts), d_evTimes)'],
    ['d_evGaps', 'arrayMap(u -> arrayFilter((g, e, i) -> e = u AND i > 1, d_eg, d_en, d_ei), d_evNames)'],
    ['d_evGap', maxOr('d_evGaps')],
    ['d_evAfters', 'arrayMap(u -> arrayFilter((g, e, i) -> e = u AND i < length(d_en), d_ea, d_en, d_ei), d_evNames)'],
    ['d_evGapAfter', maxOr('d_evAfters')],
    // The sum in time order from 0, as the collector adds them (the first event's 0 included).
    ['d_evWait', 'arrayMap(u -> arraySum(arrayFilter((g, e) -> e = u, d_eg, d_en)), d_evNames)'],
    // State records: each variable's times and values in time order.
    ['d_sts', "arrayFilter((x, r) -> r.4 != '', d_t, d_recs)"],
    ['d_srecs', "arrayFilter(r -> r.4 != '', d_recs)"],
    ['d_sn', 'arrayMap(r -> r.4, d_srecs)'],
    ['d_sv', 'arrayMap(r -> r.5, d_srecs)'],
    ['d_stNames', 'arrayDistinct(d_sn)'],
    ['d_stTimes', 'arrayMap(u -> arrayFilter((x, s) -> s = u, d_sts, d_sn), d_stNames)'],
    ['d_stValues', 'arrayMap(u -> arrayFilter((v, s) -> s = u, d_sv, d_sn), d_stNames)'],
    ['d_stMin', "arrayMap(vs -> arrayReduce('min', vs), d_stValues)"],
    ['d_stMean', 'arrayMap(vs -> arraySum(vs) / length(vs), d_stValues)'],
    ['d_stMax', "arrayMap(vs -> arrayReduce('max', vs), d_stValues)"],
    ['d_stFinal', 'arrayMap(vs -> vs[length(vs)], d_stValues)'],
    ['d_stQ1Rel', valueAt('0.25 * d_duration')],
    ['d_stHalfRel', valueAt('0.5 * d_duration')],
    ['d_stQ3Rel', valueAt('0.75 * d_duration')],
    ['d_stQ1Abs', valueAt(`0.25 * ${dref}`)],
    ['d_stHalfAbs', valueAt(`0.5 * ${dref}`)],
    ['d_stQ3Abs', valueAt(`0.75 * ${dref}`)],
  ];
}
