/**
 * Occurrence tests (SPEC §3): is the share of instances in which an event
 * occurs different between good and bad? One 2×2 table per test:
 *
 *            occurs   absent
 *   bad        a        b        (a + b = nBad)
 *   good       c        d        (c + d = nGood)
 *
 * Counts are weighted (replication counts). Positive z: the bad class has the
 * larger share.
 */
import { logErfc } from '../stats/erfc.js';
import { lnGamma } from '../stats/gamma.js';
import { normalUpperQuantileFromLog } from '../stats/normal.js';

const LN10 = Math.LN10;

/** Fisher's exact test is used while the table's smallest margin is at most this; above it, the G-test. */
export const FISHER_MAX_MARGIN = 10_000;

export interface OccurrenceTable {
  /** Bad instances in which the event occurs, and all bad instances. */
  readonly occursBad: number;
  readonly nBad: number;
  readonly occursGood: number;
  readonly nGood: number;
}

export interface OccurrenceResult {
  readonly method: 'fisher' | 'g-test' | 'mantel-haenszel';
  /** Signed normal deviate of the two-sided p (uncapped; ±∞ when p underflows to log10p = −∞). */
  readonly z: number;
  /** The test statistic: χ²₁ for the G-test and Mantel–Haenszel, NaN for Fisher's. */
  readonly statistic: number;
  readonly p: number;
  readonly log10p: number;
  readonly shareGood: number;
  readonly shareBad: number;
  /** Cohen's h = 2·asin√share_bad − 2·asin√share_good (0.2 small, 0.5 medium, 0.8 large). */
  readonly effectSize: number;
}

/**
 * The occurrence test of one table: Fisher's exact test (two-sided: the sum of
 * the probabilities of all tables with the same margins that are no more
 * probable than the observed one, with R's relative tolerance 1e-7) when the
 * smallest margin is ≤ FISHER_MAX_MARGIN, else the G-test
 * G = 2·Σ O·ln(O/E) ~ χ²₁ (every expected count is then large).
 * Probabilities are summed in log space, so log10p stays right far past
 * double underflow. NaN everything when a class is empty.
 */
export function occurrenceTest(table: OccurrenceTable): OccurrenceResult {
  const { occursBad: a, nBad, occursGood: c, nGood } = table;
  const shareBad = a / nBad;
  const shareGood = c / nGood;
  const effectSize = 2 * Math.asin(Math.sqrt(shareBad)) - 2 * Math.asin(Math.sqrt(shareGood));
  const sign = Math.sign(shareBad - shareGood);
  const base = { shareGood, shareBad, effectSize };
  if (!(nBad > 0 && nGood > 0)) return { method: 'fisher', z: NaN, statistic: NaN, p: NaN, log10p: NaN, ...base };
  const occurs = a + c;
  const n = nBad + nGood;
  if (Math.min(nBad, nGood, occurs, n - occurs) <= FISHER_MAX_MARGIN) {
    const log10p = fisherLog10p(a, nBad, nGood, occurs);
    return { method: 'fisher', z: sign * zFromLog10p(log10p), statistic: NaN, p: 10 ** log10p, log10p, ...base };
  }
  const cells = [
    [a, (nBad * occurs) / n], [nBad - a, (nBad * (n - occurs)) / n],
    [c, (nGood * occurs) / n], [nGood - c, (nGood * (n - occurs)) / n],
  ] as const;
  let g = 0;
  for (const [o, e] of cells) if (o > 0) g += 2 * o * Math.log(o / e);
  return { method: 'g-test', ...chiSquare1(Math.max(0, g), sign), ...base };
}

