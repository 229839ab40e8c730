import { verdictSentence } from '../report/verdict.js';
import { renderJsonValue } from '../report/json.js';
import { escapeTerminal, formatValue, plural } from '../report/format.js';
import type { Comparison, DetectedChange, History } from './index.js';
import { skippedJson, skippedText } from '../check/skipped.js';

const STATISTIC_WORDS = { mean: 'mean', sd: 'variance (sd)', correlation: 'correlation with P' } as const;

/**
 * The before/after comparison's verdict: the same sentence the two-set
 * analysis prints (SPEC §6) — unless P changed its spread and not its mean:
 * a comparison of means has nothing to say about that, so the line says what
 * changed and which series changed with it.
 */
export function comparisonVerdict(h: History, c: Comparison): string {
  const v = c.analysis.verdict;
  const here = h.changes.filter((x) => x.run === c.run);
  const spread = here.find((x) => x.metric && x.statistic === 'sd');
  if (spread !== undefined && !here.some((x) => x.metric && x.statistic === 'mean') && v.metric !== null && !v.metric.significant) {
    const aliases = new Set(v.aliases.map((x) => `${x.kind}\u0000${x.variable}`));
    const others = [...new Set(here.filter((x) => !x.metric && !aliases.has(`${x.kind}\u0000${x.variable}`)).map((x) => x.variable))];
    const m = v.metric;
    return `${h.metric.variable} changed its spread, not its mean: sd ${formatValue(spread.before)} → ${formatValue(spread.after)} (p ${pText(spread.p)}); ` +
      `mean ${formatValue(m.meanGood)} → ${formatValue(m.meanBad)} (p ${pText(m.p)}), so a comparison of means names no cause` +
      `${others.length > 0 ? `; changed with it: ${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}` : ''}.`;
  }
  return verdictSentence(v, c.analysis);
}

function pText(p: number): string {
  return p < 1e-4 ? p.toExponential(1) : p.toPrecision(2);
}

/**
 * The series that changed at one event, those with identical numbers (an
 * event's first/median/last.abs when it occurs once) as one line.
 */
function groupedChanges(here: readonly DetectedChange[]): { names: string[]; c: DetectedChange }[] {
  const groups = new Map<string, { names: string[]; c: DetectedChange }>();
  for (const x of here) {
    const key = [x.kind, x.variable, x.statistic, x.metric, x.p, x.before, x.after].join('\t');
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { names: [x.feature], c: x });
    else g.names.push(x.feature);
  }
  return [...groups.values()];
}

export function changeLine(h: History, c: DetectedChange, features: readonly string[] = [c.feature]): string {
  const what = c.metric ? `P = ${c.variable}` : `${c.variable} ${features.join(' = ')}`;
  return `${what}: ${STATISTIC_WORDS[c.statistic]} ${formatValue(c.before)} → ${formatValue(c.after)} (p ${pText(c.p)})`;
}

