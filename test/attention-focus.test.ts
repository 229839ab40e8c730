import { describe, expect, it } from 'vitest';
import { attentionGraph, focusAttention, maximumSpanningTree, normalizedZ, pruneTree } from '../src/attention/index.js';
import type { AttentionOptions } from '../src/attention/types.js';
import type { HappensBefore } from '../src/dependency-network/happens-before.js';
import type { DependencyNetwork, DependencyNetworkOptions } from '../src/dependency-network/types.js';
import { STATE_FEATURE_TYPES } from '../src/features/types.js';
import { nullCase, plantedCause } from './attention-fixtures.js';
import { givenTests, welchTests } from './dn-fixtures.js';

const unordered: HappensBefore = { before: () => false };
const display = { balance: 0.5, maxNodes: 10 };
const options: AttentionOptions & DependencyNetworkOptions = { balance: 0.5, top: 1, maxNodes: 10, dnClass: 'bad', splitAlpha: 0.05, sample: 100_000, seed: 1 };

function network(variables: string[], edges: [parent: string, child: string, weight: number][]): DependencyNetwork {
  const index = new Map(variables.map((v, i) => [v, i]));
  const at = (v: string): number => index.get(v)!;
  return {
    kind: 'state', feature: 'mean', className: 'bad', variables,
    edges: edges.map(([p, c, weight]) => ({ parent: at(p), child: at(c), weight })),
    instances: 30, weight: 30, minSplit: 10,
  };
}

