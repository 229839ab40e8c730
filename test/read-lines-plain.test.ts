/**
 * readLines reads a plain file synchronously, in 64 KiB chunks on this thread
 * (src/parse/lines.ts, chunks.ts), not through a stream. What it gives must
 * be what the stream gave for the same file: the same lines, over-long lines,
 * bytes told and counts, the same errors with their lines, and the same
 * choice of line ends (LineEnds decides from the first chunk that holds a CR
 * or LF, so the chunks must be the stream's 64 KiB). No file is left open.
 */
import { appendFileSync, createReadStream } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { openInputFile, type InputFile } from '../src/parse/files.js';
import { readLines } from '../src/parse/lines.js';
import { testFiles } from './helpers/test-files.js';

const { dir, write, openHere, remove } = testFiles('distalyze-read-lines-');
afterAll(remove);

/** What readLines gives for `file`, read by itself or (`viaStream`) from a stream of it as openInputFile made them. */
async function outcome(file: InputFile, viaStream: boolean): Promise<unknown> {
  const calls: string[] = [];
  let told = 0;
  try {
    const stream = viaStream ? createReadStream(file.path, { highWaterMark: 64 * 1024 }) : undefined;
    const result = await readLines(file, {
      line: (text, lineNo) => { calls.push(`${lineNo} ${text}`); },
      tooLong: (lineNo, length) => { calls.push(`${lineNo} too long: ${length}`); },
    }, (n) => { told += n; }, stream);
    return { calls, told, result };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { calls: calls.length, told, error: err.message, file: err.file, line: err.line, hint: err.hint };
  }
}

const KiB = 1024;
const text = (n: number): string => Array.from({ length: n }, (_, i) => `2023-11-14 22:13:${String(i % 60).padStart(2, '0')} INFO [w${i % 7}] step ${i} é`).join('\n') + '\n';

describe('readLines on a plain file ≡ readLines on a stream of it', () => {
  const body = text(6000); // ~330 KB: several chunks
  const cases: [string, () => InputFile][] = [
    ['an empty file', () => write('empty.log', '')],
    ['several chunks, a UTF-8 character across a chunk boundary', () => write('many.log', body)],
    ['a BOM, CRLF lines, a last line without a newline', () => write('bom.log', '\uFEFFa line\r\nanother\r\nlast')],
    ['lines ending in a lone CR', () => write('cr.log', 'first\rsecond\r'.repeat(100))],
    // The first 64 KiB hold CRs and no LF, an LF comes after: the chunk decides (lone CRs end lines). With another chunk
    // size, the decision would be another.
    ['CRs only in the first 64 KiB, an LF after it', () => write('cr-then-lf.log', `${'x'.repeat(100)}\r`.repeat(700) + 'then\nlf\n')],
    ['a line over 1 MiB among others', () => write('long.log', `short\n${'y'.repeat(1100 * KiB)}\nafter\n`)],
    ['a NUL byte in the third chunk', () => write('nul.log', Buffer.concat([Buffer.from(body).subarray(0, 150 * KiB), Buffer.from([0]), Buffer.from('\n')]))],
    ['invalid UTF-8 in the second chunk', () => write('bad.log', Buffer.concat([Buffer.from(body).subarray(0, 70 * KiB), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]))],
    ['a UTF-8 sequence cut at the end', () => write('cut.log', Buffer.concat([Buffer.from('a\nb'), Buffer.from([0xe2, 0x82])]))],
    ['a missing file', () => ({ path: join(dir, 'gone.log'), relativePath: 'gone.log', gzip: false, size: 10 })],
    ['a directory', () => ({ path: dir, relativePath: 'dir', gzip: false, size: 4096 })],
    ['a file that grew since it was listed', () => {
      const f = write('grew.log', text(10));
      appendFileSync(f.path, body);
      return f;
    }],
    ['a file that shrank since it was listed', () => ({ ...write('shrank.log', text(10)), size: 200 * KiB })],
  ];
  for (const [name, make] of cases) {
    it(name, async () => {
      const file = make();
      const expected = await outcome(file, true);
      // (A destroyed stream closes its file a moment later.)
      for (let i = 0; i < 100 && openHere().length > 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(await outcome(file, false)).toEqual(expected);
      expect(openHere()).toEqual([]);
    });
  }

  it('its errors as a user reads them', async () => {
    const nul = cases[6]![1]();
    const line = Buffer.from(body).subarray(0, 150 * KiB).filter((c) => c === 10).length + 1;
    expect(await outcome(nul, false)).toMatchObject({
      error: `${nul.path}:${line}: binary data (a NUL byte near byte ${150 * KiB}); not a text log`, line, hint: 'if it is compressed, name it *.gz',
    });
    const gone = cases[9]![1]();
    expect(await outcome(gone, false)).toMatchObject({ error: `${gone.path}: cannot read: no such file or directory` });
    const cr = await outcome(cases[4]![1](), false) as { calls: string[] };
    expect(cr.calls.slice(0, 2)).toEqual([`1 ${'x'.repeat(100)}`, `2 ${'x'.repeat(100)}`]);
  });
});

describe('openInputFile on a plain file (CSV tables, span files, metrics)', () => {
  const body = text(20_000); // ~0.9 MB: 14 chunks of 64 KiB

  it('gives the file\'s bytes in chunks that stay valid after the next is read', async () => {
    const file = write('all.csv', body);
    const chunks: Buffer[] = [];
    for await (const chunk of openInputFile(file) as AsyncIterable<Buffer>) chunks.push(chunk);
    expect(chunks.length).toBe(Math.ceil(Buffer.byteLength(body) / (64 * 1024)));
    expect(Buffer.concat(chunks).equals(Buffer.from(body))).toBe(true);
    expect(openHere()).toEqual([]);
  });

  it('a reader that stops early leaves no file open; a missing file is its stream\'s error', async () => {
    const file = write('head.csv', body);
    const stream = openInputFile(file, 1024);
    let n = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      n += chunk.length;
      if (n >= 4096) break;
    }
    expect(n).toBe(4096);
    for (let i = 0; i < 100 && openHere().length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(openHere()).toEqual([]);
    const gone = openInputFile({ path: join(dir, 'gone.csv'), relativePath: 'gone.csv', gzip: false, size: 0 });
    await expect((async () => { for await (const _ of gone) void _; })()).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
