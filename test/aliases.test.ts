import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aliasesByTable, ALIAS_MIN_CORRELATION, metricAliases } from '../src/attention/aliases.js';
import { correlation } from '../src/stats/correlation.js';
import type { FeatureSet, FeatureTable } from '../src/features/types.js';

// metricAliases computes Pearson r over each class's contiguous rows without index arrays
// (a speed change); the reference here is SPEC §5's rule written with stats/correlation.ts's
// `correlation` over explicit index lists, as the function did before.
function referenceAliases(nGood: number, nBad: number, table: FeatureTable, metric: string): string[] {
  const p = table.variables.indexOf(metric);
  if (p < 0) return [];
  const ranges = [[0, nGood], [nGood, nGood + nBad]].map(([s, e]) => Array.from({ length: e! - s! }, (_, k) => s! + k));
  return table.variables.filter((_, v) => v !== p &&
    ranges.every((at) => Math.abs(correlation(table.columns[v]!, table.columns[p]!, at)) >= ALIAS_MIN_CORRELATION));
}

const value = fc.oneof(
  { weight: 8, arbitrary: fc.double({ min: -1e3, max: 1e3, noNaN: true }) },
  { weight: 1, arbitrary: fc.constant(Number.NaN) },
);

describe('aliases of P (SPEC §5)', () => {
  it('finds the same aliases as the rule over explicit index lists: exact, near-threshold, constant, missing', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }),
      fc.array(value, { minLength: 24, maxLength: 24 }),
      fc.array(value, { minLength: 24, maxLength: 24 }),
      fc.double({ min: 1e-6, max: 0.2, noNaN: true }),
      (nGood, nBad, pRaw, noise, eps) => {
        const n = nGood + nBad;
        const P = Float64Array.from(pRaw.slice(0, n));
        const columns = [
          P,
          P.map((x) => 3 * x - 7), // an exact alias (where P is present)
          P.map((x, i) => x + eps * (Number.isNaN(noise[i]!) ? 0 : noise[i]!)), // near the 0.999 line
          Float64Array.from(noise.slice(0, n)), // unrelated
          new Float64Array(n).fill(5), // constant: never an alias
          P.map((x, i) => (i % 3 === 0 ? Number.NaN : -x)), // an alias with its own missing rows
        ];
        const table: FeatureTable = { kind: 'event', feature: 'count', variables: ['P', 'a', 'b', 'c', 'd', 'e'], columns };
        const fs = { nGood, nBad } as FeatureSet;
        expect(metricAliases(fs, table, 'P')).toEqual(referenceAliases(nGood, nBad, table, 'P'));
      },
    ), { numRuns: 400, seed: 17 });
  });

  it('an exact linear alias in both classes is one; under 3 rows in a class it cannot be', () => {
    const P = Float64Array.from([1, 2, 4, 8, 3, 5, 9, 11]);
    const table: FeatureTable = { kind: 'event', feature: 'count', variables: ['P', 'finish', 'noise'], columns: [P, P.map((x) => 2 * x + 1), Float64Array.from([1, 0, 1, 0, 1, 0, 1, 0])] };
    expect(metricAliases({ nGood: 4, nBad: 4 } as FeatureSet, table, 'P')).toEqual(['finish']);
    expect(metricAliases({ nGood: 2, nBad: 6 } as FeatureSet, table, 'P')).toEqual([]);
  });

  it('of every table, each as found alone, where tables share arrays (followers, the built-in duration)', () => {
    const P = Float64Array.from([1, 2, 4, 8, 3, 5, 9, 11]);
    const Q = Float64Array.from([8, 1, 4, 2, 11, 3, 9, 5]);
    const twice = P.map((x) => 2 * x);
    const tables: FeatureTable[] = [
      { kind: 'event', feature: 'first.abs', variables: ['P', 'x'], columns: [P, twice] },
      { kind: 'event', feature: 'median.abs', variables: ['P', 'x'], columns: [Q, twice] }, // the same x, another P
      { kind: 'event', feature: 'last.abs', variables: ['P', 'y', 'x'], columns: [P, Q, twice] },
      { kind: 'state', feature: 'mean', variables: ['S', 'x'], columns: [twice, P] },
    ];
    const fs = { nGood: 4, nBad: 4, tables, metric: { event: 'P', state: 'S' } } as unknown as FeatureSet;
    const all = aliasesByTable(fs);
    expect(tables.map((t) => all.get(t))).toEqual([['x'], [], ['x'], ['x']]);
    expect(tables.map((t) => all.get(t))).toEqual(tables.map((t) => metricAliases(fs, t, t.kind === 'event' ? 'P' : 'S')));
  });

  it('a state that is P in one feature is P in all its features; an event only where it is (issue 52)', () => {
    const P = Float64Array.from([1, 2, 4, 8, 3, 5, 9, 11]);
    const Q = Float64Array.from([8, 1, 4, 2, 11, 3, 9, 5]);
    const tables: FeatureTable[] = [
      { kind: 'event', feature: 'first.abs', variables: ['P', 'finish'], columns: [P, P.map((x) => x + 0.5)] },
      { kind: 'event', feature: 'gap', variables: ['P', 'finish'], columns: [P, Q] },
      // a stopwatch: its final value is P, its mean is not
      { kind: 'state', feature: 'final', variables: ['S', 'elapsed', 'cpu'], columns: [P, P.map((x) => 1000 * x), Q] },
      { kind: 'state', feature: 'mean', variables: ['S', 'elapsed', 'cpu'], columns: [P, Q, Q] },
    ];
    const fs = { nGood: 4, nBad: 4, tables, metric: { event: 'P', state: 'S' } } as unknown as FeatureSet;
    const all = aliasesByTable(fs);
    expect(tables.map((t) => all.get(t))).toEqual([['finish'], [], ['elapsed'], ['elapsed']]);
    expect(metricAliases(fs, tables[3]!, 'S')).toEqual([]); // alone, the mean table finds none
  });
});