describe('attention graph of one network', () => {
  // P–A: max(0.9, 0.5) = 0.9; A–B 0.6; B–P 0.3; C–B 0.4; C–P 0.35; D has no edges (another component).
  const dn = network(['P', 'A', 'B', 'C', 'D'], [
    ['A', 'P', 0.9], ['P', 'A', 0.5], ['B', 'A', 0.6], ['B', 'P', 0.3], ['C', 'B', 0.4], ['P', 'C', 0.35],
  ]);
  // Significant: P, B, D. max finite |t| = 8.
  const tests = givenTests('state', 'mean', {
    P: { t: 10, significant: true }, A: { t: 2, significant: false }, B: { t: -4, significant: true },
    C: { t: 1, significant: false }, D: { t: 8, significant: true },
  }, 8);

  it('takes the maximum spanning tree of P’s component, prunes insignificant leaves, and scores it', () => {
    // Spanning tree from P: P–A (0.9), A–B (0.6), B–C (0.4, beats P–C 0.35); P–B (0.3) is left out.
    // C is an insignificant leaf: pruned. A is insignificant but on B's path to P: kept. D: other component.
    // score (a = ½) = T̂(A)·ŵ(P–A) + T̂(B)·ŵ(A–B) = (2/8)·0.9 + (4/8)·0.6 = 0.225 + 0.3 = 0.525.
    const g = attentionGraph(dn, 'P', tests, unordered, display);
    expect(g.score).toBeCloseTo(0.525, 12);
    expect(g.nodes).toEqual([
      { variable: 'P', t: 10, significant: true, metric: true },
      { variable: 'A', t: 2, significant: false, metric: false },
      { variable: 'B', t: -4, significant: true, metric: false },
    ]);
    expect(g.edges).toEqual([
      { from: 'P', to: 'A', weight: 0.9, directed: false },
      { from: 'A', to: 'B', weight: 0.6, directed: false },
    ]);
    expect(g).toMatchObject({ kind: 'state', feature: 'mean', features: ['mean'], className: 'bad', omitted: 0 });
  });

  it('balance a weighs divergence against dependency: T̂^(2a)·ŵ^(2(1−a))', () => {
    // a = 1: Σ T̂² = 0.0625 + 0.25 = 0.3125;  a = 0: Σ ŵ² = 0.81 + 0.36 = 1.17.
    expect(attentionGraph(dn, 'P', tests, unordered, { ...display, balance: 1 }).score).toBeCloseTo(0.3125, 12);
    expect(attentionGraph(dn, 'P', tests, unordered, { ...display, balance: 0 }).score).toBeCloseTo(1.17, 12);
  });

  it('orients happens-before edges from the earlier to the later variable', () => {
    const order: HappensBefore = { before: (a, b) => a === 'B' && b === 'A' };
    const g = attentionGraph(dn, 'P', tests, order, display);
    expect(g.edges).toEqual([
      { from: 'P', to: 'A', weight: 0.9, directed: false },
      { from: 'B', to: 'A', weight: 0.6, directed: true },
    ]);
  });

  it('prunes repeatedly: a chain of insignificant variables leaves P alone with score 0', () => {
    const chain = network(['P', 'A', 'B', 'C'], [['A', 'P', 1], ['B', 'A', 1], ['C', 'B', 1]]);
    const none = givenTests('state', 'mean', { P: { t: 9, significant: true }, A: { t: 1, significant: false }, B: { t: 1, significant: false }, C: { t: 1, significant: false } }, 9);
    const g = attentionGraph(chain, 'P', none, unordered, display);
    expect(g.nodes.map((n) => n.variable)).toEqual(['P']);
    expect(g.edges).toEqual([]);
    expect(g.score).toBe(0);
  });

  it('T̂ = |z| / 38: a perfectly separated feature (z capped) counts 1, others in proportion', () => {
    expect(normalizedZ({ z: -38 })).toBe(1);
    expect(normalizedZ({ z: 9.5 })).toBe(0.25);
    expect(normalizedZ(undefined)).toBe(0);
    const star = network(['P', 'S'], [['S', 'P', 0.5]]);
    const sep = givenTests('state', 'mean', { P: { t: 3, significant: true }, S: { t: Infinity, significant: true } }, 3);
    expect(attentionGraph(star, 'P', sep, unordered, display).score).toBeCloseTo(1 * 0.5, 12);
  });

  it('shows P, the maxNodes strongest nodes and their paths to P, and counts the rest', () => {
    // P — hub (insignificant, 0.9) — leaves L0..L14 (significant, t = 1..15, weight 0.5);
    // the 3 strongest by T̂·ŵ are L14, L13, L12, and the hub is on their path.
    const leaves = Array.from({ length: 15 }, (_, i) => `L${i}`);
    const star = network(['P', 'hub', ...leaves], [['hub', 'P', 0.9], ...leaves.map((l): [string, string, number] => [l, 'hub', 0.5])]);
    const ts = givenTests('state', 'mean', {
      P: { t: 20, significant: true }, hub: { t: 0.5, significant: false },
      ...Object.fromEntries(leaves.map((l, i) => [l, { t: i + 1, significant: true }])),
    }, 20);
    const g = attentionGraph(star, 'P', ts, unordered, { balance: 0.5, maxNodes: 3 });
    expect(g.nodes.map((n) => n.variable).sort()).toEqual(['L12', 'L13', 'L14', 'P', 'hub']);
    expect(g.omitted).toBe(12);
    expect(g.edges).toHaveLength(4);
    // The score is of the whole pruned tree: 0.5/20·0.9 + Σ (i/20)·0.5 for i = 1..15.
    expect(g.score).toBeCloseTo((0.5 / 20) * 0.9 + (120 / 20) * 0.5, 12);
  });

  it('returns P alone when P is not in the network (missing in the whole class)', () => {
    const g = attentionGraph(network(['A'], []), 'P', tests, unordered, display);
    expect(g.nodes).toEqual([{ variable: 'P', t: 10, significant: true, metric: true }]);
    expect(g.score).toBe(0);
  });
});

