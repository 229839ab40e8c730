import type { FeatureSet, FeatureType, HeavyTail, LogKind } from './types.js';

/**
 * One value of P per instance, for heavy-tail detection and cost weights:
 * a named state metric's `final` value, else a named event metric's `last.abs`
 * (when it happened), else the duration D.
 */
export function metricValues(fs: Pick<FeatureSet, 'instances' | 'metric' | 'tables'>): { values: Float64Array; variable: string; kind: LogKind; feature: FeatureType } {
  const { metric } = fs;
  const pick = (kind: LogKind, feature: FeatureType, name: string) => {
    const table = fs.tables.find((t) => t.kind === kind && t.feature === feature);
    const v = table?.variables.indexOf(name) ?? -1;
    return table !== undefined && v >= 0 ? (table.columns[v] as Float64Array) : null;
  };
  if (metric.state !== null && !metric.stateIsDuration) {
    const values = pick('state', 'final', metric.state);
    if (values !== null) return { values, variable: metric.state, kind: 'state', feature: 'final' };
  }
  if (metric.event !== null && !metric.eventIsDuration) {
    const values = pick('event', 'last.abs', metric.event);
    if (values !== null) return { values, variable: metric.event, kind: 'event', feature: 'last.abs' };
  }
  const durations = new Float64Array(fs.instances.length);
  fs.instances.forEach((instance, i) => (durations[i] = instance.duration));
  return {
    values: durations,
    variable: 'duration',
    kind: metric.state !== null ? 'state' : 'event',
    feature: metric.state !== null ? 'final' : 'last.abs',
  };
}

/**
 * Heavy tail (SPEC §2, paper §2.2.1): more than 1.1% of instances (both classes
 * pooled) with P outside mean ± 3σ — 4× what a normal distribution puts there.
 * σ is the sample standard deviation; missing P values are left out.
 */
export function detectHeavyTail(values: Float64Array, variable: string, kind: LogKind, feature: FeatureType): HeavyTail {
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (const x of values) {
    if (Number.isNaN(x)) continue;
    n++;
    const d = x - mean;
    mean += d / n;
    m2 += d * (x - mean);
  }
  const sd = n > 1 ? Math.sqrt(m2 / (n - 1)) : 0;
  let outside = 0;
  for (const x of values) if (!Number.isNaN(x) && Math.abs(x - mean) > 3 * sd) outside++;
  const fraction = n > 0 ? outside / n : 0;
  return { detected: sd > 0 && fraction > 0.011, fraction, variable, kind, feature, mean, sd };
}

/** The q-quantile with linear interpolation between order statistics (R type 7); NaN skipped. */
export function percentile(values: Float64Array, q: number): number {
  const sorted = Float64Array.from(values).filter((x) => !Number.isNaN(x)).sort();
  if (sorted.length === 0) return Number.NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return (sorted[lo] as number) + (h - lo) * ((sorted[hi] as number) - (sorted[lo] as number));
}
