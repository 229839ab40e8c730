/**
 * The export layouts users have, with no translator (issue 53; docs/input.md, "Exports"): one fixture per format
 * in fixtures/raw/exports/ (generate.mjs there, each built from its vendor's documented format: README.md there
 * cites the page). Each: the summary line's roles, the planted cause (in bad, payment's `charge ok in <ms> ms`
 * ~10x slower) first, and no time or id column ever a state variable. OTLP/JSON logs (many records a line) are
 * read record by record (src/parse/otlp.ts); a JSON document over several lines is a one-line error naming the
 * file and saying what to do.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listInputFiles } from '../src/parse/files.js';
import { flatObject } from '../src/parse/fields.js';
import { detectTable, levelWord, RowReader, serviceOf, type RowParts } from '../src/parse/layout.js';
import { mineTemplates, templateTranslator } from '../src/parse/templates/index.js';
import { rulesYaml } from '../src/parse/templates/rules.js';
import { loadTranslator } from '../src/parse/translators/load.js';
import { recordsByInstance } from './helpers/records.js';
import { run } from './helpers/run.js';

const SET = 'fixtures/raw/exports';

/** Per format: the summary line's start, and the first cause. */
const FORMATS: ReadonlyArray<{ name: string; summary: string; cause: string }> = [
  { name: 'docker', summary: 'messages from field log (JSON field msg); time time; entity log.service; trace log.trace_id;', cause: 'payment:charge ok in <*> ms #1' },
  { name: 'docker-fields', summary: 'messages from field log (JSON field msg) then log.dur_ms as key=value; time time; entity log.service; trace log.trace_id |', cause: 'payment:charge done dur_ms=<*> #1' },
  { name: 'docker-text', summary: 'messages from field log; time time; entity from the messages\' header; header learned in the messages: field level name (the entity) -;', cause: 'PaymentService:charge ok in <*> ms trace_id=<*> #1' },
  { name: 'cri', summary: 'messages from field log of CRI lines; time time; entity the pod of the file\'s name; header learned in the messages: level;', cause: 'payment:charge ok in <*> ms trace_id=<*> #1' },
  { name: 'kubectl', summary: '', cause: 'PaymentService:charge ok in <*> ms trace_id=<*> #1' },
  { name: 'elastic-csv', summary: 'messages from column message; time @timestamp; entity kubernetes.pod.name; trace trace.id;', cause: 'payment:charge ok in <*> ms #1' },
  { name: 'elastic-ndjson', summary: 'messages from field _source.message; time _source.@timestamp; entity _source.kubernetes.pod.name; trace _source.trace.id;', cause: 'payment:charge ok in <*> ms #1' },
  { name: 'loki', summary: 'messages from field line (logfmt key msg); time timestamp; entity labels.app; trace line.trace_id;', cause: 'payment:charge ok in <*> ms #1' },
  { name: 'journald', summary: 'messages from field MESSAGE; time __REALTIME_TIMESTAMP; entity SYSLOG_IDENTIFIER;', cause: 'payment:charge ok in <*> ms trace_id=<*> #1' },
  { name: 'gcp', summary: 'messages from field textPayload or jsonPayload.message; time timestamp; entity resource.labels.pod_name; trace trace;', cause: 'payment:charge ok in <*> ms #1' },
  { name: 'cloudwatch', summary: 'messages from field message; time timestamp; entity logStreamName; header learned in the messages: level;', cause: 'payment/payment:charge ok in <*> ms trace_id=<*> #1' },
  { name: 'otlp', summary: 'OTLP/JSON log records (a LogsData a line): messages from field body (then its attributes as key=value); time timeUnixNano; level severityText; entity resource.service.name; trace traceId; span spanId; 5 templates mined from 200 log records;', cause: 'payment:charge ok in <*> ms #1' },
];

/** The shop's four statements (and the WARN in bad): every state is a number of one of them, never a time or an id. */
// (docker-fields: the same statements, their numbers in fields: `order placed order=<*> items=<*>`, `charge done dur_ms=<*>`.)
const STATEMENTS = /(?:^|:)(?:request received path=\/checkout user=|order (?:<\*> placed with|placed order=)|charge (?:ok in|done dur_ms=)|charge retried|request done status=)/;

