import { happensBefore, learnDependencyNetwork, type HappensBefore } from '../dependency-network/index.js';
import type { DependencyNetwork, DependencyNetworkOptions } from '../dependency-network/types.js';
import { featureTypesOf, LOG_KINDS, type FeatureSet, type FeatureType, type LogKind } from '../features/types.js';
import type { TestResult, TestSummary } from '../ttest/types.js';
import { pruneTree } from './prune.js';
import { maximumSpanningTree, type RootedTree } from './spanning-tree.js';
import type { AttentionEdge, AttentionGraph, AttentionNode, AttentionOptions } from './types.js';

export { maximumSpanningTree, type RootedTree, type WeightedEdge } from './spanning-tree.js';
export { pruneTree } from './prune.js';
export type { AttentionEdge, AttentionGraph, AttentionNode, AttentionOptions } from './types.js';

export const DEFAULT_ATTENTION_OPTIONS: AttentionOptions = { balance: 0.5, top: 1, maxNodes: 10, dnClass: 'bad' };

/**
 * Attention focusing (SPEC §5, paper §2.2.4 and Fig. 2.3). For each log kind
 * that has a metric P and each of its feature types: the dependency network
 * of `options.dnClass`, the maximum spanning tree of P's connected component
 * rooted at P, pruned of non-significant leaves, scored by
 *   Σ over nodes n ≠ P of T̂(n)^(2a) · ŵ(parent edge of n)^(2(1−a)).
 * Graphs identical across feature types (same nodes and edges) are merged;
 * the best `options.top` of each kind are returned, events first, best first.
 * A graph of P alone (score 0: "no divergent dependency found") is returned,
 * once, only for a kind where nothing scored above 0.
 */
export function focusAttention(
  fs: FeatureSet,
  tests: TestSummary,
  options: AttentionOptions & DependencyNetworkOptions,
): AttentionGraph[] {
  const graphs: AttentionGraph[] = [];
  for (const kind of LOG_KINDS) {
    const metric = fs.metric[kind];
    if (metric === null) continue;
    const candidates: FocusedGraph[] = [];
    for (const feature of featureTypesOf(kind)) {
      const table = fs.tables.find((t) => t.kind === kind && t.feature === feature);
      if (!table) continue;
      const dn = learnDependencyNetwork(fs, table, options.dnClass, options);
      candidates.push(focus(dn, metric, tests, happensBefore(fs, table), options));
    }
    graphs.push(...topGraphs(candidates, options.top));
  }
  return graphs;
}

/**
 * One dependency network's attention graph: steps 1–4 of SPEC §5 plus the
 * display limit. `metric` is P; if P is not among the network's variables
 * (missing in the whole class) the graph is P alone.
 */
export function attentionGraph(
  dn: DependencyNetwork,
  metric: string,
  tests: TestSummary,
  order: HappensBefore,
  options: Pick<AttentionOptions, 'balance' | 'maxNodes'>,
): AttentionGraph {
  return focus(dn, metric, tests, order, options).graph;
}

const pairKey = (a: number, b: number): string => (a < b ? `${a}:${b}` : `${b}:${a}`);

/** Per undirected pair, the gate's statistic and p of the network edge of larger weight (the first on ties). */
function strongestSplits(dn: DependencyNetwork): Map<string, { statistic: number; p: number; weight: number }> {
  const out = new Map<string, { statistic: number; p: number; weight: number }>();
  for (const e of dn.edges) {
    if (e.statistic === undefined || e.p === undefined) continue;
    const key = pairKey(e.parent, e.child);
    const have = out.get(key);
    if (!have || e.weight > have.weight) out.set(key, { statistic: e.statistic, p: e.p, weight: e.weight });
  }
  return out;
}

/** A graph and its shape: the pruned tree's variables and edges before the display limit, what merging compares. */
interface FocusedGraph {
  readonly graph: AttentionGraph;
  readonly shape: string;
}

