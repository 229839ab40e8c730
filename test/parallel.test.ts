/**
 * Issue 17, the parallel pass: files go to workers in batches, this thread
 * reads batches from the front straight into the collector while the workers
 * take them from the back, and state change points stay in the workers until
 * Dref is known. The result must equal a sequential read, field for field.
 * readParallel runs its workers from dist/ (worker.js): `npm run build` first.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InputFile } from '../src/parse/files.js';
import { batchesOf, MainPace, type ParallelInput } from '../src/read/parallel/batches.js';
import { ReferenceCell } from '../src/read/parallel/protocol.js';
import { automaticJobs } from '../src/read/index.js';
import { largeRunEnds } from '../src/parse/sniff.js';

const ROOT = join(import.meta.dirname, '..');
const dist = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(ROOT, 'dist', path)).href)) as T;
type Parallel = typeof import('../src/read/parallel/parallel.js');
type Collector = typeof import('../src/features/collector.js');
type Threads = typeof import('../src/read/parallel/threads.js');
type Reader = typeof import('../src/parse/reader.js');
type Features = typeof import('../src/features/index.js');

const file = (path: string, size: number): InputFile => ({ path, relativePath: path, gzip: false, size });

/** Everything buildFeatureSet makes of a collector, as plain data (NaN kept as 'NaN'). */
function plain(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array, String) : typeof v === 'number' ? String(v) : v)));
}

/**
 * Both classes read one after another (`jobs` 1) or by readParallel on `jobs`
 * threads with `local` (its test options: batch sizes, byte-range cuts), then
 * everything the features stage makes of them, as plain data.
 */
async function readBoth(files: Record<'good' | 'bad', InputFile[]>, jobs: number, keepSeries: boolean, local: Parameters<Parallel['readParallel']>[6], strict: boolean): Promise<unknown> {
  const { FeatureCollector } = await dist<Collector>('features/collector.js');
  const { readClass, emptyReadStats } = await dist<Reader>('parse/reader.js');
  const { buildFeatureSet } = await dist<Features>('features/index.js');
  const { readParallel } = await dist<Parallel>('read/parallel/parallel.js');
  const collector = new FeatureCollector(keepSeries);
  const stats = { good: emptyReadStats(), bad: emptyReadStats() };
  if (jobs === 1) {
    for (const c of ['good', 'bad'] as const) {
      await readClass(files[c], c, collector, { strict }, stats[c]);
      collector.finishClass();
    }
  } else {
    const inputs = (['good', 'bad'] as const).flatMap((c) => files[c].map((f) => ({ file: f, className: c })));
    await readParallel(inputs, jobs, { strict, keepSeries }, collector, stats, { addBytes: () => undefined, fileDone: () => undefined }, local);
    collector.finishClass();
  }
  const built = buildFeatureSet(collector, { weight: { mode: 'none' } });
  return plain({ built, emptyFiles: collector.emptyFiles, sharedIds: collector.sharedIds, unordered: collector.unorderedInstances, stats });
}

describe('MainPace (who reads the last batch)', () => {
  it('the worker while a pace is unknown; else whoever would finish it first, the main thread after the rest of its batch', () => {
    const main = new MainPace();
    const worker = new MainPace(main.buffer);
    expect(worker.workerFirst(1000, 10)).toBe(true); // the main thread's pace unknown: as before
    main.begin(400, 20); // 20 bytes per ms, 400 bytes of its batch to go
    expect(worker.workerFirst(1000, 0)).toBe(true); // the worker's unknown
    // The worker at 10 bytes/ms: 1 000 bytes in 100 ms; the main thread: (400 + 1 000) / 20 = 70 ms.
    expect(worker.workerFirst(1000, 10)).toBe(false);
    // At 20 bytes/ms: 50 ms, against 70.
    expect(worker.workerFirst(1000, 20)).toBe(true);
    main.read(400); // its batch read: 1 000 / 20 = 50 ms, against the worker's 100
    expect(worker.workerFirst(1000, 10)).toBe(false);
  });
});

describe('ReferenceCell (Dref to a worker that is summarizing)', () => {
  it('gives the value set, to the other side of its buffer too; a stop before it makes get throw, after it changes nothing', () => {
    const cell = new ReferenceCell();
    const other = new ReferenceCell(cell.buffer);
    cell.set(-0);
    expect(Object.is(other.get(), -0)).toBe(true);
    cell.stop();
    expect(other.get()).toBe(-0);
    const stopped = new ReferenceCell();
    stopped.stop();
    expect(() => new ReferenceCell(stopped.buffer).get()).toThrow('the run stopped before Dref was known');
  });
});

