import { correlationOver } from '../stats/correlation.js';
import { classRange, type FeatureSet, type FeatureTable } from '../features/types.js';

/** The aliases of P of every feature table that has a metric (`metricAliases` per table), computed once. */
export function aliasesByTable(fs: FeatureSet): Map<FeatureTable, string[]> {
  const out = new Map<FeatureTable, string[]>();
  // Arrays met again (a follower's column is its leader's, the built-in duration is in every table) are compared once.
  const known = new Map<Float64Array, Map<Float64Array, boolean>>();
  for (const table of fs.tables) {
    const p = fs.metric[table.kind];
    if (p !== null) out.set(table, aliasesIn(fs, table, p, known));
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
  return aliasesIn(fs, table, metric, new Map());
}

/** metricAliases, with `known` the answers for pairs of arrays already compared in `fs` (its tables share arrays). */
function aliasesIn(fs: FeatureSet, table: FeatureTable, metric: string, known: Map<Float64Array, Map<Float64Array, boolean>>): string[] {
  const p = table.variables.indexOf(metric);
  if (p < 0) return [];
  const pColumn = table.columns[p] as Float64Array;
  const ranges = [classRange(fs, 'good'), classRange(fs, 'bad')];
  let withP = known.get(pColumn);
  if (withP === undefined) known.set(pColumn, (withP = new Map()));
  const aliases: string[] = [];
  table.variables.forEach((variable, v) => {
    if (v === p) return;
    const column = table.columns[v] as Float64Array;
    let alias = withP.get(column);
    if (alias === undefined) {
      alias = ranges.every(([start, end]) => Math.abs(correlationOver(column, pColumn, start, end)) >= ALIAS_MIN_CORRELATION);
      withP.set(column, alias);
    }
    if (alias) aliases.push(variable);
  });
  return aliases;
}

