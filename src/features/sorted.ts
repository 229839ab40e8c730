/**
 * Binary searches over an ascending array (its first `n` values): the one
 * search the metric join does in three places (a series' times, a sliding
 * window's sorted values).
 */

/** The first index k < n with a[k] ≥ v (n when none): the lower bound. */
export function firstAtLeast(a: Float64Array, v: number, n = a.length): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index k < n with a[k] > v (n when none): the upper bound. */
export function firstAbove(a: Float64Array, v: number, n = a.length): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