describe('automaticJobs (no --jobs)', () => {
  const MiB = 1024 * 1024;
  it('gives each thread two files and 32 MiB at least, up to the cores; one file each when both classes have one large file', () => {
    expect(automaticJobs(34e6, 32, 2)).toBe(1); // 34 MB of 1 MB files: one thread was faster (bench/README.md)
    expect(automaticJobs(66e6, 64, 2)).toBe(1); // 66 MB: even
    expect(automaticJobs(134e6, 128, 2)).toBe(2); // 134 MB: -j2 277 ms against 340
    expect(automaticJobs(220e6, 200, 2)).toBe(2);
    expect(automaticJobs(220e6, 200, 16)).toBe(6); // 220 MB: six threads of 32 MiB, not sixteen
    expect(automaticJobs(64 * MiB, 3, 8)).toBe(1); // two files per thread: three files are one thread's
    expect(automaticJobs(64 * MiB, 2, 8, 16 * MiB)).toBe(1); // one file per class, one of 16 MiB: one thread
    // A million requests in one file per class: the worker summarizes its class into this thread's columns.
    expect(automaticJobs(293e6, 2, 8, 146e6)).toBe(2);
    expect(automaticJobs(293e6, 3, 8, 90e6)).toBe(1); // three files: two per thread still
  });

  it('asks 96 MiB a thread of small files (under 64 KiB on average)', () => {
    // Files of 12 KB, -j2's wall time over -j1's (thirty-fourth pass): 10 000 files 0.91–1.00, 16 000 0.95, 20 000 0.83–0.91.
    expect(automaticJobs(121.7e6, 10_000, 2)).toBe(1);
    expect(automaticJobs(194.6e6, 16_000, 2)).toBe(1);
    expect(automaticJobs(243.4e6, 20_000, 2)).toBe(2);
    expect(automaticJobs(487e6, 40_000, 8)).toBe(4);
    // 96 MiB each of small files, 32 MiB each of larger ones.
    expect(automaticJobs(243.4e6, 2_000, 8)).toBe(7);
  });
});

describe('batchesOf', () => {
  const inputs = (sizes: Record<'good' | 'bad', number[]>): ParallelInput[] =>
    (['good', 'bad'] as const).flatMap((c) => sizes[c].map((size, i) => ({ file: file(`${c}/${i}`, size), className: c })));

  it('cuts consecutive files of one class up to the byte target, never across the classes', () => {
    // Target 100 bytes: 40+40 (a third 40 would pass 100), 40+60, then the bad class anew.
    expect(batchesOf(inputs({ good: [40, 40, 40, 60], bad: [10, 10] }), 2, 100)).toEqual([
      { first: 0, count: 2, wholeClass: false },
      { first: 2, count: 2, wholeClass: false },
      { first: 4, count: 2, wholeClass: false },
    ]);
  });

  it('gives a file larger than the target a batch of its own', () => {
    expect(batchesOf(inputs({ good: [10, 500, 10], bad: [10, 10] }), 2, 100)).toEqual([
      { first: 0, count: 1, wholeClass: false },
      { first: 1, count: 1, wholeClass: false },
      { first: 2, count: 1, wholeClass: false },
      { first: 3, count: 2, wholeClass: false },
    ]);
  });

  it("makes a class's only file a batch of its own, marked wholeClass", () => {
    expect(batchesOf(inputs({ good: [10, 10], bad: [10] }), 2, 100)).toEqual([
      { first: 0, count: 2, wholeClass: false },
      { first: 2, count: 1, wholeClass: true },
    ]);
  });

  it('by default aims at 1/16 of the input per worker, at least 1 MiB, less towards the middle', () => {
    const mb = 1 << 20;
    // 64 files of 1 MiB, 2 jobs: 64 MiB / 32 = 2 MiB per batch, 2 files each, except that a batch
    // starting d MiB from the middle (32) holds at most max(1, d / 2) MiB: those starting at 30, 31,
    // 32, 33, 34 and 35 hold one file. Good: 15 pairs (0–29) and 2 singles; bad: 4 singles and 14 pairs.
    const batches = batchesOf(inputs({ good: Array(32).fill(mb), bad: Array(32).fill(mb) }), 2);
    expect(batches.map((b) => b.count)).toEqual([...Array(15).fill(2), 1, 1, 1, 1, 1, 1, ...Array(14).fill(2)]);
    expect(batches[15]).toEqual({ first: 30, count: 1, wholeClass: false });
    // Small inputs: everything of a class in one batch (the 1 MiB floor).
    expect(batchesOf(inputs({ good: [100, 100, 100], bad: [100, 100] }), 2)).toHaveLength(2);
  });
});

