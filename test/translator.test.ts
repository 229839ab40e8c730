import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { listInputFiles } from '../src/parse/files.js';
import type { ReadStats } from '../src/parse/reader.js';
import type { Translator } from '../src/parse/translator.js';
import { loadTranslator } from '../src/parse/translators/load.js';
import { requiredLiteral } from '../src/parse/translators/pattern.js';
import { recordsByInstance } from './helpers/records.js';
import type { RulesTranslator } from '../src/parse/translators/rules.js';

const T = 'fixtures/raw/translators';
const AT_10_00_01 = 1_795_168_801; // 2026-11-20 10:00:01 UTC

/** Records per instance, as `E t name` / `S t name value`, following the reader's instance rules. */
async function translate(translator: Translator, input: string, strict = false): Promise<{ records: Record<string, string[]>; stats: ReadStats }> {
  const { byInstance, stats } = await recordsByInstance(input, { translator, strict, examples: 3 });
  return { records: byInstance, stats };
}

/** A scratch directory with the given files. */
function scratch(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'distalyze-translator-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

async function loadError(path: string, options = {}): Promise<string> {
  try {
    await loadTranslator(path, options);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error('expected an InputError');
}

const LOG = [
  '2026-11-20 10:00:01,000 INFO [w] Writer 1 started',
  '2026-11-20 10:00:01,500 INFO [w] Writer 2 started queue=4',
  '2026-11-20 10:00:02,250 INFO [q] stats queue=17 heap=120MB',
  '2026-11-20 10:00:03,000 DEBUG [x] noise',
  '\tat org.example.Foo(Foo.java:1)',
  '2026-11-20 10:00:04,000 INFO [m] Shutdown complete',
].join('\n');

describe('rules translator', () => {
  const rules = `
timestamp: log4j
rules:
  - match: ' DEBUG '
    ignore: true
  - match: 'Writer (?<worker>\\d+) started'
    event: 'Writer_\${worker}_run'
  - match: 'queue=(?<q>\\d+)'
    state: queue_len
    value: q
    continue: true
  - match: 'heap=(?<mb>\\d+)MB'
    state: heap_bytes
    value: mb
    scale: 1e6
  - match: 'Shutdown complete'
    event: Finish
`;

  it('maps lines to events and states; first match wins unless continue: true', async () => {
    const dir = scratch({ 't.yaml': rules, 'logs/node-1.log': LOG });
    const translator = await loadTranslator(join(dir, 't.yaml'));
    const { records, stats } = await translate(translator, join(dir, 'logs'));
    expect(records).toEqual({
      'node-1.log': [
        `E ${AT_10_00_01} Writer_1_run`,
        `E ${AT_10_00_01 + 0.5} Writer_2_run`, // the queue rule never sees this line: the Writer rule won
        `S ${AT_10_00_01 + 1.25} queue_len 17`,
        `S ${AT_10_00_01 + 1.25} heap_bytes 120000000`, // queue_len said continue: true
        `E ${AT_10_00_01 + 3} Finish`,
      ],
    });
    expect(stats.lines).toBe(6);
    expect(stats.skippedLines).toBe(1); // the stack-trace line; the DEBUG line was ignored on purpose
    expect(stats.skippedExamples).toEqual([`${join(dir, 'logs/node-1.log')}:5: no translator rule matched: '\\x09at org.example.Foo(Foo.java:1)'`]);
    expect([...(translator as RulesTranslator).ruleCounts()]).toEqual([
      ['rule 1 (ignore / DEBUG /)', 1],
      ['rule 2 (event Writer_${worker}_run)', 2],
      ['rule 3 (state queue_len)', 1],
      ['rule 4 (state heap_bytes)', 1],
      ['rule 5 (event Finish)', 1],
    ]);
  });

  it('one rule with both event: and state: emits both records from one match', async () => {
    const both = `
timestamp: log4j
rules:
  - match: 'Writer (?<worker>\\d+) started queue=(?<q>\\d+)'
    event: 'Writer_\${worker}_run'
    state: queue_len
    value: q
  - match: 'queue=(?<q>\\d+)'
    state: other_queue
    value: q
`;
    const dir = scratch({ 't.yaml': both, 'logs/node-1.log': LOG });
    const translator = await loadTranslator(join(dir, 't.yaml'));
    const { records } = await translate(translator, join(dir, 'logs'));
    expect(records['node-1.log']).toEqual([
      `E ${AT_10_00_01 + 0.5} Writer_2_run`, // line 2: event then state, from one match …
      `S ${AT_10_00_01 + 0.5} queue_len 4`, // … and no continue: the other_queue rule does not see it
      `S ${AT_10_00_01 + 1.25} other_queue 17`,
    ]);
    expect([...(translator as RulesTranslator).ruleCounts()]).toEqual([
      ['rule 1 (event Writer_${worker}_run)', 1],
      ['rule 1 (state queue_len)', 1],
      ['rule 2 (state other_queue)', 1],
    ]);
    const bad = scratch({ 't.yaml': 'timestamp: log4j\nrules:\n  - match: x\n    event: E\n    state: S\n    value: 1\n    ignore: true\n' });
    expect(await loadError(join(bad, 't.yaml'))).toMatch(/rule 1: give event:, state: \(or both\), or ignore: true/);
  });

  it('reads JSON too, and .gz raw files', async () => {
    const json = JSON.stringify({ timestamp: 'log4j', rules: [{ match: 'Writer (\\d+) started', event: 'W${1}' }] });
    const dir = scratch({ 't.json': json, 'logs/a.log.gz': gzipSync(LOG) });
    const { records } = await translate(await loadTranslator(join(dir, 't.json')), join(dir, 'logs'));
    expect(records).toEqual({ 'a.log.gz': [`E ${AT_10_00_01} W1`, `E ${AT_10_00_01 + 0.5} W2`] });
  });

  it('groups lines by an instance id across files; lines without an id are not translated', async () => {
    const yaml = `
timestamp: { format: epoch-ms, pattern: '^[^,]*,(?<ts>\\d+),' }
instance: { pattern: '^(?<id>r\\d+),', id: 'req-\${id}' }
rules:
  - { match: '^\\w+,\\d+,(?<step>\\w+)$', event: '\${step}' }
`;
    const dir = scratch({
      't.yaml': yaml,
      'logs/a.csv': 'r1,1000,recv\nr2,1500,recv\nx,1600,tick\n',
      'logs/b.csv': 'r2,1700,query\nr1,2000,query\n',
    });
    const translator = await loadTranslator(join(dir, 't.yaml'));
    const { records, stats } = await translate(translator, join(dir, 'logs'));
    expect(records).toEqual({ 'req-r1': ['E 1 recv', 'E 2 query'], 'req-r2': ['E 1.5 recv', 'E 1.7 query'] });
    expect(stats.skippedLines).toBe(1);
    expect((translator as RulesTranslator).problems()).toEqual([
      { reason: 'matched a rule but had no instance id', count: 1, examples: [`${join(dir, 'logs/a.csv')}:3: 'x,1600,tick'`] },
    ]);
  });

  it('a sticky instance id carries over to the following lines of its file', async () => {
    const yaml = `
timestamp: epoch-s
instance: { pattern: 'job (?<id>\\S+) begins', sticky: true }
rules:
  - { match: 'step (?<n>\\d+)', event: 'step\${n}' }
`;
    const dir = scratch({ 't.yaml': yaml, 'logs/x.log': '1 boot\n2 step 0\n3 job J1 begins\n4 step 1\n5 job J2 begins\n6 step 2\n' });
    const { records, stats } = await translate(await loadTranslator(join(dir, 't.yaml')), join(dir, 'logs'));
    expect(records).toEqual({ 'x.log': ['E 2 step0'], J1: ['E 4 step1'], J2: ['E 6 step2'] });
    expect(stats.skippedLines).toBe(1); // "1 boot"
  });

  it('counts lines a rule matched but that have no timestamp, or a value that is not a number', async () => {
    const yaml = `
timestamp: log4j
rules:
  - { match: 'queue=(?<q>\\S+)', state: queue, value: q }
  - { match: 'queue=', event: QueueUnknown }
`;
    const dir = scratch({ 't.yaml': yaml, 'l/n.log': '2026-11-20 10:00:01,000 queue=n/a\nqueue=3\n' });
    const translator = await loadTranslator(join(dir, 't.yaml')) as RulesTranslator;
    const { records, stats } = await translate(translator, join(dir, 'l'));
    expect(records).toEqual({ 'n.log': [`E ${AT_10_00_01} QueueUnknown`] });
    expect(stats.skippedLines).toBe(1);
    expect(translator.problems().map((p) => [p.reason, p.count])).toEqual([
      ["matched a rule but had no timestamp in the format 'log4j'", 1],
      ["matched rule 1 (state queue) but gave a value that is not a number (group 'q')", 1],
    ]);
  });

  it('the year of syslog timestamps comes from --year, else the file, else the current year (reported)', async () => {
    const dir = scratch({ 'a.yaml': 'timestamp: syslog\nrules: [{ match: x, event: X }]\n', 'b.yaml': 'timestamp: syslog\nyear: 2025\nrules: [{ match: x, event: X }]\n' });
    expect((await loadTranslator(join(dir, 'a.yaml')) as RulesTranslator).assumedYear).toBe(new Date().getUTCFullYear());
    expect((await loadTranslator(join(dir, 'a.yaml'), { year: 2026 }) as RulesTranslator).assumedYear).toBeUndefined();
    expect((await loadTranslator(join(dir, 'b.yaml')) as RulesTranslator).assumedYear).toBeUndefined();
  });

  it('--strict stops at the first untranslated line', async () => {
    const dir = scratch({ 't.yaml': rules, 'logs/n.log': LOG });
    await expect(translate(await loadTranslator(join(dir, 't.yaml')), join(dir, 'logs'), true))
      .rejects.toThrow(`${join(dir, 'logs/n.log')}:5: no translator rule matched: '\\x09at org.example.Foo(Foo.java:1)' (--strict)`);
  });
});

describe('a rules file\'s header: read once per line, the rules read the message', () => {
  const yaml = `
timestamp: log4j
header: '^\\S+ \\S+ (?<level>[A-Z]+) \\[(?<entity>\\w+)\\] '
rules:
  - { in: level, match: '^(?:ERROR|WARN)$', event: '\${entity}:\${level}', continue: true }
  - { match: '^Writer (?<w>\\d+) started', event: '\${entity}:Writer \${w}' }
  - { match: '^queue=(?<q>\\d+)', event: '\${entity}:stats', state: '\${entity}:queue', value: q }
  - { match: 'heap', event: '\${entity}:heap' }
`;

  it('names events by the header\'s groups; ^ is the message\'s start; a line the header misses matches no rule', async () => {
    const log = [
      '2026-11-20 10:00:01,000 INFO [w] Writer 1 started',
      '2026-11-20 10:00:01,500 ERROR [w] Writer 2 started',
      '2026-11-20 10:00:02,000 INFO [q] queue=17 heap=120MB',
      // The rules read the message: `stats queue=` is not at its start; `heap` is found anywhere in it.
      '2026-11-20 10:00:03,000 INFO [q] stats queue=18 heap=121MB',
      // No `[entity]`: the header does not match, so no rule does (though the message has `Writer 3 started`).
      '2026-11-20 10:00:04,000 INFO Writer 3 started',
      // The header's own text is not the message's: `[w] ` is read by the header, not by the `heap` rule.
      '2026-11-20 10:00:05,000 WARN [heap] compacting',
    ].join('\n');
    const dir = scratch({ 't.yaml': yaml, 'logs/n.log': log });
    const { records, stats } = await translate(await loadTranslator(join(dir, 't.yaml')), join(dir, 'logs'));
    expect(records).toEqual({
      'n.log': [
        `E ${AT_10_00_01} w:Writer 1`,
        `E ${AT_10_00_01 + 0.5} w:ERROR`,
        `E ${AT_10_00_01 + 0.5} w:Writer 2`,
        `E ${AT_10_00_01 + 1} q:stats`,
        `S ${AT_10_00_01 + 1} q:queue 17`,
        `E ${AT_10_00_01 + 2} q:heap`,
        `E ${AT_10_00_01 + 4} heap:WARN`,
      ],
    });
    expect(stats.unmappedLines).toBe(1);
  });
});

describe('rules file errors name the file and line', () => {
  const check = async (yaml: string, expected: string): Promise<void> => {
    const dir = scratch({ 't.yaml': yaml });
    expect(await loadError(join(dir, 't.yaml'))).toBe(`${join(dir, 't.yaml')}:${expected}`);
  };

  it('a bad regex', () => check(
    'timestamp: log4j\nrules:\n  - match: ok\n    event: A\n  - match: \'Writer (?<w>\\d+ started\'\n    event: B\n',
    "5: rule 2: match: bad regex 'Writer (?<w>\\d+ started': Unterminated group"));

  it('a template naming a group the regex lacks', () => check(
    "timestamp: log4j\nrules:\n  - match: 'Writer (?<w>\\d+)'\n    event: 'Writer_${worker}'\n",
    "4: rule 1: event 'Writer_${worker}' refers to group 'worker', but /Writer (?<w>\\d+)/ has only 'w'"));

  it('an unknown key', () => check(
    "timestamp: log4j\nrules:\n  - matches: 'x'\n    event: X\n",
    '3: rule 1: unknown key \'matches\' (expected match, in, event, state, value, scale, ignore, continue, name, contains)'));

  it('an unknown timestamp format', () => check(
    'timestamp: { format: log4, pattern: x }\nrules: [{ match: x, event: X }]\n',
    "1: unknown timestamp format 'log4': name one of iso8601, log4j, syslog, yyMMdd HHmmss, epoch-s, epoch-ms, epoch-us, epoch-ns, or write a format string with at least HH (e.g. 'yyyy/MM/dd HH:mm:ss.SSS')"));

  it('a state without a value', () => check(
    "timestamp: log4j\nrules:\n  - { match: 'q=(\\d+)', state: q }\n",
    "3: rule 1: a state needs 'value:', the group holding the number (e.g. value: q for (?<q>\\d+)) or a constant"));

  it('bad YAML (a regex in double quotes)', () => check(
    'timestamp: log4j\nrules:\n  - match: "Writer \\d+"\n    event: W\n',
    '3: bad YAML: Invalid escape sequence \\d'));

  it('a rule reading a header group when the file has no header:', () => check(
    "timestamp: log4j\nrules:\n  - { in: level, match: '^ERROR$', event: E }\n",
    "3: rule 1: 'in' names a group of the header: regex, and the file has no header:"));

  it('a rule reading a header group the header lacks', () => check(
    "timestamp: log4j\nheader: '^\\S+ \\S+ (?<lvl>\\w+) '\nrules:\n  - { in: level, match: '^ERROR$', event: E }\n",
    "4: rule 1: 'in' must name a group of the header: regex (it has 'lvl')"));

  it('no rules', () => check('timestamp: log4j\n', "missing 'rules:' (a list of { match:, event: } or { match:, state:, value: })".replace(/^/, '1: ')));
});

describe('translator loading', () => {
  it('a missing file', async () => {
    expect(await loadError('no/such/translator.yaml')).toBe('no/such/translator.yaml: cannot read translator: no such file or directory');
  });

  it('a file that is none of the three forms', async () => {
    expect(await loadError(`${T}/run-awk`)).toBe(`${T}/run-awk: not a translator: expected a rules file (.yaml, .yml, .json), a module (.js, .mjs, .cjs, .ts, .mts), or an executable program`);
  });

  it('a module without a function export', async () => {
    const dir = scratch({ 'm.mjs': 'export const x = 1;\n' });
    expect(await loadError(join(dir, 'm.mjs'))).toBe(`${join(dir, 'm.mjs')}: a translator module must export a function: \`export default function (line, ctx) { … }\` or \`export function translate(line, ctx)\``);
  });
});

describe('module translator', () => {
  it('calls the function per line; string times are parsed; a call or `true` maps the line', async () => {
    const dir = scratch({
      'm.mjs': `export default function (line, ctx) {
        const [ts, kind, name, v] = line.split(' ');
        if (kind === 'E') ctx.event(ts, name);
        else if (kind === 'S') ctx.state(Number(ts), name, v);
        else if (kind === 'I') ctx.instance(name);
        else return kind === 'keep';
      }`,
      'logs/a.log': '2026-11-20T10:00:01Z E Start\n2 S queue 3.5\n3 I other\n4 E End\n5 keep\n6 drop\n',
    });
    const { records, stats } = await translate(await loadTranslator(join(dir, 'm.mjs')), join(dir, 'logs'));
    expect(records).toEqual({ 'a.log': [`E ${AT_10_00_01} Start`, 'S 2 queue 3.5'], other: ['E 4 End'] });
    expect(stats.skippedLines).toBe(1);
  });

  it('CommonJS with beginFile, and TypeScript (types stripped)', async () => {
    const dir = scratch({ 'logs/a.log': 'ab\nabcd\n' });
    expect((await translate(await loadTranslator(`${T}/counter.cjs`), join(dir, 'logs'))).records)
      .toEqual({ 'a.log#counted': ['S 1 len 2', 'S 2 len 4'] });
    const ts = scratch({ 'logs/b.log': '1.5 Start\n2 End\nno-name\n' });
    const { records, stats } = await translate(await loadTranslator(`${T}/elapsed.ts`), join(ts, 'logs'));
    expect(records).toEqual({ 'b.log': ['E 1.5 Start', 'E 2 End'] });
    expect(stats.skippedLines).toBe(1);
  });

  it('an exception is reported with the translator path and the input line', async () => {
    const dir = scratch({ 'logs/a.log': 'one\ntwo\nthree\n' });
    await expect(translate(await loadTranslator(`${T}/throwing.mjs`), join(dir, 'logs')))
      .rejects.toThrow(`${join(dir, 'logs/a.log')}:3: translator ${T}/throwing.mjs failed: cannot parse 'three'`);
  });

  it('a bad time or value is an error at that line', async () => {
    const dir = scratch({ 'm.mjs': 'export function translate(line, ctx) { ctx.state(line, "x", "12abc"); }', 'logs/a.log': '1\nlater\n' });
    await expect(translate(await loadTranslator(join(dir, 'm.mjs')), join(dir, 'logs')))
      .rejects.toThrow(`${join(dir, 'logs/a.log')}:1: translator ${join(dir, 'm.mjs')} failed: state 'x' value '12abc' is not a finite number`);
    const bad = scratch({ 'm.mjs': 'export default (line, ctx) => ctx.event(line, "x");', 'logs/a.log': 'yesterday\n' });
    await expect(translate(await loadTranslator(join(bad, 'm.mjs')), join(bad, 'logs')))
      .rejects.toThrow(`${join(bad, 'logs/a.log')}:1: translator ${join(bad, 'm.mjs')} failed: event time 'yesterday' is neither seconds (a finite number) nor a timestamp string (decimal seconds or ISO-8601)`);
  });
});

describe('executable translator', () => {
  it('runs a #! script without execute permission through its interpreter', async () => {
    const dir = scratch({ 'tr.sh': '#!/bin/sh\nawk \'{ print "E\\t" NR "\\t" $1 }\' "$1"\n', 'logs/a.log': 'alpha\nbeta\n' });
    const translator = await loadTranslator(join(dir, 'tr.sh'));
    expect(translator.type).toBe('executable');
    expect((await translate(translator, join(dir, 'logs'))).records).toEqual({ 'a.log': ['E 1 alpha', 'E 2 beta'] });
  });

  it('a non-zero exit is an error naming the translator and the input, with its last stderr line', async () => {
    const dir = scratch({ 'logs/a.log': 'x\n' });
    await expect(translate(await loadTranslator(`${T}/failing.py`), join(dir, 'logs')))
      .rejects.toThrow(`${join(dir, 'logs/a.log')}: translator ${T}/failing.py exited with code 3: failing.py: unexpected input format`);
  });
});

describe('literal prefilter', () => {
  it('finds a literal every match contains, or none', () => {
    expect(requiredLiteral('Flushed memstore size=(?<mb>\\d+)MB')).toBe('Flushed memstore size=');
    expect(requiredLiteral('^\\d+ (?:GET|POST) /api')).toBe(' /api');
    expect(requiredLiteral('Writers? started')).toBe(' started');
    expect(requiredLiteral('a\\.b\\x41cdef')).toBe('cdef');
    expect(requiredLiteral('foo|barbaz')).toBe('');
    expect(requiredLiteral('[abc]+x{2,3}yz')).toBe('yz');
  });
});

describe('user regexes', () => {
  it('accept Python named groups, a leading (?i), and Unicode classes', async () => {
    const yaml = "timestamp: epoch-s\nrules:\n  - { match: '(?i)user (?P<who>\\p{L}+) LOGGED in', event: 'login_${who}' }\n";
    const dir = scratch({ 't.yaml': yaml, 'logs/a.log': '1 User Zoë logged IN\n2 user bob logged out\n' });
    const { records } = await translate(await loadTranslator(join(dir, 't.yaml')), join(dir, 'logs'));
    expect(records).toEqual({ 'a.log': ['E 1 login_Zoë'] });
  });
});
