/**
 * The verdict (SPEC §6): how much worse P is, the top cause, and where the
 * time went, with the ranked candidate causes behind it. Computed once from
 * the FeatureSet, the tests and the graphs; src/report/verdict.ts says it as
 * the one sentence that text, JSON and HTML all show.
 */
import { classRange, isTimeFeature, LOG_KINDS, type FeatureSet, type FeatureTable, type FeatureType, type LogKind, type VariableSource } from '../features/types.js';
import { sourceOf } from '../features/sources.js';
import { sumOver } from '../stats/sum.js';
import { compareEffect } from '../ttest/effect.js';
import type { Presence, TestedFeature, TestMethod, TestResult, TestSummary } from '../ttest/types.js';
import { aliasesByTable } from './aliases.js';
import { callGraph, componentOf, fellInSlowdown, instancesOfOneComponent, rankComponents, timeGrowth, type ComponentSummary } from './components.js';
import { locatesCause, normalizedZ } from './index.js';
import type { AttentionGraph } from './types.js';

/** How many events the time attribution names at most. */
const TIME_SHARES_SHOWN = 3;
/** How many candidates with no significant feature the verdict lists after the significant ones. */
const WEAK_SHOWN = 5;
/** Events whose wait grew by less than this share of the slowdown are not named. */
const TIME_SHARE_MIN = 0.05;
/** A time difference below this share of the median instance's duration (Dref) cannot explain a slowdown. */
export const NEGLIGIBLE_SHARE = 0.01;

/**
 * Whether a test's difference is a time too small to matter: the feature is a
 * time in seconds (an event's `*.abs`, `gap`, `gap.after` or `wait`; any
 * feature of a span's self time) whose class means differ by less than
 * NEGLIGIBLE_SHARE · Dref, or a share of the run (an event's `*.rel`) whose
 * means differ by less than NEGLIGIBLE_SHARE. Between two minutes of a busy
 * system thousands of such timings differ significantly (a database query
 * 0.37 → 0.20 ms in requests of 260 ms); none of them can be what made the
 * run slower, and they bury a new error line or a span that became 80 ms
 * slower. Counts, occurrences and other states have no unit to judge by.
 */
export function negligibleTime(fs: Pick<FeatureSet, 'referenceDuration' | 'sources'>, t: Pick<TestResult, 'kind' | 'variable' | 'feature' | 'meanGood' | 'meanBad'>): boolean {
  const difference = Math.abs(t.meanBad - t.meanGood);
  if (Number.isNaN(difference)) return false;
  if (t.kind === 'state') return sourceOf(fs, 'state', t.variable) === 'span' && difference < NEGLIGIBLE_SHARE * fs.referenceDuration;
  if (t.feature === 'count' || t.feature === 'occurrence') return false;
  return t.feature.endsWith('.rel') ? difference < NEGLIGIBLE_SHARE : difference < NEGLIGIBLE_SHARE * fs.referenceDuration;
}

export interface VerdictMetric {
  readonly variable: string;
  readonly kind: LogKind;
  readonly feature: TestedFeature;
  readonly meanGood: number;
  readonly meanBad: number;
  /** meanBad − meanGood, and that relative to meanGood (NaN when meanGood is 0). */
  readonly difference: number;
  readonly relative: number;
  readonly p: number;
  readonly log10p: number;
  readonly significant: boolean;
  /**
   * Where P's means do not differ, its spread (summary.spread): the classes'
   * mean absolute deviations from their medians, the Brown–Forsythe p, and
   * whether it differs (2p < α); null where it was not tested.
   */
  readonly spread: { readonly meanGood: number; readonly meanBad: number; readonly p: number; readonly log10p: number; readonly significant: boolean } | null;
}

