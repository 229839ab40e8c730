/**
 * One pass over raw text logs (issue 53): the mining pass keeps each line's numbers (replay.ts NumbersRecorder) and
 * the reader takes a file's records from the translator (MinedTranslator.translateFile) instead of reading the file
 * again. Its oracle is the plain path: every line read and translated from scratch (a model with no replay). Same
 * records in the same order, same lines, bytes and skipped lines.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { listInputFiles, type InputFile } from '../src/parse/files.js';
import { emptyReadStats, readClass, type ClassSink, type ReadStats } from '../src/parse/reader.js';
import type { ClassName } from '../src/parse/records.js';
import { mineTemplates, templateTranslator, type TemplateModel } from '../src/parse/templates/index.js';
import { hasKey, numericValue, tokenize } from '../src/parse/templates/mask.js';
import { messageKey } from '../src/parse/templates/split.js';
import { numberPlan, NumbersRecorder, readsAsNumber } from '../src/parse/templates/replay.js';

const RAW = join(import.meta.dirname, '..', 'fixtures', 'raw');

interface Read { records: string[]; stats: Record<ClassName, ReadStats>; fromMining: number }

/** Every record the reader gives with the model's translator, in order, as text; and how many files came from the mining pass. */
async function read(model: TemplateModel, classes: Record<ClassName, InputFile[]>): Promise<Read> {
  const translator = templateTranslator(model);
  let fromMining = 0;
  const own = translator.translateFile?.bind(translator);
  if (own !== undefined) {
    translator.translateFile = (ctx, sink) => {
      const r = own(ctx, sink);
      if (r !== null) fromMining++;
      return r;
    };
  }
  const records: string[] = [];
  const sink: ClassSink = {
    beginFile: (file, c) => { records.push(`F ${c} ${file.relativePath}`); },
    endFile: () => undefined,
    instance: (id) => { records.push(`I ${id}`); },
    event: (t, name) => { records.push(`E ${t} ${name}`); },
    state: (t, name, v) => { records.push(`S ${t} ${name} ${Object.is(v, -0) ? '-0' : v}`); },
  };
  const stats = { good: emptyReadStats(), bad: emptyReadStats() };
  for (const c of ['good', 'bad'] as const) await readClass(classes[c], c, sink, { translator, strict: false }, stats[c]);
  return { records, stats, fromMining };
}

/** The model without what the mining pass hands over: every line read and translated anew. */
function plain(model: TemplateModel): TemplateModel {
  const { replay: _, ...rest } = model;
  return rest;
}

async function classesOf(dir: string): Promise<Record<ClassName, InputFile[]>> {
  return { good: await listInputFiles(join(dir, 'good'), 'good'), bad: await listInputFiles(join(dir, 'bad'), 'bad') };
}

async function sameAsPlain(classes: Record<ClassName, InputFile[]>): Promise<Read> {
  const model = await mineTemplates(classes);
  const one = await read(model, classes);
  const oracle = await read(plain(model), classes);
  expect(oracle.fromMining).toBe(0);
  expect(one.records).toEqual(oracle.records);
  expect(one.stats).toEqual(oracle.stats);
  return one;
}

const fixturePairs = readdirSync(RAW).filter((d) => {
  try {
    return statSync(join(RAW, d, 'good')).isDirectory();
  } catch {
    return false;
  }
});

/** 20 lines of one log statement (a number of a put, and its time). */
const STORE = Array.from({ length: 20 }, (_, i) => `2026-11-20 10:00:${String(i).padStart(2, '0')},000 INFO  [main] org.example.Store: put ${i} took ${i + 3} ms`).join('\n');

/** A new directory whose good/a.log and bad/b.log hold STORE. */
function storeDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `distalyze-onepass-${name}-`));
  for (const c of ['good', 'bad']) mkdirSync(join(dir, c));
  writeFileSync(join(dir, 'good', 'a.log'), `${STORE}\n`);
  writeFileSync(join(dir, 'bad', 'b.log'), `${STORE}\n`);
  return dir;
}

