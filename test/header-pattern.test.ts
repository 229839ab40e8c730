/**
 * --header-pattern REGEX (issue 53: "options to say it when detection is wrong … a header pattern"): the text
 * header after the timestamp is what the user's regex matches, its group `level` the line's level and `entity` its
 * component, instead of the header learned per file (header.ts). Expected values are read off the fixture lines
 * by hand; the rules file `templates -o` writes with it gives the miner's records.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listInputFiles } from '../src/parse/files.js';
import { patternHeader, readTextHeader, type HeaderParts } from '../src/parse/templates/header.js';
import { mineTemplates, templateTranslator } from '../src/parse/templates/index.js';
import { rulesYaml } from '../src/parse/templates/rules.js';
import { loadTranslator } from '../src/parse/translators/load.js';
import { recordsByInstance } from './helpers/records.js';
import { run } from './helpers/run.js';

// fixtures/raw/headers/logback.log: `%d [%thread] %-5level %logger - %msg`.
const LOGBACK = '\\[[^\\]]*\\] (?<level>\\w+) +(?<entity>\\S+) -';
// fixtures/raw/log4j: `%d %-5p [%t] %c: %m`.
const LOG4J = '(?<level>[A-Z]+) +\\[[^\\]]*\\] (?<entity>\\S+?):';

describe('a header pattern read off a line', () => {
  const parts: HeaderParts = { level: '', entity: '' };
  it('leaves the message after the match and its blanks; level and entity from the groups', () => {
    const header = patternHeader(LOGBACK);
    expect(header.entity).toBe(0);
    expect(readTextHeader(' [pool 2 worker 1] INFO  c.e.shop.OrderService - order 554 placed by customer 9', header, parts)).toBe('order 554 placed by customer 9');
    expect(parts).toMatchObject({ level: 'INFO', entity: 'c.e.shop.OrderService' });
    // A level word in another case or in brackets is read as a learned header's is; another word is kept upper-cased.
    expect(readTextHeader('[t] warning x.Y - retry', header, parts)).toBe('retry');
    expect(parts.level).toBe('WARNING');
    expect(readTextHeader('[t] Audit x.Y - retry', header, parts)).toBe('retry');
    expect(parts.level).toBe('AUDIT');
  });
  it('a line it does not match, or that it matches whole, is left whole with no level or entity', () => {
    const header = patternHeader(LOGBACK);
    expect(readTextHeader(' plain message 7', header, parts)).toBe(' plain message 7');
    expect(parts).toMatchObject({ level: '', entity: '' });
    expect(readTextHeader('[t] INFO x.Y -  ', header, parts)).toBe('[t] INFO x.Y -  ');
  });
  it('a leading ^ anchors at the header, not at the line (the timestamp is cut off first)', () => {
    expect(readTextHeader(' [t] INFO x.Y - go', patternHeader(`^${LOGBACK}`), parts)).toBe('go');
    expect(patternHeader('\\S+ -').entity).toBe(-1);
  });
});

describe('mining with a header pattern', () => {
  it('logback: the same templates as the learned header, the events named by the entity group as written (the learned header names the class alone)', async () => {
    const file = 'fixtures/raw/headers/logback.log';
    const classes = { good: await listInputFiles(file, 'good'), bad: await listInputFiles(file, 'bad') };
    const model = await mineTemplates(classes, { year: 2026, headerPattern: LOGBACK });
    expect(model.templates.map((t) => t.name)).toEqual(['order <*> placed by customer <*>', 'sync <*> done', 'retry <*> of <*>']);
    const records = await recordsByInstance(file, { translator: templateTranslator(model) });
    const records2 = Object.values(records.byInstance).flat().filter((r) => r.includes('PaymentClient:'));
    // Lines 4 (WARN, retry 1 of 3) and 7 (ERROR, retry 3 of 3): the statement, its number that varies, the level's event.
    expect(records2.map((r) => { const [kind, , ...rest] = r.split(' '); return `${kind} ${rest.join(' ')}`; }).sort()).toEqual([
      'E c.e.shop.PaymentClient:retry <*> of <*>', 'E c.e.shop.PaymentClient:WARN', 'S c.e.shop.PaymentClient:retry <*> of <*> #1 1',
      'E c.e.shop.PaymentClient:retry <*> of <*>', 'E c.e.shop.PaymentClient:ERROR', 'S c.e.shop.PaymentClient:retry <*> of <*> #1 3',
    ].sort());
  });

  it('log4j: templates -o writes the pattern as its header and reproduces the miner\'s records', async () => {
    const classes = { good: await listInputFiles('fixtures/raw/log4j/good', 'good'), bad: await listInputFiles('fixtures/raw/log4j/bad', 'bad') };
    const model = await mineTemplates(classes, { year: 2026, headerPattern: LOG4J });
    const yaml = rulesYaml(model);
    expect(yaml).toContain(`header: '^\\s*\\[?\\S+(?:\\s+\\S+){1}\\]?\\s+(?:${LOG4J})\\s*(?=\\S)'`);
    const path = join(mkdtempSync(join(tmpdir(), 'distalyze-hp-')), 'rules.yaml');
    writeFileSync(path, yaml);
    const untimed = model.templates.filter((t) => !t.timed).map((t) => t.name);
    expect(untimed.length).toBeGreaterThan(0);
    for (const c of ['good', 'bad'] as const) {
      const mined = await recordsByInstance(`fixtures/raw/log4j/${c}`, { translator: templateTranslator(model) });
      const viaRules = await recordsByInstance(`fixtures/raw/log4j/${c}`, { translator: await loadTranslator(path, { year: 2026 }) });
      const kept = (r: typeof mined): Record<string, string[]> => Object.fromEntries(Object.entries(r.byInstance)
        .map(([id, recs]) => [id, recs.filter((x) => !untimed.some((n) => x.includes(` ${n}`))).sort()]));
      expect(kept(viaRules)).toEqual(kept(mined));
      // The entity is the group as the user wrote it: the logger's full name.
      expect(Object.values(mined.byInstance).flat().some((r) => r.includes(' org.apache.hadoop.hbase.regionserver.HRegion:Flushed memstore'))).toBe(true);
    }
  });
});

describe('the option, from the command line', () => {
  const log4j = ['fixtures/raw/log4j/good', 'fixtures/raw/log4j/bad', '--year', '2026'];
  it('says the pattern in the run\'s summary line', async () => {
    const r = await run(...log4j, '--header-pattern', LOG4J, '--top', '1');
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(`raw logs, no translator: 14 templates mined from 248 lines (timestamps: yyyy-MM-dd HH:mm:ss,SSS; header by --header-pattern /${LOG4J}/; one file = one instance); see them with distalyze templates GOOD BAD`);
  });
  it('one-line errors: a bad regex, a pattern no line has, records, a translator', async () => {
    expect((await run(...log4j, '--header-pattern', '(?<level>[A-Z')).stderr).toBe("distalyze: --header-pattern: bad regex '(?<level>[A-Z': Unterminated character class\n");
    expect((await run(...log4j, '--header-pattern', 'nomatch (?<level>\\w+)')).stderr).toBe(
      'distalyze: fixtures/raw/log4j/good/rs-1.log: --header-pattern matches none of the first 28 lines (it is matched after the timestamp): "INFO  [main] org.apache.hadoop.hbase.regionserver.HRegionSer"\n');
    expect((await run('fixtures/pipeline/good', 'fixtures/pipeline/bad', '--header-pattern', 'x')).stderr).toBe('distalyze: --header-pattern is for raw logs, but the input holds records\n');
    expect((await run(...log4j, '--translator', 'examples/log4j/rules.yaml', '--header-pattern', 'x')).stderr).toBe(
      'distalyze: --header-pattern is for raw logs without a translator; with --translator, the translator says where times and instances are\n');
  });
});