export interface VerdictCause {
  readonly variable: string;
  readonly kind: LogKind;
  /** Its strongest significant feature that locates a cause (or, failing that, any). */
  readonly feature: TestedFeature;
  readonly method: TestMethod;
  readonly z: number;
  readonly t: number;
  readonly meanGood: number;
  readonly meanBad: number;
  readonly presence: Presence;
  /**
   * 'graph': significant and tied to P in an answer graph (with that edge
   * weight); 'divergence': significant only; 'weak': not significant after the
   * correction, listed after every significant one as the next place to look.
   */
  readonly source: 'graph' | 'divergence' | 'weak';
  readonly weight: number | null;
  /** A time that differs by less than NEGLIGIBLE_SHARE of a run (see negligibleTime): listed after every other candidate. */
  readonly negligible: boolean;
  /**
   * A line new in bad credited less than TIME_SHARE_MIN of the added time
   * where P got slower (creditedWaits): its waits were taken from the steps it
   * interrupts; listed after the significant causes that are not.
   */
  readonly addsNoTime?: true;
  /** The top cause of one of bad's two modes of P (modes.ts): its index in Verdict.modes; its test is good against that mode. */
  readonly mode?: number;
}

/** One of two modes of bad's P (modes.ts): how many bad instances, their mean P, and its top cause against good. */
export interface VerdictMode {
  readonly instances: number;
  readonly meanP: number;
  readonly cause: VerdictCause | null;
}

/** One event's part in the mean slowdown: Σ over events of Δ mean `wait` = Δ mean event span (SPEC §2). */
export interface TimeShare {
  readonly event: string;
  /** The class means of its total wait per instance. */
  readonly meanGood: number;
  readonly meanBad: number;
  /**
   * The added time credited to it: meanBad − meanGood, except for an event
   * new in bad, whose wait is first taken as time moved from the steps it
   * interrupts (creditedWaits).
   */
  readonly difference: number;
  /** difference / the mean slowdown of the event span. */
  readonly share: number;
}

export interface Verdict {
  readonly metric: VerdictMetric | null;
  /** The candidate causes, best first; the first is the top cause. */
  readonly causes: readonly VerdictCause[];
  /** The components (entities) of the significant causes, best first (components.ts); the first is the top component. */
  readonly components: readonly ComponentSummary[];
  /** Events whose total wait grew most, largest first (only those of ≥ 5% of the slowdown, at most 3). */
  readonly timeShares: readonly TimeShare[];
  /** Mean event span, good and bad: what the time shares divide. */
  readonly eventSpan: { readonly meanGood: number; readonly meanBad: number } | null;
  /** Variables that are P under another name (SPEC §5), per kind. */
  readonly aliases: readonly { readonly variable: string; readonly kind: LogKind }[];
  /** Bad's two modes of P, each with its cause (modes.ts), the larger share of the added time first; empty when bad's P has one. */
  readonly modes: readonly VerdictMode[];
  /** Whether any test is significant at all. */
  readonly anySignificant: boolean;
}

/**
 * Candidate causes, in this order (P is never a candidate, nor an alias of P in
 * the features where it is one):
 *  1. where P itself diverges significantly, the significant nodes of the
 *     graphs that locate a cause and scored above 0, graph by graph in answer
 *     order, each graph's nodes by their share of its score T̂^(2a)·ŵ^(2(1−a));
 *  2. every other significant variable, by Σ|z| over its significant features
 *     that locate a cause (event times count only where a variable has
 *     nothing else), descending;
 *  3. at most WEAK_SHOWN variables with no significant feature, by their
 *     largest |z| over the features that locate a cause: not evidence, but
 *     where to look next when the sets are too small for significance;
 *  4. the significant causes of 1 and 2 whose difference is a negligible
 *     time (negligibleTime), in their order.
 * The significant causes of 1 and 2 are then grouped by component, the
 * components ranked by their share of the first TOP_CAUSES (components.ts):
 * the top cause is the top component's strongest cause.
 */
