/**
 * The library entry: `import { distalyze } from 'distalyze'`.
 * distalyze() = readClasses() (src/read/index.ts, executing src/read/plan.ts) → analyze() (src/analysis.ts);
 * the renderers turn its Analysis into the CLI's reports.
 */
import { analyze, type Analysis } from './analysis.js';
import type { Correction } from './ttest/types.js';
import { InputError } from './errors.js';
import { readClasses, type ReadHooks, type ReadOptions } from './read/index.js';
import { READ_CHECKS } from './read-options.js';
import { boolean, checkEach, fail, fraction, hooks, oneOf, probability, string, wholeFrom, type Check } from './validate.js';

export { analyze, type Analysis, type AnalysisOptions, type ClassInputSummary } from './analysis.js';
export { InputError } from './errors.js';
export type { FeatureResult, WeightOption } from './features/index.js';
export type { Translator } from './parse/translator.js';
export { readClasses, type ClassesRead, type ReadHooks, type ReadOptions } from './read/index.js';
export type { PerformanceOptions, ReadPass } from './read-options.js';
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

/** Every option distalyze() takes. */
const CHECKS: Readonly<Record<keyof DistalyzeOptions, Check>> = {
  ...READ_CHECKS,
  good: string,
  bad: string,
  correction: oneOf('bonferroni', 'holm', 'bh', 'none'),
  kinds: oneOf('on', 'combine', 'off'),
  inflation: oneOf('auto', 'off'),
  balance: fraction,
  top: wholeFrom(1),
  maxNodes: wholeFrom(1),
  dnClass: oneOf('good', 'bad', 'both'),
  minSplit: wholeFrom(2),
  splitAlpha: probability,
  splitTest: oneOf('rank', 'f-splits', 'f-predictors'),
  dnSample: wholeFrom(2),
  seed: wholeFrom(0),
  distributions: boolean,
  hooks,
};

/** distalyze()'s options: an object with good and bad, every option known and of its type and range. */
export function checkDistalyzeOptions(options: unknown): asserts options is DistalyzeOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail('distalyze(options)', 'needs an object such as { good: \'good/\', bad: \'bad/\' }', options);
  }
  const given = options as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(CHECKS, key)) throw new InputError(`unknown option '${key}'`);
  }
  for (const required of ['good', 'bad'] as const) if (given[required] === undefined) fail(required, 'is required: a directory or a file of logs', undefined);
  checkEach(given, CHECKS);
}
