/**
 * Calibration against natural variation (issue 52): requests of one window
 * (a minute, a run, a file of a day) share its load, pods, caches and JVM
 * state, so they are not independent replicates. A test over requests finds
 * any drift between two windows "significant"; whether a difference is more
 * than "another window" can only be told from how much windows differ when
 * nothing is wrong: the good class's several windows.
 */
import { separationLog10p } from '../stats/normal.js';
import { FEW_VALUES, predictionReference, REFERENCE_MIN_VALUES, weightedMean, type PredictionResult } from './prediction.js';
import { studentTTwoSided } from '../stats/student-t.js';
import type { WelchResult } from './types.js';

/**
 * The window (run, file, time slice) of each instance: `of[i]` is instance i's
 * window, good windows numbered [0, good), bad ones [good, good + bad); −1:
 * none (left out of the window test).
 */
export interface Windows {
  readonly of: Int32Array;
  readonly good: number;
  readonly bad: number;
}

interface WindowMoments {
  /** Σw of the finite values per window, their weighted means and sums of squared deviations. */
  readonly n: number[];
  readonly mean: number[];
  readonly ss: number[];
}

/** Per window of one class: Σw, mean, Σw(x − mean)² of the finite values (windows without values left out). */
function windowMoments(x: Float64Array, w: Float64Array | undefined, windows: Windows, from: number, to: number, first: number, count: number): WindowMoments {
  const n = new Float64Array(count);
  const sum = new Float64Array(count);
  for (let i = from; i < to; i++) {
    const v = x[i] as number;
    const j = (windows.of[i] as number) - first;
    if (!Number.isFinite(v) || j < 0 || j >= count) continue;
    const wi = w === undefined ? 1 : (w[i] as number);
    n[j] = (n[j] as number) + wi;
    sum[j] = (sum[j] as number) + wi * v;
  }
  const mean = Array.from(n, (nj, j) => (nj > 0 ? (sum[j] as number) / nj : Number.NaN));
  const ss = new Float64Array(count);
  for (let i = from; i < to; i++) {
    const v = x[i] as number;
    const j = (windows.of[i] as number) - first;
    if (!Number.isFinite(v) || j < 0 || j >= count) continue;
    const wi = w === undefined ? 1 : (w[i] as number);
    const d = v - (mean[j] as number);
    ss[j] = (ss[j] as number) + wi * d * d;
  }
  const keep = [...n.keys()].filter((j) => (n[j] as number) > 0);
  return { n: keep.map((j) => n[j] as number), mean: keep.map((j) => mean[j] as number), ss: keep.map((j) => ss[j] as number) };
}

/** The result of the between-window test: a WelchResult, and τ̂² (the between-window variance it used). */
export interface WindowTestResult extends WelchResult {
  readonly tau2: number;
  readonly windowsGood: number;
  readonly windowsBad: number;
}

/**
 * The random-effects (between-window) test of bad against good. Model: value
 * = class mean + window effect (variance τ²) + request noise (variance σ²_c
 * within a window). The class mean x̄_c = Σ_j n_j m_j / N_c over its windows j
 * (n_j values, mean m_j) then has variance τ²·H_c + σ²_c/N_c with
 * H_c = Σ_j (n_j/N_c)² (1/k for k equal windows, 1 for a single window), so
 *   t = (x̄_bad − x̄_good) / √(σ̂²_bad/N_bad + σ̂²_good/N_good + τ̂²·(H_bad + H_good)),
 * σ̂²_c the pooled within-window variance Σ_j SS_j / (N_c − k_c), and τ̂² the
 * method-of-moments (ANOVA) estimate from the good windows only — the
 * baseline, where nothing is wrong (Cochran 1954; the unweighted form of
 * DerSimonian & Laird, Controlled Clinical Trials 7, 1986, eq. 4):
 *   τ̂² = max(0, S²_m − σ̂²_good·mean_j(1/n_j)),  S²_m the sample variance of
 * the good windows' means (E[S²_m] = τ² + σ²·mean(1/n_j)).
 * df by Welch–Satterthwaite over the three terms with N_bad − k_bad,
 * N_good − k_good and k_good − 1 df. With τ̂² = 0 (windows differ no more than
 * their requests predict) this is Welch's test with within-window variances;
 * with one bad window and τ² dominating it is the prediction test of the bad
 * window against the good windows' means, t = d/(τ̂·√(1 + 1/k)).
 * Edge cases: null when the good class has fewer than 2 windows with values
 * (τ² cannot be estimated: drift and cause cannot be told apart), the bad
 * class none, or a class has no within-window df (every window a single
 * value: the windows are the units, and the instance test already tests them).
 * V = 0: t = 0 when the means are equal, else ±∞ (separated).
 * effectSize: d / √(σ̂²_pooled + τ̂²), Hedges' J applied over N_good + N_bad.
 */
