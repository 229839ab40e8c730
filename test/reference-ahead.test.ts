import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { InputFile } from '../src/parse/files.js';

// The built modules: readClasses starts parsing workers from dist/ (-j2).
const ROOT = join(import.meta.dirname, '..');
const dist = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(ROOT, 'dist', path)).href)) as T;
type Read = typeof import('../src/read/index.js');
type Sniff = typeof import('../src/parse/sniff.js');

const dir = mkdtempSync(join(tmpdir(), 'distalyze-ahead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * One run's dlog file of ~80 KB: events and two states every 0.1 s from
 * `start` for `seconds` (its span, the last record being the latest), the
 * states' values stepping with the run. `lastAt` appends a state at that time
 * as the file's last record (out of time order when before the end).
 */
function run(start: number, seconds: number, seed: number, lastAt?: number): string {
  const lines = ['# a run'];
  const steps = Math.round(seconds * 10);
  for (let i = 0; i <= steps; i++) {
    const t = (start + i / 10).toFixed(6);
    lines.push(`E\t${t}\t${i % 7 === 0 ? 'Flush' : 'Write'}`, `S\t${t}\tqueue_len\t${(i * seed) % 13}`, `S\t${t}\tlock_wait_ms\t${((i + seed) % 5) * 1.5}`);
  }
  if (lastAt !== undefined) lines.push(`S\t${lastAt.toFixed(6)}\tqueue_len\t99`);
  return `${lines.join('\n')}\n`;
}

/** Spans of the good runs (s), then the bad ones: Dref is the median of all ten, 82.5 (the mean of 80 and 85). */
const SPANS = { good: [60, 65, 70, 90, 95], bad: [50, 80, 85, 100, 110] } as const;

function writeSet(name: string, bad: (i: number, start: number, span: number) => string = (i, start, span) => run(start, span, i + 7)): Record<'good' | 'bad', InputFile[]> {
  const files: Record<'good' | 'bad', InputFile[]> = { good: [], bad: [] };
  for (const c of ['good', 'bad'] as const) {
    mkdirSync(join(dir, name, c), { recursive: true });
    SPANS[c].forEach((span, i) => {
      const start = 1_763_600_000 + 1000 * i;
      const path = join(dir, name, c, `run-${i}.dlog`);
      writeFileSync(path, c === 'good' ? run(start, span, i + 2) : bad(i, start, span));
      files[c].push({ path, relativePath: `run-${i}.dlog`, gzip: false, size: statSync(path).size });
    });
  }
  return files;
}

/** What the analysis is made of (every feature column, the instances, Dref), as comparable numbers. */
async function featuresOf(name: string, options: { jobs: number; twoPass?: boolean }): Promise<{ features: unknown; secondPass: boolean }> {
  const { readClasses } = await dist<Read>('read/index.js');
  let secondPass = false;
  const read = await readClasses(join(dir, name, 'good'), join(dir, name, 'bad'), options, { onSecondPass: () => { secondPass = true; } });
  const { instances, tables, referenceDuration } = read.features.features;
  const features = JSON.parse(JSON.stringify({ instances, tables, referenceDuration }, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array, String) : v)));
  return { features, secondPass };
}

