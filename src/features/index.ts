import { InputError } from '../errors.js';
import { REFERENCE_MIN_VALUES } from '../stats/sample-sizes.js';
import { compareCodeUnits } from '../parse/files.js';
import type { ClassName } from '../parse/records.js';
import type { FeatureCollector } from './collector.js';
import { leadersOf } from './followers.js';
import type { GrowableFloat64 } from '../memory/growable.js';
import { detectHeavyTail, metricValues, percentile } from './metric.js';
import { referenceDurationOf } from './quartile-pass.js';
import { variableSources } from './sources.js';
import {
  DURATION, EVENT_FEATURE_TYPES, STATE_FEATURE_TYPES,
  type FeatureSet, type FeatureTable, type HeavyTail, type Instance, type LogKind, type MetricInfo,
} from './types.js';

export interface FeatureOptions {
  /** --metric: P for both kinds (where the variable occurs). */
  readonly metric?: string;
  readonly eventMetric?: string;
  readonly stateMetric?: string;
  readonly weight: WeightOption;
  /**
   * Fewest instances each class needs (default: 1 each, and 3 in one class
   * when the other has only 1: SPEC §3 few instances). `distalyze check`
   * compares one run of one instance against a baseline; `history` reads every
   * run into the good class alone.
   */
  readonly minInstances?: Readonly<Record<ClassName, number>>;
  /** The state variables the metric join emitted (their source is `metric`: see sources.ts). */
  readonly joined?: ReadonlySet<string>;
}

export type WeightOption = { readonly mode: 'none' } | { readonly mode: 'auto' } | { readonly mode: 'exp'; readonly half: number };

export interface FeatureResult {
  readonly features: FeatureSet;
  readonly heavyTail: HeavyTail | null;
  readonly weighting: { readonly mode: WeightOption['mode']; readonly half: number | null; readonly applied: boolean };
  readonly warnings: readonly string[];
}

/** Largest replication count: ⌊2^(P/HALF)⌋ explodes for P ≫ HALF. */
export const MAX_WEIGHT = 2 ** 32;

/**
 * Throws the InputError a class with too few instances gets: fewer than `minimum` (default 1), or, without a
 * minimum, one instance against a class of fewer than 3 (SPEC §3, few instances: one instance is compared with the
 * other class's distribution). buildFeatureSet checks the instances read; a reader that knows the counts before
 * reading (one file one instance) may check them first.
 */
export function checkInstanceCounts(counts: Readonly<Record<ClassName, number>>, minimum?: Readonly<Record<ClassName, number>>): void {
  for (const c of ['good', 'bad'] as const) {
    const least = minimum?.[c] ?? 1;
    if (counts[c] < least) {
      throw new InputError(counts[c] === 0 ? `${c} class: no instances (no records in its input)` : `${c} class: only ${counts[c]} instance(s); at least ${least} are needed`,
        undefined, undefined, 'one file is one instance unless I records name instances');
    }
  }
  if (minimum === undefined && Math.min(counts.good, counts.bad) < 2 && Math.max(counts.good, counts.bad) < REFERENCE_MIN_VALUES) {
    const [c, n] = counts.good < 2 ? ['good', counts.good] : ['bad', counts.bad];
    const other = c === 'good' ? counts.bad : counts.good;
    throw new InputError(`${c} class: only ${n} instance, and the ${c === 'good' ? 'bad' : 'good'} class ${other}; one instance is compared with a class of at least ${REFERENCE_MIN_VALUES}, or give each class 2`,
      undefined, undefined, 'one file is one instance unless I records name instances');
  }
}

/**
 * Build the FeatureSet (SPEC §2) from everything the collector summarized:
 * instances ordered good-then-bad by id, one table per (kind, feature type),
 * the performance metric P, heavy-tail detection and cost weights.
 */
