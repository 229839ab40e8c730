/**
 * `distalyze check BASELINE NEW`: a CI gate for one new run against the
 * distribution of earlier runs. A pure function of the FeatureSet of all runs
 * (baseline runs in the good class, new runs in the bad class) and each
 * instance's run.
 *
 * The unit is the run: each run contributes one value per feature, the mean
 * over its instances, because nightly runs differ from one another by more
 * than instances within a run do (machines, data, time of day). The new
 * run's value is tested against the baseline runs' values with the prediction
 * test (SPEC §3 "few instances": 1–2 new runs against ≥ 3 baseline runs), or
 * Welch's test from 3 new runs on.
 */
import { analyze, type Analysis, type AnalysisOptions } from '../analysis.js';
import { metricValues } from '../features/metric.js';
import type { RunSkipped } from './skipped.js';
import type { FeatureSet, FeatureType, LogKind } from '../features/types.js';
import { subsetFeatures } from '../history/index.js';
import { mean, groupByRun } from '../history/series.js';
import type { VerdictCause } from '../attention/verdict.js';
import { causeStanding, featureChange } from '../report/verdict.js';
import { significantFlags } from '../ttest/correction.js';
import { REFERENCE_MIN_VALUES } from '../stats/sample-sizes.js';
import { fewValuesTest } from '../ttest/prediction.js';
import type { WelchResult } from '../ttest/types.js';
import { welchTest } from '../ttest/welch.js';

export interface CheckOptions {
  /** Significance of P's own test (one pre-declared hypothesis: not corrected). */
  readonly alpha: number;
  /** Fail only when P's mean is more than this fraction above the baseline's (0.05 = 5%). */
  readonly maxSlowdown: number;
  /** ... and at least this many baseline standard deviations above it. */
  readonly minEffect: number;
  readonly ignored: (name: string) => boolean;
  /**
   * The two-set analysis of the baseline's instances against the new runs',
   * as the main command makes it: its verdict orders the causes that the
   * failure line, the text and the annotations name. Without it, no causes.
   */
  readonly analysis?: AnalysisOptions;
}

export interface FeatureCheck extends WelchResult {
  readonly kind: LogKind;
  readonly variable: string;
  readonly feature: FeatureType;
  readonly method: 'prediction' | 'welch';
  /** Bonferroni over every feature tested (P's gate uses its own uncorrected p). */
  readonly significant: boolean;
  readonly separated: boolean;
  readonly metric: boolean;
}

export interface Gate {
  readonly passed: boolean;
  /** The one line saying why. */
  readonly reason: string;
  /** (new − baseline) / |baseline| of P's run means. */
  readonly slowdown: number;
  readonly maxSlowdown: number;
  readonly minEffect: number;
  readonly alpha: number;
}

export interface CheckResult {
  readonly baseline: { readonly runs: readonly string[]; readonly instances: number };
  readonly new: { readonly runs: readonly string[]; readonly instances: number };
  readonly metric: { readonly variable: string; readonly kind: LogKind; readonly feature: FeatureType };
  readonly gate: Gate;
  /** P's test (also in `tests`). */
  readonly p: FeatureCheck;
  readonly tests: readonly FeatureCheck[];
  /** Features that could not be tested (too few runs with a value). */
  readonly untestable: number;
  /** Variables left out by --ignore, by name. */
  readonly ignored: readonly string[];
  /** Per run (baseline runs, then new ones): the lines it skipped. */
  readonly skipped: { readonly baseline: readonly RunSkipped[]; readonly new: readonly RunSkipped[] };
  /** Baseline runs left out of the distribution because records of theirs were lost (RunSkipped.lost). */
  readonly leftOut: readonly RunSkipped[];
  /** Baseline instances against the new runs' (CheckOptions.analysis): its verdict's causes, in its order; null when not asked for. */
  readonly analysis: Analysis | null;
  /** The verdict's significant causes, in its order, that also differ significantly from the baseline run by run (`tests`). */
  readonly causes: readonly VerdictCause[];
}