export function windowTest(x: Float64Array, w: Float64Array | undefined, windows: Windows, g0: number, g1: number, b0: number, b1: number): WindowTestResult | null {
  const g = windowMoments(x, w, windows, g0, g1, 0, windows.good);
  const b = windowMoments(x, w, windows, b0, b1, windows.good, windows.bad);
  const kg = g.n.length;
  const kb = b.n.length;
  if (kg < 2 || kb < 1) return null;
  const sumOf = (a: readonly number[]): number => a.reduce((s, v) => s + v, 0);
  const Ng = sumOf(g.n);
  const Nb = sumOf(b.n);
  const dfWithinG = Ng - kg;
  const dfWithinB = Nb - kb;
  if (!(dfWithinG > 0) || !(dfWithinB > 0)) return null;
  const meanOf = (m: WindowMoments, N: number): number => m.n.reduce((s, nj, j) => s + nj * (m.mean[j] as number), 0) / N;
  const meanGood = meanOf(g, Ng);
  const meanBad = meanOf(b, Nb);
  const varG = sumOf(g.ss) / dfWithinG;
  const varB = sumOf(b.ss) / dfWithinB;
  const mBar = sumOf(g.mean) / kg;
  const s2m = g.mean.reduce((s, m) => s + (m - mBar) * (m - mBar), 0) / (kg - 1);
  const invN = g.n.reduce((s, nj) => s + 1 / nj, 0) / kg;
  const tau2 = Math.max(0, s2m - varG * invN);
  const H = (m: WindowMoments, N: number): number => m.n.reduce((s, nj) => s + (nj / N) * (nj / N), 0);
  const terms: [number, number][] = [[varB / Nb, dfWithinB], [varG / Ng, dfWithinG], [tau2 * (H(b, Nb) + H(g, Ng)), kg - 1]];
  const V = terms.reduce((s, [v]) => s + v, 0);
  const d = meanBad - meanGood;
  const base = { meanGood, meanBad, nGood: Ng, nBad: Nb, tau2, windowsGood: kg, windowsBad: kb };
  if (!(V > 0)) {
    if (d === 0) return { t: 0, df: Ng + Nb - 2, p: 1, log10p: 0, effectSize: 0, ...base };
    const t = d > 0 ? Infinity : -Infinity;
    return { t, df: Ng + Nb - 2, p: 0, log10p: -Infinity, effectSize: t, ...base };
  }
  const t = d / Math.sqrt(V);
  let denominator = 0;
  for (const [v, df] of terms) if (v > 0) denominator += (v * v) / df;
  const df = (V * V) / denominator;
  const { p, log10p } = studentTTwoSided(t, df);
  const sd = Math.sqrt((dfWithinG * varG + dfWithinB * varB) / (dfWithinG + dfWithinB) + tau2);
  const j = 1 - 3 / (4 * (Ng + Nb) - 9);
  return { t, df, p, log10p, effectSize: sd > 0 ? (j * d) / sd : 0, ...base };
}

/**
 * Few bad units among several (issue 52: "1 of 8 nodes slow"): where both
 * classes hold at least REFERENCE_MIN_VALUES units (files, nodes, runs),
 * each bad unit is prediction-tested against the good units (SPEC §3 "Few
 * instances": t = (x − x̄)/(s·√(1 + 1/n)), n − 1 df); where 1 to FEW_VALUES
 * of them stand out on their own (p < α/k, SPEC §3's few values; more is a
 * shift of a share of the units, Welch's question), the most extreme, its p
 * Bonferroni-corrected over the k bad units (p·k), stands for the feature. One unit far outside its peers is found here, where Welch's test
 * over all units sees one outlier among k (t ≈ 1). t, df are the extreme
 * unit's (positive: bad larger); meanGood/meanBad the class means; effectSize
 * the extreme unit's distance in good standard deviations (±∞ when the good
 * units are constant). When the good units are constant and the extreme unit
 * differs (t = ±∞), p is that of one value beyond n under an exact rank test,
 * separationLog10p(n, 1) = 2/(n + 1), times k: a constant reference says no
 * more than that one unit is the most extreme. null when either class has fewer than
 * REFERENCE_MIN_VALUES finite values (1–2 bad values are the prediction
 * test's own case: fewValuesTest).
 */
