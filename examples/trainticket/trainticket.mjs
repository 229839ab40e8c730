// TrainTicket log exports (the Nezha dataset's log.csv / log.csv.gz): one
// instance per request (TraceID), one event per log statement.
//
//   distalyze --translator examples/trainticket/trainticket.mjs good/ bad/
//
// Columns (read by name from each file's header row):
//   Timestamp,TimeUnixNano,Node,PodName,Container,TraceID,SpanID,Log
// `Log` is the container runtime's JSON object; its `log` field is the line the
// service wrote, e.g.
//   16:44:10.485 INFO  t.s.TravelServiceImpl#372 TraceID: … [getTickets]…
// Each row becomes, in instance TraceID, at TimeUnixNano:
//   - the event `<service>:<Class#line>` (`ts-travel-service:t.s.TravelServiceImpl#372`),
//     the service being the pod name without its Kubernetes replica suffixes;
//   - for WARN and ERROR lines also `<service>:WARN` / `<service>:ERROR`, so that
//     errors spread over several statements of one service add up in one
//     variable (set TRAINTICKET_LEVELS=off to leave them out).
// Rows that cannot be read (a wrong number of fields, a `Log` that is not JSON,
// a line without `LEVEL Class#line`, no TraceID) are left untranslated, and so
// counted in distalyze's summary: the dataset holds a few rows where two
// writes were interleaved. A span file (trace.csv, header with ParentID and
// OperationName) met in the same folder is left untranslated too.

import { splitCsv } from '../trace-csv/trace.mjs';
const LEVEL_EVENTS = (process.env.TRAINTICKET_LEVELS ?? 'on') !== 'off';
const NEEDED = ['TimeUnixNano', 'PodName', 'TraceID', 'Log'];

/** Column name → index, from the current file's header row. */
let columns = null;
let width = 0;

export function beginFile() {
  columns = null;
  width = 0;
}

export default function translate(line, ctx) {
  const fields = splitCsv(line);
  if (columns === null) {
    columns = Object.fromEntries(fields.map((name, i) => [name.trim(), i]));
    // The dataset's span file (trace.csv) beside log.csv: not ours, left untranslated.
    if ('OperationName' in columns && 'ParentID' in columns) { width = -1; return false; }
    for (const need of NEEDED) {
      if (!(need in columns)) throw new Error(`header lacks a '${need}' column (is this a TrainTicket log.csv?)`);
    }
    width = fields.length;
    return true; // the header is understood
  }
  if (fields.length !== width) return false;
  const traceId = fields[columns.TraceID];
  const statement = parseStatement(fields[columns.Log]);
  const t = nanosToSeconds(fields[columns.TimeUnixNano]);
  if (traceId === '' || statement === null || t === null) return false;
  const service = serviceOf(fields[columns.PodName]);
  ctx.instance(traceId);
  ctx.event(t, `${service}:${statement.where}`);
  if (LEVEL_EVENTS && (statement.level === 'WARN' || statement.level === 'ERROR')) ctx.event(t, `${service}:${statement.level}`);
  return true;
}

/**
 * `ts-basic-service-5dc8d4f9fd-46997` → `ts-basic-service`: a Deployment's pod
 * name is `<name>-<replicaset hash>-<5 chars>`, a StatefulSet's `<name>-<ordinal>`.
 */
export function serviceOf(pod) {
  return pod.replace(/-[a-z0-9]{6,10}-[a-z0-9]{5}$/, '').replace(/-\d+$/, '');
}

/** `{"log":"16:44:10.485 INFO  t.s.X#372 …"}` → { level: 'INFO', where: 't.s.X#372' }, or null. */
export function parseStatement(logJson) {
  let text;
  try {
    text = JSON.parse(logJson).log;
  } catch {
    return null;
  }
  if (typeof text !== 'string') return null;
  const m = /^\S+\s+([A-Z]+)\s+(\S+#\d+)/.exec(text);
  return m === null ? null : { level: m[1], where: m[2] };
}

/** `1674982122425293566` → the string `1674982122.425293566` (exact, no float rounding of 19 digits). */
function nanosToSeconds(ns) {
  if (!/^\d{10,}$/.test(ns)) return null;
  return `${ns.slice(0, -9)}.${ns.slice(-9)}`;
}

/** RFC 4180 fields, as the trace-csv example splits them. */
export { splitCsv };
