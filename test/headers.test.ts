/**
 * Text headers learned per file (issue 53): one hand-written log per header family in fixtures/raw/headers/. For
 * each, the header found after the timestamp, the messages mined (the header left out), the entity each line's
 * events are named by, which lines share a template (written by hand below, from reading the lines), and that
 * the rules file `templates -o` writes gives every line the records the miner gives.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listInputFiles } from '../src/parse/files.js';
import { headerFields, learnTextHeader, levelOf, readTextHeader, type HeaderParts } from '../src/parse/templates/header.js';
import { lineTemplates, mineTemplates, templateTranslator } from '../src/parse/templates/index.js';
import { rulesYaml } from '../src/parse/templates/rules.js';
import { loadTranslator } from '../src/parse/translators/load.js';
import { recordsByInstance } from './helpers/records.js';
import { run } from './helpers/run.js';

const DIR = 'fixtures/raw/headers';

interface Family {
  readonly file: string;
  readonly slots: readonly string[];
  readonly entity: number;
  /** Template names, in order of first occurrence. */
  readonly messages: readonly string[];
  /** Per line, a label of its true group (lines with one label are one statement). */
  readonly groups: string;
  /** Event names of some lines (1-based line number → name). */
  readonly events: Readonly<Record<number, readonly string[]>>;
}

