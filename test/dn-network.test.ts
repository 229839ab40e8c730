import { describe, expect, it } from 'vitest';
import { happensBefore, learnDependencyNetwork, selectRows } from '../src/dependency-network/index.js';
import type { DependencyNetwork } from '../src/dependency-network/types.js';
import type { FeatureTable } from '../src/features/types.js';
import { featureSet, normalStream } from './dn-fixtures.js';

const options = { splitAlpha: 0.05, sample: 100_000, seed: 1 };
const edgesInto = (dn: DependencyNetwork, child: string): Record<string, number> =>
  Object.fromEntries(dn.edges.filter((e) => dn.variables[e.child] === child).map((e) => [dn.variables[e.parent], e.weight]));
const named = (dn: DependencyNetwork): string[] => dn.edges.map((e) => `${dn.variables[e.parent]}->${dn.variables[e.child]}:${e.weight.toFixed(4)}`);

// 12 bad instances. A = 10·B + 3·D·(1 − B): A's tree splits on B at the root (12 of 12 rows, weight 1),
// then on D in the B = 0 half (6 of 12 rows, weight 0.5); the B = 1 half is constant.
const B = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1];
const D = [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0];
const A = B.map((b, i) => 10 * b + 3 * D[i] * (1 - b));
const zeros = (n: number): number[] => Array<number>(n).fill(0);
const handTable = { kind: 'state' as const, feature: 'mean' as const, columns: { A: { good: zeros(3), bad: A }, B: { good: zeros(3), bad: B }, D: { good: zeros(3), bad: D } } };

