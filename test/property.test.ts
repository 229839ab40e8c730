/**
 * Issue 7, property-based (fast-check): the parsers never throw anything but
 * InputError on arbitrary input; features do not depend on the order of an
 * instance's records; the same input gives byte-identical reports; --jobs 1
 * and --jobs 2 agree. (The t-test's own properties live in test/ttest*.)
 * Run counts are modest: the file runs in well under a minute on 2 cores.
 * The --jobs property runs the built executable: `npm run build` first.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import { InputError } from '../src/errors.js';
import { FeatureCollector } from '../src/features/collector.js';
import { buildFeatureSet } from '../src/features/index.js';
import type { FeatureSet } from '../src/features/types.js';
import { parseDlogLine } from '../src/parse/dlog.js';
import type { InputFile } from '../src/parse/files.js';
import { readClass } from '../src/parse/reader.js';
import type { RecordSink } from '../src/parse/records.js';
import { parseTimestamp } from '../src/parse/timestamp.js';
import { HOSTILE_NAMES, validInstance } from './helpers/broken-inputs.js';
import { collectTexts } from './helpers/collect.js';
import { run, runBinary } from './helpers/run.js';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'distalyze-property-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Run `f`; an InputError is an accepted outcome, anything else fails the property. */
async function onlyInputErrors(f: () => unknown): Promise<void> {
  try {
    await f();
  } catch (err) {
    if (err instanceof InputError) {
      // A user error is one line: control characters in it are escaped when printed, but its text must exist.
      expect(err.message.length).toBeGreaterThan(0);
      return;
    }
    throw err;
  }
}

const nullSink: RecordSink = { instance: () => undefined, event: () => undefined, state: () => undefined };

// --- Generators -------------------------------------------------------------

/** Pieces that make lines look almost like records, so the generator reaches deep into the parsers. */
const FRAGMENTS = [
  'E', 'S', 'I', 'e', '\t', '\t', '\t', ' ', '#', ',', '"', '\n', '\r\n', '\r', '\uFEFF', '\u0000', '\u001b', '\u0085', '\u2028', '\uD800',
  '0', '1', '12', '-3.5', '1e-3', '.5', '1e308', '-1e308', '1e999', 'NaN', 'inf', 'Infinity', '0x1f', '12abc', '+', '-', '.', 'e',
  '2026-11-20T10:00:01.123Z', '2026-11-20 10:00:01,123', '2026-02-30T00:00:00Z', '2026-11-20T10:00:01+01:00', '0000-01-01T00:00:00Z',
  'Start', 'End', 'queue', 'duration', 'kind', 'timestamp', 'name', 'value', 'instance', 'event', 'state',
  'kind,timestamp,name,value,instance\n', 'kind\ttimestamp\tname\tvalue\n', ...Object.values(HOSTILE_NAMES),
];
const almostRecords = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }).map((parts) => parts.join(''));
const anyText = fc.oneof(almostRecords, fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme-ascii', maxLength: 200 }));
const anyBytes = fc.oneof(anyText.map((t) => new Uint8Array(Buffer.from(t, 'utf8'))), fc.uint8Array({ maxLength: 300 }));

const EVENT_NAMES = ['Start', 'Work', 'Flush', 'End', HOSTILE_NAMES.tab, HOSTILE_NAMES.script];
const STATE_NAMES = ['queue', 'heap', HOSTILE_NAMES.esc, HOSTILE_NAMES.quotes];

interface Rec { readonly ms: number; readonly line: string }

/** One instance's records, at distinct whole milliseconds (so the time order is unique), in time order. */
const instanceRecords = (base: number): fc.Arbitrary<Rec[]> =>
  fc.uniqueArray(fc.integer({ min: 0, max: 60_000 }), { minLength: 2, maxLength: 25 }).chain((times) => {
    const sorted = [...times].sort((a, b) => a - b);
    return fc.tuple(...sorted.map((ms) => fc.oneof(
      fc.constantFrom(...EVENT_NAMES).map((name) => ({ ms, line: `E\t${((base + ms) / 1000).toFixed(3)}\t${name}` })),
      fc.tuple(fc.constantFrom(...STATE_NAMES), fc.integer({ min: -1000, max: 1000 })).map(([name, v]) => ({ ms, line: `S\t${((base + ms) / 1000).toFixed(3)}\t${name}\t${v / 4}` })),
    )));
  });

/** A permutation of `n` items, as fast-check can shrink it. */
const permutation = (n: number): fc.Arbitrary<number[]> =>
  fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i), { minLength: n, maxLength: n });