export function renderHistoryText(h: History): string {
  const out: string[] = [];
  const instances = h.runs.reduce((s, r) => s + r.instances, 0);
  out.push(`history: ${plural(h.runs.length, 'run')} (${h.runs[0]?.name ?? ''} … ${h.runs[h.runs.length - 1]?.name ?? ''}), ${plural(instances, 'instance')}; P = ${h.metric.variable}`);
  const others = h.seriesTested - h.metricSeries;
  const needs = [
    ...(h.metricSeries > 0 ? [`p < ${h.alpha}/${h.metricSeries} in P's own ${plural(h.metricSeries, 'series', 'series')}`] : []),
    ...(others > 0 ? [`p < ${h.alpha}/${others} in the ${plural(others, 'other', 'others')}`] : []),
  ];
  out.push(h.seriesTested === 0 ? 'searched no series: none varies from run to run'
    : `searched ${h.seriesTested} distinct series (mean, variance, correlation with P per feature); a change needs ${needs.join(', ')}`);
  out.push(...reachText(h));
  if (h.ignored.length > 0) out.push(`ignored (--ignore): ${h.ignored.map(escapeTerminal).join(', ')}`);
  out.push(...skippedText(h.skipped, []));
  if (h.changes.length === 0) out.push('no change found');
  for (const c of h.comparisons) {
    const here = h.changes.filter((x) => x.run === c.run);
    out.push('');
    const groups = groupedChanges(here);
    out.push(`change at run ${escapeTerminal(h.runs[c.run]!.name)} (#${c.run + 1}): ${`${here.length} series`}`);
    for (const g of groups.slice(0, 8)) out.push(`  ${escapeTerminal(changeLine(h, g.c, g.names))}`);
    if (groups.length > 8) out.push(`  … and ${groups.length - 8} more (see --json)`);
    out.push(`  runs ${escapeTerminal(h.runs[c.before[0]]!.name)}…${escapeTerminal(h.runs[c.before[1] - 1]!.name)} against ${escapeTerminal(h.runs[c.after[0]]!.name)}…${escapeTerminal(h.runs[c.after[1] - 1]!.name)}: ${escapeTerminal(comparisonVerdict(h, c))}`);
  }
  if (h.drifts.length > 0) {
    const vars = [...new Set(h.drifts.map((d) => `${d.variable} (${d.direction})`))];
    out.push('');
    out.push(`changing in every run (a counter or a steady trend, not a change point): ${vars.map(escapeTerminal).join(', ')}`);
  }
  return `${out.join('\n')}\n`;
}

/** What the history can detect, when a family's threshold is out of its reach (History.reach). */
export function reachText(h: History): string[] {
  const n = h.runs.length;
  const line = (what: string, threshold: number, needed: number): string =>
    `with ${n} runs no change ${what}can reach p < ${+threshold.toPrecision(2)} (at best p ${+h.reach.smallestP.toPrecision(2)}, a clean step halfway); at least ${needed} runs are needed`;
  const out: string[] = [];
  if (h.reach.metricRunsNeeded !== null) out.push(line('', h.metricThreshold, h.reach.metricRunsNeeded));
  if (h.reach.runsNeeded !== null && h.seriesTested > h.metricSeries) out.push(line(h.reach.metricRunsNeeded !== null ? 'of the other series ' : 'of the series other than P\'s ', h.threshold, h.reach.runsNeeded));
  return out;
}

/** Everything as JSON; numbers as numbers (non-finite → null), run indices 0-based beside the run names. */
export function renderHistoryJson(h: History): string {
  const doc = {
    runs: h.runs,
    metric: h.metric,
    alpha: h.alpha,
    seriesTested: h.seriesTested,
    metricSeries: h.metricSeries,
    metricThreshold: h.metricThreshold,
    threshold: h.threshold,
    reach: h.reach,
    ignored: h.ignored,
    skippedLines: { lines: h.skipped.reduce((n, s) => n + s.lines, 0), runs: skippedJson(h.skipped) },
    changes: h.changes.map((c) => ({
      run: c.run, runName: h.runs[c.run]!.name, kind: c.kind, variable: c.variable, feature: c.feature,
      statistic: c.statistic, metric: c.metric, p: c.p, before: num(c.before), after: num(c.after), event: c.event,
    })),
    events: h.events.map((e) => ({ ...e, runName: h.runs[e.run]!.name })),
    drifts: h.drifts,
    comparisons: h.comparisons.map((c) => ({
      run: c.run, runName: h.runs[c.run]!.name,
      before: { from: h.runs[c.before[0]]!.name, to: h.runs[c.before[1] - 1]!.name },
      after: { from: h.runs[c.after[0]]!.name, to: h.runs[c.after[1] - 1]!.name },
      metricBefore: num(c.metricBefore), metricAfter: num(c.metricAfter),
      verdict: comparisonVerdict(h, c),
      analysis: renderJsonValue(c.analysis),
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function num(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}