export function runCheck(input: { readonly features: FeatureSet; readonly runOf: Int32Array; readonly runNames: readonly string[]; readonly runIsNew: readonly boolean[]; readonly skipped?: readonly RunSkipped[] }, options: CheckOptions): CheckResult {
  const fs = input.features;
  const byRun = groupByRun(input.runOf, input.runNames.length);
  const lost = (r: number): boolean => (input.skipped?.[r]?.lost ?? 0) > 0;
  const allBase = byRun.map((_, r) => r).filter((r) => !input.runIsNew[r]);
  // A baseline run read in part is left out (counted, named): its P is not a run's P (an 80% slower run passed
  // against a baseline where one run had lost its last events), and one broken night must not block every
  // later check either.
  const baseRuns = allBase.filter((r) => !lost(r));
  const newRuns = byRun.map((_, r) => r).filter((r) => input.runIsNew[r]);
  // A new run whose records were lost in part has no P to judge (duration: its first or last event may be the
  // line lost; a named metric: its own line may be): the gate does not pass it (SPEC §6: an input error, exit 2).
  for (const r of newRuns) {
    const s = input.skipped?.[r];
    if (s !== undefined && s.lost > 0) {
      throw new CheckInputError(`new run ${input.runNames[r]!}: ${s.lost} line${s.lost === 1 ? '' : 's'} that should be records could not be read, e.g. ${s.firstLost}; ` +
        'P of a run read in part cannot be judged (fix the lines; --strict stops at the first)');
    }
  }
  const perRun = (column: Float64Array, runs: readonly number[]): Float64Array => Float64Array.from(runs, (r) => mean(column, byRun[r]!));
  const pv = metricValues(fs);
  const columns: { kind: LogKind; variable: string; feature: FeatureType; column: Float64Array; metric: boolean }[] = [
    { kind: pv.kind, variable: pv.variable, feature: pv.feature, column: pv.values, metric: true },
  ];
  const ignored = new Set<string>();
  for (const table of fs.tables) {
    const pName = table.kind === 'event' ? fs.metric.event : fs.metric.state;
    table.variables.forEach((variable, v) => {
      if (variable === pName) return;
      if (options.ignored(variable)) {
        ignored.add(variable);
        return;
      }
      columns.push({ kind: table.kind, variable, feature: table.feature, column: table.columns[v] as Float64Array, metric: false });
    });
  }
  const performed: { c: (typeof columns)[number]; result: WelchResult; method: 'prediction' | 'welch' }[] = [];
  let untestable = 0;
  for (const c of columns) {
    const base = perRun(c.column, baseRuns);
    const now = perRun(c.column, newRuns);
    const few = fewValuesTest(base, now);
    const result = few ?? welchTest(base, now);
    if (result === null) untestable++;
    else performed.push({ c, result, method: few !== null ? 'prediction' : 'welch' });
  }
  const flags = significantFlags(performed.map((x) => x.result.log10p), options.alpha, 'bonferroni');
  const tests: FeatureCheck[] = performed.map(({ c, result, method }, i) => ({
    ...result, kind: c.kind, variable: c.variable, feature: c.feature, method,
    significant: flags[i]!, separated: Math.abs(result.t) === Infinity, metric: c.metric,
  }));
  const p = tests.find((t) => t.metric);
  const countOf = (runs: readonly number[]): number => runs.reduce((s, r) => s + byRun[r]!.length, 0);
  const names = (runs: readonly number[]): string[] => runs.map((r) => input.runNames[r]!);
  if (p === undefined) {
    if (baseRuns.length < allBase.length) {
      throw new CheckInputError(`cannot test P (${pv.variable}): ${allBase.length - baseRuns.length} of ${allBase.length} baseline runs were left out because lines that should be records could not be read ` +
        `(e.g. ${input.skipped![allBase.find(lost)!]!.firstLost}); at least ${REFERENCE_MIN_VALUES} whole runs are needed`);
    }
    throw new CheckInputError(`cannot test P (${pv.variable}): the baseline needs at least ${REFERENCE_MIN_VALUES} runs with a value of it, and the new runs at least 1`);
  }
  const skippedOf = (runs: readonly number[]): RunSkipped[] => input.skipped === undefined ? [] : runs.map((r) => input.skipped![r]!);
  const baseIdx = baseRuns.flatMap((r) => byRun[r]!);
  const newIdx = newRuns.flatMap((r) => byRun[r]!);
  const analysis = options.analysis === undefined ? null : analyze({
    classes: { good: classSummary(fs, baseIdx), bad: classSummary(fs, newIdx) },
    features: subsetFeatures(fs, baseIdx, newIdx, options.ignored),
  }, options.analysis);
  // The verdict's causes, in its order, that also differ from the baseline run by run: the run is check's unit, and a
  // variable that the baseline's runs already spread over (a build number counting up) is no news in a new run.
  const runLevel = new Set(tests.filter((t) => t.significant && !t.metric).map((t) => `${t.kind}\u0000${t.variable}`));
  // Neither a variable that is not significant among the instances nor a time too small to matter is news for a CI job.
  const causes = analysis === null ? [] : analysis.verdict.causes.filter((c) => c.source !== 'weak' && !c.negligible && runLevel.has(`${c.kind}\u0000${c.variable}`));
  const gate = gateOf(p, tests, { ...options, baselineRuns: baseRuns.length, causes: analysis === null ? '' : causesClause(analysis, causes) });
  return {
    baseline: { runs: names(baseRuns), instances: countOf(baseRuns) },
    new: { runs: names(newRuns), instances: countOf(newRuns) },
    metric: { variable: pv.variable, kind: pv.kind, feature: pv.feature },
    gate, p, tests, untestable, ignored: [...ignored].sort(), analysis, causes,
    skipped: { baseline: skippedOf(allBase), new: skippedOf(newRuns) },
    leftOut: skippedOf(allBase.filter(lost)),
  };
}

