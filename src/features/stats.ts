/**
 * Median of sorted values; the mean of the two middle ones for an even count
 * (SPEC §2). NaN for none.
 */
export function medianOfSorted(sorted: ArrayLike<number>, from = 0, to = sorted.length): number {
  const n = to - from;
  if (n <= 0) return Number.NaN;
  const mid = from + (n >> 1);
  return n % 2 === 1 ? (sorted[mid] as number) : midpoint(sorted[mid - 1] as number, sorted[mid] as number);
}

/** (a + b) / 2 without overflow: two values near ±1.8e308 have a finite mean. */
export function midpoint(a: number, b: number): number {
  const m = (a + b) / 2;
  return Number.isFinite(m) ? m : a / 2 + b / 2;
}

/** The mean of finite values, finite even where their sum overflows. */
export function finiteMean(values: ArrayLike<number>, sum: number): number {
  const n = values.length;
  if (Number.isFinite(sum)) return sum / n;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += (values[i] as number) / n;
  return mean;
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