/**
 * The Cochran–Mantel–Haenszel test of a common difference over strata (the
 * kinds of SPEC §3), without continuity correction:
 *   χ²_MH = (Σ_k (a_k − E_k))² / Σ_k V_k,  E_k = nBad_k·m_k/n_k,
 *   V_k = nBad_k·nGood_k·m_k·(n_k − m_k) / (n_k²·(n_k − 1)),
 * m_k the occurrences in stratum k; ~ χ²₁. Strata with V_k = 0 carry no
 * information and are skipped by construction. Shares and effect size are of
 * the pooled table. NaN when no stratum has V_k > 0.
 */
export function mantelHaenszelTest(strata: readonly OccurrenceTable[]): OccurrenceResult {
  let diff = 0;
  let variance = 0;
  const pooled = { occursBad: 0, nBad: 0, occursGood: 0, nGood: 0 };
  for (const s of strata) {
    pooled.occursBad += s.occursBad;
    pooled.nBad += s.nBad;
    pooled.occursGood += s.occursGood;
    pooled.nGood += s.nGood;
    const n = s.nBad + s.nGood;
    const m = s.occursBad + s.occursGood;
    if (n < 2) continue;
    diff += s.occursBad - (s.nBad * m) / n;
    variance += (s.nBad * s.nGood * m * (n - m)) / (n * n * (n - 1));
  }
  const shareBad = pooled.occursBad / pooled.nBad;
  const shareGood = pooled.occursGood / pooled.nGood;
  const base = { shareGood, shareBad, effectSize: 2 * Math.asin(Math.sqrt(shareBad)) - 2 * Math.asin(Math.sqrt(shareGood)) };
  if (!(variance > 0)) return { method: 'mantel-haenszel', z: NaN, statistic: NaN, p: NaN, log10p: NaN, ...base };
  return { method: 'mantel-haenszel', ...chiSquare1((diff * diff) / variance, Math.sign(diff)), ...base };
}

/** A χ²₁ statistic as p (P(χ²₁ > x) = erfc(√(x/2))) and signed z = ±√x. */
function chiSquare1(x: number, sign: number): { statistic: number; p: number; log10p: number; z: number } {
  const log10p = logErfc(Math.sqrt(x / 2)) / LN10;
  return { statistic: x, p: 10 ** log10p, log10p, z: sign * Math.sqrt(x) };
}

/**
 * log10 of Fisher's two-sided p for a bad-occurrence count `a`, with nBad and
 * nGood instances and `m` occurrences in all. Hypergeometric log-probabilities
 * over the support by the recurrence
 *   P(x+1)/P(x) = (nBad − x)(m − x) / ((x + 1)(nGood − m + x + 1)),
 * anchored with lnΓ at the support's lower end.
 */
function fisherLog10p(a: number, nBad: number, nGood: number, m: number): number {
  const lo = Math.max(0, m - nGood);
  const hi = Math.min(nBad, m);
  if (lo === hi) return 0;
  const lnChoose = (n: number, k: number): number => lnGamma(n + 1) - lnGamma(k + 1) - lnGamma(n - k + 1);
  const n = nBad + nGood;
  const logP = new Float64Array(hi - lo + 1);
  logP[0] = lnChoose(nBad, lo) + lnChoose(nGood, m - lo) - lnChoose(n, m);
  for (let x = lo; x < hi; x++) {
    logP[x - lo + 1] = (logP[x - lo] as number) + Math.log(((nBad - x) * (m - x)) / ((x + 1) * (nGood - m + x + 1)));
  }
  const observed = logP[a - lo] as number;
  const limit = observed + Math.log1p(1e-7);
  let max = -Infinity;
  for (const lp of logP) if (lp <= limit && lp > max) max = lp;
  let sum = 0;
  for (const lp of logP) if (lp <= limit) sum += Math.exp(lp - max);
  return Math.min(0, (max + Math.log(sum)) / LN10);
}

/** |z| of a two-sided p, from log10 p, uncapped (Infinity for −Infinity). */
function zFromLog10p(log10p: number): number {
  return log10p >= 0 ? 0 : normalUpperQuantileFromLog(log10p * LN10 - Math.LN2);
}
