/**
 * The speed paths of raw logs (issue 53) against their plain versions: translating with the line heads the mining
 * pass kept (replay.ts) gives the records of translating every line from scratch, and the remembered text header
 * (header-memo.ts) reads as header.ts readTextHeader does.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { listInputFiles, type InputFile } from '../src/parse/files.js';
import { readLines } from '../src/parse/lines.js';
import type { ClassName } from '../src/parse/records.js';
import { mineTemplates, templateTranslator, type TemplateModel } from '../src/parse/templates/index.js';
import { HeaderMemo } from '../src/parse/templates/header-memo.js';
import { learnTextHeader, readTextHeader, type HeaderParts, type TextHeader } from '../src/parse/templates/header.js';
import { keyPlan, readByPlan, tokenize } from '../src/parse/templates/mask.js';
import { messageKey } from '../src/parse/templates/split.js';
import { tokensByKey } from '../src/parse/templates/replay.js';
import { textSink } from './helpers/records.js';

const RAW = join(import.meta.dirname, '..', 'fixtures', 'raw');

/** Every record the model's translator gives each file, in order, as text. */
async function records(model: TemplateModel, classes: Record<ClassName, InputFile[]>): Promise<string[]> {
  const translator = templateTranslator(model);
  const out: string[] = [];
  const sink = textSink(out);
  for (const className of ['good', 'bad'] as const) {
    for (const file of classes[className]) {
      const ctx = { file: file.path, relativePath: file.relativePath, className };
      out.push(`F ${file.relativePath}`);
      translator.beginFile?.(ctx, sink);
      await readLines(file, {
        line: (text, line) => { out.push(`${line} ${translator.translateLine(text, { ...ctx, line }, sink) ? translator.lastTemplate() : -1}`); },
        tooLong: () => undefined,
      });
    }
  }
  return out;
}

/** The model with no line heads (every line split anew), and with no replay at all (every line keyed anew too). */
function plain(model: TemplateModel): { noHeads: TemplateModel; noReplay: TemplateModel } {
  const { replay, ...rest } = model;
  const { heads: _, ...keysOnly } = replay!;
  return { noHeads: { ...rest, replay: keysOnly }, noReplay: rest };
}

const fixturePairs = readdirSync(RAW).filter((d) => {
  try {
    return statSync(join(RAW, d, 'good')).isDirectory();
  } catch {
    return false;
  }
});

