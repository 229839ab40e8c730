/**
 * Pearson's correlation r = Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)²·Σ(y−ȳ)²) over the rows
 * where both values are finite; NaN below 3 such rows or where either spread is
 * at rounding level (a constant feature); clamped to [−1, 1].
 */

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
  return pearson(both.length, mx, my, sxx, syy, sxy);
}

/**
 * `correlation(x, y, [start, …, end − 1])` without the index arrays: the rows
 * start ≤ i < end where both are finite, with the same sums in the same order
 * (so the same value to the bit).
 */
export function correlationOver(x: ArrayLike<number>, y: ArrayLike<number>, start: number, end: number): number {
  // Each pass is a function of its own that ends with its loop: compiled while its loop ran (on-stack replacement),
  // one function went on into the second pass and `pearson`, which had not run yet, and stopped there on each of
  // the next calls (8 to 30 times a run of 10 000 instances), running the rest unoptimized.
  const sums = new PairSums();
  const n = finitePairSums(x, y, start, end, sums);
  if (n < 3) return Number.NaN;
  const mx = sums.sumX / n;
  const my = sums.sumY / n;
  centredPairSums(x, y, start, end, mx, my, sums);
  return pearson(n, mx, my, sums.sxx, sums.syy, sums.sxy);
}

/** correlationOver's sums, as its passes leave them. */
class PairSums {
  sumX = 0;
  sumY = 0;
  sxx = 0;
  syy = 0;
  sxy = 0;
}

/** How many rows [start, end) have x and y finite; Σx and Σy over them into out.sumX, out.sumY. */
function finitePairSums(x: ArrayLike<number>, y: ArrayLike<number>, start: number, end: number, out: PairSums): number {
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
  out.sumX = sumX;
  out.sumY = sumY;
  return n;
}

/** Over the same rows, Σ(x − mx)², Σ(y − my)² and Σ(x − mx)(y − my) into out.sxx, out.syy, out.sxy. */
function centredPairSums(x: ArrayLike<number>, y: ArrayLike<number>, start: number, end: number, mx: number, my: number, out: PairSums): void {
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
  out.sxx = sxx;
  out.syy = syy;
  out.sxy = sxy;
}

/** r from n pairs' means and centred sums; NaN where either spread is at rounding level (a constant feature). */
function pearson(n: number, mx: number, my: number, sxx: number, syy: number, sxy: number): number {
  const tiny = (s: number, m: number): boolean => s <= (1e-12 * Math.max(1, Math.abs(m))) ** 2 * n;
  if (tiny(sxx, mx) || tiny(syy, my)) return Number.NaN;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}
