/**
 * Comparing like with like (SPEC §3, "Kinds"): a feature is compared within
 * each kind (request type) and the per-kind differences are combined by
 * inverse-variance weighting.
 */
import { fewValuesTest, REFERENCE_MIN_VALUES, FEW_VALUES } from './prediction.js';
import { studentTTwoSided } from '../stats/student-t.js';
import type { StratumDetail, WelchResult } from './types.js';
import { classMoments, commonScale, sampleVariance, welchTest } from './welch.js';
import { separationLog10p } from '../stats/normal.js';


export interface StratifiedResult extends WelchResult {
  readonly strata: readonly StratumDetail[];
}

/** A stratum's values of one feature: good and bad, with their weights (replication counts). */
export interface Stratum {
  readonly kind: string;
  readonly good: Float64Array;
  readonly bad: Float64Array;
  readonly wGood?: Float64Array | undefined;
  readonly wBad?: Float64Array | undefined;
}

/**
 * The inverse-variance weighted difference of means over strata k:
 *   d_k = x̄_bad,k − x̄_good,k,  v_k = s²_bad,k/n_bad,k + s²_good,k/n_good,k,
 *   d = Σ w_k d_k / W,  w_k = 1/v_k,  W = Σ w_k,  t = d·√W,
 * df by Welch–Satterthwaite over every class-in-kind variance term
 * (w_k/W)²·s²/n with its n − 1 df; with one stratum this is Welch's test.
 * A stratum enters when both classes have ≥ 2 values; or, where one class has
 * 1–2 values and the other ≥ 3 (SPEC §3 few instances), with the reference
 * class's s² standing for both: v_k = s²_ref·(1/n_few + 1/n_ref), n_ref − 1 df
 * (the prediction test's variance).
 * Edge cases: a stratum with v_k = 0 and d_k = 0 carries no information and is
 * skipped; strata with v_k = 0 and d_k ≠ 0 are perfectly separated: if all of
 * them agree in sign the result is separated (t = ±∞, p = 0), otherwise they
 * are skipped. meanGood/meanBad are the class means over the entering strata;
 * effectSize is d over the df-weighted pooled within-stratum SD (Hedges' J
 * applied). null when no stratum enters.
 */
