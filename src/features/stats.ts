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

/** Mean of x at the given indices (all finite). */
function meanAt(x: ArrayLike<number>, at: readonly number[]): number {
  let s = 0;
  for (const i of at) s += x[i] as number;
  return s / at.length;
}

/** Pearson r over the indices where both are finite; NaN below 3 pairs or without spread in either. */
export function correlation(x: ArrayLike<number>, y: ArrayLike<number>, at: readonly number[]): number {
  const both = at.filter((i) => Number.isFinite(x[i]) && Number.isFinite(y[i]));
  if (both.length < 3) return Number.NaN;
  const mx = meanAt(x, both);
  const my = meanAt(y, both);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const i of both) {
    const dx = (x[i] as number) - mx;
    const dy = (y[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  // Spread at rounding level (a constant feature) is no spread.
  const tiny = (s: number, m: number): boolean => s <= (1e-12 * Math.max(1, Math.abs(m))) ** 2 * both.length;
  if (tiny(sxx, mx) || tiny(syy, my)) return Number.NaN;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}