/** `k` instances of one class, each with its records and a permutation of them. */
const classOf = (k: [number, number], base: number): fc.Arbitrary<{ records: Rec[]; order: number[] }[]> =>
  fc.integer({ min: k[0], max: k[1] }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) =>
    instanceRecords(base + i * 100_000).chain((records) => permutation(records.length).map((order) => ({ records, order }))))));

/** Every feature table as plain arrays (NaN kept), with the instances and the metric: what must not change. */
function featureSnapshot(fs: FeatureSet): unknown {
  return {
    instances: fs.instances.map((i) => ({ ...i })),
    metric: fs.metric,
    referenceDuration: fs.referenceDuration,
    tables: fs.tables.map((t) => ({ kind: t.kind, feature: t.feature, variables: [...t.variables], columns: t.columns.map((c) => Array.from(c)) })),
  };
}

// --- (a) parsers ------------------------------------------------------------

describe('the parsers throw nothing but InputError on arbitrary input', () => {
  it('parseDlogLine, on arbitrary strings', () => {
    fc.assert(fc.property(anyText, (line) => {
      let kind: string | undefined;
      try {
        kind = parseDlogLine(line, nullSink, 'x.dlog', 1);
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        expect(err.message.startsWith('x.dlog:1: ')).toBe(true);
        return;
      }
      expect(['record', 'ignored', 'not-a-record']).toContain(kind);
    }), { numRuns: 3000 });
  });

  it('parseIsoTimestamp agrees with Date.parse on every valid date-time, years 0000–9999', () => {
    const two = (n: number): string => String(n).padStart(2, '0');
    const dateTime = fc.record({
      y: fc.integer({ min: 0, max: 9999 }), mo: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }),
      h: fc.integer({ min: 0, max: 23 }), mi: fc.integer({ min: 0, max: 59 }), s: fc.integer({ min: 0, max: 59 }), ms: fc.integer({ min: 0, max: 999 }),
      zone: fc.constantFrom('Z', '+01:00', '-05:30', '+0930'),
    });
    fc.assert(fc.property(dateTime, ({ y, mo, d, h, mi, s, ms, zone }) => {
      const text = `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}.${String(ms).padStart(3, '0')}${zone}`;
      const expected = Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
      const parsed = parseTimestamp(text);
      // Date.parse rolls 2026-02-31 over; the parser refuses it.
      const day = new Date(0);
      day.setUTCFullYear(y, mo - 1, d);
      if (day.getUTCDate() !== d) expect(parsed).toBeNaN();
      else expect(Math.abs(parsed - expected / 1000)).toBeLessThan(1e-4); // a few ulps of 2.5e11 s
    }), { numRuns: 2000 });
  });

  const file = (name: string, content: Uint8Array): InputFile => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return { path, relativePath: name, gzip: name.endsWith('.gz'), size: content.length };
  };

  for (const name of ['arbitrary.dlog', 'arbitrary.csv', 'arbitrary.tsv', 'arbitrary.dlog.gz', 'arbitrary.csv.gz']) {
    it(`readClass on a file named ${name}, then feature extraction`, async () => {
      const gz = name.endsWith('.gz');
      await fc.assert(fc.asyncProperty(anyBytes, fc.boolean(), fc.boolean(), async (bytes, strict, cut) => {
        let content = gz ? new Uint8Array(gzipSync(bytes)) : bytes;
        if (gz && cut) content = content.subarray(0, Math.max(1, content.length - 6)); // truncated gzip
        const input = file(name, content);
        await onlyInputErrors(async () => {
          // The arbitrary file among valid instances, through the collector and feature extraction.
          const collector = new FeatureCollector();
          const valid = (c: 'good' | 'bad', i: number): InputFile => file(`${c}-${i}.dlog`, Buffer.from(validInstance(i, c === 'bad')));
          await readClass([input, valid('good', 1)], 'good', collector, { strict });
          collector.finishClass();
          await readClass([valid('bad', 1), valid('bad', 2)], 'bad', collector, { strict });
          collector.finishClass();
          buildFeatureSet(collector, { weight: { mode: 'none' } });
        });
      }), { numRuns: 120 });
    });
  }

  it('the whole CLI: exit 0 or 2, never an internal error', async () => {
    const quiet = (): PassThrough => new PassThrough().resume();
    await fc.assert(fc.asyncProperty(fc.array(anyText, { minLength: 1, maxLength: 3 }), async (texts) => {
      // The good class: the arbitrary files plus two valid instances.
      const good = join(dir, 'cli-good');
      rmSync(good, { recursive: true, force: true });
      mkdirSync(good);
      [...texts, validInstance(1, false), validInstance(2, false)].forEach((t, i) => writeFileSync(join(good, `f${i}.dlog`), t));
      const bad = join(dir, 'cli-bad');
      rmSync(bad, { recursive: true, force: true });
      mkdirSync(bad);
      for (const i of [1, 2, 3]) writeFileSync(join(bad, `b${i}.dlog`), validInstance(i, true));
      const code = await main([good, bad, '--json', join(dir, 'cli.json')], { stdout: quiet(), stderr: quiet() });
      expect([0, 2]).toContain(code);
    }), { numRuns: 40 });
  });
});