function focus(
  dn: DependencyNetwork,
  metric: string,
  tests: TestSummary,
  order: HappensBefore,
  options: Pick<AttentionOptions, 'balance' | 'maxNodes'>,
): FocusedGraph {
  const { kind, feature } = dn;
  const results = testsOf(tests, kind, feature);
  const test = (v: number): TestResult | undefined => results.get(dn.variables[v]);
  const maxT = tests.maxFiniteAbsT[kind];
  const tHat = (v: number): number => normalizedT(test(v), maxT);

  const root = dn.variables.indexOf(metric);
  const tree = maximumSpanningTree(
    dn.variables.length,
    dn.edges.map((e) => ({ a: e.parent, b: e.child, weight: e.weight })),
    root,
  );
  const inTree = pruneTree(tree, (v) => test(v)?.significant === true);
  const members = [...tree.order].filter((v) => inTree[v] === 1);

  // Score over the whole pruned tree (the display limit below does not change it).
  const a = options.balance;
  let score = 0;
  for (const v of members) if (v !== root) score += tHat(v) ** (2 * a) * tree.parentWeight[v] ** (2 * (1 - a));

  const shown = displayed(tree, members, (v) => tHat(v) * tree.parentWeight[v], options.maxNodes);
  const node = (v: number): AttentionNode => ({
    variable: dn.variables[v],
    t: test(v)?.t ?? NaN,
    significant: test(v)?.significant === true,
    metric: v === root,
  });
  const nodes: AttentionNode[] = root < 0 ? [{ variable: metric, t: results.get(metric)?.t ?? NaN, significant: results.get(metric)?.significant === true, metric: true }] : shown.map(node);
  const edges: AttentionEdge[] = [];
  const splitOf = strongestSplits(dn);
  for (const v of shown) {
    if (v === root) continue;
    const p = tree.parent[v];
    const [x, y] = [dn.variables[p], dn.variables[v]];
    const weight = tree.parentWeight[v];
    const found = splitOf.get(pairKey(p, v));
    const split = found ? { split: { statistic: found.statistic, p: found.p } } : {};
    if (order.before(y, x)) edges.push({ from: y, to: x, weight, directed: true, ...split });
    else edges.push({ from: x, to: y, weight, directed: order.before(x, y), ...split });
  }
  const shape = JSON.stringify([
    members.map((v) => dn.variables[v]).sort(),
    members.filter((v) => v !== root).map((v) => [dn.variables[v], dn.variables[tree.parent[v]]].sort().join('\u0000')).sort(),
  ]);
  const graph: AttentionGraph = {
    kind,
    feature,
    features: [feature],
    className: dn.className,
    score,
    nodes,
    edges,
    omitted: Math.max(0, members.length - shown.length),
  };
  return { graph, shape };
}

/**
 * T̂ = |t| / the largest finite |t| of the log kind (SPEC §5); a perfectly
 * separated feature (|t| = ∞) counts as twice that largest, T̂ = 2 (SPEC §3).
 * 0 for an untested variable.
 */
export function normalizedT(test: Pick<TestResult, 't' | 'separated'> | undefined, maxFiniteAbsT: number): number {
  if (test === undefined || Number.isNaN(test.t)) return 0;
  if (test.separated || !Number.isFinite(test.t)) return 2;
  return maxFiniteAbsT > 0 ? Math.abs(test.t) / maxFiniteAbsT : 0;
}

/**
 * The display limit (SPEC §5 step 3): P, the `maxNodes` nodes with the
 * largest T̂·ŵ (ties: tree order), and every node on their paths to P.
 * Returned in tree order: P first, each parent before its children.
 */
function displayed(tree: RootedTree, members: readonly number[], strength: (v: number) => number, maxNodes: number): number[] {
  if (members.length <= maxNodes + 1) return [...members];
  const position = new Map(members.map((v, i) => [v, i]));
  const ranked = members.filter((v) => v !== tree.root).sort((x, y) => strength(y) - strength(x) || position.get(x)! - position.get(y)!);
  const keep = new Set<number>([tree.root]);
  for (const v of ranked.slice(0, Math.max(0, maxNodes))) {
    for (let u = v; u >= 0 && !keep.has(u); u = tree.parent[u]) keep.add(u);
  }
  return members.filter((v) => keep.has(v));
}

function testsOf(tests: TestSummary, kind: LogKind, feature: FeatureType): Map<string, TestResult> {
  const map = new Map<string, TestResult>();
  for (const t of tests.tests) if (t.kind === kind && t.feature === feature) map.set(t.variable, t);
  return map;
}

/**
 * Ranks one kind's graphs (score, then feature type order), merges those with
 * the same shape into the best of them, and keeps the best `top`. A graph of
 * P alone survives (once) only when no graph scored above 0.
 */
function topGraphs(candidates: readonly FocusedGraph[], top: number): AttentionGraph[] {
  const rank = (f: FeatureType): number => featureTypesOf(candidates[0].graph.kind).indexOf(f);
  const ranked = [...candidates].sort((x, y) => y.graph.score - x.graph.score || rank(x.graph.feature) - rank(y.graph.feature));
  const merged = new Map<string, AttentionGraph>();
  for (const { graph, shape } of ranked) {
    const seen = merged.get(shape);
    merged.set(shape, seen ? { ...seen, features: [...seen.features, graph.feature].sort((x, y) => rank(x) - rank(y)) } : graph);
  }
  const all = [...merged.values()];
  const found = all.filter((g) => g.score > 0);
  return (found.length > 0 ? found : all.slice(0, 1)).slice(0, Math.max(0, top));
}
