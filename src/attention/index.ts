import { happensBefore, learnDependencyNetwork, type HappensBefore } from '../dependency-network/index.js';
import type { DependencyNetwork, DependencyNetworkOptions } from '../dependency-network/types.js';
import { featureTypesOf, isTimeFeature, LOG_KINDS, type FeatureSet, type FeatureTable, type FeatureType, type LogKind } from '../features/types.js';
import { Z_CAP } from '../stats/normal.js';
import type { TestResult, TestSummary } from '../ttest/types.js';
import { aliasesByTable } from './aliases.js';
import { pruneTree } from './prune.js';
import { maximumSpanningTree, type RootedTree } from './spanning-tree.js';
import type { AttentionEdge, AttentionGraph, AttentionNode, AttentionOptions } from './types.js';

export { maximumSpanningTree, type RootedTree, type WeightedEdge } from './spanning-tree.js';
export { pruneTree } from './prune.js';
export { aliasesByTable, metricAliases, ALIAS_MIN_CORRELATION } from './aliases.js';
export type { AttentionEdge, AttentionGraph, AttentionNode, AttentionOptions } from './types.js';

export const DEFAULT_ATTENTION_OPTIONS: AttentionOptions = { balance: 0.5, top: 1, maxNodes: 10, dnClass: 'bad' };

/**
 * Attention focusing (SPEC §5, paper §2.2.4 and Fig. 2.3). For each log kind
 * that has a metric P and each of its feature types: the dependency network
 * of `options.dnClass`, the maximum spanning tree of P's connected component
 * rooted at P, pruned of non-significant leaves, scored by
 *   Σ over nodes n ≠ P of T̂(n)^(2a) · ŵ(parent edge of n)^(2(1−a)).
 * Aliases of P (|r| ≥ 0.999 with P's feature within each class) are left out
 * of the network of that feature type and listed on its graph.
 * Graphs identical across feature types (same nodes and edges) are merged;
 * the best `options.top` of each kind are returned, and all of them ranked on
 * the one scale of the score (SPEC §5 step 5): the first is the answer.
 * A graph of P alone (score 0: "no divergent dependency found") is returned,
 * once, only for a kind where nothing scored above 0.
 */
export function focusAttention(
  fs: FeatureSet,
  tests: TestSummary,
  options: AttentionOptions & DependencyNetworkOptions,
  aliases: ReadonlyMap<FeatureTable, readonly string[]> = aliasesByTable(fs),
): AttentionGraph[] {
  const graphs: AttentionGraph[] = [];
  for (const kind of LOG_KINDS) {
    const metric = fs.metric[kind];
    if (metric === null) continue;
    const candidates: FocusedGraph[] = [];
    for (const feature of featureTypesOf(kind)) {
      const table = fs.tables.find((t) => t.kind === kind && t.feature === feature);
      if (!table) continue;
      const tableAliases = aliases.get(table) ?? [];
      const drop = new Set(tableAliases);
      const kept = drop.size === 0 ? table : {
        ...table,
        variables: table.variables.filter((v) => !drop.has(v)),
        columns: table.columns.filter((_, v) => !drop.has(table.variables[v] as string)),
      };
      const dn = learnDependencyNetwork(fs, kept, options.dnClass, options);
      candidates.push(focus(dn, metric, tests, happensBefore(fs, kept), options, tableAliases));
    }
    graphs.push(...topGraphs(candidates, options.top));
  }
  return rankGraphs(graphs);
}

/**
 * Whether a graph's feature type can locate a cause: every feature but an
 * event's position in time. A delay anywhere shifts the absolute time of every
 * later event alike and the relative time of every event, so the divergence of
 * `first/median/last.abs|rel` is a symptom of the slowdown, not its place; the
 * local event features (count, gap, gap.after, wait) and the states locate.
 */
export function locatesCause(graph: Pick<AttentionGraph, 'kind' | 'feature'>): boolean {
  return !isTimeFeature(graph.kind, graph.feature);
}

/**
 * Between graphs of equal score: the wait between two consecutive events is
 * both the `gap` of the later one and the `gap.after` of the earlier one; the
 * earlier one is where the time went (the callee's last line before a slow
 * reply, not the caller's next line: SPEC §2), so `gap.after` goes first.
 */
function preference(feature: FeatureType): number {
  return feature === 'gap.after' ? 0 : 1;
}

/** 0 for a graph that locates a cause and scored above 0, else 1: the first tier comes first. */
function tier(g: AttentionGraph): number {
  return g.score > 0 && locatesCause(g) ? 0 : 1;
}

/**
 * SPEC §5 step 5, one scale for both kinds: graphs that locate a cause and
 * scored above 0 first, then the rest, each by score (ties: events first, as
 * listed). The first is the answer.
 */
function rankGraphs(graphs: readonly AttentionGraph[]): AttentionGraph[] {
  return graphs.map((g, i) => ({ g, i })).sort((x, y) => tier(x.g) - tier(y.g) || y.g.score - x.g.score || preference(x.g.feature) - preference(y.g.feature) || x.i - y.i).map((x) => x.g);
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
  return focus(dn, metric, tests, order, options, []).graph;
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
  aliases: readonly string[],
): FocusedGraph {
  const { kind, feature } = dn;
  const results = testsOf(tests, kind, feature);
  const test = (v: number): TestResult | undefined => results.get(dn.variables[v]);
  const tHat = (v: number): number => normalizedZ(test(v));

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
    aliases,
  };
  return { graph, shape };
}

/**
 * T̂ = |z| / 38 (SPEC §5, "∞ capped as in §3"): z is the one currency of both
 * log kinds and capped at |z| = 38, so T̂ ∈ [0, 1] on a fixed scale — a
 * perfectly separated herring does not shrink every other variable's T̂, and
 * graphs of events and of states compare on the same scale. 0 for an
 * untested variable.
 */
export function normalizedZ(test: Pick<TestResult, 'z'> | undefined): number {
  if (test === undefined || Number.isNaN(test.z)) return 0;
  return Math.min(1, Math.abs(test.z) / Z_CAP);
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
 * Ranks one kind's graphs (those that locate a cause first, then by score, then feature type order), merges those with
 * the same shape into the best of them, and keeps the best `top`. A graph of
 * P alone survives (once) only when no graph scored above 0.
 */
function topGraphs(candidates: readonly FocusedGraph[], top: number): AttentionGraph[] {
  const rank = (f: FeatureType): number => featureTypesOf(candidates[0].graph.kind).indexOf(f);
  const ranked = [...candidates].sort((x, y) => tier(x.graph) - tier(y.graph) || y.graph.score - x.graph.score ||
    preference(x.graph.feature) - preference(y.graph.feature) || rank(x.graph.feature) - rank(y.graph.feature));
  const merged = new Map<string, AttentionGraph>();
  for (const { graph, shape } of ranked) {
    const seen = merged.get(shape);
    merged.set(shape, seen ? { ...seen, features: [...seen.features, graph.feature].sort((x, y) => rank(x) - rank(y)) } : graph);
  }
  const all = [...merged.values()];
  const found = all.filter((g) => g.score > 0);
  return (found.length > 0 ? found : all.slice(0, 1)).slice(0, Math.max(0, top));
}