describe('readParallel equals a sequential read', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'distalyze-parallel-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A file's own instance: events and a state that changes (so it has change points). */
  const own = (t0: number, k: number): string => {
    const lines = [`E\t${t0}\tStart`];
    for (let i = 1; i <= 6; i++) lines.push(`S\t${t0 + i}\tqueue\t${(i * k) % 4}`, `E\t${t0 + i + 0.5}\tStep`);
    lines.push(`S\t${t0 + 7}\tcpu\t${k}`, `E\t${t0 + 8 + k}\tEnd`);
    return `${lines.join('\n')}\n`;
  };
  /** Records of named instance `id` (it may continue in another file). */
  const named = (id: string, t0: number, k: number): string =>
    `I\t${id}\tkind-${k % 2}\nE\t${t0}\tRecv\nS\t${t0 + 1}\tpool\t${k}\nS\t${t0 + 2}\tpool\t${k + 1}\nE\t${t0 + 3 + k}\tSend\n`;

  /**
   * good: 7 files (one empty, named instances spanning files 1 → 5), bad: 7 files (an id shared with good;
   * the last, always a worker's first batch, empty).
   */
  function writeSet(name: string): Record<'good' | 'bad', InputFile[]> {
    const texts: Record<'good' | 'bad', string[]> = {
      good: [own(100, 1), own(200, 2) + named('req-1', 210, 1), '', own(300, 3), own(400, 4) + named('req-2', 410, 2),
        named('req-1', 500, 3) + own(520, 5), own(600, 2)],
      bad: [own(100, 3), named('req-1', 150, 4) + own(160, 1), own(200, 5), named('req-9', 250, 1), own(300, 6) + named('req-9', 320, 5), own(400, 7), ''],
    };
    const out: Record<'good' | 'bad', InputFile[]> = { good: [], bad: [] };
    for (const c of ['good', 'bad'] as const) {
      mkdirSync(join(dir, name, c), { recursive: true });
      texts[c].forEach((text, i) => {
        const path = join(dir, name, c, `run-${i}.dlog`);
        writeFileSync(path, text);
        out[c].push({ path, relativePath: `run-${i}.dlog`, gzip: false, size: statSync(path).size });
      });
    }
    return out;
  }

  // Batches of one file each: the read is shared between this thread and the workers inside each class.
  const read = (files: Record<'good' | 'bad', InputFile[]>, jobs: number, keepSeries: boolean, strict = false): Promise<unknown> =>
    readBoth(files, jobs, keepSeries, { batchBytes: 1 }, strict);

  it('with one and two workers, series kept or not: the same features, empty files, shared ids and counts', async () => {
    const files = writeSet('same');
    const sequential = await read(files, 1, true);
    expect(sequential).toMatchObject({ emptyFiles: [files.good[2]!.path, files.bad[6]!.path], sharedIds: ['req-1'] });
    expect(await read(files, 2, true)).toEqual(sequential);
    expect(await read(files, 3, true)).toEqual(sequential);
    // Without held series the q*.abs stay missing in both (a second pass fills them): still equal.
    expect(await read(files, 3, false)).toEqual(await read(files, 1, false));
  });

  it('absorb of batches read alone (slots, change points, held records copied in bulk): the same as reading them in a row', async () => {
    const files = writeSet('absorb');
    const { FeatureCollector } = await dist<Collector>('features/collector.js');
    const { readClass, emptyReadStats } = await dist<Reader>('parse/reader.js');
    const { buildFeatureSet } = await dist<Features>('features/index.js');
    const build = (c: InstanceType<typeof FeatureCollector>): unknown =>
      plain({ built: buildFeatureSet(c, { weight: { mode: 'none' } }), emptyFiles: c.emptyFiles, sharedIds: c.sharedIds, unordered: c.unorderedInstances });
    const sequential = new FeatureCollector(true);
    const absorbing = new FeatureCollector(true);
    for (const c of ['good', 'bad'] as const) {
      await readClass(files[c], c, sequential, { strict: false }, emptyReadStats());
      sequential.finishClass();
      for (let i = 0; i < files[c].length; i += 3) {
        // A collector per batch of up to 3 files, as a worker's: its slots, change points and held records cross in one part.
        const batch = new FeatureCollector(true);
        await readClass(files[c].slice(i, i + 3), c, batch, { strict: false }, emptyReadStats());
        absorbing.absorb(batch.exportFile());
      }
      absorbing.finishClass();
    }
    for (const c of [sequential, absorbing]) c.fillAbsoluteQuartiles(7);
    const want = build(sequential);
    expect(want).toMatchObject({ sharedIds: ['req-1'] });
    expect(build(absorbing)).toEqual(want);
  });

  // bad: its named instances spanning files (read back to front by the worker), a file's own instance, an empty
  // file, an id good names too; good: enough held records for this thread to leave bad to the worker (leaveRest).
  function writeLeftSet(name: string): Record<'good' | 'bad', InputFile[]> {
    const goodTexts = Array.from({ length: 4 }, (_, f) => Array.from({ length: 1500 }, (_, i) => named(`g-${String(f * 1500 + i).padStart(5, '0')}`, 10 * i, i % 5)).join(''));
    goodTexts.push(named('shared', 3, 2));
    const badTexts = [
      named('b-1', 100, 1) + named('b-2', 110, 2),
      `${own(50, 3)}${named('b-2', 130, 4)}${named('b-3', 140, 1)}`,
      '',
      named('shared', 200, 3) + named('b-1', 210, 5),
      named('b-4', 300, 2) + named('b-3', 310, 0),
    ];
    const out: Record<'good' | 'bad', InputFile[]> = { good: [], bad: [] };
    for (const [c, texts] of [['good', goodTexts], ['bad', badTexts]] as const) {
      mkdirSync(join(dir, name, c), { recursive: true });
      texts.forEach((text, i) => {
        const path = join(dir, name, c, `part-${i}.dlog`);
        writeFileSync(path, text);
        out[c].push({ path, relativePath: `part-${i}.dlog`, gzip: false, size: statSync(path).size });
      });
    }
    return out;
  }

  it("a class whose every batch the worker reads (left to it, or by frontBatches): merged in order and summarized there, the same", async () => {
    const files = writeLeftSet('left');
    const sequential = await readBoth(files, 1, true, {}, false);
    expect(sequential).toMatchObject({ sharedIds: ['shared'], emptyFiles: [files.bad[2]!.path] });
    // This thread reads good only (frontBatches): the worker reads every batch of bad, from the back, and owns it.
    expect(await readBoth(files, 2, true, { batchBytes: 1, frontBatches: files.good.length }, false)).toEqual(sequential);
    // Left by leaveRest (the worker may have claimed some of good's batches, or all of bad, first: the same).
    expect(await readBoth(files, 2, true, { batchBytes: 1 }, false)).toEqual(sequential);
    expect(await readBoth(files, 2, false, { batchBytes: 1 }, false)).toEqual(await readBoth(files, 1, false, {}, false));
    // Never owned: its batches cross as records.
    expect(await readBoth(files, 2, true, { batchBytes: 1, ownClasses: false }, false)).toEqual(sequential);
    // Two workers claim bad's batches in turn: neither has them all, neither owns the class.
    expect(await readBoth(files, 3, true, { batchBytes: 1 }, false)).toEqual(sequential);
  });

  it('a class left to the worker with a line that is not a record: the first failing file, its exact --strict error, no wait', async () => {
    const files = writeLeftSet('left-strict');
    const broken = files.bad[3]!;
    writeFileSync(broken.path, `${named('b-5', 400, 1)}not a record\n`);
    const sized = { ...broken, size: statSync(broken.path).size };
    files.bad[3] = sized;
    const sequential = readBoth(files, 1, true, {}, true);
    const error = await sequential.then(() => null, (err: Error) => err.message);
    expect(error).toMatch(/part-3\.dlog/);
    for (const local of [{ batchBytes: 1 }, { batchBytes: 1, frontBatches: files.good.length }]) {
      await expect(readBoth(files, 2, true, local, true)).rejects.toMatchObject({ message: error });
    }
  });

  it('a class left to the worker that cannot be summarized (timestamps spanning more than the largest number): the same error', async () => {
    const files = writeLeftSet('left-span');
    const spanning = files.bad[4]!;
    writeFileSync(spanning.path, `I\tb-5\nE\t-1e308\tRecv\nE\t1e308\tSend\n`);
    files.bad[4] = { ...spanning, size: statSync(spanning.path).size };
    const message = "bad class, instance 'b-5': its timestamps span from -1e+308 to 1e+308, more than the largest number";
    await expect(readBoth(files, 1, true, {}, false)).rejects.toMatchObject({ message });
    for (const local of [{ batchBytes: 1 }, { batchBytes: 1, frontBatches: files.good.length }]) {
      await expect(readBoth(files, 2, true, local, false)).rejects.toMatchObject({ message });
    }
  });

  /**
   * The features of a first pass without series (read in a row) and a second pass for q*.abs: in a row
   * (`jobs` 1), or by readStatesParallel on `jobs` threads, a file a batch (this thread reading `frontBatches` at most).
   */
  async function twoPasses(files: Record<'good' | 'bad', InputFile[]>, jobs: number, frontBatches?: number): Promise<unknown> {
    const strict = false;
    const { FeatureCollector } = await dist<Collector>('features/collector.js');
    const { readClass, emptyReadStats } = await dist<Reader>('parse/reader.js');
    const { buildFeatureSet } = await dist<Features>('features/index.js');
    const { AbsoluteQuartilePass, QuartileSlots, quartileLayoutOf, referenceDurationOf } = await dist<typeof import('../src/features/quartile-pass.js')>('features/quartile-pass.js');
    const { readStatesParallel } = await dist<typeof import('../src/read/parallel/second-pass.js')>('read/parallel/second-pass.js');
    const collector = new FeatureCollector(false);
    const stats = { good: emptyReadStats(), bad: emptyReadStats() };
    for (const c of ['good', 'bad'] as const) {
      await readClass(files[c], c, collector, { strict }, stats[c]);
      collector.finishClass();
    }
    const layout = quartileLayoutOf(collector, referenceDurationOf(collector));
    const pass = new AbsoluteQuartilePass(new QuartileSlots(layout));
    const inputs = (['good', 'bad'] as const).flatMap((c) => files[c].map((f) => ({ file: f, className: c })));
    if (jobs === 1) for (const { file: f, className } of inputs) await readClass([f], className, pass, { strict }, emptyReadStats());
    else {
      // Every byte and file counted for the progress line, whichever thread read it.
      const counted = { bytes: 0, files: 0 };
      const progress = { addBytes: (n: number) => { counted.bytes += n; }, fileDone: () => { counted.files++; } };
      await readStatesParallel(inputs, jobs, { strict, keepSeries: false }, pass, layout, progress, { batchBytes: 1, ...(frontBatches !== undefined ? { frontBatches } : {}) });
      expect(counted).toEqual({ bytes: inputs.reduce((n, i) => n + i.file.size, 0), files: inputs.length });
    }
    pass.finish(collector);
    const built = buildFeatureSet(collector, { weight: { mode: 'none' } });
    return plain({ built, emptyFiles: collector.emptyFiles, sharedIds: collector.sharedIds, unordered: collector.unorderedInstances, stats });
  }

  it('the second pass on two and three threads: the same q*.abs as one pass holding the series, ties across files included', async () => {
    const files = writeSet('second');
    // Instances whose states tie across two files: the earliest value is the first file's, the last at or before
    // each target the second's (as a stable time sort of all its records has them). req-late's states all come
    // after the targets (Dref ~10): its q*.abs are its earliest value.
    const tie = (value: number, end: string): string =>
      `I\treq-tie\nE\t10\tRecv\nS\t11\tpool\t${value}\nS\t12\tpool\t${value + 1}\n${end}I\treq-late\nE\t10\tRecv\nS\t19\tpool\t${value + 2}\n${end}`;
    for (const [i, text] of [[7, tie(1, '')], [8, tie(5, 'E\t20\tSend\n')]] as const) {
      const path = join(dir, 'second', 'good', `run-${i}.dlog`);
      writeFileSync(path, text);
      files.good.push({ path, relativePath: `run-${i}.dlog`, gzip: false, size: statSync(path).size });
    }
    const held = await readBoth(files, 1, true, {}, false);
    const inRow = await twoPasses(files, 1);
    expect(inRow).toEqual(held);
    expect(await twoPasses(files, 2)).toEqual(held);
    expect(await twoPasses(files, 3)).toEqual(held);
    // Every batch read by the workers, each into a pass of its own: the findings merged (the tie between two passes).
    expect(await twoPasses(files, 2, 0)).toEqual(held);
    expect(await twoPasses(files, 3, 8)).toEqual(held);
  });

  it('the second pass on several threads reports the first failing file in input order', async () => {
    const files = writeSet('second-errors');
    // Files that change between the passes: not records in the second (--strict).
    const { FeatureCollector } = await dist<Collector>('features/collector.js');
    const { readClass, emptyReadStats } = await dist<Reader>('parse/reader.js');
    const { AbsoluteQuartilePass, QuartileSlots, quartileLayoutOf, referenceDurationOf } = await dist<typeof import('../src/features/quartile-pass.js')>('features/quartile-pass.js');
    const { readStatesParallel } = await dist<typeof import('../src/read/parallel/second-pass.js')>('read/parallel/second-pass.js');
    const collector = new FeatureCollector(false);
    for (const c of ['good', 'bad'] as const) {
      await readClass(files[c], c, collector, { strict: true }, emptyReadStats());
      collector.finishClass();
    }
    const layout = quartileLayoutOf(collector, referenceDurationOf(collector));
    const inputs = (['good', 'bad'] as const).flatMap((c) => files[c].map((f) => ({ file: f, className: c })));
    const second = (jobs: number, frontBatches?: number) => readStatesParallel(inputs, jobs, { strict: true, keepSeries: false }, new AbsoluteQuartilePass(new QuartileSlots(layout)), layout,
      { addBytes: () => undefined, fileDone: () => undefined }, { batchBytes: 1, ...(frontBatches !== undefined ? { frontBatches } : {}) });
    const message = (f: InputFile, text: string) => `${f.path}:2: not a record: '${text}' (--strict)`;
    // A file gone, read by a worker that then reads on (the batches it leaves are not waited for in vain).
    const gone = files.bad[3]!;
    const kept = readFileSync(gone.path);
    rmSync(gone.path);
    await expect(second(2, 2)).rejects.toMatchObject({ message: `${gone.path}: cannot read: no such file or directory` });
    writeFileSync(gone.path, kept);
    writeFileSync(files.bad[4]!.path, 'E\t1\tStart\nalso not a record\n');
    await expect(second(2)).rejects.toMatchObject({ message: message(files.bad[4]!, 'also not a record') });
    writeFileSync(files.bad[2]!.path, 'E\t1\tStart\nfirst\n');
    await expect(second(3)).rejects.toMatchObject({ message: message(files.bad[2]!, 'first') });
    writeFileSync(files.good[1]!.path, 'E\t1\tStart\nStart at 1\n');
    await expect(second(2)).rejects.toMatchObject({ message: message(files.good[1]!, 'Start at 1') });
  });

  it('reports the first failing file in input order: this thread\'s (front) before a worker\'s (back)', async () => {
    const files = writeSet('errors');
    const broken = (f: InputFile, line: string): void => {
      writeFileSync(f.path, `E\t1\tStart\n${line}\nE\t2\tEnd\n`);
    };
    broken(files.good[1]!, 'Start at 1');
    broken(files.bad[4]!, 'also not a record');
    const message = (f: InputFile, text: string) => `${f.path}:2: not a record: '${text}' (--strict)`;
    await expect(read(files, 2, true, true)).rejects.toMatchObject({ message: message(files.good[1]!, 'Start at 1') });
    // Only the worker's file fails (the last batches go to the worker first): its exact message.
    writeFileSync(files.good[1]!.path, own(200, 2));
    await expect(read(files, 2, true, true)).rejects.toMatchObject({ message: message(files.bad[4]!, 'also not a record') });
    // Two failing files near the back, read by whichever thread gets there: the earlier one wins.
    broken(files.bad[2]!, 'first');
    await expect(read(files, 3, true, true)).rejects.toMatchObject({ message: message(files.bad[2]!, 'first') });
  });

  // unordered: ids out of order and an id named without records; ascending: in order, each with records (the named
  // ids then cross only as the slots' ids: FileContribution.namedInSlots).
  it.each([
    ['unordered', (i: number) => (i * 7919) % 4000, 'I\treq-none\n', ['req-00003', 'req-00001', 'req-00002']],
    ['ascending', (i: number) => i, '', ['req-00001', 'req-00002', 'req-00003']],
  ] as const)("a class's only file (ids %s) summarized by the worker into this thread's shared columns, or sent in parts: the same", async (name, idOf, unnamed, sharedIds) => {
    // good: a few named instances, read here; bad: its only file, read by the worker (frontBatches), a file's own
    // instance first, a variable only it has.
    const many = Array.from({ length: 4000 }, (_, i) => named(`req-${String(idOf(i)).padStart(5, '0')}`, 10 * i, i % 6));
    const texts = { good: [named('req-00001', 5, 1), named('req-00002', 9, 2), named('req-00003', 12, 3)].join(''), bad: `${own(1, 2)}${unnamed}${many.join('')}S\t7\tonly-bad\t4\n` };
    const files = { good: [] as InputFile[], bad: [] as InputFile[] };
    for (const c of ['good', 'bad'] as const) {
      mkdirSync(join(dir, name, c), { recursive: true });
      // (The file's own instance, named after it, sorts before the requests: the columns are kept in place, not reordered.)
      const path = join(dir, name, c, `${c}.dlog`);
      writeFileSync(path, texts[c]);
      files[c].push({ path, relativePath: `${c}.dlog`, gzip: false, size: statSync(path).size });
    }
    const { FeatureCollector } = await dist<Collector>('features/collector.js');
    const { emptyReadStats } = await dist<Reader>('parse/reader.js');
    const { buildFeatureSet } = await dist<Features>('features/index.js');
    const { readParallel } = await dist<Parallel>('read/parallel/parallel.js');
    const inputs = (['good', 'bad'] as const).flatMap((c) => files[c].map((f) => ({ file: f, className: c })));
    const readShared = async (shareColumns: boolean, holdOwnDone?: Promise<void>) => {
      const collector = new FeatureCollector(true);
      const stats = { good: emptyReadStats(), bad: emptyReadStats() };
      await readParallel(inputs, 2, { strict: false, keepSeries: true }, collector, stats, { addBytes: () => undefined, fileDone: () => undefined },
        { shareColumns, frontBatches: 1, ...(holdOwnDone !== undefined ? { holdOwnDone } : {}) });
      collector.finishClass();
      const built = buildFeatureSet(collector, { weight: { mode: 'none' } });
      return { result: plain({ built, emptyFiles: collector.emptyFiles, sharedIds: collector.sharedIds, unordered: collector.unorderedInstances, stats }), storage: built.features.tables[0]!.columns[0]!.buffer };
    };
    const sequential = await readBoth(files, 1, true, {}, false);
    expect(sequential).toMatchObject({ sharedIds });
    const shared = await readShared(true);
    expect(shared.storage).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.result).toEqual(sequential);
    const parts = await readShared(false);
    expect(parts.storage).not.toBeInstanceOf(SharedArrayBuffer);
    expect(parts.result).toEqual(sequential);
    // The worker asks before this thread has read its class (this thread slower, here held back): it still shares.
    const late = await readShared(true, new Promise((resolve) => setTimeout(resolve, 400)));
    expect(late.storage).toBeInstanceOf(SharedArrayBuffer);
    expect(late.result).toEqual(sequential);
  });
  it('with --jobs, that many threads; without, only for two large files; a started worker reads as one started by readParallel', async () => {
    const { prestartFor, prestartWorkers, stopPrestarted } = await dist<Threads>('read/parallel/threads.js');
    const big = mkdtempSync(join(tmpdir(), 'distalyze-prestart-'));
    try {
      const [good, bad] = ['good.dlog', 'bad.dlog'].map((f) => join(big, f)) as [string, string];
      for (const path of [good, bad]) {
        writeFileSync(path, '');
        truncateSync(path, 40 * 1024 * 1024); // sparse: only its size is read
      }
      prestartFor(good, bad, undefined);
      expect(stopPrestarted()).toBe(automaticJobs(80 * 1024 * 1024, 2, availableParallelism(), 40 * 1024 * 1024) - 1);
      prestartFor(big, big, undefined); // directories: listed by the reading, never guessed at
      expect(stopPrestarted()).toBe(0);
      prestartFor('-', bad, 3);
      expect(stopPrestarted()).toBe(0);
      prestartFor(big, big, 3);
      // The reading asks for its workers once it has listed the files (read.ts): those waiting count.
      prestartWorkers(2);
      expect(stopPrestarted()).toBe(2);
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
    // One started ahead, given its settings by readParallel: the same result as a sequential read.
    const files = writeSet('ahead');
    const sequential = await readBoth(files, 1, true, {}, false);
    prestartWorkers(1);
    const ahead = await readBoth(files, 2, true, { batchBytes: 1 }, false);
    expect(stopPrestarted()).toBe(0);
    expect(ahead).toEqual(sequential);
  });
});

