/**
 * SPEC §2, Table 2.1 read plainly (src/features/event-features.ts,
 * state-features.ts) is the oracle of the collector's inlined copy
 * (FeatureColumns.summarize over held records, StreamedInstance for a run
 * summarized as it is read, the second pass over the states for q*.abs:
 * AbsoluteQuartilePass): on generated records of both classes — ties,
 * records out of time order, instances named by `I` records across files,
 * records by name and by number (the fast lane), log lines and spans
 * interleaved (each event's waits within its own source), files read by
 * collectors of their own and absorbed (the parallel reader's way) — every
 * feature of every instance is the kernel's number, to the bit (Object.is).
 */
import { describe, expect, it } from 'vitest';
import { FeatureCollector } from '../src/features/collector.js';
import { EVENT_FEATURES, occurrencesOf } from '../src/features/event-features.js';
import { buildFeatureSet } from '../src/features/index.js';
import { AbsoluteQuartilePass, QuartileSlots, quartileLayoutOf, referenceDurationOf } from '../src/features/quartile-pass.js';
import { STATE_FEATURES, valueAt } from '../src/features/state-features.js';
import { EVENT_FEATURE_TYPES, STATE_FEATURE_TYPES, type FeatureSet } from '../src/features/types.js';
import type { InputFile } from '../src/parse/files.js';
import type { ClassName } from '../src/parse/records.js';
import { median } from '../src/stats/median.js';
import { mulberry32 } from '../src/stats/prng.js';

/** One generated record: an event (value null) or a state, by name. */
interface Rec {
  readonly t: number;
  readonly name: string;
  readonly value: number | null;
}

/** A generated file: its own instance's records, or those of instances it names (an `I` record before each run). */
interface GenFile {
  readonly className: ClassName;
  readonly relativePath: string;
  readonly own: readonly Rec[];
  readonly named: readonly { readonly id: string; readonly records: readonly Rec[] }[];
  /** Records given by number through the fast lane (RecordIntake), else by name. */
  readonly byNumber: boolean;
}

const LOG_EVENTS = ['Open', 'Read', 'Write', 'Flush', 'Close'];
/** Events said to be spans' (RecordSink.eventFromSpans) in the mixed sets: their waits are measured among themselves. */
const SPAN_EVENTS = ['svc:get.start', 'svc:get.end'];
const EVENTS = [...LOG_EVENTS, ...SPAN_EVENTS];
const STATES = ['queue', 'heap', 'lock'];

/**
 * An instance's records: times rising by 0–4 ms steps (0: ties), a few moved up to 3 places later; values small
 * integers. `mixed`: span events among the log lines.
 */
function instanceRecords(random: () => number, t0: number, mixed: boolean): Rec[] {
  const n = 1 + Math.floor(random() * 40);
  const out: Rec[] = [];
  let t = t0;
  for (let i = 0; i < n; i++) {
    t += Math.floor(random() * 5) / 1000;
    const state = random() < 0.35;
    // Mixed: about 4 in 10 events a span's.
    const pool = state ? STATES : mixed && random() < 0.4 ? SPAN_EVENTS : LOG_EVENTS;
    // Some variables of the pool only (absent ones: count 0 and missing values).
    const name = pool[Math.floor(random() * random() * pool.length)] as string;
    out.push({ t, name, value: state ? Math.floor(random() * 6) - 2 : null });
  }
  for (let i = 0; i + 1 < n; i++) {
    if (random() < 0.1) {
      const j = Math.min(n - 1, i + 1 + Math.floor(random() * 3));
      const [moved] = out.splice(i, 1);
      out.splice(j, 0, moved as Rec);
    }
  }
  // A state that is never 0 here: no 0 and −0 meet (where the change points' look back is the collector's own rule).
  return out.map((r) => (r.value === 0 ? { ...r, value: 5 } : r));
}

