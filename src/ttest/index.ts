/**
 * Stage 3 of the pipeline (SPEC §3, paper §2.2.2): every (variable, feature
 * type) tested bad against good — Welch's t-test, the prediction test where a
 * class has 1–2 values, within instance kinds where there are kinds — plus the
 * occurrence of every event variable; one multiple-testing correction over all
 * of them; variables ranked by Σ|z| of their significant features.
 */
import { sourceOf } from '../features/sources.js';
import { DURATION, classRange, type FeatureSet, type FeatureTable, type LogKind, type VariableSource } from '../features/types.js';
import { significantFlags } from './correction.js';
import { deflate, familyKey, inflationOf } from './inflation.js';
import { separationZ, signedZ, Z_CAP } from '../stats/normal.js';
import { mantelHaenszelTest, occurrenceTest, type OccurrenceResult, type OccurrenceTable } from './occurrence.js';
import { FEW_VALUES, fewValuesTest } from './prediction.js';
import { rankVariables } from './rank.js';
import { stratifiedTest, strongestStratumTest, withSeparationP, type StratifiedResult, type Stratum } from './strata.js';
import type { Correction, Inflation, Presence, SpreadSummary, TestMethod, TestResult, TestSummary, TestedFeature, WelchResult } from './types.js';
import { brownForsytheTest } from './spread.js';
import { welchTest } from './welch.js';
import { unitOutlierTest, windowTest, type Windows } from './windows.js';

export { studentTTwoSided, lnGamma } from '../stats/student-t.js';
export { welchTest } from './welch.js';
export { significantFlags } from './correction.js';
export { rankVariables } from './rank.js';
export { signedZ, Z_CAP } from '../stats/normal.js';
export { occurrenceTest, mantelHaenszelTest } from './occurrence.js';
export { predictionTest, fewValuesTest } from './prediction.js';
export { inflationOf, deflate, MIN_FAMILY, CHI2_1_MEDIAN } from './inflation.js';
export { brownForsytheTest } from './spread.js';
export { stratifiedTest, strongestStratumTest } from './strata.js';
export { windowTest, unitOutlierTest, windowsByTime, windowsByEntry, type Windows, type WindowTestResult } from './windows.js';
export type * from './types.js';

export interface TestOptions {
  /** Family-wise significance level (SPEC §3: 0.05, `--alpha`). */
  readonly alpha: number;
  /** Multiple-testing correction (SPEC §3: `bonferroni`, `--correction`). */
  readonly correction: Correction;
  /**
   * With two or more instance kinds: `on` (the default) tests each kind and
   * lets the strongest stand for the feature (corrected over the kinds);
   * `combine` takes the inverse-variance combination of the per-kind
   * differences (SPEC §3 as written); `off` pools every instance.
   */
  readonly kinds?: 'on' | 'combine' | 'off';
  /**
   * `auto` (the default): a (kind, feature) family of at least 100 tests whose
   * median z² shows inflation λ > 1 is deflated by √λ before the correction
   * (genomic control, see inflation.ts); `off`: every test as it is.
   */
  readonly inflation?: 'auto' | 'off';
  /**
   * The window (run, file, time slice) of each instance (`--windows`,
   * `--window`): with two or more good windows, every feature is also tested
   * against the spread between windows (windowTest), and the weaker of the
   * two tests stands (a difference must exceed both the requests' spread and
   * the windows' drift). Absent: every instance is its own replicate.
   */
  readonly windows?: Windows;
}

interface Performed {
  readonly variable: string;
  readonly kind: LogKind;
  readonly feature: TestedFeature;
  readonly method: TestMethod;
  readonly result: WelchResult;
  readonly z: number;
  /** A two-sample test, whose ranking z is bounded by what its sizes can carry (rankingZ). */
  readonly twoSample: boolean;
  readonly strata?: StratifiedResult['strata'];
  /** λ of its family, where the family was deflated. */
  readonly inflation?: number;
}

/** A column's test, whichever variable and feature it stands for. */
type ColumnTest = Omit<Performed, 'variable' | 'kind' | 'feature' | 'inflation'>;

