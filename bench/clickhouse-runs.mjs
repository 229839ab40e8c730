#!/usr/bin/env node
// `distalyze history` over ClickHouse against the same runs as files (issue 55), in one run.
//
//   npm run build && node bench/clickhouse-runs.mjs     (BENCH_CH_RUNS=30 runs of BENCH_CH_RUN_REQUESTS=2000 requests)
//
// Generates nightly runs of requests (24 records each: events Start, Fetch×10, Render, End; states queue,
// buffer_kb; from run 20 on one Fetch slower), writes each run as one dlog file (`I` records) in its own
// directory (bench/data/clickhouse-runs-<runs>x<requests>/runs/), loads the same records into one ClickHouse server
// started here (a `run` column), and measures with /usr/bin/time `history DIR` against `history --clickhouse`:
// wall, client CPU, the server's CPU (/proc), the bytes the server sent back, and whether the JSON is the same
// (numbers to 1e-9 relative).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 as prng } from '../dist/stats/prng.js';
import { readClickHouseRuns } from '../dist/clickhouse/runs.js';
import { RowBinary, processCpuSeconds, serverVersion, sql, startServer } from '../scripts/clickhouse-server.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_CH_RUNS ?? 30);
const REQUESTS = Number(process.env.BENCH_CH_RUN_REQUESTS ?? 2000);
const DATA = join(ROOT, 'bench/data', `clickhouse-runs-${RUNS}x${REQUESTS}`);
const RUNS_DIR = join(DATA, 'runs');
const BIN = join(ROOT, 'bin/distalyze.js');
const COLUMNS = 'run=run,order=seq';

/** One request's records [t, event, state, value] in time order; `slow`: its 7th Fetch waits longer. */
function request(rand, t0, slow) {
  const out = [[t0, 'Start', '', 0], [t0 + 0.0001, '', 'queue', Math.floor(rand() * 20)]];
  let t = t0 + 0.0002 + rand() * 0.002;
  for (let k = 0; k < 10; k++) {
    t += 0.001 + rand() * 0.004 + (slow && k === 6 ? 0.01 + rand() * 0.01 : 0);
    out.push([t, 'Fetch', '', 0]);
    out.push([t + 0.00005, '', 'buffer_kb', Math.round((100 + rand() * 50) * 100) / 100]);
  }
  t += 0.002 + rand() * 0.003;
  out.push([t, 'Render', '', 0]);
  out.push([t + 0.001 + rand() * 0.002, 'End', '', 0]);
  return out;
}

/** The records as files (once) and as RowBinary rows. */
function generate(writeFiles) {
  const rand = prng(55);
  const rows = new RowBinary();
  let count = 0;
  for (let r = 0; r < RUNS; r++) {
    const run = `2026-11-${String(r + 1).padStart(2, '0')}`;
    const lines = [];
    let seq = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const id = `req-${String(i).padStart(6, '0')}`;
      lines.push(`I\t${id}`);
      seq++;
      const t0 = 1793491260 + r * 86400 + i * 0.01 + rand() * 0.005;
      for (const [t, event, state, value] of request(rand, t0, r >= 19 && rand() < 0.5)) {
        seq++;
        rows.string(run); rows.string(id); rows.float64(t); rows.uint64(seq); rows.string(event); rows.string(state); rows.float64(value);
        lines.push(event !== '' ? `E\t${t}\t${event}` : `S\t${t}\t${state}\t${value}`);
        count++;
      }
    }
    if (writeFiles) {
      mkdirSync(join(RUNS_DIR, run), { recursive: true });
      writeFileSync(join(RUNS_DIR, run, 'requests.dlog'), `${lines.join('\n')}\n`);
    }
  }
  return { rows, count };
}

function measure(label, args) {
  const out = join(DATA, `${label}.json`);
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, BIN, ...args, '--json', out, '-q'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${label}: exit ${r.status}\n${r.stderr}`);
  const [wall, user, sys, rssKb] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  return { label, wall, cpu: user + sys, rssMb: Math.round(rssKb / 1024), report: JSON.parse(readFileSync(out, 'utf8')) };
}

/** The first place two JSON documents differ (numbers to 1e-9 relative), or null. */
function difference(a, b, at = '$') {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) ? null : `${at}: ${a} vs ${b}`;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${at}: ${a.length} vs ${b.length} items`;
    for (let i = 0; i < a.length; i++) { const d = difference(a[i], b[i], `${at}[${i}]`); if (d !== null) return d; }
    return null;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a).sort();
    if (keys.join() !== Object.keys(b).sort().join()) return `${at}: keys differ`;
    for (const k of keys) { const d = difference(a[k], b[k], `${at}.${k}`); if (d !== null) return d; }
    return null;
  }
  return Object.is(a, b) ? null : `${at}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

mkdirSync(DATA, { recursive: true });
const haveFiles = existsSync(join(RUNS_DIR, `2026-11-${String(RUNS).padStart(2, '0')}`, 'requests.dlog'));
const { rows, count } = generate(!haveFiles);
const server = await startServer();
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => { void server.stop().finally(() => process.exit(130)); });
try {
  const url = server.url;
  await sql(url, 'CREATE TABLE nightly (run String, instance String, time Float64, seq UInt64, event String, state String, value Float64) ENGINE = MergeTree ORDER BY (run, instance, time, seq)');
  await sql(url, 'INSERT INTO nightly FORMAT RowBinary', rows.bytes());
  console.log(`${RUNS} runs of ${REQUESTS} requests, ${count.toLocaleString('en-US')} records; ClickHouse ${await serverVersion(url)}`);
  const files = measure('files', ['history', RUNS_DIR]);
  const cpuBefore = processCpuSeconds(server.pid);
  const table = measure('table', ['history', '--clickhouse', url, '--table', 'nightly', '--columns', COLUMNS, "run != ''"]);
  table.serverCpu = processCpuSeconds(server.pid) - cpuBefore;
  const read = await readClickHouseRuns('history', { url, table: 'nightly', columns: COLUMNS }, [{ className: 'good', label: 'selection', specs: ["run != ''"] }], { weight: { mode: 'none' }, minInstances: { good: 2, bad: 0 } });
  const instances = read.features.features.instances.length;
  console.log('\n| history | wall s | client CPU s | server CPU s | client peak RSS MB |\n|---|---:|---:|---:|---:|');
  for (const m of [files, table]) console.log(`| ${m.label === 'files' ? 'over the files' : 'over the table'} | ${m.wall.toFixed(1)} | ${m.cpu.toFixed(1)} | ${m.serverCpu === undefined ? '–' : m.serverCpu.toFixed(1)} | ${m.rssMb} |`);
  console.log(`\nbytes sent back: ${read.bytes.toLocaleString('en-US')} (${(read.bytes / instances).toFixed(0)} an instance, ${(read.bytes / count).toFixed(1)} a row)`);
  const d = difference(files.report, table.report);
  console.log(`changes found: ${table.report.events.map((e) => e.runName).join(', ') || 'none'}; JSON the same to 1e-9: ${d === null ? 'yes' : `NO (${d})`}`);
} finally {
  await server.stop();
}
