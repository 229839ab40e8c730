import type { WelchResult } from './types.js';

/**
 * How large a test's difference is, to break ties of equal |z| (SPEC §3:
 * "Ties in the ranking are broken by effect size, never by name"). Perfectly
 * separated features, and two-sample tests at the bound their sizes allow
 * (rankingZ), all carry the same |z|; what tells them apart is how far apart
 * the classes are:
 *  1. |effect size| (Hedges' g; Cohen's h for an occurrence), a missing one
 *     (NaN) counting 0; a perfect separation has g = ±∞, so
 *  2. then the change relative to the larger class mean,
 *     |bad − good| / max(|good|, |bad|), unit-free and in [0, 1]
 *     (0 when both means are 0 or missing): 1 ms → 10 ms (0.9) is larger
 *     than 1 ms → 1.5 ms (0.33).
 * Returns < 0 when `a` is the larger effect (sorts first), > 0 when `b` is, 0 when equal.
 */
export function compareEffect(a: Pick<WelchResult, 'effectSize' | 'meanGood' | 'meanBad'>, b: Pick<WelchResult, 'effectSize' | 'meanGood' | 'meanBad'>): number {
  const g = magnitude(b.effectSize) - magnitude(a.effectSize);
  if (g !== 0 && !Number.isNaN(g)) return g; // ∞ − ∞ is NaN: equal, go on
  return relativeChange(b) - relativeChange(a);
}

function magnitude(x: number): number {
  return Number.isNaN(x) ? 0 : Math.abs(x);
}

/** |bad − good| / max(|good|, |bad|); 0 when undefined. */
export function relativeChange(r: Pick<WelchResult, 'meanGood' | 'meanBad'>): number {
  const scale = Math.max(Math.abs(r.meanGood), Math.abs(r.meanBad));
  const d = Math.abs(r.meanBad - r.meanGood) / scale;
  return Number.isFinite(d) ? d : 0;
}
