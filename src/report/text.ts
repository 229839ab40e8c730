import { Chalk } from 'chalk';
import type { Analysis } from '../analysis.js';
import type { AttentionGraph } from '../attention/types.js';
import type { TestResult } from '../ttest/types.js';
import { escapeTerminal as esc, formatBytes, formatP, formatStat, formatValue, plural } from './format.js';
import { NEGLIGIBLE_SHARE } from '../attention/verdict.js';
import { componentLine, verdictSentence } from './verdict.js';

export interface TextOptions {
  readonly color: boolean;
  /** How many ranked variables to list. */
  readonly limit: number;
}

/** Below this many instances in the searched class, dependency networks rarely find anything. */
const FEW_INSTANCES = 15;

const CORRECTION_NAMES = { bonferroni: 'Bonferroni', holm: 'Holm', bh: 'Benjamini–Hochberg', none: 'no correction' } as const;

/** The terminal report (SPEC §6): heavy tail first, then the ranking, then the graphs. */
export function renderText(a: Analysis, options: TextOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const out: string[] = [];
  const g = a.classes.good;
  const b = a.classes.bad;
  out.push(c.bold(`distalyze ${a.tool.version}`));
  out.push(`  good: ${plural(g.instances, 'instance')} from ${plural(g.files, 'file')} (${formatBytes(g.bytes)}, ${plural(g.records, 'record')})`);
  out.push(`  bad:  ${plural(b.instances, 'instance')} from ${plural(b.files, 'file')} (${formatBytes(b.bytes)}, ${plural(b.records, 'record')})`);
  const skipped = g.skippedLines + b.skippedLines;
  if (skipped > 0) {
    out.push(c.yellow(`  skipped ${plural(skipped, 'line')} that ${skipped === 1 ? 'was not a record' : 'were not records'} (good ${g.skippedLines}, bad ${b.skippedLines}), e.g.:`));
    for (const ex of [...g.skippedExamples, ...b.skippedExamples].slice(0, 3)) out.push(c.yellow(`    ${esc(ex)}`));
  }
  const metricNames = [a.metric.event !== null ? `${esc(a.metric.event)} (events)` : null, a.metric.state !== null ? `${esc(a.metric.state)} (states)` : null].filter(Boolean);
  out.push(`  performance metric P: ${metricNames.join(', ') || 'none'}`);
  for (const w of a.warnings) out.push(c.yellow(`  note: ${esc(w)}`));
  out.push('');

  if (a.heavyTail?.detected) {
    const h = a.heavyTail;
    out.push(c.red.bold(`HEAVY TAIL: ${(h.fraction * 100).toFixed(1)}% of instances have ${esc(h.variable)} outside mean ± 3σ (a normal distribution puts 0.27% there).`));
    out.push(c.red(a.weighting.applied
      ? `  Instances re-weighted by ⌊2^(P/${formatValue(a.weighting.half as number)})⌋ so the tail counts.`
      : '  The slow tail may be the problem: rerun with --weight auto to give it weight.'));
    out.push('');
  }

  out.push(...renderVerdict(a, c));
  out.push(...renderMetric(a, c));
  const significant = a.tests.filter((t) => t.significant).length;
  const rule = a.correction === 'bonferroni'
    ? `α = ${a.alpha} / ${a.hypotheses} = ${formatP(a.alpha / Math.max(1, a.hypotheses), Math.log10(a.alpha / Math.max(1, a.hypotheses)))}`
    : `α = ${a.alpha}`;
  out.push(c.bold(`Divergent variables`) + c.dim(` — ${plural(a.performed, 'test')} (${a.hypotheses} distinct), ${CORRECTION_NAMES[a.correction]} ${rule}: ${significant} significant`));
  // P is shown above as the headline; the list is of candidate causes.
  const candidates = a.ranking.filter((r) => !isMetric(a, r.kind, r.variable));
  if (candidates.length === 0) {
    out.push(a.ranking.length === 0
      ? '  No feature differs significantly between the two classes.'
      : '  Only the metric P itself differs significantly; no other feature does.');
  } else {
    const shown = candidates.slice(0, options.limit);
    const width = Math.min(40, Math.max(8, ...shown.map((r) => esc(r.variable).length)));
    const aliases = new Set(a.verdict.aliases.map((x) => `${x.kind}\u0000${x.variable}`));
    shown.forEach((r, i) => {
      const name = esc(r.variable).padEnd(width);
      const marks = [r.presence !== 'both' ? r.presence : '', aliases.has(`${r.kind}\u0000${r.variable}`) ? 'alias of P' : ''].filter(Boolean);
      out.push(`  ${String(i + 1).padStart(2)}. ${c.bold(name)} ${r.kind.padEnd(5)} Σ|z| ${formatStat(r.score, false).padStart(7)}${marks.length > 0 ? c.yellow(`  (${marks.join(', ')})`) : ''}`);
      for (const t of r.features.slice(0, 3)) out.push(`        ${describeTest(t, c)}`);
      if (r.features.length > 3) out.push(c.dim(`        … and ${r.features.length - 3} more significant feature(s)`));
    });
    if (candidates.length > shown.length) out.push(c.dim(`  … ${candidates.length - shown.length} more (--limit, or --json / --tsv)`));
  }
  out.push('');

  out.push(c.bold('Where to look') + c.dim(' — the divergent variables most connected to P (attention focusing)'));
  if (a.graphs.length === 0) out.push('  No graphs: no log kind has a performance metric.');
  for (const graph of a.graphs) out.push(...renderGraph(graph, a, c));
  return `${out.join('\n')}\n`;
}