describe('line heads kept by the mining pass', () => {
  it.each(fixturePairs)('fixtures/raw/%s: the same records with the heads, with the keys only, and with no replay', async (name) => {
    const classes = { good: await listInputFiles(join(RAW, name, 'good'), 'good'), bad: await listInputFiles(join(RAW, name, 'bad'), 'bad') };
    const model = await mineTemplates(classes);
    const { noHeads, noReplay } = plain(model);
    const fast = await records(model, classes);
    expect(fast.filter((r) => r.startsWith('E ')).length).toBeGreaterThan(0);
    expect(fast).toEqual(await records(noHeads, classes));
    expect(fast).toEqual(await records(noReplay, classes));
  });

  it('text logs keep heads (log4j, pids, syslog with one host), tables do not', async () => {
    const heads = async (name: string): Promise<number> => {
      const classes = { good: await listInputFiles(join(RAW, name, 'good'), 'good'), bad: await listInputFiles(join(RAW, name, 'bad'), 'bad') };
      return Object.keys((await mineTemplates(classes)).replay?.heads ?? {}).length;
    };
    expect(await heads('log4j')).toBeGreaterThan(0);
    expect(await heads('pids')).toBeGreaterThan(0);
    expect(await heads('trainticket')).toBe(0);
    expect(await heads('jsonl')).toBe(0);
  });

  it('each header fixture, mined as both classes: the same records with and without heads', async () => {
    const dir = join(RAW, 'headers');
    for (const name of readdirSync(dir)) {
      const [file] = await listInputFiles(join(dir, name), 'good');
      const classes = { good: [file!], bad: [file!] };
      const model = await mineTemplates(classes);
      expect(Object.keys(model.replay?.heads ?? {}), name).toHaveLength(name === 'pipes.log' || name === 'syslog.log' ? 0 : 1);
      const { noReplay } = plain(model);
      expect(await records(model, classes), name).toEqual(await records(noReplay, classes));
    }
  });

  it('gzipped text logs keep heads too, with the same records', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-heads-gz-'));
    for (const c of ['good', 'bad']) {
      mkdirSync(join(dir, c));
      for (const f of readdirSync(join(RAW, 'log4j', c))) writeFileSync(join(dir, c, `${f}.gz`), gzipSync(readFileSync(join(RAW, 'log4j', c, f))));
    }
    const classes = { good: await listInputFiles(join(dir, 'good'), 'good'), bad: await listInputFiles(join(dir, 'bad'), 'bad') };
    const model = await mineTemplates(classes);
    expect(Object.keys(model.replay?.heads ?? {})).toHaveLength(classes.good.length + classes.bad.length);
    expect(await records(model, classes)).toEqual(await records(plain(model).noReplay, classes));
  });

  it('a file changed since it was mined is split anew: its own times, levels and entities', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-heads-'));
    const lines = (level: string, at: number): string => Array.from({ length: 6 }, (_, i) =>
      `2026-11-20 10:00:0${at + i},000 ${level} [main] org.example.Store: put ${i} took ${10 + i} ms\n`).join('');
    writeFileSync(join(dir, 'a.log'), lines('INFO ', 0));
    writeFileSync(join(dir, 'b.log'), lines('INFO ', 0));
    const classes = { good: await listInputFiles(join(dir, 'a.log'), 'good'), bad: await listInputFiles(join(dir, 'b.log'), 'bad') };
    const model = await mineTemplates(classes);
    expect(Object.keys(model.replay?.heads ?? {})).toHaveLength(2);
    // Another level, and times a second later: the same message keys, the same length.
    writeFileSync(join(dir, 'b.log'), `${lines('ERROR', 1)}`);
    const after = await records(model, classes);
    expect(after.filter((r) => r.startsWith('E ') && r.includes('ERROR'))).toHaveLength(6);
    // (b's last line is at 10:00:06, a time no line had when mined.)
    expect(after.some((r) => r.startsWith('E 1795168806 '))).toBe(true);
    expect(after).toEqual(await records(plain(model).noReplay, classes));
  });
});

describe('the remembered text header (header-memo.ts)', () => {
  /** readTextHeader and the memo over the same messages, in order: the same message and parts each time. */
  function same(header: TextHeader, messages: readonly string[]): number {
    const memo = new HeaderMemo(header);
    const a: HeaderParts = { level: '', entity: '' };
    const b: HeaderParts = { level: '', entity: '' };
    let read = 0;
    for (const m of messages) {
      const plainOut = readTextHeader(m, header, a);
      expect([memo.read(m, b), b.level, b.entity], m).toEqual([plainOut, a.level, a.entity]);
      if (plainOut !== m) read++;
    }
    return read;
  }

  it('reads each header fixture as readTextHeader does (each line twice, so the second is remembered)', () => {
    const dir = join(RAW, 'headers');
    let read = 0;
    for (const name of readdirSync(dir)) {
      // The messages after a timestamp of 15 to 26 characters: whatever header.ts learns from them.
      const lines = readFileSync(join(dir, name), 'utf8').split('\n').filter((l) => l !== '');
      for (const cut of [0, 15, 16, 19, 20, 24, 27]) {
        const messages = lines.map((l) => l.slice(cut));
        const header = learnTextHeader(messages);
        if (header !== undefined) read += same(header, [...messages, ...messages]);
      }
    }
    expect(read).toBeGreaterThan(50);
  });

  it('a `[` matched beyond the header, more blanks, or nothing after the header: as readTextHeader', () => {
    // (Headers longer than the 32 characters that pick a remembered one, so each line finds the one before.)
    const header: TextHeader = { slots: ['level', 'bracket', 'colon'], entity: 2 };
    same(header, [
      'INFO [main] org.example.storage.engine.Store: put 1',
      'INFO [main] org.example.storage.engine.Store: put 2', // remembered
      'INFO [main] org.example.storage.engine.Store:  two blanks',
      'INFO [main] org.example.storage.engine.Store: ', // nothing left for the message
      'INFO [main] org.example.storage.engine.Store:',
      'INFO [main] org.example.storage.engine.Store:x glued',
      'WARN [main] org.example.storage.engine.Store: put 3',
      'INFO [main org.example.storage.engine.Store: put 4] x', // the `[` closes in the message: not remembered
      'INFO [main org.example.storage.engine.Store: put 4] y',
      'INFO [main org.example.storage.engine.Store: put] 5',
      'INFO [a [b] c] org.example.storage.engine.Store: nested',
      'INFO [a [b] c] org.example.storage.engine.Store: nested again',
      'INFO [a [b] c]] org.example.storage.engine.Store: one too many',
      'INFO\t[main]\torg.example.storage.engine.Store:\ttabs',
      'INFO\t[main]\torg.example.storage.engine.Store:\ttabs again',
    ]);
    // Any field: `[x` is a field of its own while no `]` closes it, but the whole `[x org…Store: put]` where one does
    // (the header longer than the 32 characters that pick a remembered one).
    const store = 'INFO [x org.example.storage.engine.Store:';
    expect(same({ slots: ['level', 'any', 'colon'], entity: 2 }, [`${store} put 1`, `${store} put] 2`, `${store} put 3`])).toBe(2);
  });

  it('a file whose lines seldom repeat a header stops remembering, and reads the same', () => {
    const header: TextHeader = { slots: ['bracket', 'colon'], entity: 1 };
    const messages = Array.from({ length: 5000 }, (_, i) => `[thread-${i}] Worker${i % 7}: step ${i}`);
    same(header, messages);
  });
});

