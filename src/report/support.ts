/**
 * The part of an attention graph that supports the answer, as text, DOT and
 * HTML draw it: the significant nodes within MAX_HOPS edges of P and the
 * paths that tie them to P (every edge passed the split gate). A node on such
 * a path may itself be insignificant: it is how the tie runs. Everything else
 * of the pruned tree — insignificant branches, and the chain beyond MAX_HOPS —
 * is left out and counted, so a drawing says it was cut. `--json` keeps the
 * whole graph.
 */
import type { AttentionGraph } from '../attention/types.js';
import { depthsFromP } from './verdict.js';

/** Farther than this many edges from P, a tie is too indirect to draw as support. */
export const MAX_HOPS = 3;

export interface SupportingGraph {
  readonly graph: AttentionGraph;
  /** Significant nodes farther than MAX_HOPS from P, left out. */
  readonly cut: number;
  /** Insignificant nodes on no path from P to a kept significant node, left out. */
  readonly dropped: number;
}

export function supportingGraph(g: AttentionGraph, maxHops = MAX_HOPS): SupportingGraph {
  const metric = g.nodes.find((n) => n.metric);
  if (metric === undefined || g.nodes.length <= 1) return { graph: g, cut: 0, dropped: 0 };
  const depth = depthsFromP(g);
  const parent = new Map<string, string>();
  for (const e of g.edges) {
    const [near, far] = (depth.get(e.from) ?? Infinity) < (depth.get(e.to) ?? Infinity) ? [e.from, e.to] : [e.to, e.from];
    parent.set(far, near);
  }
  const keep = new Set([metric.variable]);
  let cut = 0;
  for (const n of g.nodes) {
    if (n.metric || !n.significant) continue;
    const d = depth.get(n.variable);
    if (d === undefined || d > maxHops) {
      cut++;
      continue;
    }
    for (let v: string | undefined = n.variable; v !== undefined && !keep.has(v); v = parent.get(v)) keep.add(v);
  }
  const nodes = g.nodes.filter((n) => keep.has(n.variable));
  const edges = g.edges.filter((e) => keep.has(e.from) && keep.has(e.to));
  return { graph: { ...g, nodes, edges }, cut, dropped: g.nodes.length - nodes.length - cut };
}

/** What was left out, one part per reason; empty when nothing was. */
export function supportParts(s: SupportingGraph): string[] {
  const parts: string[] = [];
  if (s.cut > 0) parts.push(`cut: ${s.cut} significant node${s.cut === 1 ? '' : 's'} more than ${MAX_HOPS} steps from P`);
  if (s.dropped > 0) parts.push(`${s.dropped} node${s.dropped === 1 ? '' : 's'} not significant and on no path to a significant one`);
  if (s.graph.omitted > 0) parts.push(`${s.graph.omitted} more by --max-nodes`);
  return parts;
}

/** The sentence a drawing ends with when nodes were left out; null when none were. */
export function supportNote(s: SupportingGraph): string | null {
  const parts = supportParts(s);
  return parts.length === 0 ? null : `left out: ${parts.join('; ')} (--json has the whole graph)`;
}
