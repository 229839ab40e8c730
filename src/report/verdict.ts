/**
 * The verdict as one plain sentence with numbers (SPEC §6): the same words in
 * text, JSON, HTML, `history` and `check`. P in plain words (which instances,
 * how much slower, the test that says so), then the top cause, then where the
 * time went, naming the component when the top cause's is the top one. Also the words every renderer uses for a cause's standing, so the
 * first list, the graph, the HTML and the CI annotations tell one story.
 */
import { TOP_CAUSES, type ComponentSummary } from '../attention/components.js';
import { NEGLIGIBLE_SHARE, type Verdict, type VerdictCause, type VerdictMetric } from '../attention/verdict.js';
import type { AttentionGraph } from '../attention/types.js';
import { isTimeFeature, type FeatureType, type LogKind } from '../features/types.js';
import type { TestResult } from '../ttest/types.js';
import { formatP, formatStat, formatValue } from './format.js';

/** What the sentence may look up beyond the verdict: P's test (its kind, its method) and the graphs (a cause's distance from P). */
export interface SentenceContext {
  readonly tests?: readonly TestResult[];
  readonly graphs?: readonly AttentionGraph[];
}

/** How many of the verdict's causes are significant and not negligible: what a component's share of the top causes counts in. */
function significantCauses(v: Verdict): number {
  return v.causes.filter((c) => c.source !== 'weak' && !c.negligible).length;
}

/**
 * The components ranked, the first `limit` of them (`components: db: 2 of the top 5 causes, 80% of the added time;
 * report: …`), as the text report and the HTML show it under the verdict; null when variables name fewer than two.
 */
export function componentsText(v: Verdict, limit: number): string | null {
  if (v.components.length <= 1) return null;
  const significant = significantCauses(v);
  const more = v.components.length > limit ? `; ${v.components.length - limit} more` : '';
  return `components: ${v.components.slice(0, limit).map((x) => componentLine(x, significant)).join('; ')}${more}`;
}

/** The component line: `ts-food-service: 4 of the top 5 causes, 62% of the added time` (`payment: times ×10.1, 1 of the top 4 causes` where ranked by timeGrowth). */
export function componentLine(c: ComponentSummary, significant: number): string {
  const of = Math.min(TOP_CAUSES, significant);
  const parts = [of <= 1 ? 'the top cause' : `${c.topCauses} of the top ${of} causes`];
  // Ranked by it where every instance holds one component (timeGrowth): said first, as the reason of the order.
  if (c.growth !== undefined && c.growth > 0) parts.unshift(`times ×${formatStat(c.growth, false)}`);
  if (c.share !== null && c.share >= 0.005) parts.push(`${Math.round(c.share * 100)}% of the added time`);
  return `${c.component}: ${parts.join(', ')}`;
}

export function verdictSentence(v: Verdict, context: SentenceContext = {}): string {
  const parts: string[] = [];
  const metric = v.metric;
  const top = v.causes[0] ?? null;
  if (metric !== null) parts.push(metricSentence(metric, context.tests));
  const describe = (c: VerdictCause): string => describeCause(c, v, context);
  const first = v.components[0];
  const component = first !== undefined && top !== null && first.topCause === top.variable ? componentLine(first, significantCauses(v)) : null;
  if (top !== null && top.source !== 'weak' && !top.negligible) {
    if (component !== null) parts.push(`Top component: ${component}.`);
    parts.push(`Top cause: ${top.variable} (${describe(top)}).`);
  } else if (top !== null && top.negligible) {
    parts.push(`Only times that differ by less than ${NEGLIGIBLE_SHARE * 100}% of a run differ significantly, e.g. ${top.variable} (${describe(top)}).`);
  } else if (!v.anySignificant) {
    parts.push('No feature differs significantly between the two classes.');
    if (top !== null) parts.push(`The strongest divergence, not significant: ${top.variable} (${describe(top)}).`);
  } else {
    parts.push('Only the metric P itself (or a name for it) differs significantly.');
    if (top !== null) parts.push(`The strongest other divergence, not significant: ${top.variable} (${describe(top)}).`);
  }
  const modes = modesText(v);
  if (modes !== null) parts.push(modes);
  const shares = timeSharesText(v);
  if (shares !== null) parts.push(`Where the time went: ${shares}.`);
  return parts.join(' ');
}