/**
 * Tests every variable column of every table of `fs`: good instances are
 * [0, nGood), bad ones [nGood, nGood + nBad), weighted by `fs.weights`.
 * Per column (SPEC §3):
 *  - with kinds (two or more distinct instance kinds, and `kinds` not 'off'):
 *    each kind with enough values tested on its own, the strongest standing
 *    for the feature (`strongestStratumTest`), or with `kinds: 'combine'` the
 *    inverse-variance combination (`stratifiedTest`); a column no kind can
 *    test is tested pooled;
 *  - pooled: the prediction test when one class has 1–2 values and the other
 *    ≥ 3, else Welch's test (≥ 2 values in each class);
 *  - otherwise untestable, and left out of m.
 * Then, per event variable (not the built-in duration), its occurrence:
 * Fisher's exact test or the G-test pooled, Mantel–Haenszel over kinds with
 * kinds; a table with a single possible outcome (the event occurs in every
 * instance, or none) is untestable. Tests are listed in `fs.tables` order
 * then variable order, occurrence tests after the event tables.
 * Pure and deterministic.
 */
export function runTests(fs: FeatureSet, options: TestOptions): TestSummary {
  const [g0, g1] = classRange(fs, 'good');
  const [b0, b1] = classRange(fs, 'bad');
  // Weights all 1 (no --weight, or none applied) are no weights: the same sums to the bit
  // (1·x = x, n counts by 1), without reading a million weights per column and class.
  const unweighted = allOnes(fs.weights);
  const wGood = unweighted ? undefined : fs.weights.subarray(g0, g1);
  const wBad = unweighted ? undefined : fs.weights.subarray(b0, b1);
  const strata = options.kinds === 'off' ? null : kindStrata(fs);
  const windows = calibrating(options.windows);
  // Units that kinds do not tell apart (no kind, or one kind for all: `I` records name the first event their kind,
  // so the same instances read through a translator or from its records are the same units).
  const firstKind = fs.instances[0]?.kind ?? null;
  const wholeFiles = windows === undefined && fs.instances.length > 0 && fs.instances.every((i) => i.kind === null || i.kind === firstKind);
  const performed: Performed[] = [];
  let untestable = 0;
  // A column that is another's array (a follower's is its leader's; the built-in duration is one array in every
  // table: FeatureTable) has that one's test: computed once, not once per table (20 times a million values for D).
  const testedColumns = new Map<Float64Array, ColumnTest | null>();
  const columnTest = (column: Float64Array): ColumnTest | null => {
    const stratified = strata === null ? null
      : (options.kinds === 'combine' ? stratifiedTest : strongestStratumTest)(strata.map((s) => s.of(column)));
    if (stratified !== null) {
      const { strata: detail, ...result } = withSeparationP(stratified);
      const twoSample = Math.min(result.nGood, result.nBad) > FEW_VALUES;
      return { method: 'kinds', result, z: rankingZ(result, twoSample), twoSample, strata: detail };
    }
    const good = column.subarray(g0, g1);
    const bad = column.subarray(b0, b1);
    const few = fewValuesTest(good, bad, wGood, wBad);
    const found = few ?? welchTest(good, bad, wGood, wBad);
    if (found === null) return null;
    const result = withSeparationP(found);
    // Whole files are the units: one bad unit far outside its peers is tested as such (unitOutlierTest).
    const outlier = few === null && wholeFiles ? unitOutlierTest(good, bad, options.alpha, wGood, wBad) : null;
    if (outlier !== null) {
      // The second question asked of the feature (one unit out, not all units shifted) pays twice its p: Welch's
      // result stands as it was, and min(p_welch, 2·p_outlier) has level at most 1.5α (weighted Bonferroni).
      const o = outlier; // (its own p where the good units are constant: unitOutlierTest)
      const paid = { ...o, p: Math.min(1, 2 * o.p), log10p: Math.min(0, o.log10p + Math.log10(2)) };
      if (paid.log10p < result.log10p) return { method: 'outlier', result: paid, z: rankingZ(paid, false), twoSample: false };
    }
    return { method: few !== null ? 'prediction' : 'welch', result, z: rankingZ(result, few === null), twoSample: few === null };
  };
  // With windows: the instance test, or the between-window test where it is weaker.
  const windowed = (column: Float64Array, test: ColumnTest | null): ColumnTest | null => {
    if (windows === undefined || test === null) return test;
    const w = windowTest(column, unweighted ? undefined : fs.weights, windows, g0, g1, b0, b1);
    if (w === null) return test;
    const { tau2: _tau2, windowsGood: _g, windowsBad: _b, ...plain } = w;
    const result = withSeparationP(plain);
    if (!(result.log10p > test.result.log10p)) return test;
    return { method: 'windows', result, z: rankingZ(result, true), twoSample: true };
  };
  const tableTests = (table: FeatureTable): void => {
    table.variables.forEach((variable, v) => {
      const column = table.columns[v] as Float64Array;
      let test = testedColumns.get(column);
      if (test === undefined) testedColumns.set(column, (test = windowed(column, columnTest(column))));
      if (test === null) untestable++;
      else performed.push({ variable, kind: table.kind, feature: table.feature, ...test });
    });
  };
  const presence = new Map<string, Presence>();
  const pendingOccurrence: Performed[] = [];
  for (const table of fs.tables) {
    tableTests(table);
    if (table.kind === 'event' && table.feature === 'count') {
      table.variables.forEach((variable, v) => {
        if (variable === DURATION && fs.metric.eventIsDuration) return;
        const column = table.columns[v] as Float64Array;
        const occurs = occurrenceTable(column, fs.weights, g0, g1, b0, b1);
        presence.set(variable, occurs.occursBad === 0 ? 'vanished' : occurs.occursGood === 0 ? 'new' : 'both');
        const r = occurrenceOf(occurs, strata?.map((s) => s.occurrence(column)) ?? null, presence.get(variable) !== 'both');
        if (r === null) {
          untestable++;
          return;
        }
        const result: WelchResult = {
          t: r.z, df: Infinity, p: r.p, log10p: r.log10p,
          meanGood: r.shareGood, meanBad: r.shareBad, nGood: occurs.nGood, nBad: occurs.nBad, effectSize: r.effectSize,
        };
        const own: ColumnTest = { method: r.method, result, z: capped(r.z), twoSample: false };
        // With windows: the share of instances it occurs in, per window, against the windows' spread.
        const test = windows === undefined ? own : windowed(Float64Array.from(column, (c) => (Number.isNaN(c) ? Number.NaN : c > 0 ? 1 : 0)), own) ?? own;
        pendingOccurrence.push({ variable, kind: 'event', feature: 'occurrence', ...(test === own ? own : { ...test, result: { ...test.result, meanGood: r.shareGood, meanBad: r.shareBad } }) });
      });
    }
  }
  // Occurrence tests come after every event table, before the state tables.
  const firstState = performed.findIndex((x) => x.kind === 'state');
  if (firstState < 0) performed.push(...pendingOccurrence);
  else performed.splice(firstState, 0, ...pendingOccurrence);

  const sourceOfTest = (x: Performed): VariableSource => sourceOf(fs, x.kind, x.variable);
  const inflation = options.inflation === 'off' ? [] : deflateInflated(performed, (kind) => (kind === 'event' ? fs.metric.event : fs.metric.state), sourceOfTest);

  // One hypothesis per distinct test: identical results (first/median/last of an event that occurs once, a
  // span's start and end occurring together) are one question asked twice, counted once in the correction.
  // Each source (log lines, spans, metrics) is its own family (SPEC §3, Replication: each source calibrated on its
  // own): a source added to an analysis cannot make another's evidence weaker (docs/calibration.md).
  const { representative, distinct } = distinctTests(performed.map((x) => ({ method: x.method, source: sourceOfTest(x), ...x.result })));
  const { flags: distinctFlags, families } = flagsPerSource(distinct.map((i) => performed[i]!), sourceOfTest, options);
  const flags = representative.map((r) => distinctFlags[r]!);
  const maxFiniteAbsT = { event: 0, state: 0 };
  const maxAbsZ = { event: 0, state: 0 };
  const tests: TestResult[] = performed.map(({ variable, kind, feature, method, result, z, strata: detail, inflation: lambda }, i) => {
    const abs = Math.abs(result.t);
    if (abs !== Infinity && abs > maxFiniteAbsT[kind]) maxFiniteAbsT[kind] = abs;
    if (Math.abs(z) > maxAbsZ[kind]) maxAbsZ[kind] = Math.abs(z);
    return {
      variable,
      kind,
      feature,
      method,
      t: result.t,
      df: result.df,
      p: result.p,
      log10p: result.log10p,
      z,
      significant: flags[i]!,
      separated: abs === Infinity,
      presence: kind === 'event' ? presence.get(variable) ?? 'both' : 'both',
      meanGood: result.meanGood,
      meanBad: result.meanBad,
      nGood: result.nGood,
      nBad: result.nBad,
      effectSize: result.effectSize,
      ...(detail !== undefined ? { strata: detail } : {}),
      ...(lambda !== undefined ? { inflation: lambda } : {}),
    };
  });

  return {
    tests,
    spread: strata === null ? spreadTests(fs, tests, options, unweighted) : null,
    ranking: rankVariables(tests),
    performed: tests.length,
    hypotheses: distinct.length,
    families,
    untestable,
    alpha: options.alpha,
    correction: options.correction,
    kinds: strata === null ? null : strata.map((s) => s.kind),
    windows: options.windows === undefined ? null : { good: options.windows.good, bad: options.windows.bad, calibrated: windows !== undefined },
    inflation,
    maxFiniteAbsT,
    maxAbsZ,
  };
}

