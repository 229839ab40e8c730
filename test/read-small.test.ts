/**
 * A plain dlog file below 8 MiB is read by readDlogSmall (src/parse/fast/dlog-fast.ts),
 * a synchronous loop, not readDlogFast's async generator. It must read what
 * readDlogFast reads from the same file: the same records by name and through
 * a fast lane, the same skipped lines, bytes told, counts and errors (with
 * their lines), leave no file open after an error, and let the event loop run
 * every 8 MB as readDlogFast's reads do.
 */
import { appendFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { readDlogFast, readDlogSmall, smallPlainFile } from '../src/parse/fast/dlog-fast.js';
import type { InputFile } from '../src/parse/files.js';
import { recording, recordingWithIntake } from './helpers/records.js';
import { testFiles } from './helpers/test-files.js';

const { dir, write, openHere, remove } = testFiles('distalyze-read-small-');
afterAll(remove);

type Reader = typeof readDlogSmall;

/** What a reader gives for `file`: its records, skipped lines, bytes told, result, or its error. */
async function outcome(read: Reader, file: InputFile, fast: boolean): Promise<unknown> {
  const calls: string[] = [];
  const skips: string[] = [];
  let told = 0;
  try {
    const result = await read(file, fast ? recordingWithIntake(calls, { n: 0 }) : recording(calls), (lineNo, reason) => { skips.push(`${lineNo}: ${reason()}`); }, (n) => { told += n; });
    return { calls, skips, told, result };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { calls: calls.length, skips, told, error: err.message, file: err.file, line: err.line, hint: err.hint };
  }
}

/** readDlogFast on a plain file, read on this thread in its chunks (no read-ahead, no helper). */
const fastRead: Reader = (file, sink, onSkip, onBytes) => readDlogFast(file, sink, onSkip, onBytes, undefined, undefined, false);

/** Lines of ~40 bytes whose records all differ, `n` of them, with a non-ASCII name now and then (the parser's own path). */
function lines(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(i % 3 === 0 ? `E\t1763596804.${String(i).padStart(6, '0')}\tstep-${i % 7}${i % 101 === 0 ? 'é' : ''}` : `S\t${i}.5\tq${i % 5}\t${i % 11}`);
  return `${out.join('\n')}\n`;
}

const MiB = 1 << 20;

describe('readDlogSmall ≡ readDlogFast on plain files', () => {
  const body = lines(70_000); // ~1.8 MB: two reads, lines across the 1 MiB boundary
  const firstRead = Buffer.from(body).subarray(0, MiB);
  const cases: [string, () => InputFile][] = [
    ['an empty file', () => write('empty.dlog', '')],
    ['a small file, one read', () => write('one.dlog', lines(300))],
    ['a file over two reads', () => write('two.dlog', body)],
    ['a file of exactly one read (1 MiB)', () => write('exact.dlog', Buffer.concat([firstRead.subarray(0, firstRead.lastIndexOf(10) + 1), Buffer.alloc(MiB - firstRead.lastIndexOf(10) - 2, 0x20), Buffer.from('\n')]))],
    ['a BOM, CRLF lines, a last line without a newline', () => write('bom.dlog', `\uFEFFE\t1\tA\r\nS\t2\tq\t3\r\nE\t3\tB`)],
    ['lines that end in a lone CR', () => write('cr.dlog', `E\t1\tA\rS\t2\tq\t3\r${'E\t3\tB\r'.repeat(100)}`)],
    ['broken lines among records (skipped)', () => write('skips.dlog', 'E\t1\tA\nnot a record\nS\tx\tq\t1\nE\t2\tB\n')],
    ['a NUL byte in the second read', () => write('nul.dlog', Buffer.concat([Buffer.from(body).subarray(0, MiB + 5000), Buffer.from([0]), Buffer.from('\n')]))],
    ['invalid UTF-8 in the second read', () => write('bad-utf8.dlog', Buffer.concat([Buffer.from(body).subarray(0, MiB + 77), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]))],
    ['a UTF-8 sequence cut at the end', () => write('cut-utf8.dlog', Buffer.concat([Buffer.from('E\t1\tA\nE\t2\tB'), Buffer.from([0xe2, 0x82])]))],
    ['a UTF-8 sequence across the two reads', () => {
      const head = Buffer.from(body).subarray(0, MiB - 1);
      return write('across.dlog', Buffer.concat([head.subarray(0, head.lastIndexOf(10) + 1), Buffer.from('E\t9\t'), Buffer.alloc(MiB - head.lastIndexOf(10) - 6, 0x61), Buffer.from('€\n')]));
    }],
    ['a missing file', () => ({ path: join(dir, 'gone.dlog'), relativePath: 'gone.dlog', gzip: false, size: 10 })],
    ['a directory', () => ({ path: dir, relativePath: 'dir', gzip: false, size: 4096 })],
    ['a file that grew since it was listed', () => {
      const f = write('grew.dlog', lines(100));
      appendFileSync(f.path, body);
      return f;
    }],
    ['a file that shrank since it was listed', () => ({ ...write('shrank.dlog', lines(100)), size: MiB + 10 })],
  ];
  for (const [name, make] of cases) {
    it(name, async () => {
      const file = make();
      expect(smallPlainFile(file)).toBe(true);
      for (const fast of [false, true]) {
        const expected = await outcome(fastRead, file, fast);
        expect(await outcome(readDlogSmall, file, fast)).toEqual(expected);
      }
      expect(openHere()).toEqual([]);
    });
  }

  it('the errors are those a user sees (file, line and message)', async () => {
    const nulFile = cases[7]![1]();
    const nul = await outcome(readDlogSmall, nulFile, false) as { error: string; line: number };
    const line = Buffer.from(body).subarray(0, MiB + 5000).filter((c) => c === 10).length + 1;
    expect(nul.error).toBe(`${nulFile.path}:${line}: binary data (a NUL byte near byte ${MiB + 5000}); not a text log`);
    const goneFile = cases[11]![1]();
    const gone = await outcome(readDlogSmall, goneFile, false) as { error: string };
    expect(gone.error).toBe(`${goneFile.path}: cannot read: no such file or directory`);
  });
});

describe('readDlogSmall, which files', () => {
  it('plain files below 8 MiB; not a compressed file, standard input or a large file', () => {
    const plain = { path: 'a.dlog', relativePath: 'a.dlog', gzip: false, size: 8 * MiB - 1 };
    expect(smallPlainFile(plain)).toBe(true);
    expect(smallPlainFile({ ...plain, size: 8 * MiB })).toBe(false);
    expect(smallPlainFile({ ...plain, gzip: true })).toBe(false);
    expect(smallPlainFile({ ...plain, path: '-' })).toBe(false);
  });

  it('the event loop runs every 8 MB: a small file that grew to 20 MB since it was listed', async () => {
    const f = write('long.dlog', lines(10));
    const chunk = lines(50_000);
    while (statSync(f.path).size < 20 * MiB) appendFileSync(f.path, chunk);
    let turns = 0;
    let done = false;
    const tick = (): void => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const r = await readDlogSmall(f, recordingWithIntake([], { n: 0 }), () => undefined);
    done = true;
    expect(r.bytes).toBe(statSync(f.path).size);
    // At least two turns during the read (a loop that never yields would see none before it ends).
    expect(turns).toBeGreaterThanOrEqual(2);
  });
});
