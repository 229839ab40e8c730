/**
 * Issue 17, few huge files: a large run's file summarized as it is read
 * (features/streamed.ts), its records not held. The features must be the
 * numbers summarize gives from the records held, and a file that turns out
 * not to be one instance in time order is read again (RereadFile), counted
 * once.
 */
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { FeatureCollector } from '../src/features/collector.js';
import { buildFeatureSet } from '../src/features/index.js';
import { referenceDurationOf } from '../src/features/quartile-pass.js';
import type { InputFile, RecordEnds } from '../src/parse/files.js';
import { readClass, type ReadStats } from '../src/parse/reader.js';
import type { Translator } from '../src/parse/translator.js';
import type { ClassName } from '../src/parse/records.js';

const dir = mkdtempSync(join(tmpdir(), 'distalyze-streamed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let written = 0;
/** A file of these lines; its ends as given, or its first and last records' times. */
function runFile(lines: readonly string[], ends?: RecordEnds): InputFile {
  const path = join(dir, `run-${written++}.dlog`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  const times = lines.filter((l) => /^[ES]\t/.test(l)).map((l) => Number(l.split('\t')[1]));
  return { path, relativePath: `run-${written}.dlog`, gzip: false, size: statSync(path).size, ends: ends ?? { first: Math.min(...times), last: Math.max(...times) } };
}

/**
 * One run: events every step, 40 states (more than a first allocation's 16) logged at the same times as
 * events (ties), runs of 0 and −0, a state logged once, one first logged late, an event that occurs once.
 */
function richRun(start: number, steps: number, seed: number): string[] {
  const lines = [`# run ${seed}`];
  for (let i = 0; i < steps; i++) {
    const t = (start + i * 0.25 + (i % 3) * 0.01).toFixed(6);
    lines.push(`E\t${t}\t${i === 0 ? 'Start' : i % 5 === 0 ? 'Flush' : 'Write'}`);
    if (i % 4 === 0) lines.push(`S\t${t}\tqueue_len\t${(i * seed) % 7}`);
    // 5, 0, -0, 0, -0, 3, 0 …: where a q × D or q × Dref falls in a run of zeros, the run's first value counts.
    lines.push(`S\t${t}\tzeros\t${['5', '0', '-0', '0', '-0', '3', '0'][(i + seed) % 7]}`);
    if (i === 3) lines.push(`S\t${t}\tonce\t${seed * 1.5}`);
    if (i > steps * 0.8) lines.push(`S\t${t}\tlate\t${i % 11}`);
    if (i === Math.floor(steps / 2)) lines.push(`E\t${t}\tCompaction`);
    if (i % 2 === 0) lines.push(`S\t${t}\tv${i % 40}\t${((i * 7 + seed) % 13) / 4}`);
    if (i % 9 === 0) lines.push(`E\t${t}\te${i % 30}`);
  }
  lines.push(`E\t${(start + steps * 0.25).toFixed(6)}\tFinish`);
  return lines;
}

/** Every feature, with −0 told from 0 (String(-0) is "0"). */
const plain = (x: unknown): unknown =>
  JSON.parse(JSON.stringify(x, (_k, v: unknown) => {
    const num = (n: number): string => (Object.is(n, -0) ? '-0' : String(n));
    return ArrayBuffer.isView(v) ? Array.from(v as Float64Array, num) : typeof v === 'number' ? num(v) : v;
  }));

interface Read {
  readonly features: unknown;
  readonly stats: Record<ClassName, ReadStats>;
  readonly bytes: number;
}

/**
 * The classes read into one collector as the reading makes it (Dref known ahead), files of `minBytes` and more
 * summarized as they are read; or, without `reference`, their change points held until Dref is known.
 */
async function read(classes: Record<ClassName, readonly InputFile[]>, reference: number | null, minBytes = 0): Promise<Read> {
  const c = new FeatureCollector(true);
  if (reference !== null) c.useReferenceDuration(reference);
  c.streamedMinBytes = minBytes;
  let bytes = 0;
  const stats = {} as Record<ClassName, ReadStats>;
  for (const className of ['good', 'bad'] as const) {
    stats[className] = await readClass(classes[className], className, c.sink(() => undefined), { strict: false, onBytes: (n) => { bytes += n; } });
    c.finishClass();
  }
  const built = buildFeatureSet(c, { weight: { mode: 'none' } });
  return { features: plain({ features: built.features, warnings: built.warnings }), stats, bytes };
}

/** Read three ways: change points held, records held with Dref known, summarized as read. Returns the last. */
async function readThreeWays(classes: Record<ClassName, readonly InputFile[]>): Promise<Read & { held: Read }> {
  const c = new FeatureCollector(true);
  for (const className of ['good', 'bad'] as const) {
    await readClass(classes[className], className, c.sink(() => undefined), { strict: false });
    c.finishClass();
  }
  const reference = referenceDurationOf(c);
  const points = await read(classes, null);
  const held = await read(classes, reference, Infinity);
  expect(held.features).toEqual(points.features);
  for (const className of ['good', 'bad'] as const) expect(held.stats[className].streamed).toBe(0);
  return { ...(await read(classes, reference)), held };
}

const files = (n: number, make: (i: number) => InputFile): InputFile[] => Array.from({ length: n }, (_, i) => make(i));

/** The lines with line 100 moved 20 000 lines later (more than a StreamedInstance's window: 8 192 records). */
const late = (lines: readonly string[]): string[] => [...lines.slice(0, 100), ...lines.slice(101, 20_100), lines[100]!, ...lines.slice(20_100)];

describe('a large run summarized as it is read (features/streamed.ts)', () => {
  it('gives the features the records held give: ties, runs of 0 and −0, states logged once or late, 40 states', async () => {
    const classes = {
      good: files(3, (i) => runFile(richRun(1_763_600_000 + 100 * i, 300 + 40 * i, i + 2))),
      bad: files(3, (i) => runFile(richRun(1_763_700_000 + 100 * i, 380 + 70 * i, i + 5))),
    };
    const r = await readThreeWays(classes);
    expect(r.features).toEqual(r.held.features);
    expect(r.stats.good.streamed).toBe(3);
    expect(r.stats.bad.streamed).toBe(3);
    // Counted as the held reading counts.
    expect(r.stats).toEqual({ good: { ...r.held.stats.good, streamed: 3 }, bad: { ...r.held.stats.bad, streamed: 3 } });
  });

  it('takes in records that come after later ones, within half its window (a log several threads write)', async () => {
    // Every 10th line moved 1–3 000 lines later (half a window: 4 096 records), the first and last lines swapped with their neighbours.
    const shuffled = (lines: string[], seed: number): string[] => {
      const out = [...lines];
      for (let i = 1 + (seed % 10); i + 3000 < out.length; i += 10) {
        const [moved] = out.splice(i, 1);
        out.splice(i + 1 + ((i * 7919 + seed) % 3000), 0, moved!);
      }
      [out[1], out[2]] = [out[2]!, out[1]!];
      [out[out.length - 1], out[out.length - 2]] = [out[out.length - 2]!, out[out.length - 1]!];
      return out;
    };
    const classes = {
      good: files(3, (i) => runFile(shuffled(richRun(1_000 + 1000 * i, 2_000 + 100 * i, i + 2), i))),
      bad: files(3, (i) => runFile(i === 2 ? richRun(9_000, 2_500, 9) : shuffled(richRun(5_000 + 1000 * i, 2_600 + 100 * i, i + 5), i + 3))),
    };
    const r = await readThreeWays(classes);
    expect(r.features).toEqual(r.held.features);
    expect(r.stats.good.streamed + r.stats.bad.streamed).toBe(6);
    // As summarize: "5 instance(s) had timestamps going backwards".
    expect((r.features as { warnings: string[] }).warnings.filter((w) => w.startsWith('5 instance(s) had timestamps going backwards'))).toHaveLength(1);

    // A record more than a whole window (8 192 records) late: the file is read again, its records held.
    const far = { good: classes.good, bad: files(3, (i) => runFile(late(richRun(5_000 + 10_000 * i, 9_000 + 100 * i, i + 5)))) };
    const f = await readThreeWays(far);
    expect(f.features).toEqual(f.held.features);
    expect(f.stats.bad.streamed).toBe(0);
  });

  it('random runs, in order or records moved up to 3 000 later, states on q × D and q × Dref exactly: the features the records held give', async () => {
    // Times in steps of 0, ¼ or ½ (ties; D a multiple of ¼, so q × D often falls on a record), three events, three
    // states whose values include 0 and −0, up to 12 000 records (past the window's 8 192, taken in halves).
    const record = fc.tuple(fc.constantFrom(0, 0.25, 0.25, 0.5), fc.nat(5), fc.constantFrom('0', '-0', '1', '2.5', '7'));
    const run = fc.tuple(fc.array(record, { minLength: 30, maxLength: 12_000, size: 'max' }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 3000 })), { maxLength: 40 }));
    const lines = ([records, moves]: [[number, number, string][], [number, number][]], start: number): string[] => {
      let t = start;
      const out = records.map(([step, k, value]) => {
        t += step;
        return k < 3 ? `E\t${t.toFixed(2)}\t${'ABC'[k]}` : `S\t${t.toFixed(2)}\ts${k - 3}\t${value}`;
      });
      for (const [at, by] of moves) {
        const i = at % out.length;
        const [moved] = out.splice(i, 1);
        out.splice(Math.min(out.length, i + by), 0, moved!);
      }
      return out;
    };
    await fc.assert(fc.asyncProperty(fc.array(run, { minLength: 4, maxLength: 4 }), async (runs) => {
      const classes = { good: runs.slice(0, 2).map((r, i) => runFile(lines(r, 1000 + 100_000 * i))), bad: runs.slice(2).map((r, i) => runFile(lines(r, 500_000 + 100_000 * i))) };
      const r = await readThreeWays(classes);
      expect(r.features).toEqual(r.held.features);
      expect(r.stats.good.streamed + r.stats.bad.streamed).toBe(4);
    }), { numRuns: 25 });
  });

  it('the median of an event\'s times held from its place on, in blocks of 4 096 (at the ends of blocks too)', async () => {
    // 8 192 times: the median is the mean of the 4 096th and 4 097th, one in each of the first two blocks.
    const occurring = (n: number, start: number): InputFile => runFile(Array.from({ length: n }, (_, k) => `E\t${(start + k * 0.5 + (k % 7) * 0.01).toFixed(6)}\tTick`));
    const classes = { good: [occurring(8192, 10), occurring(8193, 20), occurring(12_288, 30)], bad: [occurring(16_384, 40), occurring(8191, 50), occurring(4097, 60)] };
    const r = await readThreeWays(classes);
    expect(r.features).toEqual(r.held.features);
    expect(r.stats.good.streamed + r.stats.bad.streamed).toBe(6);
  });

  it('only files of streamedMinBytes and more', async () => {
    const classes = { good: files(2, (i) => runFile(richRun(1_000 + 100 * i, 100 + 10 * i, i))), bad: files(2, (i) => runFile(richRun(5_000 + 100 * i, 120, i + 1))) };
    const sizes = [...classes.good, ...classes.bad].map((f) => f.size).sort((a, b) => a - b);
    const r = await read(classes, null);
    const c = new FeatureCollector(true);
    for (const className of ['good', 'bad'] as const) {
      await readClass(classes[className], className, c.sink(() => undefined), { strict: false });
      c.finishClass();
    }
    const some = await read(classes, referenceDurationOf(c), sizes[2]);
    expect(some.features).toEqual(r.features);
    expect(some.stats.good.streamed + some.stats.bad.streamed).toBe(2);
  });

  it('a file not in time order, not one instance, with other ends, or whose sum overflows is read again: the same features, counted once', async () => {
    const base = (i: number): string[] => richRun(2_000 + 500 * i, 200 + 30 * i, i + 3);
    const broken: ((lines: string[]) => InputFile)[] = [
      // A record a whole window late, after a line that is not a record (skipped, counted once).
      () => runFile(['not a record', ...late(richRun(20_000, 9_000, 4))]),
      // An I record halfway: the records after it are another instance's.
      (lines) => runFile([...lines.slice(0, 120), 'I\treq-1', ...lines.slice(120)]),
      // Ends other than the file's (its last record read from its tail as another time).
      (lines) => runFile(lines, { first: Number(lines[1]!.split('\t')[1]), last: Number(lines[lines.length - 1]!.split('\t')[1]) + 1 }),
      // A state whose sum overflows: its mean is the mean of each value / n (finiteMean).
      (lines) => runFile([...lines.slice(0, 50), `S\t${lines[50]!.split('\t')[1]}\thuge\t1e308`, `S\t${lines[51]!.split('\t')[1]}\thuge\t1.7e308`, ...lines.slice(51)]),
    ];
    const classes = { good: files(4, (i) => runFile(base(i))), bad: files(4, (i) => broken[i]!(base(i + 4))) };
    const r = await readThreeWays(classes);
    expect(r.features).toEqual(r.held.features);
    expect(r.stats.good.streamed).toBe(4);
    expect(r.stats.bad.streamed).toBe(0);
    expect(r.stats.bad).toEqual(r.held.stats.bad);
    expect(r.stats.bad.skippedLines).toBe(1);
    // The bytes read again are not counted twice in the progress.
    expect(r.bytes).toBe([...classes.good, ...classes.bad].reduce((n, f) => n + f.size, 0));
  });

  it('an empty file is an empty file (not read again, not an instance)', async () => {
    const empty = runFile(['# nothing'], { first: 0, last: 0 });
    const c = new FeatureCollector(true);
    c.useReferenceDuration(1);
    c.streamedMinBytes = 0;
    const stats = await readClass([empty], 'good', c.sink(() => undefined), { strict: false });
    expect(stats).toMatchObject({ files: 1, lines: 1, streamed: 0 });
    expect(c.emptyFiles).toEqual([empty.path]);
    expect(c.instanceCount).toBe(0);
  });
});

