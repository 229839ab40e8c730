import { describe, expect, it } from 'vitest';
import { column, dlog, featuresOf } from './helpers/collect.js';

// Four hand-made instances; durations 8 (A), 4 (B) | 6 (C), 10 (D), so Dref = median(4, 6, 8, 10) = 7.
const A = dlog(
  'E 10 Start', 'S 10 q 1', 'E 11 X', 'S 13 q 5', 'E 14 X', 'E 18 End',
);
const B = dlog('E 100 Start', 'S 100 q 2', 'E 104 End');
const C = dlog('E 0 Start', 'S 0 q 3', 'E 1 X', 'E 6 End');
const D = dlog('E 50 Start', 'S 50 q 4', 'S 55 q 8', 'E 60 End');

describe('event features (SPEC §2)', () => {
  const { features: fs } = featuresOf({ good: [A, B], bad: [C, D] });
  // Instances are ordered good then bad, each by id: good-0 (A), good-1 (B), bad-0 (C), bad-1 (D).

  it('orders instances good first, by id, with durations', () => {
    expect(fs.instances.map((i) => [i.id, i.className, i.duration])).toEqual([
      ['good-0.dlog', 'good', 8], ['good-1.dlog', 'good', 4], ['bad-0.dlog', 'bad', 6], ['bad-1.dlog', 'bad', 10],
    ]);
    expect(fs.referenceDuration).toBe(7);
  });

  it('computes first/median/last times, absolute and relative to D', () => {
    // A: X at t' = 1 and 4 (D = 8): median of two = 2.5.
    expect(column(fs, 'event', 'first.abs', 'X')).toEqual([1, NaN, 1, NaN]);
    expect(column(fs, 'event', 'median.abs', 'X')).toEqual([2.5, NaN, 1, NaN]);
    expect(column(fs, 'event', 'last.abs', 'X')).toEqual([4, NaN, 1, NaN]);
    expect(column(fs, 'event', 'first.rel', 'X')).toEqual([1 / 8, NaN, 1 / 6, NaN]);
    expect(column(fs, 'event', 'median.rel', 'X')).toEqual([2.5 / 8, NaN, 1 / 6, NaN]);
    expect(column(fs, 'event', 'last.rel', 'End')).toEqual([1, 1, 1, 1]);
  });

  it('counts occurrences, 0 where the event is absent', () => {
    expect(column(fs, 'event', 'count', 'X')).toEqual([2, 0, 1, 0]);
  });

  it('gap: the longest wait before an occurrence since the previous event of any name', () => {
    // A: X at 1 (after Start at 0) and 4 (after X at 1) → 3; End at 8 after X at 4 → 4.
    expect(column(fs, 'event', 'gap', 'X')).toEqual([3, NaN, 1, NaN]);
    expect(column(fs, 'event', 'gap', 'End')).toEqual([4, 4, 5, 10]);
    // The event that opens an instance has no gap.
    expect(column(fs, 'event', 'gap', 'Start')).toEqual([NaN, NaN, NaN, NaN]);
  });

  it('gap.after: the longest wait after an occurrence until the next event of any name', () => {
    // A: Start 0, X 1, X 4, End 8 → Start 1, X max(3, 4) = 4; B: Start 0, End 4; C: Start 0, X 1, End 6 → X 5.
    expect(column(fs, 'event', 'gap.after', 'Start')).toEqual([1, 4, 1, 10]);
    expect(column(fs, 'event', 'gap.after', 'X')).toEqual([4, NaN, 5, NaN]);
    // The event that closes an instance has no gap.after.
    expect(column(fs, 'event', 'gap.after', 'End')).toEqual([NaN, NaN, NaN, NaN]);
  });

  it('wait: the total wait before the occurrences, 0 for the opener; the waits sum to the event span', () => {
    // A: X waits 1 + 3 = 4, End 4, Start 0 → 0 + 4 + 4 = 8 = D.
    expect(column(fs, 'event', 'wait', 'X')).toEqual([4, NaN, 1, NaN]);
    expect(column(fs, 'event', 'wait', 'End')).toEqual([4, 4, 5, 10]);
    expect(column(fs, 'event', 'wait', 'Start')).toEqual([0, 0, 0, 0]);
  });

  it('adds the built-in duration as P, equal to D in every feature type', () => {
    expect(fs.metric).toEqual({ event: 'duration', state: 'duration', eventIsDuration: true, stateIsDuration: true });
    for (const f of ['first.abs', 'count', 'gap', 'last.rel'] as const) expect(column(fs, 'event', f, 'duration')).toEqual([8, 4, 6, 10]);
    for (const f of ['min', 'q3.abs', 'half.rel'] as const) expect(column(fs, 'state', f, 'duration')).toEqual([8, 4, 6, 10]);
    // One array in every table (columns are read-only: FeatureTable), not a copy each (8 MB each at a million instances).
    const durationColumns = new Set(fs.tables.map((t) => t.columns[t.variables.indexOf('duration')]));
    expect([fs.tables.length, durationColumns.size]).toEqual([20, 1]);
  });
});

