import { classRange, type FeatureSet, type FeatureTable } from '../features/types.js';

/** The aliases of P of every feature table that has a metric (`metricAliases` per table), computed once. */
export function aliasesByTable(fs: FeatureSet): Map<FeatureTable, string[]> {
  const out = new Map<FeatureTable, string[]>();
  for (const table of fs.tables) {
    const p = fs.metric[table.kind];
    if (p !== null) out.set(table, metricAliases(fs, table, p));
  }
  return out;
}

/** |r| at or above which a variable's feature is P under another name (SPEC §5). */
export const ALIAS_MIN_CORRELATION = 0.999;

/**
 * Aliases of P in one feature table (SPEC §5): the variables whose feature
 * correlates with P's feature at |r| ≥ 0.999 within each class (Pearson r
 * over the instances where both are present, unweighted; a class needs ≥ 3
 * such pairs and neither side constant, else it cannot show an alias). A
 * `Finish` event when P is `duration`, a `runtime` state: the metric itself,
 * not an explanation of it. P is not its own alias. Names in table order.
 */
export function metricAliases(fs: FeatureSet, table: FeatureTable, metric: string): string[] {
  const p = table.variables.indexOf(metric);
  if (p < 0) return [];
  const pColumn = table.columns[p] as Float64Array;
  const ranges = [classRange(fs, 'good'), classRange(fs, 'bad')];
  const aliases: string[] = [];
  table.variables.forEach((variable, v) => {
    if (v === p) return;
    const column = table.columns[v] as Float64Array;
    if (ranges.every(([start, end]) => Math.abs(rangeCorrelation(column, pColumn, start, end)) >= ALIAS_MIN_CORRELATION)) aliases.push(variable);
  });
  return aliases;
}

/**
 * `correlation(x, y, [start, …, end − 1])` of features/stats.ts without the index arrays: Pearson r
 * over the rows start ≤ i < end where both are finite, with the same sums in the same order (so the
 * same value to the bit); NaN below 3 pairs or without spread in either.
 */
function rangeCorrelation(x: Float64Array, y: Float64Array, start: number, end: number): number {
  let n = 0;
  let sumX = 0;
  let sumY = 0;
  for (let i = start; i < end; i++) {
    const xi = x[i] as number;
    const yi = y[i] as number;
    if (!Number.isFinite(xi) || !Number.isFinite(yi)) continue;
    n++;
    sumX += xi;
    sumY += yi;
  }
  if (n < 3) return Number.NaN;
  const mx = sumX / n;
  const my = sumY / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = start; i < end; i++) {
    const xi = x[i] as number;
    const yi = y[i] as number;
    if (!Number.isFinite(xi) || !Number.isFinite(yi)) continue;
    const dx = xi - mx;
    const dy = yi - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  // Spread at rounding level (a constant feature) is no spread.
  const tiny = (s: number, m: number): boolean => s <= (1e-12 * Math.max(1, Math.abs(m))) ** 2 * n;
  if (tiny(sxx, mx) || tiny(syy, my)) return Number.NaN;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}
