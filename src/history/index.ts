/**
 * `distalyze history`: when did P, or anything tied to it, change? (PerfDetect,
 * chapter 3: each metric's mean, variance and correlation with P, tracked run
 * by run.) A pure function of the FeatureSet of all runs and each instance's run.
 */
import { analyze, type Analysis, type AnalysisOptions } from '../analysis.js';
import type { RunSkipped } from '../check/skipped.js';
import type { FeatureResult } from '../features/index.js';
import { detectHeavyTail, metricValues } from '../features/metric.js';
import type { FeatureSet, FeatureType, Instance, LogKind } from '../features/types.js';
import { changePoints, searchable, type ChangePoint } from './changepoint.js';
import { groupByRun, mean, runSeries, type RunSeries, type Statistic } from './series.js';

export interface HistoryOptions {
  /** Family-wise false-alarm rate over every series of one history (Bonferroni). */
  readonly alpha: number;
  readonly minSegment: number;
  readonly seed: number;
  /** Variables left out of the series and of the comparisons (--ignore). */
  readonly ignored: (name: string) => boolean;
  /** For the before/after comparison of each change. */
  readonly analysis: AnalysisOptions;
}

export interface RunSummary {
  readonly name: string;
  readonly instances: number;
}

export interface DetectedChange {
  /** Index of the first run after the change. */
  readonly run: number;
  readonly kind: LogKind;
  readonly variable: string;
  readonly feature: FeatureType;
  readonly statistic: Statistic;
  readonly metric: boolean;
  readonly p: number;
  /** The statistic's mean over the runs of the segment before and after. */
  readonly before: number;
  readonly after: number;
  /** Index into History.series. */
  readonly series: number;
  /** The change event (History.events) this change belongs to. */
  readonly event: number;
}

/**
 * Changes of several series at nearby runs, taken as one event: what a
 * 30-point series of per-run correlations can locate is only ± a run or two.
 * Located where P changed, if it did, else where most series changed.
 */
export interface ChangeEvent {
  readonly run: number;
  /** Runs spanned by its series' change points. */
  readonly first: number;
  readonly last: number;
  readonly series: number;
  /** Whether P itself (mean or variance) changed. */
  readonly metric: boolean;
}

/** A series whose mean moves in every run (a build counter, a steady trend): not a change point. */
export interface Drift {
  readonly kind: LogKind;
  readonly variable: string;
  readonly feature: FeatureType;
  readonly direction: 'up' | 'down';
}

export interface Comparison {
  /** The run where the change starts. */
  readonly run: number;
  /** Runs [from, to) compared: before the change, and after it (up to the next change). */
  readonly before: readonly [number, number];
  readonly after: readonly [number, number];
  /** P's mean over the instances of each side. */
  readonly metricBefore: number;
  readonly metricAfter: number;
  readonly analysis: Analysis;
}

export interface History {
  readonly runs: readonly RunSummary[];
  readonly metric: { readonly variable: string; readonly kind: LogKind; readonly feature: FeatureType };
  readonly alpha: number;
  /** Distinct series searched (identical series count once), P's among them. */
  readonly seriesTested: number;
  /**
   * The permutation p a change must beat (familyThresholds): P's own series (its mean and sd) at alpha over
   * their number, and every other series at alpha over theirs.
   */
  readonly metricSeries: number;
  readonly metricThreshold: number;
  readonly threshold: number;
  /**
   * What this many runs can detect: the smallest p a change can reach (smallestP: a clean step halfway), and,
   * for each family whose threshold it cannot beat, the fewest runs that could (runsNeeded).
   */
  readonly reach: { readonly smallestP: number; readonly metricRunsNeeded: number | null; readonly runsNeeded: number | null };
  readonly changes: readonly DetectedChange[];
  readonly events: readonly ChangeEvent[];
  readonly drifts: readonly Drift[];
  readonly comparisons: readonly Comparison[];
  /** Variables left out by --ignore. */
  readonly ignored: readonly string[];
  readonly series: readonly RunSeries[];
  /** Per run: the lines it skipped (empty when not given). */
  readonly skipped: readonly RunSkipped[];
}