export function buildFeatureSet(collector: FeatureCollector, options: FeatureOptions): FeatureResult {
  const warnings: string[] = [];
  // A class's slots by id (stable: equal ids keep slot order); ids summarized in order need no sort (an O(n) check).
  // (Typed arrays: a million slots pushed one by one into arrays took ~0.15 s.)
  const slotsOf = (c: ClassName): Int32Array => {
    const { ids, classes } = collector;
    let n = 0;
    for (let s = 0; s < ids.length; s++) if (classes.at(s) === c) n++;
    const slots = new Int32Array(n);
    for (let s = 0, w = 0; w < n; s++) if (classes.at(s) === c) slots[w++] = s;
    let sorted = true;
    for (let i = 1; i < n && sorted; i++) sorted = (ids[slots[i - 1] as number] as string) <= (ids[slots[i] as number] as string);
    return sorted ? slots : slots.sort((a, b) => compareCodeUnits(ids[a] as string, ids[b] as string));
  };
  const goodSlots = slotsOf('good');
  const badSlots = slotsOf('bad');
  checkInstanceCounts({ good: goodSlots.length, bad: badSlots.length }, options.minInstances);
  const order = new Int32Array(goodSlots.length + badSlots.length);
  order.set(goodSlots);
  order.set(badSlots, goodSlots.length);
  const nGood = goodSlots.length;
  const nBad = badSlots.length;
  const durationsBySlot = collector.durations.toArray(collector.instanceCount);
  const referenceDuration = referenceDurationOf(collector);
  // Dref given to the collector ahead (readParallel, from the durations announced) must be this one: its q*.abs used it.
  const used = collector.referenceDurationUsed;
  if (used !== null && !Object.is(used, referenceDuration)) throw new Error(`Dref ${used} was used ahead, but the instances' median duration is ${referenceDuration}`);
  // Without the change points in memory, an AbsoluteQuartilePass has filled q*.abs already.
  if (collector.keepSeries) collector.fillAbsoluteQuartiles(referenceDuration);

  const kindOf = instanceKinds(collector);
  // A million of these: made in a loop into an array of their number (not through Array.from's iterator), the
  // count a small integer where it is one (a double field would be a boxed number per instance).
  const instances: Instance[] = new Array<Instance>(order.length);
  const durations = new Float64Array(order.length);
  const starts = new Float64Array(order.length);
  const startsBySlot = collector.starts.data;
  const counts = collector.recordCounts.data;
  for (let i = 0; i < order.length; i++) {
    const s = order[i] as number;
    const records = counts[s] as number;
    const duration = durationsBySlot[s] as number;
    durations[i] = duration;
    starts[i] = startsBySlot[s] as number;
    instances[i] = { id: collector.ids[s] as string, className: collector.classes.at(s), duration, records: (records | 0) === records ? records | 0 : records, kind: kindOf(s) };
  }

  const metric = resolveMetric(collector, options, warnings);
  const rowOf = rowsOfSlots(order);
  const tables: FeatureTable[] = [];
  for (const kind of ['event', 'state'] as const) {
    const index = kind === 'event' ? collector.events : collector.states;
    const allColumns = kind === 'event' ? collector.eventColumns : collector.stateColumns;
    const types = kind === 'event' ? EVENT_FEATURE_TYPES : STATE_FEATURE_TYPES;
    const p = kind === 'event' ? metric.event : metric.state;
    const builtIn = kind === 'event' ? metric.eventIsDuration : metric.stateIsDuration;
    if (index.names.length === 0) continue;
    const names = [...index.names];
    if (builtIn && p !== null && !index.has(p)) names.push(p);
    names.sort(compareCodeUnits);
    const leaders = leadersOf(kind);
    // This kind's tables start here, in feature type order.
    const first = tables.length;
    types.forEach((feature, f) => {
      const columns = names.map((name, n) => {
        const v = index.indexOf(name);
        // The built-in duration: D in every feature type, one array shared by every table (columns are never written
        // once built: a copy per table was 8 MB of new memory each at a million instances).
        if (v < 0) return durations;
        const source = (allColumns[v] as GrowableFloat64[])[f] as GrowableFloat64;
        // A follower that followed to the end: its leader's column (built before it: leaders come first).
        if (source.following) return (tables[first + (leaders[f] as number)] as FeatureTable).columns[n] as Float64Array;
        const out = reorder(source, rowOf, order.length);
        // The collector's copy is not read again: free it now, so a million
        // instances do not hold every column twice (or hand it over: see reorder).
        source.release();
        if (kind === 'event' && feature === 'count') for (let i = 0; i < out.length; i++) if (Number.isNaN(out[i])) out[i] = 0;
        return out;
      });
      tables.push({ kind, feature, variables: names, columns });
    });
    reportOneClassVariables(kind, tables[first] as FeatureTable, nGood, warnings);
    reportIdLikeVariables(kind, tables[first] as FeatureTable, warnings);
  }

  const partial = { instances, nGood, nBad, metric, tables, referenceDuration };
  const { values: pValues, variable, kind, feature } = metricValues(partial);
  const heavyTail = detectHeavyTail(pValues, variable, kind, feature);
  const weights = new Float64Array(instances.length).fill(1);
  let half: number | null = null;
  if (options.weight.mode === 'exp') half = options.weight.half;
  else if (options.weight.mode === 'auto' && heavyTail.detected) half = percentile(pValues, 0.99);
  if (half !== null && half > 0) {
    let capped = 0;
    for (let i = 0; i < weights.length; i++) {
      const p = pValues[i] as number;
      if (Number.isNaN(p)) continue;
      const w = Math.floor(2 ** (p / half));
      if (w > MAX_WEIGHT) capped++;
      weights[i] = Math.min(MAX_WEIGHT, Math.max(1, w));
    }
    if (capped > 0) warnings.push(`${capped} instance weight(s) capped at 2^32 (P far above HALF = ${half})`);
  }

  if (collector.unorderedInstances > 0) {
    warnings.push(`${collector.unorderedInstances} instance(s) had timestamps going backwards; their records were sorted by time`);
  }
  if (collector.emptyFiles.length > 0) {
    warnings.push(`${collector.emptyFiles.length} file(s) held no records, e.g. ${collector.emptyFiles[0]}`);
  }
  if (collector.sharedIds.length > 0) {
    warnings.push(`${collector.sharedIds.length} instance id(s) occur in both classes (e.g. '${collector.sharedIds[0]}'); each class keeps its own instance`);
  }

  const spanEvents = new Set(collector.spanEventList().map((e) => collector.events.names[e] as string));
  const sources = variableSources(collector.states.names, spanEvents, options.joined);
  const features: FeatureSet = { ...partial, weights, starts, ...(sources.size > 0 ? { sources } : {}) };
  return {
    features,
    heavyTail,
    weighting: { mode: options.weight.mode, half: half !== null && half > 0 ? half : null, applied: half !== null && half > 0 },
    warnings,
  };
}

