/**
 * SPEC §2, Table 2.1: the state features of one state variable `s` in one
 * instance, one line per feature. The plain reading, for a reader of the
 * paper and as the oracle of the fast paths that compute the same numbers
 * inlined (FeatureColumns.summarize, StreamedInstance, the second pass over
 * the states, the SQL pushdown): test/table-2-1.test.ts holds them equal on
 * generated records.
 */
import { finiteMean } from '../stats/sum.js';
import type { StateFeatureType } from './types.js';

/** The values logged for `s` in one instance, in time order, and their times less the instance's first timestamp. */
export interface Series {
  readonly times: readonly number[];
  readonly values: readonly number[];
}

/** The value of `s` at time x: the last value logged at or before x, or the first value if none is. */
export function valueAt(s: Series, x: number): number {
  let at = 0;
  for (let i = 0; i < s.times.length && (s.times[i] as number) <= x; i++) at = i;
  return s.values[at] as number;
}

/**
 * Table 2.1 for states: each feature of `s` from its series, the instance's
 * duration D and Dref, the median duration over all instances of both classes
 * (one common clock).
 */
export const STATE_FEATURES: { readonly [F in StateFeatureType]: (s: Series, duration: number, referenceDuration: number) => number } = {
  min: (s) => s.values.reduce((a, b) => (b < a ? b : a)),
  mean: (s) => finiteMean(s.values, s.values.reduce((a, b) => a + b, 0)),
  max: (s) => s.values.reduce((a, b) => (b > a ? b : a)),
  final: (s) => s.values[s.values.length - 1] as number,
  'q1.abs': (s, _d, dref) => valueAt(s, 0.25 * dref),
  'half.abs': (s, _d, dref) => valueAt(s, 0.5 * dref),
  'q3.abs': (s, _d, dref) => valueAt(s, 0.75 * dref),
  'q1.rel': (s, d) => valueAt(s, 0.25 * d),
  'half.rel': (s, d) => valueAt(s, 0.5 * d),
  'q3.rel': (s, d) => valueAt(s, 0.75 * d),
};
