/**
 * Structured JSON logs (issue 53; docs/input.md, "JSON Lines"): a record's fields with no role follow its message
 * as `key=value` pairs, as logfmt's do, so a statement's numbers are states. Fixtures: fixtures/raw/zap (Go's zap
 * production encoder; bad: payment's `charge ok` ~10x slower, its `elapsed`) and fixtures/raw/pino (Node's pino:
 * numeric levels, the logger's `name`, one file a host; bad: `charge ok` ~8x slower, its `durationMs`); generate.mjs
 * in each. Each: the summary's roles, the planted cause first with its state, no time, id, place or rising counter
 * a state, and good against good of another seed (null/) with nothing significant.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listInputFiles } from '../src/parse/files.js';
import { jsonMessage } from '../src/parse/fields.js';
import { describeTable, detectTable, columnLevel, RowReader, type RowParts } from '../src/parse/layout.js';
import { mineTemplates, templateTranslator } from '../src/parse/templates/index.js';
import { firstLines } from '../src/parse/templates/raw.js';
import { recordsByInstance } from './helpers/records.js';
import { run } from './helpers/run.js';

interface Json { verdict: { causes: Array<{ variable: string }> }; tests: Array<{ variable: string; significant: boolean }> }

const SETS = [
  {
    name: 'zap',
    summary: 'messages from field msg then method, path, items, elapsed, amount, card, status, error, attempt as key=value; time ts; entity logger; trace trace_id; statement caller;',
    cause: 'payment:payment/charge.go:41 charge ok amount=<*> card=<*> elapsed=<*> #3',
    // (fixtures/raw/zap/bad/app.log, its first `charge ok` line read by hand: "elapsed":0.197787.)
    first: 0.197787,
  },
  {
    name: 'pino',
    summary: 'messages from field msg then method, url, items, durationMs, amount, statusCode, responseTime, attempt as key=value; time time; entity name; trace reqId;',
    cause: 'payment:charge ok amount=<*> durationMs=<*> #2',
    // (fixtures/raw/pino/bad/web-1.log, its first `charge ok` line: "durationMs":149.)
    first: 149,
  },
] as const;

describe('JSON Lines loggers: the fields with no role follow the message', () => {
  for (const s of SETS) {
    it(`${s.name}: the summary names the roles and the fields, and the planted charge comes first with its state`, async () => {
      const r = await run(`fixtures/raw/${s.name}/good`, `fixtures/raw/${s.name}/bad`, '--json', '-');
      expect(r.code).toBe(0);
      expect(r.stderr.split('\n')[0]).toContain(`raw logs, no translator: ${s.summary}`);
      const json = JSON.parse(r.stdout) as Json;
      expect(json.verdict.causes[0]?.variable).toBe(s.cause);
    });

    it(`${s.name}: states are the statements' numbers, never a time, an id, a place or a rising counter`, async () => {
      const dir = `fixtures/raw/${s.name}`;
      const model = await mineTemplates({ good: await listInputFiles(`${dir}/good`, 'good'), bad: await listInputFiles(`${dir}/bad`, 'bad') });
      for (const t of model.templates) expect(t.tokens.filter((x) => /^(?:ts|time|level|logger|name|caller|trace_id|reqId|pid|hostname|served)=/.test(x)), t.name).toEqual([]);
      const { byInstance } = await recordsByInstance(`${dir}/bad`, { translator: templateTranslator(model) });
      expect(Object.keys(byInstance)).toHaveLength(30);
      const records = Object.values(byInstance).flat();
      // The state's value is the field's number in the line (the first instance's charge; files read by hand).
      const state = records.filter((x) => x.startsWith('S ') && x.includes(s.cause)).map((x) => Number(x.split(' ').at(-1)));
      expect(state).toContain(s.first);
      // pino's 40 is a warning: cart's slow query is `cart:WARN` (before: no level word, no WARN event).
      expect(records.some((x) => x.startsWith('E ') && x.endsWith(' cart:WARN'))).toBe(true);
    });

    it(`${s.name}: good against good of another seed (null/) finds nothing significant`, async () => {
      const r = await run(`fixtures/raw/${s.name}/good`, `fixtures/raw/${s.name}/null`, '--json', '-');
      expect(r.code).toBe(0);
      const json = JSON.parse(r.stdout) as Json;
      expect(json.tests.length).toBeGreaterThan(0);
      expect(json.tests.filter((t) => t.significant).map((t) => t.variable)).toEqual([]);
    });
  }

  it('templates -o: a field after a JSON message is read by its key (a lookahead); pino\'s level numbers in the level rules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-jsonl-'));
    for (const s of SETS) {
      const rules = join(dir, `${s.name}.yaml`);
      const w = await run('templates', `fixtures/raw/${s.name}/good`, `fixtures/raw/${s.name}/bad`, '-o', rules);
      expect(w.code).toBe(0);
      const yaml = readFileSync(rules, 'utf8');
      // (The records it gives are the miner's: test/templates-rules.test.ts.)
      expect(yaml).not.toContain('# left out');
      const field = s.name === 'zap' ? 'elapsed' : 'durationMs';
      expect(yaml).toMatch(new RegExp(`match: '\\^\\(\\?=.*"${field}":.*\\n *event: '\\$\\{entity\\}:.*charge ok amount=`));
      if (s.name === 'pino') {
        expect(yaml).toMatch(/"level":\\s\*"\?\(\?:WARN\|[^)]*\|40\)[^\n]*event: '\$\{entity\}:WARN'/);
        expect(yaml).toMatch(/\|\[56\]0\)[^\n]*event: '\$\{entity\}:ERROR'/);
      }
    }
  });
});

describe('the export fixtures: good against good of another seed an hour later (null/) finds nothing', () => {
  // (fixtures/raw/exports/generate.mjs: null/ is the window bad is, without its planted cause; a time, offset or
  // cursor read as a state would differ between the windows.)
  it.each(['cloudwatch', 'cri', 'docker', 'docker-fields', 'docker-text', 'elastic-csv', 'elastic-ndjson', 'gcp', 'journald', 'kubectl', 'kubectl-prefix', 'loki', 'otlp'])('%s', async (name) => {
    const r = await run(`fixtures/raw/exports/${name}/good`, `fixtures/raw/exports/${name}/null`, '--json', '-');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as Json;
    expect(json.tests.length).toBeGreaterThan(0);
    expect(json.tests.filter((t) => t.significant).map((t) => t.variable)).toEqual([]);
  });
});

describe('which fields follow the message', () => {
  const sample = [
    '{"time":"2026-12-07T10:00:00.001Z","@version":"1","level":"info","level_value":20000,"service":"cart","pod":"cart-5dc8d4f9fd-46997","pid":7,"offset":100,"_id":"x1","log":{"offset":5},"kubernetes":{"node":"n1"},"tags":["a"],"msg":"loaded","items":3,"dur":"12ms","note":"two words","ok":true,"nothing":null}',
  ];
  for (let i = 1; i < 10; i++) sample.push(sample[0]!.replace('"offset":100', `"offset":${100 + i * 37}`).replace('"items":3', `"items":${(i * 7) % 5}`).replace('.001Z', `.00${i}Z`));

  it('roles, places (pod, pid, logstash @version and level_value), store fields (_id), nested and array fields, nulls and a rising number (offset) never', () => {
    const l = detectTable('f.jsonl', 'f.jsonl', sample)!;
    expect(describeTable(l)).toBe('messages from field msg then items, dur, note, ok as key=value; time time; entity service');
    const row: RowParts = { t: 0, message: '', entity: '', trace: '', level: '', location: '' };
    expect(new RowReader(l).read(sample[0]!, row)).toBe(true);
    expect(row.message).toBe('loaded items=3 dur=12ms note="two words" ok=true');
    // A field first seen after the sample follows too (as a logfmt key does), by the same rules.
    expect(new RowReader(l).read(sample[0]!.replace('"ok":true', '"ok":true,"retries":2,"seq":9'), row)).toBe(true);
    expect(row.message).toBe('loaded items=3 dur=12ms note="two words" ok=true retries=2');
  });

  it('jsonMessage: the record\'s order, strings quoted only when they must be', () => {
    expect(jsonMessage('charge ok', { b: 2, a: 'x y', c: '', d: 'a=b', e: 1.5 }, new Set(['e']))).toBe('charge ok b=2 a="x y" c="" d="a=b"');
  });

  it('pino and bunyan levels: numbers 10–60 are words only where every sampled level is one', () => {
    const pino = detectTable('p.log', 'p.log', ['{"level":30,"time":1796637600000,"name":"a","msg":"x"}', '{"level":50,"time":1796637600001,"name":"a","msg":"y"}'])!;
    expect([10, 20, 30, 40, 50, 60].map((n) => columnLevel(String(n), pino))).toEqual(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL']);
    // (A level column with another number is not pino's: syslog's 4 stays a warning, 30 stays 30.)
    const other = detectTable('o.log', 'o.log', ['{"level":30,"time":1796637600000,"msg":"x"}', '{"level":4,"time":1796637600001,"msg":"y"}'])!;
    expect([columnLevel('30', other), columnLevel('4', other)]).toEqual(['30', 'WARNING']);
  });

  it('a logger\'s name is the entity before the host, but a `name` field of some lines is not', () => {
    const host = detectTable('h.log', 'h.log', ['{"time":1796637600000,"hostname":"h1","name":"cart","msg":"x"}', '{"time":1796637600001,"hostname":"h1","name":"payment","msg":"y"}'])!;
    expect(host.columns[host.entity]).toBe('name');
    const user = detectTable('u.log', 'u.log', ['{"time":1796637600000,"hostname":"h1","msg":"x","name":"ann"}', '{"time":1796637600001,"hostname":"h1","msg":"y"}'])!;
    expect(user.columns[user.entity]).toBe('hostname');
  });
});