/**
 * Genomic control over `performed`, in place: λ per (source, kind, feature) family
 * (P's own tests neither counted nor deflated: P is the question, not one of
 * many), estimated from each test's own z (its p's quantile, not the bounded
 * ranking z); each test of a family with λ > 1 gets p = 2·Q(|z|/√λ) and its
 * ranking z recomputed from that. Returns every family's λ.
 */
function deflateInflated(performed: Performed[], metricOf: (kind: LogKind) => string | null, sourceOfTest: (x: Performed) => VariableSource): Inflation[] {
  const isMetric = (x: Performed): boolean => x.variable === metricOf(x.kind);
  const ownZ = performed.map((x) => signedZ(Math.sign(x.result.t), x.result.log10p));
  const sources = performed.map(sourceOfTest);
  const families = inflationOf(performed.flatMap((x, i) => (isMetric(x) ? [] : [{ source: sources[i] as VariableSource, kind: x.kind, feature: x.feature, z: ownZ[i] as number }])));
  const lambdaOf = new Map(families.filter((f) => f.applied).map((f) => [familyKey(f), f.lambda]));
  if (lambdaOf.size === 0) return families;
  performed.forEach((x, i) => {
    const lambda = lambdaOf.get(familyKey({ ...x, source: sources[i] as VariableSource }));
    if (lambda === undefined || isMetric(x)) return;
    const { log10p } = deflate(ownZ[i] as number, lambda);
    const result: WelchResult = { ...x.result, log10p, p: 10 ** log10p };
    // rankingZ of a test that is not two-sample (occurrence, prediction) is its p's z, capped at Z_CAP.
    performed[i] = { ...x, result, z: rankingZ(result, x.twoSample), inflation: lambda };
  });
  return families;
}