/** The verdict (SPEC §6): one sentence, then the next candidate causes and the aliases of P. */
function renderVerdict(a: Analysis, c: InstanceType<typeof Chalk>): string[] {
  const v = a.verdict;
  const out = [c.bold('Verdict: ') + esc(verdictSentence(v))];
  if (v.components.length > 1) {
    const significant = v.causes.filter((x) => x.source !== 'weak' && !x.negligible).length;
    out.push(c.dim(`  components: ${v.components.slice(0, 3).map((x) => esc(componentLine(x, significant))).join('; ')}${v.components.length > 3 ? `; ${v.components.length - 3} more` : ''}`));
  }
  const more = v.causes.slice(1, 5);
  const label = (x: (typeof more)[number]): string => `${x.kind} ${x.feature}${x.source === 'weak' ? ', not significant' : x.negligible ? `, under ${NEGLIGIBLE_SHARE * 100}% of a run` : ''}`;
  if (more.length > 0) out.push(c.dim(`  next candidates: ${more.map((x) => `${esc(x.variable)} (${label(x)})`).join(', ')}`));
  if (v.aliases.length > 0) {
    out.push(c.dim(`  P under other names (aliases, not causes): ${v.aliases.slice(0, 5).map((x) => esc(x.variable)).join(', ')}${v.aliases.length > 5 ? ` and ${v.aliases.length - 5} more` : ''}`));
  }
  if (a.kinds !== null) out.push(c.dim(`  compared within ${plural(a.kinds.length, 'instance kind')} (--kinds off pools them)`));
  const inflated = a.inflation.filter((f) => f.applied).sort((x, y) => y.lambda - x.lambda);
  if (inflated.length > 0) {
    const shown = inflated.slice(0, 3).map((f) => `${f.source === 'log' ? '' : `${f.source} `}${f.kind} ${f.feature} λ ${formatValue(f.lambda)}`).join(', ');
    out.push(c.dim(`  ${plural(inflated.length, 'feature type')} diverged as a whole (${shown}${inflated.length > 3 ? ', …' : ''}): deflated by √λ before the correction (--inflation off tests them as they are)`));
  }
  out.push('');
  return out;
}

function isMetric(a: Analysis, kind: 'event' | 'state', variable: string): boolean {
  return variable === (kind === 'event' ? a.metric.event : a.metric.state);
}

/**
 * The headline: how P differs between the classes, from its strongest test per
 * kind (for the built-in duration every feature type holds D, so one line does).
 */