const FAMILIES: Record<string, Family> = {
  syslog: {
    file: 'syslog.log', slots: ['untilColon'], entity: 0,
    messages: ['job <*> started', 'session opened for uid <*>', 'job <*> finished in <*> s', 'session closed for uid <*>', 'clock step <*> s'],
    groups: 'abbcdebadc',
    // The program without its pid; a name of two fields kept whole.
    events: { 2: ['sshd:session opened for uid <*>'], 6: ['ntpd 4.2.8:clock step <*> s'] },
  },
  'log4j/logback': {
    file: 'logback.log', slots: ['any', 'level', 'word', 'dash'], entity: 2,
    messages: ['order <*> placed by customer <*>', 'sync <*> done', 'retry <*> of <*>'],
    // A thread with spaces (`[pool 2 worker 1]`) and the WARN and ERROR lines of one statement: no split.
    groups: 'aabcabca',
    events: { 1: ['OrderService:order <*> placed by customer <*>'], 4: ['PaymentClient:retry <*> of <*>', 'PaymentClient:WARN'], 7: ['PaymentClient:retry <*> of <*>', 'PaymentClient:ERROR'] },
  },
  'klog/glog': {
    file: 'klog.log', slots: ['level', 'any', 'close'], entity: -1,
    messages: ['Syncing deployment <*>', 'watch of pods ended with: too old resource version <*>', 'Finished syncing deployment <*> in <*>', 'error retrieving resource lock: timeout'],
    groups: 'aabcdcab',
    events: { 1: ['Syncing deployment <*>'], 3: ['watch of pods ended with: too old resource version <*>', 'WARN'] },
  },
  'Apache error log': {
    file: 'apache.log', slots: ['level'], entity: -1,
    messages: ['<*> configured -- resuming normal operations', '[client <*>] File does not exist: <*>', 'child pid <*> exit signal Segmentation fault (<*>)', 'RSA server certificate CommonName does not match server name'],
    groups: 'abcbcdbc',
    events: { 2: ['[client <*>] File does not exist: <*>', 'ERROR'], 3: ['child pid <*> exit signal Segmentation fault (<*>)'] },
  },
  'Python logging': {
    file: 'python.log', slots: ['any', 'word', 'any', 'level', 'dash'], entity: 1,
    messages: ['query <*> took <*> ms', 'GET <*> -> <*>', 'miss for key <*>'],
    groups: 'ababcabc',
    events: { 1: ['shop.db:query <*> took <*> ms'], 3: ['shop.db:query <*> took <*> ms', 'shop.db:WARN'], 7: ['shop.api:GET <*> -> <*>', 'shop.api:ERROR'] },
  },
  '|-separated': {
    file: 'pipes.log', slots: ['word', 'any'], entity: 0,
    messages: ['upload batch <*> ok', 'steps now <*>', 'upload batch <*> failed after <*> tries', 'level <*> percent'],
    groups: 'aabcbdba',
    events: { 1: ['Sync_Worker:upload batch <*> ok'], 6: ['Battery_Mon:level <*> percent'] },
  },
  'Android logcat': {
    file: 'logcat.log', slots: ['level', 'colon'], entity: 1,
    messages: ['relayout window <*> visible', 'skipped <*> frames', 'slow operation took <*> ms'],
    groups: 'abcabca',
    events: { 3: ['ActivityManager:slow operation took <*> ms', 'ActivityManager:WARN'], 6: ['ActivityManager:slow operation took <*> ms', 'ActivityManager:ERROR'] },
  },
  'program - message': {
    file: 'proxy.log', slots: ['untilDash'], entity: 0,
    messages: ['<*> open through proxy <*> HTTPS', '<*> close, <*> bytes sent, <*> bytes received, lifetime <*>'],
    // `firefox.exe` and `firefox.exe *64` write one statement: one template, two entities.
    groups: 'aabbaba',
    events: { 1: ['firefox.exe:<*> open through proxy <*> HTTPS'], 2: ['firefox.exe *64:<*> open through proxy <*> HTTPS'] },
  },
  'fields before a time in mid-line': {
    // Sequence number, host, component and state before an epoch time (the shape of HPC's logs): all header.
    file: 'midtime.log', slots: ['any', 'any', 'word', 'any'], entity: 2,
    messages: ['job <*> queued for batch', 'reallocated sectors <*> on disk <*>', 'job <*> done in <*> s', 'fan <*> below <*> rpm'],
    groups: 'aabcbacd',
    // The component names the entity, not the host (`rack-12`: a number) nor the state (more values).
    events: { 1: ['scheduler:job <*> queued for batch'], 3: ['disk:reallocated sectors <*> on disk <*>'], 8: ['fan:fan <*> below <*> rpm'] },
  },
  'access log: client, ident and user before the time': {
    // No level and no program: the three fields before `[time]` are the header, so a request with a user name
    // (`frank`) is not a template of its own (4 templates before, split by the user and the path). The request line
    // names its endpoint (request-line.ts): one template per endpoint, whatever the status.
    file: 'access.log', slots: ['any', 'any', 'any'], entity: -1,
    messages: ['"GET /index.html HTTP/<*>" <*> <*>', '"GET /a.png HTTP/<*>" <*> <*>', '"POST /api/order HTTP/<*>" <*> <*>', '"GET /b.png HTTP/<*>" <*> <*>'],
    groups: 'abcadc',
    events: { 2: ['"GET /a.png HTTP/<*>" <*> <*>'] },
  },
  'a component padded to a column after the level': {
    // The shape of Windows CBS logs: `time, Level<padding>COMPONENT<padding>message`.
    file: 'cbs.log', slots: ['any', 'level', 'word'], entity: 2,
    messages: ['Service host started with <*> workers', 'Listening on port <*>', 'Worker <*> restarted after <*> failures', 'Bind failed on port <*>'],
    groups: 'abcbadcd',
    events: { 1: ['SVC:Service host started with <*> workers'], 3: ['SVC:Worker <*> restarted after <*> failures', 'SVC:WARN'], 6: ['NET:Bind failed on port <*>', 'NET:ERROR'] },
  },
  'Spring Boot (before 3.2)': {
    // `%5p ${PID} --- [%15.15t] %-40.40logger{39} : %m`: the `---` separator holds no letter (no entity), the
    // logger closed by a lone `:` is the entity (cut to its class), and the colon ends the header.
    file: 'spring.log', slots: ['level', 'any', 'any', 'bracket', 'word', 'colonMark'], entity: 4,
    messages: ['Tomcat started on port(s): <*> (http)', 'cart <*> updated', 'charge ok in <*> ms for order <*>', 'charge retry <*> for order <*>'],
    groups: 'abcdbcdb',
    events: { 1: ['TomcatWebServer:Tomcat started on port(s): <*> (http)'], 3: ['PaymentService:charge ok in <*> ms for order <*>'],
      4: ['PaymentService:charge retry <*> for order <*>', 'PaymentService:WARN'], 7: ['PaymentService:charge retry <*> for order <*>', 'PaymentService:ERROR'] },
  },
  'Spring Boot 3.2+': {
    // `… --- [app] [thread] logger : %m`: two bracket groups.
    file: 'spring3.log', slots: ['level', 'any', 'any', 'bracket', 'bracket', 'word', 'colonMark'], entity: 5,
    messages: ['Tomcat started on port(s): <*> (http)', 'cart <*> updated', 'charge ok in <*> ms for order <*>', 'charge retry <*> for order <*>'],
    groups: 'abcdbcdb',
    events: { 2: ['CartController:cart <*> updated'], 6: ['PaymentService:charge ok in <*> ms for order <*>'],
      7: ['PaymentService:charge retry <*> for order <*>', 'PaymentService:ERROR'] },
  },
  'Ruby\'s Logger (Rails), no progname': {
    // `%s, [%s #%d] %5s -- %s: %s` with an empty progname: the `--` separator holds no letter, and the lone `:`
    // after it ends the header (no entity). Rails' request tag `[9f1c2a]` stays the message's.
    file: 'ruby.log', slots: ['any', 'any', 'level', 'any', 'colonMark'], entity: -1,
    messages: ['[<*>] Started GET "<*>" for <*>', '[<*>] Completed <*> OK in <*>', '[<*>] Cache miss for cart <*>'],
    groups: 'abacbacb',
    events: { 2: ['[<*>] Completed <*> OK in <*>'], 4: ['[<*>] Cache miss for cart <*>', 'WARN'], 7: ['[<*>] Cache miss for cart <*>', 'ERROR'] },
  },
  'Ruby\'s Logger with a progname': {
    // `-- Billing: msg`: the separator, then the progname closed by `:` names the entity.
    file: 'ruby-progname.log', slots: ['any', 'any', 'level', 'any', 'colon'], entity: 4,
    messages: ['charge ok in <*> ms for order <*>', 'cart <*> updated', 'cache miss for cart <*>'],
    groups: 'abacbacb',
    events: { 1: ['Billing:charge ok in <*> ms for order <*>'], 4: ['Carts:cache miss for cart <*>', 'Carts:WARN'], 7: ['Carts:cache miss for cart <*>', 'Carts:ERROR'] },
  },
  'PostgreSQL (log_line_prefix \'%m [%p] \')': {
    // `time zone [pid] LEVEL:  message`: the level in capitals closed by `:` ends the header, an error's
    // `STATEMENT:` line too; the statement's text stays the message (one template per query shape).
    file: 'postgres.log', slots: ['any', 'any', 'level'], entity: -1,
    messages: ['duration: <*> ms statement: UPDATE payments SET state =…WHERE order_id = <*>', 'duration: <*> ms statement: SELECT * FROM carts WHERE id = <*>',
      'duplicate key value violates unique constraint "orders_pkey"', 'INSERT INTO orders (id, cart) VALUES (<*>, <*>)', 'there is no transaction in progress'],
    groups: 'abacdbae',
    events: { 4: ['duplicate key value violates unique constraint "orders_pkey"', 'ERROR'], 8: ['there is no transaction in progress', 'WARN'] },
  },
  'kubectl logs --prefix --timestamps': {
    // `[pod/<pod>/<container>] <time> <line>`: the pod before the time names the entity, its replica suffix dropped
    // (two pods of `cart` are one component).
    file: 'kubectl-prefix.log', slots: ['pod'], entity: 0,
    messages: ['cart <*> updated', 'charge ok in <*> ms for order <*>', 'cache miss for key <*>'],
    groups: 'abacbcba',
    events: { 1: ['cart:cart <*> updated'], 2: ['payment:charge ok in <*> ms for order <*>'], 3: ['cart:cart <*> updated'], 6: ['cart:cache miss for key <*>'] },
  },
};