/**
 * Spread (spread.ts, issue 52): where P's headline test (as the verdict
 * reads it: the built-in duration's first table, a named event metric's
 * `last.abs`, a named state metric's `final`) does not differ at α, P's
 * spread is tested and is significant where 2p < α (a
 * second question asked of P, after its mean, pays twice: weighted
 * Bonferroni). Where it is, every other column that had a test is tested for
 * spread too, Bonferroni over those tests. null where P's mean differs or P
 * has no test. Not called where instances are compared within kinds: the
 * pooled spread moves with the mix of kinds, with no cause (TrainTicket,
 * logs: a return fault's duration of 10 kinds "differed in spread" at
 * p 0.017 and spread tests of other services led, 2 faults lost).
 */
function spreadTests(fs: FeatureSet, tests: readonly TestResult[], options: TestOptions, unweighted: boolean): SpreadSummary | null {
  const [g0, g1] = classRange(fs, 'good');
  const [b0, b1] = classRange(fs, 'bad');
  const wGood = unweighted ? undefined : fs.weights.subarray(g0, g1);
  const wBad = unweighted ? undefined : fs.weights.subarray(b0, b1);
  const columnOf = (kind: LogKind, variable: string, feature: TestedFeature): Float64Array | undefined => {
    const table = fs.tables.find((t) => t.kind === kind && t.feature === feature);
    return table?.columns[table.variables.indexOf(variable)];
  };
  const spreadOf = (t: TestResult, column: Float64Array): TestResult | null => {
    const r = brownForsytheTest(column.subarray(g0, g1), column.subarray(b0, b1), wGood, wBad);
    if (r === null) return null;
    return {
      variable: t.variable, kind: t.kind, feature: t.feature, presence: t.presence, ...r, method: 'brown-forsythe',
      z: capped(signedZ(Math.sign(r.t), r.log10p)), separated: Math.abs(r.t) === Infinity, significant: false,
    };
  };
  let pTest: TestResult | undefined;
  for (const kind of ['event', 'state'] as const) {
    const name = fs.metric[kind];
    if (name === null || pTest !== undefined) continue;
    const isDuration = kind === 'event' ? fs.metric.eventIsDuration : fs.metric.stateIsDuration;
    const feature = isDuration ? (kind === 'event' ? 'first.abs' : 'min') : kind === 'event' ? 'last.abs' : 'final';
    pTest = tests.find((x) => x.kind === kind && x.variable === name && x.feature === feature);
  }
  if (pTest === undefined || pTest.significant || pTest.log10p < Math.log10(options.alpha)) return null;
  const pColumn = columnOf(pTest.kind, pTest.variable, pTest.feature);
  const pSpread = pColumn === undefined ? null : spreadOf(pTest, pColumn);
  if (pSpread === null) return null;
  const metric = { ...pSpread, significant: pSpread.log10p + Math.log10(2) < Math.log10(options.alpha) };
  if (!metric.significant) return { metric, tests: [] };
  const isP = (t: TestResult): boolean => t.variable === fs.metric[t.kind];
  const found: TestResult[] = [];
  const seen = new Map<Float64Array, TestResult | null>();
  for (const t of tests) {
    if (isP(t) || t.feature === 'occurrence') continue;
    const column = columnOf(t.kind, t.variable, t.feature);
    if (column === undefined) continue;
    let r = seen.get(column);
    if (r === undefined) seen.set(column, (r = spreadOf(t, column)));
    if (r !== null) found.push({ ...r, variable: t.variable, kind: t.kind, feature: t.feature, presence: t.presence });
  }
  const flags = significantFlags(found.map((x) => x.log10p), options.alpha, options.correction);
  return { metric, tests: found.map((x, i) => ({ ...x, significant: flags[i] as boolean })) };
}