function classSummary(fs: FeatureSet, idx: readonly number[]) {
  return {
    instances: idx.length, files: idx.length, bytes: 0,
    records: idx.reduce((s, i) => s + fs.instances[i]!.records, 0), skippedLines: 0, skippedExamples: [],
  };
}

/** How many herrings the failure line names. */
const HERRINGS_NAMED = 2;

/**
 * The verdict's top cause and its first herrings, as the gate's line ends
 * with them: the same cause, in the same words, as the main command's verdict.
 */
function causesClause(a: Analysis, causes: readonly VerdictCause[]): string {
  const v = a.verdict;
  const top = causes[0];
  if (top === undefined || top.source === 'weak' || top.negligible) return '';
  const herrings = causes.slice(1).filter((c) => causeStanding(c, v, a).role === 'herring').slice(0, HERRINGS_NAMED).map((c) => c.variable);
  const tail = herrings.length > 0 ? `; changed, but not tied to it: ${herrings.join(', ')}` : '';
  return `; top cause: ${top.variable} (${top.kind} ${top.feature} ${featureChange(top.kind, top.feature, top.meanGood, top.meanBad)}, ${causeStanding(top, v, a).words})${tail}`;
}

/** A check that cannot be made from its input; the CLI turns it into an InputError. */
export class CheckInputError extends Error {}

/**
 * The gate: fail iff P's new mean is above the baseline's by more than
 * maxSlowdown, by at least minEffect baseline sds, and significantly (P's own
 * two-sided p < alpha). Larger P is worse (a duration, a runtime). A failure
 * names `causes` (the verdict's top cause and herrings, as runCheck words them).
 */
export function gateOf(p: FeatureCheck, tests: readonly FeatureCheck[], o: Omit<CheckOptions, 'ignored' | 'analysis'> & { readonly baselineRuns: number; readonly causes?: string }): Gate {
  const slowdown = (p.meanBad - p.meanGood) / Math.abs(p.meanGood);
  const pct = (x: number): string => `${(Math.abs(x) * 100).toFixed(1)}%`;
  const limit = `${+(o.maxSlowdown * 100).toFixed(4)}%`;
  const sd = p.effectSize !== 0 && Number.isFinite(p.effectSize) ? Math.abs((p.meanBad - p.meanGood) / p.effectSize) : Number.NaN;
  const isTime = p.variable === 'duration' || p.feature === 'last.abs';
  const added = p.meanBad - p.meanGood;
  const addedText = Number.isFinite(added) && added !== 0 ? `${added > 0 ? '+' : '−'}${fmt(Math.abs(added))}${isTime ? ' s' : ''}: ` : '';
  const facts = `${addedText}${fmt(p.meanBad)} against ${fmt(p.meanGood)}${Number.isFinite(sd) ? ` ± ${fmt(sd)}` : ''} over ${o.baselineRuns} baseline runs; ` +
    `p ${p.p < 1e-4 ? p.p.toExponential(1) : +p.p.toPrecision(2)}, effect ${p.separated ? '∞' : +p.effectSize.toFixed(2)} sd`;
  const others = tests.filter((t) => t.significant && !t.metric).length;
  const tail = others > 0 ? `; ${others} other feature${others === 1 ? '' : 's'} differ${others === 1 ? 's' : ''} significantly` : '';
  const name = p.variable;
  const base = { slowdown, maxSlowdown: o.maxSlowdown, minEffect: o.minEffect, alpha: o.alpha };
  if (!(slowdown > 0)) {
    return { ...base, passed: true, reason: `pass: ${name} is ${pct(slowdown)} ${slowdown < 0 ? 'faster than' : 'the same as'} the baseline (${facts})${tail}` };
  }
  const head = `${name} is ${pct(slowdown)} slower than the baseline (${facts})`;
  if (slowdown <= o.maxSlowdown) return { ...base, passed: true, reason: `pass: ${head}, within --max-slowdown ${limit}${tail}` };
  if (!(p.p < o.alpha)) return { ...base, passed: true, reason: `pass: ${head}, within the baseline's run-to-run spread (p ≥ ${o.alpha})${tail}` };
  if (p.effectSize < o.minEffect) return { ...base, passed: true, reason: `pass: ${head}, below --min-effect ${o.minEffect} sd${tail}` };
  return { ...base, passed: false, reason: `FAIL: ${head}, beyond --max-slowdown ${limit}${o.causes ?? ''}${tail}` };
}

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  return a !== 0 && (a >= 1e7 || a < 1e-3) ? x.toExponential(3) : String(Number(x.toPrecision(4)));
}