describe('one large file read in byte ranges (ranges.ts) equals a sequential read', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'distalyze-ranges-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Request `id`: an I record (kind optional), events and a state that changes twice. */
  const request = (id: string, t0: number, k: number, kind = ''): string =>
    `I\t${id}${kind === '' ? '' : `\t${kind}`}\nE\t${t0}\tRecv\nS\t${t0 + 0.1}\tpool\t${k % 5}\nE\t${t0 + 0.2 + (k % 3) * 0.1}\tQuery\n` +
    `S\t${t0 + 0.3}\tpool\t${(k + 1) % 5}\nE\t${t0 + 0.5 + (k % 7) * 0.1}\tSend\n`;

  /** A class's only file; the bad one with request ids recurring far apart and a header instance. */
  function writeClass(c: 'good' | 'bad', body: string): InputFile {
    mkdirSync(join(dir, c), { recursive: true });
    const path = join(dir, c, 'requests.dlog');
    writeFileSync(path, body);
    return { path, relativePath: 'requests.dlog', gzip: false, size: statSync(path).size };
  }

  const good = (): string => Array.from({ length: 40 }, (_, k) => request(`req-${k}`, 100 + k, k)).join('');
  /** Header records (the file's own instance), requests, req-3 and req-30 named again later (one with a kind only then). */
  const bad = (): string => `E\t50\tBoot\nS\t50.5\theap\t12\n${Array.from({ length: 40 }, (_, k) => request(`req-${k + 20}`, 200 + k, k)).join('')}` +
    `${request('req-3', 300, 9, 'slow')}${request('req-30', 301, 4)}${request('req-77', 302, 1)}`;

  const read = (files: Record<'good' | 'bad', InputFile>, jobs: number, cutsOf?: (f: InputFile) => number[], strict = false): Promise<unknown> =>
    readBoth({ good: [files.good], bad: [files.bad] }, jobs, true,
      { splitBytes: 1, ...(cutsOf !== undefined ? { cutsOf: async (f: InputFile) => cutsOf(f) } : {}) }, strict);

  /** Offsets of the starts of the lines that begin with `prefix` (as cut points). */
  const lineStarts = (text: string, prefix: string): number[] => {
    const out: number[] = [];
    for (let at = text.indexOf(`\n${prefix}`); at !== -1; at = text.indexOf(`\n${prefix}`, at + 1)) out.push(Buffer.byteLength(text.slice(0, at + 1)));
    return out;
  };

  it('cutPoints: each range starts a line, never a line that starts with a BOM; fewer ranges when no line ends', async () => {
    const { cutPoints } = await dist<typeof import('../src/read/parallel/ranges.js')>('read/parallel/ranges.js');
    const text = `E\t1\tA\n\uFEFFE\t2\tB\nE\t3\tC\nE\t4\tD\n`;
    const f = writeClass('good', text);
    // Half of 27 bytes is inside the second line (bytes 6–14): the cut is the next line start, byte 15.
    expect(await cutPoints(f, 2)).toEqual([0, 15, f.size]);
    // An eighth (byte 3) is inside the first line, but the next line starts with a BOM: the cut moves on a line.
    const early = await cutPoints(f, 8);
    expect(early).not.toContain(6);
    expect(early[1]).toBe(15);
    for (const c of early.slice(1, -1)) expect(Buffer.from(text).subarray(c - 1, c).toString()).toBe('\n');
    const oneLine = writeClass('bad', 'x'.repeat(1000));
    expect(await cutPoints(oneLine, 4)).toEqual([0, 1000]);
  });

  it('cut mid-instance, exactly at an I record, with ids recurring across ranges: the same features, kinds and shared ids', async () => {
    const g = good();
    const b = bad();
    const files = { good: writeClass('good', g), bad: writeClass('bad', b) };
    const sequential = await read(files, 1);
    expect(sequential).toMatchObject({ sharedIds: ['req-20', 'req-21', 'req-22', 'req-23', 'req-24', 'req-25', 'req-26', 'req-27', 'req-28', 'req-29',
      'req-30', 'req-31', 'req-32', 'req-33', 'req-34', 'req-35', 'req-36', 'req-37', 'req-38', 'req-39', 'req-3'] });
    // Good: cut mid-instance (a few bytes into req-10's records) and exactly at req-25's I record.
    const goodCuts = [0, (lineStarts(g, 'I\treq-10\n')[0] as number) + 9, lineStarts(g, 'I\treq-25\n')[0] as number, files.good.size];
    // Bad: the header alone in range 0 would be the file's own instance across ranges: cut after req-20 starts,
    // then mid-way through the second req-3 (named again near the end, with a kind only then), then exactly at the second req-30.
    const badCuts = [0, lineStarts(b, 'E\t200.5')[0] as number, lineStarts(b, 'S\t300.3\t')[0] as number, lineStarts(b, 'I\treq-30\n')[1] as number, files.bad.size];
    const cutsOf = (f: InputFile): number[] => (f === files.good ? goodCuts : badCuts);
    // Four threads: two per large file, so both are split (with fewer, each file keeps one thread busy, unsplit).
    expect(await read(files, 4, cutsOf)).toEqual(sequential);
    // The cut points cutPoints chooses (about equal sizes), and no split at all (two threads, two large files).
    expect(await read(files, 4)).toEqual(sequential);
    expect(await read(files, 5)).toEqual(sequential);
    expect(await read(files, 2)).toEqual(sequential);
  });

  it('a first range without an I record (the header instance would span ranges): read sequentially, the same', async () => {
    const g = good();
    const b = bad();
    const files = { good: writeClass('good', g), bad: writeClass('bad', b) };
    expect(await read(files, 4, (f) => (f === files.bad ? [0, lineStarts(b, 'S\t50.5')[0] as number, f.size] : [0, f.size]))).toEqual(await read(files, 1));
  });

  it('a line that is not a record in the second range: the sequential count and example (line number), or its exact --strict error', async () => {
    const g = good();
    const lines = bad().split('\n');
    lines.splice(200, 0, 'not a record at all');
    const b = lines.join('\n');
    const files = { good: writeClass('good', g), bad: writeClass('bad', b) };
    const cuts = (f: InputFile): number[] => (f === files.bad ? [0, lineStarts(b, 'I\treq-30\n')[0] as number, f.size] : [0, f.size]);
    const sequential = await read(files, 1);
    expect(sequential).toMatchObject({ stats: { bad: { skippedLines: '1', skippedExamples: [`${files.bad.path}:201: not a record: 'not a record at all'`] } } });
    expect(await read(files, 4, cuts)).toEqual(sequential);
    await expect(read(files, 4, cuts, true)).rejects.toMatchObject({ message: `${files.bad.path}:201: not a record: 'not a record at all' (--strict)` });
    await expect(read(files, 1, undefined, true)).rejects.toMatchObject({ message: `${files.bad.path}:201: not a record: 'not a record at all' (--strict)` });
  });
});