describe('records from the mining pass (translateFile) against reading every line again', () => {
  it.each(fixturePairs)('fixtures/raw/%s: the same records and counts', async (name) => {
    const r = await sameAsPlain(await classesOf(join(RAW, name)));
    expect(r.records.filter((x) => x.startsWith('E ')).length).toBeGreaterThan(0);
  });

  it('a text log4j set is taken from the mining pass, every file of it', async () => {
    const classes = await classesOf(join(RAW, 'log4j'));
    const r = await sameAsPlain(classes);
    expect(r.fromMining).toBe(classes.good.length + classes.bad.length);
    expect(r.records.some((x) => x.startsWith('S '))).toBe(true);
  });

  it('generated numbers of every form: signs, fractions, units, long runs, `=`, edge punctuation, 0x, brackets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-onepass-'));
    // A seeded generator (LCG), so the file is the same each run.
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const digits = (n: number): string => Array.from({ length: n }, (_, i) => String(i === 0 && n > 1 ? 1 + next(9) : next(10))).join('');
    const forms = [
      () => `took ${digits(1 + next(4))}ms`,
      () => `delta=-${digits(1 + next(3))} d2=+${digits(2)}`,
      () => `ratio=${digits(1 + next(2))}.${digits(1 + next(5))} neg=-${digits(1)}.${digits(2)}%`,
      () => `big ${digits(14 + next(6))} id=${digits(17)}`,
      () => `[worker-${digits(1)}] (${digits(2)}) {${digits(3)}} "${digits(2)}", ${digits(2)};`,
      () => `addr 0x${digits(4)} hex ${digits(1)}x${digits(2)} x${digits(2)}`,
      () => `zero -0 ${'0'.repeat(1 + next(3))} v=0${digits(2)}KB`,
      () => `ip 10.${digits(1)}.${digits(2)}.${digits(1)}:${digits(4)} at=${digits(2)}.`,
    ];
    for (const c of ['good', 'bad'] as const) {
      mkdirSync(join(dir, c));
      for (let f = 0; f < 3; f++) {
        const lines: string[] = [];
        for (let i = 0; i < 400; i++) {
          const s = String(i % 60).padStart(2, '0');
          lines.push(`2026-11-20 10:${String(Math.floor(i / 60)).padStart(2, '0')}:${s},${String(i % 1000).padStart(3, '0')} ${i % 7 === 0 ? 'WARN ' : 'INFO '} [main] org.example.Job: ${(forms[i % forms.length] as () => string)()}`);
        }
        writeFileSync(join(dir, c, `run-${f}.log`), `${lines.join('\n')}\n`);
      }
    }
    const classes = await classesOf(dir);
    const r = await sameAsPlain(classes);
    expect(r.fromMining).toBe(6);
    expect(r.records.filter((x) => x.startsWith('S ')).length).toBeGreaterThan(1000);
  });

  it('a file with a line that becomes no record is read (its skipped line is reported with its text)', async () => {
    const dir = storeDir('skip');
    // A blank line in the middle: no record, reported.
    writeFileSync(join(dir, 'bad', 'c.log'), `${STORE}\n\n${STORE}\n`);
    const r = await sameAsPlain(await classesOf(dir));
    expect(r.fromMining).toBe(2);
    expect(r.stats.bad.skippedLines).toBe(1);
  });

  it('a file whose numbers would take over a quarter of its bytes, and a compressed file, are read (the same records)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-onepass-many-'));
    const line = (i: number, many: boolean): string => `2026-11-20 10:00:${String(i).padStart(2, '0')},000 INFO  [main] org.example.M: ` +
      (many ? Array.from({ length: 16 }, (_, k) => String((i * 7 + k) % 10)).join(' ') : `put ${i} took ${i + 3} ms`);
    for (const c of ['good', 'bad']) mkdirSync(join(dir, c));
    writeFileSync(join(dir, 'good', 'few.log'), `${Array.from({ length: 40 }, (_, i) => line(i, false)).join('\n')}\n`);
    writeFileSync(join(dir, 'good', 'many.log'), `${Array.from({ length: 40 }, (_, i) => line(i, true)).join('\n')}\n`);
    writeFileSync(join(dir, 'bad', 'few.log.gz'), gzipSync(`${Array.from({ length: 40 }, (_, i) => line(i, false)).join('\n')}\n`));
    writeFileSync(join(dir, 'bad', 'many.log'), `${Array.from({ length: 40 }, (_, i) => line(i + 1, true)).join('\n')}\n`);
    const r = await sameAsPlain(await classesOf(dir));
    // (good/few.log only: many.log's numbers are 16 × 8 bytes a line of ~90.)
    expect(r.fromMining).toBe(1);
    expect(r.records.filter((x) => x.startsWith('S ')).length).toBeGreaterThan(40 * 16);
  });

  it('a file changed after it was mined is read again, as it now is', async () => {
    const dir = storeDir('changed');
    const classes = await classesOf(dir);
    const model = await mineTemplates(classes);
    appendFileSync(join(dir, 'bad', 'b.log'), '2026-11-20 10:01:00,000 INFO  [main] org.example.Store: put 99 took 1000 ms\n');
    const one = await read(model, classes);
    expect(one.fromMining).toBe(1);
    expect(one.records).toContain('S 1795168860 Store:put <*> took <*> ms #2 1000');
    expect(one.records).toEqual((await read(plain(model), classes)).records);
  });
});