export function detectHistory(input: { readonly features: FeatureResult; readonly runOf: Int32Array; readonly runNames: readonly string[]; readonly skipped?: readonly RunSkipped[] }, options: HistoryOptions): History {
  const fs = input.features.features;
  const runCount = input.runNames.length;
  const all = runSeries(fs, input.runOf, runCount, options.ignored);
  const drifts: Drift[] = [];
  const candidates: number[] = [];
  all.forEach((s, i) => {
    if (!searchable(s.values, options.minSegment)) return;
    const direction = s.statistic === 'mean' && !s.metric ? monotone(s.values) : null;
    if (direction !== null) drifts.push({ kind: s.kind, variable: s.variable, feature: s.feature, direction });
    else if (!constant(s.values)) candidates.push(i);
  });
  // Series with the same values (P's duration under every feature type, first = median = last
  // of an event that occurs once) are one hypothesis: searched once, counted once in m.
  const searched = new Map<string, number>();
  const sameAs = candidates.map((i) => {
    const key = `${all[i]!.statistic}\t${Array.from(all[i]!.values).join(',')}`;
    const first = searched.get(key);
    if (first === undefined) searched.set(key, i);
    return first ?? i;
  });
  const metricSeries = [...searched.values()].filter((i) => all[i]!.metric).length;
  const { metric: metricThreshold, other: threshold } = familyThresholds(options.alpha, metricSeries, searched.size - metricSeries);
  const found = new Map<number, ChangePoint[]>();
  const raw: Omit<DetectedChange, 'event'>[] = [];
  candidates.forEach((i, j) => {
    const s = all[i]!;
    const first = sameAs[j]!;
    let points = found.get(first);
    if (points === undefined) {
      points = changePoints(stabilized(s), { threshold: all[first]!.metric ? metricThreshold : threshold, minSegment: options.minSegment, seed: options.seed + first });
      found.set(first, points);
    }
    for (const c of points) {
      const before = segmentMean(s.values, c.from, c.at);
      const after = segmentMean(s.values, c.at, c.to);
      raw.push({ run: c.at, kind: s.kind, variable: s.variable, feature: s.feature, statistic: s.statistic, metric: s.metric, p: c.p, before, after, series: i });
    }
  });
  raw.sort((a, b) => a.run - b.run || Number(b.metric) - Number(a.metric) || a.p - b.p);
  const { events, changes } = groupEvents(raw, options.minSegment);
  const p = metricValues(fs);
  const byRun = groupByRun(input.runOf, runCount);
  const at = events.map((e) => e.run);
  const drifting = new Set(drifts.map((d) => d.variable));
  const leftOut = (name: string): boolean => options.ignored(name) || drifting.has(name);
  const comparisons = at.map((run, j): Comparison => {
    const before: [number, number] = [j === 0 ? 0 : at[j - 1]!, run];
    const after: [number, number] = [run, j + 1 < at.length ? at[j + 1]! : runCount];
    const good = byRun.slice(...before).flat();
    const bad = byRun.slice(...after).flat();
    const sub = subsetFeatures(fs, good, bad, leftOut);
    const summary = (idx: readonly number[]) => ({
      instances: idx.length, files: idx.length, bytes: 0,
      records: idx.reduce((s, i) => s + (fs.instances[i] as Instance).records, 0), skippedLines: 0, skippedExamples: [],
    });
    return {
      run, before, after,
      metricBefore: mean(p.values, good),
      metricAfter: mean(p.values, bad),
      analysis: analyze({ classes: { good: summary(good), bad: summary(bad) }, features: sub }, options.analysis),
    };
  });
  const names = new Set<string>();
  for (const t of fs.tables) for (const v of t.variables) if (options.ignored(v)) names.add(v);
  return {
    runs: input.runNames.map((name, r) => ({ name, instances: byRun[r]!.length })),
    metric: { variable: p.variable, kind: p.kind, feature: p.feature },
    alpha: options.alpha,
    seriesTested: searched.size,
    metricSeries,
    metricThreshold,
    threshold,
    reach: {
      smallestP: smallestP(runCount),
      metricRunsNeeded: reachable(runCount, metricThreshold) ? null : runsNeeded(metricThreshold, options.minSegment),
      runsNeeded: reachable(runCount, threshold) ? null : runsNeeded(threshold, options.minSegment),
    },
    changes,
    events,
    drifts,
    comparisons,
    ignored: [...names].sort(),
    series: all,
    skipped: input.skipped ?? [],
  };
}

/**
 * The thresholds of the two families of one history. P is the one hypothesis
 * declared before looking ("did performance change?", as `check` gates P at
 * alpha alone): its own series, mean and sd, share alpha (Bonferroni over
 * them), and do not pay for the other variables' number; those share another
 * alpha among themselves. (Bonferroni over all of them put a 10× change of P
 * in a history of 12 runs beside 6 variables, p ≈ 0.006, above 0.05/20, and
 * found nothing.) Each family's false-alarm rate stays alpha.
 */
export function familyThresholds(alpha: number, metricSeries: number, otherSeries: number): { metric: number; other: number } {
  return { metric: alpha / Math.max(1, metricSeries), other: alpha / Math.max(1, otherSeries) };
}

/**
 * The smallest permutation p any series of n runs can have (changepoint.ts):
 * a clean step halfway, both sides constant, is matched by just the orderings
 * that put the same half first or last, 2 of C(n, ⌊n/2⌋) splits into halves.
 * (Any other series keeps at least the orderings within its two sides, so its
 * p is no smaller.)
 */
export function smallestP(n: number): number {
  let c = 1;
  const k = Math.floor(n / 2);
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return Math.min(1, 2 / c);
}