describe('a class\'s only file that is one run', () => {
  it('is not split in byte ranges among threads (ranges.ts): one thread summarizes it as it reads it', async () => {
    const { splittable } = await import('../src/read/parallel/ranges.js');
    const run: InputFile = { path: '/logs/run.dlog', relativePath: 'run.dlog', gzip: false, size: 700 << 20 };
    const init = { strict: false, keepSeries: true };
    expect(splittable(run, init, 2)).toBe(true);
    expect(splittable({ ...run, ends: { first: 1, last: 2 } }, init, 2)).toBe(false);
  });
});

// The reading as the CLI makes it (read.ts: the ends read ahead, then -j1 or -j2): the built modules, for the workers.
const ROOT = join(import.meta.dirname, '..');
type ReadModule = typeof import('../src/read/index.js');
type ReadHooks = import('../src/read/index.js').ReadHooks;

describe('runs of 8 MiB and more, through readClasses', () => {
  it('are summarized as they are read on one thread and two, with Dref known ahead or q*.abs from a second pass: the features the records held give', async () => {
    const { readClasses } = (await import(pathToFileURL(join(ROOT, 'dist', 'read', 'index.js')).href)) as ReadModule;
    for (const c of ['good', 'bad'] as const) mkdirSync(join(dir, 'large', c), { recursive: true });
    // Two runs a class of ~8.8 MB (150 000 steps); the last bad one with a record out of order near its end.
    for (const [c, i] of [['good', 0], ['good', 1], ['bad', 0], ['bad', 1]] as const) {
      const steps = 150_000 + 3_000 * i;
      const start = 1_763_600_000 + 10_000 * i;
      const lines: string[] = [];
      for (let k = 0; k < steps; k++) {
        const t = (start + k * 0.01).toFixed(6);
        lines.push(`E\t${t}\t${k % 3 === 0 ? 'Flush' : 'Write'}`, `S\t${t}\tqueue_len\t${(k * (i + 3) + (c === 'bad' ? 5 : 0)) % 17}`);
      }
      if (c === 'bad' && i === 1) lines.splice(lines.length - 10, 0, `S\t${start}\tqueue_len\t3`);
      // A log several threads write: records a few lines late, the last one too (its ends' latest time is not its last line's).
      if (c === 'good' && i === 0) {
        for (let k = 5; k + 40 < lines.length; k += 97) lines.splice(k + 1 + (k % 37), 0, ...lines.splice(k, 1));
        lines.push(...lines.splice(lines.length - 3, 1));
      }
      writeFileSync(join(dir, 'large', c, `run-${i}.dlog`), `${lines.join('\n')}\n`);
    }
    expect(statSync(join(dir, 'large', 'good', 'run-0.dlog')).size).toBeGreaterThan(8 << 20);
    type Options = { jobs: number; twoPass?: boolean; compressedEnds?: boolean };
    type Hooks = NonNullable<Parameters<ReadModule['readClasses']>[3]>;
    const featuresOf = async (options: Options, set = 'large', hooks: Hooks = {}): Promise<{ features: unknown; streamed: number; secondPass: boolean }> => {
      let secondPass = false;
      const r = await readClasses(join(dir, set, 'good'), join(dir, set, 'bad'), options, { ...hooks, onSecondPass: () => { secondPass = true; } });
      const { instances, tables, referenceDuration } = r.features.features;
      // (Instances are named by their files: run-0.dlog.gz is run-0.dlog here.)
      const features = JSON.parse(JSON.stringify(plain({ instances, tables, referenceDuration })).replaceAll('.dlog.gz"', '.dlog"')) as unknown;
      return { features, streamed: r.stats.good.streamed + r.stats.bad.streamed, secondPass };
    };
    // What the records held give: read one by one into a collector that summarizes no file as it is read.
    const held = await (async (): Promise<unknown> => {
      const c = new FeatureCollector(true);
      c.streamedMinBytes = Infinity;
      for (const className of ['good', 'bad'] as const) {
        const runs = [0, 1].map((i): InputFile => {
          const path = join(dir, 'large', className, `run-${i}.dlog`);
          return { path, relativePath: `run-${i}.dlog`, gzip: false, size: statSync(path).size };
        });
        await readClass(runs, className, c.sink(() => undefined), { strict: false });
        c.finishClass();
      }
      c.fillAbsoluteQuartiles(referenceDurationOf(c));
      const { instances, tables, referenceDuration } = buildFeatureSet(c, { weight: { mode: 'none' } }).features;
      return plain({ instances, tables, referenceDuration });
    })();
    const passes = { features: held };
    // Dref known ahead (the files' ends), or q*.abs from a second pass over the states (--two-pass).
    for (const jobs of [1, 2]) {
      expect(await featuresOf({ jobs })).toEqual({ features: held, streamed: 3, secondPass: false });
      expect(await featuresOf({ jobs, twoPass: true })).toEqual({ features: held, streamed: 3, secondPass: true });
    }
    // A run whose ends are not read ahead (compressed, small): no Dref ahead, yet with a second pass the others'
    // own ends are enough (the last bad one read again, as above).
    for (const c of ['good', 'bad'] as const) {
      mkdirSync(join(dir, 'large-mixed', c), { recursive: true });
      for (const i of [0, 1]) {
        const text = readFileSync(join(dir, 'large', c, `run-${i}.dlog`));
        if (c === 'good' && i === 1) writeFileSync(join(dir, 'large-mixed', c, `run-${i}.dlog.gz`), gzipSync(text));
        else writeFileSync(join(dir, 'large-mixed', c, `run-${i}.dlog`), text);
      }
    }
    expect(statSync(join(dir, 'large-mixed', 'good', 'run-1.dlog.gz')).size).toBeLessThan(8 << 20);
    for (const jobs of [1, 2]) {
      expect(await featuresOf({ jobs, twoPass: true }, 'large-mixed')).toEqual({ features: held, streamed: 2, secondPass: true });
      expect(await featuresOf({ jobs }, 'large-mixed')).toEqual({ features: held, streamed: 0, secondPass: false });
    }
    // Compressed (stored: as large as they are), with their ends found by decompressing them once more; the last
    // bad run not compressed.
    for (const c of ['good', 'bad'] as const) {
      mkdirSync(join(dir, 'large-gz', c), { recursive: true });
      for (const i of [0, 1]) {
        const text = readFileSync(join(dir, 'large', c, `run-${i}.dlog`));
        if (c === 'bad' && i === 1) writeFileSync(join(dir, 'large-gz', c, `run-${i}.dlog`), text);
        else writeFileSync(join(dir, 'large-gz', c, `run-${i}.dlog.gz`), gzipSync(text, { level: 0 }));
      }
    }
    const compressed = async (options: { jobs: number; compressedEnds?: boolean }): Promise<{ features: unknown; streamed: number; pass: unknown }> => {
      let pass: unknown = null;
      const { features, streamed } = await featuresOf(options, 'large-gz', {
        onEndsPass: (bytes, n) => { pass = { bytes, files: n, read: 0, done: 0 }; },
        onBytes: (n) => { if (pass !== null && !(pass as { ended?: true }).ended) (pass as { read: number }).read += n; },
        onFileDone: () => { if (pass !== null && !(pass as { ended?: true }).ended) (pass as { done: number }).done++; },
        onEndsPassDone: () => { (pass as { ended?: true }).ended = true; },
      });
      return { features, streamed, pass };
    };
    const gzBytes = ['good/run-0', 'good/run-1', 'bad/run-0'].map((run) => statSync(join(dir, 'large-gz', `${run}.dlog.gz`)).size).reduce((a, b) => a + b);
    for (const jobs of [1, 2]) {
      expect(await compressed({ jobs, compressedEnds: true })).toEqual({ features: passes.features, streamed: 3, pass: { bytes: gzBytes, files: 3, read: gzBytes, done: 3, ended: true } });
      // Not by default: they decompress to less than 256 MiB (held, they take less time).
      expect(await compressed({ jobs })).toEqual({ features: passes.features, streamed: 0, pass: null });
    }
  }, 60_000);
});