/**
 * Each instance's kind (SPEC §2): the kind its `I` record gave; when no
 * instance has one, an instance named by `I` records takes the name of its
 * first event (its entry point); whole-file instances have none.
 */
function instanceKinds(collector: FeatureCollector): (slot: number) => string | null {
  if (collector.kinds.any()) return (s) => collector.kinds.at(s);
  return (s) => {
    const entry = collector.entryEvents.data[s] as number;
    return collector.named.data[s] === 1 && entry >= 0 ? (collector.events.names[entry] as string) : null;
  };
}

function resolveMetric(collector: FeatureCollector, options: FeatureOptions, warnings: string[]): MetricInfo {
  const hasEvents = collector.events.names.length > 0;
  const hasStates = collector.states.names.length > 0;
  const named = (option: string, name: string, kinds: LogKind[]): void => {
    const found = kinds.some((k) => (k === 'event' ? collector.events : collector.states).has(name));
    if (!found) {
      const near = nearNames(name, kinds.flatMap((k) => (k === 'event' ? collector.events : collector.states).names));
      throw new InputError(`${option} ${name}: no ${kinds.join(' or ')} variable of that name occurs in any instance`, undefined, undefined,
        near.length > 0 ? `did you mean ${near.map((n) => `'${n}'`).join(' or ')}? (names are case-sensitive)`
          : 'names are case-sensitive; `distalyze translate` shows the records a translator produces');
    }
  };
  // `--metric duration` names the built-in default (unless the logs have a variable of that name).
  const builtIn = (name: string | undefined): string | undefined => (name === DURATION && !collector.events.has(DURATION) && !collector.states.has(DURATION) ? undefined : name);
  options = { ...options, metric: builtIn(options.metric), eventMetric: builtIn(options.eventMetric), stateMetric: builtIn(options.stateMetric) };
  if (options.metric !== undefined) named('--metric', options.metric, ['event', 'state']);
  if (options.eventMetric !== undefined) named('--event-metric', options.eventMetric, ['event']);
  if (options.stateMetric !== undefined) named('--state-metric', options.stateMetric, ['state']);
  const pick = (kind: LogKind, own: string | undefined, has: boolean): [string | null, boolean] => {
    const index = kind === 'event' ? collector.events : collector.states;
    const name = own ?? (options.metric !== undefined && index.has(options.metric) ? options.metric : undefined);
    if (name !== undefined) {
      requireInBothClasses(collector, kind, name);
      return [name, false];
    }
    if (!has) return [null, false];
    if (index.has(DURATION)) {
      warnings.push(`the logs have a ${kind} variable named '${DURATION}'; it is used as the ${kind} metric P in place of the built-in duration`);
      return [DURATION, false];
    }
    return [DURATION, true];
  };
  const [event, eventIsDuration] = pick('event', options.eventMetric, hasEvents);
  const [state, stateIsDuration] = pick('state', options.stateMetric, hasStates);
  return { event, state, eventIsDuration, stateIsDuration };
}