/** Bad's two modes of P, each with its cause (`Bad's duration has two modes: 36 instances at 0.46 s, top cause …; 84 at …`); null with one mode. */
export function modesText(v: Verdict): string | null {
  const m = v.metric;
  if (v.modes.length < 2 || m === null) return null;
  const unit = (x: number): string => (metricIsTime(m) ? `${formatValue(x)} s` : formatValue(x));
  const describe = (c: VerdictCause): string => `${c.kind} ${c.feature} ${featureChange(c.kind, c.feature, c.meanGood, c.meanBad)}, z ${formatStat(c.z)}`;
  const items = v.modes.map((x, i) => `${x.instances}${i === 0 ? ' instances' : ''} at ${unit(x.meanP)}, ${x.cause === null ? 'no significant cause' : `top cause ${x.cause.variable} (${describe(x.cause)})`}`);
  return `Bad's ${m.variable} has two modes, each compared with good: ${items.join('; ')}.`;
}

/** Whether P is a time (the built-in duration, or a named event metric's `last.abs`): then "slower", in seconds. */
function metricIsTime(m: Pick<VerdictMetric, 'variable' | 'feature'>): boolean {
  return m.variable === 'duration' || m.feature === 'last.abs';
}

/**
 * P in plain words: whose P (the instance kind its test was decided in, when
 * compared within kinds), from what to what, how much slower, and the test.
 */
function metricSentence(m: VerdictMetric, tests: readonly TestResult[] | undefined): string {
  const isTime = metricIsTime(m);
  const unit = (x: number): string => (isTime ? `${formatValue(x)} s` : formatValue(x));
  const { test, instanceKind } = metricTest(m, tests);
  const stratum = instanceKind === null ? undefined : { kind: instanceKind };
  const whose = stratum !== undefined ? ` of ${stratum.kind} instances` : '';
  const how = m.difference > 0 ? (isTime ? 'slower' : 'higher') : m.difference < 0 ? (isTime ? 'faster' : 'lower') : 'the same';
  const rel = Number.isFinite(m.relative) && m.difference !== 0 ? `${formatValue(Math.abs(m.relative) * 100)}% ${how}` : how;
  const added = m.difference !== 0 && Number.isFinite(m.difference) ? ` (${m.difference > 0 ? '+' : '−'}${unit(Math.abs(m.difference))})` : '';
  const testName = test === undefined ? 'p' : `${testWords(test, stratum?.kind)}, p`;
  const change = `${unit(m.meanGood)} → ${unit(m.meanBad)}, ${rel}${added}; ${testName} ${formatP(m.p, m.log10p)}`;
  if (m.significant) return `Bad instances ${m.difference > 0 ? 'are worse' : 'are better'}: ${m.variable}${whose} ${change}.`;
  const s = m.spread;
  if (s !== null && s.significant) {
    const how = s.meanBad > s.meanGood ? 'more' : 'less';
    return `${m.variable}${whose} does not differ significantly in mean (${change}), but its spread does: bad instances vary ${how}, ` +
      `mean deviation from the median ${unit(s.meanGood)} → ${unit(s.meanBad)}; Brown–Forsythe test of spread, p ${formatP(s.p, s.log10p)}.`;
  }
  return `${m.variable}${whose} does not differ significantly (${change}).`;
}

/** P's test, and the instance kind it was decided in when P was compared within kinds (null: pooled). */
export function metricTest(m: VerdictMetric, tests: readonly TestResult[] | undefined): { test: TestResult | undefined; instanceKind: string | null } {
  const test = tests?.find((t) => t.kind === m.kind && t.variable === m.variable && t.feature === m.feature);
  const stratum = test?.method === 'kinds' ? test.strata?.find((s) => Object.is(s.t, test.t) && s.meanGood === test.meanGood && s.meanBad === test.meanBad) : undefined;
  return { test, instanceKind: stratum?.kind ?? null };
}

/** P's test in words, as the sentence names it (`Welch's t-test within search, the strongest of 3 kinds (p × 3)`). */
export function metricTestWords({ test, instanceKind }: ReturnType<typeof metricTest>): string | null {
  return test === undefined ? null : testWords(test, instanceKind ?? undefined);
}