describe('valid records with extreme numbers', () => {
  // Timestamps and values far beyond any real log (up to ±1e100, down to
  // 5e-324): every record is valid, so the run must succeed, never crash.
  const big = (max: number): fc.Arbitrary<string> => fc.oneof(
    fc.integer({ min: 0, max: 100 }).map(String),
    fc.constantFrom('0', '5e-324', '-5e-324', '1e-300', '1e15', '-1e15', `${max}`, `-${max}`),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -max, max }).map((x) => String(x)),
  );
  const instance = (max: number): fc.Arbitrary<string> => fc.array(fc.oneof(
    fc.tuple(big(max), fc.constantFrom(...EVENT_NAMES)).map(([t, n]) => `E\t${t}\t${n}`),
    fc.tuple(big(max), fc.constantFrom(...STATE_NAMES), big(max)).map(([t, n, v]) => `S\t${t}\t${n}\t${v}`),
  ), { minLength: 1, maxLength: 8 }).map((lines) => lines.join('\n'));

  const analyse = async (good: string[], bad: string[]): Promise<{ code: number; err: string }> => {
    const root = mkdtempSync(join(dir, 'extreme-'));
    for (const [c, texts] of [['good', good], ['bad', bad]] as const) {
      mkdirSync(join(root, c));
      texts.forEach((t, i) => writeFileSync(join(root, c, `i${i}.dlog`), t));
    }
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (d: Buffer) => { err += String(d); });
    const code = await main([join(root, 'good'), join(root, 'bad'), '--json', join(root, 'r.json'), '--dot', join(root, 'r.dot')],
      { stdout: new PassThrough().resume(), stderr });
    rmSync(root, { recursive: true, force: true });
    return { code, err };
  };

  it('up to ±1e100: the whole CLI succeeds', async () => {
    const cls = fc.array(instance(1e100), { minLength: 2, maxLength: 4 });
    await fc.assert(fc.asyncProperty(cls, cls, async (good, bad) => {
      expect(await analyse(good, bad)).toEqual({ code: 0, err: '' });
    }), { numRuns: 60 });
  });

  it('timestamps spanning more than the largest double: a user error naming the instance', async () => {
    expect(await analyse(['E\t-1e308\tStart\nE\t1e308\tEnd', 'E\t0\tStart'], ['E\t0\tStart', 'E\t1\tStart'])).toEqual({
      code: 2,
      err: "distalyze: good class, instance 'i0.dlog': its timestamps span from -1e+308 to 1e+308, more than the largest number\n  hint: timestamps are seconds (epoch or since start)\n",
    });
  });

  it('features stay finite where sums overflow: a mean and a median of values near 1.8e308', () => {
    // Times relative to the first record (a state at 0): Start at 1.2e308 and 1.6e308, q twice v.
    const texts = (v: string): string[] => [0, 1].map(() => `S\t0\tq\t${v}\nS\t1\tq\t${v}\nE\t1.2e308\tStart\nE\t1.6e308\tStart`);
    const fs = buildFeatureSet(collectTexts({ good: texts('1e308'), bad: texts('1.7e308') }), { weight: { mode: 'none' } }).features;
    const col = (kind: string, feature: string, name: string): number[] => {
      const t = fs.tables.find((x) => x.kind === kind && x.feature === feature)!;
      return Array.from(t.columns[t.variables.indexOf(name)]!);
    };
    expect(col('state', 'mean', 'q')).toEqual([1e308, 1e308, 1.7e308, 1.7e308]);
    for (const x of col('event', 'median.abs', 'Start')) expect(x / 1.4e308).toBeCloseTo(1, 12);
    expect(fs.referenceDuration).toBe(1.6e308);
  });

  // dependency-network/median.ts (not this files) averages the two
  // middle values as (a + b) / 2, which overflows to Infinity for values near
  // ±1.8e308; the tree learner then throws "target row … is not finite" (an
  // internal error, exit 3). Flips to failing when fixed: then make it `it`.
  it('near ±1.8e308 (DBL_MAX sentinels): the tree learner does not crash', async () => {
    expect(await analyse(['S\t0\tqueue\t0', 'S\t0\tqueue\t0'], ['E\t0\tStart\nE\t1e308\tStart', 'S\t0\tqueue\t0'])).toEqual({ code: 0, err: '' });
  });
});

