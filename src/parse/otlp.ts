/**
 * OpenTelemetry logs as OTLP/JSON (issue 53), as the collector's file exporter writes them: one `LogsData` object
 * a line, `resourceLogs[].scopeLogs[].logRecords[]` (https://opentelemetry.io/docs/specs/otel/protocol/file-exporter/).
 * A line holds many log records, each timed and named by fields at three depths (resource, scope, record). This
 * file turns a line into its records, each a flat JSON Lines record (dotted names) that the JSON Lines path of
 * layout.ts reads as one row (as the parsed record, RowReader.readRecord: no JSON text made and parsed again), so
 * one line gives many rows and every error or skip still names the line:
 *
 *  - `timeUnixNano`: the record's time, or its `observedTimeUnixNano` where that is 0 or absent (the logs data
 *    model, https://opentelemetry.io/docs/specs/otel/logs/data-model/: "Timestamp … if unknown, 0"; the observed
 *    time is when the collector saw it);
 *  - `severityText`: the record's, or where it has none the name of its `severityNumber`'s range (the data model's
 *    SeverityNumber: 1–4 TRACE, 5–8 DEBUG, 9–12 INFO, 13–16 WARN, 17–20 ERROR, 21–24 FATAL);
 *  - `body`: the record's body (a `kvlistValue` body is a record of its own: its message field, then its other
 *    fields as `key=value`), then the record's attributes that are its statement's, as `key=value` (statementKey);
 *  - `traceId`, `spanId`: hex, as OTLP/JSON writes them (opentelemetry-proto docs/specification.md, "JSON Protobuf
 *    Encoding": ids hex, not base64; 64-bit integers as decimal strings, numbers accepted too);
 *  - `resource.<key>`: each resource attribute (`service.name`, `k8s.pod.name`, …), and `attributes.<key>` each
 *    record attribute that is not the statement's: where a record was written, read for the entity and source,
 *    never part of the template.
 */
import { ENTITY_NAMES, LEVEL_NAME, MESSAGE_NAME, normal, PLACE_NAME, SPAN_NAME, TIME_NAME, TRACE_NAME } from './column-names.js';
import { pairValue, parseObject } from './fields.js';

/** A first line that opens a LogsData object. */
const LOGS_DATA = /^\s*\{\s*"resourceLogs"\s*:/;

/** Whether a line opens an OTLP/JSON LogsData object (`{"resourceLogs":…`). */
export function isOtlpLogs(line: string): boolean {
  return LOGS_DATA.test(line);
}

/** A command that flattens OTLP/JSON logs into JSON Lines (one record a line), for where one record a line is needed. */
export const OTLP_FLATTEN = `jq -c '.resourceLogs[] | (.resource.attributes // [] | map({(.key): .value.stringValue}) | add) as $r | .scopeLogs[].logRecords[] | {time: .timeUnixNano, service: $r["service.name"], level: .severityText, trace: .traceId, message: .body.stringValue}' FILE`;

/** The data model's SeverityNumber ranges, four numbers each, by their short names. */
const SEVERITY_NAMES = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'];

/**
 * A SeverityNumber's short name ('' for none: 0, unspecified): 1–24 as an integer, or an enum name as a generic
 * proto3 JSON encoder writes it (`SEVERITY_NUMBER_WARN2`).
 */
export function severityName(n: unknown): string {
  if (typeof n === 'string') {
    const m = /^SEVERITY_NUMBER_([A-Z]+)\d?$/.exec(n);
    if (m !== null) return SEVERITY_NAMES.includes(m[1] as string) ? m[1] as string : '';
  }
  const k = typeof n === 'number' ? n : typeof n === 'string' && /^\d+$/.test(n) ? Number(n) : NaN;
  return Number.isInteger(k) && k >= 1 && k <= 24 ? SEVERITY_NAMES[Math.floor((k - 1) / 4)] as string : '';
}

type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** An OTLP AnyValue (`{stringValue}`, `{intValue}`, … `{kvlistValue:{values}}`) as a plain value; null for none. */
function anyValue(v: unknown): Value {
  if (!isObject(v)) return null;
  if (typeof v.stringValue === 'string') return v.stringValue;
  // (int64 as a decimal string, or a number: kept as written, a string.)
  if (v.intValue !== undefined) return String(v.intValue);
  if (typeof v.doubleValue === 'number' || typeof v.doubleValue === 'string') return v.doubleValue;
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (typeof v.bytesValue === 'string') return v.bytesValue;
  if (isObject(v.arrayValue)) return list(v.arrayValue.values).map(anyValue);
  if (isObject(v.kvlistValue)) return keyValues(v.kvlistValue.values);
  return null;
}

/** A list of KeyValue (`[{key, value}]`: attributes, a kvlist) as an object, in order; a key given twice: its last. */
function keyValues(kvs: unknown): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const kv of list(kvs)) if (isObject(kv) && typeof kv.key === 'string') out[kv.key] = anyValue(kv.value);
  return out;
}