/**
 * Two raw log4j-layout runs a class of ~8.5 MB (made once): a first line without a timestamp (not a record), stack
 * traces continuing lines (the last line one of them), and lines a few lines late, as several threads write a log.
 */
let rawRuns: Promise<Record<ClassName, InputFile[]>> | null = null;
function rawLogs(): Promise<Record<ClassName, InputFile[]>> {
  return rawRuns ??= (async () => {
    for (const c of ['good', 'bad'] as const) mkdirSync(join(dir, 'raw', c), { recursive: true });
    const stamp = (t: number): string => {
      const d = new Date(Math.round(t * 1000));
      return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)},${String(d.getUTCMilliseconds()).padStart(3, '0')}`;
    };
    for (const [c, i] of [['good', 0], ['good', 1], ['bad', 0], ['bad', 1]] as const) {
      const start = 1_795_168_800 + 3_600 * i;
      const lines = ['=== region server starting ==='];
      for (let k = 0; k < 100_000 + 2_000 * i; k++) {
        const t = start + k * 0.05;
        const handler = k % 7;
        if (k % 3 === 0) lines.push(`${stamp(t)} INFO  [RpcServer.handler=${handler}] HRegion: Flushed ${(k * 13) % 200} MB in ${(k % 50) + (c === 'bad' ? 40 : 5)} ms`);
        else if (k % 3 === 1) lines.push(`${stamp(t)} DEBUG [RpcServer.handler=${handler}] RpcServer: call multi(${(k * 7) % 500} actions) processed in ${k % 31} ms`);
        else lines.push(`${stamp(t)} WARN  [Writer-${handler}] FSHLog: slow sync took ${(k % 90) + 10} ms`);
        if (k % 1000 === 500) lines.push('java.io.IOException: timeout', '\tat org.apache.hadoop.hbase.ipc.RpcServer.call(RpcServer.java:2381)');
      }
      for (let k = 40; k + 40 < lines.length; k += 101) lines.splice(k + 1 + (k % 5), 0, ...lines.splice(k, 1));
      // The first bad run: its earliest line after a later one of the same message, and no trace at its end.
      if (c === 'bad' && i === 0) [lines[1], lines[4]] = [lines[4]!, lines[1]!];
      else lines.push('\tat java.lang.Thread.run(Thread.java:750)');
      writeFileSync(join(dir, 'raw', c, `rs-${i}.log`), `${lines.join('\n')}\n`);
    }
    const list = (c: ClassName): InputFile[] => [0, 1].map((i) => {
      const path = join(dir, 'raw', c, `rs-${i}.log`);
      return { path, relativePath: `rs-${i}.log`, gzip: false, size: statSync(path).size };
    });
    return { good: list('good'), bad: list('bad') };
  })();
}

/**
 * The features of the raw runs (in `set`: 'raw', or 'raw-gz' compressed) through readClasses (`options`, `hooks`): as
 * the reading makes them, and how many were streamed.
 */
async function rawFeatures(options: { jobs: number; translator?: string; compressedEnds?: boolean }, set = 'raw', hooks: ReadHooks = {}): Promise<{ features: unknown; streamed: number }> {
  const { readClasses } = (await import(pathToFileURL(join(ROOT, 'dist', 'read', 'index.js')).href)) as ReadModule;
  const r = await readClasses(join(dir, set, 'good'), join(dir, set, 'bad'), { ...options, year: 2026 }, hooks);
  const { instances, tables, referenceDuration } = r.features.features;
  return { features: plain({ instances, tables, referenceDuration }), streamed: r.stats.good.streamed + r.stats.bad.streamed };
}

/** What the records held give: the runs read through `translator`, no file summarized as it is read. */
async function rawHeld(classes: Record<ClassName, InputFile[]>, translator: Translator): Promise<unknown> {
  const c = new FeatureCollector(true);
  c.streamedMinBytes = Infinity;
  for (const className of ['good', 'bad'] as const) {
    await readClass(classes[className], className, c.sink(() => undefined), { strict: false, translator });
    c.finishClass();
  }
  c.fillAbsoluteQuartiles(referenceDurationOf(c));
  const { instances, tables, referenceDuration } = buildFeatureSet(c, { weight: { mode: 'none' } }).features;
  return plain({ instances, tables, referenceDuration });
}

describe('raw logs of 8 MiB and more', () => {
  it('with templates mined, are summarized as they are read, their ends from the mining pass: the features the records held give', async () => {
    const { rawLogTranslator } = await import('../src/parse/templates/index.js');
    const classes = await rawLogs();
    expect(classes.good[0]!.size).toBeGreaterThan(8 << 20);
    const translator = (await rawLogTranslator(classes, { year: 2026 }))!;
    // The ends: the earliest and latest times of the lines that become records (not the first line, no timestamp).
    expect(translator.model.ends?.[classes.bad[0]!.path]).toEqual({ first: 1_795_168_800, last: 1_795_168_800 + 99_999 * 0.05 });
    const held = await rawHeld(classes, translator);
    for (const jobs of [1, 2]) expect(await rawFeatures({ jobs })).toEqual({ features: held, streamed: 4 });
  }, 60_000);

  it('through a rules translator, are summarized as they are read, their ends translated: the features the records held give', async () => {
    const { loadTranslator } = await import('../src/parse/translators/load.js');
    const classes = await rawLogs();
    const rules = join(dir, 'hbase.yaml');
    writeFileSync(rules, [
      'timestamp: log4j',
      'rules:',
      "  - match: ' DEBUG '",
      '    ignore: true',
      "  - match: 'Flushed (?<mb>\\d+) MB'",
      '    state: flush_mb',
      '    value: mb',
      '    continue: true',
      "  - match: 'Flushed \\d+ MB in (?<ms>\\d+) ms'",
      '    state: flush_ms',
      '    value: ms',
      "  - match: 'slow sync took'",
      '    event: SlowSync',
      '',
    ].join('\n'));
    const held = await rawHeld(classes, await loadTranslator(rules));
    for (const jobs of [1, 2]) expect(await rawFeatures({ jobs, translator: rules })).toEqual({ features: held, streamed: 4 });

    // Compressed (stored: as large as they are, as a file is streamed from 8 MiB on disk): their ends found by
    // decompressing them once more, shown as the ends pass (by default only for a file that decompresses to 256 MiB;
    // these are ~8.5 MB, so held then).
    let gzBytes = 0;
    for (const c of ['good', 'bad'] as const) {
      mkdirSync(join(dir, 'raw-gz', c), { recursive: true });
      for (const f of classes[c]) {
        const path = join(dir, 'raw-gz', c, `${f.relativePath}.gz`);
        writeFileSync(path, gzipSync(readFileSync(f.path), { level: 0 }));
        gzBytes += statSync(path).size;
      }
    }
    // A compressed file's instance is named by its file name, .gz included.
    const heldGz: unknown = JSON.parse(JSON.stringify(held).replace(/"(rs-\d\.log)"/g, '"$1.gz"'));
    expect(heldGz).not.toEqual(held);
    for (const jobs of [1, 2]) {
      const pass = { bytes: 0, files: 0, read: 0, done: 0, ended: false };
      const hooks: ReadHooks = {
        onEndsPass: (bytes, n) => Object.assign(pass, { bytes, files: n }),
        onBytes: (n) => { if (pass.files > 0 && !pass.ended) pass.read += n; },
        onFileDone: () => { if (pass.files > 0 && !pass.ended) pass.done++; },
        onEndsPassDone: () => { pass.ended = true; },
      };
      expect(await rawFeatures({ jobs, translator: rules, compressedEnds: true }, 'raw-gz', hooks)).toEqual({ features: heldGz, streamed: 4 });
      expect(pass).toEqual({ bytes: gzBytes, files: 4, read: gzBytes, done: 4, ended: true });
      expect(await rawFeatures({ jobs, translator: rules }, 'raw-gz')).toEqual({ features: heldGz, streamed: 0 });
    }
  }, 120_000);
});
