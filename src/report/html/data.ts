/**
 * The data the report page draws from, embedded as one JSON blob: compact rows
 * (arrays, names interned) so 5 000 tests stay a few hundred KB, and per-test
 * distributions within a fixed budget of values.
 */
import { VariableIndex } from '../../memory/variable-index.js';
import { distributionKey, type Analysis, type Distributions } from '../../analysis.js';
import type { LogKind } from '../../features/types.js';
import type { ClassName } from '../../parse/records.js';
import type { TestResult } from '../../ttest/types.js';
import { formatP, formatStat, formatValue, jsonNumber } from '../format.js';

/** How many per-instance values the page may embed in all, and per class per feature. */
export interface DataBudget {
  readonly values: number;
  readonly minPerClass: number;
  readonly maxPerClass: number;
}

export const DEFAULT_BUDGET: DataBudget = { values: 600_000, minPerClass: 50, maxPerClass: 2_000 };

type Num = number | string | null;

/**
 * One test: [name, kind (0 event, 1 state), feature, t, log10p, meanGood,
 * meanBad, effectSize, significant (0/1), t text, p text, meanGood text,
 * meanBad text, effectSize text, distribution index or -1].
 */
export type TestRow = [number, 0 | 1, number, Num, Num, Num, Num, Num, 0 | 1, string, string, string, string, string, number];

/** A ranked variable: [name, kind, score, score text, test indices of its significant features]. */
export type RankRow = [number, 0 | 1, Num, string, number[]];

/** Tukey box of one class: [q1, median, q3, low whisker, high whisker, n, missing], values as Num. */
export type Box = [Num, Num, Num, Num, Num, number, number];

/** One feature's values: the sampled instances' values (good then bad, `sample` order) and a box per class from all values. */
export interface DistRow {
  readonly v: Num[];
  readonly box: [Box, Box];
}

export interface PageData {
  readonly names: string[];
  readonly features: string[];
  readonly metric: { readonly event: string | null; readonly state: string | null };
  readonly tests: TestRow[];
  readonly ranking: RankRow[];
  /** Instance ids shown in plots, good ones then bad ones; `good` of them are good. */
  readonly instances: { readonly ids: string[]; readonly good: number; readonly totalGood: number; readonly totalBad: number };
  readonly dists: DistRow[];
  /** Indices into `tests` of the verdict's causes, in its order: the tests table opens on them. */
  readonly causes: number[];
  /** Per top graph: its kind, feature and node names, for clicking a node. */
  readonly graphs: { readonly kind: 0 | 1; readonly feature: number; readonly nodes: number[] }[];
}

export function buildPageData(a: Analysis, budget: DataBudget = DEFAULT_BUDGET): PageData {
  const names = new VariableIndex();
  const features = new VariableIndex();
  const kindCode = (k: LogKind): 0 | 1 => (k === 'event' ? 0 : 1);
  const sample = a.distributions === undefined ? null : chooseSample(a.distributions, a.tests.length, budget);
  const dists: DistRow[] = [];
  const testIndex = new Map<string, number>();
  const tests = a.tests.map((t, i): TestRow => {
    testIndex.set(distributionKey(t.kind, t.variable, t.feature), i);
    let dist = -1;
    const values = a.distributions?.values.get(distributionKey(t.kind, t.variable, t.feature));
    if (values !== undefined && sample !== null) {
      dist = dists.length;
      dists.push(distRow(values, sample));
    }
    return [
      names.id(t.variable), kindCode(t.kind), features.id(t.feature),
      jsonNumber(t.t), jsonNumber(t.log10p), jsonNumber(t.meanGood), jsonNumber(t.meanBad), jsonNumber(t.effectSize),
      t.significant ? 1 : 0,
      formatStat(t.t), formatP(t.p, t.log10p), formatValue(t.meanGood), formatValue(t.meanBad), formatStat(t.effectSize),
      dist,
    ];
  });
  const indexOf = (t: TestResult): number => testIndex.get(distributionKey(t.kind, t.variable, t.feature)) ?? -1;
  const ranking = a.ranking.map((r): RankRow => [
    names.id(r.variable), kindCode(r.kind), jsonNumber(r.score), formatStat(r.score, false),
    r.features.map(indexOf).filter((i) => i >= 0),
  ]);
  const graphs = a.graphs.map((g) => ({ kind: kindCode(g.kind), feature: features.id(g.feature), nodes: g.nodes.map((n) => names.id(n.variable)) }));
  const ids = sample === null ? [] : [...sample.good, ...sample.bad].map((i) => (a.distributions as Distributions).instances[i]!.id);
  return {
    names: names.names,
    features: features.names,
    metric: { event: a.metric.event, state: a.metric.state },
    tests,
    ranking,
    instances: {
      ids,
      good: sample?.good.length ?? 0,
      totalGood: sample?.totalGood ?? a.classes.good.instances,
      totalBad: sample?.totalBad ?? a.classes.bad.instances,
    },
    dists,
    causes: a.verdict.causes.map((c) => testIndex.get(distributionKey(c.kind, c.variable, c.feature)) ?? -1).filter((i) => i >= 0),
    graphs,
  };
}

