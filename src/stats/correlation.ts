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
  const n = finitePairSums(x, y, start, end);
  if (n < 3) return Number.NaN;
  const mx = pairSumX / n;
  const my = pairSumY / n;
  centredPairSums(x, y, start, end, mx, my);
  return pearson(n, mx, my, pairSxx, pairSyy, pairSxy);
}

// correlationOver's sums, as its passes leave them (one call at a time: nothing here awaits). Module variables, not
// an array's elements or an object's fields: writing those after the loop is code that has not run when the loop
// is compiled, and stopped there on every call (~10 times a run of 10 000 instances); a module variable's write
// needs nothing learned.
let pairSumX = 0;
let pairSumY = 0;
let pairSxx = 0;
let pairSyy = 0;
let pairSxy = 0;

/** How many rows [start, end) have x and y finite; Σx and Σy over them into pairSumX, pairSumY. */
function finitePairSums(x: ArrayLike<number>, y: ArrayLike<number>, start: number, end: number): number {
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
  pairSumX = sumX;
  pairSumY = sumY;
  return n;
}

/** Over the same rows, Σ(x − mx)², Σ(y − my)² and Σ(x − mx)(y − my) into pairSxx, pairSyy, pairSxy. */
function centredPairSums(x: ArrayLike<number>, y: ArrayLike<number>, start: number, end: number, mx: number, my: number): void {
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
  pairSxx = sxx;
  pairSyy = syy;
  pairSxy = sxy;
}

/** r from n pairs' means and centred sums; NaN where either spread is at rounding level (a constant feature). */
function pearson(n: number, mx: number, my: number, sxx: number, syy: number, sxy: number): number {
  const tiny = (s: number, m: number): boolean => s <= (1e-12 * Math.max(1, Math.abs(m))) ** 2 * n;
  if (tiny(sxx, mx) || tiny(syy, my)) return Number.NaN;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}