export function verdictOf(
  fs: FeatureSet,
  summary: TestSummary,
  graphs: readonly AttentionGraph[],
  balance: number,
  aliasesOf: ReadonlyMap<FeatureTable, readonly string[]> = aliasesByTable(fs),
  modes: readonly VerdictMode[] = [],
): Verdict {
  const metricName = (kind: LogKind): string | null => fs.metric[kind];
  const aliasSet = new Set<string>();
  const aliasFeatures = new Set<string>();
  const aliases: { variable: string; kind: LogKind }[] = [];
  for (const table of fs.tables) {
    for (const variable of aliasesOf.get(table) ?? []) {
      aliasFeatures.add(`${table.kind}\u0000${variable}\u0000${table.feature}`);
      const key = `${table.kind}\u0000${variable}`;
      if (aliasSet.has(key)) continue;
      aliasSet.add(key);
      aliases.push({ variable, kind: table.kind });
    }
  }
  // P is never a cause; an alias of P is not one in the features where it is P under another name, but its
  // other features are its own: an ERROR line that ends every failing request is P in `first.abs`, and a
  // change in its occurrence is still a cause.
  const excluded = (kind: LogKind, variable: string, feature: TestedFeature): boolean =>
    variable === metricName(kind) || aliasFeatures.has(`${kind}\u0000${variable}\u0000${feature}`);
  const candidates = summary.tests.filter((t) => !excluded(t.kind, t.variable, t.feature));
  const testsByKey = new Map<string, TestResult>();
  for (const t of summary.tests) testsByKey.set(`${t.kind}\u0000${t.variable}\u0000${t.feature}`, t);

  const causes: VerdictCause[] = [];
  const listed = new Set<string>();
  const cause = (t: TestResult, source: VerdictCause['source'], weight: number | null): VerdictCause => ({
    variable: t.variable, kind: t.kind, feature: t.feature, method: t.method, z: t.z, t: t.t,
    meanGood: t.meanGood, meanBad: t.meanBad, presence: t.presence, source, weight, negligible: negligibleTime(fs, t),
  });
  // The graphs explain P's divergence: where P does not diverge, they explain nothing, and divergence alone ranks.
  const metric = metricOf(fs, summary);
  // Significant causes whose difference is a negligible time, or time spent less in a slowdown (fellInSlowdown),
  // come after every other candidate, the weak ones included.
  const later: VerdictCause[] = [];
  const add = (c: VerdictCause): void => {
    const key = `${c.kind}\u0000${c.variable}`;
    if (listed.has(key)) return;
    listed.add(key);
    (c.negligible || fellInSlowdown(fs, c, metric?.difference ?? 0) ? later : causes).push(c);
  };
  // Bad's two modes are two problems: each mode's cause is named first, in the modes' order (modes.ts).
  const pinned: VerdictCause[] = [];
  modes.forEach((m, i) => {
    const key = m.cause === null ? null : `${m.cause.kind}\u0000${m.cause.variable}`;
    if (m.cause === null || key === null || listed.has(key)) return;
    listed.add(key);
    pinned.push({ ...m.cause, mode: i });
  });
  for (const g of metric?.significant === true ? graphs : []) {
    if (!(g.score > 0) || !locatesCause(g)) continue;
    const weightOf = parentWeights(g);
    const nodes = g.nodes
      .filter((n) => !n.metric && n.significant && !excluded(g.kind, n.variable, g.feature))
      .map((n) => {
        const t = testsByKey.get(`${g.kind}\u0000${n.variable}\u0000${g.feature}`);
        const w = weightOf.get(n.variable) ?? 0;
        return { t, w, strength: t === undefined ? 0 : normalizedZ(t) ** (2 * balance) * w ** (2 * (1 - balance)) };
      })
      .filter((x): x is { t: TestResult; w: number; strength: number } => x.t !== undefined)
      .sort((x, y) => y.strength - x.strength || compareEffect(x.t, y.t));
    for (const { t, w } of nodes) add(cause(t, 'graph', w));
  }
  // Where P's means are alike and its spread is not, the variables whose spread changed explain it, first.
  const spread = summary.spread ?? null;
  if (metric !== null && !metric.significant && spread !== null && spread.metric.significant) {
    for (const r of divergentByLocatingFeatures(spread.tests.filter((t) => !excluded(t.kind, t.variable, t.feature)))) add(cause(r.best, 'divergence', null));
  }
  for (const r of divergentByLocatingFeatures(candidates)) add(cause(r.best, 'divergence', null));
  const span = eventSpans(fs);
  const slowdown = span === null ? 0 : span.meanBad - span.meanGood;
  // Where P got slower, a line new in bad that is credited none of its own source's added time (creditedWaits) comes
  // after the causes.
  if (metric?.significant === true && metric.difference > 0 && span !== null && slowdown > 0) {
    const free = (c: VerdictCause): boolean => {
      if (c.kind !== 'event' || c.presence !== 'new') return false;
      const own = span.bySource.get(sourceOf(fs, 'event', c.variable));
      if (own === undefined) return false;
      const ownSlowdown = own.meanBad - own.meanGood;
      return ownSlowdown > 0 && !((own.credited.get(c.variable) ?? 0) >= TIME_SHARE_MIN * ownSlowdown);
    };
    causes.splice(0, causes.length, ...causes.filter((c) => !free(c)), ...causes.filter(free).map((c): VerdictCause => ({ ...c, addsNoTime: true })));
  }
  // A line that adds no time is no change in kind that could rank its component first: it stays after the causes.
  const free = causes.filter((c) => c.addsNoTime === true);
  const ranking = [...pinned, ...causes.filter((c) => c.addsNoTime !== true)];
  // Where every instance holds one component's lines (a pod, a host), the components are ranked by how much their
  // times grew (timeGrowth): the significant tests of the ranked causes' variables, P's aliases left out.
  const rankedKeys = new Set(ranking.map((c) => `${c.kind}\u0000${c.variable}`));
  const growth = instancesOfOneComponent(fs)
    ? timeGrowth(candidates.filter((t) => t.significant && rankedKeys.has(`${t.kind}\u0000${t.variable}`)))
    : null;
  const grouped = rankComponents(ranking, span === null ? null : span.rows, slowdown, callGraph(fs), growth);
  causes.splice(0, causes.length, ...pinned, ...grouped.causes.filter((c) => !pinned.includes(c)), ...free);
  // Weak candidates point at places to look: one per component, so that one service's several new lines do not
  // fill the list (a name without an entity is a place of its own).
  let weak = 0;
  const weakPlaces = new Set<string>();
  for (const t of strongestInsignificant(candidates)) {
    const key = `${t.kind}\u0000${t.variable}`;
    if (weak >= WEAK_SHOWN) break;
    if (listed.has(key)) continue;
    const place = componentOf(t.variable) ?? `\u0000${key}`;
    if (weakPlaces.has(place)) continue;
    weakPlaces.add(place);
    listed.add(key);
    causes.push(cause(t, 'weak', null));
    weak++;
  }
  causes.push(...later);

  const timeShares = span === null ? [] : span.shares;
  return {
    metric,
    anySignificant: summary.tests.some((t) => t.significant),
    causes,
    components: grouped.components,
    timeShares,
    eventSpan: span === null ? null : { meanGood: span.meanGood, meanBad: span.meanBad },
    aliases,
    modes,
  };
}