interface Sample {
  /** Indices into Distributions.instances of the instances plotted, per class, in instance order. */
  readonly good: number[];
  readonly bad: number[];
  /** All instances of each class, for the boxes. */
  readonly allGood: number[];
  readonly allBad: number[];
  readonly totalGood: number;
  readonly totalBad: number;
}

/**
 * Which instances' values to embed: all of them when `tests × instances` fits the
 * budget, otherwise the same evenly spaced subset of each class for every
 * feature (deterministic; the boxes still summarise all values).
 */
export function chooseSample(d: Distributions, tests: number, budget: DataBudget): Sample {
  const byClass: Record<ClassName, number[]> = { good: [], bad: [] };
  d.instances.forEach((inst, i) => byClass[inst.className].push(i));
  const perClass = Math.max(budget.minPerClass, Math.min(budget.maxPerClass, Math.floor(budget.values / Math.max(1, tests) / 2)));
  const pick = (all: number[]): number[] => {
    if (all.length <= perClass) return all;
    const out: number[] = [];
    for (let k = 0; k < perClass; k++) out.push(all[Math.floor(((k + 0.5) * all.length) / perClass)]!);
    return out;
  };
  return {
    good: pick(byClass.good), bad: pick(byClass.bad),
    allGood: byClass.good, allBad: byClass.bad,
    totalGood: byClass.good.length, totalBad: byClass.bad.length,
  };
}

function distRow(values: Float64Array, sample: Sample): DistRow {
  const v = [...sample.good, ...sample.bad].map((i) => compact(values[i]!));
  return { v, box: [box(values, sample.allGood), box(values, sample.allBad)] };
}

/** Six significant digits are plenty for a plot and halve the blob. */
function compact(x: number): Num {
  if (Number.isNaN(x)) return null;
  if (!Number.isFinite(x)) return jsonNumber(x);
  return Number(x.toPrecision(6));
}

/**
 * Tukey's box over the non-missing values at `indices`: quartiles by linear
 * interpolation (R type 7), whiskers at the most extreme values within 1.5 IQR
 * of the box. All null when no value is present.
 */
export function box(values: Float64Array, indices: readonly number[]): Box {
  const xs: number[] = [];
  for (const i of indices) {
    const x = values[i]!;
    if (!Number.isNaN(x)) xs.push(x);
  }
  const missing = indices.length - xs.length;
  if (xs.length === 0) return [null, null, null, null, null, 0, missing];
  const s = Float64Array.from(xs).sort();
  const q1 = quantileOfSorted(s, 0.25);
  const q2 = quantileOfSorted(s, 0.5);
  const q3 = quantileOfSorted(s, 0.75);
  const fence = 1.5 * (q3 - q1);
  let lo = q1;
  let hi = q3;
  for (const x of s) {
    if (x >= q1 - fence && x < lo) lo = x;
    if (x <= q3 + fence && x > hi) hi = x;
  }
  return [compact(q1), compact(q2), compact(q3), compact(lo), compact(hi), s.length, missing];
}

/** Quantile q of sorted values by linear interpolation between order statistics (R type 7). */
export function quantileOfSorted(s: ArrayLike<number>, q: number): number {
  const h = (s.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(s.length - 1, lo + 1);
  return s[lo]! + (h - lo) * (s[hi]! - s[lo]!);
}