function requireInBothClasses(collector: FeatureCollector, kind: LogKind, name: string): void {
  const index = kind === 'event' ? collector.events : collector.states;
  const columns = (kind === 'event' ? collector.eventColumns : collector.stateColumns)[index.indexOf(name)];
  // Column 0 (first.abs / min) is set exactly where the variable occurs.
  const present = new Set<ClassName>();
  const col = columns?.[0];
  if (col !== undefined) {
    for (let s = 0; s < collector.instanceCount; s++) if (!Number.isNaN(col.at(s))) present.add(collector.classes.at(s));
  }
  for (const c of ['good', 'bad'] as const) {
    // A class without instances (history reads every run as one class) has nothing to measure.
    if (!present.has(c) && collector.classes.includes(c)) {
      throw new InputError(`metric ${name} (${kind}) occurs in no instance of the ${c} class; P must be measured in both classes to compare them`);
    }
  }
}

/** `first` is the kind's first table (first.abs / min): set exactly where a variable occurs. */
function reportOneClassVariables(kind: LogKind, first: FeatureTable, nGood: number, warnings: string[]): void {
  const names = first.variables;
  const only: Record<ClassName, string[]> = { good: [], bad: [] };
  names.forEach((name, v) => {
    const col = first.columns[v] as Float64Array;
    // Each class's rows up to its first value only (dense columns: one row each).
    const anyIn = (from: number, to: number): boolean => {
      for (let i = from; i < to; i++) if (!Number.isNaN(col[i] as number)) return true;
      return false;
    };
    const inGood = anyIn(0, Math.min(nGood, col.length));
    const inBad = anyIn(nGood, col.length);
    if (inGood && !inBad) only.good.push(name);
    if (inBad && !inGood) only.bad.push(name);
  });
  for (const c of ['good', 'bad'] as const) {
    if (only[c].length === 0) continue;
    const shown = only[c].slice(0, 5).map((n) => `'${n}'`).join(', ');
    const more = only[c].length > 5 ? ` and ${only[c].length - 5} more` : '';
    warnings.push(`${only[c].length} ${kind} variable(s) occur only in the ${c} class: ${shown}${more}` +
      (kind === 'event' ? ' (their count is tested: 0 in the other class)' : ' (untestable: no values in the other class)'));
  }
}