// --- (b) record order within an instance -------------------------------------

describe('features do not depend on the order of records within an instance (distinct timestamps)', () => {
  const texts = (cls: { records: Rec[]; order: number[] }[], shuffled: boolean): string[] =>
    cls.map(({ records, order }) => (shuffled ? order.map((i) => records[i]!) : records).map((r) => r.line).join('\n'));

  it('one file per instance', () => {
    fc.assert(fc.property(classOf([2, 4], 1_763_600_000_000), classOf([2, 4], 1_763_700_000_000), (good, bad) => {
      const inOrder = collectTexts({ good: texts(good, false), bad: texts(bad, false) });
      const shuffled = collectTexts({ good: texts(good, true), bad: texts(bad, true) });
      const a = buildFeatureSet(inOrder, { weight: { mode: 'none' } });
      const b = buildFeatureSet(shuffled, { weight: { mode: 'none' } });
      expect(featureSnapshot(b.features)).toEqual(featureSnapshot(a.features));
      expect(inOrder.unorderedInstances).toBe(0);
    }), { numRuns: 150 });
  });

  it('instances named by I records, their records interleaved in one file', () => {
    // Each record is preceded by its instance's I record, so any interleaving is valid input.
    const oneFile = (cls: { records: Rec[]; order: number[] }[], interleave: number[] | null): string => {
      const tagged = cls.flatMap(({ records, order }, k) => (interleave === null ? records : order.map((i) => records[i]!)).map((r) => `I\tinst-${k}\n${r.line}`));
      return (interleave === null ? tagged : interleave.map((i) => tagged[i]!)).join('\n');
    };
    const arb = fc.tuple(classOf([2, 4], 1_763_600_000_000), classOf([2, 4], 1_763_700_000_000)).chain(([good, bad]) => {
      const n = (cls: typeof good): number => cls.reduce((s, c) => s + c.records.length, 0);
      return fc.tuple(fc.constant(good), fc.constant(bad), permutation(n(good)), permutation(n(bad)));
    });
    fc.assert(fc.property(arb, ([good, bad, pg, pb]) => {
      const a = buildFeatureSet(collectTexts({ good: [oneFile(good, null)], bad: [oneFile(bad, null)] }), { weight: { mode: 'none' } });
      const b = buildFeatureSet(collectTexts({ good: [oneFile(good, pg)], bad: [oneFile(bad, pb)] }), { weight: { mode: 'none' } });
      expect(featureSnapshot(b.features)).toEqual(featureSnapshot(a.features));
    }), { numRuns: 100 });
  });
});

