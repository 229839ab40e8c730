/**
 * The median (SPEC §2): the middle value, or the mean of the two middle ones
 * for an even count; NaN (missing) skipped; NaN when none remain.
 */

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
