import { correlationOver } from '../features/stats.js';
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
    if (ranges.every(([start, end]) => Math.abs(correlationOver(column, pColumn, start, end)) >= ALIAS_MIN_CORRELATION)) aliases.push(variable);
  });
  return aliases;
}