function generate(seed: number, mixed = false): GenFile[] {
  const random = mulberry32(seed);
  const files: GenFile[] = [];
  for (const className of ['good', 'bad'] as const) {
    const slow = className === 'bad' ? 2 : 1;
    for (let f = 0; f < 12; f++) {
      const relativePath = `${className}-${f}.dlog`;
      const byNumber = random() < 0.5;
      if (f % 3 !== 2) {
        files.push({ className, relativePath, own: instanceRecords(random, 1000 + f * slow, mixed), named: [], byNumber });
        continue;
      }
      // Instances named by `I` records, some named again in a later file (their records go on there).
      const named = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({
        id: `req-${Math.floor(random() * 6)}`,
        records: instanceRecords(random, 2000 + f, mixed),
      }));
      files.push({ className, relativePath, own: [], named, byNumber });
    }
  }
  return files;
}

/** Each instance's records as the reading gives them to it, by class and id (a file's own: its relative path). */
function instancesOf(files: readonly GenFile[]): Map<string, { className: ClassName; records: Rec[] }> {
  const out = new Map<string, { className: ClassName; records: Rec[] }>();
  const add = (className: ClassName, id: string, records: readonly Rec[]): void => {
    const key = `${className}/${id}`;
    const entry = out.get(key) ?? { className, records: [] };
    entry.records.push(...records);
    out.set(key, entry);
  };
  for (const file of files) {
    if (file.own.length > 0) add(file.className, file.relativePath, file.own);
    for (const { id, records } of file.named) add(file.className, id, records);
  }
  return out;
}

/** The input file a generated file stands for: its ends its own instance's earliest and latest times. */
function inputFile(file: GenFile): InputFile {
  const times = file.own.map((r) => r.t);
  return {
    path: file.relativePath, relativePath: file.relativePath, gzip: false, size: 1,
    ...(times.length > 0 ? { ends: { first: Math.min(...times), last: Math.max(...times) } } : {}),
  };
}

/**
 * The files read into a collector. `reference` given: Dref known ahead, and
 * each file's own instance summarized as it is read (StreamedInstance);
 * else its records held, and q*.abs filled from the change points after.
 */
function collect(files: readonly GenFile[], reference: number | null): { collector: FeatureCollector; streamed: number } {
  const c = new FeatureCollector(true);
  if (reference !== null) c.useReferenceDuration(reference);
  c.streamedMinBytes = reference !== null ? 0 : Infinity;
  const sink = c.sink(() => undefined);
  const intake = sink.intake!;
  let streamed = 0;
  let className: ClassName = 'good';
  const said = new Set<string>();
  const give = (file: GenFile, records: readonly Rec[]): void => {
    for (const r of records) {
      if (SPAN_EVENTS.includes(r.name) && !said.has(r.name)) {
        said.add(r.name);
        sink.eventFromSpans?.(r.name);
      }
      if (!file.byNumber) {
        if (r.value === null) sink.event(r.t, r.name);
        else sink.state(r.t, r.name, r.value);
        continue;
      }
      const code = r.value === null ? intake.eventVariable(r.name) : -1 - intake.stateVariable(r.name);
      intake.records(Int32Array.of(code), Float64Array.of(r.t), Float64Array.of(r.value ?? 0), 1);
    }
  };
  for (const file of files) {
    if (file.className !== className) {
      c.finishClass();
      className = file.className;
    }
    const input = inputFile(file);
    sink.beginFile(input, file.className);
    give(file, file.own);
    for (const { id, records } of file.named) {
      sink.instance(id);
      give(file, records);
    }
    if (sink.endFile(input, file.className) === true) streamed++;
  }
  c.finishClass();
  if (reference === null) {
    const durations = Array.from(c.durations.data.subarray(0, c.ids.length));
    c.fillAbsoluteQuartiles(median(durations));
  }
  return { collector: c, streamed };
}

/**
 * The files read with no change point kept (keepSeries off: q*.abs missing),
 * then read a second time for q*.abs (AbsoluteQuartilePass), as read.ts does
 * above 1 GiB or with --two-pass.
 */