export function unitOutlierTest(good: Float64Array, bad: Float64Array, alpha: number, wGood?: Float64Array, wBad?: Float64Array): WelchResult | null {
  const finite = (x: Float64Array): number[] => [...x.keys()].filter((i) => Number.isFinite(x[i]));
  const gi = finite(good);
  const bi = finite(bad);
  if (gi.length < REFERENCE_MIN_VALUES || bi.length < REFERENCE_MIN_VALUES) return null;
  // Few units out: 1 to FEW_VALUES bad units each outside its peers at α/k on its own (more are a shift of a share
  // of the units, Welch's and the occurrence tests' question; none, no unit stands out).
  const k = bi.length;
  const against = predictionReference(good, wGood);
  const reference = against(bad[bi[0] as number] as number);
  if (reference === null) return null;
  // The prediction test's p falls as |x − x̄_good| grows, so only the FEW_VALUES + 1 units farthest from the good
  // mean can be out, and when all of them are, more than FEW_VALUES are: those are tested, farthest first, until one
  // is not out (every unit tested was O(units) tests a feature: 8 s of 40 000 requests' t-tests).
  const threshold = Math.log10(alpha / k);
  const out: { r: PredictionResult; value: number }[] = [];
  for (const i of farthest(bad, bi, reference.mean, FEW_VALUES + 1)) {
    const r = against(bad[i] as number);
    if (r === null || !(r.log10p < threshold)) break;
    out.push({ r, value: bad[i] as number });
  }
  if (out.length === 0 || out.length > FEW_VALUES) return null;
  let best: PredictionResult | null = null;
  let bestValue = Number.NaN;
  for (const { r, value } of out) {
    if (best === null || r.log10p < best.log10p || (r.log10p === best.log10p && Math.abs(r.t) > Math.abs(best.t))) {
      best = r;
      bestValue = value;
    }
  }
  if (best === null) return null;
  const nBad = wBad === undefined ? bi.length : bi.reduce((s, i) => s + (wBad[i] as number), 0);
  const meanBad = weightedMean(bad, bi, wBad);
  const diff = bestValue - best.mean;
  const log10p = Number.isFinite(best.t) ? best.log10p : separationLog10p(best.n, 1);
  const effectSize = best.sd > 0 ? diff / best.sd : diff === 0 ? 0 : diff > 0 ? Infinity : -Infinity;
  return {
    t: best.t, df: best.df,
    p: Math.min(1, 10 ** log10p * k), log10p: Math.min(0, log10p + Math.log10(k)),
    meanGood: best.mean, meanBad, nGood: best.n, nBad, effectSize,
  };
}

/** The `count` indices of `at` whose values are farthest from `mean`, farthest first (ties: the lower index first). */
function farthest(x: Float64Array, at: readonly number[], mean: number, count: number): number[] {
  const top: number[] = [];
  const distance = (i: number): number => Math.abs((x[i] as number) - mean);
  for (const i of at) {
    const d = distance(i);
    let j = top.length;
    while (j > 0 && d > distance(top[j - 1] as number)) j--;
    if (j < count) {
      top.splice(j, 0, i);
      if (top.length > count) top.pop();
    }
  }
  return top;
}

/**
 * The windows of instances by time (`--window DURATION`): within each class,
 * instance i's window is ⌊(start_i − first start of its class) / seconds⌋,
 * numbered densely in time order (empty slices skipped), good windows first.
 */
export function windowsByTime(starts: Float64Array, nGood: number, nBad: number, seconds: number): Windows {
  const of = new Int32Array(nGood + nBad).fill(-1);
  const number = (from: number, to: number, first: number): number => {
    let t0 = Infinity;
    for (let i = from; i < to; i++) if (Number.isFinite(starts[i])) t0 = Math.min(t0, starts[i] as number);
    const slices = new Map<number, number>();
    for (let i = from; i < to; i++) if (Number.isFinite(starts[i])) slices.set(i, Math.floor(((starts[i] as number) - t0) / seconds));
    const dense = [...new Set(slices.values())].sort((a, b) => a - b);
    const at = new Map(dense.map((s, j) => [s, first + j]));
    for (const [i, s] of slices) of[i] = at.get(s) as number;
    return dense.length;
  };
  const good = number(0, nGood, 0);
  const bad = number(nGood, nGood + nBad, good);
  return { of, good, bad };
}

/**
 * The windows of instances by their input entry (`--windows`): each
 * subdirectory (or file) directly inside a class's directory is one window;
 * `entryOf[i]` is instance i's entry name (null: unknown). Entries are
 * numbered in code-unit order within each class, good first.
 */
export function windowsByEntry(entryOf: readonly (string | null)[], nGood: number): Windows {
  const of = new Int32Array(entryOf.length).fill(-1);
  const number = (from: number, to: number, first: number): number => {
    const names = [...new Set(entryOf.slice(from, to).filter((e): e is string => e !== null))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const at = new Map(names.map((n, j) => [n, first + j]));
    for (let i = from; i < to; i++) {
      const e = entryOf[i];
      if (e !== null && e !== undefined) of[i] = at.get(e) as number;
    }
    return names.length;
  };
  const good = number(0, nGood, 0);
  const bad = number(nGood, entryOf.length, good);
  return { of, good, bad };
}
