/**
 * Stage 3 of the pipeline (SPEC §3, paper §2.2.2): a Welch t-test of every
 * (variable, feature type), bad against good, a multiple-testing correction,
 * and the ranking of variables by the |t| of their significant features.
 */
import { classRange, type FeatureSet } from '../features/types.js';
import { significantFlags } from './correction.js';
import { rankVariables } from './rank.js';
import type { Correction, TestResult, TestSummary, WelchResult } from './types.js';
import { welchTest } from './welch.js';

export { studentTTwoSided, lnGamma } from './tdist.js';
export { welchTest } from './welch.js';
export { significantFlags } from './correction.js';
export { rankVariables, scoredAbsT } from './rank.js';
export type * from './types.js';

export interface TestOptions {
  /** Family-wise significance level (SPEC §3: 0.05, `--alpha`). */
  readonly alpha: number;
  /** Multiple-testing correction (SPEC §3: `bonferroni`, `--correction`). */
  readonly correction: Correction;
}

/**
 * Tests every variable column of every table of `fs`: good instances are
 * [0, nGood), bad ones [nGood, nGood + nBad), weighted by `fs.weights`.
 * A column with fewer than 2 values in a class is counted as untestable and
 * left out of m. Tests are listed in `fs.tables` order, then variable order.
 * Pure and deterministic.
 */
export function runTests(fs: FeatureSet, options: TestOptions): TestSummary {
  const [g0, g1] = classRange(fs, 'good');
  const [b0, b1] = classRange(fs, 'bad');
  const wGood = fs.weights.subarray(g0, g1);
  const wBad = fs.weights.subarray(b0, b1);
  const performed: { table: FeatureSet['tables'][number]; variable: string; result: WelchResult }[] = [];
  let untestable = 0;
  for (const table of fs.tables) {
    table.variables.forEach((variable, v) => {
      const column = table.columns[v]!;
      const result = welchTest(column.subarray(g0, g1), column.subarray(b0, b1), wGood, wBad);
      if (result === null) untestable++;
      else performed.push({ table, variable, result });
    });
  }

  const flags = significantFlags(performed.map((x) => x.result.log10p), options.alpha, options.correction);
  const maxFiniteAbsT = { event: 0, state: 0 };
  const tests: TestResult[] = performed.map(({ table, variable, result }, i) => {
    const abs = Math.abs(result.t);
    if (abs !== Infinity && abs > maxFiniteAbsT[table.kind]) maxFiniteAbsT[table.kind] = abs;
    return {
      variable,
      kind: table.kind,
      feature: table.feature,
      t: result.t,
      df: result.df,
      p: result.p,
      log10p: result.log10p,
      significant: flags[i]!,
      separated: abs === Infinity,
      meanGood: result.meanGood,
      meanBad: result.meanBad,
      nGood: result.nGood,
      nBad: result.nBad,
      effectSize: result.effectSize,
    };
  });

  return {
    tests,
    ranking: rankVariables(tests, maxFiniteAbsT),
    performed: tests.length,
    untestable,
    alpha: options.alpha,
    correction: options.correction,
    maxFiniteAbsT,
  };
}
