/**
 * The library entry: `import { distalyze } from 'distalyze'`.
 * distalyze() = readClasses() (src/read.ts) → analyze() (src/analysis.ts);
 * the renderers turn its Analysis into the CLI's reports.
 */
import { analyze, type Analysis } from './analysis.js';
import type { Correction } from './ttest/types.js';
import { readClasses, type ReadHooks, type ReadOptions } from './read.js';
import { checkDistalyzeOptions } from './validate.js';

export { analyze, type Analysis, type AnalysisOptions, type ClassInputSummary } from './analysis.js';
export { InputError } from './errors.js';
export type { FeatureResult, WeightOption } from './features/index.js';
export type { Translator } from './parse/translator.js';
export { readClasses, type ClassesRead, type ReadHooks, type ReadOptions } from './read.js';
export { renderDot } from './report/dot.js';
export { renderJson } from './report/json.js';
export { renderText, type TextOptions } from './report/text.js';
export { renderTsv } from './report/tsv.js';
export { verdictSentence } from './report/verdict.js';
export { VERSION } from './version.js';

/** Everything distalyze() takes: the two classes, the input options, and the analysis options (CLI defaults). */
export interface DistalyzeOptions extends ReadOptions {
  /** Logs of acceptable performance: a directory (searched recursively) or a file. */
  readonly good: string;
  /** Logs with the problem. */
  readonly bad: string;
  /** Significance level before correction (default 0.05). */
  readonly alpha?: number;
  readonly correction?: Correction;
  /** Instance kinds: 'on' (default), 'combine' or 'off'. */
  readonly kinds?: 'on' | 'combine' | 'off';
  /** Deflate test families inflated as a whole (genomic control): 'auto' (default) or 'off'. */
  readonly inflation?: 'auto' | 'off';
  /** a in T̂^(2a)·ŵ^(2(1−a)) (default 0.5). */
  readonly balance?: number;
  /** Graphs per log kind (default 1). */
  readonly top?: number;
  /** Nodes per graph besides P and the paths to it (default 10). */
  readonly maxNodes?: number;
  readonly dnClass?: 'good' | 'bad' | 'both';
  readonly minSplit?: number;
  readonly splitAlpha?: number;
  readonly splitTest?: 'rank' | 'f-splits' | 'f-predictors';
  /** At most this many instances per class for dependency networks (default 100 000). */
  readonly dnSample?: number;
  readonly seed?: number;
  /** Keep per-instance values (needed by the HTML report; default false). */
  readonly distributions?: boolean;
  /** Progress and notes while reading; stage durations. */
  readonly hooks?: ReadHooks;
}

/**
 * Compare the good and bad logs and return the Analysis every report draws
 * from. Rejects with an InputError (message names file and line) on input a
 * user can fix, and on an option of the wrong type or range (src/validate.ts).
 * Same input and options → the same Analysis.
 */
export async function distalyze(options: DistalyzeOptions): Promise<Analysis> {
  checkDistalyzeOptions(options);
  const { good, bad, hooks, ...rest } = options;
  const read = await readClasses(good, bad, rest, hooks ?? {});
  return analyze({ classes: read.classes, features: read.features }, {
    alpha: options.alpha ?? 0.05,
    correction: options.correction ?? 'bonferroni',
    kinds: options.kinds ?? 'on',
    inflation: options.inflation ?? 'auto',
    attention: {
      balance: options.balance ?? 0.5,
      top: options.top ?? 1,
      maxNodes: options.maxNodes ?? 10,
      dnClass: options.dnClass ?? 'bad',
    },
    network: {
      ...(options.minSplit !== undefined ? { minSplit: options.minSplit } : {}),
      splitAlpha: options.splitAlpha ?? 0.05,
      splitTest: options.splitTest ?? 'rank',
      sample: options.dnSample ?? 100_000,
      seed: options.seed ?? 1,
    },
    distributions: options.distributions === true,
    ...(hooks?.onStage !== undefined ? { onStage: hooks.onStage } : {}),
  });
}
