import { aliasesByTable, focusAttention } from './attention/index.js';
import type { AttentionGraph, AttentionOptions } from './attention/types.js';
import { modesOf } from './attention/modes.js';
import { verdictOf, type Verdict } from './attention/verdict.js';
import type { DependencyNetworkOptions } from './dependency-network/types.js';
import type { FeatureResult } from './features/index.js';
import type { FeatureSet, FeatureType, HeavyTail, LogKind, MetricInfo, VariableSource } from './features/types.js';
import type { ClassName } from './parse/records.js';
import { runTests, type Windows } from './ttest/index.js';
import type { Inflation } from './ttest/types.js';
import type { Correction, RankedVariable, TestedFeature, TestResult } from './ttest/types.js';
import { VERSION } from './version.js';

/** What reading one class produced, for the report (nothing skipped without being counted). */
export interface ClassInputSummary {
  readonly instances: number;
  readonly files: number;
  readonly bytes: number;
  /** Event and state records (instance records `I` are not counted). */
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
  /** Number of tests performed. */
  readonly performed: number;
  /** Distinct hypotheses among them (identical results counted once): m in α/m. */
  readonly hypotheses: number;
  /** The correction's families, one per source, with their m (TestSummary.families). */
  readonly families?: readonly { readonly source: VariableSource; readonly hypotheses: number }[];
  readonly tests: readonly TestResult[];
  readonly ranking: readonly RankedVariable[];
  /** Top graphs, `--top` per log kind, ranked on one scale: the first is the answer (SPEC §5). */
  readonly graphs: readonly AttentionGraph[];
  /** How much worse P is, the top cause and where the time went (SPEC §6). */
  readonly verdict: Verdict;
  /** The instance kinds features were compared within (SPEC §3), or null when pooled. */
  readonly kinds: readonly string[] | null;
  /** λ of every (kind, feature) family of ≥ 100 tests; those above 1 were deflated (genomic control, src/ttest/inflation.ts). */
  readonly inflation: readonly Inflation[];
  /** The windows the tests were calibrated with (`--windows`, `--window`), or null: none given. */
  readonly windows?: { readonly good: number; readonly bad: number; readonly calibrated: boolean } | null;
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

export function distributionKey(kind: LogKind, variable: string, feature: TestedFeature): string {
  return `${kind}\t${variable}\t${feature}`;
}

export interface AnalysisOptions {
  readonly alpha: number;
  readonly correction: Correction;
  /** Compare within instance kinds (default 'on'; SPEC §3; see TestOptions). */
  readonly kinds?: 'on' | 'combine' | 'off';
  /** Deflate inflated test families (default 'auto'; see TestOptions). */
  readonly inflation?: 'auto' | 'off';
  /** Each instance's window (`--windows`, `--window`; see TestOptions.windows). */
  readonly windows?: Windows;
  readonly attention: AttentionOptions;
  readonly network: DependencyNetworkOptions;
  /** Keep per-instance feature values for the HTML report. */
  readonly distributions: boolean;
  /** Told how long each stage took, in milliseconds (for --timings and the benchmark). */
  readonly onStage?: (stage: string, ms: number) => void;
}

/**
 * The method after feature creation, as one pure function:
 * t-tests (SPEC §3) → dependency networks and attention focusing (§4–§5).
 */
export function analyze(
  input: { readonly classes: Readonly<Record<ClassName, ClassInputSummary>>; readonly features: FeatureResult },
  options: AnalysisOptions,
): Analysis {
  const fs = input.features.features;
  const timed = <T>(stage: string, f: () => T): T => {
    const start = performance.now();
    const result = f();
    options.onStage?.(stage, performance.now() - start);
    return result;
  };
  const testOptions = { alpha: options.alpha, correction: options.correction, kinds: options.kinds ?? 'on', inflation: options.inflation ?? 'auto', ...(options.windows !== undefined ? { windows: options.windows } : {}) } as const;
  const summary = timed('t-tests', () => runTests(fs, testOptions));
  // Aliases of P (SPEC §5), once: the networks leave them out, the verdict lists them.
  const aliases = aliasesByTable(fs);
  const graphs = timed('dependency networks + attention', () => focusAttention(fs, summary, { ...options.attention, ...options.network }, aliases));
  // Bad's two modes of P, if it has two, each tested against good with the same options (issue 52).
  const modes = modesOf(fs, summary, (sub) => runTests(sub, { ...testOptions, windows: undefined }), options.attention.balance);
  const verdict = verdictOf(fs, summary, graphs, options.attention.balance, aliases, modes);
  return {
    tool: { name: 'distalyze', version: VERSION },
    classes: input.classes,
    metric: fs.metric,
    heavyTail: input.features.heavyTail,
    weighting: input.features.weighting,
    alpha: options.alpha,
    correction: options.correction,
    performed: summary.performed,
    hypotheses: summary.hypotheses,
    families: summary.families,
    tests: summary.tests,
    ranking: summary.ranking,
    graphs,
    verdict,
    kinds: summary.kinds,
    inflation: summary.inflation,
    windows: summary.windows ?? null,
    warnings: [...input.features.warnings, ...calibrationNotes(fs, summary.windows ?? null)],
    ...(options.distributions ? { distributions: distributionsOf(fs) } : {}),
  };
}

/**
 * What the tests could not calibrate (issue 52): requests of one window share
 * its load and state, so with one good window a difference between the
 * classes cannot be told from the drift between any two windows. Said when
 * windows were asked for and the good class has only one, or when instances
 * are requests (named by I records: many to a window) and none were asked for.
 */
function calibrationNotes(fs: FeatureSet, windows: { readonly good: number; readonly calibrated: boolean } | null): string[] {
  const requests = fs.instances.some((i) => i.kind !== null);
  if (windows !== null ? windows.calibrated : !requests) return [];
  const how = 'give several fault-free windows: a directory of window subdirectories with --windows, or --window DURATION';
  return [windows !== null
    ? `only ${windows.good} good window: differences cannot be told from the drift between windows; ${how}`
    : `one good window of requests: a difference may be the drift between any two windows rather than a cause; ${how}`];
}

function distributionsOf(fs: FeatureSet): Distributions {
  const values = new Map<string, Float64Array>();
  for (const table of fs.tables) {
    table.variables.forEach((variable, v) => values.set(distributionKey(table.kind, variable, table.feature), table.columns[v] as Float64Array));
  }
  return { instances: fs.instances.map((i) => ({ id: i.id, className: i.className })), values };
}