describe('state features (SPEC §2)', () => {
  const { features: fs } = featuresOf({ good: [A, B], bad: [C, D] });

  it('min, mean, max, final over the logged values', () => {
    expect(column(fs, 'state', 'min', 'q')).toEqual([1, 2, 3, 4]);
    expect(column(fs, 'state', 'mean', 'q')).toEqual([3, 2, 3, 6]);
    expect(column(fs, 'state', 'max', 'q')).toEqual([5, 2, 3, 8]);
    expect(column(fs, 'state', 'final', 'q')).toEqual([5, 2, 3, 8]);
  });

  it('q.rel: the value at q × D on the instance clock', () => {
    // A (D = 8): q = 1 until t' = 3, then 5. At 2 → 1, at 4 → 5, at 6 → 5.
    // D (D = 10): 4 until t' = 5, then 8. At 2.5 → 4, at 5 → 8 (at or before), at 7.5 → 8.
    expect(column(fs, 'state', 'q1.rel', 'q')).toEqual([1, 2, 3, 4]);
    expect(column(fs, 'state', 'half.rel', 'q')).toEqual([5, 2, 3, 8]);
    expect(column(fs, 'state', 'q3.rel', 'q')).toEqual([5, 2, 3, 8]);
  });

  it('q.abs: the value at q × Dref (= 7) on one common clock', () => {
    // A: at 1.75 → 1, 3.5 → 5. D: at 1.75 → 4, 3.5 → 4, 5.25 → 8.
    expect(column(fs, 'state', 'q1.abs', 'q')).toEqual([1, 2, 3, 4]);
    expect(column(fs, 'state', 'half.abs', 'q')).toEqual([5, 2, 3, 4]);
    expect(column(fs, 'state', 'q3.abs', 'q')).toEqual([5, 2, 3, 8]);
  });

  it('takes the first value for times before the first logged one', () => {
    const late = dlog('E 0 Start', 'S 6 q 9', 'S 7 q 1', 'E 8 End');
    const { features } = featuresOf({ good: [late, late], bad: [late, late] });
    expect(column(features, 'state', 'q1.rel', 'q')).toEqual([9, 9, 9, 9]);
    expect(column(features, 'state', 'q3.rel', 'q')).toEqual([9, 9, 9, 9]); // 6 ≤ 6
  });
});

