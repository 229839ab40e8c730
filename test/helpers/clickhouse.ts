/** A real ClickHouse server for the pushdown tests (scripts/clickhouse-server.mjs) and loaders of fixtures into it. */
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { INSTALL_HINT, RowBinary, serverInstalled, sql } from '../../scripts/clickhouse-server.mjs';

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
