/** A real ClickHouse server for the pushdown tests (scripts/clickhouse-server.mjs) and loaders of fixtures into it. */
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { INSTALL_HINT, RowBinary, serverInstalled, sql } from '../../scripts/clickhouse-server.mjs';
import type { FeatureSet } from '../../src/features/types.js';

export { startCluster, startServer, serverVersion, sql } from '../../scripts/clickhouse-server.mjs';

/** Fails (never skips) without the server, saying how to install it. */
export function requireServer(): void {
  if (!serverInstalled()) throw new Error(INSTALL_HINT);
}

export const RECORDS_TABLE = `(class String, instance String, time Float64, seq UInt64, event String, state String, value Float64)`;

/** A directory of dlog files (one instance each, named by the file) as rows of a records table, in RowBinary. */
export function dlogRows(dir: string, className: string, rows = new RowBinary()): RowBinary {
  for (const name of readdirSync(dir).sort()) {
    const lines = readFileSync(join(dir, name), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const f = line.split('\t');
      if (f[0] !== 'E' && f[0] !== 'S') return;
      rows.string(className);
      rows.string(name);
      rows.float64(Number(f[1]));
      rows.uint64(i + 1);
      rows.string(f[0] === 'E' ? (f[2] as string) : '');
      rows.string(f[0] === 'S' ? (f[2] as string) : '');
      rows.float64(f[0] === 'S' ? Number(f[3]) : 0);
    });
  }
  return rows;
}

export async function loadDlog(url: string, table: string, dirs: Record<string, string>): Promise<void> {
  await sql(url, `CREATE TABLE ${table} ${RECORDS_TABLE} ENGINE = MergeTree ORDER BY (instance, time, seq)`);
  const rows = new RowBinary();
  for (const [c, dir] of Object.entries(dirs)) dlogRows(dir, c, rows);
  await sql(url, `INSERT INTO ${table} FORMAT RowBinary`, rows.bytes());
}

/**
 * The otel_traces shape that ClickHouse 18.16 can hold: Timestamp as UInt64 nanoseconds (the exporter's is
 * DateTime64(9), which 18.16 lacks), Duration Int64 ns, the span's place in its file (seq) for ties.
 */
export const OTEL_TRACES_18 = `(class String, TraceId String, SpanId String, ParentSpanId String, ServiceName String, SpanName String, Timestamp UInt64, Duration Int64, seq UInt64)`;

/** A TrainTicket span CSV (TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,EndTimeUnixNano,…) into that shape. */
export async function loadSpansCsv(url: string, table: string, files: Record<string, string>, serviceOf: (pod: string) => string): Promise<void> {
  await sql(url, `CREATE TABLE ${table} ${OTEL_TRACES_18} ENGINE = MergeTree ORDER BY (TraceId, Timestamp, seq)`);
  const rows = new RowBinary();
  for (const [c, path] of Object.entries(files)) {
    const lines = gunzipSync(readFileSync(path)).toString('utf8').split('\n').filter((l) => l !== '');
    lines.slice(1).forEach((line, i) => {
      const f = line.split(',');
      const parent = (f[2] as string).trim();
      rows.string(c);
      rows.string(f[0] as string);
      rows.string(f[1] as string);
      rows.string(parent === 'root' ? '' : parent);
      rows.string(serviceOf(f[3] as string));
      rows.string(f[4] as string);
      rows.uint64(BigInt(f[5] as string));
      rows.int64(BigInt(f[6] as string) - BigInt(f[5] as string));
      rows.uint64(i + 1);
    });
  }
  await sql(url, `INSERT INTO ${table} FORMAT RowBinary`, rows.bytes());
}

/** The records table with a run column (`check`, `history`): run, instance, time, seq, event, state, value. */
export const RUNS_TABLE = `(run String, instance String, time Float64, seq UInt64, event String, state String, value Float64)`;

/** A directory of runs (each a directory of one-instance dlog files) into `table` (RUNS_TABLE), each run named as its directory. */
export async function loadRuns(url: string, table: string, root: string, engine = 'MergeTree ORDER BY (run, instance, time, seq)'): Promise<void> {
  await sql(url, `CREATE TABLE ${table} ${RUNS_TABLE} ENGINE = ${engine}`);
  const rows = new RowBinary();
  for (const run of readdirSync(root).sort()) dlogRows(join(root, run), run, rows);
  await sql(url, `INSERT INTO ${table} FORMAT RowBinary`, rows.bytes(), engine.startsWith('Distributed') ? { insert_distributed_sync: '1' } : {});
}

/** The first place two JSON documents differ (numbers to 1e-9 relative), or null. */
export function jsonDifference(a: unknown, b: unknown, at = '$'): string | null {
  if (typeof a === 'number' && typeof b === 'number') {
    return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) ? null : `${at}: ${a} vs ${b}`;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${at}: ${a.length} items vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = jsonDifference(a[i], b[i], `${at}[${i}]`);
      if (d !== null) return d;
    }
    return null;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (ka.join() !== kb.join()) return `${at}: keys ${ka.join()} vs ${kb.join()}`;
    for (const k of ka) {
      const d = jsonDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
      if (d !== null) return d;
    }
    return null;
  }
  return Object.is(a, b) ? null : `${at}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

/** Equal to 1e-9 relative (and `abs` absolute), NaN where NaN. */
function close(a: number, b: number, abs = 0): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  return Math.abs(a - b) <= abs + 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}

/** The first difference between two feature sets (instances, variables, every value), or null. */
export function featureDifference(file: FeatureSet, table: FeatureSet, abs = 0): string | null {
  if (file.nGood !== table.nGood || file.nBad !== table.nBad) return `instances ${file.nGood}+${file.nBad} vs ${table.nGood}+${table.nBad}`;
  for (let i = 0; i < file.instances.length; i++) {
    const a = file.instances[i]!;
    const b = table.instances[i]!;
    if (a.id !== b.id || a.records !== b.records || a.kind !== b.kind || !close(a.duration, b.duration, abs)) return `instance ${i}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  if (!close(file.referenceDuration, table.referenceDuration, abs)) return `Dref ${file.referenceDuration} vs ${table.referenceDuration}`;
  if (file.tables.length !== table.tables.length) return `${file.tables.length} tables vs ${table.tables.length}`;
  for (let t = 0; t < file.tables.length; t++) {
    const a = file.tables[t]!;
    const b = table.tables[t]!;
    if (a.kind !== b.kind || a.feature !== b.feature) return `table ${t}: ${a.kind} ${a.feature} vs ${b.kind} ${b.feature}`;
    if (JSON.stringify(a.variables) !== JSON.stringify(b.variables)) return `${a.kind} ${a.feature}: variables differ`;
    for (let v = 0; v < a.variables.length; v++) {
      for (let i = 0; i < file.instances.length; i++) {
        const x = a.columns[v]![i]!;
        const y = b.columns[v]![i]!;
        // A relative time is a time over D: its tolerance too.
        const tolerance = a.feature.endsWith('.rel') && a.kind === 'event' ? abs / file.instances[i]!.duration : abs;
        if (!close(x, y, tolerance)) return `${a.variables[v]} ${a.feature} of ${file.instances[i]!.id}: ${x} (file) vs ${y} (table)`;
      }
    }
  }
  return null;
}
