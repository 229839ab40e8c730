import type { ClassName } from '../parse/records.js';

export type LogKind = 'event' | 'state';
export const LOG_KINDS: readonly LogKind[] = ['event', 'state'];

/** Feature types of SPEC §2, named verbatim as they appear in every output. */
export const EVENT_FEATURE_TYPES = [
  'first.abs', 'median.abs', 'last.abs',
  'first.rel', 'median.rel', 'last.rel',
  'count', 'gap', 'gap.after', 'wait',
] as const;
export const STATE_FEATURE_TYPES = [
  'min', 'mean', 'max', 'final',
  'q1.abs', 'half.abs', 'q3.abs',
  'q1.rel', 'half.rel', 'q3.rel',
] as const;
export type EventFeatureType = (typeof EVENT_FEATURE_TYPES)[number];
export type StateFeatureType = (typeof STATE_FEATURE_TYPES)[number];
export type FeatureType = EventFeatureType | StateFeatureType;

export function featureTypesOf(kind: LogKind): readonly FeatureType[] {
  return kind === 'event' ? EVENT_FEATURE_TYPES : STATE_FEATURE_TYPES;
}

/** Event feature types that are times, for which happens-before is drawn (SPEC §4). */
export function isTimeFeature(kind: LogKind, feature: FeatureType): boolean {
  return kind === 'event' && feature !== 'count' && feature !== 'gap' && feature !== 'gap.after' && feature !== 'wait';
}

/** The name of the built-in performance metric: the instance's duration D. */
export const DURATION = 'duration';

/** One execution unit being compared: a node, a run, a request. */
export interface Instance {
  readonly id: string;
  readonly className: ClassName;
  /** Last timestamp − first timestamp, seconds. */
  readonly duration: number;
  /** Number of records that made it. */
  readonly records: number;
  /**
   * Its kind (a request type), SPEC §2: given by its `I` record, else, when
   * instances are named by `I` records and none has a kind, the name of its
   * first event (its entry point); null for instances that are whole files.
   */
  readonly kind: string | null;
}

/**
 * Feature `feature` of every variable of one log kind, over all instances
 * (good ones first, then bad ones, in `FeatureSet.instances` order).
 * Column-major: `columns[v][i]` = feature of `variables[v]` in instance i,
 * NaN where missing. Read-only once built: columns may share one array (the
 * built-in duration is the same array in every table, a follower's column is
 * its leader's: src/features/followers.ts), so a consumer that changes values
 * works on a copy.
 */
export interface FeatureTable {
  readonly kind: LogKind;
  readonly feature: FeatureType;
  readonly variables: readonly string[];
  readonly columns: readonly Float64Array[];
}

export interface MetricInfo {
  /** The event variable that is P, or null when the input has no event variables. */
  readonly event: string | null;
  /** The state variable that is P, or null when the input has no state variables. */
  readonly state: string | null;
  /** True where P is the built-in `duration` for that kind. */
  readonly eventIsDuration: boolean;
  readonly stateIsDuration: boolean;
}

export interface HeavyTail {
  /** Whether more than 1.1% of instances have P outside mean ± 3σ. */
  readonly detected: boolean;
  /** The fraction of instances (both classes pooled) with P outside mean ± 3σ. */
  readonly fraction: number;
  /** Which P was examined: variable, kind and feature. */
  readonly variable: string;
  readonly kind: LogKind;
  readonly feature: FeatureType;
  readonly mean: number;
  readonly sd: number;
}

/** Where a variable came from (src/features/sources.ts). */
export type VariableSource = 'log' | 'span' | 'metric';

/** What feature creation (SPEC §2) produces: the input of every later stage. */
export interface FeatureSet {
  /** Good instances first (sorted by id), then bad ones (sorted by id). */
  readonly instances: readonly Instance[];
  readonly nGood: number;
  readonly nBad: number;
  /** Integer replication counts per instance (all 1 unless `--weight`). */
  readonly weights: Float64Array;
  readonly metric: MetricInfo;
  /** One table per (kind, feature type), events first, in the order of the *_FEATURE_TYPES lists. */
  readonly tables: readonly FeatureTable[];
  /** Median duration over all instances of both classes (SPEC §2, Dref). */
  readonly referenceDuration: number;
  /** Each instance's first timestamp (seconds, as read), in `instances` order: for `--window` (absent where not read). */
  readonly starts?: Float64Array;
  /** The variables that are not log lines (spans, joined metrics), by `sourceKey(kind, name)`; absent: all are. */
  readonly sources?: ReadonlyMap<string, VariableSource>;
}

/** Index range of a class's instances within FeatureSet.instances. */
export function classRange(fs: Pick<FeatureSet, 'nGood' | 'nBad'>, c: ClassName): [start: number, end: number] {
  return c === 'good' ? [0, fs.nGood] : [fs.nGood, fs.nGood + fs.nBad];
}