// --- (c) determinism -----------------------------------------------------------

describe('the same input twice gives byte-identical reports', () => {
  it('JSON, TSV and DOT', async () => {
    await fc.assert(fc.asyncProperty(classOf([2, 5], 1_763_600_000_000), classOf([2, 5], 1_763_700_000_000), async (good, bad) => {
      const root = mkdtempSync(join(dir, 'same-'));
      for (const [c, cls] of [['good', good], ['bad', bad]] as const) {
        mkdirSync(join(root, c));
        cls.forEach(({ records, order }, i) => writeFileSync(join(root, c, `i${i}.dlog`), order.map((k) => records[k]!.line).join('\n')));
      }
      const once = async (): Promise<string[]> => {
        const out = ['json', 'tsv', 'dot'].map((ext) => join(root, `r.${ext}`));
        const r = await run(join(root, 'good'), join(root, 'bad'), '--json', out[0]!, '--tsv', out[1]!, '--dot', out[2]!);
        expect(r.code).toBe(0);
        return [r.stdout, ...out.map((p) => readFileSync(p, 'utf8'))];
      };
      const first = await once();
      const second = await once();
      expect(second).toEqual(first);
      rmSync(root, { recursive: true, force: true });
    }), { numRuns: 8 });
  });
});

// --- (d) parallel parsing -----------------------------------------------------

describe('--jobs 1 and --jobs 2 give identical JSON', () => {
  it('on generated sets with I records spread across files (built executable)', () => {
    // Requests req-0…req-(n−1); every record goes, with its I record, to a file chosen by the generator.
    const arb = fc.tuple(classOf([3, 6], 1_763_600_000_000), classOf([3, 6], 1_763_700_000_000)).chain(([good, bad]) => {
      const spread = (cls: typeof good) => fc.tuple(...cls.map((c) => fc.array(fc.integer({ min: 0, max: 3 }), { minLength: c.records.length, maxLength: c.records.length })));
      return fc.tuple(fc.constant(good), fc.constant(bad), spread(good), spread(bad));
    });
    fc.assert(fc.property(arb, ([good, bad, fg, fb]) => {
      const root = mkdtempSync(join(dir, 'jobs-'));
      for (const [c, cls, files] of [['good', good, fg], ['bad', bad, fb]] as const) {
        const texts: string[][] = [[], [], [], []];
        cls.forEach(({ records, order }, k) => order.forEach((i, j) => texts[files[k]![j]!]!.push(`I\treq-${k}\n${records[i]!.line}`)));
        const d = join(root, c);
        rmSync(d, { recursive: true, force: true });
        mkdirSync(d);
        texts.forEach((lines, f) => writeFileSync(join(d, `part-${f}.dlog`), `${lines.join('\n')}\n`));
      }
      const args = [join(root, 'good'), join(root, 'bad'), '--json', '-', '--quiet'];
      const one = runBinary([...args, '--jobs', '1']);
      const two = runBinary([...args, '--jobs', '2']);
      expect(one.stderr).toBe('');
      expect(one.code).toBe(0);
      expect(two.stderr).toBe('');
      expect(two.stdout).toBe(one.stdout);
      rmSync(root, { recursive: true, force: true });
    }), { numRuns: 4 });
  });
});

