/**
 * `distalyze templates -o` writes a rules file that reproduces the mining: on every raw fixture, each class read
 * through the rules file gives the records the miner's own translator gives (the same events and states, at the
 * same times, in the same instances), but for lines the file leaves out with a comment (stack-trace lines, which
 * have no timestamp of their own).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listInputFiles } from '../src/parse/files.js';
import { lineTemplates, mineTemplates, templateTranslator } from '../src/parse/templates/index.js';
import { rulesYaml } from '../src/parse/templates/rules.js';
import { loadTranslator } from '../src/parse/translators/load.js';
import { recordsByInstance } from './helpers/records.js';

const RAW = 'fixtures/raw';

describe('templates -o: the rules file gives the miner\'s records', () => {
  it.each(['log4j', 'syslog', 'trace-csv', 'trainticket', 'jsonl', 'pipes', 'pids', 'logfmt', 'logfmt-plain', 'logfmt-gokit', 'zap', 'pino'])('%s', async (set) => {
    const classes = { good: await listInputFiles(`${RAW}/${set}/good`, 'good'), bad: await listInputFiles(`${RAW}/${set}/bad`, 'bad') };
    const model = await mineTemplates(classes, { year: 2026 });
    const yaml = rulesYaml(model);
    // A parameter reads quoted values (`="a b"`) only where the logs hold one; else it stays a run of non-blanks.
    // (zap: `error="context deadline exceeded"`, a JSON string with spaces after the message, layout.ts jsonMessage.)
    expect(model.quoted === true).toBe(set.startsWith('logfmt') || set === 'zap');
    expect(yaml.includes('(?!"')).toBe(set.startsWith('logfmt'));
    const path = join(mkdtempSync(join(tmpdir(), 'distalyze-rules-')), 'rules.yaml');
    writeFileSync(path, yaml);
    const leftOut = new Set([...yaml.matchAll(/# left out: (.*) \(lines without/g)].map((m) => m[1]));
    const untimed = new Set(model.templates.filter((t) => !t.timed).map((t) => t.name));
    expect([...leftOut].sort()).toEqual([...untimed].sort());
    for (const c of ['good', 'bad'] as const) {
      const mined = await recordsByInstance(`${RAW}/${set}/${c}`, { translator: templateTranslator(model) });
      const viaRules = await recordsByInstance(`${RAW}/${set}/${c}`, { translator: await loadTranslator(path, { year: 2026 }) });
      const kept = (r: typeof mined): Record<string, string[]> => Object.fromEntries(Object.entries(r.byInstance)
        .map(([id, recs]) => [id, recs.filter((x) => ![...untimed].some((n) => x.includes(` ${n}`))).sort()]));
      expect(kept(viaRules)).toEqual(kept(mined));
    }
  });
});

describe('a quoted value after `=` is one token (fixtures/raw/logfmt: logfmt lines behind a timestamp and a program)', () => {
  it('a value of one, two or three words is the same log statement; the rules file reads it the same way', async () => {
    const classes = { good: await listInputFiles(`${RAW}/logfmt/good`, 'good'), bad: await listInputFiles(`${RAW}/logfmt/bad`, 'bad') };
    const model = await mineTemplates(classes, { year: 2026 });
    for (const c of ['good', 'bad'] as const) {
      const file = classes[c][0]!;
      const lines = readFileSync(file.path, 'utf8').split('\n');
      const ids = new Map((await lineTemplates(model, file)).map(([line, id]) => [line, id]));
      // Each statement (its msg) is one template, whatever its quoted values hold: `user="Grace Brewster Hopper"`
      // and `user=linus` (3 and 1 words), `err="card \"4242\" declined by bank"` (an escaped quote).
      for (const msg of ['user signed in', 'cache miss', 'payment retry']) {
        const of = new Set(lines.flatMap((l, i) => (l.includes(`msg="${msg}"`) ? [ids.get(i + 1)] : [])));
        if (c === 'good' && msg === 'payment retry') expect(of.size).toBe(0);
        else expect([...of].length).toBe(1);
      }
    }
    const names = model.templates.map((t) => t.name).sort();
    // The words of a constant quoted value stay; a number in one is masked as a token's would be.
    expect(names).toContain('level=info msg="cache miss" key="cart of user <*>"');
    expect(names).toContain('level=info msg="server stopped" reason="signal: terminated"');
    expect(names).toContain('level=warn msg="payment retry" err="card <*>" declined by bank" attempt=<*>');
    // attempt=1|2 varies: a state of the template, read at its token position as by the rules file (above).
    const retry = model.templates.find((t) => t.name.includes('payment retry'))!;
    expect(retry.states.filter((s) => s !== '')).toHaveLength(1);
    expect(retry.tokens).toHaveLength(4);
  });
});