/** The records (`E t name`) each line gives through a translator, by line number. */
async function eventsByLine(path: string, translator: ReturnType<typeof templateTranslator>): Promise<string[][]> {
  const out: string[][] = [];
  const ctx = { file: path, relativePath: path, className: 'good' as const };
  let line = 0;
  const sink = { instance: () => undefined, event: (_t: number, name: string) => { (out[line - 1] ??= []).push(name); }, state: () => undefined };
  translator.beginFile?.(ctx, sink);
  for (const text of readFileSync(path, 'utf8').split('\n').slice(0, -1)) {
    line++;
    translator.translateLine(text, { ...ctx, line }, sink);
  }
  return out;
}

/** Whether two labellings of the lines make the same groups. */
function samePartition(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) for (let j = 0; j < a.length; j++) if ((a[i] === a[j]) !== (b[i] === b[j])) return false;
  return true;
}

describe('a text header learned per file, one family at a time', () => {
  it.each(Object.entries(FAMILIES))('%s', async (_name, family) => {
    const files = await listInputFiles(join(DIR, family.file), 'good');
    const model = await mineTemplates({ good: files, bad: [] }, { year: 2026 });
    const layout = Object.values(model.files)[0];
    expect(model.untimed + (model.continued ?? 0)).toBe(0);
    expect(layout?.textHeader).toEqual({ slots: family.slots, entity: family.entity });
    expect(model.templates.map((t) => t.name)).toEqual(family.messages);
    const ids = (await lineTemplates(model, files[0]!)).map(([, id]) => id);
    expect(ids.every((id) => id >= 0)).toBe(true);
    expect(samePartition(ids, [...family.groups])).toBe(true);
    const path = files[0]!.path;
    const mined = await eventsByLine(path, templateTranslator(model));
    for (const [line, names] of Object.entries(family.events)) expect(mined[Number(line) - 1]).toEqual(names);
    // templates -o: the rules file reads the header once per rule and gives the miner's records.
    const rules = join(mkdtempSync(join(tmpdir(), 'distalyze-headers-')), 'rules.yaml');
    writeFileSync(rules, rulesYaml(model));
    const viaRules = await recordsByInstance(path, { translator: await loadTranslator(rules, { year: 2026 }) });
    const viaMiner = await recordsByInstance(path, { translator: templateTranslator(model) });
    expect(Object.values(viaRules.byInstance).flat().sort()).toEqual(Object.values(viaMiner.byInstance).flat().sort());
    expect(Object.values(viaMiner.byInstance).flat().length).toBeGreaterThanOrEqual(readFileSync(path, 'utf8').trim().split('\n').length);
  });
});