describe('export formats with no translator: roles, the planted cause first', () => {
  for (const f of FORMATS) {
    it(`${f.name}: the summary names the roles, and payment's charge comes first`, async () => {
      const r = await run(`${SET}/${f.name}/good`, `${SET}/${f.name}/bad`, '--json', '-');
      expect(r.code).toBe(0);
      expect(r.stderr.split('\n')[0]).toMatch(/^raw logs, no translator: /);
      expect(r.stderr.split('\n')[0]).toContain(f.summary);
      const json = JSON.parse(r.stdout) as { verdict: { causes: Array<{ variable: string }> } };
      expect(json.verdict.causes[0]?.variable).toBe(f.cause);
    });
  }

  it('no column of times or ids is ever a state: every state is a number in one of the shop\'s statements', async () => {
    for (const f of FORMATS) {
      const model = await mineTemplates({ good: await listInputFiles(`${SET}/${f.name}/good`, 'good'), bad: await listInputFiles(`${SET}/${f.name}/bad`, 'bad') });
      const { byInstance } = await recordsByInstance(`${SET}/${f.name}/bad`, { translator: templateTranslator(model) });
      const states = new Set(Object.values(byInstance).flat().filter((x) => x.startsWith('S ')).map((x) => x.split(' ').slice(2, -1).join(' ')));
      expect(states.size, f.name).toBeGreaterThan(0);
      for (const s of states) expect(s, f.name).toMatch(STATEMENTS);
      // 24 requests a class, one instance each (by the trace id, a column's or the line's), but kubectl's
      // per-pod files name it in the line too.
      expect(Object.keys(byInstance), f.name).toHaveLength(24);
    }
  });
});