function collectTwoPasses(files: readonly GenFile[]): FeatureCollector {
  const c = new FeatureCollector(false);
  c.streamedMinBytes = Infinity;
  const sink = c.sink(() => undefined);
  const read = (s: { beginFile(f: InputFile, c: ClassName): void; endFile(f: InputFile, c: ClassName): unknown; instance(id: string): void; event(t: number, n: string): void; state(t: number, n: string, v: number): void; eventFromSpans?(n: string): void }, after: (c: ClassName) => void): void => {
    let className: ClassName = 'good';
    for (const file of files) {
      if (file.className !== className) {
        after(className);
        className = file.className;
      }
      const input = inputFile(file);
      s.beginFile(input, file.className);
      const give = (records: readonly Rec[]): void => {
        for (const r of records) {
          if (SPAN_EVENTS.includes(r.name)) s.eventFromSpans?.(r.name);
          if (r.value === null) s.event(r.t, r.name);
          else s.state(r.t, r.name, r.value);
        }
      };
      give(file.own);
      for (const { id, records } of file.named) {
        s.instance(id);
        give(records);
      }
      s.endFile(input, file.className);
    }
    after(className);
  };
  read(sink, () => c.finishClass());
  const pass = new AbsoluteQuartilePass(new QuartileSlots(quartileLayoutOf(c, referenceDurationOf(c))));
  read(pass, () => undefined);
  pass.finish(c);
  return c;
}

/**
 * Each file read by a collector of its own and handed on (exportFile), then
 * absorbed in file order by one collector, as the parallel reader does: its
 * own instance summarized where it was read, the held records (and which
 * events are spans') carried over.
 */
function collectAbsorbed(files: readonly GenFile[]): FeatureCollector {
  const c = new FeatureCollector(true);
  c.streamedMinBytes = Infinity;
  for (const file of files) {
    const w = new FeatureCollector(true);
    w.streamedMinBytes = Infinity;
    const sink = w.sink(() => undefined);
    const input = inputFile(file);
    sink.beginFile(input, file.className);
    const give = (records: readonly Rec[]): void => {
      for (const r of records) {
        if (SPAN_EVENTS.includes(r.name)) sink.eventFromSpans?.(r.name);
        if (r.value === null) sink.event(r.t, r.name);
        else sink.state(r.t, r.name, r.value);
      }
    };
    give(file.own);
    for (const { id, records } of file.named) {
      sink.instance(id);
      give(records);
    }
    sink.endFile(input, file.className);
    c.absorb(w.exportFile());
  }
  c.finishClass();
  c.fillAbsoluteQuartiles(median(Array.from(c.durations.data.subarray(0, c.ids.length))));
  return c;
}

/** Every feature of every instance as Table 2.1 gives it, by `class/id`, `kind/variable/feature`. */
function oracle(files: readonly GenFile[]): { referenceDuration: number; expected: Map<string, Map<string, number>> } {
  const instances = instancesOf(files);
  // The variables of the input (the log-only sets have no span events).
  const seen = new Set([...instances.values()].flatMap(({ records }) => records.map((r) => r.name)));
  const sorted = new Map([...instances].map(([key, { records }]) => [key, [...records].sort((a, b) => a.t - b.t)]));
  const durations = [...sorted.values()].map((records) => (records.at(-1) as Rec).t - (records[0] as Rec).t);
  // Dref: the median duration over all instances of both classes.
  const referenceDuration = median(durations);
  const expected = new Map<string, Map<string, number>>();
  for (const [key, records] of sorted) {
    const t0 = (records[0] as Rec).t;
    const duration = (records.at(-1) as Rec).t - t0;
    const values = new Map<string, number>();
    const events = records.filter((r) => r.value === null);
    const fromSpans = new Set(SPAN_EVENTS.map((name) => EVENTS.indexOf(name)));
    const occurrences = occurrencesOf(events.map((r) => r.t - t0), events.map((r) => EVENTS.indexOf(r.name)), fromSpans);
    for (const [e, name] of EVENTS.entries()) {
      if (!seen.has(name)) continue;
      const o = occurrences.get(e);
      for (const f of EVENT_FEATURE_TYPES) values.set(`event/${name}/${f}`, o === undefined ? (f === 'count' ? 0 : Number.NaN) : EVENT_FEATURES[f](o, duration));
    }
    for (const name of STATES) {
      const mine = records.filter((r) => r.name === name && r.value !== null);
      const series = { times: mine.map((r) => r.t - t0), values: mine.map((r) => r.value as number) };
      for (const f of STATE_FEATURE_TYPES) values.set(`state/${name}/${f}`, mine.length === 0 ? Number.NaN : STATE_FEATURES[f](series, duration, referenceDuration));
    }
    expected.set(key, values);
  }
  return { referenceDuration, expected };
}

