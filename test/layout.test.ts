/**
 * Finding the message before mining it (src/parse/layout.ts, issue 53): one fixture per table layout, each with
 * its expected message column, entity, trace and time; a time or id column is never a measured value; the
 * TrainTicket export read with no translator gives the records the hand-written translator gives.
 */
import { describe, expect, it } from 'vitest';
import { listInputFiles } from '../src/parse/files.js';
import { describeTable, detectTable, readHead, RowReader, serviceOf, splitDelimited, type RowParts } from '../src/parse/layout.js';
import { firstLines } from '../src/parse/templates/raw.js';
import { rawLogTranslator } from '../src/parse/templates/index.js';
import { loadTranslator } from '../src/parse/translators/load.js';
import { InputError } from '../src/errors.js';
import { recordsByInstance } from './helpers/records.js';

const RAW = 'fixtures/raw';

async function layoutOf(path: string, overrides = {}): Promise<ReturnType<typeof detectTable>> {
  const [file] = await listInputFiles(path, 'good');
  return detectTable(file!.path, file!.relativePath, await firstLines(file!, 51), overrides);
}

const roles = (l: NonNullable<ReturnType<typeof detectTable>>): Record<string, string> => ({
  kind: l.kind,
  time: l.columns[l.time] ?? '',
  message: l.message < 0 ? l.rest.map((c) => l.columns[c]).join('+') : `${l.columns[l.message]}${l.messageField === '' ? '' : `.${l.messageField}`}`,
  entity: l.columns[l.entity] ?? '',
  trace: l.columns[l.trace] ?? '',
  level: l.columns[l.level] ?? '',
});