describe('learnDependencyNetwork', () => {
  it('weighs an edge by the largest share of the class at which it is split on', () => {
    const fs = featureSet([handTable], { state: 'A' });
    const dn = learnDependencyNetwork(fs, fs.tables[0], 'bad', options);
    expect(dn).toMatchObject({ kind: 'state', feature: 'mean', className: 'bad', variables: ['A', 'B', 'D'], instances: 12, weight: 12, minSplit: 4 });
    expect(edgesInto(dn, 'A')).toEqual({ B: 1, D: 0.5 });
    // A larger m stops the tree before the 6-row node: only the stronger edge remains.
    const strict = learnDependencyNetwork(fs, fs.tables[0], 'bad', { ...options, minSplit: 7 });
    expect(edgesInto(strict, 'A')).toEqual({ B: 1 });
    // Every child's edges come sorted by child, then parent.
    const order = dn.edges.map((e) => [e.child, e.parent]);
    expect(order).toEqual([...order].sort((x, y) => x[0] - y[0] || x[1] - y[1]));
  });

  it("records each edge's rank statistic and adjusted p (scipy), and reports progress", () => {
    // scipy: A's root: c = 11·spearmanr(A, B).statistic² = 9.777777777777777, k = 2 non-constant
    // predictors: p = 1 − (1 − chi2.sf(c, 1))² = 0.003529553351664383. The 6-row node (B = 0):
    // only D varies (k = 1), c = 5·spearmanr(A[:6], D[:6]).statistic² = 5.0, p = chi2.sf(5, 1) = 0.025347318677468325.
    const fs = featureSet([handTable], { state: 'A' });
    const calls: [number, number, string][] = [];
    const dn = learnDependencyNetwork(fs, fs.tables[0], 'bad', { ...options, onProgress: (done, total, network) => calls.push([done, total, network]) });
    const into = (child: string, parent: string) => dn.edges.find((e) => dn.variables[e.child] === child && dn.variables[e.parent] === parent)!;
    expect(into('A', 'B').statistic).toBeCloseTo(9.777777777777777, 10);
    expect(into('A', 'B').p).toBeCloseTo(0.003529553351664383, 12);
    expect(into('A', 'D').statistic).toBeCloseTo(5, 10);
    expect(into('A', 'D').p).toBeCloseTo(0.025347318677468325, 12);
    expect(calls).toEqual([[0, 3, 'state mean'], [3, 3, 'state mean']]);
  });

  it('a table with the same columns as an earlier one gets its edges (shared work), a different one its own', () => {
    // 1 200 rows (work is shared from 1 024 rows on): A = 10·B + 3·D·(1 − B) + noise, B and D
    // the hand table's pattern repeated. Tables 0 and 1 hold equal values; table 2's D is
    // noise, which changes A's tree. Each must equal the network learned on its own feature set.
    const noise = normalStream(11);
    const rep = (xs: readonly number[]): number[] => Array.from({ length: 1200 }, (_, i) => xs[i % xs.length] as number);
    const b = rep(B);
    const d = rep(D);
    const a = b.map((x, i) => 10 * x + 3 * (d[i] as number) * (1 - x) + 0.1 * noise());
    const col = (bad: number[]) => ({ good: zeros(3), bad });
    const base = { kind: 'state' as const, feature: 'mean' as const, columns: { A: col(a), B: col(b), D: col(d) } };
    const same = { ...base, feature: 'max' as const };
    const other = { ...base, feature: 'min' as const, columns: { ...base.columns, D: col(d.map(() => noise())) } };
    const tables = [base, same, other];
    const fs = featureSet(tables, { state: 'A' });
    const alone = (i: number): DependencyNetwork => {
      const own = featureSet([tables[i]!], { state: 'A' });
      return learnDependencyNetwork(own, own.tables[0]!, 'bad', options);
    };
    const together = fs.tables.map((t) => learnDependencyNetwork(fs, t, 'bad', options));
    together.forEach((dn, i) => expect(dn).toEqual(alone(i)));
    expect(together[0]!.instances).toBe(1200);
    expect(together[1]!.edges).toEqual(together[0]!.edges);
    expect(together[2]!.edges).not.toEqual(together[0]!.edges);
  });

  it('replication weights give the same network as replicated instances', () => {
    const w = [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3];
    const noise = normalStream(5);
    const C = B.map(() => Math.round(noise() * 3));
    const cols = { ...handTable.columns, C: { good: zeros(3), bad: C } };
    const weighted = featureSet([{ ...handTable, columns: cols }], { state: 'A' }, { good: [1, 1, 1], bad: w });
    const rep = (xs: number[]): number[] => xs.flatMap((x, i) => Array<number>(w[i]).fill(x));
    const replicated = featureSet(
      [{ ...handTable, columns: Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, { good: v.good, bad: rep(v.bad) }])) }],
      { state: 'A' },
    );
    const a = learnDependencyNetwork(weighted, weighted.tables[0], 'bad', options);
    const b = learnDependencyNetwork(replicated, replicated.tables[0], 'bad', options);
    expect(a.weight).toBe(24);
    expect(a.minSplit).toBe(8);
    expect(named(a)).toEqual(named(b));
    expect(a.edges.length).toBeGreaterThan(0);
  });

  it('drops variables missing in the whole class and imputes the class median elsewhere', () => {
    const fs = featureSet(
      [{
        kind: 'state', feature: 'max',
        columns: {
          P: { good: [1, 2, 3], bad: [0, 0, 0, 0, 10, 10, 10, 10] },
          cause: { good: [1, 2, 3], bad: [1, NaN, 1, 1, 5, 5, NaN, 5] },
          goodOnly: { good: [1, 2, 3], bad: [NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN] },
        },
      }],
      { state: 'P' },
    );
    const dn = learnDependencyNetwork(fs, fs.tables[0], 'bad', options);
    expect(dn.variables).toEqual(['P', 'cause']);
    // The median of cause in bad is 3 (of 1 1 1 5 5 5): the two missing values become 3, and P's
    // tree still splits on cause at the root (cause ≤ 3 holds P = 0 0 0 0 10, the rest P = 10).
    expect(edgesInto(dn, 'P')).toEqual({ cause: 1 });
    const good = learnDependencyNetwork(fs, fs.tables[0], 'good', options);
    expect(good.variables).toEqual(['P', 'cause', 'goodOnly']);
  });

  it('learns nothing from an empty class', () => {
    const fs = featureSet([{ kind: 'state', feature: 'mean', columns: { P: { good: [1, 2, 3], bad: [] }, x: { good: [1, 2, 3], bad: [] } } }], { state: 'P' });
    expect(learnDependencyNetwork(fs, fs.tables[0], 'bad', options)).toMatchObject({ variables: [], edges: [], instances: 0, weight: 0 });
  });

  it('learns from both classes with className both', () => {
    const fs = featureSet([handTable], { state: 'A' });
    const dn = learnDependencyNetwork(fs, fs.tables[0], 'both', options);
    expect(dn.instances).toBe(15);
    expect(dn.className).toBe('both');
  });

  it('samples at most options.sample instances per class, deterministically', () => {
    const noise = normalStream(9);
    const n = 400;
    const x = Array.from({ length: n }, () => noise());
    const y = x.map((v) => (v > 0 ? 5 : 0) + 0.1 * noise());
    const fs = featureSet([{ kind: 'state', feature: 'mean', columns: { P: { good: y.slice(0, 10), bad: y }, x: { good: x.slice(0, 10), bad: x } } }], { state: 'P' });
    const capped = { ...options, sample: 50 };
    const a = learnDependencyNetwork(fs, fs.tables[0], 'bad', capped);
    expect(a.instances).toBe(50);
    expect(a.minSplit).toBe(17);
    expect(learnDependencyNetwork(fs, fs.tables[0], 'bad', capped)).toEqual(a);
    expect([...selectRows(fs, 'bad', capped)]).toEqual([...selectRows(fs, 'bad', capped)]);
    expect([...selectRows(fs, 'bad', capped)]).not.toEqual([...selectRows(fs, 'bad', { ...capped, seed: 2 })]);
    expect(selectRows(fs, 'both', capped).length).toBe(60);
    expect(edgesInto(a, 'P')).toHaveProperty('x');
    // Under the cap nothing is sampled.
    expect([...selectRows(fs, 'good', capped)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('networks of one feature set reuse its rows and columns only where they are the same', () => {
    const noise = normalStream(13);
    const n = 400;
    const x = Array.from({ length: n }, () => noise());
    const y = x.map((v) => (v > 0 ? 5 : 0) + 0.1 * noise());
    const z = x.map((v) => (v < -0.5 ? NaN : v * v + 0.1 * noise()));
    const make = () => {
      const fs = featureSet([{ kind: 'state', feature: 'mean', columns: { P: { good: y.slice(0, 10), bad: y }, x: { good: x.slice(0, 10), bad: x }, z: { good: z.slice(0, 10), bad: z } } }], { state: 'P' });
      const [P, X, Z] = fs.tables[0]!.columns;
      // A second table of the same arrays, paired with other variables (a follower's column is its leader's).
      (fs.tables as FeatureTable[]).push({ kind: 'state', feature: 'max', variables: ['P', 'x', 'z'], columns: [P!, Z!, X!] });
      return fs;
    };
    const fs = make();
    const learned = [1, 2, 1].flatMap((seed) => [0, 1].map((t) => learnDependencyNetwork(fs, fs.tables[t]!, 'bad', { ...options, sample: 60, seed })));
    // Each as learned on a feature set of its own.
    const alone = [1, 2, 1].flatMap((seed) => [0, 1].map((t) => { const own = make(); return learnDependencyNetwork(own, own.tables[t]!, 'bad', { ...options, sample: 60, seed }); }));
    expect(learned).toEqual(alone);
    // Which is a real question: the seeds draw other rows, the tables pair the arrays otherwise.
    expect(learned[0]!.edges).not.toEqual(learned[1]!.edges);
    expect(learned[0]!.edges).not.toEqual(learned[2]!.edges);
  });

  it('finds no edges among independent noise variables', () => {
    const noise = normalStream(21);
    const cols = Object.fromEntries(['P', 'a', 'b', 'c', 'd', 'e'].map((v) => [v, { good: [0, 1, 2], bad: Array.from({ length: 40 }, () => noise()) }]));
    const fs = featureSet([{ kind: 'state', feature: 'mean', columns: cols }], { state: 'P' });
    expect(learnDependencyNetwork(fs, fs.tables[0], 'bad', options).edges).toEqual([]);
  });
});

describe('happensBefore', () => {
  const table = (feature: 'first.abs' | 'count') => ({
    kind: 'event' as const,
    feature,
    columns: {
      start: { good: [0, 0, 0], bad: [0, 0] },
      work: { good: [1, 2, NaN], bad: [3, 1] },
      done: { good: [2, 3, 4], bad: [4, 1] }, // equal to work in the last instance: not strict
      late: { good: [NaN, NaN, NaN], bad: [NaN, NaN] },
    },
  });

  it('orders a before b only when a is strictly earlier wherever both occur', () => {
    const fs = featureSet([table('first.abs')], { event: 'done' });
    const hb = happensBefore(fs, fs.tables[0]);
    expect(hb.before('start', 'work')).toBe(true);
    expect(hb.before('work', 'start')).toBe(false);
    expect(hb.before('start', 'done')).toBe(true);
    expect(hb.before('work', 'done')).toBe(false);
    expect(hb.before('done', 'work')).toBe(false);
    // No instance holds both: no order.
    expect(hb.before('start', 'late')).toBe(false);
    expect(hb.before('start', 'nonexistent')).toBe(false);
    expect(hb.before('start', 'start')).toBe(false);
  });

  it('takes the built-in duration as the end of the instance: D in absolute times, 1 in relative ones', () => {
    const columns = {
      duration: { good: [5, 8], bad: [20] }, // seconds
      early: { good: [0.1, 0.2], bad: [0.5] },
      finish: { good: [5, 8], bad: [20] }, // the last record: at D, not before it
    };
    const abs = featureSet([{ kind: 'event', feature: 'first.abs', columns }], { event: 'duration' });
    const withBuiltIn = (fs: typeof abs) => ({ ...fs, metric: { ...fs.metric, eventIsDuration: true } });
    const a = happensBefore(withBuiltIn(abs), abs.tables[0]);
    expect(a.before('early', 'duration')).toBe(true);
    expect(a.before('finish', 'duration')).toBe(false);
    const relColumns = {
      ...columns,
      early: { good: [0.02, NaN], bad: [0.025] },
      finish: { good: [1, 1], bad: [1] },
      after: { good: [1.5, NaN], bad: [1.25] }, // a record after the end (a clock step)
      never: { good: [NaN, NaN], bad: [NaN] },
    };
    const rel = featureSet([{ kind: 'event', feature: 'first.rel', columns: relColumns }], { event: 'duration' });
    const r = happensBefore(withBuiltIn(rel), rel.tables[0]);
    expect(r.before('early', 'duration')).toBe(true);
    expect(r.before('duration', 'early')).toBe(false);
    expect(r.before('finish', 'duration')).toBe(false);
    expect(r.before('duration', 'finish')).toBe(false);
    expect(r.before('duration', 'after')).toBe(true);
    expect(r.before('after', 'duration')).toBe(false);
    // Where a variable is never present, nothing is before or after it.
    expect(r.before('never', 'duration')).toBe(false);
    expect(r.before('duration', 'never')).toBe(false);
    // A variable the logs call duration (not the built-in) is compared as it is.
    expect(happensBefore(rel, rel.tables[0]).before('duration', 'early')).toBe(false);
    expect(happensBefore(rel, rel.tables[0]).before('early', 'duration')).toBe(true);
  });

  it('is empty for feature types that are not times', () => {
    const fs = featureSet([table('count')], { event: 'done' });
    expect(happensBefore(fs, fs.tables[0]).before('start', 'work')).toBe(false);
  });
});
