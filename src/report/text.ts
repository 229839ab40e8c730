import { Chalk } from 'chalk';
import type { Analysis } from '../analysis.js';
import type { AttentionGraph } from '../attention/types.js';
import type { TestResult } from '../ttest/types.js';
import { escapeTerminal as esc, formatBytes, formatP, formatStat, formatValue, plural } from './format.js';
import { causeStanding, componentsText, featureChange, verdictSentence } from './verdict.js';
import { supportingGraph, supportNote } from './support.js';

export interface TextOptions {
  readonly color: boolean;
  /** How many ranked variables to list. */
  readonly limit: number;
  /** Which list comes first: the verdict's causes (default) or the divergence ranking (`--sort divergence`). */
  readonly sort?: 'cause' | 'divergence';
}

/** Below this many instances in the searched class, dependency networks rarely find anything. */
const FEW_INSTANCES = 15;

const CORRECTION_NAMES = { bonferroni: 'Bonferroni', holm: 'Holm', bh: 'Benjamini–Hochberg', none: 'no correction' } as const;

/**
 * The terminal report (SPEC §6): heavy tail first, then the verdict, the
 * causes in its order, the graphs that support it, and last the ranking by
 * divergence alone.
 */
export function renderText(a: Analysis, options: TextOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const out: string[] = [];
  const g = a.classes.good;
  const b = a.classes.bad;
  out.push(c.bold(`distalyze ${a.tool.version}`));
  // Records and no file: the features were computed in a database (src/clickhouse), its bytes those sent back.
  const from = (s: typeof g): string => (s.files === 0 && s.records > 0 ? `a table (${formatBytes(s.bytes)} sent back` : `${plural(s.files, 'file')} (${formatBytes(s.bytes)}`);
  out.push(`  good: ${plural(g.instances, 'instance')} from ${from(g)}, ${plural(g.records, 'record')})`);
  out.push(`  bad:  ${plural(b.instances, 'instance')} from ${from(b)}, ${plural(b.records, 'record')})`);
  const skipped = g.skippedLines + b.skippedLines;
  if (skipped > 0) {
    out.push(c.yellow(`  skipped ${plural(skipped, 'line')} that ${skipped === 1 ? 'was not a record' : 'were not records'} (good ${g.skippedLines}, bad ${b.skippedLines}), e.g.:`));
    for (const ex of [...g.skippedExamples, ...b.skippedExamples].slice(0, 3)) out.push(c.yellow(`    ${esc(ex)}`));
  }
  const metricNames = [a.metric.event !== null ? `${esc(a.metric.event)} (events)` : null, a.metric.state !== null ? `${esc(a.metric.state)} (states)` : null].filter(Boolean);
  out.push(`  performance metric P: ${metricNames.join(', ') || 'none'}`);
  if (a.windows !== undefined && a.windows !== null) {
    out.push(a.windows.calibrated
      ? `  windows: ${a.windows.good} good, ${a.windows.bad} bad: each test also against the spread between the good windows`
      : `  windows: ${a.windows.good} good, ${a.windows.bad} bad: too few good windows to calibrate against`);
  }
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
  const causes = renderCauses(a, c, options.limit);
  const divergence = renderDivergence(a, c, options.limit);
  const look = [c.bold('Where to look') + c.dim(' — how the causes are tied to P: its dependency graph, significant variables and their paths to P'),
    ...(a.graphs.length === 0 ? ['  No graphs: no log kind has a performance metric.'] : a.graphs.flatMap((graph) => renderGraph(graph, a, c))), ''];
  out.push(...(options.sort === 'divergence' ? [...divergence, ...causes, ...look] : [...causes, ...look, ...divergence]));
  while (out[out.length - 1] === '') out.pop();
  return `${out.join('\n')}\n`;
}

/**
 * The first list: the verdict's candidate causes in its order, each with its
 * one change in its own units, its z, and its standing — tied to P's change, or
 * a herring (changed, but not tied to it), or not significant.
 */
