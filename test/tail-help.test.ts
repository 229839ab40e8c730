/**
 * The rest of a large file read by a second thread (src/parse/tail-help.ts):
 * the records, names, counts, skipped lines and errors a sink gets are the
 * sequential read's, wherever the cut falls and whatever the helper's part
 * holds. The helper runs on this thread here (its reads are asynchronous),
 * claiming the rest as soon as the owner shows the file; parallel.test.ts
 * has the threads.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { readDlogTail } from '../src/parse/fast/dlog-tail.js';
import type { InputFile } from '../src/parse/files.js';
import { emptyReadStats, readClass, type ClassSink } from '../src/parse/reader.js';
import { CHUNK_BYTES, HelpBoard, TailOwner } from '../src/parse/tail-help.js';

const dir = mkdtempSync(join(tmpdir(), 'distalyze-tail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A sink that writes down every call, names numbered through its intake as the collector numbers them. */
function recorder(): { sink: ClassSink; log: string[] } {
  const log: string[] = [];
  const events: string[] = [];
  const states: string[] = [];
  const number = (names: string[], tag: string, name: string): number => {
    let i = names.indexOf(name);
    if (i < 0) {
      i = names.length;
      names.push(name);
      log.push(`${tag} ${name} = ${i}`);
    }
    return i;
  };
  const sink: ClassSink = {
    beginFile: () => undefined,
    endFile: () => undefined,
    instance: (id) => { log.push(`I ${id}`); },
    event: (t, name) => { log.push(`e ${name} ${t}`); },
    state: (t, name, v) => { log.push(`s ${name} ${t} ${v}`); },
    intake: {
      splittable: true,
      eventVariable: (name) => number(events, 'event', name),
      stateVariable: (name) => number(states, 'state', name),
      records: (code, t, v, n) => {
        for (let i = 0; i < n; i++) {
          const c = code[i] as number;
          log.push(c >= 0 ? `e ${events[c]} ${t[i]}` : `s ${states[-1 - c]} ${t[i]} ${v[i]}`);
        }
      },
    },
  };
  return { sink, log };
}

/** ~9.5 MiB of records (a chunked read from 8 MiB on): events and states, new names now and then. */
function body(lines = 400_000, crlf = false): string {
  const out: string[] = [];
  const end = crlf ? '\r\n' : '\n';
  for (let i = 0; i < lines; i++) {
    const t = (1_700_000_000 + i * 0.001).toFixed(3);
    // A name first met every 40 000 lines: the helper numbers some, in its own order.
    const name = `step${i % 7}${i % 40_000 === 39_999 ? `x${i}` : ''}`;
    out.push(i % 3 === 0 ? `S\t${t}\tqueue_${i % 5}\t${i % 11}${end}` : `E\t${t}\t${name}${end}`);
  }
  return out.join('');
}

function fileOf(name: string, content: string | Buffer): InputFile {
  const path = join(dir, name);
  writeFileSync(path, content);
  const size = Buffer.byteLength(content);
  return { path, relativePath: name, gzip: false, size };
}

interface Outcome {
  log: string[];
  stats: unknown;
  told: number;
  error: string | null;
}

/**
 * Read `file` as the owner thread does; with `share`, a helper on this thread
 * claims that share of the rest (from a chunk boundary) once the file is
 * shown. Returns what the sink got, and the helper's resume point (-2: no claim).
 */
async function read(file: InputFile, strict: boolean, share?: number, readAhead = true): Promise<Outcome & { resumeAt: number; pieces: number }> {
  const { sink, log } = recorder();
  const stats = emptyReadStats();
  let told = 0;
  let resumeAt = -2;
  let pieces = 0;
  const board = new HelpBoard(2);
  const owner = new TailOwner(board, 0, 0);
  owner.reading(0, [file]);
  let helper: Promise<void> = Promise.resolve();
  if (share !== undefined) {
    owner.onShow = () => {
      owner.onShow = null;
      const claim = board.claim(0, 0, share);
      if (claim === null) return;
      helper = (async () => {
        resumeAt = await readDlogTail(file, claim.cut, (piece) => {
          pieces++;
          // Shared, so that it crosses to the owner's thread without moving (detaching) anything in the helper's.
          for (const a of [piece.code, piece.t, piece.values]) expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
          owner.deliver({ type: 'tail-piece', owner: 0, gen: claim.gen, ...piece });
        }, readAhead);
        owner.deliver({ type: 'tail-end', owner: 0, gen: claim.gen, resumeAt });
      })();
    };
  }
  let error: string | null = null;
  try {
    await readClass([file], 'good', sink, { strict, onBytes: (n) => { told += n; }, readAhead, ...(share !== undefined ? { tail: owner } : {}) }, stats);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    error = `${err.message} @${err.file}:${err.line} (${err.hint})`;
  }
  await helper;
  return { log, stats, told, error, resumeAt, pieces };
}

