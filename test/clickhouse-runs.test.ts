/**
 * `check` and `history` from a ClickHouse table (src/clickhouse/runs.ts) against the same runs read from files, on
 * a real server (scripts/clickhouse-server.mjs starts it; without it these tests fail saying how to install it):
 * the 30 nightly runs of fixtures/history, one row a record, each run named by the `run` column.
 */
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureDifference, jsonDifference, loadDlog, loadRuns, requireServer, sql, startServer } from './helpers/clickhouse.js';
import { FIXTURES } from './helpers/synth.js';
import { readRuns } from '../src/read/runs.js';
import { readClickHouseRuns } from '../src/clickhouse/runs.js';
import { ROOT, run } from './helpers/run.js';

const NIGHTLY = join(ROOT, 'fixtures', 'history', 'nightly');
const night = (d: number): string => `2026-11-${String(d).padStart(2, '0')}`;
/** The fixture's records are whole files (no `I` records): instances without a kind, ties in time by line. */
const COLUMNS = 'run=run,order=seq,kind=none';

let server: { url: string; stop(): Promise<void> };
let baseline = '';

beforeAll(async () => {
  requireServer();
  server = await startServer();
  await loadRuns(server.url, 'nightly', NIGHTLY);
  // The pipeline fixture (events repeated within an instance, states that change): two runs, named as the classes.
  await loadDlog(server.url, 'pipeline', { good: FIXTURES.pipelineGood, bad: FIXTURES.pipelineBad });
  // The file path's baseline: nights 1–18 in one directory of runs (links, as a CI job keeps them).
  baseline = join(mkdtempSync(join(tmpdir(), 'distalyze-ch-runs-')), 'baseline');
  mkdirSync(baseline);
  for (let d = 1; d <= 18; d++) symlinkSync(join(NIGHTLY, night(d)), join(baseline, night(d)));
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const table = (...args: string[]): string[] => ['--clickhouse', server.url, '--table', 'nightly', '--columns', COLUMNS, ...args];

describe('runs from ClickHouse (src/clickhouse/runs.ts)', () => {
  it('give every feature of every instance as the same runs read from files (to 1e-9), named run/instance', async () => {
    const files = await readRuns([{ name: 'good', path: FIXTURES.pipelineGood, className: 'good' }, { name: 'bad', path: FIXTURES.pipelineBad, className: 'bad' }],
      { weight: { mode: 'none' }, strict: false });
    const table = await readClickHouseRuns('check', { url: server.url, table: 'pipeline', columns: 'run=class,order=seq,kind=none' },
      [{ className: 'good', label: 'baseline', specs: ["class = 'good'"] }, { className: 'bad', label: 'new run', specs: ["class = 'bad'"] }], { weight: { mode: 'none' } });
    expect(featureDifference(files.features.features, table.features.features)).toBeNull();
    expect(table.features.features.instances.map((i) => i.id)).toEqual(files.features.features.instances.map((i) => i.id));
    expect(table.features.features.instances[0]!.id).toMatch(/^good\//);
    expect(Array.from(table.runOf)).toEqual(Array.from(files.runOf));
    expect(table.runs.map((r) => `${r.name} ${r.className}`)).toEqual(['good good', 'bad bad']);
  });
});

describe('check from ClickHouse: BASELINE and NEW are selections of rows, the runs those of the run column', () => {
  it('gives the verdict and the JSON of the same runs read from files (to 1e-9), failing the regressed night', async () => {
    for (const d of [19, 20]) {
      const files = await run('check', baseline, join(NIGHTLY, night(d)), '--json', '-', '-q');
      const rows = await run('check', ...table(`run < '${night(19)}'`, `run = '${night(d)}'`, '--json', '-', '-q'));
      expect(rows.stderr).toBe('');
      expect(rows.code).toBe(files.code);
      expect(rows.code).toBe(d === 20 ? 1 : 0);
      // The new run is named by its argument in files (a path), by the run column in a table.
      const fileJson = JSON.parse(files.stdout.replaceAll(join(NIGHTLY, night(d)), night(d))) as unknown;
      expect(jsonDifference(fileJson, JSON.parse(rows.stdout))).toBeNull();
    }
  });

  it('several NEW selections: their runs together, as several run arguments', async () => {
    const files = await run('check', baseline, join(NIGHTLY, night(19)), join(NIGHTLY, night(20)), '--json', '-', '-q');
    const rows = await run('check', ...table(`run < '${night(19)}'`, `run = '${night(19)}'`, `run = '${night(20)}'`, '--json', '-', '-q'));
    expect(rows.code).toBe(files.code);
    const named = files.stdout.replaceAll(join(NIGHTLY, night(19)), night(19)).replaceAll(join(NIGHTLY, night(20)), night(20));
    const doc = JSON.parse(rows.stdout) as { new: { runs: string[] } };
    expect(doc.new.runs).toEqual([night(19), night(20)]);
    expect(jsonDifference(JSON.parse(named), doc)).toBeNull();
  });

  it('the text report names the same cause, and the same gate line', async () => {
    const files = await run('check', baseline, join(NIGHTLY, night(20)), '-q');
    const rows = await run('check', ...table(`run < '${night(19)}'`, `run = '${night(20)}'`, '-q'));
    expect(rows.code).toBe(1);
    expect(rows.stdout).toBe(files.stdout);
    expect(rows.stdout).toContain('top cause: load_done (event gap 0.9945 → 1.759 s');
  });

  it('takes time windows as selections too', async () => {
    // Night d starts at 2026-11-dTday 00:01 UTC (epoch 1793491260 + 86 400 (d − 1)).
    const rows = await run('check', ...table('2026-11-01/2026-11-19', '2026-11-20/2026-11-21', '--json', '-', '-q'));
    expect(rows.code).toBe(1);
    const doc = JSON.parse(rows.stdout) as { baseline: { runs: string[] }; new: { runs: string[] } };
    expect(doc.baseline.runs).toEqual(Array.from({ length: 18 }, (_, i) => night(i + 1)));
    expect(doc.new.runs).toEqual([night(20)]);
  });
});

describe('history from ClickHouse: the runs of one selection, in time order', () => {
  it('gives the JSON of the same runs read from files (to 1e-9): the variance change at 12 and the regression at 20', async () => {
    const files = await run('history', NIGHTLY, '--json', '-', '-q');
    const rows = await run('history', ...table('2026-11-01/2026-12-01', '--json', '-', '-q'));
    expect(rows.code).toBe(0);
    expect(rows.stderr).toBe('');
    const doc = JSON.parse(rows.stdout) as { events: { runName: string }[] };
    expect(doc.events.map((e) => e.runName)).toEqual(['2026-11-12', '2026-11-20']);
    expect(jsonDifference(JSON.parse(files.stdout), doc)).toBeNull();
  });

  it('orders the runs by their first record, not by name (the run column may be an expression)', async () => {
    // Names that sort against time: night d is `b${99 − d}`.
    const r = await run('history', '--clickhouse', server.url, '--table', 'nightly', '--columns', "run=concat('b', toString(99 - toDayOfMonth(toDateTime(toUInt32(time))))),order=seq,kind=none",
      "run >= '2026-11-01'", '--json', '-', '-q');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { runs: { name: string }[]; events: { runName: string }[] };
    expect(doc.runs.map((x) => x.name)).toEqual(Array.from({ length: 30 }, (_, i) => `b${98 - i}`));
    expect(doc.events.map((e) => e.runName)).toEqual(['b87', 'b79']);
  });
});

describe('check and history from ClickHouse: bad input is one line, exit 2, naming what to fix', () => {
  const firstLine = (r: { stderr: string }): string => r.stderr.split('\n')[0] ?? '';

  it('no run column in the mapping', async () => {
    const r = await run('check', '--clickhouse', server.url, '--table', 'nightly', "run < '2026-11-19'", "run = '2026-11-20'");
    expect(r.code).toBe(2);
    expect(firstLine(r)).toBe('distalyze: check with --clickhouse needs the column naming each run: --columns run=COLUMN');
  });

  it('a run column the table lacks', async () => {
    const r = await run('history', '--clickhouse', server.url, '--table', 'nightly', '--columns', 'run=build', 'time > 0');
    expect(r.code).toBe(2);
    expect(firstLine(r)).toBe("distalyze: table nightly has no column 'build' (the mapping's run)");
    expect(r.stderr).toContain('its columns: run, instance, time, seq, event, state, value');
  });

  it('an empty window', async () => {
    const r = await run('check', ...table('2001-01-01/2001-01-02', `run = '${night(20)}'`));
    expect(r.code).toBe(2);
    expect(firstLine(r)).toBe('distalyze: check: no rows of nightly match the baseline 2001-01-01/2001-01-02');
    const h = await run('history', ...table('2001-01-01/2001-01-02'));
    expect(firstLine(h)).toBe('distalyze: history: no rows of nightly match the selection 2001-01-01/2001-01-02');
  });

  it('a run in both the baseline and the new runs', async () => {
    const r = await run('check', ...table(`run <= '${night(19)}'`, `run >= '${night(19)}' AND run <= '${night(20)}'`));
    expect(r.code).toBe(2);
    expect(firstLine(r)).toBe("distalyze: check: run '2026-11-19' has rows in the baseline and in the new run: each run belongs to one");
  });

  it('too few baseline runs, too few runs for a history, and more than one selection for a history', async () => {
    const c = await run('check', ...table(`run < '${night(3)}'`, `run = '${night(20)}'`));
    expect(firstLine(c)).toBe(`distalyze: check: the baseline 'run < '${night(3)}'' holds 2 runs; at least 3 are needed for a distribution`);
    const h = await run('history', ...table(`run < '${night(5)}'`));
    expect(h.stderr).toBe('distalyze: history needs at least 6 runs (--min-segment 3 on each side of a change); got 4\n');
    const two = await run('history', ...table('1 = 1', '2 = 2'));
    expect(firstLine(two)).toBe('distalyze: history with --clickhouse takes one selection (a time window START/END or an SQL condition), its runs in time order; got 2');
  });

  it('a server that is down', async () => {
    const r = await run('history', '--clickhouse', 'http://127.0.0.1:9/default', '--table', 'nightly', '--columns', COLUMNS, 'time > 0');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('distalyze: ClickHouse at http://127.0.0.1:9/default cannot be reached (ECONNREFUSED)\n  hint: check --clickhouse URL (the HTTP port, 8123 by default) and that the server runs\n');
  });

  it('an unknown column in a condition (ClickHouse 18.16\'s words)', async () => {
    const r = await run('check', ...table('colour = 1', `run = '${night(20)}'`));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`distalyze: ClickHouse at ${server.url}/default: Unknown identifier: colour\n  hint: check the conditions given (classes, selections) and --columns\n`);
  });

  it('an HTTP server that is not ClickHouse\'s interface (another port, a proxy)', async () => {
    // One answers 404 with nothing (as a proxy may), one 200 with a web page.
    for (const [status, body, said] of [[404, '', 'an empty error response'], [200, '<html>hello</html>', 'DESCRIBE TABLE gave no row']] as const) {
      const web = createServer((_req, res) => { res.writeHead(status, { 'content-type': 'text/html' }); res.end(body); });
      await new Promise<void>((done) => web.listen(0, '127.0.0.1', done));
      const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
      try {
        const r = await run('history', '--clickhouse', url, '--table', 'nightly', '--columns', COLUMNS, 'time > 0');
        expect(r.code).toBe(2);
        expect(r.stderr.split('\n')[0]).toBe(`distalyze: ClickHouse at ${url}/default: the answer is not ClickHouse's (${said})`);
        expect(r.stderr).toContain('hint: check --clickhouse URL: the HTTP interface of a ClickHouse server (port 8123 by default)');
      } finally {
        await new Promise((done) => web.close(done));
      }
    }
  });

  it('a wrong password (from the environment), and none in the URL', async () => {
    const saved = { user: process.env.CLICKHOUSE_USER, password: process.env.CLICKHOUSE_PASSWORD };
    process.env.CLICKHOUSE_USER = 'distalyze';
    process.env.CLICKHOUSE_PASSWORD = 'wrong';
    try {
      const r = await run('check', ...table(`run < '${night(19)}'`, `run = '${night(20)}'`));
      expect(r.code).toBe(2);
      // (ClickHouse 18.16's words.)
      expect(r.stderr).toBe(`distalyze: ClickHouse at ${server.url}/default refused the login: Wrong password for user distalyze\n  hint: set CLICKHOUSE_USER and CLICKHOUSE_PASSWORD\n`);
    } finally {
      if (saved.user === undefined) delete process.env.CLICKHOUSE_USER; else process.env.CLICKHOUSE_USER = saved.user;
      if (saved.password === undefined) delete process.env.CLICKHOUSE_PASSWORD; else process.env.CLICKHOUSE_PASSWORD = saved.password;
    }
    const inUrl = await run('history', '--clickhouse', server.url.replace('http://', 'http://me:secret@'), '--table', 'nightly', '--columns', COLUMNS, 'time > 0');
    expect(inUrl.code).toBe(2);
    expect(firstLine(inUrl)).toBe('distalyze: --clickhouse: credentials do not belong on the command line');
  });

  it('file-only options are refused beside --clickhouse, and --table without it', async () => {
    const r = await run('check', ...table('--translator', 'x.yaml', "run < '2026-11-19'", "run = '2026-11-20'"));
    expect(firstLine(r)).toBe('distalyze: --translator reads files; with --clickhouse the table\'s columns are mapped by --mapping and --columns');
    const t = await run('history', '--table', 'nightly', NIGHTLY);
    expect(firstLine(t)).toBe('distalyze: --table is for logs in ClickHouse: give --clickhouse URL too');
  });

  it('the table has the rows the tests expect', async () => {
    expect((await sql(server.url, 'SELECT count(DISTINCT run), count(DISTINCT instance) FROM nightly')).trim()).toBe('30\t6');
  });
});