/**
 * 1 for an event that occurs in one class only (new in bad, or vanished from
 * it), else 0: among divergences of like strength, a line that appears or
 * disappears (an exception, a skipped step) is a change in kind, not in
 * degree, and is listed first.
 */
function qualitative(t: Pick<TestResult, 'presence'>): number {
  return t.presence === 'both' ? 0 : 1;
}

/** Whether test `a` is stronger than `b`: a larger |z|, or the same |z| and a larger effect (SPEC §3: ties by effect size). */
function stronger(a: TestResult, b: TestResult): boolean {
  const dz = Math.abs(a.z) - Math.abs(b.z);
  return dz > 0 || (dz === 0 && compareEffect(a, b) < 0);
}

/** Per variable with no significant feature, its strongest test among the features that locate a cause; strongest first. */
function strongestInsignificant(tests: readonly TestResult[]): TestResult[] {
  const best = new Map<string, TestResult>();
  const significant = new Set<string>();
  for (const t of tests) {
    const key = `${t.kind}\u0000${t.variable}`;
    if (t.significant) significant.add(key);
    if (t.feature !== 'occurrence' && isTimeFeature(t.kind, t.feature)) continue;
    if (Number.isNaN(t.z) || t.z === 0) continue; // no divergence at all: nothing to look at
    const seen = best.get(key);
    if (seen === undefined || stronger(t, seen)) best.set(key, t);
  }
  return [...best].filter(([key]) => !significant.has(key)).map(([, t]) => t)
    .sort((x, y) => qualitative(y) - qualitative(x) || Math.abs(y.z) - Math.abs(x.z) || compareEffect(x, y) || (x.kind < y.kind ? -1 : x.kind > y.kind ? 1 : 0) || (x.variable < y.variable ? -1 : x.variable > y.variable ? 1 : 0));
}