/** The test behind a result, named: the reader can tell a within-kind test from a pooled one. */
function testWords(t: TestResult, stratum: string | undefined): string {
  switch (t.method) {
    case 'welch': return "Welch's t-test";
    case 'prediction': return 'prediction test (a class has 1–2 values)';
    case 'kinds': return `Welch's t-test within ${stratum ?? 'one instance kind'}, the strongest of ${t.strata?.length ?? 'several'} kinds (p × ${t.strata?.length ?? 'k'})`;
    case 'fisher': return "Fisher's exact test";
    case 'g-test': return 'G-test';
    case 'mantel-haenszel': return 'Mantel–Haenszel test over kinds';
    case 'windows': return "Welch's t-test, also against the spread between the good windows";
    case 'outlier': return 'outlier test of one bad unit against its peers';
    case 'brown-forsythe': return 'Brown–Forsythe test of spread';
  }
}

/** Where the time went, as text; null when P did not get worse or no event's wait grew. */
export function timeSharesText(v: Verdict): string | null {
  const metric = v.metric;
  if (v.timeShares.length === 0 || metric === null || !metric.significant || !(metric.difference > 0)) return null;
  const items = v.timeShares.map((s, i) => `+${formatValue(s.difference)} s before ${s.event} (${Math.round(s.share * 100)}%${i === 0 ? ' of the added time' : ''})`);
  // The waits add up to the added time exactly; one can grow by more than all of it when others shrank.
  const over = v.timeShares.some((s) => s.share > 1) ? '; other waits shrank, so a share passes 100%' : '';
  return `${items.join(', ')}${over}`;
}

/** A feature's value in its own units: seconds for an event's times and waits, a share of the run for `*.rel`. */
export function featureValue(kind: LogKind, feature: FeatureType | 'occurrence', x: number): string {
  if (feature === 'occurrence') return `${formatValue(x * 100)}%`;
  if (kind === 'event' && feature !== 'count') return feature.endsWith('.rel') ? `${formatValue(x * 100)}% of the run` : `${formatValue(x)} s`;
  return formatValue(x);
}

/** The change of a feature in its own units: `8.607 → 645.1`, `0.7257 → 6.449 s`, `85.13% → 91.29% of the run`, `in 10% of good → 50% of bad instances`. */
export function featureChange(kind: LogKind, feature: FeatureType | 'occurrence', good: number, bad: number): string {
  if (feature === 'occurrence') return `in ${featureValue(kind, feature, good)} of good → ${featureValue(kind, feature, bad)} of bad instances`;
  if (kind === 'event' && feature !== 'count') {
    return feature.endsWith('.rel') ? `${formatValue(good * 100)}% → ${formatValue(bad * 100)}% of the run` : `${formatValue(good)} → ${formatValue(bad)} s`;
  }
  return `${formatValue(good)} → ${formatValue(bad)}`;
}

/** What P's change is called in a cause's standing: the slowdown, the speed-up, or the change. */
function changeOfP(metric: VerdictMetric | null): string {
  if (metric === null || !metricIsTime(metric)) return 'the change in P';
  return metric.difference < 0 ? 'the speed-up' : 'the slowdown';
}

/** How a candidate stands: see causeStanding. */
export type CauseRole = 'cause' | 'herring' | 'untied' | 'consequence' | 'weak' | 'negligible';

/**
 * A cause's standing in words, the same in every output: a cause tied to P's
 * change in the dependency graphs; a herring (changed, but not tied to it,
 * where the graphs tie something else); changed, where the graphs tie nothing
 * (too few instances, or no dependency: cause and herring cannot be told
 * apart); an event that only moved in time; not significant; or a time too
 * small to matter.
 */