/** The built feature set's values in the same shape, for the variables generated. */
function actual(features: FeatureSet): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  features.instances.forEach((instance, i) => {
    const values = new Map<string, number>();
    for (const table of features.tables) {
      table.variables.forEach((name, v) => {
        if (EVENTS.includes(name) || STATES.includes(name)) values.set(`${table.kind}/${name}/${table.feature}`, (table.columns[v] as Float64Array)[i] as number);
      });
    }
    out.set(`${instance.className}/${instance.id}`, values);
  });
  return out;
}

/** The first difference between two such maps (Object.is: −0, NaN), or null. */
function firstDifference(want: Map<string, Map<string, number>>, got: Map<string, Map<string, number>>): string | null {
  if (want.size !== got.size) return `${got.size} instances, expected ${want.size}`;
  for (const [key, values] of want) {
    const mine = got.get(key);
    if (mine === undefined) return `no instance ${key}`;
    for (const [feature, x] of values) {
      const y = mine.has(feature) ? mine.get(feature) : Number.NaN;
      if (!Object.is(x, y)) return `${key} ${feature}: ${y}, Table 2.1 gives ${x}`;
    }
  }
  return null;
}

describe('Table 2.1 (features/event-features.ts, state-features.ts) is the oracle of the collector', () => {
  it('the kernels on a hand-made instance, values worked out beside them', () => {
    // Events at 0 (A), 1 (B), 4 (A), 4 (C), 10 (A): D = 10.
    const o = occurrencesOf([0, 1, 4, 4, 10], [0, 1, 0, 2, 0]);
    const a = o.get(0)!;
    const values = Object.fromEntries(EVENT_FEATURE_TYPES.map((f) => [f, EVENT_FEATURES[f](a, 10)]));
    // A's times 0, 4, 10: median 4; waits before them none, 3 (4 − 1), 6 (10 − 4); after them 1, 0 (4 → 4), none.
    expect(values).toEqual({ 'first.abs': 0, 'median.abs': 4, 'last.abs': 10, 'first.rel': 0, 'median.rel': 0.4, 'last.rel': 1, count: 3, gap: 6, 'gap.after': 1, wait: 9 });
    expect(EVENT_FEATURES.gap(o.get(1)!, 10)).toBe(1);
    expect(EVENT_FEATURES['gap.after'](o.get(1)!, 10)).toBe(3);
    // An event at D = 0: its relative times are missing.
    expect(EVENT_FEATURES['first.rel'](occurrencesOf([0], [0]).get(0)!, 0)).toBeNaN();
    // A state logged 5 at 1, 7 at 3, 6 at 8; D = 8, Dref = 4.
    const s = { times: [1, 3, 8], values: [5, 7, 6] };
    const state = Object.fromEntries(STATE_FEATURE_TYPES.map((f) => [f, STATE_FEATURES[f](s, 8, 4)]));
    // The value at 1 (q1.abs, before the first time: the first value), 2, 3; at 2, 4, 6 (q*.rel).
    expect(state).toEqual({ min: 5, mean: 6, max: 7, final: 6, 'q1.abs': 5, 'half.abs': 5, 'q3.abs': 7, 'q1.rel': 5, 'half.rel': 7, 'q3.rel': 7 });
    expect(valueAt(s, 0)).toBe(5);
    expect(valueAt(s, 8)).toBe(6);
  });

  it('waits within one source: a log line\'s gaps end at log lines, a span\'s at span records', () => {
    // Log lines L (0) at 0 and 10, M (1) at 12; span records S (2) at 1 and 9, T (3) at 11: D = 12.
    const o = occurrencesOf([0, 1, 9, 10, 11, 12], [0, 2, 2, 0, 3, 1], new Set([2, 3]));
    const log = o.get(0)!;
    // L's times 0, 10: the waits before them none (the first log line) and 10 (10 − 0, the spans between not counted);
    // after them 10 (to L at 10) and 2 (to M at 12).
    expect(log.before).toEqual([Number.NaN, 10]);
    expect(log.after).toEqual([10, 2]);
    expect([EVENT_FEATURES.gap(log, 12), EVENT_FEATURES['gap.after'](log, 12), EVENT_FEATURES.wait(log, 12)]).toEqual([10, 10, 10]);
    // S at 1 and 9: before none and 8; after 8 (to S) and 2 (to T at 11); T waited 2 and closes the spans.
    expect(o.get(2)!.before).toEqual([Number.NaN, 8]);
    expect(o.get(2)!.after).toEqual([8, 2]);
    expect(o.get(3)!.after).toEqual([Number.NaN]);
    // Σ wait per source = that source's event span: logs 0 + 10 + 2 = 12 (0 to 12), spans 0 + 8 + 2 = 10 (1 to 11).
    const wait = (e: number): number => EVENT_FEATURES.wait(o.get(e)!, 12);
    expect(wait(0) + wait(1)).toBe(12);
    expect(wait(2) + wait(3)).toBe(10);
  });

  for (const seed of [1, 2, 3, 4, 5]) {
    it(`records held and summarized, runs summarized as they are read, q*.abs from a second pass: every feature Table 2.1's (seed ${seed})`, () => {
      const files = generate(seed);
      const { referenceDuration, expected } = oracle(files);
      const held = collect(files, null);
      expect(held.streamed).toBe(0);
      expect(firstDifference(expected, actual(buildFeatureSet(held.collector, { weight: { mode: 'none' } }).features))).toBeNull();
      const streamed = collect(files, referenceDuration);
      // Every file of its own instance was summarized as it was read (none read again).
      expect(streamed.streamed).toBe(files.filter((f) => f.own.length > 0).length);
      const built = buildFeatureSet(streamed.collector, { weight: { mode: 'none' } }).features;
      expect(built.referenceDuration).toBe(referenceDuration);
      expect(firstDifference(expected, actual(built))).toBeNull();
      // The second pass's q*.abs (and the rest from the first).
      expect(firstDifference(expected, actual(buildFeatureSet(collectTwoPasses(files), { weight: { mode: 'none' } }).features))).toBeNull();
    });
  }

  for (const seed of [6, 7, 8]) {
    it(`log lines and spans interleaved: every path, absorbed parts too, Table 2.1's with waits within one source (seed ${seed})`, () => {
      const files = generate(seed, true);
      // Span records interleave with log lines in most instances (else this would test nothing new).
      const interleaved = [...instancesOf(files).values()].filter(({ records }) => {
        const names = [...records].sort((a, b) => a.t - b.t).filter((r) => r.value === null).map((r) => SPAN_EVENTS.includes(r.name));
        return names.some((span, i) => i > 0 && span !== names[i - 1]);
      });
      expect(interleaved.length).toBeGreaterThan(instancesOf(files).size / 2);
      const { referenceDuration, expected } = oracle(files);
      const build = (c: FeatureCollector): FeatureSet => buildFeatureSet(c, { weight: { mode: 'none' } }).features;
      expect(firstDifference(expected, actual(build(collect(files, null).collector)))).toBeNull();
      const streamed = collect(files, referenceDuration);
      expect(streamed.streamed).toBe(files.filter((f) => f.own.length > 0).length);
      expect(firstDifference(expected, actual(build(streamed.collector)))).toBeNull();
      expect(firstDifference(expected, actual(build(collectTwoPasses(files))))).toBeNull();
      expect(firstDifference(expected, actual(build(collectAbsorbed(files))))).toBeNull();
    });
  }
});
