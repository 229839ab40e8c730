#!/usr/bin/env node
// distalyze over ClickHouse (issue 55): feature extraction pushed down to a 2-shard cluster against the same records
// read from files, in one run.
//
//   npm run build && node bench/clickhouse.mjs            (BENCH_CH_ROWS=10000000 by default)
//
// Generates a set of requests (24 records each by default: events and states; the bad class's Fetch steps slower in some),
// writes it once as dlog files (bench/data/clickhouse-<rows>/, one per class, `I` records) and loads it into two
// ClickHouse servers started here (scripts/clickhouse-server.mjs), a Distributed table sharded by the instance.
// Then measures, with /usr/bin/time: distalyze over the cluster, distalyze over the files (-j1 and -j2), and prints
// wall and client CPU, the bytes the server sent back (per instance and per row), and whether the answers (the JSON
// reports, what was read left out) are identical. Results: bench/results/clickhouse.json.

import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 as prng } from '../dist/stats/prng.js';
import { RowBinary, processCpuSeconds, serverVersion, sql, startCluster } from '../scripts/clickhouse-server.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROWS = Number(process.env.BENCH_CH_ROWS ?? 10_000_000);
/** Fetch steps per request (BENCH_CH_FETCHES, default 10): 2 records each, 4 more per request. */
const FETCHES = Number(process.env.BENCH_CH_FETCHES ?? 10);
const DATA = join(ROOT, 'bench/data', `clickhouse-${ROWS}${FETCHES === 10 ? '' : `-${FETCHES}`}`);
const BIN = join(ROOT, 'bin/distalyze.js');
const TABLE = '(class String, instance String, time Float64, seq UInt64, event String, state String, value Float64)';

/** One request's records: [t, event, state, value], in time order. */
function request(rand, t0, bad) {
  const out = [[t0, 'Start', '', 0], [t0 + 0.0001, '', 'queue', Math.floor(rand() * 20)]];
  let t = t0 + 0.0002 + rand() * 0.002;
  const slow = bad && rand() < 0.5;
  for (let k = 0; k < FETCHES; k++) {
    t += 0.001 + rand() * 0.004 + (slow && k === 6 ? 0.02 + rand() * 0.01 : 0);
    out.push([t, 'Fetch', '', 0]);
    out.push([t + 0.00005, '', 'buffer_kb', Math.round((100 + rand() * 50 + (slow ? 40 : 0)) * 100) / 100]);
  }
  t += 0.002 + rand() * 0.003;
  out.push([t, 'Render', '', 0]);
  out.push([t + 0.001 + rand() * 0.002, 'End', '', 0]);
  return out;
}

const PER_REQUEST = 4 + 2 * FETCHES;
const requests = Math.ceil(ROWS / PER_REQUEST);

/** Writes the two dlog files (once) and returns the RowBinary chunks' generator for the same records. */
async function* generate(writeFiles) {
  const rand = prng(55);
  const files = writeFiles ? { good: createWriteStream(join(DATA, 'good.dlog.tmp')), bad: createWriteStream(join(DATA, 'bad.dlog.tmp')) } : null;
  const seq = { good: 0, bad: 0 };
  let rows = new RowBinary();
  let inChunk = 0;
  let text = { good: [], bad: [] };
  for (let r = 0; r < requests; r++) {
    const c = r % 2 === 0 ? 'good' : 'bad';
    const id = `req-${String(r).padStart(8, '0')}`;
    const t0 = 1763596800 + r * 0.01 + rand() * 0.005;
    seq[c]++; // the I line
    if (files !== null) text[c].push(`I\t${id}`);
    for (const [t, event, state, value] of request(rand, t0, c === 'bad')) {
      seq[c]++;
      rows.string(c); rows.string(id); rows.float64(t); rows.uint64(seq[c]); rows.string(event); rows.string(state); rows.float64(value);
      if (files !== null) text[c].push(event !== '' ? `E\t${t}\t${event}` : `S\t${t}\t${state}\t${value}`);
      inChunk++;
    }
    if (inChunk >= 500_000 || r === requests - 1) {
      if (files !== null) {
        for (const k of ['good', 'bad']) {
          if (text[k].length > 0 && !files[k].write(`${text[k].join('\n')}\n`)) await new Promise((ok) => files[k].once('drain', ok));
        }
        text = { good: [], bad: [] };
      }
      yield rows.bytes();
      rows = new RowBinary();
      inChunk = 0;
    }
  }
  if (files !== null) {
    await Promise.all(Object.values(files).map((f) => new Promise((ok) => f.end(ok))));
    for (const k of ['good', 'bad']) renameSync(join(DATA, `${k}.dlog.tmp`), join(DATA, `${k}.dlog`));
  }
}

/** Runs distalyze under /usr/bin/time: wall, client CPU (user + system), peak RSS; its JSON report. */
function measure(label, args) {
  const out = join(DATA, `${label}.json`);
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, BIN, ...args, '--json', out, '-q'], { encoding: 'utf8', env: process.env });
  const last = r.stderr.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 && r.status !== 1) throw new Error(`${label}: exit ${r.status}\n${r.stderr}`);
  const [wall, user, sys, rssKb] = last.split(' ').map(Number);
  const report = JSON.parse(readFileSync(out, 'utf8'));
  return { label, wall, cpu: user + sys, rssMb: Math.round(rssKb / 1024), report };
}