describe('record order and instances', () => {
  it('sorts an instance whose timestamps go backwards, and says so', () => {
    const shuffled = dlog('E 14 X', 'E 18 End', 'S 13 q 5', 'E 10 Start', 'E 11 X', 'S 10 q 1');
    const ordered = featuresOf({ good: [A, B], bad: [C, D] }).features;
    const result = featuresOf({ good: [shuffled, B], bad: [C, D] });
    for (const t of ordered.tables) {
      const other = result.features.tables.find((u) => u.kind === t.kind && u.feature === t.feature)!;
      expect(other.columns.map((c) => Array.from(c))).toEqual(t.columns.map((c) => Array.from(c)));
    }
    expect(result.warnings).toContain('1 instance(s) had timestamps going backwards; their records were sorted by time');
  });

  it('sorts records with equal timestamps stably: input order decides among them', () => {
    // In time order: E 0 Start, S 3 q 7, S 5 q 1, S 5 q 2 (after q 1: input order), E 9 End; D = 9.
    const tied = dlog('S 5 q 1', 'S 3 q 7', 'S 5 q 2', 'E 0 Start', 'E 9 End');
    const { features: fs } = featuresOf({ good: [tied, B], bad: [C, D] });
    expect(column(fs, 'state', 'final', 'q')[0]).toBe(2);
    expect(column(fs, 'state', 'q3.rel', 'q')[0]).toBe(2); // at 6.75: the last value at or before, q 2
    expect(column(fs, 'state', 'q1.rel', 'q')[0]).toBe(7); // at 2.25: before the first logged value, the first
    expect(column(fs, 'state', 'mean', 'q')[0]).toBeCloseTo(10 / 3, 12);
  });

  it('an instance in many out-of-order runs has the features of the same records in order', () => {
    // 60 events X0..X5 at t = 0..59, written in reversed blocks of 7 (many runs for the merge sort), plus ties.
    const inOrder: string[] = [];
    for (let t = 0; t < 60; t++) inOrder.push(`E ${t} X${t % 6}`, `S ${t} q ${t % 4}`);
    const blocks: string[] = [];
    for (let b = 0; b < inOrder.length; b += 14) blocks.unshift(...inOrder.slice(b, b + 14));
    const want = featuresOf({ good: [dlog(...inOrder), B], bad: [C, D] }).features;
    const got = featuresOf({ good: [dlog(...blocks), B], bad: [C, D] }).features;
    for (const t of want.tables) {
      const other = got.tables.find((u) => u.kind === t.kind && u.feature === t.feature)!;
      expect(other.columns.map((c) => Array.from(c))).toEqual(t.columns.map((c) => Array.from(c)));
    }
  });

  it('I records switch instances, and one instance may span files', () => {
    const part1 = dlog('I r1', 'E 0 Start', 'I r2', 'E 5 Start', 'I r1', 'E 1 X');
    const part2 = dlog('I r2', 'E 9 End', 'I r1', 'E 3 End');
    const { features: fs } = featuresOf({ good: [part1, part2], bad: [C, D] });
    expect(fs.instances.slice(0, 2).map((i) => [i.id, i.duration, i.records])).toEqual([['r1', 3, 3], ['r2', 4, 2]]);
  });

  it('keeps an id named in both classes as two instances, and says so', () => {
    const r = featuresOf({ good: [dlog('I r1', 'E 0 Start', 'E 1 End'), dlog('I r2', 'E 0 Start', 'E 2 End')], bad: [dlog('I r1', 'E 0 Start', 'E 5 End'), C] });
    expect(r.features.instances.map((i) => `${i.className}:${i.id}`)).toEqual(['good:r1', 'good:r2', 'bad:bad-1.dlog', 'bad:r1']);
    expect(r.warnings).toContain("1 instance id(s) occur in both classes (e.g. 'r1'); each class keeps its own instance");
  });

  it('finds the ids named in both classes whether they come in ascending order or not', () => {
    // Ascending ids take a path without a Map (merged against the other class's); any other order, a Set.
    const named = (...ids: string[]) => dlog(...ids.flatMap((id, k) => [`I ${id}`, `E ${k} Start`, `I ${id}`, `E ${k + 1} End`]));
    const shared = (good: string[], bad: string[]) => {
      const r = featuresOf({ good: [named(...good)], bad: [named(...bad)] });
      return [r.features.instances.map((i) => `${i.className}:${i.id}`).join(' '), r.warnings.find((w) => w.includes('both classes'))];
    };
    const say = (n: number, id: string) => `${n} instance id(s) occur in both classes (e.g. '${id}'); each class keeps its own instance`;
    expect(shared(['a', 'c', 'e', 'g'], ['c', 'd', 'g'])).toEqual(['good:a good:c good:e good:g bad:c bad:d bad:g', say(2, 'c')]);
    expect(shared(['a', 'c', 'e', 'g'], ['g', 'd', 'c'])).toEqual(['good:a good:c good:e good:g bad:c bad:d bad:g', say(2, 'g')]);
    expect(shared(['g', 'e', 'c', 'a'], ['c', 'd', 'g'])).toEqual(['good:a good:c good:e good:g bad:c bad:d bad:g', say(2, 'c')]);
    expect(shared(['a', 'b'], ['c', 'd'])[1]).toBeUndefined();
    // An id named again later (not right after itself) is the same instance.
    const again = featuresOf({ good: [dlog('I b', 'E 0 Start', 'I c', 'E 0 Start', 'I b', 'E 4 End', 'I a', 'E 1 Start', 'E 2 End', 'I c', 'E 3 End')], bad: [C, D] });
    expect(again.features.instances.slice(0, 3).map((i) => [i.id, i.duration, i.records])).toEqual([['a', 1, 2], ['b', 4, 2], ['c', 3, 2]]);
  });

  it('reports variables seen in one class only, and tests their count', () => {
    const withY = dlog('E 0 Start', 'E 1 Y', 'E 2 End');
    const { features: fs, warnings } = featuresOf({ good: [A, B], bad: [withY, withY] });
    expect(column(fs, 'event', 'count', 'Y')).toEqual([0, 0, 1, 1]);
    expect(warnings).toContain("1 event variable(s) occur only in the bad class: 'Y' (their count is tested: 0 in the other class)");
  });
});