/**
 * Whether n runs can beat `threshold` at all: smallestP plus the floor of the
 * permutation estimate, 1/(B + 1) with B = ⌈4/threshold⌉ (changepoint.ts), is below it.
 */
export function reachable(n: number, threshold: number): boolean {
  return smallestP(n) + 1 / (Math.ceil(4 / threshold) + 1) < threshold;
}

/** The fewest runs (at least two segments) that can beat `threshold`. */
export function runsNeeded(threshold: number, minSegment: number): number {
  let n = 2 * minSegment;
  while (!reachable(n, threshold)) n++;
  return n;
}

/**
 * The instances `good` then `bad` of a FeatureSet as a two-class FeatureSet
 * (same variables, Dref and P; weights 1; ignored variables dropped), for the
 * before/after comparison.
 */
export function subsetFeatures(fs: FeatureSet, good: readonly number[], bad: readonly number[], ignored: (name: string) => boolean): FeatureResult {
  const order = [...good, ...bad];
  const instances = order.map((i, j) => ({ ...(fs.instances[i] as Instance), className: j < good.length ? 'good' as const : 'bad' as const }));
  const tables = fs.tables.map((t) => {
    const keep = t.variables.map((v, k) => k).filter((k) => !ignored(t.variables[k]!));
    return {
      kind: t.kind,
      feature: t.feature,
      variables: keep.map((k) => t.variables[k]!),
      columns: keep.map((k) => Float64Array.from(order, (i) => (t.columns[k] as Float64Array)[i] as number)),
    };
  });
  const features: FeatureSet = {
    instances, nGood: good.length, nBad: bad.length, weights: new Float64Array(order.length).fill(1),
    metric: fs.metric, tables, referenceDuration: fs.referenceDuration,
  };
  const p = metricValues(features);
  return {
    features,
    heavyTail: detectHeavyTail(p.values, p.variable, p.kind, p.feature),
    weighting: { mode: 'none', half: null, applied: false },
    warnings: [],
  };
}

/**
 * Group change points whose runs are closer than `minSegment` to the previous
 * one into events (a chain: 12, 13, 14 is one event), each located at P's
 * change if P changed, else at the run where most of its series changed
 * (earliest on a tie).
 */
function groupEvents(raw: readonly Omit<DetectedChange, 'event'>[], minSegment: number): { events: ChangeEvent[]; changes: DetectedChange[] } {
  const events: ChangeEvent[] = [];
  const changes: DetectedChange[] = [];
  let start = 0;
  for (let i = 1; i <= raw.length; i++) {
    if (i < raw.length && raw[i]!.run - raw[i - 1]!.run < minSegment) continue;
    const group = raw.slice(start, i);
    const metric = group.find((c) => c.metric);
    const counts = new Map<number, number>();
    for (const c of group) counts.set(c.run, (counts.get(c.run) ?? 0) + 1);
    const most = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
    const e = events.length;
    events.push({ run: metric?.run ?? most, first: group[0]!.run, last: group[group.length - 1]!.run, series: group.length, metric: metric !== undefined });
    for (const c of group) changes.push({ ...c, event: e });
    start = i;
  }
  return { events, changes };
}

/**
 * The series as searched: standard deviations on a log scale and correlations
 * as Fisher's z = atanh(r), so that the spread of a run's value does not grow
 * with its level (an sd estimate's error is proportional to the sd; r's
 * shrinks near ±1). Changes are reported in the original units.
 */
function stabilized(s: RunSeries): Float64Array {
  if (s.statistic === 'mean') return s.values;
  if (s.statistic === 'correlation') return s.values.map((r) => Math.atanh(Math.max(-0.999999, Math.min(0.999999, r))));
  let max = 0;
  for (const x of s.values) if (x > max) max = x;
  return s.values.map((x) => Math.log(x + 1e-9 * max));
}

function segmentMean(values: Float64Array, from: number, to: number): number {
  let sum = 0;
  let n = 0;
  for (let i = from; i < to; i++) {
    if (Number.isFinite(values[i])) {
      sum += values[i] as number;
      n++;
    }
  }
  return n > 0 ? sum / n : Number.NaN;
}

/** 'up'/'down' when every finite value is strictly above/below the one before (at least 2·3 of them). */
function monotone(values: Float64Array): 'up' | 'down' | null {
  const x = [...values].filter(Number.isFinite);
  if (x.length < 6) return null;
  let up = true;
  let down = true;
  for (let i = 1; i < x.length; i++) {
    if (!(x[i]! > x[i - 1]!)) up = false;
    if (!(x[i]! < x[i - 1]!)) down = false;
  }
  return up ? 'up' : down ? 'down' : null;
}

function constant(values: Float64Array): boolean {
  const x = [...values].filter(Number.isFinite);
  return x.every((v) => v === x[0]);
}
