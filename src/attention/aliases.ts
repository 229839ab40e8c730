import { correlationOver } from '../stats/correlation.js';
import { classRange, type FeatureSet, type FeatureTable } from '../features/types.js';

/**
 * The aliases of P of every feature table that has a metric (`metricAliases`
 * per table), computed once; then a state variable that is an alias of P in
 * any of its features is one in all of them. A state is a measurement: one
 * whose value is P in one feature (a stopwatch whose last value is the
 * latency, a `runtime` logged at the end) measures P's progress in the others
 * (its mean, its value at ¾ of the run), a symptom of whatever made P worse,
 * never its cause (issue 52: such a stopwatch's mean was named as a cause
 * beside its listing as P under another name). An event is a place in the
 * code: the last line before the end shares P's time, and the wait before it
 * is still where time was lost, so an event is an alias only where its
 * feature is P's.
 */
export function aliasesByTable(fs: FeatureSet): Map<FeatureTable, string[]> {
  const out = new Map<FeatureTable, string[]>();
  // Arrays met again (a follower's column is its leader's, the built-in duration is in every table) are compared once.
  const known = new Map<Float64Array, Map<Float64Array, boolean>>();
  const stateAliases = new Set<string>();
  for (const table of fs.tables) {
    const p = fs.metric[table.kind];
    if (p === null) continue;
    const aliases = aliasesIn(fs, table, p, known);
    out.set(table, aliases);
    if (table.kind === 'state') for (const a of aliases) stateAliases.add(a);
  }
  if (stateAliases.size === 0) return out;
  for (const table of fs.tables) {
    if (table.kind !== 'state' || !out.has(table)) continue;
    out.set(table, table.variables.filter((v) => stateAliases.has(v)));
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