describe('the header rules, field by field', () => {
  it('levels: words in any case, bracketed, logcat letters, glog letters glued to the date; nothing else', () => {
    expect(['INFO', '[notice]', 'Warning', 'W', 'E0102', 'I1231'].map(levelOf)).toEqual(['INFO', 'NOTICE', 'WARNING', 'WARN', 'ERROR', 'INFO']);
    expect(['Info:', 'X', 'I1332', 'information', 'w'].map(levelOf)).toEqual(['', '', '', '', '']);
  });

  it('fields: a bracket group with spaces and nested brackets is one field', () => {
    const m = '- INFO  [QuorumPeer[myid=1]/0:2181:Election@774] - Notification time out: 3200';
    expect(headerFields(m, 5).map(([a, b]) => m.slice(a, b))).toEqual(['-', 'INFO', '[QuorumPeer[myid=1]/0:2181:Election@774]', '-', 'Notification']);
  });

  it('short messages with one header shape are not merged (BGL), and a message with no header is left whole', () => {
    const lines = ['RAS KERNEL INFO generating core.2275', 'RAS KERNEL INFO program interrupt', 'RAS APP FATAL shutdown complete',
      'RAS KERNEL INFO generating core.12', 'NULL DISCOVERY WARNING Node card is not fully functional'];
    const header = learnTextHeader(lines);
    expect(header).toEqual({ slots: ['any', 'word', 'level'], entity: 1 });
    const parts: HeaderParts = { level: '', entity: '' };
    expect(readTextHeader(lines[2]!, header!, parts)).toBe('shutdown complete');
    expect([parts.level, parts.entity]).toEqual(['FATAL', 'APP']);
    // A line of another writer keeps its words, and gives no level and no entity.
    expect(readTextHeader('kernel panic: not syncing', header!, parts)).toBe('kernel panic: not syncing');
    expect([parts.level, parts.entity]).toEqual(['', '']);
  });

  it('a padded name after the level is a component; a message\'s first word after a single blank is not', () => {
    const padded = ['2026-01-01, Info    SVC    started', '2026-01-01, Info    NET    listening on 80', '2026-01-01, Error   SVC    worker 2 died',
      '2026-01-01, Info    NET    listening on 81'].map((l) => l.slice(11));
    expect(learnTextHeader(padded)).toEqual({ slots: ['level', 'word'], entity: 1 });
    expect(learnTextHeader(padded.map((l) => l.replace(/(SVC|NET)\s+/, '$1 ')))).toEqual({ slots: ['level'], entity: -1 });
  });

  it('Spring Boot: `---` is no entity, a lone `:` ends the header after the logger, bracket groups count apart', () => {
    // Boot 3.4 with tracing: `--- [app] [thread] [traceId-spanId] logger : msg`, the correlation blank when no span.
    const span = '[0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331]';
    const blank = `[${' '.repeat(49)}]`;
    const lines = [`INFO 7 --- [shop] [main] ${span} c.e.shop.Cart                            : cart 3 updated`,
      `WARN 7 --- [shop] [exec-1] ${blank} c.e.shop.Pay                             : charge retry 2`,
      `INFO 7 --- [shop] [exec-2] ${span} c.e.shop.Cart                            : cart 4 updated`];
    const header = learnTextHeader(lines);
    expect(header).toEqual({ slots: ['level', 'any', 'any', 'bracket', 'bracket', 'bracket', 'word', 'colonMark'], entity: 6 });
    const parts: HeaderParts = { level: '', entity: '' };
    expect(readTextHeader(lines[1]!, header!, parts)).toBe('charge retry 2');
    expect([parts.level, parts.entity]).toEqual(['WARN', 'Pay']);
    // Behind kubectl's `--prefix` (before the time, so `lead` 1) the pod names the entity, the rest read as before.
    const prefixed = lines.map((l, i) => `[pod/shop-5dc8d4f9fd-4699${i}/app] ${l}`);
    const withPod = learnTextHeader(prefixed, 0, 1);
    expect(withPod).toEqual({ slots: ['pod', ...header!.slots], entity: 0 });
    expect(readTextHeader(prefixed[1]!, withPod!, parts)).toBe('charge retry 2');
    expect([parts.level, parts.entity]).toEqual(['WARN', 'shop']);
    // Without a logger, the `---` is a field of the header and nothing names the entity.
    expect(learnTextHeader(['INFO 7 --- [main] cart 3 updated', 'INFO 7 --- [exec-1] cart 4 updated', 'WARN 7 --- [exec-2] retry 2']))
      .toEqual({ slots: ['level', 'any', 'any', 'bracket'], entity: -1 });
  });

  it('fields before a time in mid-line: header fields, the entity a name without digits with the fewest values', () => {
    // (learnTextHeader gets the message: the line without its time, so the lead fields come first.)
    const lines = ['17 node-4 net up  link eth0 up', '18 node-9 net down  link eth1 down', '19 node-4 disk full  volume 2 at 99 %',
      '20 node-2 net up  link eth0 up'];
    expect(learnTextHeader(lines, 0, 4)).toEqual({ slots: ['any', 'any', 'word', 'any'], entity: 2 });
    // With a level among them, the level's reading of the whole line (BGL's) is kept: the same as with no lead.
    const levelled = ['- 17 node-4 INFO link up', '- 18 node-9 WARN link down', '- 19 node-4 INFO disk full'];
    expect(learnTextHeader(levelled, 0, 3)).toEqual(learnTextHeader(levelled));
    expect(learnTextHeader(levelled, 0, 3)?.slots[3]).toBe('level');
  });

  it('no header where the lines share none: plain messages, a colon in a tenth of them, access logs\' client addresses', () => {
    expect(learnTextHeader(['Starting server on port 80', 'Accepted connection from 10.0.0.1', 'Request took 12 ms', 'Error: disk full',
      'Stopping server', 'Accepted connection from 10.0.0.2', 'Request took 15 ms', 'Stopping server', 'Starting server on port 81', 'Request took 9 ms'])).toBeUndefined();
    expect(learnTextHeader(['10.0.0.1 - - "GET / HTTP/1.1" 200 512', '10.0.0.2 - - "GET /a HTTP/1.1" 404 0', '10.0.0.1 - - "POST /b HTTP/1.1" 201 7',
      '10.0.0.3 - - "GET / HTTP/1.1" 200 512', '10.0.0.4 - - "GET /c HTTP/1.1" 200 51'])).toBeUndefined();
  });
});