describe('an export of many sources in one file with no request id: one instance per source', () => {
  it.each([['loki', 'query.jsonl', 'labels.pod'], ['cloudwatch', 'events.jsonl', 'logStreamName']])('%s without trace ids: instances by %s, payment\'s charge ranked first', async (name, file, source) => {
    // (The fixture's lines with their trace_id=… taken out: a window exported with no request id.)
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-exports-noid-'));
    for (const c of ['good', 'bad']) {
      mkdirSync(join(dir, c));
      writeFileSync(join(dir, c, file), readFileSync(`${SET}/${name}/${c}/${file}`, 'utf8').replace(/ trace_id=[0-9a-f]+/g, ''));
    }
    const r = await run(join(dir, 'good'), join(dir, 'bad'), '--json', '-');
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toContain(`; instances by ${source} (no request id);`);
    const json = JSON.parse(r.stdout) as { classes: { good: { instances: number } }; ranking: Array<{ variable: string }> };
    // Nine sources (three replicas of three services) a class.
    expect(json.classes.good.instances).toBe(9);
    expect(json.ranking[0]?.variable).toMatch(/^payment(?:\/payment)?:charge ok in <\*> ms/);
    // The verdict too: each source holds one service's lines, so gateway's wait on the charge is in its own lines
    // (its latency, the gap closing it, the gap.after opening it: 3 causes against payment's 1); payment's times
    // grew by the larger factor (components.ts timeGrowth). Before, gateway was the top component.
    const verdict = (json as unknown as { verdict: { components: Array<{ component: string; topCauses: number; growth?: number }>; causes: Array<{ variable: string }> } }).verdict;
    expect(verdict.components.map((c) => [c.component.replace(/\/.*/, ''), c.topCauses])).toEqual([['payment', 1], ['gateway', 3]]);
    expect(verdict.components[0]!.growth).toBeGreaterThan(verdict.components[1]!.growth!);
    expect(verdict.causes[0]?.variable).toMatch(/^payment(?:\/payment)?:charge ok in <\*> ms #1$/);
  });
});

describe('kubectl logs -l app=x --prefix --timestamps: a file per Deployment, its pods\' lines prefixed, no request id', () => {
  // (fixtures/raw/exports/kubectl-prefix: three replicas a file; the program's lines name no request.)
  const DIR = `${SET}/kubectl-prefix`;

  it('each pod is an instance, as a pod column of a table is (its source); payment\'s charge ranked first', async () => {
    const r = await run(`${DIR}/good`, `${DIR}/bad`, '--json', '-');
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toContain('; header learned: [pod/…] (the entity) field field level name -; instances by pod of kubectl\'s --prefix (no request id))');
    const json = JSON.parse(r.stdout) as { classes: { good: { instances: number }; bad: { instances: number } }; ranking: Array<{ variable: string }> };
    // Nine pods (three replicas of three Deployments) a class, from three files; before, one instance a file (3).
    expect([json.classes.good.instances, json.classes.bad.instances]).toEqual([9, 9]);
    expect(json.ranking[0]?.variable).toBe('payment:charge ok in <*> ms #1');
    // The verdict names payment too (components.ts timeGrowth): its charge grew ×11.2 at most, gateway's latency and
    // gaps, which hold the wait on it, ×8.61; before, gateway came first for its 3 of the top 4 causes.
    const verdict = (json as unknown as { verdict: { sentence: string; components: Array<{ component: string; topCauses: number; growth?: number }>; causes: Array<{ variable: string }> } }).verdict;
    expect(verdict.components.map((c) => [c.component, c.topCauses, Number(c.growth!.toFixed(3))])).toEqual([['payment', 1, 11.16], ['gateway', 3, 8.612]]);
    expect(verdict.causes[0]?.variable).toBe('payment:charge ok in <*> ms #1');
    expect(verdict.sentence).toContain('Top component: payment: times ×11.2, 1 of the top 4 causes. Top cause: payment:charge ok in <*> ms #1 (state mean 24.83 → 250.9, z +4.48');
  });

  it('the records of a pod are its lines, whatever its place in the file; templates -o names the same instances', async () => {
    const model = await mineTemplates({ good: await listInputFiles(`${DIR}/good`, 'good'), bad: await listInputFiles(`${DIR}/bad`, 'bad') });
    expect(model.instance).toEqual({ kind: 'host' });
    const mined = await recordsByInstance(`${DIR}/bad`, { translator: templateTranslator(model) });
    expect(Object.keys(mined.byInstance).sort()).toEqual(['checkout-5c95b49cff-h2v9k', 'checkout-5c95b49cff-p6r3b', 'checkout-5c95b49cff-tdsdz',
      'gateway-7d9f8c6b5d-c4w7n', 'gateway-7d9f8c6b5d-m8q1z', 'gateway-7d9f8c6b5d-x2k4p', 'payment-6f7c9d8b4a-j5t6y', 'payment-6f7c9d8b4a-q8w2e', 'payment-6f7c9d8b4a-z1x3c']);
    // A payment pod's lines: 8 requests' charges, the first replica's 8 retries (every third request), nothing else.
    const pod = mined.byInstance['payment-6f7c9d8b4a-q8w2e'] as string[];
    expect(pod.filter((x) => x.startsWith('E ')).map((x) => x.split(' ').slice(2).join(' ')).sort().filter((x, i, a) => a.indexOf(x) === i))
      .toEqual(['payment:WARN', 'payment:charge ok in <*> ms', 'payment:charge retried after timeout attempt=<*>']);
    const yaml = rulesYaml(model);
    expect(yaml).toContain("instance: { pattern: '^\\s*\\[pod/(?<id>[^/\\s\\]]+)/' }");
    const path = join(mkdtempSync(join(tmpdir(), 'distalyze-exports-rules-')), 'rules.yaml');
    writeFileSync(path, yaml);
    const viaRules = await recordsByInstance(`${DIR}/bad`, { translator: await loadTranslator(path) });
    const sorted = (r: { byInstance: Record<string, string[]> }): Record<string, string[]> => Object.fromEntries(Object.entries(r.byInstance).map(([k, v]) => [k, [...v].sort()]));
    expect(sorted(viaRules)).toEqual(sorted(mined));
  });
});

describe('kubectl logs deploy/x --all-containers --prefix, without --timestamps: a pod\'s containers are one instance', () => {
  it('its sidecar\'s lines and its stack traces\' lines (no time of their own) are the pod\'s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-kubectl-prefix-'));
    const lines = ['[pod/cart-5dc8d4f9fd-46997/app] 2026-12-07 10:00:00.109 INFO  c.e.Cart - cart 937 updated',
      '[pod/cart-5dc8d4f9fd-x7k2p/app] 2026-12-07 10:00:00.412 INFO  c.e.Cart - cart 12 updated',
      '[pod/cart-5dc8d4f9fd-46997/istio-proxy] 2026-12-07 10:00:00.530 INFO  envoy - upstream reset 3',
      '[pod/cart-5dc8d4f9fd-x7k2p/app] 2026-12-07 10:00:00.644 ERROR c.e.Cart - cart 13 failed',
      '[pod/cart-5dc8d4f9fd-x7k2p/app] \tat com.example.Cart.update(Cart.java:42)',
      '[pod/cart-5dc8d4f9fd-46997/app] 2026-12-07 10:00:01.109 INFO  c.e.Cart - cart 938 updated'];
    for (const c of ['good', 'bad']) {
      mkdirSync(join(dir, c));
      writeFileSync(join(dir, c, 'cart.log'), `${lines.join('\n')}\n`);
    }
    const model = await mineTemplates({ good: await listInputFiles(join(dir, 'good'), 'good'), bad: await listInputFiles(join(dir, 'bad'), 'bad') }, { year: 2026 });
    const { byInstance, stats } = await recordsByInstance(join(dir, 'good'), { translator: templateTranslator(model) });
    // 2026-12-07T10:00:00Z = 1796637600.
    expect(Object.fromEntries(Object.entries(byInstance).map(([k, v]) => [k, v.filter((x) => x.startsWith('E '))]))).toEqual({
      'cart-5dc8d4f9fd-46997': ['E 1796637600.109 cart:cart <*> updated', 'E 1796637600.53 cart:upstream reset <*>', 'E 1796637601.109 cart:cart <*> updated'],
      'cart-5dc8d4f9fd-x7k2p': ['E 1796637600.412 cart:cart <*> updated', 'E 1796637600.644 cart:cart <*> failed', 'E 1796637600.644 cart:ERROR', 'E 1796637600.644 [<*>] at Cart.update(<*>)'],
    });
    expect(stats.skippedLines).toBe(0);
  });

  it('pod after pod (kubectl without --follow): a second pod past the first 1000 lines still makes pods the instances', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-kubectl-prefix-'));
    const at = (i: number): string => new Date(Date.UTC(2026, 11, 7, 10, 0, 0) + i * 100).toISOString();
    const lines = [...Array.from({ length: 1200 }, (_, i) => `[pod/cart-5dc8d4f9fd-46997/app] ${at(i)} cart ${i} updated`),
      ...Array.from({ length: 10 }, (_, i) => `[pod/cart-5dc8d4f9fd-x7k2p/app] ${at(i)} cart ${i} updated`)];
    for (const c of ['good', 'bad']) {
      mkdirSync(join(dir, c));
      writeFileSync(join(dir, c, 'cart.log'), `${lines.join('\n')}\n`);
    }
    const model = await mineTemplates({ good: await listInputFiles(join(dir, 'good'), 'good'), bad: await listInputFiles(join(dir, 'bad'), 'bad') });
    expect(model.instance).toEqual({ kind: 'host' });
  });
});