const scalar = (v: Value): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const text = (v: Value): string => (v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/**
 * Whether a field of a record (an attribute, or a field of a kvlist body) is its statement's, so that its
 * `key=value` follows the message, as a JSON Lines record's fields do (column-names.ts statementField), but for a
 * dot, which in OTLP separates a semantic convention's namespace (`http.response.status_code`) and is no nesting.
 * Not the statement's: a name of a role the record holds in fields of its own (time, level, trace, span), of a
 * place (PLACE_NAME: a thread, a logger, a sequence number; ENTITY_NAMES: `k8s.pod.name`, `host.name`), and the
 * namespaces `log.*` (where the collector read the line: `log.file.path`, `log.iostream`, `log.record.uid`) and
 * `code.*` with any `….stacktrace` (where in the code: the statement itself, not what it measured; a stack's line
 * numbers would be states).
 */
export function statementKey(key: string): boolean {
  let known = statementKeys.get(key);
  if (known === undefined) {
    const n = normal(key);
    known = !(key.startsWith('log.') || key.startsWith('code.') || n.endsWith('stacktrace')) &&
      ![TIME_NAME, LEVEL_NAME, TRACE_NAME, SPAN_NAME, PLACE_NAME, ...ENTITY_NAMES].some((re) => re.test(n));
    // (A file's records share a few keys: each is judged once, up to a bound for keys that are really values.)
    if (statementKeys.size < 10_000) statementKeys.set(key, known);
  }
  return known;
}
const statementKeys = new Map<string, boolean>();

/** A record's body as a message: text as is; a kvlist's message field (MESSAGE_NAME) then its statement's fields. */
function bodyMessage(body: Value): string {
  if (!isObject(body)) return text(body);
  const key = Object.keys(body).find((k) => MESSAGE_NAME.test(normal(k)) && typeof body[k] === 'string');
  return withPairs(key === undefined ? '' : body[key] as string, body, key);
}

/** A message then the statement's scalar fields of `fields` (statementKey) as `key=value`, in order, but `skip`. */
function withPairs(message: string, fields: Record<string, Value>, skip?: string): string {
  let out = message;
  for (const [k, v] of Object.entries(fields)) {
    if (k === skip || !scalar(v) || !statementKey(k)) continue;
    out += `${out === '' ? '' : ' '}${k}=${pairValue(v)}`;
  }
  return out;
}

/** A 64-bit time in nanoseconds as written ('' for none: absent, or 0, which the data model uses for unknown). */
function nanos(v: unknown): string {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
  return /^0*$/.test(s) ? '' : s;
}

/** A log record as a flat JSON Lines record, every value a string (the file's opening comment lists its fields). */
export type OtlpRecord = Record<string, string>;

/** A row as text: a line as it is, a log record as its JSON Lines text (otlpLines). */
export function rowText(row: string | Readonly<OtlpRecord>): string {
  return typeof row === 'string' ? row : JSON.stringify(row);
}

/** One log record as a flat JSON Lines record (the file's opening comment lists its fields). */
function flatRecord(r: Record<string, unknown>, resource: ReadonlyArray<readonly [string, string]>): OtlpRecord {
  const attributes = keyValues(r.attributes);
  const out: Record<string, string> = {
    timeUnixNano: nanos(r.timeUnixNano) || nanos(r.observedTimeUnixNano),
    severityText: typeof r.severityText === 'string' && r.severityText.trim() !== '' ? r.severityText : severityName(r.severityNumber),
    body: withPairs(bodyMessage(anyValue(r.body)), attributes),
  };
  if (typeof r.traceId === 'string' && r.traceId !== '') out.traceId = r.traceId;
  if (typeof r.spanId === 'string' && r.spanId !== '') out.spanId = r.spanId;
  for (const [k, v] of resource) out[k] = v;
  for (const k of Object.keys(attributes)) {
    const v = attributes[k] as Value;
    if (!(scalar(v) && statementKey(k))) out[attributeName(k)] = text(v);
  }
  return out;
}

/** `attributes.<key>`, made once per key (a file's records share a few: statementKey's bound). */
function attributeName(key: string): string {
  let name = attributeNames.get(key);
  if (name === undefined) {
    name = `attributes.${key}`;
    if (attributeNames.size < 10_000) attributeNames.set(key, name);
  }
  return name;
}
const attributeNames = new Map<string, string>();

/**
 * The log records of one LogsData line, in order, each a flat record; null when the line is no LogsData object (cut
 * short, or not JSON): a line none of whose records can be read, counted as a table's unreadable row is.
 */
export function otlpRecords(line: string): OtlpRecord[] | null {
  const o = parseObject(line);
  if (o === null || !Array.isArray(o.resourceLogs)) return null;
  const out: OtlpRecord[] = [];
  for (const rl of o.resourceLogs) {
    if (!isObject(rl)) continue;
    // (A resource's fields, named and made text once for all its records.)
    const resource = Object.entries(isObject(rl.resource) ? keyValues(rl.resource.attributes) : {}).map(([k, v]) => [`resource.${k}`, text(v)] as const);
    for (const sl of list(rl.scopeLogs)) {
      if (!isObject(sl)) continue;
      for (const r of list(sl.logRecords)) if (isObject(r)) out.push(flatRecord(r, resource));
    }
  }
  return out;
}

/** The log records of one LogsData line as JSON Lines (otlpRecords), or null. */
export function otlpLines(line: string): string[] | null {
  return otlpRecords(line)?.map(rowText) ?? null;
}

/**
 * The records of the first lines that a layout is found from: at most `n`, spread evenly over all the lines'
 * records in order (a batch groups its records by resource, so the first `n` may all be one service's, which
 * would make the service look constant). Lines that cannot be read (the last, cut by the sample) are passed over.
 */
export function otlpSample(lines: readonly string[], n = 50): Array<Record<string, string>> {
  const all = lines.flatMap((l) => otlpRecords(l) ?? []);
  if (all.length <= n) return all;
  return Array.from({ length: n }, (_, i) => all[Math.floor((i * all.length) / n)] as Record<string, string>);
}