describe('Dref guessed from the files\' ends (sniff.ts referenceDurationAhead)', () => {
  it('is the median of every file\'s first-to-last record span, read from its two ends', async () => {
    const { referenceDurationAhead } = await dist<Sniff>('parse/sniff.js');
    const files = writeSet('spans');
    // 56–122 KB a file, 64 KiB at least on average: its first record in its first 4 KiB, its last in its last 4 KiB.
    const sizes = [...files.good, ...files.bad].map((f) => f.size);
    expect(Math.min(...sizes)).toBeGreaterThan(8 * 1024);
    expect(sizes.reduce((a, b) => a + b) / sizes.length).toBeGreaterThan(64 * 1024);
    // Spans computed as the reading does (last − first, in doubles); median of 10: the mean of the 5th and 6th.
    const span = (i: number, s: number): number => Number((1_763_600_000 + 1000 * i + s).toFixed(6)) - Number((1_763_600_000 + 1000 * i).toFixed(6));
    const all = [...SPANS.good.map((s, i) => span(i, s)), ...SPANS.bad.map((s, i) => span(i, s))].sort((a, b) => a - b);
    expect(referenceDurationAhead([...files.good, ...files.bad])).toBe((all[4]! + all[5]!) / 2);
  });

  it('is not guessed where a file does not say it: an I record, a compressed file, a broken last record, small files', async () => {
    const { referenceDurationAhead } = await dist<Sniff>('parse/sniff.js');
    const files = writeSet('not');
    const all = [...files.good, ...files.bad];
    const replace = (text: string): InputFile[] => {
      const path = join(dir, 'not', 'other.dlog');
      writeFileSync(path, text);
      return [...all.slice(1), { path, relativePath: 'other.dlog', gzip: false, size: statSync(path).size }];
    };
    expect(referenceDurationAhead(all)).not.toBeNull();
    expect(referenceDurationAhead(replace(`I\treq-1\n${run(1_763_600_000, 60, 3)}`))).toBeNull();
    expect(referenceDurationAhead(replace(`${run(1_763_600_000, 60, 3)}S\t1763600070.5\tqueue_len\n`))).toBeNull();
    const gz = join(dir, 'not', 'run.dlog.gz');
    writeFileSync(gz, gzipSync(run(1_763_600_000, 60, 3)));
    expect(referenceDurationAhead([...all.slice(1), { path: gz, relativePath: 'run.dlog.gz', gzip: true, size: statSync(gz).size }])).toBeNull();
    // 64 KiB a file on average at least.
    const small = ['E\t1\tStart\nE\t3\tEnd\n', 'E\t1\tStart\nE\t5\tEnd\n'].map((text, i) => {
      const path = join(dir, 'not', `small-${i}.dlog`);
      writeFileSync(path, text);
      return { path, relativePath: `small-${i}.dlog`, gzip: false, size: statSync(path).size };
    });
    expect(referenceDurationAhead(small)).toBeNull();
  });

  it('right: the features as a second pass over the states gives them, on one thread and two', async () => {
    writeSet('right');
    const passes = await featuresOf('right', { jobs: 1, twoPass: true });
    expect(passes.secondPass).toBe(true);
    expect((passes.features as { referenceDuration: number }).referenceDuration).toBeCloseTo(82.5, 6);
    for (const jobs of [1, 2]) expect(await featuresOf('right', { jobs })).toEqual({ features: passes.features, secondPass: false });
  });

  it('wrong (files whose last record is not their latest): the features still as a second pass gives them', async () => {
    const { referenceDurationAhead } = await dist<Sniff>('parse/sniff.js');
    // Each bad run ends with a state logged 1 s after its start: its ends say a span of 1 s.
    const files = writeSet('wrong', (i, start, span) => run(start, span, i + 7, start + 1));
    const guessed = referenceDurationAhead([...files.good, ...files.bad]);
    const passes = await featuresOf('wrong', { jobs: 1, twoPass: true });
    expect((passes.features as { referenceDuration: number }).referenceDuration).toBeCloseTo(82.5, 6);
    expect(guessed).toBeCloseTo(30.5, 6); // 1, 1, 1, 1, 1, 60, 65, 70, 90, 95: (1 + 60) / 2
    // The guess found wrong once the instances are read: their q*.abs from a second pass over the states.
    for (const jobs of [1, 2]) expect(await featuresOf('wrong', { jobs })).toEqual({ features: passes.features, secondPass: true });
  });
});