export function causeStanding(c: VerdictCause, v: Pick<Verdict, 'metric' | 'causes'>, context: SentenceContext = {}): { readonly role: CauseRole; readonly words: string } {
  const change = changeOfP(v.metric);
  if (c.negligible) return { role: 'negligible', words: `changed by under ${NEGLIGIBLE_SHARE * 100}% of a run: too little to matter` };
  if (c.source === 'weak') return { role: 'weak', words: 'not significant: where to look next' };
  if (c.mode !== undefined) {
    const m = 'modes' in v ? (v as Pick<Verdict, 'modes'>).modes[c.mode] : undefined;
    return { role: 'cause', words: `top cause of one of bad's two modes of P${m === undefined ? '' : ` (${m.instances} instances against good)`}` };
  }
  if (c.method === 'brown-forsythe') return { role: 'untied', words: `its spread changed, as P's did` };
  if (c.addsNoTime === true) return { role: 'herring', words: `credited none of ${change}: its waits are time taken from the steps it interrupts` };
  if (c.source === 'divergence') {
    // The same wait seen from the other event (db:Done's gap is db:Query's gap.after): the graph cause's twin, not a herring.
    const twin = twinOfGraphCause(c, v, context.tests);
    if (twin !== null) return { role: 'cause', words: `tied to ${change}: the same change as ${twin.variable} ${twin.feature}` };
  }
  // An event's position in time moves when anything before it takes longer: a consequence of the change, which it cannot locate.
  if (c.source === 'divergence' && c.kind === 'event' && isTimeFeature(c.kind, c.feature as FeatureType)) {
    return { role: 'consequence', words: `moved in time with ${change}: a consequence, not a cause` };
  }
  if (c.source === 'divergence') {
    return v.causes.some((x) => x.source === 'graph' && x.addsNoTime !== true)
      ? { role: 'herring', words: `changed, but not tied to ${change}` }
      : { role: 'untied', words: `changed; the graphs tie nothing to ${change}, so it is unconfirmed` };
  }
  const hops = context.graphs === undefined ? null : hopsFromP(context.graphs, c);
  const via = hops !== null && hops > 1 ? ` through ${hops - 1} other variable${hops === 2 ? '' : 's'}` : '';
  return { role: 'cause', words: `tied to ${change}${via}` };
}

/** A test of a graph cause's variable whose result is the cause's own, number for number; null when there is none. */
function twinOfGraphCause(c: VerdictCause, v: Pick<Verdict, 'causes'>, tests: readonly TestResult[] | undefined): TestResult | null {
  if (tests === undefined) return null;
  const graphCauses = new Set(v.causes.filter((x) => x.source === 'graph' && x.kind === c.kind).map((x) => x.variable));
  if (graphCauses.size === 0) return null;
  return tests.find((t) => t.kind === c.kind && graphCauses.has(t.variable) && t.meanGood === c.meanGood && t.meanBad === c.meanBad && Object.is(t.t, c.t)) ?? null;
}

function describeCause(c: VerdictCause, v: Verdict, context: SentenceContext): string {
  const z = `z ${formatStat(c.z)}`;
  if (c.feature === 'occurrence') {
    const how = c.presence === 'new' ? 'new in bad' : c.presence === 'vanished' ? 'vanished from bad' : 'occurs';
    return `${c.kind}, ${how}: ${featureValue(c.kind, c.feature, c.meanGood)} of good → ${featureValue(c.kind, c.feature, c.meanBad)} of bad instances, ${z}`;
  }
  const where = c.source === 'graph' || (c.source === 'divergence' && !c.negligible) ? `, ${causeStanding(c, v, context).words}` : '';
  const spread = c.method === 'brown-forsythe' ? ' spread (mean deviation from the median)' : '';
  return `${c.kind} ${c.feature}${spread} ${featureChange(c.kind, c.feature, c.meanGood, c.meanBad)}, ${z}${where}`;
}

/** Edges from P to a cause in the first graph of its kind and feature that holds it (1 = P's neighbour); null when none does. */
export function hopsFromP(graphs: readonly AttentionGraph[], c: Pick<VerdictCause, 'kind' | 'variable' | 'feature'>): number | null {
  for (const g of graphs) {
    if (g.kind !== c.kind || !(g.feature === c.feature || g.features.includes(c.feature as FeatureType))) continue;
    const depth = depthsFromP(g).get(c.variable);
    if (depth !== undefined) return depth;
  }
  return null;
}

/** Each node's number of edges from P (the graph is a tree rooted at P), by a walk from P. */
export function depthsFromP(g: AttentionGraph): Map<string, number> {
  const root = g.nodes.find((n) => n.metric)?.variable;
  const depth = new Map<string, number>();
  if (root === undefined) return depth;
  const adjacent = new Map<string, string[]>();
  for (const e of g.edges) {
    (adjacent.get(e.from) ?? adjacent.set(e.from, []).get(e.from)!).push(e.to);
    (adjacent.get(e.to) ?? adjacent.set(e.to, []).get(e.to)!).push(e.from);
  }
  depth.set(root, 0);
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    const d = depth.get(queue[i]!)!;
    for (const other of adjacent.get(queue[i]!) ?? []) {
      if (depth.has(other)) continue;
      depth.set(other, d + 1);
      queue.push(other);
    }
  }
  return depth;
}
