/**
 * Followers (src/features/followers.ts): median and last of an event that
 * occurred once are its first; mean, max, final and q*.rel of a state logged
 * once are its min. Such columns are not written while they follow; the
 * FeatureSet takes the leader's column for them. The values must be those of
 * writing every column, whichever thread or part stopped following.
 */
import { describe, expect, it } from 'vitest';
import { FeatureCollector } from '../src/features/collector.js';
import { buildFeatureSet } from '../src/features/index.js';
import type { FeatureResult } from '../src/features/index.js';
import type { InputFile } from '../src/parse/files.js';

const file = (path: string): InputFile => ({ path, relativePath: path, gzip: false, size: 1 });

interface Shape {
  /** Instances whose Start occurs twice (median and last differ from first). */
  readonly eventTwice?: readonly number[];
  /** Instances whose queue is logged twice, with different values (mean, max, final differ from min). */
  readonly stateTwice?: readonly number[];
}

/** n named instances of one class in one file: Start, a queue state, End, each once but where `shape` says. */
function readClass(c: FeatureCollector, className: 'good' | 'bad', n: number, shape: Shape = {}): void {
  const eventTwice = new Set(shape.eventTwice);
  const stateTwice = new Set(shape.stateTwice);
  c.beginFile(file(`${className}.dlog`), className);
  for (let i = 0; i < n; i++) {
    const t = i * 10;
    c.instance(`req-${String(i).padStart(6, '0')}`);
    c.event(t, 'Start');
    if (eventTwice.has(i)) c.event(t + 0.5, 'Start');
    c.state(t + 0.25, 'queue', (i * 7) % 11);
    if (stateTwice.has(i)) c.state(t + 0.75, 'queue', 20 + (i % 3));
    c.event(t + 1 + (i % 5) * (className === 'bad' ? 0.4 : 0.1), 'End');
  }
  c.endFile(file(`${className}.dlog`));
}

/** Both classes read one after another into one collector: what every other way must equal. */
function sequential(good: number, bad: number, goodShape: Shape, badShape: Shape): FeatureResult {
  const c = new FeatureCollector(true);
  readClass(c, 'good', good, goodShape);
  c.finishClass();
  readClass(c, 'bad', bad, badShape);
  c.finishClass();
  c.fillAbsoluteQuartiles(1);
  return buildFeatureSet(c, { weight: { mode: 'none' } });
}

/** The bad class summarized by another collector, into shared columns or in parts with their values, then absorbed. */
function throughWorker(good: number, bad: number, goodShape: Shape, badShape: Shape, share: boolean, sent: ReturnType<FeatureCollector['exportFile']>[] = []): FeatureResult {
  const main = new FeatureCollector(true);
  readClass(main, 'good', good, goodShape);
  const worker = new FeatureCollector(true);
  readClass(worker, 'bad', bad, badShape);
  const parts: ReturnType<FeatureCollector['exportFile']>[] = [];
  if (share) {
    main.prepareClass();
    const shared = main.shareColumns(worker.pendingSlots(), worker.events.names, worker.states.names);
    worker.useSharedColumns(shared);
    parts.push(worker.exportSharedClass(shared, (part) => parts.push(part)));
    expect(parts.every((p) => p.sharedLengths !== undefined)).toBe(true);
  } else {
    parts.push(worker.exportWholeClass((part) => parts.push(part)));
  }
  sent.push(...parts);
  main.finishClass();
  for (const part of parts) main.absorb(part);
  main.finishClass();
  main.fillAbsoluteQuartiles(1);
  return buildFeatureSet(main, { weight: { mode: 'none' } });
}

/** Every value of every table that differs (Object.is: -0 is not 0, NaN is NaN), as "feature of variable, row". */
function differences(got: FeatureResult, want: FeatureResult): string[] {
  const tables = got.features.tables;
  expect(tables.map((t) => [t.kind, t.feature, t.variables])).toEqual(want.features.tables.map((t) => [t.kind, t.feature, t.variables]));
  return tables.flatMap((t, i) => t.columns.flatMap((col, v) => {
    const other = want.features.tables[i]!.columns[v]!;
    if (col.length !== other.length) return [`${t.feature} of ${t.variables[v]}: ${col.length} rows, not ${other.length}`];
    for (let r = 0; r < col.length; r++) if (!Object.is(col[r], other[r])) return [`${t.feature} of ${t.variables[v]}, row ${r}: ${col[r]}, not ${other[r]}`];
    return [];
  }));
}

const column = (result: FeatureResult, kind: 'event' | 'state', feature: string, variable: string): Float64Array => {
  const table = result.features.tables.find((t) => t.kind === kind && t.feature === feature)!;
  return table.columns[table.variables.indexOf(variable)]!;
};

