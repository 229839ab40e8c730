import { describe, it, expect } from 'vitest';
import { runTests } from '../src/ttest/index.js';
import { welchTest } from '../src/ttest/welch.js';
import { separationZ, signedZ } from '../src/stats/normal.js';
import type { FeatureSet, FeatureTable, Instance } from '../src/features/types.js';

/** 4 good instances, then 5 bad ones. */
function featureSet(tables: FeatureTable[], weights = new Float64Array(9).fill(1)): FeatureSet {
  const instances: Instance[] = Array.from({ length: 9 }, (_, i) => ({
    id: `i${i}`, className: i < 4 ? 'good' : 'bad', duration: 1, records: 1, kind: null,
  }));
  return {
    instances, nGood: 4, nBad: 5, weights,
    metric: { event: 'duration', state: null, eventIsDuration: true, stateIsDuration: false },
    tables, referenceDuration: 1,
  };
}

const col = (xs: number[]) => Float64Array.from(xs);

const tables: FeatureTable[] = [
  {
    kind: 'event', feature: 'first.abs', variables: ['duration', 'Read', 'Write'],
    columns: [
      col([1.0, 1.1, 0.9, 1.0, 3.0, 3.2, 2.9, 3.1, 3.0]), // strongly divergent
      col([5, 5, 5, 5, 6, 6, 6, 6, 6]), // perfectly separated
      col([2, NaN, NaN, NaN, 2, 3, 4, 5, 6]), // 1 good value against 5 bad ones: the prediction test
    ],
  },
  {
    kind: 'event', feature: 'count', variables: ['duration', 'Read', 'Write'],
    columns: [
      col([1, 1, 1, 1, 1, 1, 1, 1, 1]), // t = 0, p = 1
      col([3, 4, 3, 5, 4, 3, 5, 4, 4]), // no difference to speak of
      col([1, 2, 1, 2, 9, 8, 9, 7, 8]),
    ],
  },
  {
    kind: 'state', feature: 'mean', variables: ['queue'],
    columns: [col([10, 12, 11, 13, 10, 12, 11, 12, 13])],
  },
];