/** The answer: the JSON report less what was read (files and their bytes; rows and the bytes sent back). */
function answer(report) {
  const copy = structuredClone(report);
  for (const c of Object.values(copy.classes)) { delete c.bytes; delete c.files; }
  delete copy.timings;
  return JSON.stringify(copy);
}

mkdirSync(DATA, { recursive: true });
const haveFiles = existsSync(join(DATA, 'good.dlog')) && existsSync(join(DATA, 'bad.dlog'));
console.log(`${ROWS.toLocaleString('en-US')} rows (${requests.toLocaleString('en-US')} requests of ${PER_REQUEST} records); starting a 2-shard cluster`);
const cluster = await startCluster(2);
// Interrupted: the servers are this run's, stopped with it.
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => { void cluster.stop().finally(() => process.exit(130)); });
try {
  const [first] = cluster.servers;
  const version = await serverVersion(first.url);
  for (const s of cluster.servers) {
    await sql(s.url, `CREATE TABLE records_local ${TABLE} ENGINE = MergeTree ORDER BY (instance, time, seq)`);
    await sql(s.url, `CREATE TABLE records ${TABLE} ENGINE = Distributed(distalyze, default, records_local, cityHash64(instance))`);
  }
  const loadStart = performance.now();
  for await (const chunk of generate(!haveFiles)) await sql(first.url, 'INSERT INTO records FORMAT RowBinary', chunk, { insert_distributed_sync: '1' });
  const loaded = Number((await sql(first.url, 'SELECT count() FROM records')).trim());
  const perShard = await Promise.all(cluster.servers.map(async (s) => Number((await sql(s.url, 'SELECT count() FROM records_local')).trim())));
  console.log(`loaded ${loaded.toLocaleString('en-US')} rows (${perShard.map((n) => n.toLocaleString('en-US')).join(' + ')} by shard) in ${((performance.now() - loadStart) / 1000).toFixed(0)} s; ClickHouse ${version}`);

  const serverCpu = () => cluster.servers.reduce((sum, s) => sum + processCpuSeconds(s.pid), 0);
  const cpuBefore = serverCpu();
  const cluster1 = measure('cluster', ["class = 'good'", "class = 'bad'", '--clickhouse', `${first.url}/default`, '--table', 'records', '--columns', 'order=seq']);
  cluster1.serverCpu = serverCpu() - cpuBefore;
  const files1 = measure('files-j1', [join(DATA, 'good.dlog'), join(DATA, 'bad.dlog'), '-j', '1']);
  const files2 = measure('files-j2', [join(DATA, 'good.dlog'), join(DATA, 'bad.dlog'), '-j', '2']);
  const instances = cluster1.report.classes.good.instances + cluster1.report.classes.bad.instances;
  const sentBack = cluster1.report.classes.good.bytes + cluster1.report.classes.bad.bytes;
  const fileBytes = files1.report.classes.good.bytes + files1.report.classes.bad.bytes;
  const identical = answer(cluster1.report) === answer(files1.report) && answer(files1.report) === answer(files2.report);
  const rows = [
    ['distalyze over the 2-shard cluster', cluster1],
    ['distalyze over the files, -j1', files1],
    ['distalyze over the files, -j2', files2],
  ];
  console.log('\n| run | wall s | client CPU s | servers\' CPU s | client peak RSS MB |\n|---|---:|---:|---:|---:|');
  for (const [name, m] of rows) console.log(`| ${name} | ${m.wall.toFixed(1)} | ${m.cpu.toFixed(1)} | ${m.serverCpu === undefined ? '–' : m.serverCpu.toFixed(1)} | ${m.rssMb} |`);
  console.log(`\nbytes sent back by the server: ${sentBack.toLocaleString('en-US')} (${(sentBack / instances).toFixed(0)} per instance, ${(sentBack / loaded).toFixed(1)} per row; the files: ${fileBytes.toLocaleString('en-US')})`);
  console.log(`instances: ${instances.toLocaleString('en-US')}; answers identical (JSON reports, what was read left out): ${identical ? 'yes' : 'NO'}`);
  // The default set's figures in clickhouse.json; another set's beside it, named by its rows and records an instance.
  const results = ROWS === 10_000_000 && FETCHES === 10 ? 'clickhouse.json' : `clickhouse-${ROWS}-${PER_REQUEST}.json`;
  writeFileSync(join(ROOT, 'bench/results', results), `${JSON.stringify({
    rows: loaded, recordsPerInstance: PER_REQUEST, perShard, requests, instances, clickhouse: version, sentBack, fileBytes, identical,
    runs: rows.map(([name, m]) => ({ name, wall: m.wall, cpu: m.cpu, ...(m.serverCpu !== undefined ? { serverCpu: m.serverCpu } : {}), rssMb: m.rssMb })),
  }, null, 2)}\n`);
} finally {
  await cluster.stop();
}
