/**
 * Median of sorted values; the mean of the two middle ones for an even count
 * (SPEC §2). NaN for none.
 */
export function medianOfSorted(sorted: ArrayLike<number>, from = 0, to = sorted.length): number {
  const n = to - from;
  if (n <= 0) return Number.NaN;
  const mid = from + (n >> 1);
  return n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Median of values, NaN (missing) skipped; NaN when none remain. */
export function median(values: ArrayLike<number>): number {
  const kept: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!Number.isNaN(v)) kept.push(v);
  }
  kept.sort((a, b) => a - b);
  return medianOfSorted(kept);
}