describe('readByPlan with keyKnown (a line known to have its key) against readByPlan', () => {
  it('the same numbers for messages of the key', () => {
    const key = ' call multi(0 actions) from 0.0.0.0:0 processed in 0ms size=0.0MB';
    const plan = keyPlan(key, false, Int32Array.from([1, 2, 4, 7, 8]));
    const messages = [
      ' call multi(230 actions) from 10.0.7.198:53528 processed in 7ms size=1.5MB',
      ' call multi(3 actions) from 10.0.0.1:1 processed in 1234ms size=10.25MB',
      ' call multi(0 actions) from 0.0.0.0:0 processed in 0ms size=0.0MB',
    ];
    for (const m of messages) {
      const a = new Float64Array(5);
      const b = new Float64Array(5);
      expect(readByPlan(m, plan, a, new Int32Array(64))).toBe(true);
      expect(readByPlan(m, plan, b, new Int32Array(64), true)).toBe(true);
      expect(Array.from(b)).toEqual(Array.from(a));
    }
    // A message of another shape is not read (no digits where the key has them, another length).
    expect(readByPlan(' call multi(x actions)', plan, new Float64Array(5), new Int32Array(64), true)).toBe(false);
    expect(readByPlan(`${messages[0]} more`, plan, new Float64Array(5), new Int32Array(64), true)).toBe(false);
  });
});

describe('tokensByKey (the mining pass\'s tokens of a message of a known key) against tokenize', () => {
  it('the same tokens at the positions asked, space- and comma-separated', () => {
    const cases: Array<[boolean, string[]]> = [
      [false, ['callQueue stats: queue=5 handlers=30', 'callQueue stats: queue=12 handlers=300', 'callQueue stats: queue=0 handlers=1']],
      [false, ['\tUser 12  not found at 10.0.0.1:8080 ', '\tUser 7  not found at 192.168.10.200:80 ']],
      [true, ['a,12,,b3,0x1f', 'a,7,,b30,0x2f']],
      // A quoted value after `=` is one token (mask.ts tokenize), digits in it or not.
      [false, ['acquire lock=23, tag="View Lock 1", n=7 x="a \\"b 2"', 'acquire lock=2301, tag="View Lock 12", n=0 x="a \\"b 20"']],
    ];
    for (const [comma, messages] of cases) {
      const key = messageKey(messages[0]!);
      const whole = tokenize(messages[0]!, comma);
      const positions = Int32Array.from(whole.flatMap((t, i) => (/[0-9]/.test(t) ? [i] : [])));
      const plan = keyPlan(key, comma, positions);
      for (const m of messages) {
        expect(messageKey(m)).toBe(key);
        const out: string[] = [];
        expect(tokensByKey(m, plan, new Int32Array(64), out)).toBe(true);
        const raw = tokenize(m, comma);
        expect(out).toEqual(Array.from(positions, (i) => raw[i]));
      }
      expect(tokensByKey(`${messages[0]!}x`, plan, new Int32Array(64), [])).toBe(false);
    }
  });
});