describe('NumbersRecorder against numericValue of each token', () => {
  it('the numbers of a key\'s numbered tokens, for messages of the key, with and without hasKey\'s shifts', () => {
    const messages = [
      'took 5ms delta=-12 d2=+07 ratio=3.25 neg=-0.5% big 123456789012345678 id=00017 (42) [w-3] "7", 8; 0x1f 3x4 -0 v=012KB 10.0.0.1:80 at=12.',
      'took 12345ms delta=-0 d2=+1 ratio=0.0 neg=-12.75% big 1 id=9 (0) [w-30] "70", 18; 0x2f 13x4 -00 v=9KB 192.168.0.10:8080 at=1.',
      'took 0ms delta=-9999999999999999 d2=+999999999999999 ratio=12345678901234567.5 neg=-1.0% big 1234567890123456 id=1 (9) [w-0] "0", 0; 0x9f 0x4 -7 v=0KB 1.2.3.4:5 at=0.',
    ];
    const key = messageKey(messages[0]!);
    const tokens = tokenize(key, false);
    const numbered = Int32Array.from(tokens.flatMap((t, i) => (readsAsNumber(t) ? [i] : [])));
    // Every token that reads as a number in some message is numbered; the others read as NaN in every message.
    for (const m of messages) {
      tokenize(m, false).forEach((t, i) => { if (!numbered.includes(i)) expect(numericValue(t), t).toBeNaN(); });
    }
    const plan = numberPlan(key, false, numbered);
    expect(Array.from(plan.run).filter((r) => r === -1).length).toBeGreaterThan(0); // the 0x tokens: read by numericValueIn
    for (const withShifts of [false, true]) {
      const recorder = new NumbersRecorder(1 << 20);
      for (const m of messages) {
        expect(messageKey(m)).toBe(key);
        const shifts = new Int32Array(plan.segments.length);
        expect(hasKey(m, plan.segments, shifts)).toBe(true);
        recorder.record(m, plan, withShifts ? shifts : null);
      }
      const expected = messages.flatMap((m) => { const t = tokenize(m, false); return Array.from(numbered, (i) => numericValue(t[i]!)); });
      expect(Array.from(recorder.finish()!).map((v) => (Object.is(v, -0) ? '-0' : String(v)))).toEqual(expected.map((v) => (Object.is(v, -0) ? '-0' : String(v))));
    }
  });
});