/** Significant variables by Σ|z| of their significant features that locate a cause (else of all), with their strongest such test. */
function divergentByLocatingFeatures(tests: readonly TestResult[]): { best: TestResult; score: number; locating: boolean }[] {
  const groups = new Map<string, TestResult[]>();
  for (const t of tests) {
    if (!t.significant) continue;
    const key = `${t.kind}\u0000${t.variable}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(t);
  }
  const out: { best: TestResult; score: number; locating: boolean }[] = [];
  for (const tests of groups.values()) {
    const locating = tests.filter((t) => t.feature === 'occurrence' || !isTimeFeature(t.kind, t.feature));
    const pool = locating.length > 0 ? locating : tests;
    const best = pool.reduce((x, y) => (stronger(y, x) ? y : x));
    out.push({ best, score: pool.reduce((s, t) => s + Math.abs(t.z), 0), locating: locating.length > 0 });
  }
  return out.sort((x, y) => Number(y.locating) - Number(x.locating) || qualitative(y.best) - qualitative(x.best) || y.score - x.score ||
    compareEffect(x.best, y.best) ||
    (x.best.kind < y.best.kind ? -1 : x.best.kind > y.best.kind ? 1 : 0) || (x.best.variable < y.best.variable ? -1 : x.best.variable > y.best.variable ? 1 : 0));
}

/**
 * P's headline feature of a kind: for the built-in duration (D in every
 * feature type) its first table (`first.abs`, `min`); for a named event
 * metric `last.abs`, for a named state metric `final` (as for the heavy
 * tail). null where the kind has no P.
 */
export function headlineFeature(fs: FeatureSet, kind: LogKind): { kind: LogKind; variable: string; feature: FeatureType } | null {
  const name = fs.metric[kind];
  if (name === null) return null;
  const isDuration = kind === 'event' ? fs.metric.eventIsDuration : fs.metric.stateIsDuration;
  return { kind, variable: name, feature: isDuration ? (kind === 'event' ? 'first.abs' : 'min') : kind === 'event' ? 'last.abs' : 'final' };
}

/**
 * P's change: the test of P's headline feature, significant at α uncorrected — for the built-in duration
 * (D in every feature type) its first table; for a named event metric
 * `last.abs`, for a named state metric `final` (as for the heavy tail).
 */
function metricOf(fs: FeatureSet, summary: TestSummary): VerdictMetric | null {
  for (const kind of LOG_KINDS) {
    const headline = headlineFeature(fs, kind);
    if (headline === null) continue;
    const { variable: name, feature } = headline;
    const t = summary.tests.find((x) => x.kind === kind && x.variable === name && x.feature === feature);
    if (t === undefined) continue;
    const difference = t.meanBad - t.meanGood;
    const s = summary.spread?.metric;
    const spread = s === undefined || s.variable !== name || s.kind !== kind ? null
      : { meanGood: s.meanGood, meanBad: s.meanBad, p: s.p, log10p: s.log10p, significant: s.significant };
    return {
      spread,
      variable: name, kind, feature, meanGood: t.meanGood, meanBad: t.meanBad, difference,
      relative: t.meanGood !== 0 ? difference / Math.abs(t.meanGood) : NaN,
      // P is the one question asked in advance, as in `check`: tested at α itself, not among the m hypotheses of the search.
      p: t.p, log10p: t.log10p, significant: t.significant || t.log10p < Math.log10(summary.alpha),
    };
  }
  return null;
}

// The two loops below return as they end: with the division after the loop, the loop compiled while it ran (on-stack
// replacement) met code that had never run, and stopped there on each of the next calls (13 in a run of 10 000 instances).

/** Σ weights[i]·column[i] over [start, end), in order, a missing value (NaN) counting 0. */
function weightedSum(column: Float64Array, weights: Float64Array, start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end; i++) {
    const x = column[i] as number;
    sum += Number.isNaN(x) ? 0 : (weights[i] as number) * x;
  }
  return sum;
}

/** One source's event span: its class means and the added time credited to each of its events. */
interface SourceSpan {
  readonly meanGood: number;
  readonly meanBad: number;
  readonly rows: Omit<TimeShare, 'share'>[];
  readonly credited: ReadonlyMap<string, number>;
}

/**
 * Where the time went (SPEC §2 `wait`, §6): per event, the class means of its
 * total wait per instance (0 where it does not occur, so that the waits of an
 * instance sum to its event span) and their difference; weighted by the
 * replication counts. null without event variables.
 *
 * An event's waits are measured within its own source (log lines, spans:
 * docs/method.md, waits within one source), so each source's waits sum to
 * that source's span of the instance, and two sources read together would
 * count the same time twice. Each source is credited on its own (bySource);
 * the time shown, and the components' added time, are of one timeline: the
 * source whose event span is the longest (its mean over both classes; the
 * first source in name order on a tie), as it covers most of the instance.
 */
function eventSpans(fs: FeatureSet): { meanGood: number; meanBad: number; shares: TimeShare[]; rows: Omit<TimeShare, 'share'>[]; bySource: Map<VariableSource, SourceSpan> } | null {
  const table = fs.tables.find((t) => t.kind === 'event' && t.feature === 'wait');
  if (table === undefined) return null;
  const [g0, g1] = classRange(fs, 'good');
  const [b0, b1] = classRange(fs, 'bad');
  const weightGood = sumOver(fs.weights, g0, g1);
  const weightBad = sumOver(fs.weights, b0, b1);
  const mean = (column: Float64Array, start: number, end: number, weight: number): number =>
    weight > 0 ? weightedSum(column, fs.weights, start, end) / weight : NaN;
  const counts = fs.tables.find((t) => t.kind === 'event' && t.feature === 'count');
  const bySourceWaits = new Map<VariableSource, { waits: (Omit<TimeShare, 'share'> & { isNew: boolean; lost: number })[]; spanGood: number; spanBad: number }>();
  table.variables.forEach((event, v) => {
    if (event === fs.metric.event && fs.metric.eventIsDuration) return; // the built-in duration is no event
    const source = sourceOf(fs, 'event', event);
    let own = bySourceWaits.get(source);
    if (own === undefined) bySourceWaits.set(source, (own = { waits: [], spanGood: 0, spanBad: 0 }));
    const column = table.columns[v] as Float64Array;
    const meanGood = mean(column, g0, g1, weightGood);
    const meanBad = mean(column, b0, b1, weightBad);
    own.spanGood += meanGood;
    own.spanBad += meanBad;
    // `wait` is missing where the event is absent: an event with no value in good is new in bad.
    const isNew = !occursIn(column, g0, g1) && occursIn(column, b0, b1);
    // The wait its occurrences lost each, on the bad class's occurrences: (mean wait per occurrence, good − bad) × bad's count.
    const c = counts?.columns[counts.variables.indexOf(event)];
    const countGood = c === undefined ? NaN : mean(c, g0, g1, weightGood);
    const countBad = c === undefined ? NaN : mean(c, b0, b1, weightBad);
    const lost = isNew || !(countGood > 0 && countBad > 0) ? Math.max(0, meanGood - meanBad) : Math.max(0, meanGood / countGood - meanBad / countBad) * countBad;
    own.waits.push({ event, meanGood, meanBad, difference: meanBad - meanGood, isNew, lost });
  });
  const bySource = new Map<VariableSource, SourceSpan>();
  let timeline: SourceSpan | null = null;
  for (const source of [...bySourceWaits.keys()].sort()) {
    const own = bySourceWaits.get(source)!;
    // A new line moves time only within its own source's steps (creditedWaits).
    const rows = creditedWaits(own.waits);
    const s: SourceSpan = { meanGood: own.spanGood, meanBad: own.spanBad, rows, credited: new Map(rows.map((r) => [r.event, r.difference])) };
    bySource.set(source, s);
    if (timeline === null || s.meanGood + s.meanBad > timeline.meanGood + timeline.meanBad) timeline = s;
  }
  if (timeline === null) return { meanGood: 0, meanBad: 0, shares: [], rows: [], bySource };
  const { rows } = timeline;
  const slowdown = timeline.meanBad - timeline.meanGood;
  const shares = slowdown > 0
    ? rows.map((r) => ({ ...r, share: r.difference / slowdown }))
      .filter((r) => r.share >= TIME_SHARE_MIN)
      .sort((x, y) => y.difference - x.difference || (x.event < y.event ? -1 : 1))
      .slice(0, TIME_SHARES_SHOWN)
    : [];
  return { meanGood: timeline.meanGood, meanBad: timeline.meanBad, shares, rows, bySource };
}

/** Whether column has a value (the event occurs) in [start, end). */
function occursIn(column: Float64Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!Number.isNaN(column[i] as number)) return true;
  return false;
}

/**
 * The added time each event is credited with. An event's wait is billed the
 * step that ends at it; a line new in bad (a reporter's `metrics_push`, a
 * debug line) ends a part of a step that, in good, ended at the next line: its
 * wait is time moved from the steps it interrupts, whose occurrences each
 * wait less by as much, not time it added. So the new events' waits N are
 * first set against the time the other events' occurrences lost, L = Σ over
 * them of (mean wait per occurrence, good − bad, where it fell) × bad's mean
 * count — per occurrence, as an interrupted step that also occurs more often
 * (a flush done 5× as often) may grow in all while each of its waits lost
 * time — and the new events together are credited max(0, N − L), each in
 * proportion to its wait; the time they took, min(N, L), is given back to
 * the events that lost it, each in proportion to its loss. The credits still
 * add up to the slowdown exactly. A new step that took time of its own (a
 * retry after a timeout) shrinks nothing and keeps its wait. A limit: where
 * the interrupted step also grew, the part of the new line's wait that its
 * growth hid stays the new line's (the classes' means cannot tell which). Issue 52: a reporter's line every second was billed 141%
 * of a job's added time (fixtures/causes/config-change), 2275% in the
 * issue's case.
 */
function creditedWaits(waits: readonly (Omit<TimeShare, 'share'> & { readonly isNew: boolean; readonly lost: number })[]): Omit<TimeShare, 'share'>[] {
  let moved = 0;
  let lost = 0;
  for (const w of waits) {
    if (Number.isNaN(w.difference)) continue;
    if (w.isNew) moved += w.difference;
    else if (w.lost > 0) lost += w.lost;
  }
  if (!(moved > 0) || !(lost > 0)) return waits.map(({ isNew: _n, lost: _l, ...w }) => w);
  const kept = Math.max(0, moved - lost) / moved;
  const returned = Math.min(moved, lost) / lost;
  return waits.map(({ isNew, lost: l, ...w }) => ({
    ...w, difference: isNew ? w.difference * kept : Number.isNaN(w.difference) ? w.difference : w.difference + l * returned,
  }));
}

/** Each node's weight of the edge towards P (the graph is a tree rooted at P), by a walk from P. */
function parentWeights(g: AttentionGraph): Map<string, number> {
  const adjacent = new Map<string, { other: string; weight: number }[]>();
  const link = (a: string, b: string, weight: number): void => {
    (adjacent.get(a) ?? adjacent.set(a, []).get(a)!).push({ other: b, weight });
  };
  for (const e of g.edges) {
    link(e.from, e.to, e.weight);
    link(e.to, e.from, e.weight);
  }
  const root = g.nodes.find((n) => n.metric)?.variable;
  const weights = new Map<string, number>();
  if (root === undefined) return weights;
  const seen = new Set([root]);
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    for (const { other, weight } of adjacent.get(queue[i] as string) ?? []) {
      if (seen.has(other)) continue;
      seen.add(other);
      weights.set(other, weight);
      queue.push(other);
    }
  }
  return weights;
}
