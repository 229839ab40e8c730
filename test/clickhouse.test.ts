/**
 * Feature extraction pushed down to ClickHouse (src/clickhouse) against the file path, on a real server
 * (scripts/clickhouse-server.mjs starts it; without it these tests fail saying how to install it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readClasses } from '../src/read/index.js';
import { readRuns } from '../src/read/runs.js';
import { readClickHouseRuns } from '../src/clickhouse/runs.js';
import { serviceOfPod } from '../src/parse/spans.js';
import { featureDifference, loadDlog, loadSpansCsv, requireServer, serverVersion, sql, startServer } from './helpers/clickhouse.js';
import { FIXTURES } from './helpers/synth.js';
import { run } from './helpers/run.js';
import { ROOT } from './helpers/run.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RowBinary } from '../scripts/clickhouse-server.mjs';

let server: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  requireServer();
  server = await startServer();
  await loadDlog(server.url, 'records', { good: FIXTURES.pipelineGood, bad: FIXTURES.pipelineBad });
  const tt = join(ROOT, 'fixtures/trainticket');
  await loadSpansCsv(server.url, 'otel_traces', { good: join(tt, 'good/trace.csv.gz'), bad: join(tt, 'bad/trace.csv.gz') }, serviceOfPod);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('ClickHouse pushdown', () => {
  it('runs on the server installed here', async () => {
    expect(await serverVersion(server.url)).toMatch(/^\d+\.\d+/);
  });

  it('a records table gives the features of the same records in files (to 1e-9)', async () => {
    const file = await readClasses(FIXTURES.pipelineGood, FIXTURES.pipelineBad, { jobs: 1 });
    const table = await readClasses("class = 'good'", "class = 'bad'", { clickhouse: { url: server.url, table: 'records', columns: 'order=seq,kind=none' } });
    expect(featureDifference(file.features.features, table.features.features)).toBeNull();
    expect(table.classes.good.records).toBe(file.classes.good.records);
  });

  it('and the same report', async () => {
    const file = await run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--no-color', '-j', '1', '--json', '-');
    const table = await run("class = 'good'", "class = 'bad'", '--no-color', '--clickhouse', server.url, '--table', 'records', '--columns', 'order=seq,kind=none', '--json', '-');
    expect(table.code).toBe(file.code);
    const strip = (text: string): unknown => {
      const j = JSON.parse(text) as Record<string, unknown>;
      // What was read differs in kind (files and their bytes; rows and the bytes sent back): the rest is the answer.
      for (const c of Object.values(j.classes as Record<string, Record<string, unknown>>)) {
        delete c.bytes;
        delete c.files;
      }
      return j;
    };
    expect(strip(table.stdout)).toEqual(strip(file.stdout));
    const text = await run("class = 'good'", "class = 'bad'", '--no-color', '--clickhouse', server.url, '--table', 'records', '--columns', 'order=seq,kind=none');
    expect(text.stdout).toMatch(/^ {2}good: 40 instances from a table \(\d+(\.\d)? KB sent back, 2,108 records\)$/m);
    expect(text.stdout).toContain('Top cause: lock_wait_ms');
  });

  it('otel_traces gives the span reader\'s variables, self time included (times to 1 µs: the file path\'s are float seconds)', async () => {
    const tt = join(ROOT, 'fixtures/trainticket');
    const file = await readClasses(join(tt, 'good/trace.csv.gz'), join(tt, 'bad/trace.csv.gz'), { jobs: 1 });
    const table = await readClasses("class = 'good'", "class = 'bad'", { clickhouse: { url: server.url, table: 'otel_traces', mapping: 'otel_traces', columns: 'order=seq' } });
    // The span reader's seconds since the epoch are doubles (2.4e-7 s apart at 2023's epoch); the table's nanoseconds
    // are subtracted as integers: equal to within that, and to 1e-9 relative elsewhere.
    expect(featureDifference(file.features.features, table.features.features, 1e-6)).toBeNull();
    expect(table.features.features.instances.map((i) => i.kind)).toEqual(file.features.features.instances.map((i) => i.kind));
  });
});

describe('ClickHouse: otel_traces as runs (check, history)', () => {
  it('a run column groups traces by (run, trace) and names them run/trace; the features are the span reader\'s (to 1 µs)', async () => {
    const tt = join(ROOT, 'fixtures/trainticket');
    const files = await readRuns([{ name: 'good', path: join(tt, 'good/trace.csv.gz'), className: 'good' }, { name: 'bad', path: join(tt, 'bad/trace.csv.gz'), className: 'bad' }],
      { weight: { mode: 'none' }, strict: false });
    const table = await readClickHouseRuns('check', { url: server.url, table: 'otel_traces', mapping: 'otel_traces', columns: 'order=seq,run=class' },
      [{ className: 'good', label: 'baseline', specs: ["class = 'good'"] }, { className: 'bad', label: 'new run', specs: ["class = 'bad'"] }], { weight: { mode: 'none' } });
    expect(table.features.features.instances[0]!.id).toMatch(/^good\//);
    expect(featureDifference(files.features.features, table.features.features, 1e-6)).toBeNull();
    expect(Array.from(table.runOf)).toEqual(Array.from(files.runOf));
  });
});

describe('ClickHouse: otel_logs', () => {
  it('each log record an event named service:body, per trace, as the same records in a dlog with I records', async () => {
    // An 18.16-shaped otel_logs (Timestamp UInt64 ns: the exporter's DateTime64(9) needs a current server).
    await sql(server.url, 'CREATE TABLE otel_logs (class String, TraceId String, Timestamp UInt64, ServiceName String, Body String, seq UInt64) ENGINE = MergeTree ORDER BY (TraceId, Timestamp)');
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-otel-logs-'));
    const rows = new RowBinary();
    let seq = 0;
    for (const c of ['good', 'bad'] as const) {
      const lines: string[] = [];
      for (let k = 0; k < 12; k++) {
        const trace = `${c}-trace-${String(k).padStart(2, '0')}`;
        lines.push(`I\t${trace}`);
        // Whole microseconds since the epoch; the bad class waits longer before the query returns.
        let us = 1674982208_000_000n + BigInt(k) * 1_000_000n;
        const steps: [string, string, bigint][] = [['ts-order-service', 'Get Order By ID', 0n], ['ts-order-service', 'Query orders', 1200n],
          ['ts-db', 'SELECT done', (c === 'bad' ? 9000n : 2500n) + BigInt(k * 37)], ['ts-order-service', 'Get Order By ID Success', 300n + BigInt(k * 11)]];
        for (const [service, body, after] of steps) {
          us += after;
          lines.push(`E\t${us / 1_000_000n}.${String(us % 1_000_000n).padStart(6, '0')}\t${service}:${body}`);
          rows.string(c); rows.string(trace); rows.uint64(us * 1000n); rows.string(service); rows.string(body); rows.uint64(++seq);
        }
      }
      writeFileSync(join(dir, `${c}.dlog`), `${lines.join('\n')}\n`);
    }
    await sql(server.url, 'INSERT INTO otel_logs FORMAT RowBinary', rows.bytes());
    const file = await readClasses(join(dir, 'good.dlog'), join(dir, 'bad.dlog'), { jobs: 1 });
    const table = await readClasses("class = 'good'", "class = 'bad'", { clickhouse: { url: server.url, table: 'otel_logs', mapping: 'otel_logs', columns: 'order=seq' } });
    expect(featureDifference(file.features.features, table.features.features, 1e-6)).toBeNull();
    expect(table.features.features.instances.map((i) => i.kind)).toEqual(file.features.features.instances.map((i) => i.kind));
  });
});

describe('ClickHouse: bad input is one line, exit 2, naming what to fix', () => {
  const ch = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    run("class = 'good'", "class = 'bad'", '--no-color', '--clickhouse', server.url, ...args);
  const firstLine = (r: { stderr: string }): string => r.stderr.split('\n')[0] ?? '';

  it('an unknown table', async () => {
    const r = await ch('--table', 'nope');
    expect(r.code).toBe(2);
    expect(firstLine(r)).toMatch(/^distalyze: ClickHouse at http:\/\/127\.0\.0\.1:\d+\/default: Table default\.nope doesn't exist\.?$/);
  });

  it('a column the mapping names that the table lacks', async () => {
    const r = await ch('--table', 'records', '--columns', 'instance=run');
    expect(r.code).toBe(2);
    expect(firstLine(r)).toBe("distalyze: table records has no column 'run' (the mapping's instance)");
    expect(r.stderr).toContain('its columns: class, instance, time, seq, event, state, value');
  });

  it('a server that cannot be reached', async () => {
    const r = await run('a = 1', 'a = 2', '--clickhouse', 'http://127.0.0.1:9/default', '--table', 'records');
    expect(r.code).toBe(2);
    expect(firstLine(r)).toMatch(/^distalyze: ClickHouse at http:\/\/127\.0\.0\.1:9\/default cannot be reached \(ECONNREFUSED\)$/);
  });

  it('wrong credentials (from the environment), and none on the command line', async () => {
    const saved = { user: process.env.CLICKHOUSE_USER, password: process.env.CLICKHOUSE_PASSWORD };
    process.env.CLICKHOUSE_USER = 'distalyze';
    process.env.CLICKHOUSE_PASSWORD = 'wrong';
    try {
      const r = await ch('--table', 'records');
      expect(r.code).toBe(2);
      expect(firstLine(r)).toMatch(/^distalyze: ClickHouse at .* refused the login: .*(password|Authentication)/i);
      expect(r.stderr).toContain('hint: set CLICKHOUSE_USER and CLICKHOUSE_PASSWORD');
    } finally {
      if (saved.user === undefined) delete process.env.CLICKHOUSE_USER; else process.env.CLICKHOUSE_USER = saved.user;
      if (saved.password === undefined) delete process.env.CLICKHOUSE_PASSWORD; else process.env.CLICKHOUSE_PASSWORD = saved.password;
    }
    const inUrl = await run('a = 1', 'a = 2', '--clickhouse', server.url.replace('http://', 'http://me:secret@'), '--table', 'records');
    expect(inUrl.code).toBe(2);
    expect(firstLine(inUrl)).toBe('distalyze: --clickhouse: credentials do not belong on the command line');
  });

  it('a class window with no rows', async () => {
    const r = await run('2001-01-01T00:00/2001-01-02T00:00', "class = 'bad'", '--clickhouse', server.url, '--table', 'records', '--columns', 'order=seq');
    expect(r.code).toBe(2);
    expect(firstLine(r)).toBe('distalyze: good class: no rows of records match 2001-01-01T00:00/2001-01-02T00:00');
  });

  it('a class condition the table cannot evaluate', async () => {
    const r = await run('colour = 1', "class = 'bad'", '--clickhouse', server.url, '--table', 'records');
    expect(r.code).toBe(2);
    expect(firstLine(r)).toMatch(/^distalyze: ClickHouse at .*: Missing columns: 'colour'|Unknown identifier: colour/);
  });

  it('a time window selects the rows in it', async () => {
    // The pipeline fixture's good runs start at 1763596802 (2025-11-20T00:00:02Z) and its bad ones later.
    const all = await sql(server.url, "SELECT class, min(time), max(time) FROM records GROUP BY class ORDER BY class");
    const [bad, good] = all.trim().split('\n').map((l) => l.split('\t').map(Number));
    const iso = (t: number): string => new Date(t * 1000).toISOString();
    const window = (lo: number, hi: number): string => `${iso(Math.floor(lo))}/${iso(Math.ceil(hi) + 1)}`;
    const byWindow = await readClasses(window(good![1]!, good![2]!), window(bad![1]!, bad![2]!), { clickhouse: { url: server.url, table: 'records', columns: 'order=seq,kind=none' } });
    expect(byWindow.features.features.nGood).toBe(40);
    expect(byWindow.features.features.nBad).toBe(40);
  });
});
