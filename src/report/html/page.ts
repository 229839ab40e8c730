/**
 * The page around the data: header facts, heavy-tail banner and the verdict are
 * written here as escaped HTML (readable before any script runs); the ranking,
 * the tests table and the plots are built by the page's script from the blob.
 */
import { causeStanding, componentsText, featureChange, verdictSentence } from '../verdict.js';
import { supportingGraph, supportNote } from '../support.js';
import { createHash } from 'node:crypto';
import type { Analysis } from '../../analysis.js';
import type { AttentionGraph } from '../../attention/types.js';
import { LOG_KINDS, type LogKind } from '../../features/types.js';
import { formatBytes, formatP, formatStat, formatValue, plural } from '../format.js';
import { CLIENT_JS } from './client.js';
import { embedJson, escapeHtml as h } from './escape.js';
import type { PageData } from './data.js';
import type { GraphDrawing } from './graphs.js';
import { STYLE_CSS } from './style.js';

const CORRECTION_NAMES = { bonferroni: 'Bonferroni', holm: 'Holm', bh: 'Benjamini–Hochberg', none: 'no correction' } as const;
const KIND_TITLES: Readonly<Record<LogKind, string>> = { event: 'Events', state: 'States' };

export function renderPage(a: Analysis, data: PageData, drawings: readonly GraphDrawing[]): string {
  const testIndex = new Map(a.tests.map((t, i) => [testKey(t.kind, t.variable, t.feature), i]));
  const v = verdictOf(a);
  const script = CLIENT_JS;
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${h(`distalyze: ${v.title}`)}</title>
<style>${STYLE_CSS}</style>
</head>
<body>
<header class="top"><div class="wrap">
<h1>distalyze report <span class="ver">${h(a.tool.version)}</span></h1>
${renderFacts(a)}
</div></header>
<main class="wrap">
${renderBanners(a)}
<section id="verdict">
<h2>Verdict</h2>
${v.html(testIndex)}
${renderCards(a, drawings, testIndex)}
</section>
<section id="ranking">
<h2>Ranking</h2>
<p class="hint">Divergence alone, second: variables with a significant feature, by Σ|z| over those features, tied to P or not — which can rank a herring (a version number, a bigger heap) above the cause. The verdict's list above is the answer. Click a variable or a feature to see its distributions.</p>
<div id="ranking-list"><noscript><p class="empty">The ranking, the table and the plots need JavaScript.</p></noscript></div>
</section>
<section id="tests">
<h2>All tests</h2>
<p class="hint">Welch's t-test of bad against good for every feature (positive t: larger in bad), the verdict's causes first, in its order. Click a column to sort, a row to see both classes' values.</p>
<div class="toolbar">
<input type="search" id="filter" placeholder="Filter by variable, kind or feature" aria-label="Filter tests" autocomplete="off" spellcheck="false">
<label><input type="checkbox" id="sig-only"> significant only</label>
<span id="count" class="muted"></span>
</div>
<div class="split">
<div class="table-wrap">
<table id="tests-table">
<thead><tr>${TABLE_COLUMNS.map(([key, label, num]) => `<th data-key="${key}"${num ? ' class="num"' : ''} aria-sort="none"><button type="button">${label}</button></th>`).join('')}</tr></thead>
<tbody></tbody>
</table>
<div id="more"></div>
</div>
<aside id="detail" class="detail" aria-live="polite"><p class="empty">Click a row to see the two classes' distributions of that feature side by side.</p></aside>
</div>
</section>
</main>
<footer><div class="wrap">distalyze ${h(a.tool.version)} · the Distalyzer method (NSDI 2012): t-tests find what diverges between good and bad; dependency networks and attention focusing find which of it is tied to performance. Click a graph node to see its distributions; double-click a graph for full size.</div></footer>
<script type="application/json" id="distalyze-data">${embedJson(data)}</script>
<script>${script}</script>
</body>
</html>
`;
}

const TABLE_COLUMNS: readonly (readonly [key: string, label: string, numeric: boolean])[] = [
  ['variable', 'Variable', false], ['kind', 'Kind', false], ['feature', 'Feature', false],
  ['t', 't', true], ['p', 'p', true], ['meanGood', 'Mean good', true], ['meanBad', 'Mean bad', true],
  ['g', 'Effect g', true], ['sig', 'Sig.', false],
];

function testKey(kind: LogKind, variable: string, feature: string): string {
  return `${kind}\t${variable}\t${feature}`;
}

function renderFacts(a: Analysis): string {
  const cls = (name: 'good' | 'bad') => {
    const c = a.classes[name];
    return `${plural(c.instances, 'instance')} · ${plural(c.files, 'file')} · ${formatBytes(c.bytes)} · ${plural(c.records, 'record')}`;
  };
  const metric = [
    a.metric.event !== null ? `${a.metric.event} (events)` : null,
    a.metric.state !== null ? `${a.metric.state} (states)` : null,
  ].filter((x) => x !== null).join(', ') || 'none';
  const significant = a.tests.filter((t) => t.significant).length;
  const m = Math.max(1, a.hypotheses);
  const rule = a.correction === 'bonferroni'
    ? `α = ${a.alpha}/${a.hypotheses} = ${formatP(a.alpha / m, Math.log10(a.alpha / m))}`
    : `α = ${a.alpha}`;
  const facts: [string, string][] = [
    ['good', cls('good')],
    ['bad', cls('bad')],
    ['metric P', metric],
    ['tests', `${plural(a.performed, 'test')} (${a.hypotheses} distinct), ${CORRECTION_NAMES[a.correction]} ${rule}: ${significant} significant`],
  ];
  if (a.weighting.applied && a.weighting.half !== null) facts.push(['weights', `⌊2^(P/${formatValue(a.weighting.half)})⌋`]);
  return `<dl class="facts">${facts.map(([k, v]) => `<div><dt>${h(k)}</dt><dd>${h(v)}</dd></div>`).join('')}</dl>`;
}

function renderBanners(a: Analysis): string {
  const out: string[] = [];
  const ht = a.heavyTail;
  if (ht?.detected) {
    const advice = a.weighting.applied
      ? `Instances were re-weighted by ⌊2^(P/${formatValue(a.weighting.half ?? NaN)})⌋ so the tail counts.`
      : 'The slow tail may be the problem: rerun with --weight auto to give it weight.';
    out.push(`<div class="banner heavy" role="alert" id="heavy-tail"><strong>Heavy tail</strong>` +
      h(`${(ht.fraction * 100).toFixed(1)}% of instances have ${ht.variable} (${ht.kind}, ${ht.feature}) outside mean ± 3σ; a normal distribution puts 0.27% there. ${advice}`) +
      `</div>`);
  }
  const notes = [...a.warnings];
  const skipped = a.classes.good.skippedLines + a.classes.bad.skippedLines;
  if (skipped > 0) {
    const examples = [...a.classes.good.skippedExamples, ...a.classes.bad.skippedExamples].slice(0, 3);
    notes.push(`skipped ${plural(skipped, 'line')} that were not records (good ${a.classes.good.skippedLines}, bad ${a.classes.bad.skippedLines})${examples.length > 0 ? `, e.g. ${examples.join(' | ')}` : ''}`);
  }
  if (notes.length > 0) {
    out.push(`<div class="banner notes"><strong>Notes</strong><ul>${notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul></div>`);
  }
  return out.join('\n');
}

/** A significant variable of a graph, found walking out from P. */
interface Cause {
  readonly variable: string;
  readonly t: number;
  readonly via: string;
  readonly weight: number;
  /** Happens-before relative to `via`, when the edge is directed. */
  readonly order: 'before' | 'after' | null;
}

/**
 * The significant non-metric nodes of a graph, nearest to P first (breadth-first
 * over the tree), heavier edges first among siblings.
 */
export function causesOf(g: AttentionGraph): Cause[] {
  const metric = g.nodes.find((n) => n.metric);
  if (metric === undefined) return [];
  const byName = new Map(g.nodes.map((n) => [n.variable, n]));
  const out: Cause[] = [];
  const seen = new Set([metric.variable]);
  let frontier = [metric.variable];
  while (frontier.length > 0) {
    const next: { name: string; via: string; weight: number; order: Cause['order'] }[] = [];
    for (const from of frontier) {
      for (const e of g.edges) {
        const other = e.from === from ? e.to : e.to === from ? e.from : null;
        if (other === null || seen.has(other)) continue;
        seen.add(other);
        next.push({ name: other, via: from, weight: e.weight, order: e.directed ? (e.from === other ? 'before' : 'after') : null });
      }
    }
    next.sort((x, y) => y.weight - x.weight || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    for (const n of next) {
      const node = byName.get(n.name);
      if (node !== undefined && node.significant && !node.metric) out.push({ variable: n.name, t: node.t, via: n.via, weight: n.weight, order: n.order });
    }
    frontier = next.map((n) => n.name);
  }
  return out;
}

/** The first (best) graph of each log kind. */
function topGraphs(a: Analysis): { graph: AttentionGraph; index: number }[] {
  // The best graph of each kind, in the analysis's order: the answer first (SPEC §5 step 5).
  return LOG_KINDS.flatMap((kind) => {
    const index = a.graphs.findIndex((g) => g.kind === kind);
    return index < 0 ? [] : [{ graph: a.graphs[index]!, index }];
  }).sort((x, y) => x.index - y.index);
}

/**
 * The verdict (SPEC §6): the same sentence as the terminal and JSON, then the
 * candidate causes as buttons that show their distributions.
 */
function verdictOf(a: Analysis): { title: string; html: (ix: Map<string, number>) => string } {
  const v = a.verdict;
  const sentence = verdictSentence(v, a);
  const causes = v.causes.slice(0, CAUSES_LISTED);
  if (causes.length === 0) {
    return {
      title: v.anySignificant ? 'no cause found' : 'no divergence found',
      html: () => `<p class="headline none" id="verdict-headline">${h(sentence)}</p>`,
    };
  }
  // The same list as the terminal's first one: the verdict's order, each cause's standing in the same words.
  return {
    title: `look at ${causes.slice(0, 3).map((c) => c.variable).join(', ')}`,
    html: (ix) => `<p class="headline" id="verdict-headline">${h(sentence)}</p>` + componentsOf(v) +
      `<p class="hint">What changed, the cause first (a herring changed but is not tied to P in the dependency graphs):</p>` +
      `<ol id="verdict-causes">${causes.map((c) => {
        const standing = causeStanding(c, v, a);
        const words = standing.role === 'cause' || standing.role === 'herring' ? `${standing.role}: ${standing.words}` : standing.words;
        return `<li class="${standing.role}">${nameButton(c.kind, c.variable, c.feature, ix)} <span class="muted">${h(`${c.kind} ${c.feature}: ${featureChange(c.kind, c.feature, c.meanGood, c.meanBad)}, z ${formatStat(c.z)}`)}</span> — ${h(words)}</li>`;
      }).join('')}</ol>`,
  };
}

/** The components ranked (when variables name more than one), as the terminal's `components:` line. */
function componentsOf(v: Analysis['verdict']): string {
  const text = componentsText(v, 5);
  return text === null ? '' : `<p class="hint" id="verdict-components">${h(text)}</p>`;
}

/** Causes listed under the verdict. */
const CAUSES_LISTED = 5;

function nameButton(kind: LogKind, variable: string, feature: string, ix: Map<string, number>): string {
  const i = ix.get(testKey(kind, variable, feature));
  return i === undefined
    ? `<span class="var">${h(variable)}</span>`
    : `<button type="button" class="var" data-test="${i}" title="show its distributions">${h(variable)}</button>`;
}

/** What the drawings' colours, sizes and lines mean (the DOT output draws the same as a legend node). */
const GRAPH_LEGEND = 'Each graph shows what supports the answer: significant variables within 3 steps of P and their paths to it. Filled: P, the performance metric. Red outline: larger in bad (t > 0); blue: larger in good (t < 0); dashed: not significant. '
  + 'Text size: |t|, one scale for all graphs. Arrows: happens-before (earlier → later), not causality; plain lines: no time order. '
  + 'Line width: dependency weight (labelled where the weights differ).';

function renderCards(a: Analysis, drawings: readonly GraphDrawing[], ix: Map<string, number>): string {
  if (a.graphs.length === 0) return '';
  const tops = topGraphs(a);
  const topSet = new Set(tops.map((x) => x.index));
  const rest = a.graphs.map((graph, index) => ({ graph, index })).filter((x) => !topSet.has(x.index));
  const card = ({ graph, index }: { graph: AttentionGraph; index: number }): string => renderCard(a, graph, index, drawings[index], ix);
  let out = `<p class="muted graph-legend">${h(GRAPH_LEGEND)}</p>\n<div class="cards">${tops.map(card).join('\n')}</div>`;
  if (rest.length > 0) {
    out += `\n<details class="more-graphs"><summary>${h(`${plural(rest.length, 'more graph')} (--top)`)}</summary><div class="cards">${rest.map(card).join('\n')}</div></details>`;
  }
  return out;
}

function renderCard(a: Analysis, whole: AttentionGraph, index: number, drawing: GraphDrawing | undefined, ix: Map<string, number>): string {
  // The part that supports the answer, as the drawing (DOT) shows it.
  const support = supportingGraph(whole);
  const g = support.graph;
  const metric = g.nodes.find((n) => n.metric)?.variable ?? (g.kind === 'event' ? a.metric.event : a.metric.state) ?? '?';
  const same = g.features.filter((f) => f !== g.feature);
  const causes = causesOf(g);
  // One statistic, as in the lists: z of the graph's feature.
  const zOf = new Map(a.tests.filter((t) => t.kind === g.kind && t.feature === g.feature).map((t) => [t.variable, t.z]));
  const title = `${KIND_TITLES[g.kind]} · feature ${g.feature}${same.length > 0 ? ` (same graph: ${same.join(', ')})` : ''}`;
  const sub = `${g.className === 'both' ? 'both classes' : `${g.className} class`} dependency network · score ${formatStat(g.score, false)} · P = ${metric}`;
  let body: string;
  let wide = false;
  if (causes.length === 0) {
    const note = supportNote(support);
    body = `<p class="none">${h(support.cut > 0 && note !== null ? `No significant variable within the drawn distance of P; ${note}.` : 'No divergence found: P has no significant neighbour.')}</p>`;
  } else {
    const items = causes.slice(0, MAX_LISTED).map((c) => {
      const order = c.order === null ? '' : `, happens ${c.order} ${c.via}`;
      const z = zOf.get(c.variable);
      const stat = z !== undefined ? `z ${formatStat(z)}` : `t ${formatStat(c.t)}`;
      return `<li>${nameButton(g.kind, c.variable, g.feature, ix)} <span class="muted">${h(`${stat} · weight ${c.weight.toFixed(2)} to ${c.via}${order}`)}</span></li>`;
    });
    if (causes.length > MAX_LISTED) items.push(`<li class="muted">${h(`and ${causes.length - MAX_LISTED} more in the graph`)}</li>`);
    const note = supportNote(support);
    const omitted = note !== null ? `<p class="note">${h(`${note[0]!.toUpperCase()}${note.slice(1)}.`)}</p>` : '';
    const width = drawing !== undefined && 'svg' in drawing ? naturalWidth(drawing.svg) : 0;
    wide = g.nodes.length > WIDE_NODES || width > WIDE_PX;
    const draw = drawing === undefined ? ''
      : 'svg' in drawing ? `<div class="graph" data-graph="${index}" style="--w: ${width}px">${drawing.svg}</div>`
      : `<p class="graph-error">${h(`The graph could not be drawn: ${drawing.error}`)}</p>`;
    body = `<ol>${items.join('')}</ol>${omitted}${draw}`;
  }
  return `<article class="card${wide ? ' wide' : ''}" data-kind="${g.kind}"><h3>${h(title)}</h3><p class="sub">${h(sub)}</p>${body}</article>`;
}

/** Causes listed in a card; the graph shows them all. */
const MAX_LISTED = 8;
/** Graphs with more nodes, or wider (CSS px), get a card of their own, the full width of the page. */
const WIDE_NODES = 12;
const WIDE_PX = 900;

/** The drawing's natural width in CSS px (Graphviz gives points: 1pt = 4/3 px). */
function naturalWidth(svg: string): number {
  const m = /^<svg width="([\d.]+)pt"/.exec(svg);
  return m === null ? 0 : Math.round((Number(m[1]) * 4) / 3);
}
