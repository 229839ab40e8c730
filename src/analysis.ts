import type { AttentionGraph } from './attention/types.js';
import type { FeatureType, HeavyTail, LogKind, MetricInfo } from './features/types.js';
import type { ClassName } from './parse/records.js';
import type { Correction, RankedVariable, TestResult } from './ttest/types.js';

/** What reading one class produced, for the report (nothing skipped without being counted). */
export interface ClassInputSummary {
  readonly instances: number;
  readonly files: number;
  readonly bytes: number;
  readonly records: number;
  /** Lines that were not records (or that a translator did not map). */
  readonly skippedLines: number;
  /** The first few skipped lines, `file:line: reason`. */
  readonly skippedExamples: readonly string[];
}

export interface WeightingInfo {
  readonly mode: 'none' | 'exp' | 'auto';
  /** HALF in ⌊2^(P/HALF)⌋, when applied. */
  readonly half: number | null;
  readonly applied: boolean;
}

/** The one value every renderer (text, DOT, JSON, TSV, HTML) draws from. */
export interface Analysis {
  readonly tool: { readonly name: 'distalyze'; readonly version: string };
  readonly classes: Readonly<Record<ClassName, ClassInputSummary>>;
  readonly metric: MetricInfo;
  readonly heavyTail: HeavyTail | null;
  readonly weighting: WeightingInfo;
  readonly alpha: number;
  readonly correction: Correction;
  /** Number of tests performed (m in α/m). */
  readonly performed: number;
  readonly tests: readonly TestResult[];
  readonly ranking: readonly RankedVariable[];
  /** Top graphs, best first, `--top` per log kind. */
  readonly graphs: readonly AttentionGraph[];
  /** Notes for the user: variables present in one class only, etc. */
  readonly warnings: readonly string[];
  /** Per-instance values of every feature, for the HTML report's distributions (optional: large). */
  readonly distributions?: Distributions;
}

export interface Distributions {
  readonly instances: readonly { readonly id: string; readonly className: ClassName }[];
  /** Key `${kind}\t${variable}\t${feature}` → values in `instances` order (null = missing). */
  readonly values: ReadonlyMap<string, Float64Array>;
}

export function distributionKey(kind: LogKind, variable: string, feature: FeatureType): string {
  return `${kind}\t${variable}\t${feature}`;
}