describe('runTests', () => {
  const fs = featureSet(tables);
  const summary = runTests(fs, { alpha: 0.05, correction: 'bonferroni' });

  it('tests every column in table then variable order, skipping untestable ones', () => {
    expect(summary.tests.map((t) => `${t.kind}/${t.feature}/${t.variable}/${t.method}`)).toEqual([
      'event/first.abs/duration/welch', 'event/first.abs/Read/welch', 'event/first.abs/Write/prediction',
      'event/count/duration/welch', 'event/count/Read/welch', 'event/count/Write/welch',
      'state/mean/queue/welch',
    ]);
    expect(summary.performed).toBe(7);
    // Occurrence of Read and Write: they occur in every instance, a table with one possible outcome.
    expect(summary.untestable).toBe(2);
    expect(summary.alpha).toBe(0.05);
    expect(summary.correction).toBe('bonferroni');
  });

  it('splits classes with classRange and passes weights through', () => {
    const first = summary.tests[0]!;
    const direct = welchTest(tables[0]!.columns[0]!.subarray(0, 4), tables[0]!.columns[0]!.subarray(4, 9))!;
    expect(first).toMatchObject({ ...direct, variable: 'duration', kind: 'event', feature: 'first.abs' });
    const weights = col([1, 2, 1, 1, 3, 1, 1, 1, 2]);
    const weighted = runTests(featureSet(tables, weights), { alpha: 0.05, correction: 'bonferroni' });
    expect(weighted.tests[0]!.nGood).toBe(5);
    expect(weighted.tests[0]!.nBad).toBe(8);
  });

  it('marks significance over m = performed tests, and separation', () => {
    const flags = Object.fromEntries(summary.tests.map((t) => [`${t.feature}/${t.variable}`, [t.significant, t.separated]]));
    expect(flags).toEqual({
      'first.abs/duration': [true, false],
      // 4 against 5 constant values: p = 2/C(9, 4) = 0.0159, not below 0.05/7.
      'first.abs/Read': [false, true],
      'first.abs/Write': [false, false],
      'count/duration': [false, false],
      'count/Read': [false, false],
      'count/Write': [true, false],
      'mean/queue': [false, false],
    });
    for (const t of summary.tests.filter((x) => x.significant && !x.separated)) expect(t.p).toBeLessThan(0.05 / 7);
  });

  it('fills maxFiniteAbsT per kind and ranks variables by Σ|z| (a separated feature: the z its sizes allow)', () => {
    const eventTs = summary.tests.filter((t) => t.kind === 'event' && Number.isFinite(t.t)).map((t) => Math.abs(t.t));
    expect(summary.maxFiniteAbsT.event).toBe(Math.max(...eventTs));
    expect(summary.maxFiniteAbsT.state).toBe(Math.abs(summary.tests[6]!.t));
    // z = sign·Φ⁻¹(1 − p/2), bounded for two-sample tests by the separation z of their sizes (4 against 5).
    for (const t of summary.tests.filter((x) => !x.separated)) {
      const z = signedZ(Math.sign(t.t), t.log10p);
      expect(t.z).toBeCloseTo(t.method === 'welch' ? Math.sign(z) * Math.min(Math.abs(z), separationZ(4, 5)) : z, 14);
    }
    const bound = separationZ(4, 5); // 4 good against 5 bad: p = 2/C(9, 4)
    // duration and Write (|t| large) reach the bound; ties by effect size, never by name (issue 52): duration's
    // |g| is the larger (checked below). Read (separated) is not significant.
    expect(summary.ranking.map((r) => [r.kind, r.variable, r.score])).toEqual([
      ['event', 'duration', bound],
      ['event', 'Write', bound],
    ]);
    const g = (v: string): number => Math.max(...summary.tests.filter((t) => t.variable === v && t.significant).map((t) => Math.abs(t.effectSize)));
    expect(g('duration')).toBeGreaterThan(g('Write'));
    expect(summary.tests[1]!.p).toBeCloseTo(2 / 126, 12);
  });

  it('counts identical tests once in the correction (one hypothesis asked twice)', () => {
    // Two variables with the very same values: the same test twice, one hypothesis.
    const twin: FeatureTable = {
      kind: 'state', feature: 'max', variables: ['a', 'b', 'c'],
      columns: [col([1, 2, 3, 4, 5, 6, 7, 8, 9]), col([1, 2, 3, 4, 5, 6, 7, 8, 9]), col([2, 1, 3, 5, 4, 6, 8, 7, 9])],
    };
    const r = runTests(featureSet([twin]), { alpha: 0.05, correction: 'bonferroni' });
    expect(r.performed).toBe(3);
    expect(r.hypotheses).toBe(2);
    expect(summary.hypotheses).toBeLessThanOrEqual(summary.performed);
    // a and b share p, so they are significant together or not at all, at α/2.
    expect(r.tests[0]!.significant).toBe(r.tests[0]!.p < 0.05 / 2);
    expect(r.tests[1]!.significant).toBe(r.tests[0]!.significant);
  });

  it('tests an array shared by several columns (a follower, the built-in duration) as each copy would be', () => {
    const d = col([1.0, 1.1, 0.9, 1.0, 3.0, 3.2, 2.9, 3.1, 3.0]);
    const a = col([1, 2, 1, 2, 9, 8, 9, 7, 8]);
    const b = col([4, 3, 5, 4, 3, 5, 4, 4, 6]);
    const shared: FeatureTable[] = [
      { kind: 'event', feature: 'first.abs', variables: ['duration', 'X', 'Y'], columns: [d, a, b] },
      { kind: 'event', feature: 'median.abs', variables: ['duration', 'X', 'Y'], columns: [d, b, a] },
      { kind: 'event', feature: 'last.abs', variables: ['duration', 'X', 'Y'], columns: [d, a, col([2, NaN, NaN, NaN, 2, 3, 4, 5, 6])] },
    ];
    const copies = shared.map((t) => ({ ...t, columns: t.columns.map((c) => c.slice()) }));
    const options = { alpha: 0.05, correction: 'bonferroni' } as const;
    const once = runTests(featureSet(shared), options);
    expect(once).toEqual(runTests(featureSet(copies), options));
    const t = (x: Float64Array): string => welchTest(x.subarray(0, 4), x.subarray(4))!.t.toFixed(3);
    expect(once.tests.map((r) => `${r.feature} ${r.variable} ${r.method} ${r.t.toFixed(3)}`)).toEqual([
      `first.abs duration welch ${t(d)}`,
      `first.abs X welch ${t(a)}`,
      `first.abs Y welch ${t(b)}`,
      `median.abs duration welch ${t(d)}`,
      `median.abs X welch ${t(b)}`,
      `median.abs Y welch ${t(a)}`,
      `last.abs duration welch ${t(d)}`,
      `last.abs X welch ${t(a)}`,
      expect.stringMatching(/^last\.abs Y prediction /),
    ]);
  });

  it('is pure and deterministic', () => {
    const copy = tables.map((t) => ({ ...t, columns: t.columns.map((c) => c.slice()) }));
    const again = runTests(featureSet(copy), { alpha: 0.05, correction: 'bonferroni' });
    expect(again).toEqual(summary);
    expect(copy.map((t) => t.columns.map((c) => [...c]))).toEqual(tables.map((t) => t.columns.map((c) => [...c])));
  });

  it('uses the chosen correction', () => {
    const none = runTests(fs, { alpha: 0.05, correction: 'none' });
    expect(none.tests.filter((t) => t.significant).length).toBeGreaterThanOrEqual(summary.tests.filter((t) => t.significant).length);
    const empty = runTests(featureSet([]), { alpha: 0.05, correction: 'holm' });
    expect(empty).toMatchObject({ tests: [], ranking: [], performed: 0, untestable: 0, maxFiniteAbsT: { event: 0, state: 0 } });
  });
});
