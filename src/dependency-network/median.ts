import { midpoint } from '../stats/median.js';
import { sortColumn } from './sort-order.js';

/**
 * The median of `values` where each value counts `weights[i]` times (integer
 * replication counts), NaN values and zero weights skipped: the median of the
 * expanded list, i.e. the mean of its two middle elements when the total
 * weight is even (SPEC §2). For non-integer weights the same positions
 * ⌊(T−1)/2⌋ and ⌊T/2⌋ of the cumulative weight T are used.
 * NaN when nothing is left.
 */
export function weightedMedian(values: Float64Array, weights?: Float64Array): number {
  let kept = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]) && (weights === undefined || weights[i] > 0)) kept++;
  if (kept === 0) return NaN;
  const xs = new Float64Array(kept);
  const ws = new Float64Array(kept);
  let total = 0;
  for (let i = 0, k = 0; i < values.length; i++) {
    if (Number.isNaN(values[i]) || (weights !== undefined && !(weights[i] > 0))) continue;
    xs[k] = values[i];
    ws[k] = weights === undefined ? 1 : weights[i];
    total += ws[k];
    k++;
  }
  const { order, values: sorted } = sortColumn(xs);
  const lower = Math.floor((total - 1) / 2);
  const upper = Math.floor(total / 2);
  let cumulative = 0;
  let low = NaN;
  for (let i = 0; i < kept; i++) {
    cumulative += ws[order[i]];
    if (Number.isNaN(low) && cumulative > lower) low = sorted[i];
    if (cumulative > upper) return midpoint(low, sorted[i] as number);
  }
  return midpoint(low, sorted[kept - 1] as number);
}