describe('a compressed run\'s ends, found by decompressing it once more (sniff.ts recordEndsDecompressing)', () => {
  /** The file gzipped beside it (`level` 0: stored, as large as it is). */
  const gzipped = (file: InputFile, level = 6): InputFile => {
    const path = `${file.path}.gz`;
    writeFileSync(path, gzipSync(readFileSync(file.path), { level }));
    return { path, relativePath: `${file.relativePath}.gz`, gzip: true, size: statSync(path).size };
  };

  it('are the ends its plain file gives, beside plain files; none where a file gives none', async () => {
    const { recordEndsAhead, recordEndsDecompressing } = await dist<Sniff>('parse/sniff.js');
    const files = writeSet('decompressing');
    // A run that decompresses to 1 MiB and 20 bytes: two chunks (1 MiB each, sniff.ts), its last line across them.
    const long = join(dir, 'decompressing', 'long.dlog');
    const text = run(1_763_600_000, 1100, 4, 1_763_601_101);
    const middle = text.indexOf('\n', text.length / 2) + 1;
    writeFileSync(long, `${text.slice(0, middle)}#${'.'.repeat((1 << 20) + 20 - Buffer.byteLength(text) - 2)}\n${text.slice(middle)}`);
    expect(statSync(long).size).toBe((1 << 20) + 20);
    const plain = [...files.good, ...files.bad, { path: long, relativePath: 'long.dlog', gzip: false, size: (1 << 20) + 20 }];
    const expected = recordEndsAhead(plain);
    expect(expected).not.toBeNull();
    expect(expected![10]).toEqual({ first: 1_763_600_000, last: 1_763_601_101 });
    const mixed = plain.map((f, i) => (i % 2 === 0 ? gzipped(f) : f));
    let read = 0;
    let done = 0;
    expect(await recordEndsDecompressing(mixed, (n) => { read += n; }, () => { done++; })).toEqual(expected);
    expect({ read, done }).toEqual({ read: mixed.filter((f) => f.gzip).reduce((n, f) => n + f.size, 0), done: 6 });
    // A compressed file with an I record, or that is not gzip; a plain file with none (nothing decompressed then).
    const named = join(dir, 'decompressing', 'named.dlog');
    writeFileSync(named, `I\treq-1\n${run(1_763_600_000, 60, 3)}`);
    const notGzip = join(dir, 'decompressing', 'not.dlog.gz');
    writeFileSync(notGzip, run(1_763_600_000, 60, 3));
    const others: InputFile[] = [
      gzipped({ path: named, relativePath: 'named.dlog', gzip: false, size: statSync(named).size }),
      { path: notGzip, relativePath: 'not.dlog.gz', gzip: true, size: statSync(notGzip).size },
    ];
    for (const other of others) expect(await recordEndsDecompressing([...mixed, other])).toBeNull();
    // A large one with an I record at its head (3.7 MB, stored): not decompressed past its first MiB or two.
    const requests = join(dir, 'decompressing', 'requests.dlog');
    writeFileSync(requests, `I\treq-1\n${run(1_763_600_000, 4000, 3)}`);
    const large = gzipped({ path: requests, relativePath: 'requests.dlog', gzip: false, size: statSync(requests).size }, 0);
    expect(large.size).toBeGreaterThan(3 << 20);
    read = 0;
    expect(await recordEndsDecompressing([large], (n) => { read += n; })).toBeNull();
    expect(read).toBeLessThanOrEqual(2 << 20);
    // … nor a run decompressed beside it (~24 MB, stored), once it gave none. How far that one gets before it sees
    // the other's failure depends on the two threads' timing (7 MiB read in all once, with another test run beside
    // this one), so the bound is half of it: read through, it fails.
    const longer = join(dir, 'decompressing', 'longer.dlog');
    writeFileSync(longer, run(1_763_600_000, 25_000, 5));
    const beside = gzipped({ path: longer, relativePath: 'longer.dlog', gzip: false, size: statSync(longer).size }, 0);
    expect(beside.size).toBeGreaterThan(20 << 20);
    read = 0;
    expect(await recordEndsDecompressing([large, beside], (n) => { read += n; })).toBeNull();
    expect(read).toBeLessThan(beside.size / 2);
    read = 0;
    expect(await recordEndsDecompressing([...mixed, { path: named, relativePath: 'named.dlog', gzip: false, size: statSync(named).size }], (n) => { read += n; })).toBeNull();
    expect(read).toBe(0);
  });

  it('are looked for when a compressed run decompresses to 256 MiB, by its gzip trailer; dlog files only', async () => {
    const { compressedEndsPay, COMPRESSED_ENDS_MIN_BYTES } = await dist<Sniff>('parse/sniff.js');
    expect(COMPRESSED_ENDS_MIN_BYTES).toBe(256 * 1024 * 1024);
    const files = writeSet('pay');
    const small = gzipped(files.good[0]!);
    // A gzip file's last 4 bytes: what it decompresses to (modulo 4 GiB). Only the trailer is read here.
    const trailed = (name: string, size: number): InputFile => {
      const path = join(dir, 'pay', name);
      const bytes = Buffer.alloc(64);
      bytes.writeUInt32LE(size, 60);
      writeFileSync(path, bytes);
      return { path, relativePath: name, gzip: true, size: 64 };
    };
    const plain = [...files.good, ...files.bad];
    expect(compressedEndsPay([...plain, small])).toBe(false);
    expect(compressedEndsPay([...plain, small, trailed('big.dlog.gz', COMPRESSED_ENDS_MIN_BYTES - 1)])).toBe(false);
    expect(compressedEndsPay([...plain, small, trailed('big.dlog.gz', COMPRESSED_ENDS_MIN_BYTES)])).toBe(true);
    expect(compressedEndsPay([small, trailed('big.dlog.gz', COMPRESSED_ENDS_MIN_BYTES)])).toBe(true);
    // Not where a file could not give its ends: a table, spans, standard input.
    expect(compressedEndsPay([...plain, trailed('big.dlog.gz', COMPRESSED_ENDS_MIN_BYTES), trailed('spans.csv.gz', 100)])).toBe(false);
    expect(compressedEndsPay([trailed('big.jsonl.gz', COMPRESSED_ENDS_MIN_BYTES)])).toBe(false);
    expect(compressedEndsPay([trailed('big.dlog.gz', COMPRESSED_ENDS_MIN_BYTES), { path: '-', relativePath: '-', gzip: false, size: 0 }])).toBe(false);
    // Plain files alone: their ends are read from their two ends (recordEndsAhead).
    expect(compressedEndsPay(plain)).toBe(false);
  });
});
