/**
 * The median of `values` where each value counts `weights[i]` times (integer
 * replication counts), NaN values and zero weights skipped: the median of the
 * expanded list, i.e. the mean of its two middle elements when the total
 * weight is even (SPEC §2). For non-integer weights the same positions
 * ⌊(T−1)/2⌋ and ⌊T/2⌋ of the cumulative weight T are used.
 * NaN when nothing is left.
 */
export function weightedMedian(values: Float64Array, weights?: Float64Array): number {
  const kept: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (!Number.isNaN(values[i]) && (weights === undefined || weights[i] > 0)) kept.push(i);
  }
  if (kept.length === 0) return NaN;
  kept.sort((a, b) => values[a] - values[b] || a - b);
  const weightOf = (i: number): number => (weights === undefined ? 1 : weights[i]);
  let total = 0;
  for (const i of kept) total += weightOf(i);
  return (at(Math.floor((total - 1) / 2)) + at(Math.floor(total / 2))) / 2;

  /** The value at 0-based position p of the expanded list. */
  function at(p: number): number {
    let cumulative = 0;
    for (const i of kept) {
      cumulative += weightOf(i);
      if (cumulative > p) return values[i];
    }
    return values[kept[kept.length - 1]];
  }
}
