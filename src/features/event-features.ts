/**
 * SPEC §2, Table 2.1: the event features of one event variable `e` in one
 * instance, one line per feature. The plain reading, for a reader of the
 * paper and as the oracle of the fast paths that compute the same numbers
 * inlined (FeatureColumns.summarize, StreamedInstance, the SQL pushdown):
 * test/table-2-1.test.ts holds them equal on generated records.
 */
import { median } from '../stats/median.js';
import type { EventFeatureType } from './types.js';

/**
 * The occurrences of `e` in one instance, in time order: `times`, each one's
 * time less the instance's first timestamp (t0); `before`, the wait before
 * each since the previous event record of the instance of the same source
 * (log line or span), of any name (NaN for the first of its source); `after`,
 * the wait after each until the next event record of that source (NaN for the
 * last). Waits within one source: docs/method.md.
 */
export interface Occurrences {
  readonly times: readonly number[];
  readonly before: readonly number[];
  readonly after: readonly number[];
}

/** Table 2.1 for events: each feature of `e` from its occurrences and the instance's duration D (NaN: missing). */
export const EVENT_FEATURES: { readonly [F in EventFeatureType]: (e: Occurrences, duration: number) => number } = {
  'first.abs': (e) => e.times[0] as number,
  'median.abs': (e) => median(e.times),
  'last.abs': (e) => e.times[e.times.length - 1] as number,
  'first.rel': (e, d) => (d > 0 ? (e.times[0] as number) / d : Number.NaN),
  'median.rel': (e, d) => (d > 0 ? median(e.times) / d : Number.NaN),
  'last.rel': (e, d) => (d > 0 ? (e.times[e.times.length - 1] as number) / d : Number.NaN),
  count: (e) => e.times.length,
  gap: (e) => largest(e.before),
  'gap.after': (e) => largest(e.after),
  wait: (e) => e.before.reduce((sum, w) => (Number.isNaN(w) ? sum : sum + w), 0),
};

/** The largest of `waits` that are not NaN; NaN when none is. */
function largest(waits: readonly number[]): number {
  return waits.reduce((best, w) => (Number.isNaN(w) || w <= best ? best : w), Number.NaN);
}

/**
 * Every event variable's occurrences in one instance, from its event records
 * in time order (equal times in input order): `times` since t0, `events` the
 * variable of each record, `fromSpans` the variables that are spans' (the
 * others are log lines').
 */
export function occurrencesOf(times: readonly number[], events: readonly number[], fromSpans: ReadonlySet<number> = new Set()): Map<number, Occurrences> {
  const out = new Map<number, { times: number[]; before: number[]; after: number[] }>();
  const sameSource = (i: number, j: number): boolean => fromSpans.has(events[i] as number) === fromSpans.has(events[j] as number);
  for (let i = 0; i < times.length; i++) {
    const e = events[i] as number;
    let o = out.get(e);
    if (o === undefined) out.set(e, (o = { times: [], before: [], after: [] }));
    let previous = i - 1;
    while (previous >= 0 && !sameSource(previous, i)) previous--;
    let next = i + 1;
    while (next < times.length && !sameSource(next, i)) next++;
    o.times.push(times[i] as number);
    o.before.push(previous >= 0 ? (times[i] as number) - (times[previous] as number) : Number.NaN);
    o.after.push(next < times.length ? (times[next] as number) - (times[i] as number) : Number.NaN);
  }
  return out;
}
