/**
 * The fields of one record (issue 53): a JSON object's (nested objects by dotted names) and a logfmt line's
 * `key=value` pairs, and a record's message with its statement's fields after it as `key=value`. layout.ts
 * finds which field has which role; this file reads them.
 */
import { statementField } from './column-names.js';

/** A JSON Lines row as strings per column (nested objects flattened: flatObject), or null when the line is no JSON object. */
export function jsonRow(line: string, columns: readonly string[]): string[] | null {
  const o = parseObject(line);
  return o === null ? null : jsonFields(o, columns);
}

export function jsonFields(o: Record<string, unknown>, columns: readonly string[]): string[] {
  const flat = flatObject(o);
  return columns.map((c) => cellText(flat[c]));
}

/**
 * A JSON object with its nested objects' fields as dotted keys (`{"kubernetes":{"pod":{"name":"p"}}}` →
 * `kubernetes.pod.name`); arrays and values stay. Reason: exporters nest what a flat exporter writes as dotted
 * names (Elasticsearch's ECS `log.level`, `trace.id`; Cloud Logging's `resource.labels.pod_name`,
 * `jsonPayload.message`; Loki's `labels`; an Elasticsearch hit's `_source`), and the roles are found by those names.
 */
export function flatObject(o: Record<string, unknown>, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0) flatObject(v as Record<string, unknown>, `${prefix}${k}.`, out);
    else out[`${prefix}${k}`] = v;
  }
  return out;
}

export function parseObject(text: string): Record<string, unknown> | null {
  const s = text.trimStart();
  if (s.charCodeAt(0) !== 123 /* { */) return null;
  try {
    const o: unknown = JSON.parse(s);
    return o !== null && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** A logfmt pair: its key, its value (unquoted), and where the pair stands in the line. */
export interface LogfmtPair {
  readonly key: string;
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

/** A logfmt key: a letter or `_` first, then no space, `=` or `"`. */
const LOGFMT_KEY = /^[A-Za-z_@][^\s="]*$/;

/**
 * The `key=value` pairs of a logfmt line (Go's slog TextHandler, logrus, go-kit, Heroku: space-separated pairs, a
 * value quoted when it holds a space or a quote, `\"` and `\\` escaped in it), or null when a token is not one
 * (a bare word, a quote that does not close): the line is no logfmt.
 */
export function logfmtPairs(line: string): LogfmtPair[] | null {
  const out: LogfmtPair[] = [];
  const n = line.length;
  let i = 0;
  for (;;) {
    while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    if (i >= n) return out;
    const start = i;
    const eq = line.indexOf('=', i);
    if (eq < 0) return null;
    const key = line.slice(i, eq);
    if (!LOGFMT_KEY.test(key)) return null;
    i = eq + 1;
    let value: string;
    if (line.charCodeAt(i) === 34 /* " */) {
      value = '';
      let j = i + 1;
      for (; j < n; j++) {
        const c = line.charCodeAt(j);
        if (c === 34) break;
        if (c === 92 /* \ */ && j + 1 < n) {
          const e = line.charAt(++j);
          value += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
        } else {
          value += line.charAt(j);
        }
      }
      if (j >= n) return null;
      i = j + 1;
      if (i < n && line.charCodeAt(i) !== 32 && line.charCodeAt(i) !== 9) return null;
    } else {
      let j = i;
      while (j < n && line.charCodeAt(j) !== 32 && line.charCodeAt(j) !== 9) j++;
      value = line.slice(i, j);
      if (value.includes('"')) return null;
      i = j;
    }
    out.push({ key, value, start, end: i });
  }
}

/** A logfmt row as values per column ('' for a key the line has not). */
export function logfmtRow(pairs: readonly LogfmtPair[], columns: readonly string[]): string[] {
  const row = new Array<string>(columns.length).fill('');
  for (const p of pairs) {
    const c = columns.indexOf(p.key);
    if (c >= 0) row[c] = p.value;
  }
  return row;
}

/**
 * A logfmt line's message: the message key's value (none: undefined), then the line's other pairs as written (`key=value`, a quoted
 * value quoted), in their order, but for the pairs of keys with a role (time, level, entity, trace, span, ids and
 * other times). docs/input.md, "logfmt", says why.
 */
export function logfmtMessage(line: string, pairs: readonly LogfmtPair[], messageKey: string | undefined, roles: ReadonlySet<string>): string {
  let out = messageKey !== undefined ? pairs.find((p) => p.key === messageKey)?.value ?? '' : '';
  for (const p of pairs) {
    if (roles.has(p.key)) continue;
    out += `${out === '' ? '' : ' '}${line.slice(p.start, p.end)}`;
  }
  return out;
}

/** A JSON value as a logfmt value: a string quoted (as JSON) when it holds a space, a quote or `=`, or is empty. */
export function pairValue(v: string | number | boolean): string {
  return typeof v === 'string' && (v === '' || /[\s"=]/.test(v)) ? JSON.stringify(v) : String(v);
}

/**
 * A JSON Lines record's message: its message, then its statement's fields (statementField) not among the
 * layout's notPairs as `key=value`, in the record's order; null values, objects and arrays are left out.
 */
export function jsonMessage(message: string, o: Record<string, unknown>, notPairs: ReadonlySet<string>): string {
  let out = message;
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (notPairs.has(k) || !(typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') || !statementField(k)) continue;
    out += `${out === '' ? '' : ' '}${k}=${pairValue(v)}`;
  }
  return out;
}