function renderCauses(a: Analysis, c: InstanceType<typeof Chalk>, limit: number): string[] {
  const v = a.verdict;
  const out = [c.bold('What changed, the cause first') + c.dim(' — the verdict\'s candidates; a herring changed but is not tied to P in the dependency graphs')];
  if (v.causes.length === 0) {
    out.push(a.ranking.length === 0
      ? '  No feature differs significantly between the two classes.'
      : '  Only the metric P itself differs significantly; no other feature does.');
  }
  const shown = v.causes.slice(0, limit);
  const rows = shown.map((x) => {
    const standing = causeStanding(x, v, a);
    const presence = x.presence !== 'both' ? `${x.presence}, ` : '';
    return {
      name: esc(x.variable), kind: x.kind, feature: x.feature, change: esc(featureChange(x.kind, x.feature, x.meanGood, x.meanBad)),
      z: `z ${formatStat(x.z)}`, role: standing.role,
      words: esc(`${presence}${standing.role === 'cause' || standing.role === 'herring' ? `${standing.role}: ` : ''}${standing.words}`),
    };
  });
  const width = (f: (r: (typeof rows)[number]) => string, max: number): number => Math.min(max, Math.max(0, ...rows.map((r) => f(r).length)));
  const [wName, wFeature, wChange, wZ] = [width((r) => r.name, 40), width((r) => r.feature, 12), width((r) => r.change, 40), width((r) => r.z, 9)];
  rows.forEach((r, i) => {
    const words = r.role === 'cause' ? c.green(r.words) : r.role === 'herring' ? c.yellow(r.words) : c.dim(r.words);
    out.push(`  ${String(i + 1).padStart(2)}. ${c.bold(r.name.padEnd(wName))} ${r.kind.padEnd(5)} ${r.feature.padEnd(wFeature)} ${r.change.padEnd(wChange)} ${r.z.padEnd(wZ)} ${words}`);
  });
  if (v.causes.length > shown.length) out.push(c.dim(`  … ${v.causes.length - shown.length} more (--limit, or --json)`));
  if (v.aliases.length > 0) {
    out.push(c.dim(`  P under other names (aliases, not causes): ${v.aliases.slice(0, 5).map((x) => esc(x.variable)).join(', ')}${v.aliases.length > 5 ? ` and ${v.aliases.length - 5} more` : ''}`));
  }
  out.push('');
  return out;
}

/**
 * The second table: every significant variable by divergence alone (Σ|z| over
 * its significant features, SPEC §3), tied to P or not. Features of one
 * variable with identical results (an event's first/median/last.abs when it
 * occurs once) are one line.
 */
function renderDivergence(a: Analysis, c: InstanceType<typeof Chalk>, limit: number): string[] {
  const out: string[] = [];
  const significant = a.tests.filter((t) => t.significant).length;
  const bonferroni = (m: number): string => `α = ${a.alpha} / ${m} = ${formatP(a.alpha / Math.max(1, m), Math.log10(a.alpha / Math.max(1, m)))}`;
  // Each source is its own family (docs/calibration.md): its own m.
  const rule = a.correction !== 'bonferroni' ? `α = ${a.alpha}`
    : (a.families?.length ?? 0) > 1 ? `per source, ${(a.families ?? []).map((f) => `${f.source} ${bonferroni(f.hypotheses)}`).join(', ')}`
    : bonferroni(a.hypotheses);
  out.push(c.bold('Divergence alone') + c.dim(` — every significant variable by Σ|z|, tied to P or not; ${plural(a.performed, 'test')} (${a.hypotheses} distinct), ${CORRECTION_NAMES[a.correction]} ${rule}: ${significant} significant`));
  // P is shown in the verdict; the list is of candidate causes.
  const candidates = a.ranking.filter((r) => !isMetric(a, r.kind, r.variable));
  if (candidates.length === 0) {
    out.push(a.ranking.length === 0
      ? '  No feature differs significantly between the two classes.'
      : '  Only the metric P itself differs significantly; no other feature does.');
  } else {
    const roles = new Map(a.verdict.causes.map((x) => [`${x.kind}\u0000${x.variable}`, causeStanding(x, a.verdict, a).role]));
    const shown = candidates.slice(0, limit);
    const width = Math.min(40, Math.max(8, ...shown.map((r) => esc(r.variable).length)));
    const aliases = new Set(a.verdict.aliases.map((x) => `${x.kind}\u0000${x.variable}`));
    shown.forEach((r, i) => {
      const key = `${r.kind}\u0000${r.variable}`;
      const role = roles.get(key);
      const marks = [r.presence !== 'both' ? r.presence : '', aliases.has(key) ? 'alias of P' : '', role === 'cause' ? 'cause' : role === 'herring' ? 'herring' : ''].filter(Boolean);
      out.push(`  ${String(i + 1).padStart(2)}. ${c.bold(esc(r.variable).padEnd(width))} ${r.kind.padEnd(5)} Σ|z| ${formatStat(r.score, false).padStart(7)}${marks.length > 0 ? c.yellow(`  (${marks.join(', ')})`) : ''}`);
      const groups = sameResults(r.features);
      for (const g of groups.slice(0, 3)) out.push(`        ${describeTest(g, c)}`);
      if (groups.length > 3) out.push(c.dim(`        … and ${groups.length - 3} more significant feature(s)`));
    });
    if (candidates.length > shown.length) out.push(c.dim(`  … ${candidates.length - shown.length} more (--limit, or --json / --tsv)`));
  }
  out.push('');
  return out;
}