/** `readAhead` for the helped read (both threads' reads); the sequential one reads ahead. */
async function same(file: InputFile, strict: boolean, share: number, readAhead = true): Promise<{ resumeAt: number; pieces: number }> {
  const alone = await read(file, strict);
  const helped = await read(file, strict, share, readAhead);
  expect(helped.error).toEqual(alone.error);
  // (Counted: a file whose rest the helper read; else the same counts.)
  expect(helped.stats).toEqual({ ...(alone.stats as object), helped: helped.error === null && helped.resumeAt > 0 && helped.pieces > 0 ? 1 : 0 });
  // (Told once each: the same total, the file's size, when read to its end.)
  expect(helped.told).toBe(alone.told);
  // (The first difference and a few lines around it: a diff of two 400 000-line logs would take minutes.)
  let at = 0;
  while (at < alone.log.length && helped.log[at] === alone.log[at]) at++;
  expect(helped.log.slice(Math.max(0, at - 2), at + 3)).toEqual(alone.log.slice(Math.max(0, at - 2), at + 3));
  expect(helped.log.length).toBe(alone.log.length);
  return { resumeAt: helped.resumeAt, pieces: helped.pieces };
}

describe('the rest of a large file read by a helper (tail-help.ts)', () => {
  const text = body();
  const plain = fileOf('plain.dlog', text);

  it('gives the sequential read\'s records, names and counts, the cut at any chunk; the helper reads to the end', async () => {
    expect(plain.size).toBeGreaterThan(8 * CHUNK_BYTES);
    for (const share of [0.95, 0.6, 0.2]) {
      const { resumeAt, pieces } = await same(plain, false, share);
      expect(resumeAt).toBe(plain.size);
      expect(pieces).toBeGreaterThan(0);
    }
  });

  it('each thread reading on itself (no core free to read ahead): the same, from any cut', async () => {
    for (const share of [0.95, 0.6, 0.2]) {
      const { resumeAt, pieces } = await same(plain, false, share, false);
      expect(resumeAt).toBe(plain.size);
      expect(pieces).toBeGreaterThan(0);
    }
    // The owner reads on after the helper stopped at a line it does not take: from a line start, not a chunk's.
    const cut = text.indexOf('\n', Math.floor(text.length * 0.8)) + 1;
    const file = fileOf('skipped-here.dlog', `${text.slice(0, cut)}not a record\n${text.slice(cut)}`);
    const { resumeAt } = await same(file, false, 0.5, false);
    expect(resumeAt).toBeLessThanOrEqual(cut);
    expect(resumeAt).toBeGreaterThan(cut - CHUNK_BYTES - 2);
    expect(resumeAt % CHUNK_BYTES).not.toBe(0);
  });

  it('a line ending at a chunk boundary, a file ending without a line end, CRLF lines', async () => {
    // Line k ends exactly where chunk 5 begins: the helper's part starts after the next line.
    const lines = text.split('\n');
    let at = 0;
    let k = 0;
    while (at + (lines[k] as string).length + 1 < 5 * CHUNK_BYTES) at += (lines[k++] as string).length + 1;
    const pad = 5 * CHUNK_BYTES - at - 1;
    const aligned = [...lines.slice(0, k), `#${'-'.repeat(pad - 1)}`, ...lines.slice(k)].join('\n');
    expect(aligned.indexOf('\n', 5 * CHUNK_BYTES - 2)).toBe(5 * CHUNK_BYTES - 1);
    const file = fileOf('aligned.dlog', aligned);
    for (const share of [0.5, 0.55, 0.45]) expect((await same(file, false, share)).resumeAt).toBe(file.size);
    const open = fileOf('open.dlog', text.slice(0, -1));
    expect((await same(open, false, 0.5)).resumeAt).toBe(open.size);
    const crlf = fileOf('crlf.dlog', body(400_000, true));
    expect((await same(crlf, false, 0.5)).resumeAt).toBe(crlf.size);
  });

  it('stops at what the fast lane does not take, and the owner reads on from the last whole chunk', async () => {
    const at = Math.floor(text.length * 0.8);
    const cut = text.indexOf('\n', at) + 1;
    const odd: Record<string, string> = {
      skipped: 'not a record\n',
      instance: 'I\treq-7\n',
      'non-ASCII name': 'E\t1700000299.5\tcafé\n',
      'too long': `E\t1700000299.5\t${'n'.repeat(1_100_000)}\n`,
    };
    for (const [what, line] of Object.entries(odd)) {
      const file = fileOf(`${what.replace(/ /g, '-')}.dlog`, text.slice(0, cut) + line + text.slice(cut));
      for (const strict of [false, true]) {
        const { resumeAt, pieces } = await same(file, strict, 0.5);
        // The helper read up to a chunk before the line (its records taken), and stopped.
        expect(resumeAt, what).toBeLessThanOrEqual(cut);
        expect(resumeAt, what).toBeGreaterThan(cut - CHUNK_BYTES - 2);
        expect(pieces, what).toBeGreaterThan(0);
      }
    }
  });

  it('an ISO timestamp or an exponent in the helper\'s part (the fast lane takes them): read to the end', async () => {
    const cut = text.indexOf('\n', Math.floor(text.length * 0.8)) + 1;
    const file = fileOf('iso.dlog', `${text.slice(0, cut)}E\t2026-11-24T12:00:00Z\tlate\nS\t1.7e9\tqueue_1\t3\n${text.slice(cut)}`);
    expect((await same(file, false, 0.5)).resumeAt).toBe(file.size);
  });

  it('a character across the end of the owner\'s last chunk, and the helper stopped after it: read on with no sequence pending', async () => {
    // The cut at 4 MiB (half of what is left from the start, in whole MiB): 'é' (C3 A9) across 5 MiB, a skipped line after.
    const start = text.lastIndexOf('\n', 5 * CHUNK_BYTES - 100) + 1;
    const comment = `# ${'-'.repeat(5 * CHUNK_BYTES - 1 - start - 2)}é\n`;
    const file = fileOf('across.dlog', `${text.slice(0, start)}${comment}${text.slice(start, start + 300)}not a record\n${text.slice(start + 300)}`);
    expect(Buffer.from(`${text.slice(0, start)}${comment}`)[5 * CHUNK_BYTES - 1]).toBe(0xc3);
    const { resumeAt } = await same(file, false, 0.5);
    expect(resumeAt).toBe(start);
  });

  it('a NUL byte, invalid UTF-8 and a sequence cut by the end in the helper\'s part: the sequential read\'s error', async () => {
    const at = text.indexOf('\n', Math.floor(text.length * 0.7)) + 1;
    const buffer = Buffer.from(text);
    const withByte = (b: number[], where = at): Buffer => Buffer.concat([buffer.subarray(0, where), Buffer.from(b), buffer.subarray(where)]);
    const cases: Record<string, Buffer> = {
      nul: withByte([0x45, 0x09, 0x00, 0x0a]),
      latin1: withByte([0x45, 0x09, 0x31, 0x09, 0xe9, 0x0a]),
      // (A comment is skipped without a word to the sink: only the helper's own check stops it.)
      'latin1 comment': withByte([0x23, 0x20, 0xe9, 0x0a]),
      'cut at the end': Buffer.concat([buffer, Buffer.from([0x45, 0x09, 0x31, 0x09, 0xc3])]),
      // (In comments, which no sink hears of: only the helper's own checks stop it.)
      'nul comment': withByte([0x23, 0x20, 0x00, 0x0a]),
      'comment cut at the end': Buffer.concat([buffer, Buffer.from([0x23, 0x20, 0xc3])]),
    };
    for (const [what, content] of Object.entries(cases)) {
      const file = fileOf(`${what.replace(/ /g, '-')}.dlog`, content);
      const alone = await read(file, false);
      expect(alone.error, what).toMatch(/binary data|UTF-8/);
      await same(file, false, 0.5);
    }
  });

  it('declines a cut in a chunk with no line end (the owner reads on)', async () => {
    // 3 MiB of one comment line from byte 2 MiB on: no line starts in chunks 2–4.
    const head = text.slice(0, 2 * CHUNK_BYTES);
    const file = fileOf('long.dlog', `${head.slice(0, head.lastIndexOf('\n') + 1)}#${'c'.repeat(3 * CHUNK_BYTES)}\n${text}`);
    const board = new HelpBoard(1);
    board.open(0, 0, file.size, 0);
    // The owner is at chunk 3 (its next chunk ends there): a cut there finds no line end in the chunk.
    expect(board.reach(0, 2 * CHUNK_BYTES, 3 * CHUNK_BYTES)).toBe(-1);
    const claim = board.claim(0, 0, 1);
    expect(claim).toEqual({ owner: 0, key: 0, cut: 3 * CHUNK_BYTES, gen: 1 });
    expect(await readDlogTail(file, 3 * CHUNK_BYTES, () => { throw new Error('no piece'); })).toBe(-1);
    // And the owner: reading with the same claim, the same as alone.
    await same(file, false, 0.6);
  });
});