function renderMetric(a: Analysis, c: InstanceType<typeof Chalk>): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const kind of ['event', 'state'] as const) {
    const name = kind === 'event' ? a.metric.event : a.metric.state;
    if (name === null) continue;
    const tests = a.tests.filter((t) => t.kind === kind && t.variable === name);
    if (tests.length === 0) continue;
    const best = tests.reduce((x, y) => (Math.abs(y.t) > Math.abs(x.t) ? y : x));
    const key = `${name}\t${best.meanGood}\t${best.meanBad}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const verdict = !best.significant ? c.green('no significant difference')
      : best.t > 0 ? c.red('larger in bad') : c.yellow('smaller in bad');
    const what = tests.length > 1 && new Set(tests.map((t) => t.meanBad)).size > 1 ? `${esc(name)} ${best.feature} (${kind})` : esc(name);
    lines.push(`${c.bold('Performance metric')} ${what}: good ${formatValue(best.meanGood)} → bad ${formatValue(best.meanBad)}, ` +
      `t ${formatStat(best.t)}, p ${formatP(best.p, best.log10p)} — ${verdict}`);
  }
  if (lines.length > 0) lines.push('');
  return lines;
}

const METHOD_NOTES: Partial<Record<TestResult['method'], string>> = {
  prediction: 'prediction test: a class has 1–2 values',
  kinds: 'within kinds',
  'mantel-haenszel': 'Mantel–Haenszel over kinds',
  'g-test': 'G-test',
};

function describeTest(t: TestResult, c: InstanceType<typeof Chalk>): string {
  const note = METHOD_NOTES[t.method];
  if (t.feature === 'occurrence') {
    const pct = (x: number): string => `${formatValue(x * 100)}%`;
    return `${t.feature.padEnd(10)} z ${formatStat(t.z).padStart(7)}  p ${formatP(t.p, t.log10p).padEnd(8)}  ` +
      `in ${pct(t.meanGood)} of good → ${pct(t.meanBad)} of bad  ${c.dim(`h ${formatStat(t.effectSize)}${note !== undefined ? `, ${note}` : ''}`)}`;
  }
  return `${t.feature.padEnd(10)} t ${formatStat(t.t).padStart(7)}  p ${formatP(t.p, t.log10p).padEnd(8)}  ` +
    `good ${formatValue(t.meanGood)} → bad ${formatValue(t.meanBad)}  ${c.dim(`g ${formatStat(t.effectSize)}${note !== undefined ? `, ${note}` : ''}`)}`;
}

function renderGraph(g: AttentionGraph, a: Analysis, c: InstanceType<typeof Chalk>): string[] {
  const out: string[] = [];
  const metric = g.nodes.find((n) => n.metric);
  if (g.nodes.length <= 1 || metric === undefined) {
    out.push(`  ${c.bold(g.kind === 'event' ? 'Events' : 'States')}: no divergent dependency found (P has no significant neighbour, ${g.className} class)`);
    const n = g.className === 'both' ? a.classes.good.instances + a.classes.bad.instances : a.classes[g.className].instances;
    if (n < FEW_INSTANCES && a.tests.some((t) => t.significant && t.kind === g.kind)) {
      out.push(c.yellow(`    with ${n} instances a regression-tree split can hardly be significant: rely on the ranking above, or compare more instances`));
    }
    return out;
  }
  const types = g.features.length > 1 ? `${g.feature} (same graph: ${g.features.filter((f) => f !== g.feature).join(', ')})` : g.feature;
  out.push(`  ${c.bold(g.kind === 'event' ? 'Events' : 'States')}, feature ${c.bold(types)}, ${g.className} class: score ${formatStat(g.score, false)}`);
  // Draw the tree from P outward; edges are undirected for layout, arrows show happens-before.
  const adjacent = new Map<string, { other: string; weight: number; arrow: string }[]>();
  for (const e of g.edges) {
    const arrowFromTo = e.directed ? '→' : '—';
    (adjacent.get(e.from) ?? adjacent.set(e.from, []).get(e.from))!.push({ other: e.to, weight: e.weight, arrow: e.directed ? `${arrowFromTo} after` : '—' });
    (adjacent.get(e.to) ?? adjacent.set(e.to, []).get(e.to))!.push({ other: e.from, weight: e.weight, arrow: e.directed ? '← before' : '—' });
  }
  const byName = new Map(g.nodes.map((n) => [n.variable, n]));
  const label = (name: string): string => {
    const n = byName.get(name);
    if (n === undefined) return esc(name);
    const t = Number.isNaN(n.t) ? '' : ` t ${formatStat(n.t)}`;
    return n.metric ? c.cyan.bold(`${esc(name)} (P)`) + c.dim(t) : (n.significant ? c.bold(esc(name)) : esc(name)) + c.dim(t);
  };
  out.push(`    ${label(metric.variable)}`);
  // Depth-first with an explicit stack: each node's line is printed when it is
  // popped, so a child's subtree follows it directly, before its next sibling.
  const seen = new Set([metric.variable]);
  type Pending = { name: string; prefix: string; last: boolean; weight: number; arrow: string };
  const stack: Pending[] = [];
  const pushChildren = (name: string, prefix: string): void => {
    const children = (adjacent.get(name) ?? []).filter((x) => !seen.has(x.other)).sort((x, y) => y.weight - x.weight || (x.other < y.other ? -1 : 1));
    for (const child of children) seen.add(child.other);
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i]!;
      stack.push({ name: child.other, prefix, last: i === children.length - 1, weight: child.weight, arrow: child.arrow });
    }
  };
  pushChildren(metric.variable, '    ');
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(`${node.prefix}${node.last ? '└─' : '├─'} ${label(node.name)}  ${c.dim(`weight ${node.weight.toFixed(2)}${node.arrow === '—' ? '' : `, happens ${node.arrow.slice(2)} its parent`}`)}`);
    pushChildren(node.name, `${node.prefix}${node.last ? '   ' : '│  '}`);
  }
  if (g.omitted > 0) out.push(c.dim(`    (${g.omitted} more node(s) left out; --max-nodes shows more)`));
  return out;
}