describe('iterative graph algorithms', () => {
  const N = 20_000;

  it('spans, prunes and displays a 20 000-node chain without recursion', () => {
    const variables = Array.from({ length: N }, (_, i) => `v${i}`);
    const edges: [string, string, number][] = variables.slice(1).map((v, i) => [v, variables[i], 1 - i / (2 * N)]);
    const dn = network(variables, edges);
    // Only the far end is significant: the whole chain is its path to P and survives pruning.
    const far = givenTests('state', 'mean', { [variables[N - 1]]: { t: 5, significant: true } }, 5);
    const g = attentionGraph(dn, 'v0', far, unordered, display);
    expect(g.nodes).toHaveLength(N);
    expect(g.edges).toHaveLength(N - 1);
    expect(g.omitted).toBe(0);
    expect(g.score).toBeCloseTo(1 * (1 - (N - 2) / (2 * N)), 12);
    // Nothing significant: pruned back to P one leaf at a time.
    expect(attentionGraph(dn, 'v0', givenTests('state', 'mean', {}, 1), unordered, display).nodes).toHaveLength(1);
  });

  it('spans only the root’s component of a disconnected graph, from any root', () => {
    // Two chains 0–1–…–9999 and 10000–…–19999.
    const edges = Array.from({ length: N - 1 }, (_, i) => ({ a: i, b: i + 1, weight: i === N / 2 - 1 ? 0 : 0.5 })).filter((e) => e.weight > 0);
    const tree = maximumSpanningTree(N, edges, N / 4);
    expect(tree.order.length).toBe(N / 2);
    expect(tree.parent[N / 4]).toBe(-1);
    expect(tree.parent[0]).toBe(1);
    expect(tree.parent[N / 2 - 1]).toBe(N / 2 - 2);
    expect(tree.parent[N / 2]).toBe(-2);
    const inTree = pruneTree(tree, (v) => v === 0);
    let kept = 0;
    for (const f of inTree) kept += f;
    expect(kept).toBe(N / 4 + 1); // 0 … N/4
  });

  it('takes the heaviest edge between two vertices and breaks weight ties by vertex number', () => {
    const tree = maximumSpanningTree(4, [
      { a: 0, b: 1, weight: 0.2 }, { a: 1, b: 0, weight: 0.7 }, { a: 0, b: 2, weight: 0.7 },
      { a: 1, b: 3, weight: 0.5 }, { a: 2, b: 3, weight: 0.5 }, { a: 2, b: 2, weight: 1 },
    ], 0);
    expect([...tree.parent]).toEqual([-1, 0, 0, 1]);
    expect([...tree.parentWeight].slice(1)).toEqual([0.7, 0.7, 0.5]);
    expect([...tree.order]).toEqual([0, 1, 2, 3]);
  });
});

describe('focusAttention', () => {
  it('finds the planted cause and leaves out the red herring that diverges more', () => {
    for (const seed of [1, 2, 3]) {
      const fs = plantedCause(seed);
      const tests = welchTests(fs);
      const herring = tests.tests.find((t) => t.variable === 'herring')!;
      const cause = tests.tests.find((t) => t.variable === 'cause')!;
      expect(herring.significant && Math.abs(herring.t) > Math.abs(cause.t)).toBe(true);
      const graphs = focusAttention(fs, tests, options);
      expect(graphs).toHaveLength(1);
      const names = graphs[0].nodes.map((n) => n.variable);
      expect(names, `seed ${seed}`).toContain('cause');
      expect(names, `seed ${seed}`).not.toContain('herring');
      expect(graphs[0].nodes[0]).toMatchObject({ variable: 'P', metric: true });
      expect(graphs[0].score).toBeGreaterThan(0);
    }
  });

  it('merges feature types that give the same graph and names them all', () => {
    const fs = plantedCause(4, 50, 'event', ['first.abs', 'median.abs', 'last.abs']);
    const graphs = focusAttention(fs, welchTests(fs), { ...options, top: 3 });
    expect(graphs).toHaveLength(1);
    expect(graphs[0].features).toEqual(['first.abs', 'median.abs', 'last.abs']);
    expect(graphs[0].kind).toBe('event');
  });

  it('reports no divergent dependency (once per kind, events first) when both classes come from one process', () => {
    const fs = nullCase(8);
    const tests = welchTests(fs);
    expect(tests.tests.some((t) => t.significant)).toBe(false);
    const graphs = focusAttention(fs, tests, { ...options, top: 3 });
    expect(graphs.map((g) => [g.kind, g.score, g.nodes.map((n) => n.variable), g.features])).toEqual([
      ['event', 0, ['P'], ['first.abs', 'count']],
      ['state', 0, ['P'], ['mean', 'max']],
    ]);
  });

  it('returns at most the top K per kind, best first, deterministically', () => {
    const fs = plantedCause(5, 50, 'state', STATE_FEATURE_TYPES.slice(0, 2));
    const a = focusAttention(fs, welchTests(fs), { ...options, top: 2 });
    expect(a.every((g) => g.kind === 'state')).toBe(true);
    for (let i = 1; i < a.length; i++) expect(a[i - 1].score).toBeGreaterThanOrEqual(a[i].score);
    expect(focusAttention(fs, welchTests(fs), { ...options, top: 2 })).toEqual(a);
  });

  it('skips a kind without a metric', () => {
    const fs = plantedCause(6);
    expect(fs.metric.event).toBeNull();
    expect(focusAttention(fs, welchTests(fs), options).every((g) => g.kind === 'state')).toBe(true);
  });
});