export function stratifiedTest(strata: readonly Stratum[]): StratifiedResult | null {
  const parts: { detail: StratumDetail; d: number; v: number; terms: [variance: number, df: number][]; pooledVar: number; pooledDf: number }[] = [];
  let sumGood = 0;
  let nGoodAll = 0;
  let sumBad = 0;
  let nBadAll = 0;
  for (const s of strata) {
    const scale = commonScale(s.good, s.bad);
    const g = classMoments(s.good, s.wGood, scale);
    const b = classMoments(s.bad, s.wBad, scale);
    let terms: [number, number][];
    let pooledVar: number;
    let pooledDf: number;
    if (g.count >= 2 && b.count >= 2 && g.n > 1 && b.n > 1) {
      const vg = sampleVariance(g) * scale * scale;
      const vb = sampleVariance(b) * scale * scale;
      terms = [[vb / b.n, b.n - 1], [vg / g.n, g.n - 1]];
      pooledDf = g.n + b.n - 2;
      pooledVar = ((g.n - 1) * vg + (b.n - 1) * vb) / pooledDf;
    } else if (b.count >= 1 && b.count <= FEW_VALUES && g.count >= REFERENCE_MIN_VALUES && g.n > 1) {
      const vr = sampleVariance(g) * scale * scale;
      terms = [[vr * (1 / b.n + 1 / g.n), g.n - 1]];
      pooledVar = vr;
      pooledDf = g.n - 1;
    } else if (g.count >= 1 && g.count <= FEW_VALUES && b.count >= REFERENCE_MIN_VALUES && b.n > 1) {
      const vr = sampleVariance(b) * scale * scale;
      terms = [[vr * (1 / g.n + 1 / b.n), b.n - 1]];
      pooledVar = vr;
      pooledDf = b.n - 1;
    } else {
      continue;
    }
    const meanGood = g.mean * scale;
    const meanBad = b.mean * scale;
    const d = meanBad - meanGood;
    const v = terms.reduce((sum, [x]) => sum + x, 0);
    const t = v > 0 ? d / Math.sqrt(v) : d === 0 ? 0 : d > 0 ? Infinity : -Infinity;
    parts.push({ detail: { kind: s.kind, nGood: g.n, nBad: b.n, meanGood, meanBad, t }, d, v, terms, pooledVar, pooledDf });
    sumGood += meanGood * g.n;
    nGoodAll += g.n;
    sumBad += meanBad * b.n;
    nBadAll += b.n;
  }
  if (parts.length === 0) return null;
  const strataOut = parts.map((p) => p.detail);
  const base = { meanGood: sumGood / nGoodAll, meanBad: sumBad / nBadAll, nGood: nGoodAll, nBad: nBadAll, strata: strataOut };
  const dfAll = nGoodAll + nBadAll - 2;
  const separated = parts.filter((p) => p.v === 0 && p.d !== 0);
  const signs = new Set(separated.map((p) => Math.sign(p.d)));
  if (separated.length > 0 && signs.size === 1) {
    const t = separated[0]!.d > 0 ? Infinity : -Infinity;
    return { t, df: dfAll, p: 0, log10p: -Infinity, effectSize: t, ...base };
  }
  const informative = parts.filter((p) => p.v > 0);
  if (informative.length === 0) return { t: 0, df: dfAll, p: 1, log10p: 0, effectSize: 0, ...base };
  let W = 0;
  let dw = 0;
  for (const p of informative) {
    W += 1 / p.v;
    dw += p.d / p.v;
  }
  const d = dw / W;
  const t = d * Math.sqrt(W);
  let denominator = 0;
  for (const p of informative) {
    const share = 1 / p.v / W;
    for (const [variance, df] of p.terms) denominator += (share * share * variance) ** 2 / df;
  }
  const df = (1 / W) ** 2 / denominator;
  const { p, log10p } = studentTTwoSided(t, df);
  let pooledVar = 0;
  let pooledDf = 0;
  for (const part of informative) {
    pooledVar += part.pooledVar * part.pooledDf;
    pooledDf += part.pooledDf;
  }
  const sd = Math.sqrt(pooledVar / pooledDf);
  const j = 1 - 3 / (4 * (nGoodAll + nBadAll) - 9);
  return { t, df, p, log10p, effectSize: sd > 0 ? (j * d) / sd : 0, ...base };
}

/**
 * The default way of comparing within kinds: each kind that has enough values
 * is tested on its own (Welch's test, or the prediction test where one class
 * has 1–2 values), and the strongest kind stands for the feature, its p
 * Bonferroni-corrected over the k kinds tested (p·k, capped at 1). A change in
 * one request type among several unchanged ones keeps its power here, where
 * the inverse-variance combination (`stratifiedTest`) dilutes it towards the
 * unchanged kinds' zero difference. t, df, means and effect size are the
 * strongest kind's; every tested kind is listed in `strata`. null when no kind
 * can be tested.
 */
export function strongestStratumTest(strata: readonly Stratum[]): StratifiedResult | null {
  const tested: { kind: string; r: WelchResult }[] = [];
  for (const s of strata) {
    const r = fewValuesTest(s.good, s.bad, s.wGood, s.wBad) ?? welchTest(s.good, s.bad, s.wGood, s.wBad);
    if (r !== null) tested.push({ kind: s.kind, r: withSeparationP(r) });
  }
  if (tested.length === 0) return null;
  const best = tested.reduce((x, y) => (y.r.log10p < x.r.log10p || (y.r.log10p === x.r.log10p && Math.abs(y.r.t) > Math.abs(x.r.t)) ? y : x));
  const k = tested.length;
  return {
    ...best.r,
    p: Math.min(1, best.r.p * k),
    log10p: Math.min(0, best.r.log10p + Math.log10(k)),
    strata: tested.map(({ kind, r }) => ({ kind, nGood: r.nGood, nBad: r.nBad, meanGood: r.meanGood, meanBad: r.meanBad, t: r.t })),
  };
}

/**
 * A perfectly separated result (t = ±∞: both classes constant and different)
 * with the p its sample sizes can carry, `separationLog10p(nGood, nBad)`, in
 * place of p = 0: constant values from a handful of instances are not
 * infinitely significant. Any other result is returned as it is.
 */
export function withSeparationP<R extends WelchResult>(r: R): R {
  if (Number.isFinite(r.t) || Number.isNaN(r.t)) return r;
  const log10p = separationLog10p(r.nGood, r.nBad);
  return { ...r, p: 10 ** log10p, log10p };
}
