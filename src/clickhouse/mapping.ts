import { InputError } from '../errors.js';

/**
 * Where a ClickHouse table's columns hold what a log record holds (SPEC §1):
 * the instance, the time, an event's name, a state's name and value. Each
 * field is a column name or an SQL expression over the row's columns.
 */
export interface ColumnMapping {
  /** The instance id (a trace id, a run, a node). */
  readonly instance: string;
  /** The record's time: Float64 seconds, DateTime, or an integer in `unit`. */
  readonly time: string;
  /** The unit of an integer time column (DateTime and floats are seconds). */
  readonly unit: TimeUnit;
  /** A row whose event column is not '' is the event record of that name. */
  readonly event?: string;
  /** A row whose state column is not '' is the state record of that name, value `value`. */
  readonly state?: string;
  readonly value?: string;
  /** The instance's kind (a request type): the first non-empty one in time order. */
  readonly kind?: string;
  /** Names variables `entity:name` (as the raw-log reader does). */
  readonly entity?: string;
  /** Breaks ties in time, as a record's place in its file does (a row number). */
  readonly order?: string;
  /** The run an instance belongs to (a build, a nightly date): `check` and `history` take runs from it. */
  readonly run?: string;
}

export type TimeUnit = 's' | 'ms' | 'us' | 'ns';
export const TIME_UNITS: readonly TimeUnit[] = ['s', 'ms', 'us', 'ns'];
export const UNIT_SCALE: Readonly<Record<TimeUnit, number>> = { s: 1, ms: 1e3, us: 1e6, ns: 1e9 };

/**
 * A table's shape: plain records (a mapping), or OpenTelemetry spans, whose
 * records the span reader makes (src/parse/spans.ts): `service:operation.start`
 * and `.end`, and the state `service:operation self`.
 */
export type TableShape =
  | { readonly type: 'records'; readonly columns: ColumnMapping }
  | { readonly type: 'spans'; readonly columns: SpanColumns };

/** The columns of a span table (the OpenTelemetry exporter's `otel_traces`). */
export interface SpanColumns {
  readonly trace: string;
  readonly span: string;
  readonly parent: string;
  readonly service: string;
  readonly operation: string;
  /** Start time; an integer in `unit`, or DateTime64 (seconds with a fraction). */
  readonly start: string;
  /** The end time, or null: start + duration. */
  readonly end: string | null;
  /** The duration in `unit` when there is no end column (otel_traces: Duration, ns). */
  readonly duration: string | null;
  readonly unit: TimeUnit;
  /** Breaks ties between spans, as a span's place in its file does (a row number); default the span id. */
  readonly order: string;
  /** The run a trace belongs to (`check`, `history`), or null. */
  readonly run: string | null;
}

/** The default mapping: a table of dlog records (SPEC §1), one row each. */
export const RECORDS_MAPPING: ColumnMapping = {
  instance: 'instance', time: 'time', unit: 's', event: 'event', state: 'state', value: 'value',
};

/** The OpenTelemetry ClickHouse exporter's `otel_traces` (Timestamp DateTime64(9), Duration Int64 ns). */
export const OTEL_TRACES: SpanColumns = {
  trace: 'TraceId', span: 'SpanId', parent: 'ParentSpanId', service: 'ServiceName', operation: 'SpanName',
  start: 'Timestamp', end: null, duration: 'Duration', unit: 'ns', order: 'SpanId', run: null,
};

/** The OpenTelemetry ClickHouse exporter's `otel_logs`: each log record an event named by its body, per trace. */
export const OTEL_LOGS: ColumnMapping = {
  instance: 'TraceId', time: 'Timestamp', unit: 'ns', event: 'Body', entity: 'ServiceName',
};

export const BUILT_IN_SHAPES = ['records', 'otel_traces', 'otel_logs'] as const;
export type BuiltInShape = (typeof BUILT_IN_SHAPES)[number];

/** The run column of a shape (`--columns run=…`), or null. */
export function runColumn(shape: { readonly type: string; readonly columns: ColumnMapping | SpanColumns }): string | null {
  return shape.columns.run ?? null;
}

/**
 * The shape named by `--mapping` with `--columns` overrides (`field=column,…`):
 * `records` (default), `otel_traces`, `otel_logs`.
 */
export function tableShape(name: string, overrides: string | undefined): TableShape {
  if (!(BUILT_IN_SHAPES as readonly string[]).includes(name)) {
    throw new InputError(`--mapping ${name}: must be one of ${BUILT_IN_SHAPES.join(', ')}`, undefined, undefined, 'map your own table\'s columns with --columns instance=…,time=…,event=…');
  }
  const given = parseColumns(overrides);
  if (name === 'otel_traces') {
    const spans = { ...OTEL_TRACES } as Record<string, string | null>;
    for (const [k, v] of given) {
      if (!(k in spans)) throw new InputError(`--columns ${k}: not a field of the otel_traces mapping (${Object.keys(OTEL_TRACES).join(', ')})`);
      spans[k] = v === '' ? null : v;
    }
    const columns = spans as unknown as SpanColumns;
    checkUnit(columns.unit);
    if (columns.end === null && columns.duration === null) throw new InputError('--columns: a span table needs end= or duration=');
    return { type: 'spans', columns };
  }
  const base = name === 'otel_logs' ? OTEL_LOGS : RECORDS_MAPPING;
  const fields = new Set(['instance', 'time', 'unit', 'event', 'state', 'value', 'kind', 'entity', 'order', 'run']);
  const merged: Record<string, string> = { ...(base as unknown as Record<string, string>) };
  for (const [k, v] of given) {
    if (!fields.has(k)) throw new InputError(`--columns ${k}: not a field of a mapping (${[...fields].join(', ')})`);
    if (v === '') delete merged[k];
    else merged[k] = v;
  }
  const columns = merged as unknown as ColumnMapping;
  checkUnit(columns.unit);
  if (columns.event === undefined && columns.state === undefined) throw new InputError('--columns: map event= or state= (or both)');
  if (columns.state !== undefined && columns.value === undefined) throw new InputError('--columns: state= needs value= (the state\'s value)');
  return { type: 'records', columns };
}

function parseColumns(text: string | undefined): [string, string][] {
  if (text === undefined || text.trim() === '') return [];
  return topLevelParts(text).map((pair) => {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new InputError(`--columns ${pair}: expected field=column`);
    return [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
  });
}

/** `text` split at its commas outside brackets and quotes: an expression's own commas (`concat(a, b)`) stay in it. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
}

function checkUnit(unit: string): void {
  if (!(TIME_UNITS as readonly string[]).includes(unit)) throw new InputError(`--columns unit=${unit}: must be one of ${TIME_UNITS.join(', ')}`);
}
