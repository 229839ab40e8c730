import type { Analysis } from '../analysis.js';
import type { AttentionGraph, AttentionNode } from '../attention/types.js';
import { supportingGraph, supportParts } from './support.js';

export interface DotOptions {
  /** Draw only this graph (an index into analysis.graphs); fonts keep the scale of all graphs. */
  readonly only?: number;
  /** Draw the legend (default true; the HTML report has its own). */
  readonly legend?: boolean;
}

/**
 * The `--dot` output (SPEC §6): one Graphviz `digraph` with each top graph as
 * a cluster — the part that supports the answer (support.ts), what was left
 * out said in its heading — and a legend. P is filled, at a fixed size (its t is not a
 * cause's); a node's font size grows with |t| of its feature (10–28 pt, scaled
 * by the largest finite |t| among the drawn non-P nodes of every graph, so
 * sizes compare across graphs; ∞ = 28). Edge pen width grows with the edge
 * weight (1–6), labelled only when a graph's weights differ; happens-before
 * edges are arrows from the earlier to the later variable, the rest
 * `dir=none`. Every string is a quoted, escaped DOT string, so any variable
 * name from a log is safe; node ids are generated (`g0_n3`), never taken from names.
 */
export function renderDot(analysis: Analysis, options: DotOptions = {}): string {
  const maxT = largestFiniteAbsT(analysis);
  const lines: string[] = [
    'digraph distalyze {',
    `  graph [${attrs({ label: 'distalyze: dependencies of the performance metric (bad vs good)', labelloc: 't', fontname: FONT, fontsize: 16, compound: 'true' })}];`,
    `  node [${attrs({ shape: 'ellipse', fontname: FONT, color: '#555555' })}];`,
    `  edge [${attrs({ color: '#666666', fontname: FONT, fontsize: 9 })}];`,
  ];
  if (analysis.graphs.length === 0) {
    lines.push(`  note [${attrs({ shape: 'note', label: 'No dependency graphs: no log kind had a performance metric to focus on.' })}];`);
  }
  analysis.graphs.forEach((g, gi) => {
    if (options.only === undefined || options.only === gi) lines.push(...cluster(g, gi, maxT, zOf(analysis, g)));
  });
  if (analysis.graphs.length > 0 && options.legend !== false) lines.push(...legend());
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

const FONT = 'Helvetica';
const MIN_FONT = 10;
const MAX_FONT = 28;
/** P's size: the middle of the scale, whatever its t (a P-only graph must not draw it biggest). */
const METRIC_FONT = 16;
const MIN_PEN = 1;
const MAX_PEN = 6;
const METRIC_FILL = '#fdb863';
const BAD_LARGER = '#b2182b';
const GOOD_LARGER = '#2166ac';

function cluster(whole: AttentionGraph, gi: number, maxT: number, z: ReadonlyMap<string, number>): string[] {
  // Only what supports the answer: significant nodes and their paths to P, the chain cut at MAX_HOPS (support.ts).
  const support = supportingGraph(whole);
  const g = support.graph;
  const id = (i: number): string => `g${gi}_n${i}`;
  const index = new Map(g.nodes.map((n, i) => [n.variable, i]));
  const alone = g.nodes.length <= 1 && support.cut === 0;
  const heading = [
    `${g.kind} · ${g.features.join(', ')} · class ${g.className}`,
    alone ? 'score 0 · no divergent dependency found' : `score ${formatNumber(g.score)}`,
  ];
  // One line per reason, so the heading does not widen the drawing.
  const left = supportParts(support);
  if (left.length > 0) heading.push('left out (--json has the whole graph):', ...left);
  // A weight says something only where weights differ: one value on every edge is said once, in the heading.
  const weights = new Set(g.edges.map((e) => formatNumber(e.weight, 2)));
  const labelled = weights.size > 1;
  if (g.edges.length > 0 && !labelled) heading.push(`every edge weight ${[...weights][0]!}`);
  const out = [
    `  subgraph cluster_${gi} {`,
    `    graph [${attrs({ label: heading.join('\n'), labeljust: 'l', style: 'rounded', color: '#999999' })}];`,
  ];
  g.nodes.forEach((n, i) => out.push(`    ${id(i)} [${attrs(nodeAttrs(n, maxT, z.get(n.variable)))}];`));
  for (const e of g.edges) {
    const from = index.get(e.from);
    const to = index.get(e.to);
    if (from === undefined || to === undefined) continue;
    const edge: Record<string, string | number> = { penwidth: round(MIN_PEN + (MAX_PEN - MIN_PEN) * clamp01(e.weight)) };
    if (labelled) edge.label = formatNumber(e.weight, 2);
    if (!e.directed) edge.dir = 'none';
    out.push(`    ${id(from)} -> ${id(to)} [${attrs(edge)}];`);
  }
  out.push('  }');
  return out;
}

/** z of each node's test in the graph's feature, the statistic the text and the lists show. */
function zOf(a: Analysis, g: AttentionGraph): Map<string, number> {
  return new Map(a.tests.filter((t) => t.kind === g.kind && t.feature === g.feature).map((t) => [t.variable, t.z]));
}

function nodeAttrs(n: AttentionNode, maxT: number, z: number | undefined): Record<string, string | number> {
  // The label gives z, as every list does; a graph built without its tests (a library caller's) gives t.
  const stat = z !== undefined && !Number.isNaN(z) ? `z = ${formatT(z)}` : Number.isNaN(n.t) ? 'untested' : `t = ${formatT(n.t)}`;
  const a: Record<string, string | number> = {
    label: `${n.variable}\n${stat}`,
    fontsize: n.metric ? METRIC_FONT : round(MIN_FONT + (MAX_FONT - MIN_FONT) * fontScale(n.t, maxT)),
  };
  if (n.metric) {
    a.style = 'filled';
    a.fillcolor = METRIC_FILL;
    a.shape = 'doubleoctagon';
  } else if (n.significant) {
    a.color = n.t > 0 ? BAD_LARGER : GOOD_LARGER;
    a.penwidth = 2;
  } else {
    a.style = 'dashed';
  }
  return a;
}

/** |t| as a fraction of the kind's largest finite |t|: ∞ → 1, untested → 0. */
function fontScale(t: number, maxT: number): number {
  if (Number.isNaN(t)) return 0;
  if (!Number.isFinite(t)) return 1;
  return maxT > 0 ? clamp01(Math.abs(t) / maxT) : 0;
}

/** The largest finite |t| among the non-P nodes of every graph (0 when none): one scale for all graphs. */
function largestFiniteAbsT(analysis: Analysis): number {
  let max = 0;
  for (const g of analysis.graphs) {
    for (const n of supportingGraph(g).graph.nodes) if (!n.metric && Number.isFinite(n.t)) max = Math.max(max, Math.abs(n.t));
  }
  return max;
}

/** What colour, size, arrows and pen width mean. */
function legend(): string[] {
  const text = [
    'Legend',
    'shown: significant variables within 3 steps of P, and their paths to it',
    'filled: P, the performance metric',
    'red outline: larger in bad (t > 0); blue: larger in good (t < 0)',
    'dashed: not significant (on the path to P)',
    'label: z of the feature; text size: |t| (one scale for all graphs)',
    'arrow: happens-before (earlier → later), not causality',
    'plain line: dependency with no time order',
    'line width: dependency weight',
  ];
  return [
    '  subgraph cluster_legend {',
    `    graph [${attrs({ label: '', style: 'invis' })}];`,
    `    legend [${attrs({ shape: 'note', fontsize: 10, color: '#999999', label: text.join('\n') })}];`,
    '  }',
  ];
}

/** `key="value", …` with every value a quoted DOT string. */
function attrs(a: Record<string, string | number>): string {
  return Object.entries(a)
    .map(([k, v]) => `${k}=${quote(String(v))}`)
    .join(', ');
}

/**
 * A DOT double-quoted string that shows `text` literally. Inside quotes DOT
 * only treats `\"` specially, but Graphviz then reads labels as escString,
 * where `\n`, `\l`, `\N`, `\G`… mean something: so every backslash is
 * doubled, quotes escaped, line breaks become `\n` (a centred line break),
 * and other control characters, which Graphviz rejects or drops, become
 * U+FFFD. Lone surrogates (not valid UTF-8) become U+FFFD too.
 */
export function quote(text: string): string {
  let out = '"';
  for (const ch of text.replace(/\r\n?/g, '\n')) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) || (code >= 0xd800 && code <= 0xdfff)) out += '\uFFFD';
    else out += ch;
  }
  return `${out}"`;
}

function formatT(t: number): string {
  if (t === Infinity) return '+∞';
  if (t === -Infinity) return '−∞';
  return formatNumber(t);
}

function formatNumber(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) return x.toExponential(digits - 1);
  return Number(x.toPrecision(Math.max(digits, Math.floor(Math.log10(a || 1)) + 1))).toString();
}

function clamp01(x: number): number {
  return x > 1 ? 1 : x > 0 ? x : 0;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
