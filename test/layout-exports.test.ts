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
const STATEMENTS = /(?:^|:)(?:request received path=\/checkout user=|order <\*> placed with|charge ok in|charge retried|request done status=)/;

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
  });
});

describe('templates -o on them: a rules file that gives the miner\'s records, or says which templates it leaves out', () => {
  it.each(FORMATS.map((f) => f.name))('%s', async (name) => {
    const model = await mineTemplates({ good: await listInputFiles(`${SET}/${name}/good`, 'good'), bad: await listInputFiles(`${SET}/${name}/bad`, 'bad') });
    const yaml = rulesYaml(model);
    const leftOut = (yaml.match(/^ {2}# left out: /gm) ?? []).length;
    // Read whole, the rows of Elasticsearch hits and journald; where the miner reads inside the message cell (a
    // header, a record, a second message column, an entity from the file name: the others) or a quoted CSV cell
    // (Kibana), every template is left out with a comment, never a rule that reads something else.
    expect(leftOut, yaml).toBe(['elastic-ndjson', 'journald', 'kubectl'].includes(name) ? 0 : model.templates.length);
    if (leftOut > 0) return;
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