describe('templates -o on them: a rules file that gives the miner\'s records, or says which templates it leaves out', () => {
  it.each(FORMATS.map((f) => f.name))('%s', async (name) => {
    const model = await mineTemplates({ good: await listInputFiles(`${SET}/${name}/good`, 'good'), bad: await listInputFiles(`${SET}/${name}/bad`, 'bad') });
    const yaml = rulesYaml(model);
    const leftOut = (yaml.match(/^ {2}# left out: /gm) ?? []).length;
    // Every template is a rule, wherever the message sits: a JSON field, a record or a logfmt line inside one (its
    // quotes escaped), behind a text header of its own, in the first of two fields, in a quoted CSV cell. But for
    // CRI's: its entity is the pod of the file's name, which a rules file does not read: each left out, saying so.
    // And OTLP's: a line holds many records, a rule reads one (layout-otlp.test.ts checks its note).
    expect(leftOut, yaml).toBe(name === 'cri' || name === 'otlp' ? model.templates.length : 0);
    if (name === 'otlp') {
      expect(yaml).toContain('# note: a rules file reads one record a line, and an OTLP/JSON line holds many log records');
      return;
    }
    if (name === 'cri') {
      expect(yaml).toContain("(the entity is the file's name, which a rules file does not read: write its rule by hand)");
      // (templates -o counts them in its summary.)
      const out = join(mkdtempSync(join(tmpdir(), 'distalyze-exports-rules-')), 'rules.yaml');
      const r = await run('templates', `${SET}/${name}/good`, `${SET}/${name}/bad`, '-o', out);
      expect(r.stdout).toContain(`wrote ${out}: 0 rules, ${model.templates.length} templates left out (see its comments)`);
      return;
    }
    const path = join(mkdtempSync(join(tmpdir(), 'distalyze-exports-rules-')), 'rules.yaml');
    writeFileSync(path, yaml);
    const sorted = (r: { byInstance: Record<string, string[]> }): Record<string, string[]> => Object.fromEntries(Object.entries(r.byInstance).map(([k, v]) => [k, [...v].sort()]));
    for (const c of ['good', 'bad']) {
      const mined = await recordsByInstance(`${SET}/${name}/${c}`, { translator: templateTranslator(model) });
      const viaRules = await recordsByInstance(`${SET}/${name}/${c}`, { translator: await loadTranslator(path) });
      expect(sorted(viaRules)).toEqual(sorted(mined));
    }
  });
});

describe('the rules behind them', () => {
  it('nested JSON is read by dotted names; a role is found by the name\'s last parts, the shallowest first', () => {
    expect(flatObject({ a: { b: { c: 1 } }, d: [1, 2], e: {} })).toEqual({ 'a.b.c': 1, d: [1, 2], e: {} });
    const lines = [0, 1, 2].map((i) => JSON.stringify({ _source: { '@timestamp': `2026-12-07T10:00:0${i}Z`, message: `done ${i}`, error: { message: 'x y' }, log: { level: 'warn' }, kubernetes: { pod: { name: `cart-5c95b49cff-tdsd${i}` }, node: { name: 'n1' } } } }));
    const l = detectTable('x.json', 'x.json', lines)!;
    const row: RowParts = { t: NaN, message: '', entity: '', trace: '', level: '', location: '' };
    expect(new RowReader(l).read(lines[1]!, row)).toBe(true);
    // 2026-12-07T10:00:01Z: Date.UTC(2026, 11, 7, 10, 0, 1) / 1000 = 1796637601.
    // (The pod, varying, is the source too: raw, its replica suffix kept.)
    expect(row).toEqual({ t: 1796637601, message: 'done 1', location: '', entity: 'cart', source: 'cart-5c95b49cff-tdsd1', trace: '', level: 'WARN' });
  });

  it('a JSON record in a cell: its statement\'s fields follow its message as a JSON Lines record\'s do (places, `_`-fields, nested fields and rising numbers never)', () => {
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({
      log: `${JSON.stringify({ time: `2026-12-07T10:00:0${i}Z`, level: 'INFO', msg: 'charge done', dur_ms: [812, 95, 301, 77, 640, 12, 505, 88, 430, 9][i], pid: 7, offset: 100 + i * 37, _seq: i, card: { brand: 'visa' }, ok: true, service: 'payment' })}\n`,
      stream: 'stdout', time: `2026-12-07T10:00:0${i}.5Z`,
    }));
    const l = detectTable('c.log', 'c-json.log', lines)!;
    expect(l.cell?.pairs?.map((c) => l.cell!.columns[c])).toEqual(['dur_ms', 'ok']);
    const row: RowParts = { t: NaN, message: '', entity: '', trace: '', level: '', location: '' };
    expect(new RowReader(l).read(lines[0]!, row)).toBe(true);
    expect([row.message, row.entity, row.level]).toEqual(['charge done dur_ms=812 ok=true', 'payment', 'INFO']);
    // A field first seen after the sample follows too, by the same rule (statementField).
    const later = JSON.stringify({ log: '{"msg":"charge done","dur_ms":5,"attempt":2,"thread":"main"}\n', stream: 'stdout', time: '2026-12-07T10:00:11Z' });
    expect(new RowReader(l).read(later, row)).toBe(true);
    expect(row.message).toBe('charge done dur_ms=5 attempt=2');
    // A logfmt line in a cell (Loki's `line`) keeps its pairs with no role the same way (fields.ts logfmtMessage).
    const loki = Array.from({ length: 3 }, (_, i) => JSON.stringify({ labels: { app: 'payment' }, line: `level=info msg="charge done" dur_ms=${[812, 95, 301][i]} trace_id=9b6ab17dee86dc63b047c455f6e6179${i}`, timestamp: `2026-12-07T10:00:0${i}Z` }));
    expect(new RowReader(detectTable('q.jsonl', 'q.jsonl', loki)!).read(loki[0]!, row)).toBe(true);
    expect([row.message, row.trace]).toEqual(['charge done dur_ms=812', '9b6ab17dee86dc63b047c455f6e61790']);
  });

  it('a column of numbers named like a message (ECS log.origin.file.line) is no message; a text log opening with `{` is no JSON document', () => {
    const lines = [0, 1, 2].map((i) => JSON.stringify({ '@timestamp': `2026-12-07T10:00:0${i}Z`, message: `done ${i}`, log: { origin: { file: { line: 40 + i } } } }));
    const l = detectTable('x.json', 'x.json', lines)!;
    expect([l.columns[l.message], l.messageAlt.map((c) => l.columns[c])]).toEqual(['message', []]);
    const text = ['{', '2026-12-07 10:00:01,534 INFO [main] Foo: started', '2026-12-07 10:00:02,534 INFO [main] Foo: done'];
    expect(detectTable('x.log', 'x.log', text)).toBeNull();
  });

  it('a syslog severity number is its keyword (journald PRIORITY 4 is a warning); a log stream\'s task id is dropped', () => {
    expect(['0', '3', '4', '6', '7', 'info', '12'].map(levelWord)).toEqual(['EMERG', 'ERR', 'WARNING', 'INFO', 'DEBUG', 'INFO', '12']);
    expect(serviceOf('payment/payment/4964b1321c85bd8cd3b7ee23a7e7a4c6', false)).toBe('payment/payment');
    expect(serviceOf('ts-basic-service-5dc8d4f9fd-46997', false)).toBe('ts-basic-service');
  });

  it('Kibana\'s CSV dates (`Dec 7, 2026 @ 10:00:00.834`) are a time column', () => {
    const l = detectTable('d.csv', 'd.csv', ['"@timestamp",message', '"Dec 7, 2026 @ 10:00:00.834","a b"', '"Dec 7, 2026 @ 10:00:01.5","a c"'])!;
    const row: RowParts = { t: NaN, message: '', entity: '', trace: '', level: '', location: '' };
    expect(new RowReader(l).read('"Dec 7, 2026 @ 10:00:00.834","a b"', row)).toBe(true);
    // Date.UTC(2026, 11, 7, 10, 0, 0, 834) / 1000 = 1796637600.834.
    expect(row.t).toBe(1796637600.834);
  });

  it('a CRI file\'s pod from the kubelet\'s names: /var/log/containers/<pod>_<ns>_<container>-<id>.log, /var/log/pods/<ns>_<pod>_<uid>/<container>/<n>.log', () => {
    const lines = [0, 1, 2].map((i) => `2026-12-07T10:00:0${i}.123456789Z stdout F charge ok in ${20 + i} ms`);
    const id = 'f52ff8d72f71cda4900a229b541b18bffd2dda037dec873dffc6b4f7c6e391a8';
    expect(detectTable('x', `payment-6f7c9d8b4a-q8w2e_shop_payment-${id}.log`, lines)!.fileEntity).toBe('payment');
    expect(detectTable('x', 'shop_payment-6f7c9d8b4a-q8w2e_0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0/payment/0.log', lines)!.fileEntity).toBe('payment');
    expect(detectTable('x', 'payment.log', lines)!.fileEntity).toBeUndefined();
  });

  it('a Docker line\'s stream (stdout, stderr) is never the entity', () => {
    const lines = Array.from({ length: 12 }, (_, i) => JSON.stringify({ log: `GET /x ${i} 200\n`, stream: i % 2 === 0 ? 'stdout' : 'stderr', time: `2026-11-20T10:00:${String(10 + i)}.5Z` }));
    expect(detectTable('c.log', 'c.log', lines)!.entity).toBe(-1);
  });
});

describe('a format that is not one record a line: a one-line error naming the file, and what to do', () => {
  it('a JSON document over several lines (gcloud logging read --format=json, aws logs filter-log-events)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-exports-'));
    for (const c of ['good', 'bad']) {
      mkdirSync(join(dir, c));
      writeFileSync(join(dir, c, 'events.json'), `${JSON.stringify({ events: [{ timestamp: 1796637600000, message: 'a b', logStreamName: 's' }] }, null, 2)}\n`);
    }
    const r = await run(join(dir, 'good'), join(dir, 'bad'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')[0]).toBe(`distalyze: ${join(dir, 'good', 'events.json')}: a JSON document over several lines, not one record a line`);
    expect(r.stderr).toContain("jq -c '.events[]'");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