/**
 * The z a test ranks by (SPEC §3): sign(t)·Φ⁻¹(1 − p/2), capped at 38 and, for
 * a two-sample test, at the evidence its sample sizes can carry:
 * `separationZ(nGood, nBad)`, the z of a complete separation under an exact
 * rank test (which is what a perfectly separated feature's p is: see
 * withSeparationP). No Student tail from a handful of near-constant values
 * claims more (issue 10, cause 5: two values against four no longer outrank a
 * cause seen in a hundred instances). The prediction test (1–2 values against
 * a class) is not bounded: its question is one the ranks cannot answer.
 */
function rankingZ(result: WelchResult, twoSample: boolean): number {
  const z = signedZ(Math.sign(result.t), result.log10p);
  if (!twoSample) return z;
  return Math.sign(z) * Math.min(Math.abs(z), separationZ(result.nGood, result.nBad));
}

/**
 * Tests whose results are identical in every field (method, t, df, p, means,
 * sizes) test the same hypothesis on the same data. `distinct` lists the
 * first index of each, in order; `representative[i]` is the position in
 * `distinct` of test i's hypothesis.
 */
export function distinctTests(results: readonly (WelchResult & { readonly method: TestMethod; readonly source?: VariableSource })[]): { representative: number[]; distinct: number[] } {
  const seen = new Map<string, number>();
  const distinct: number[] = [];
  const representative = results.map((r, i) => {
    const key = `${r.source ?? ''}|${r.method}|${r.t}|${r.df}|${r.log10p}|${r.meanGood}|${r.meanBad}|${r.nGood}|${r.nBad}`;
    let at = seen.get(key);
    if (at === undefined) {
      at = distinct.length;
      seen.set(key, at);
      distinct.push(i);
    }
    return at;
  });
  return { representative, distinct };
}

/** The correction's flags for `tests`, each source's tests corrected as one family of their own (m = that source's tests), and the families. */
function flagsPerSource(tests: readonly Performed[], sourceOfTest: (x: Performed) => VariableSource, options: TestOptions): { flags: boolean[]; families: TestSummary['families'] } {
  const bySource = new Map<VariableSource, number[]>();
  tests.forEach((x, i) => {
    const s = sourceOfTest(x);
    (bySource.get(s) ?? bySource.set(s, []).get(s)!).push(i);
  });
  const flags = new Array<boolean>(tests.length).fill(false);
  for (const members of bySource.values()) {
    const own = significantFlags(members.map((i) => tests[i]!.result.log10p), options.alpha, options.correction);
    members.forEach((i, j) => { flags[i] = own[j]!; });
  }
  return { flags, families: [...bySource].map(([source, members]) => ({ source, hypotheses: members.length })) };
}

