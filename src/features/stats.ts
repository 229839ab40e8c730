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

/**
 * Median of values, NaN (missing) skipped; NaN when none remain. The middle
 * order statistics are found by selection (Hoare's quickselect with a
 * median-of-three pivot, O(n) expected) in a Float64Array copy: the same
 * values a full sort would put in the middle, for a million durations in a
 * few ms instead of a sort's ~350. Selection by `<` cannot tell −0 from +0,
 * where a comparator sort keeps them in input order; the two can differ only
 * in the sign of a zero median, so a zero median is taken again by sorting.
 */
export function median(values: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i] as number)) n++;
  if (n === 0) return Number.NaN;
  const kept = new Float64Array(n);
  let w = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!Number.isNaN(v)) kept[w++] = v;
  }
  const mid = n >> 1;
  const upper = select(kept, mid);
  let m: number;
  if (n % 2 === 1) {
    m = upper;
  } else {
    // After selecting `mid`, everything below it is ≤ it: the lower middle is their largest.
    let lower = kept[0] as number;
    for (let i = 1; i < mid; i++) if ((kept[i] as number) > lower) lower = kept[i] as number;
    m = midpoint(lower, upper);
  }
  if (m !== 0) return m;
  const again: number[] = [];
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i] as number)) again.push(values[i] as number);
  again.sort((x, y) => x - y);
  return medianOfSorted(again);
}

/**
 * Rearrange a (no NaN) so that a[k] is the value a sort would put there,
 * everything before it ≤ it and everything after it ≥ it; returns a[k].
 */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    // Median of three as the pivot (sorted ends in place), so sorted or reversed input stays linear.
    const m = (lo + hi) >> 1;
    if ((a[m] as number) < (a[lo] as number)) swap(a, m, lo);
    if ((a[hi] as number) < (a[lo] as number)) swap(a, hi, lo);
    if ((a[hi] as number) < (a[m] as number)) swap(a, hi, m);
    const pivot = a[m] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    // [lo, j] ≤ pivot ≤ [i, hi], and values strictly between j and i equal the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k] as number;
  }
  return a[k] as number;
}

function swap(a: Float64Array, i: number, j: number): void {
  const x = a[i] as number;
  a[i] = a[j] as number;
  a[j] = x;
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

/**
 * Σ x[start, end), in order. A function that ends with its loop (see correlationOver): its callers' code after
 * their own loops stopped where the loop ran on into code not yet run.
 */
export function sumOver(x: Float64Array, start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += x[i] as number;
  return sum;
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