/** Features of one variable whose results are identical in every number, as one group named by all of them. */
function sameResults(tests: readonly TestResult[]): { names: string[]; t: TestResult }[] {
  const groups = new Map<string, { names: string[]; t: TestResult }>();
  for (const t of tests) {
    const key = [t.method, t.t, t.p, t.log10p, t.meanGood, t.meanBad, t.nGood, t.nBad].join('\t');
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { names: [t.feature], t });
    else g.names.push(t.feature);
  }
  return [...groups.values()];
}

/** The verdict (SPEC §6): one sentence, then how the instances were compared. */
function renderVerdict(a: Analysis, c: InstanceType<typeof Chalk>): string[] {
  const v = a.verdict;
  const out = [c.bold('Verdict: ') + esc(verdictSentence(v, a))];
  const components = componentsText(v, 3);
  if (components !== null) out.push(c.dim(`  ${esc(components)}`));
  if (a.kinds !== null) out.push(c.dim(`  compared within ${plural(a.kinds.length, 'instance kind')} (--kinds off pools them)`));
  const inflated = a.inflation.filter((f) => f.applied).sort((x, y) => y.lambda - x.lambda);
  if (inflated.length > 0) {
    const shown = inflated.slice(0, 3).map((f) => `${f.source === 'log' ? '' : `${f.source} `}${f.kind} ${f.feature} λ ${formatValue(f.lambda)}`).join(', ');
    out.push(c.dim(`  ${plural(inflated.length, 'feature type')} diverged as a whole (${shown}${inflated.length > 3 ? ', …' : ''}): each feature counts only by how much more it moved than the rest of its type (--inflation off tests them as they are)`));
  }
  out.push('');
  return out;
}

function isMetric(a: Analysis, kind: 'event' | 'state', variable: string): boolean {
  return variable === (kind === 'event' ? a.metric.event : a.metric.state);
}

const METHOD_NOTES: Partial<Record<TestResult['method'], string>> = {
  prediction: 'prediction test: a class has 1–2 values',
  kinds: 'within kinds',
  'mantel-haenszel': 'Mantel–Haenszel over kinds',
  'g-test': 'G-test',
};

function describeTest(group: { names: readonly string[]; t: TestResult }, c: InstanceType<typeof Chalk>): string {
  const t = group.t;
  const note = METHOD_NOTES[t.method];
  const name = group.names.join(' = ');
  return `${name.padEnd(10)} ${featureChange(t.kind, t.feature, t.meanGood, t.meanBad)}  z ${formatStat(t.z)}  p ${formatP(t.p, t.log10p)}${note !== undefined ? c.dim(`  ${note}`) : ''}`;
}

function renderGraph(whole: AttentionGraph, a: Analysis, c: InstanceType<typeof Chalk>): string[] {
  const out: string[] = [];
  const support = supportingGraph(whole);
  const g = support.graph;
  const metric = g.nodes.find((n) => n.metric);
  if ((g.nodes.length <= 1 && support.cut === 0) || metric === undefined) {
    out.push(`  ${c.bold(g.kind === 'event' ? 'Events' : 'States')}: no divergent dependency found (P has no significant neighbour, ${g.className} class)`);
    const n = g.className === 'both' ? a.classes.good.instances + a.classes.bad.instances : a.classes[g.className].instances;
    if (n < FEW_INSTANCES && a.tests.some((t) => t.significant && t.kind === g.kind)) {
      out.push(c.yellow(`    with ${n} instances a regression-tree split can hardly be significant: rely on the lists above, or compare more instances`));
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
  // One statistic per node, as in the lists: z of the graph's feature.
  const zOf = new Map(a.tests.filter((t) => t.kind === g.kind && t.feature === g.feature).map((t) => [t.variable, t.z]));
  const label = (name: string): string => {
    const n = byName.get(name);
    if (n === undefined) return esc(name);
    const z = zOf.get(name);
    const stat = z === undefined || Number.isNaN(z) ? '' : ` z ${formatStat(z)}`;
    return n.metric ? c.cyan.bold(`${esc(name)} (P)`) + c.dim(stat) : (n.significant ? c.bold(esc(name)) : `${esc(name)} (not significant)`) + c.dim(stat);
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
  const note = supportNote(support);
  if (note !== null) out.push(c.dim(`    (${note})`));
  return out;
}