/**
 * A Spring Boot service's logs (the default layout before 3.2), one file per run: carts updated, payments charged
 * (`charge ok in <ms> ms`), a Tomcat start and an SQL warning now and then. In `bad` each charge takes 8 times as
 * long, and the next line waits for it. A xorshift generator seeded per file: the same files every run.
 */
function springRun(seed: number, slowdown: number): string {
  let x = seed;
  const random = (): number => {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const pad = (s: string, n: number): string => s.padEnd(n);
  const loggers = { tomcat: 'o.s.b.w.embedded.tomcat.TomcatWebServer', sql: 'o.h.engine.jdbc.spi.SqlExceptionHelper', pay: 'c.e.shop.payment.PaymentService', cart: 'c.e.shop.cart.CartController' };
  let ms = Date.UTC(2026, 11, 7, 10, 0, 0) + seed % 1000;
  const lines: string[] = [];
  for (let i = 0; i < 120; i++) {
    const thread = i === 0 ? '           main' : `nio-8080-exec-${1 + Math.floor(random() * 9)}`.padStart(15);
    const r = random();
    let level = ' INFO';
    let logger = loggers.cart;
    let message = `cart ${Math.floor(random() * 1000)} updated`;
    if (i === 0) [logger, message] = [loggers.tomcat, 'Tomcat started on port(s): 8080 (http)'];
    else if (r < 0.4) {
      const charge = Math.round((20 + random() * 20) * slowdown);
      [logger, message] = [loggers.pay, `charge ok in ${charge} ms for order ${500 + i}`];
      ms += charge;
    } else if (r < 0.5) [level, logger, message] = [' WARN', loggers.sql, 'SQL Error: 0, SQLState: 08001'];
    const time = new Date(ms).toISOString().replace('T', ' ').slice(0, 23);
    lines.push(`${time} ${level} 12345 --- [${thread}] ${pad(logger, 40)} : ${message}`);
    ms += 50 + Math.floor(random() * 100);
  }
  return `${lines.join('\n')}\n`;
}

describe('a planted cause in Spring Boot logs, no translator', () => {
  it('names the slow PaymentService statement, the logger (not `---`) its entity and out of its message', async () => {
    const root = mkdtempSync(join(tmpdir(), 'distalyze-spring-'));
    for (const [cls, slowdown] of [['good', 1], ['bad', 8]] as const) {
      mkdirSync(join(root, cls));
      for (let k = 0; k < 4; k++) writeFileSync(join(root, cls, `app-${k}.log`), springRun(7 + 31 * k + (cls === 'bad' ? 1000 : 0), slowdown));
    }
    const r = await run(join(root, 'good'), join(root, 'bad'), '--json', '-', '--quiet', '--year', '2026');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { verdict: { causes: Array<{ variable: string }> } };
    expect(json.verdict.causes[0]?.variable).toMatch(/^PaymentService:charge ok in <\*> ms for order <\*>( #\d)?$/);
  });
});
