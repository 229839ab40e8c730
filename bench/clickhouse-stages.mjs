#!/usr/bin/env node
// Where the pushdown query's server time goes (issue 55): featureQuery's working arrays timed stage by stage on one
// ClickHouse server started here, from the server's own log (system.query_log: query_duration_ms and the query's
// CPU, ProfileEvents UserTimeMicroseconds + SystemTimeMicroseconds).
//
//   npm run build && node bench/clickhouse-stages.mjs            (BENCH_CH_STAGE_ROWS=2000000 by default)
//
// The rows are made on the server (numbers()): requests of 24 records as bench/clickhouse.mjs makes them (events
// Start, Fetch×10, Render, End; states queue, buffer_kb). Each stage is the query over the definitions up to its
// last alias, `SELECT instance, ignore(…) FROM records GROUP BY instance FORMAT Null`; a stage's cost is its time
// less the one before. Three runs each, the median kept.

import { RECORDS_MAPPING } from '../dist/clickhouse/mapping.js';
import { featureDefinitions, featureQuery } from '../dist/clickhouse/sql.js';
import { serverVersion, sql, startServer } from '../scripts/clickhouse-server.mjs';

const ROWS = Number(process.env.BENCH_CH_STAGE_ROWS ?? 2_000_000);
const PER = 24;
const shape = { type: 'records', table: '`records`', columns: { ...RECORDS_MAPPING, order: 'seq', kind: undefined }, timeType: 'float' };
delete shape.columns.kind;
const defs = featureDefinitions(shape, 0.05);

/** Stages: a name and the last alias it computes (every definition up to it). */
const STAGES = [
  ['records gathered and sorted (groupArray, arraySort)', 'd_kind'],
  ['times as seconds, the event records picked out', 'd_ei'],
  ['per event variable: filtered, median, gaps, wait', 'd_evWait'],
  ['per state variable: filtered, min/mean/max/final', 'd_stFinal'],
  ['value at the quartiles (rel and abs)', 'd_stQ3Abs'],
];

const server = await startServer();
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => { void server.stop().finally(() => process.exit(130)); });
try {
  const url = server.url;
  const version = await serverVersion(url);
  await sql(url, 'CREATE TABLE records (instance String, time Float64, seq UInt64, event String, state String, value Float64) ENGINE = MergeTree ORDER BY (instance, time, seq)');
  const k = `(number % ${PER})`;
  await sql(url, `INSERT INTO records SELECT
  concat('req-', toString(intDiv(number, ${PER}))), 1763596800 + intDiv(number, ${PER}) * 0.01 + ${k} * 0.003 + (cityHash64(number) % 1000) / 1000000, ${k},
  multiIf(${k} = 0, 'Start', ${k} = 22, 'Render', ${k} = 23, 'End', ${k} >= 2 AND ${k} % 2 = 0, 'Fetch', ''),
  multiIf(${k} = 1, 'queue', ${k} >= 3 AND ${k} < 22 AND ${k} % 2 = 1, 'buffer_kb', ''),
  (cityHash64(number, 1) % 10000) / 100
FROM system.numbers LIMIT ${ROWS}`);
  await sql(url, 'OPTIMIZE TABLE records FINAL');
  const queries = [
    ['rows read and grouped (no arrays)', 'SELECT instance, count() FROM records GROUP BY instance FORMAT Null'],
    ...STAGES.map(([name, last]) => {
      const upto = defs.slice(0, defs.findIndex(([a]) => a === last) + 1);
      return [name, `SELECT instance, ignore(\n  ${upto.map(([a, e]) => `${e} AS ${a}`).join(',\n  ')}) AS d_work FROM records GROUP BY instance FORMAT Null`];
    }),
    ['the whole query, its rows as JSONEachRow (sent, not kept)', `${featureQuery(shape, { where: '1' }, 0.05)} FORMAT JSONEachRow`],
  ];
  const settings = { log_queries: '1', max_expanded_ast_elements: '5000000', max_threads: '1' };
  const measured = [];
  for (const [name, query] of queries) {
    const ids = [];
    for (let r = 0; r < 3; r++) {
      const id = `stage-${measured.length}-${r}`;
      ids.push(id);
      await sql(url, query, undefined, { ...settings, query_id: id });
    }
    measured.push({ name, ids });
  }
  await sql(url, 'SYSTEM FLUSH LOGS');
  const log = await sql(url, `SELECT query_id, query_duration_ms, read_rows, memory_usage,
  ProfileEvents.Values[indexOf(ProfileEvents.Names, 'UserTimeMicroseconds')] + ProfileEvents.Values[indexOf(ProfileEvents.Names, 'SystemTimeMicroseconds')]
FROM system.query_log WHERE type = 2 AND query_id LIKE 'stage-%' FORMAT TSV`);
  const byId = new Map(log.trim().split('\n').map((l) => { const [id, ms, rows, mem, cpu] = l.split('\t'); return [id, { ms: Number(ms), rows: Number(rows), mem: Number(mem), cpuUs: Number(cpu) }]; }));
  const med = (xs) => [...xs].sort((a, b) => a - b)[1];
  console.log(`${ROWS.toLocaleString('en-US')} rows, ${Math.ceil(ROWS / PER).toLocaleString('en-US')} instances of ${PER} records; ClickHouse ${version}; max_threads 1; median of 3\n`);
  console.log('| stage | query ms | CPU ms | stage CPU ms | stage µs a row | peak memory MB |\n|---|---:|---:|---:|---:|---:|');
  let before = 0;
  for (const { name, ids } of measured) {
    const runs = ids.map((id) => byId.get(id));
    const ms = med(runs.map((r) => r.ms));
    const cpu = med(runs.map((r) => r.cpuUs)) / 1000;
    const own = cpu - before;
    console.log(`| ${name} | ${ms} | ${cpu.toFixed(0)} | ${own.toFixed(0)} | ${(own * 1000 / ROWS).toFixed(3)} | ${(med(runs.map((r) => r.mem)) / 2 ** 20).toFixed(0)} |`);
    if (!name.startsWith('the whole')) before = cpu;
  }
} finally {
  await server.stop();
}