describe('followers (median and last of an event once, mean, max and final of a state once)', () => {
  it('follow while every value is the same: the FeatureSet has one column for them; one instance that differs gives them their own', () => {
    const once = sequential(40, 40, {}, {});
    // Start and queue occur once everywhere: their followers are their leaders' columns (no memory of their own).
    for (const f of ['median.abs', 'last.abs']) expect(column(once, 'event', f, 'Start')).toBe(column(once, 'event', 'first.abs', 'Start'));
    for (const f of ['median.rel', 'last.rel']) expect(column(once, 'event', f, 'Start')).toBe(column(once, 'event', 'first.rel', 'Start'));
    for (const f of ['mean', 'max', 'final', 'q1.rel', 'half.rel', 'q3.rel']) expect(column(once, 'state', f, 'queue')).toBe(column(once, 'state', 'min', 'queue'));

    // Start twice in bad instance 30 (row 70), at 300 and 300.5 after its start at 300: median 0.25, last 0.5.
    const twice = sequential(40, 40, {}, { eventTwice: [30], stateTwice: [35] });
    expect(column(twice, 'event', 'median.abs', 'Start')).not.toBe(column(twice, 'event', 'first.abs', 'Start'));
    expect([column(twice, 'event', 'first.abs', 'Start')[70], column(twice, 'event', 'median.abs', 'Start')[70], column(twice, 'event', 'last.abs', 'Start')[70]]).toEqual([0, 0.25, 0.5]);
    // Every other row as before: the leader's values copied in up to where they stopped following.
    expect(column(twice, 'event', 'median.abs', 'Start').filter((_, r) => r !== 70)).toEqual(column(once, 'event', 'median.abs', 'Start').filter((_, r) => r !== 70));
    // queue in bad instance 35 (row 75, from 350 to 351): (35 × 7) mod 11 = 3 at 0.25, then 20 + 35 mod 3 = 22 at
    // 0.75: mean 12.5, max and final 22; 3 at a quarter and half of the instance, 22 at three quarters.
    expect(['min', 'mean', 'max', 'final', 'q1.rel', 'half.rel', 'q3.rel'].map((f) => column(twice, 'state', f, 'queue')[75])).toEqual([3, 12.5, 22, 22, 3, 3, 22]);
    expect(column(twice, 'state', 'final', 'queue').filter((_, r) => r !== 75)).toEqual(column(once, 'state', 'final', 'queue').filter((_, r) => r !== 75));
    // (End still occurs once everywhere: it follows on.)
    expect(column(twice, 'event', 'last.abs', 'End')).toBe(column(twice, 'event', 'first.abs', 'End'));
  });

  it('a state logged once as -0: its mean is 0 (the sum of -0 is 0), so its followers stop following there', () => {
    const c = new FeatureCollector(true);
    for (const [k, className, value] of [[1, 'good', 1], [2, 'good', -0], [3, 'bad', 2], [4, 'bad', 3]] as const) {
      c.beginFile(file(`run-${k}.dlog`), className);
      c.state(0, 'x', value);
      c.event(1, 'End');
      c.endFile(file(`run-${k}.dlog`));
    }
    c.finishClass();
    const result = buildFeatureSet(c, { weight: { mode: 'none' } });
    const row = result.features.instances.findIndex((i) => i.id === 'run-2.dlog');
    expect(['min', 'mean', 'max', 'final'].map((f) => Object.is(column(result, 'state', f, 'x')[row], -0))).toEqual([true, false, true, true]);
    expect(Object.is(column(result, 'state', 'mean', 'x')[row], 0)).toBe(true);
  });

  // [good's shape, bad's shape]: followers that follow in both threads, in one and not the other, in neither.
  const cases: [string, Shape, Shape][] = [
    ['following in both', {}, {}],
    ['stopping in the worker only', {}, { eventTwice: [50], stateTwice: [60] }],
    ['stopping in this thread only', { eventTwice: [10], stateTwice: [0] }, {}],
    ['stopping in both', { eventTwice: [10] }, { stateTwice: [90] }],
  ];
  for (const [name, goodShape, badShape] of cases) {
    it(`summarized by a worker, ${name}: the values of a sequential read, into shared columns and in parts`, () => {
      const want = sequential(100, 120, goodShape, badShape);
      expect(differences(throughWorker(100, 120, goodShape, badShape, true), want)).toEqual([]);
      expect(differences(throughWorker(100, 120, goodShape, badShape, false), want)).toEqual([]);
    });
  }

  it('in two parts (FLUSH_SLOTS = 65 536 instances), stopping in the first part or the second only: the values of a sequential read', () => {
    const bad = 70_000;
    for (const badShape of [{ eventTwice: [66_000], stateTwice: [69_999] }, { eventTwice: [10], stateTwice: [20] }]) {
      const want = sequential(50, bad, {}, badShape);
      for (const share of [true, false]) expect(differences(throughWorker(50, bad, {}, badShape, share), want)).toEqual([]);
    }
    // Each part follows anew: Start's median.abs (the worker's column 1) written in the first part only.
    const parts: ReturnType<FeatureCollector['exportFile']>[] = [];
    throughWorker(50, bad, {}, { eventTwice: [10] }, true, parts);
    expect(parts.map((p) => p.sharedLengths?.[1])).toEqual([65_536, 0]);
  });
});
