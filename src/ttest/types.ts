import type { FeatureType, LogKind, VariableSource } from '../features/types.js';

/** A tested feature: a feature type of SPEC §2, or an event's occurrence (share of instances it occurs in, SPEC §3). */
export type TestedFeature = FeatureType | 'occurrence';

/**
 * Which test produced a result (SPEC §3): Welch's; the prediction test (a
 * class with 1–2 values); the inverse-variance combination over kinds;
 * Fisher's exact test, the G-test or Mantel–Haenszel (occurrence); the
 * between-window test (`windows`: windowTest); one bad unit among its peers
 * (`outlier`: unitOutlierTest); a difference in spread (`brown-forsythe`:
 * spread.ts, its means the classes' mean absolute deviations from their medians).
 */
export type TestMethod = 'welch' | 'prediction' | 'kinds' | 'fisher' | 'g-test' | 'mantel-haenszel' | 'windows' | 'outlier' | 'brown-forsythe';

/** Whether an event variable occurs in both classes, only in bad (`new`) or only in good (`vanished`). */
export type Presence = 'both' | 'new' | 'vanished';

/** Welch's two-sample t-test of bad against good (SPEC §3). */
export interface WelchResult {
  /** (mean_bad − mean_good) / sqrt(s²_bad/n_bad + s²_good/n_good); ±Infinity when perfectly separated. */
  readonly t: number;
  /** Welch–Satterthwaite degrees of freedom. */
  readonly df: number;
  /** Two-sided p; may underflow to 0, in which case log10p still holds the value. */
  readonly p: number;
  /** log10 of p, finite far beyond double underflow (−Infinity only when perfectly separated). */
  readonly log10p: number;
  readonly meanGood: number;
  readonly meanBad: number;
  /** Effective (weighted) sample sizes. */
  readonly nGood: number;
  readonly nBad: number;
  /** Hedges' g: bias-corrected standardized mean difference, bad − good. */
  readonly effectSize: number;
}

export interface TestResult extends WelchResult {
  readonly variable: string;
  readonly kind: LogKind;
  readonly feature: TestedFeature;
  readonly method: TestMethod;
  /**
   * Signed normal deviate of the two-sided p: sign(t)·Φ⁻¹(1 − p/2), capped at
   * |z| = 38 (SPEC §3); the one currency of ranking and attention.
   */
  readonly z: number;
  /** After the multiple-testing correction (Bonferroni by default). */
  readonly significant: boolean;
  /** Perfectly separated: |t| = ∞ (both classes constant and different). */
  readonly separated: boolean;
  /** Event variables: in both classes, or new in bad, or vanished from it. States: 'both'. */
  readonly presence: Presence;
  /** Per-kind parts of a combined test (method 'kinds'), else absent. */
  readonly strata?: readonly StratumDetail[];
  /**
   * λ of the test's (kind, feature) family where that family was inflated and
   * deflated (genomic control, inflation.ts): then p, log10p, z and
   * `significant` are the deflated ones, and t, df the test's own.
   */
  readonly inflation?: number;
}

export type Correction = 'bonferroni' | 'holm' | 'bh' | 'none';

export interface RankedVariable {
  readonly variable: string;
  readonly kind: LogKind;
  /** Σ|z| over the variable's significant features (SPEC §3). */
  readonly score: number;
  readonly presence: Presence;
  /** Its significant features, strongest (largest |z|, then |t|) first. */
  readonly features: readonly TestResult[];
}

export interface TestSummary {
  readonly tests: readonly TestResult[];
  readonly ranking: readonly RankedVariable[];
  /** Number of tests performed. */
  readonly performed: number;
  /** Distinct hypotheses among them (identical results counted once): m of the correction. */
  readonly hypotheses: number;
  /** The correction's families, one per source of variables, with their distinct hypotheses (each source corrected on its own: Σ = hypotheses). */
  readonly families?: readonly { readonly source: VariableSource; readonly hypotheses: number }[];
  /** (variable, feature) pairs left untested: too few values in a class, or an occurrence table with one possible outcome. */
  readonly untestable: number;
  /** Whether features were compared within instance kinds (SPEC §3), and over which kinds. */
  readonly kinds: readonly string[] | null;
  /**
   * The windows given (`--windows`, `--window`), good and bad, and whether they
   * calibrate the tests (at least two good windows); null: none given, every
   * instance its own replicate.
   */
  readonly windows?: { readonly good: number; readonly bad: number; readonly calibrated: boolean } | null;
  /** λ of every family large enough to estimate it (at least 100 tests); those with λ > 1 were deflated. */
  readonly inflation: readonly Inflation[];
  /**
   * Where P's means do not differ (at α): P's spread tested (Brown–Forsythe,
   * significant where 2p < α: the second question asked of P pays twice), and
   * where that differs, every other feature's spread, Bonferroni over them
   * (`tests`, empty otherwise). null where P's means differ, P is untestable,
   * or instances are compared within kinds (whose mix moves the pooled spread).
   */
  readonly spread?: SpreadSummary | null;
  readonly alpha: number;
  readonly correction: Correction;
  /** The largest finite |t| seen per kind (for display scales). */
  readonly maxFiniteAbsT: { readonly event: number; readonly state: number };
  /** The largest |z| per kind: T̂ = |z| / this in attention scores (SPEC §5). */
  readonly maxAbsZ: { readonly event: number; readonly state: number };
}

/** One kind's part of a combined test, for the report. */
export interface StratumDetail {
  readonly kind: string;
  readonly nGood: number;
  readonly nBad: number;
  readonly meanGood: number;
  readonly meanBad: number;
  /** The kind's own t: (mean_bad − mean_good)/√v_k (±∞ when both sides are constant and differ). */
  readonly t: number;
}

/** One family's inflation: λ = median z² / median of χ²₁ over its `tests` tests. */
export interface Inflation {
  readonly source: VariableSource;
  readonly kind: LogKind;
  readonly feature: TestedFeature;
  readonly tests: number;
  readonly lambda: number;
  /** Whether its tests were deflated (λ > 1). */
  readonly applied: boolean;
}

/** The spread tests (spread.ts): P's, and every feature's where P's spread differs. */
export interface SpreadSummary {
  readonly metric: TestResult;
  readonly tests: readonly TestResult[];
}
