/**
 * Plain dlog files are read in 1 MB chunks into one reused buffer, on the
 * parsing thread itself (src/parse/fast/dlog-fast.ts, fileChunks), and the event
 * loop runs every 8 MB. What a list read yields must not change: the same
 * records in the same order, across files larger than one read, and the same
 * error for a file that cannot be opened; a read stopped by an error leaves
 * no file open.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import type { InputFile } from '../src/parse/files.js';
import { emptyReadStats, readClass, type ClassSink } from '../src/parse/reader.js';
import { testFiles } from './helpers/test-files.js';

const { write, openHere, remove } = testFiles('distalyze-read-chunks-');
afterAll(remove);

/** Every sink call as text, files included. */
function recording(calls: string[]): ClassSink {
  return {
    beginFile: (f) => { calls.push(`begin ${f.relativePath}`); },
    endFile: (f) => { calls.push(`end ${f.relativePath}`); },
    instance: (id) => { calls.push(`I ${id}`); },
    event: (t, name) => { calls.push(`E ${t} ${name}`); },
    state: (t, name, v) => { calls.push(`S ${t} ${name} ${v}`); },
  };
}

async function readEach(files: readonly InputFile[]): Promise<string[]> {
  const calls: string[] = [];
  for (const f of files) await readClass([f], 'good', recording(calls), { strict: false });
  return calls;
}

async function readList(files: readonly InputFile[]): Promise<string[]> {
  const calls: string[] = [];
  await readClass(files, 'good', recording(calls), { strict: false });
  return calls;
}

/** A file of `n` lines whose records all differ (time and value from the file's number k). */
function lines(k: number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(i % 3 === 0 ? `E\t${k * 1e6 + i}\tstep-${i % 7}` : `S\t${k * 1e6 + i}\tq${i % 5}\t${(i * k) % 11}`);
  return `${out.join('\n')}\n`;
}

describe('reading plain files in chunks', () => {
  it('yields the records of a list as reading its files one by one does (files over 1 MB, empty files, a span-named file)', async () => {
    const files = [
      write('a.dlog', lines(1, 90_000)), // ~1.4 MB: more than one read
      write('b.dlog', ''),
      write('c.dlog', lines(3, 10)),
      write('d.csv', 'kind,timestamp,name,value\nE,7,from-csv,\n'), // read by its own reader
      write('e.dlog', lines(5, 100_000)),
      write('f.dlog', 'E\t1\tlast'), // no final newline
    ];
    expect(files[0]!.size).toBeGreaterThan(1 << 20);
    const list = await readList(files);
    expect(list).toEqual(await readEach(files));
    expect(list.filter((c) => c.startsWith('begin '))).toHaveLength(6);
  });

  // A read that comes back short at the listed size ends the file without another read (fileChunks, chunksAhead):
  // only there. Each file below is listed, then changed, and read with its stale listing: its records must be
  // those of a file listed as it now is.
  it('reads a file to its end when it grew or shrank since it was listed (small, exactly 1 MiB, read ahead from 8 MiB)', async () => {
    // Records, then a comment line up to `bytes`: a listed size at a read's end, where the read is not short.
    const filled = (text: string, bytes: number): string => `${text}#${'-'.repeat(bytes - text.length - 2)}\n`;
    const oneRead = filled(lines(14, 1000), 1 << 20);
    // Read ahead on libuv's pool (8 MiB and more).
    const readAhead = filled(lines(16, 500_000), 9 << 20);
    // Each file's text when listed, then when read.
    const cases: [string, string, string][] = [
      ['grown.dlog', lines(12, 50), lines(12, 50) + lines(13, 40)],
      ['grown-1mib.dlog', oneRead, oneRead + lines(15, 30)],
      ['grown-large.dlog', readAhead, readAhead + lines(17, 20)],
      ['shrunk.dlog', lines(18, 100), lines(18, 60)],
    ];
    for (const [name, listedText, now] of cases) {
      const listed = write(name, listedText);
      writeFileSync(listed.path, now);
      const fresh = write(`fresh-${name}`, now);
      if (name === 'grown-1mib.dlog') expect(listed.size).toBe(1 << 20);
      if (name === 'grown-large.dlog') expect(listed.size).toBe(9 << 20);
      const records = (calls: string[]): string[] => calls.filter((c) => !c.startsWith('begin ') && !c.startsWith('end '));
      const got = records(await readEach([listed]));
      expect(got).toEqual(records(await readEach([fresh])));
      expect(got.length).toBeGreaterThan(0);
    }
  });

  it('reports a file that cannot be opened (gone since it was listed) as reading it alone does', async () => {
    const first = write('g.dlog', lines(7, 30_000));
    const gone = write('h.dlog', lines(8, 10));
    rmSync(gone.path);
    let alone: unknown;
    await readClass([gone], 'good', recording([]), { strict: false }).catch((err: unknown) => { alone = err; });
    let inList: unknown;
    await readClass([first, gone], 'good', recording([]), { strict: false }, emptyReadStats()).catch((err: unknown) => { inList = err; });
    expect(alone).toBeInstanceOf(InputError);
    expect(inList).toBeInstanceOf(InputError);
    expect((inList as InputError).message).toBe((alone as InputError).message);
  });

  it('lets the event loop run while it reads (every 8 MB: worker messages, signals, the progress line)', async () => {
    const big = write('k.dlog', lines(11, 1_200_000));
    expect(big.size).toBeGreaterThan(16 << 20);
    const none = (): void => undefined;
    // Read ahead on libuv's pool, and read on this thread (with every core parsing: ReadOptions.readAhead).
    for (const readAhead of [true, false]) {
      let reading = true;
      let turns = 0;
      const tick = (): void => {
        if (!reading) return;
        turns++;
        setImmediate(tick);
      };
      setImmediate(tick);
      await readClass([big], 'good', { beginFile: none, endFile: none, instance: none, event: none, state: none }, { strict: false, readAhead });
      reading = false;
      // Synchronous reads with no turn of the loop would leave it none until the file ends.
      expect(turns).toBeGreaterThanOrEqual(2);
    }
  });

  it.skipIf(!existsSync('/proc/self/fd'))('closes the files when a read stops at an error', async () => {
    const broken = write('i.dlog', `${lines(9, 100)}E\t1\tnul\0byte\n`);
    const next = write('j.dlog', lines(10, 100));
    await expect(readClass([broken, next], 'good', recording([]), { strict: false })).rejects.toThrow(/binary data/);
    for (let i = 0; i < 100 && openHere().length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(openHere()).toEqual([]);
  });
});
