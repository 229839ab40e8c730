import type { FeatureType, LogKind } from '../features/types.js';

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
  readonly feature: FeatureType;
  /** After the multiple-testing correction (Bonferroni by default). */
  readonly significant: boolean;
  /** Both variances 0 and different means: |t| = ∞. */
  readonly separated: boolean;
}

export type Correction = 'bonferroni' | 'holm' | 'bh' | 'none';

export interface RankedVariable {
  readonly variable: string;
  readonly kind: LogKind;
  /** Σ|t| over the variable's significant features (separated ones count as 2 × the largest finite |t|). */
  readonly score: number;
  /** Its significant features, strongest (largest |t|) first. */
  readonly features: readonly TestResult[];
}

export interface TestSummary {
  readonly tests: readonly TestResult[];
  readonly ranking: readonly RankedVariable[];
  /** Number of tests performed (m). */
  readonly performed: number;
  /** (variable, feature) pairs left untested: fewer than 2 non-missing values in a class. */
  readonly untestable: number;
  readonly alpha: number;
  readonly correction: Correction;
  /** The largest finite |t| seen per kind: what ∞ is capped from (×2) in scores. */
  readonly maxFiniteAbsT: { readonly event: number; readonly state: number };
}