function capped(z: number): number {
  return Math.max(-Z_CAP, Math.min(Z_CAP, z));
}

/** The windows when they can calibrate: at least two good windows and one bad one; else undefined. */
function calibrating(w: Windows | undefined): Windows | undefined {
  return w !== undefined && w.good >= 2 && w.bad >= 1 ? w : undefined;
}

/** Whether every weight is 1. */
function allOnes(w: Float64Array): boolean {
  for (let i = 0; i < w.length; i++) if (w[i] !== 1) return false;
  return true;
}

/** Weighted counts of instances in which the event occurs (count > 0), per class. */
function occurrenceTable(count: Float64Array, weights: Float64Array, g0: number, g1: number, b0: number, b1: number): OccurrenceTable {
  let occursGood = 0;
  let nGood = 0;
  let occursBad = 0;
  let nBad = 0;
  for (let i = g0; i < g1; i++) {
    nGood += weights[i] as number;
    if ((count[i] as number) > 0) occursGood += weights[i] as number;
  }
  for (let i = b0; i < b1; i++) {
    nBad += weights[i] as number;
    if ((count[i] as number) > 0) occursBad += weights[i] as number;
  }
  return { occursGood, nGood, occursBad, nBad };
}

/**
 * Pooled: Fisher / G (null when the table has one possible outcome). With
 * kinds: Mantel–Haenszel over the kinds whose tables are informative (both
 * classes present, the event neither everywhere nor nowhere); with one such
 * kind its own Fisher / G. With none, the kinds explain where the event
 * occurs (it belongs to some request types and not others), and only an
 * event that is new or vanished is still tested, pooled.
 */
function occurrenceOf(pooled: OccurrenceTable, strata: readonly OccurrenceTable[] | null, newOrVanished: boolean): OccurrenceResult | null {
  const informative = (t: OccurrenceTable): boolean => {
    const m = t.occursBad + t.occursGood;
    return t.nBad > 0 && t.nGood > 0 && m > 0 && m < t.nBad + t.nGood;
  };
  const useful = strata?.filter(informative) ?? [];
  if (useful.length >= 2) return mantelHaenszelTest(useful);
  if (useful.length === 1) return occurrenceTest(useful[0]!);
  if (strata !== null && !newOrVanished) return null;
  return informative(pooled) ? occurrenceTest(pooled) : null;
}

interface KindStratum {
  readonly kind: string;
  of(column: Float64Array): Stratum;
  occurrence(count: Float64Array): OccurrenceTable;
}

/**
 * The instance kinds as strata (instances without a kind form one stratum of
 * their own), or null when there are fewer than two distinct kinds. Kinds in
 * code-unit order.
 */
function kindStrata(fs: FeatureSet): KindStratum[] | null {
  const first = fs.instances[0]?.kind ?? null;
  if (fs.instances.every((i) => i.kind === first)) return null; // one kind (or none): nothing grouped
  const byKind = new Map<string, { good: number[]; bad: number[] }>();
  fs.instances.forEach((instance, i) => {
    const key = instance.kind ?? '';
    let entry = byKind.get(key);
    if (entry === undefined) byKind.set(key, (entry = { good: [], bad: [] }));
    (i < fs.nGood ? entry.good : entry.bad).push(i);
  });
  if (byKind.size < 2) return null; // (null and '' are one stratum)
  const pick = (source: Float64Array, at: readonly number[]): Float64Array => {
    const out = new Float64Array(at.length);
    for (let j = 0; j < at.length; j++) out[j] = source[at[j] as number] as number;
    return out;
  };
  return [...byKind.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((kind) => {
    const { good, bad } = byKind.get(kind)!;
    const wGood = pick(fs.weights, good);
    const wBad = pick(fs.weights, bad);
    return {
      kind,
      of: (column) => ({ kind, good: pick(column, good), bad: pick(column, bad), wGood, wBad }),
      occurrence: (count) => {
        const t = { occursGood: 0, nGood: 0, occursBad: 0, nBad: 0 };
        good.forEach((i, j) => { t.nGood += wGood[j] as number; if ((count[i] as number) > 0) t.occursGood += wGood[j] as number; });
        bad.forEach((i, j) => { t.nBad += wBad[j] as number; if ((count[i] as number) > 0) t.occursBad += wBad[j] as number; });
        return t;
      },
    };
  });
}