/** At least this many variables present in one instance, and over half of the kind's variables, before the note. */
export const ID_LIKE_MIN = 100;

/**
 * A note when most variables of a kind occur in a single instance: the mark
 * of a translator that puts an id (request id, address, timestamp) into
 * variable names, making one variable per occurrence. Nothing is dropped;
 * they are analysed as given, which costs time and memory per variable.
 * `first` is the kind's first table (set exactly where a variable occurs).
 */
function reportIdLikeVariables(kind: LogKind, first: FeatureTable, warnings: string[]): void {
  const names = first.variables;
  const single: string[] = [];
  names.forEach((name, v) => {
    const col = first.columns[v] as Float64Array;
    let present = 0;
    for (let i = 0; i < col.length && present < 2; i++) if (!Number.isNaN(col[i])) present++;
    if (present === 1) single.push(name);
  });
  if (single.length < ID_LIKE_MIN || 2 * single.length <= names.length) return;
  const shown = single.slice(0, 3).map((n) => `'${n}'`).join(', ');
  warnings.push(`${single.length} of ${names.length} ${kind} variables occur in a single instance (e.g. ${shown}): ` +
    'names that carry an id (request id, address, timestamp) make one variable per occurrence; keep the id out of the name (in the translator), or name instances by it with I records');
}

/**
 * Variable names close to a mistyped one: equal ignoring case, or within an
 * edit distance of 2 (at most 3 names, closest first, then in name order).
 */
export function nearNames(name: string, names: readonly string[]): string[] {
  const lower = name.toLowerCase();
  const scored: [string, number][] = [];
  for (const n of names) {
    if (Math.abs(n.length - name.length) > 2) continue;
    const d = n.toLowerCase() === lower ? 0 : editDistance(lower, n.toLowerCase(), 2);
    if (d <= 2) scored.push([n, d]);
  }
  return scored.sort((a, b) => a[1] - b[1] || compareCodeUnits(a[0], b[0])).slice(0, 3).map(([n]) => n);
}

/** Levenshtein distance, or limit + 1 once it exceeds limit (one row at a time). */
function editDistance(a: string, b: string, limit: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      best = Math.min(best, row[j] as number);
    }
    if (best > limit) return limit + 1;
    previous = row;
  }
  return previous[b.length] as number;
}

/**
 * Where each collector slot goes in the feature table: `rowOf[order[i]] = i`;
 * null when that is every slot's own index (slots already in table order).
 * `order` is a permutation of the slots.
 */
function rowsOfSlots(order: Int32Array): Int32Array | null {
  let identity = true;
  for (let i = 0; i < order.length && identity; i++) identity = order[i] === i;
  if (identity) return null;
  const rowOf = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) rowOf[order[i] as number] = i;
  return rowOf;
}

/**
 * A collector column in table order: `out[rowOf[s]] = data[s]`, NaN for
 * slots the column never set. Scattered through the inverse permutation,
 * reading the column sequentially (much faster than gathering at a million
 * rows). When the order is the slots' own, the column's storage itself (its
 * first n slots, see GrowableFloat64.take): no copy and no new memory (the
 * caller drops the collector's reference; room never written is no memory).
 */
function reorder(column: GrowableFloat64, rowOf: Int32Array | null, n: number): Float64Array {
  if (rowOf === null) return column.take(n);
  const data = column.data;
  const out = new Float64Array(n);
  const stored = Math.min(n, column.length);
  for (let s = 0; s < stored; s++) out[rowOf[s] as number] = data[s] as number;
  for (let s = stored; s < n; s++) out[rowOf[s] as number] = Number.NaN;
  return out;
}