it('a file the sink does not offer (records held for `I` instances) is not shown: read whole here', async () => {
  const file = fileOf('held.dlog', body());
  const { sink } = recorder();
  const board = new HelpBoard(2);
  const owner = new TailOwner(board, 0, 0);
  owner.reading(0, [file]);
  let shown = 0;
  owner.onShow = () => { shown++; };
  await readClass([file], 'good', { ...sink, intake: { ...sink.intake!, splittable: false } }, { strict: false, tail: owner }, emptyReadStats());
  expect(shown).toBe(0);
  await readClass([file], 'good', sink, { strict: false, tail: owner }, emptyReadStats());
  expect(shown).toBe(1);
});

describe('HelpBoard', () => {
  it('a rest is claimed once, at a chunk boundary the owner has not reached; the owner stops there; stale pieces are dropped', async () => {
    const board = new HelpBoard(2);
    const owner = new TailOwner(board, 1, 0);
    expect(board.claim(1, 0)).toBeNull(); // nothing shown
    owner.reading(3, [{ path: 'x', relativePath: 'x', gzip: false, size: 100 * CHUNK_BYTES }]);
    board.open(1, 7, 100 * CHUNK_BYTES, 0);
    expect(owner.reach(0, CHUNK_BYTES)).toBe(-1);
    expect(owner.reach(CHUNK_BYTES, 2 * CHUNK_BYTES)).toBe(-1);
    // 98 MiB left from 2 MiB: the helper takes 0.6 of it from the chunk boundary at 2 + floor(98 × 0.4) = 41 MiB.
    expect(board.claim(1, 32 * CHUNK_BYTES)).toEqual({ owner: 1, key: 7, cut: 41 * CHUNK_BYTES, gen: 1 });
    expect(board.claim(1, 0)).toBeNull(); // claimed once
    expect(owner.reach(2 * CHUNK_BYTES, 3 * CHUNK_BYTES)).toBe(-1);
    expect(owner.reach(41 * CHUNK_BYTES, 42 * CHUNK_BYTES)).toBe(41 * CHUNK_BYTES);
    expect(board.claimed(1)).toBe(1);
    owner.deliver({ type: 'tail-end', owner: 1, gen: 0, resumeAt: 5 }); // another claim's: dropped
    owner.deliver({ type: 'tail-end', owner: 1, gen: 1, resumeAt: 6 });
    expect(await owner.next()).toMatchObject({ resumeAt: 6 });
    owner.close();
    expect(board.claimed(1)).toBe(-1);
    // Too little left, or a cut not at a chunk boundary: none.
    board.open(1, 8, 10 * CHUNK_BYTES, 0);
    expect(board.claim(1, 32 * CHUNK_BYTES)).toBeNull();
    expect(owner.reach(0, 1000)).toBe(-1);
    expect(board.claim(1, 0)).toBeNull();
    // Shown late (its lines' ends known from a later chunk): a cut only past where it is.
    owner.close();
    board.open(1, 9, 100 * CHUNK_BYTES, 50 * CHUNK_BYTES);
    expect(board.claim(1, 0)).toMatchObject({ cut: 70 * CHUNK_BYTES });
    // Busy from its first batch until idle (the main thread, 0, from the start).
    expect(board.othersBusy(0)).toBe(true);
    board.idle(1);
    expect(board.othersBusy(0)).toBe(false);
    expect(board.othersBusy(1)).toBe(true);
    board.idle(0);
    expect(board.othersBusy(1)).toBe(false);
    expect(new HelpBoard(3).othersBusy(0)).toBe(false); // workers that have read nothing yet
  });
});