describe('the rest of a large file read by a thread with nothing left (tail-help.ts) equals a sequential read', () => {
  let tailDir = '';
  beforeAll(() => {
    tailDir = mkdtempSync(join(tmpdir(), 'distalyze-tail-parallel-'));
  });
  afterAll(() => rmSync(tailDir, { recursive: true, force: true }));

  /** Runs of ~10 MB (read in chunks from 8 MiB on), one instance each, 3 a class: states and events, some names new late. */
  function writeRuns(): Record<'good' | 'bad', InputFile[]> {
    const out: Record<'good' | 'bad', InputFile[]> = { good: [], bad: [] };
    for (const c of ['good', 'bad'] as const) {
      mkdirSync(join(tailDir, c), { recursive: true });
      for (let k = 0; k < 3; k++) {
        const lines: string[] = [];
        for (let i = 0; i < 400_000; i++) {
          const t = (1_700_000_000 + i * (c === 'good' ? 0.001 : 0.0013) + k).toFixed(4);
          lines.push(i % 3 === 0 ? `S\t${t}\tqueue_${i % 5}\t${(i * (k + 1)) % 17}` : `E\t${t}\tstep${i % 7}${i % 90_000 === 89_999 ? `x${i}` : ''}`);
        }
        const path = join(tailDir, c, `run-${k}.dlog`);
        writeFileSync(path, `${lines.join('\n')}\n`);
        const run = { ...file(path, statSync(path).size), relativePath: `run-${k}.dlog` };
        // Its ends, read ahead as the CLI reads them: a run summarized as it is read (the only kind a helper takes).
        const [ends] = largeRunEnds([run]);
        out[c].push(ends != null ? { ...run, ends } : run);
      }
    }
    return out;
  }

  /** readBoth's result with the count of files helped taken out (a sequential read has none), and that count. */
  async function readHelped(files: Record<'good' | 'bad', InputFile[]>, local: Parameters<Parallel['readParallel']>[6]): Promise<{ result: unknown; helped: number }> {
    const result = await readBoth(files, 2, false, local, false) as { stats: Record<'good' | 'bad', { helped: string; streamed: string }> };
    expect(result.stats.good.streamed).toBe('3');
    const helped = Number(result.stats.good.helped) + Number(result.stats.bad.helped);
    result.stats.good.helped = result.stats.bad.helped = '0';
    return { result, helped };
  }

  it('this thread helped by the worker, and the worker by this thread: the same features and counts', async () => {
    const files = writeRuns();
    // (Without change points kept, a run with its ends known is summarized as it is read; q*.abs are a second pass's.)
    const sequential = await readBoth(files, 1, false, {}, false);
    expect(sequential).toMatchObject({ stats: { good: { streamed: '3', helped: '0' }, bad: { streamed: '3' } } });
    // This thread reads every batch: the worker, with none, takes the rest of the one this thread reads. (Started
    // ahead and given time to load, so that it looks while this thread still reads; tried up to three times, each
    // read the same as a sequential one, for a worker slow to start under a loaded machine.)
    const { prestartWorkers } = await dist<Threads>('read/parallel/threads.js');
    let workerHelped = 0;
    for (let attempt = 0; attempt < 3 && workerHelped === 0; attempt++) {
      prestartWorkers(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const workerHelps = await readHelped(files, { batchBytes: 1, frontBatches: 6, tailMinBytes: 0 });
      expect(workerHelps.result).toEqual(sequential);
      workerHelped = workerHelps.helped;
    }
    expect(workerHelped).toBeGreaterThan(0);
    // The worker reads every batch: this thread, with none, waits for it and takes the rests.
    const mainHelps = await readHelped(files, { batchBytes: 1, frontBatches: 0, tailMinBytes: 0, tailWaitMs: 10_000 });
    expect(mainHelps.result).toEqual(sequential);
    expect(mainHelps.helped).toBeGreaterThan(0);
  });
});
