import type { GrowableFloat64 } from '../memory/growable.js';
import { EVENT_FEATURE_TYPES, STATE_FEATURE_TYPES, type LogKind } from './types.js';

/*
 * Followers: feature columns that hold the same values as another column of
 * their variable for every instance where the variable occurs once. An event
 * that occurs once in an instance has its median and last time equal to its
 * first (abs and rel); a state logged once has its mean, max and final value,
 * and its value at each quarter of the instance (q*.rel), equal to its min.
 * Instances named by `I` records (a request, a trace) are mostly so: a
 * million requests would write ~45% of their feature table as copies (~320 MB
 * of memory written for the first time, a page fault each 4 KB). A follower
 * is not written while every value so far is its leader's
 * (`GrowableFloat64.following`): it reads as the leader does, and the
 * FeatureSet takes the leader's column for it. The first instance where a
 * value differs copies the leader's values so far in (`unfollow`), for every
 * follower of the variable's kind at once, and the columns go on as usual.
 *
 * Where columns of one variable meet (a part absorbed, shared columns
 * adopted), a follower that follows on one side and not on the other is
 * given its leader's values for the side that followed.
 */

/** For each feature position of a kind, the position of the column it follows, or −1. */
export const EVENT_LEADERS: readonly number[] = leaders(EVENT_FEATURE_TYPES, {
  'median.abs': 'first.abs', 'last.abs': 'first.abs', 'median.rel': 'first.rel', 'last.rel': 'first.rel',
});
export const STATE_LEADERS: readonly number[] = leaders(STATE_FEATURE_TYPES, {
  mean: 'min', max: 'min', final: 'min', 'q1.rel': 'min', 'half.rel': 'min', 'q3.rel': 'min',
});

export function leadersOf(kind: LogKind): readonly number[] {
  return kind === 'event' ? EVENT_LEADERS : STATE_LEADERS;
}

function leaders<T extends string>(types: readonly T[], follows: Partial<Record<T, T>>): number[] {
  return types.map((f) => {
    const leader = follows[f];
    return leader === undefined ? -1 : types.indexOf(leader);
  });
}

/** A variable's new (empty) columns: its followers follow. */
export function follow(cols: readonly GrowableFloat64[], leaders: readonly number[]): void {
  for (let f = 0; f < cols.length; f++) if ((leaders[f] as number) >= 0) (cols[f] as GrowableFloat64).following = true;
}

/**
 * A variable's followers hold values of their own from now on: their
 * leaders' values before slot `upTo` copied in (each leader's length:
 * slots beyond it read as missing, as the leader's do).
 */
export function unfollow(cols: readonly GrowableFloat64[], leaders: readonly number[], upTo: number): void {
  for (let f = 0; f < cols.length; f++) {
    const l = leaders[f] as number;
    const col = cols[f] as GrowableFloat64;
    if (l < 0 || !col.following) continue;
    col.following = false;
    const leader = cols[l] as GrowableFloat64;
    col.copyIn(0, leader.data.subarray(0, Math.min(leader.length, upTo)));
  }
}

/** Whether [from, from + n) of `values` and [at, at + n) of `leader` are the same values (Object.is: -0 is not 0). */
export function sameValues(values: Float64Array, from: number, leader: Float64Array, at: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (!Object.is(values[from + i], leader[at + i])) return false;
  return true;
}
