/**
 * logfmt and Go slog text lines read by their keys (src/parse/layout.ts, issue 53; docs/input.md, "logfmt"): the
 * keys' roles found as JSON Lines' fields' are, the message the `msg` value with the other pairs, the planted cause
 * of fixtures/raw/logfmt-plain (generate.mjs there: cart's `cart loaded` ~10x slower in bad) first, and a file that
 * is only partly logfmt giving a counted skip or a one-line error.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { listInputFiles } from '../src/parse/files.js';
import { logfmtPairs } from '../src/parse/fields.js';
import { describeTable, detectTable, RowReader, type RowParts } from '../src/parse/layout.js';
import { mineTemplates, templateTranslator } from '../src/parse/templates/index.js';
import { firstLines } from '../src/parse/templates/raw.js';
import { recordsByInstance } from './helpers/records.js';
import { run } from './helpers/run.js';

const SET = 'fixtures/raw/logfmt-plain';

const roles = (l: NonNullable<ReturnType<typeof detectTable>>): Record<string, string> => ({
  kind: l.kind,
  time: l.columns[l.time] ?? '',
  message: l.message < 0 ? '' : l.columns[l.message] as string,
  entity: l.columns[l.entity] ?? '',
  trace: l.columns[l.trace] ?? '',
  level: l.columns[l.level] ?? '',
});

async function classes(): Promise<{ good: Awaited<ReturnType<typeof listInputFiles>>; bad: Awaited<ReturnType<typeof listInputFiles>> }> {
  return { good: await listInputFiles(`${SET}/good`, 'good'), bad: await listInputFiles(`${SET}/bad`, 'bad') };
}

describe('logfmt pairs', () => {
  it('reads bare and quoted values (escapes undone), and no line with a bare word or an open quote', () => {
    const p = logfmtPairs('time=2026-12-07T10:00:00Z msg="card \\"42\\" declined\\nby bank" dur=12ms empty=');
    expect(p?.map((x) => [x.key, x.value])).toEqual([['time', '2026-12-07T10:00:00Z'], ['msg', 'card "42" declined\nby bank'], ['dur', '12ms'], ['empty', '']]);
    expect(logfmtPairs('2026-12-07T10:00:00Z app[web.1]: level=info msg="x"')).toBeNull();
    expect(logfmtPairs('level=info msg="cut off')).toBeNull();
    expect(logfmtPairs('level=info msg="a"b')).toBeNull();
  });
});

describe('logfmt layouts: the roles of the keys', () => {
  it('slog text (fixture): time time, message msg, entity service, trace trace_id, level level; the summary names keys', async () => {
    const [file] = await listInputFiles(`${SET}/good/app.log`, 'good');
    const l = detectTable(file!.path, file!.relativePath, await firstLines(file!, 51))!;
    expect(roles(l)).toEqual({ kind: 'logfmt', time: 'time', message: 'msg', entity: 'service', trace: 'trace_id', level: 'level' });
    expect(describeTable(l)).toBe('messages from key msg; time time; entity service; trace trace_id');
  });

  it('logrus, go-kit and Heroku spellings: a quoted time, ts/t, lvl, message, component', () => {
    const logrus = [0, 1, 2].map((i) => `time="2026-12-07T10:00:0${i}+01:00" level=warning msg="payment retried" component=payment attempt=${i}`);
    expect(roles(detectTable('a.log', 'a.log', logrus)!)).toEqual({ kind: 'logfmt', time: 'time', message: 'msg', entity: 'component', trace: '', level: 'level' });
    const gokit = [0, 1, 2].map((i) => `ts=2026-12-07T10:00:0${i}.5Z lvl=info service=api message="listening on port" port=808${i}`);
    expect(roles(detectTable('b.log', 'b.log', gokit)!)).toEqual({ kind: 'logfmt', time: 'ts', message: 'message', entity: 'service', trace: '', level: 'lvl' });
    const heroku = [0, 1, 2].map((i) => `t=2026-12-07T10:00:0${i}Z lvl=info app=shop msg=started`);
    expect(roles(detectTable('c.log', 'c.log', heroku)!)).toEqual({ kind: 'logfmt', time: 't', message: 'msg', entity: 'app', trace: '', level: 'lvl' });
  });

  it('a row: time from its key, the message the msg value then the pairs with no role as written, level and entity', () => {
    const lines = ['time=2026-12-07T10:00:00.123Z level=WARN msg="request done" service=cart path=/cart user="Ada Lovelace" dur=12ms trace_id=4bf92f3577b34da6a3ce929d0e0e4736'];
    const l = detectTable('x.log', 'x.log', lines)!;
    const row: RowParts = { t: NaN, message: '', entity: '', trace: '', level: '', location: '' };
    expect(new RowReader(l).read(lines[0]!, row)).toBe(true);
    // 2026-12-07T10:00:00.123Z: Date.UTC(2026, 11, 7, 10, 0, 0, 123) / 1000 = 1796637600.123.
    expect(row).toEqual({ t: 1796637600.123, message: 'request done path=/cart user="Ada Lovelace" dur=12ms', entity: 'cart', trace: '4bf92f3577b34da6a3ce929d0e0e4736', level: 'WARN', location: '' });
    // A key not in the sample has no role: it follows the message.
    expect(new RowReader(l).read('time=2026-12-07T10:00:01Z level=INFO msg=hi service=cart region=eu', row)).toBe(true);
    expect(row.message).toBe('hi region=eu');
  });

  it('options name keys; a name that is no key is an InputError listing the keys', () => {
    const lines = [0, 1, 2].map((i) => `time=2026-12-07T10:00:0${i}Z level=info msg="request done" route=/r${i} service=api`);
    expect(roles(detectTable('x.log', 'x.log', lines, { messageColumn: 'route', entityColumn: 'level' })!))
      .toEqual({ kind: 'logfmt', time: 'time', message: 'route', entity: 'level', trace: '', level: '' });
    expect(() => detectTable('x.log', 'x.log', lines, { entityColumn: 'pod' })).toThrow(InputError);
    expect(() => detectTable('x.log', 'x.log', lines, { entityColumn: 'pod' })).toThrow('--entity-column pod: no such key (keys: time, level, msg, route, service)');
  });
});

describe('mining plain logfmt (fixtures/raw/logfmt-plain)', () => {
  it('one template per msg and its keys, entities per service, WARN per service, the time key never a variable', async () => {
    const model = await mineTemplates(await classes(), { year: 2026 });
    expect(model.templates.map((t) => t.name).sort()).toEqual([
      'cache lookup key=<*> hit=false',
      'cache lookup key=<*> hit=true',
      'cart loaded items=<*> dur=<*>',
      'charge ok amount=<*> dur=<*>',
      'request done method=GET path=/cart status=<*> dur=<*>',
      // user= varies among words (ann, bob, "Ada Lovelace", …): the parameter keeps its key (drain.ts).
      'request received method=GET path=/cart user=<*>',
      'slow query err="context deadline exceeded" attempt=<*>',
    ]);
    // Keys with a role are not in the message: no template holds time, level, service or trace_id.
    for (const t of model.templates) expect(t.tokens.filter((x) => /^(?:time|level|service|trace_id)=/.test(x))).toEqual([]);
    const { byInstance } = await recordsByInstance(`${SET}/bad`, { translator: templateTranslator(model) });
    const records = Object.values(byInstance).flat();
    const events = new Set(records.filter((r) => r.startsWith('E ')).map((r) => r.split(' ').slice(2).join(' ')));
    expect([...events].filter((e) => e.endsWith(':WARN'))).toEqual(['cart:WARN']);
    expect(new Set([...events].map((e) => e.split(':')[0]))).toEqual(new Set(['gateway', 'cart', 'payment']));
    // The states are the numbers of the pairs (items, dur, amount, status when it varies), never a time: each
    // state's values are those of the file's lines (bad's first `cart loaded` line, read by hand: dur=264.7ms).
    const states = new Set(records.filter((r) => r.startsWith('S ')).map((r) => r.split(' ').slice(2, -1).join(' ')));
    expect([...states].sort()).toEqual([
      'cart:cart loaded items=<*> dur=<*> #1', 'cart:cart loaded items=<*> dur=<*> #2',
      'gateway:request done method=GET path=/cart status=<*> dur=<*> #2',
      'payment:charge ok amount=<*> dur=<*> #1', 'payment:charge ok amount=<*> dur=<*> #2',
    ]);
    const first = readFileSync(`${SET}/bad/app.log`, 'utf8').split('\n').find((l) => l.includes('msg="cart loaded"'))!;
    const trace = /trace_id=(\w+)/.exec(first)![1]!;
    expect(first).toContain('dur=264.7ms');
    expect(byInstance[trace]!.filter((r) => r.includes('cart loaded items=<*> dur=<*> #2')).map((r) => Number(r.split(' ').at(-1)))).toEqual([0.2647]); // in seconds
    expect(Object.keys(byInstance)).toHaveLength(30);
  });

  it('the CLI: the summary line says what was found, and the planted cause comes first', async () => {
    const r = await run(`${SET}/good`, `${SET}/bad`, '--json', '-', '--year', '2026');
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toMatch(/^raw logs, no translator: messages from key msg; time time; entity service; trace trace_id; 7 templates mined from 312 lines; instances by trace_id; /);
    const json = JSON.parse(r.stdout) as { verdict: { causes: Array<{ variable: string }> } };
    expect(json.verdict.causes[0]?.variable).toBe('cart:cart loaded items=<*> dur=<*> #2');
  });
});

describe('a key of code locations names the statement; the pairs are mined under it (go-kit caller=; fixtures/raw/logfmt-gokit)', () => {
  const GOKIT = 'fixtures/raw/logfmt-gokit';

  it('the key whose every sampled value is a code location is the statement, by its values, not its name', () => {
    const gokit = [0, 1, 2].map((i) => `ts=2026-12-07T10:00:0${i}Z caller=head.go:129${i} level=info msg="Head GC completed"`);
    expect(describeTable(detectTable('a.log', 'a.log', gokit)!)).toBe('messages from key msg; time ts; no entity; statement caller');
    // slog's AddSource writes the file's path; the pair is not in the message.
    const slog = [0, 1, 2].map((i) => `time=2026-12-07T10:00:0${i}Z level=INFO source=/src/app/cart/cart.go:8${i} msg="cart loaded" service=cart`);
    const l = detectTable('b.log', 'b.log', slog)!;
    expect(describeTable(l)).toBe('messages from key msg; time time; entity service; statement source');
    const row: RowParts = { t: NaN, message: '', entity: '', trace: '', level: '', location: '' };
    expect(new RowReader(l).read(slog[1]!, row)).toBe(true);
    expect([row.location, row.message]).toEqual(['/src/app/cart/cart.go:81', 'cart loaded']);
    // A host and port, a key that is a location on some lines only, or missing on one: no statement.
    const addr = [0, 1, 2].map((i) => `ts=2026-12-07T10:00:0${i}Z addr=localhost:808${i} at=${i === 1 ? 'later' : 'cart.go:1'} msg=listening`);
    expect(detectTable('c.log', 'c.log', addr)!.statement).toBeUndefined();
    const missing = [0, 1, 2].map((i) => `ts=2026-12-07T10:00:0${i}Z ${i === 1 ? '' : 'caller=db.go:12 '}msg=listening`);
    expect(detectTable('d.log', 'd.log', missing)!.statement).toBeUndefined();
  });

  it('two statements writing one message are two events; their duration= stays a state; the planted one comes first', async () => {
    const model = await mineTemplates({ good: await listInputFiles(`${GOKIT}/good`, 'good'), bad: await listInputFiles(`${GOKIT}/bad`, 'bad') }, { year: 2026 });
    // Mined from the message and its pairs (no caller= token: masked, it merged statements); the states are the
    // pairs' numbers (from_segment, to_segment, first and last are counters: numbers too).
    expect(model.templates.map((t) => [t.name, t.states.filter((x) => x !== '').length]).sort()).toEqual([
      ['Append failed scrape_pool=node target=<*> err="out of bounds"', 0],
      ['Creating checkpoint from_segment=<*> to_segment=<*>', 2],
      ['Deleting obsolete block block=<*>', 0],
      ['Head GC completed duration=<*>', 1],
      ['WAL checkpoint complete first=<*> last=<*> duration=<*>', 3],
      // (Go's compound durations, `58.25s` and `1m3.5s`: a state, read in seconds; count=3 never changes.)
      ['compact blocks count=<*> duration=<*>', 1],
      ['write block ulid=<*> duration=<*>', 1],
    ]);
    const { byInstance } = await recordsByInstance(`${GOKIT}/bad/prometheus-0.log`, { translator: templateTranslator(model) });
    const records = Object.values(byInstance).flat();
    const events = new Set(records.filter((r) => r.startsWith('E ')).map((r) => r.split(' ').slice(2).join(' ')));
    expect(events).toContain('tsdb:head.go:1290 Head GC completed duration=<*>');
    expect(events).toContain('tsdb:head.go:1456 Head GC completed duration=<*>');
    expect(events).toContain('scrape manager:scrape.go:1351 Append failed scrape_pool=node target=<*> err="out of bounds"');
    // The first line of each statement, read by hand from bad/prometheus-0.log, in seconds (Go's Duration.String):
    // duration=1.774974444s, 430.572µs and 1m4.139446029s.
    const first = (name: string): number => Number(records.find((r) => r.startsWith('S ') && r.includes(name))!.split(' ').at(-1));
    expect(first('tsdb:head.go:1290 Head GC completed duration=<*> #1')).toBe(1.774974444);
    expect(first('tsdb:head.go:1456 Head GC completed duration=<*> #1')).toBe(0.000430572);
    expect(first('tsdb:compact.go:687 compact blocks count=<*> duration=<*> #2')).toBe(60 + 4.139446029);
    const r = await run(`${GOKIT}/good`, `${GOKIT}/bad`, '--json', '-', '--year', '2026');
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toMatch(/^raw logs, no translator: messages from key msg; time ts; entity component; statement caller; 7 templates mined from 948 lines; /);
    // generate.mjs: in bad, head.go:1290's Head GC takes 1.1–2.5 s, in good 0.3–0.9 s (`850ms` against `1.2s`: read
    // as written, the slowdown was a speed-up); head.go:1456's, the same message, does not change.
    const json = JSON.parse(r.stdout) as { verdict: { causes: Array<{ variable: string; meanGood: number; meanBad: number }> } };
    const top = json.verdict.causes[0]!;
    expect(top.variable).toBe('tsdb:head.go:1290 Head GC completed duration=<*> #1');
    expect(top.meanGood).toBeGreaterThan(0.3);
    expect(top.meanGood).toBeLessThan(0.9);
    expect(top.meanBad).toBeGreaterThan(1.1);
    expect(top.meanBad).toBeLessThan(2.5);
    expect(json.verdict.causes.map((c) => c.variable).filter((v) => v.includes('head.go:1456'))).toEqual([]);
  });
});

describe('a file that is partly logfmt', () => {
  const dir = mkdtempSync(join(tmpdir(), 'distalyze-logfmt-'));
  const write = (name: string, lines: string[]): string => {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, 'a.log'), `${lines.join('\n')}\n`);
    return join(dir, name);
  };
  const pairs = (i: number): string => `time=2026-12-07T10:00:${String(10 + i).padStart(2, '0')}.000Z level=INFO msg=tick n=${i}`;

  it('two lines in three logfmt: read as logfmt, the others counted as rows that cannot be read', async () => {
    const path = write('most', Array.from({ length: 30 }, (_, i) => (i % 3 === 2 ? `plain text line ${i} with no pairs` : pairs(i))));
    const model = await mineTemplates({ good: await listInputFiles(path, 'good'), bad: [] }, { year: 2026 });
    expect(model.templates.map((t) => t.name)).toEqual(['tick n=<*>']);
    expect(model.untimed).toBe(10);
  });

  it('one line in three logfmt: a one-line error naming the file (and a hint), no stack', async () => {
    const path = write('few', Array.from({ length: 30 }, (_, i) => (i % 3 === 2 ? pairs(i) : `plain text line ${i} with no pairs`)));
    const r = await run(path, path);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^distalyze: .*few\/a\.log: no timestamp format found in the first 30 lines/);
    expect(lines.slice(1).every((l) => l.startsWith('  hint: '))).toBe(true);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('logfmt with no key of times: a one-line error naming the file and the keys', async () => {
    const path = write('untimed', [1, 2, 3].map((i) => `level=info msg=tick n=${i}`));
    const r = await run(path, path);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')[0]).toMatch(/^distalyze: .*untimed\/a\.log: no key of times found among level, msg, n$/);
  });
});