describe('metric and input errors', () => {
  it('uses a named metric instead of duration', () => {
    const { features: fs } = featuresOf({ good: [A, B], bad: [C, D] }, { metric: 'End' });
    expect(fs.metric).toEqual({ event: 'End', state: 'duration', eventIsDuration: false, stateIsDuration: true });
    expect(fs.tables.find((t) => t.kind === 'event')!.variables).not.toContain('duration');
  });

  it('rejects a metric that never occurs, naming the option', () => {
    expect(() => featuresOf({ good: [A, B], bad: [C, D] }, { metric: 'Finish' }))
      .toThrow('--metric Finish: no event or state variable of that name occurs in any instance');
  });

  it('rejects a metric present in one class only', () => {
    expect(() => featuresOf({ good: [A, B], bad: [D, D] }, { eventMetric: 'X' }))
      .toThrow('metric X (event) occurs in no instance of the bad class');
  });

  it('needs at least two instances per class', () => {
    expect(() => featuresOf({ good: [A], bad: [C, D] })).toThrow('good class: only 1 instance, and the bad class 2; one instance is compared with a class of at least 3, or give each class 2');
  });
});

describe('heavy tail and weights (SPEC §2)', () => {
  const run = (d: number) => dlog('E 0 Start', `E ${d} End`);
  // 200 instances of duration 1, and 5 of duration 50: 2.4% outside mean ± 3σ > 1.1%.
  const normal = Array.from({ length: 100 }, () => run(1));

  it('detects a heavy tail', () => {
    const r = featuresOf({ good: normal, bad: [...normal, ...Array.from({ length: 5 }, () => run(50))] });
    expect(r.heavyTail?.detected).toBe(true);
    expect(r.heavyTail?.fraction).toBeCloseTo(5 / 205, 12);
  });

  it('weights exp:HALF as ⌊2^(P/HALF)⌋, at least 1', () => {
    const r = featuresOf({ good: [run(0.1), run(1)], bad: [run(3), run(3.5)] }, { weight: { mode: 'exp', half: 1 } });
    expect(Array.from(r.features.weights)).toEqual([1, 2, 8, 11]);
    expect(r.weighting).toEqual({ mode: 'exp', half: 1, applied: true });
  });

  it('auto weights only when a tail is detected', () => {
    const r = featuresOf({ good: [run(1), run(2)], bad: [run(3), run(4)] }, { weight: { mode: 'auto' } });
    expect(r.weighting.applied).toBe(false);
    expect(Array.from(r.features.weights)).toEqual([1, 1, 1, 1]);
  });
});

describe('instance kinds (SPEC §2)', () => {
  it('takes the kind of an I record; the first kind given sticks', () => {
    const { features: fs } = featuresOf({
      good: [dlog('I r1 search', 'E 0 a', 'E 1 b', 'I r2 book', 'E 0 c', 'I r1 other', 'E 2 b')],
      bad: [dlog('I r3 search', 'E 0 a', 'I r4', 'E 0 c')],
    });
    expect(fs.instances.map((i) => [i.id, i.kind])).toEqual([['r1', 'search'], ['r2', 'book'], ['r3', 'search'], ['r4', null]]);
  });

  it('without any kind, an I-named instance takes the name of its first event in time', () => {
    const { features: fs } = featuresOf({
      good: [dlog('I r1', 'E 5 later', 'E 1 entry', 'I r2', 'E 0 other')],
      bad: [dlog('I r3', 'E 0 entry', 'I r4', 'E 0 other')],
    });
    expect(fs.instances.map((i) => [i.id, i.kind])).toEqual([['r1', 'entry'], ['r2', 'other'], ['r3', 'entry'], ['r4', 'other']]);
  });

  it('whole-file instances have no kind', () => {
    const { features: fs } = featuresOf({ good: [A, B], bad: [C, D] });
    expect(fs.instances.map((i) => i.kind)).toEqual([null, null, null, null]);
  });
});
