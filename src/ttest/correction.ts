import type { Correction } from './types.js';

/**
 * Which of m tests are significant at family-wise level (or FDR) α, from their
 * log10 p-values (SPEC §3). m = the number of values given: the tests actually
 * performed. Comparisons are made in log10 space, so p-values that underflow
 * double precision still order and compare correctly. All thresholds are
 * strict (p < threshold), as SPEC §3 states for Bonferroni.
 * - `none`: p < α.
 * - `bonferroni`: p < α/m.
 * - `holm` (step-down; Holm 1979): sort p ascending; the k-th smallest
 *   (k = 1..m) is significant while p₍ₖ₎ < α/(m − k + 1); the first failure
 *   and everything after it are not.
 * - `bh` (step-up; Benjamini & Hochberg 1995): with k* the largest k such that
 *   p₍ₖ₎ < k·α/m, the k* smallest p-values are significant.
 * Ties in p are ordered by position, which cannot change any outcome.
 * NaN log10p is never significant (and is sorted last). Returns one flag per
 * input, in input order; an empty input gives an empty result.
 */
export function significantFlags(log10p: ArrayLike<number>, alpha: number, method: Correction): boolean[] {
  const m = log10p.length;
  const flags = new Array<boolean>(m).fill(false);
  const logAlpha = Math.log10(alpha);
  switch (method) {
    case 'none':
    case 'bonferroni': {
      const threshold = method === 'none' ? logAlpha : logAlpha - Math.log10(m);
      for (let i = 0; i < m; i++) flags[i] = log10p[i]! < threshold;
      return flags;
    }
    case 'holm': {
      const order = ascending(log10p);
      for (let k = 1; k <= m; k++) {
        const i = order[k - 1]!;
        if (!(log10p[i]! < logAlpha - Math.log10(m - k + 1))) break;
        flags[i] = true;
      }
      return flags;
    }
    case 'bh': {
      const order = ascending(log10p);
      let last = 0;
      for (let k = m; k >= 1; k--) {
        if (log10p[order[k - 1]!]! < logAlpha + Math.log10(k / m)) {
          last = k;
          break;
        }
      }
      for (let k = 1; k <= last; k++) flags[order[k - 1]!] = true;
      return flags;
    }
  }
}

/** Indices sorted by value ascending, NaN last, ties by index. */
function ascending(values: ArrayLike<number>): number[] {
  const key = (i: number): number => (Number.isNaN(values[i]!) ? Infinity : values[i]!);
  return Array.from({ length: values.length }, (_, i) => i).sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : a - b;
  });
}
