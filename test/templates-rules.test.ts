/**
 * `distalyze templates -o` writes a rules file that reproduces the mining: on every raw fixture, each class read
 * through the rules file gives the records the miner's own translator gives (the same events and states, at the
 * same times, in the same instances), but for lines the file leaves out with a comment (stack-trace lines, which
 * have no timestamp of their own).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listInputFiles } from '../src/parse/files.js';
import { mineTemplates, templateTranslator } from '../src/parse/templates/index.js';
import { rulesYaml } from '../src/parse/templates/rules.js';
import { loadTranslator } from '../src/parse/translators/load.js';
import { recordsByInstance } from './helpers/records.js';

const RAW = 'fixtures/raw';

describe('templates -o: the rules file gives the miner\'s records', () => {
  it.each(['log4j', 'syslog', 'trace-csv', 'trainticket', 'jsonl', 'pipes', 'pids'])('%s', async (set) => {
    const classes = { good: await listInputFiles(`${RAW}/${set}/good`, 'good'), bad: await listInputFiles(`${RAW}/${set}/bad`, 'bad') };
    const model = await mineTemplates(classes, { year: 2026 });
    const yaml = rulesYaml(model);
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
