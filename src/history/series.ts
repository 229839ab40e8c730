/**
 * One point per run (PerfDetect, chapter 3 §3.1.1): for P and every
 * (variable, feature type), the run's mean, its standard deviation, and its
 * Pearson correlation with P across the run's instances.
 */
import { metricValues } from '../features/metric.js';
import { correlation } from '../stats/correlation.js';
import type { FeatureSet, FeatureType, LogKind } from '../features/types.js';

export type Statistic = 'mean' | 'sd' | 'correlation';
export const STATISTICS: readonly Statistic[] = ['mean', 'sd', 'correlation'];

export interface RunSeries {
  readonly kind: LogKind;
  readonly variable: string;
  readonly feature: FeatureType;
  readonly statistic: Statistic;
  /** Whether this is the performance metric P. */
  readonly metric: boolean;
  /** One value per run, NaN where the run has too few values. */
  readonly values: Float64Array;
}

/**
 * Every series of the history. P is one series pair (mean, sd) of its own
 * value (metricValues: the named metric, else the duration); the correlation
 * of P with itself is left out, and so is a built-in duration's copy in every
 * feature type. `ignored(name)` leaves a variable out entirely.
 * Missing feature values are skipped; sd needs 2 values in the run, the
 * correlation 3 pairs and spread in both.
 */
export function runSeries(fs: FeatureSet, runOf: Int32Array, runCount: number, ignored: (name: string) => boolean): RunSeries[] {
  const p = metricValues(fs);
  const byRun = groupByRun(runOf, runCount);
  const out: RunSeries[] = [];
  out.push({ kind: p.kind, variable: p.variable, feature: p.feature, statistic: 'mean', metric: true, values: perRun(byRun, (at) => mean(p.values, at)) });
  out.push({ kind: p.kind, variable: p.variable, feature: p.feature, statistic: 'sd', metric: true, values: perRun(byRun, (at) => sd(p.values, at)) });
  for (const table of fs.tables) {
    const pName = table.kind === 'event' ? fs.metric.event : fs.metric.state;
    table.variables.forEach((variable, v) => {
      if (variable === pName || ignored(variable)) return;
      const column = table.columns[v] as Float64Array;
      const base = { kind: table.kind, variable, feature: table.feature, metric: false };
      out.push({ ...base, statistic: 'mean', values: perRun(byRun, (at) => mean(column, at)) });
      out.push({ ...base, statistic: 'sd', values: perRun(byRun, (at) => sd(column, at)) });
      out.push({ ...base, statistic: 'correlation', values: perRun(byRun, (at) => correlation(column, p.values, at)) });
    });
  }
  return out;
}

/** Instance indices of each run. */
export function groupByRun(runOf: Int32Array, runCount: number): number[][] {
  const out: number[][] = Array.from({ length: runCount }, () => []);
  runOf.forEach((r, i) => {
    if (r >= 0) out[r]!.push(i);
  });
  return out;
}

function perRun(byRun: readonly number[][], f: (at: readonly number[]) => number): Float64Array {
  return Float64Array.from(byRun, f);
}

/** Mean of the finite values at `at`; NaN when none. */
export function mean(x: Float64Array, at: readonly number[]): number {
  let s = 0;
  let n = 0;
  for (const i of at) {
    const v = x[i] as number;
    if (Number.isFinite(v)) {
      s += v;
      n++;
    }
  }
  return n > 0 ? s / n : Number.NaN;
}

/** Sample standard deviation (n − 1) of the finite values at `at`; NaN below 2 values. */
export function sd(x: Float64Array, at: readonly number[]): number {
  const m = mean(x, at);
  let ss = 0;
  let n = 0;
  for (const i of at) {
    const v = x[i] as number;
    if (Number.isFinite(v)) {
      ss += (v - m) ** 2;
      n++;
    }
  }
  return n >= 2 ? Math.sqrt(ss / (n - 1)) : Number.NaN;
}