describe('table layouts: the roles of the columns', () => {
  it('CSV with a JSON cell (the Kubernetes export of TrainTicket): message = the Log cell\'s `log` field, entity PodName, trace TraceID', async () => {
    const l = (await layoutOf(`${RAW}/trainticket/good/log.csv`))!;
    // Node (IP addresses) is an entity too, but a pod names the component; Container (`server` on every row) varies not.
    expect(roles(l)).toEqual({ kind: 'csv', time: 'Timestamp', message: 'Log.log', entity: 'PodName', trace: 'TraceID', level: '' });
    expect(describeTable(l)).toBe('messages from column Log (JSON field log); time Timestamp; entity PodName; trace TraceID');
  });

  it('JSON Lines (structured logging): message msg, entity service (before pod), trace trace_id, level level', async () => {
    expect(roles((await layoutOf(`${RAW}/jsonl/good/app.jsonl`))!)).toEqual({ kind: 'jsonl', time: 'time', message: 'msg', entity: 'service', trace: 'trace_id', level: 'level' });
  });

  it('a structured event table with no message column: the columns left make the message', async () => {
    expect(roles((await layoutOf(`${RAW}/trace-csv/good/db.csv`))!)).toEqual({ kind: 'csv', time: 'timestamp_ms', message: 'span+phase+duration_ms', entity: 'service', trace: 'trace_id', level: '' });
  });

  it('Docker json-file lines: message log, time time, no entity', () => {
    const lines = [0, 1, 2].map((i) => JSON.stringify({ log: `GET /x ${i} 200\n`, stream: 'stdout', time: `2026-11-20T10:00:0${i}.5Z` }));
    expect(roles(detectTable('c.log', 'c.log', lines)!)).toEqual({ kind: 'jsonl', time: 'time', message: 'log', entity: '', trace: '', level: '' });
  });

  it('values decide without names: epoch numbers are time, hex ids are ids, the varied prose is the message, few words an entity', () => {
    const rows = ['a,b,c,d'];
    for (let i = 0; i < 12; i++) rows.push(`${1795168800123 + i * 7},${(0xabcdef0123 + i * 977).toString(16)},svc${'xyz'[i % 3]},user ${i} did thing number ${i * 3}`);
    expect(roles(detectTable('t.csv', 't.csv', rows)!)).toEqual({ kind: 'csv', time: 'a', message: 'd', entity: 'c', trace: '', level: '' });
  });

  it('a text log is no table', () => {
    expect(detectTable('x.log', 'x.log', ['2026-11-20 10:00:01,534 INFO  [main] Foo: started', '2026-11-20 10:00:02,534 INFO  [main] Foo: done'])).toBeNull();
    // A first line with commas is no header unless the rows have its width (a .csv name aside).
    expect(detectTable('x.log', 'x.log', ['Starting server, version 2, build 7', '2026-11-20 10:00:01,534 INFO  Foo: started'])).toBeNull();
    expect(detectTable('x.log', 'x.log', ['alpha,beta,gamma', '2026-11-20 10:00:01,534 INFO  Foo: started', '2026-11-20 10:00:02,534 INFO  Foo: done'])).toBeNull();
  });

  it('options name columns; a name that is no column is an InputError naming the option and the columns', async () => {
    expect(roles((await layoutOf(`${RAW}/trainticket/good/log.csv`, { entityColumn: 'Node', timeColumn: 'TimeUnixNano' }))!).entity).toBe('Node');
    expect(roles((await layoutOf(`${RAW}/trainticket/good/log.csv`, { timeColumn: 'TimeUnixNano' }))!).time).toBe('TimeUnixNano');
    await expect(layoutOf(`${RAW}/trainticket/good/log.csv`, { messageColumn: 'Body' })).rejects.toThrow(InputError);
    await expect(layoutOf(`${RAW}/trainticket/good/log.csv`, { messageColumn: 'Body' })).rejects.toThrow(/--message-column Body: no such column \(columns: Timestamp, TimeUnixNano/);
  });
});

describe('reading rows', () => {
  it('splits RFC 4180 fields; a quote that does not close is no row', () => {
    expect(splitDelimited('a,"b, c","say ""hi""",,"x"', 44)).toEqual(['a', 'b, c', 'say "hi"', '', 'x']);
    expect(splitDelimited('a,b,', 44)).toEqual(['a', 'b', '']);
    expect(splitDelimited('a\t"b\tc"', 9)).toEqual(['a', 'b\tc']);
    expect(splitDelimited('a,"b', 44)).toBeNull();
  });

  it('drops Kubernetes replica suffixes (Deployment hash and pod id, StatefulSet ordinal)', () => {
    expect(serviceOf('ts-basic-service-5dc8d4f9fd-46997')).toBe('ts-basic-service');
    expect(serviceOf('kafka-2')).toBe('kafka');
    expect(serviceOf('gateway')).toBe('gateway');
  });

  it('reads a leading time, level and code location off a message', () => {
    const head = { level: '', location: '' };
    expect(readHead('16:44:10.485 INFO  t.s.TravelServiceImpl#372 TraceID: ab [getTickets]', head)).toBe('INFO  t.s.TravelServiceImpl#372 TraceID: ab [getTickets]');
    expect(head).toEqual({ level: 'INFO', location: 't.s.TravelServiceImpl#372' });
    readHead('WARN [main] (Server.java:88) port in use', head);
    expect(head).toEqual({ level: 'WARN', location: 'Server.java:88' });
    readHead('connected to 10.0.0.1:5432', head);
    expect(head).toEqual({ level: '', location: '' });
  });

  it('a row of another width, or with quotes that do not close, cannot be read', async () => {
    const l = (await layoutOf(`${RAW}/trainticket/good/log.csv`))!;
    const out: RowParts = { t: 0, message: '', entity: '', trace: '', level: '', location: '' };
    expect(new RowReader(l).read('a,b,c', out)).toBe(false);
    expect(new RowReader(l).read('2023-01-29T08:48:42.4Z,1,n,p,c,t,s,"{', out)).toBe(false);
  });
});

describe('the TrainTicket export with no translator', () => {
  it('gives the records of the hand-written translator (service:Class#line per row, WARN/ERROR per service), instances by TraceID', async () => {
    for (const set of ['good', 'bad']) {
      const files = await listInputFiles(`${RAW}/trainticket/${set}`, 'good');
      const mined = await rawLogTranslator({ good: files, bad: [] });
      expect(mined).toBeDefined();
      const raw = await recordsByInstance(`${RAW}/trainticket/${set}`, { translator: mined! });
      const hand = await recordsByInstance(`${RAW}/trainticket/${set}`, { translator: await loadTranslator('examples/trainticket/trainticket.mjs') });
      const names = (r: typeof raw): Record<string, string[]> =>
        Object.fromEntries(Object.entries(r.byInstance).map(([id, recs]) => [id, recs.map((x) => x.split(' ').slice(2).join(' '))]));
      expect(names(raw)).toEqual(names(hand));
      // Times: the Timestamp column (ISO, ns) and TimeUnixNano give the same instants, to a microsecond.
      const times = (r: typeof raw): number[] => Object.values(r.byInstance).flat().map((x) => Number(x.split(' ')[1]));
      times(raw).forEach((t, i) => expect(Math.abs(t - (times(hand)[i] as number))).toBeLessThan(1e-6));
      expect(raw.stats.skippedLines).toBe(hand.stats.skippedLines);
    }
  });

  it('no column of times or ids is ever a measured state', async () => {
    const files = await listInputFiles(`${RAW}/trainticket/good`, 'good');
    const bad = await listInputFiles(`${RAW}/trainticket/bad`, 'bad');
    const raw = await recordsByInstance(`${RAW}/trainticket/bad`, { translator: (await rawLogTranslator({ good: files, bad }))! });
    expect(Object.values(raw.byInstance).flat().filter((r) => r.startsWith('S '))).toEqual([]);
  });
});

describe('a text header of its own: fields joined by `|`, times with one-digit fields (HealthApp\'s format)', () => {
  it('every line is timed, and the component and pid are header fields, not glued to the message nor mined', async () => {
    const { mineTemplates } = await import('../src/parse/templates/index.js');
    const model = await mineTemplates({ good: await listInputFiles(`${RAW}/pipes/good`, 'good'), bad: await listInputFiles(`${RAW}/pipes/bad`, 'bad') });
    expect(model.untimed).toBe(0);
    // The fields before the last bar (component, pid) are the header, the component its entity (issue 53).
    expect(Object.values(model.files).every((f) => f.format === 'yyyyMMdd-H:m:s:SSS' && f.pipes === 3 &&
      JSON.stringify(f.textHeader) === JSON.stringify({ slots: ['word', 'any'], entity: 0 }))).toBe(true);
    expect(model.templates.map((t) => t.name)).toEqual([
      'onStandStepChanged <*>',
      'flush sensor data',
      'flush done in <*> ms',
      'calculateCaloriesWithCache totalCalories=<*>',
    ]);
  });

  it('one-digit minutes and seconds parse (m, s read one or two digits)', async () => {
    const { makeTimeFormat } = await import('../src/parse/translators/time-formats.js');
    const f = makeTimeFormat('yyyyMMdd-H:m:s:SSS', { year: 2000 });
    expect(f.parse('20171223-22:16:0:150', 0)).toBe(Date.UTC(2017, 11, 23, 22, 16, 0, 150) / 1000);
    expect(f.parse('20171223-22:6:15:150', 0)).toBe(Date.UTC(2017, 11, 23, 22, 6, 15, 150) / 1000);
    // After a one-digit second, the next line's two-digit one is read whole (no cached prefix across widths).
    expect(f.parse('20171223-22:16:01:150', 0)).toBe(Date.UTC(2017, 11, 23, 22, 16, 1, 150) / 1000);
    expect(makeTimeFormat('HH:mm:ss', { year: 2000 }).parse('10:0:01', 0)).toBeNaN();
    // S after `:` counts milliseconds (SimpleDateFormat's S; HealthApp writes 11 ms as `:11`), after `.` it is a fraction.
    expect(f.parse('20171223-22:15:35:11', 0)).toBe(Date.UTC(2017, 11, 23, 22, 15, 35, 11) / 1000);
    expect(makeTimeFormat('HH:mm:ss.SSS', { year: 2000 }).parse('10:00:01.5', 0)).toBe(36001.5);
  });
});

describe('a text header with a pid and a tid after the time (logcat\'s format)', () => {
  it('the leading ids are left out of the message, and so are the level and tag (the header learned after them)', async () => {
    const { mineTemplates } = await import('../src/parse/templates/index.js');
    const model = await mineTemplates({ good: await listInputFiles(`${RAW}/pids/good`, 'good'), bad: await listInputFiles(`${RAW}/pids/bad`, 'bad') });
    expect(Object.values(model.files).every((f) => f.ids === 2 &&
      JSON.stringify(f.textHeader) === JSON.stringify({ slots: ['level', 'colon'], entity: 1 }))).toBe(true);
    expect(model.templates.map((t) => t.name)).toEqual([
      'relayout window <*> visible',
      'frame scheduled',
      'draw done in <*> ms',
      'slow operation took',
    ]);
  });
});

describe('the CLI: the roles in the summary line, options to name them', () => {
  it('says what it found; --entity-column and --time-column override it; a name that is no column exits 2 in one line', async () => {
    const { run } = await import('./helpers/run.js');
    const found = await run(`${RAW}/trainticket/good`, `${RAW}/trainticket/bad`, '--json', '/dev/null');
    expect(found.stderr.split('\n')[0]).toMatch(/^raw logs, no translator: messages from column Log \(JSON field log\); time Timestamp; entity PodName; trace TraceID; /);
    const named = await run(`${RAW}/trainticket/good`, `${RAW}/trainticket/bad`, '--entity-column', 'Node', '--time-column', 'TimeUnixNano', '--json', '/dev/null');
    expect(named.stderr.split('\n')[0]).toContain('time TimeUnixNano; entity Node; trace TraceID');
    const wrong = await run(`${RAW}/trainticket/good`, `${RAW}/trainticket/bad`, '--message-column', 'Body');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toContain('--message-column Body: no such column');
  });
});
