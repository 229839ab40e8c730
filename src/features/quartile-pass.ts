import type { InputFile } from '../parse/files.js';
import type { ClassSink } from '../parse/reader.js';
import type { ClassName, RecordIntake } from '../parse/records.js';
import type { FeatureCollector } from './collector.js';
import { median } from '../stats/median.js';
import { STATE_FEATURE_TYPES } from './types.js';

const Q1_ABS = STATE_FEATURE_TYPES.indexOf('q1.abs');
const QUARTERS = [0.25, 0.5, 0.75] as const;
/** A (instance, state variable)'s numbers before its first value (see AbsoluteQuartilePass.values). */
const EMPTY = Float64Array.of(Infinity, Number.NaN, -Infinity, Number.NaN, -Infinity, Number.NaN, -Infinity, Number.NaN);

/** Dref (SPEC §2): the median duration over all instances of both classes. */
export function referenceDurationOf(collector: FeatureCollector): number {
  // median skips missing values (and copies what it selects in): a view of the stored durations is enough.
  const { durations } = collector;
  return median(durations.data.subarray(0, Math.min(collector.instanceCount, durations.length)));
}

/**
 * What the second pass needs of the first, in a form that crosses to a
 * worker (structured clone): each slot's id, class (1: bad), whether `I`
 * records named it, and first timestamp; the state variables; Dref.
 */
export interface QuartileLayout {
  readonly ids: readonly string[];
  readonly bad: Uint8Array;
  readonly named: Uint8Array;
  readonly starts: Float64Array;
  readonly stateNames: readonly string[];
  readonly referenceDuration: number;
}

/** The collector's slots and state variables, with Dref, for the second pass (its typed arrays sized to the slots, to cross threads whole). */
export function quartileLayoutOf(collector: FeatureCollector, referenceDuration: number): QuartileLayout {
  const n = collector.instanceCount;
  const bad = new Uint8Array(n);
  const named = new Uint8Array(n);
  for (let slot = 0; slot < n; slot++) {
    bad[slot] = collector.classes.at(slot) === 'bad' ? 1 : 0;
    named[slot] = collector.named.data[slot] === 1 ? 1 : 0;
  }
  return { ids: collector.ids, bad, named, starts: collector.starts.data.slice(0, n), stateNames: [...collector.states.names], referenceDuration };
}

/**
 * A layout's lookups, made once per thread: slots by class and id, apart for
 * the two ways an instance is named (as the collector keeps them apart): a
 * file's own instance (its relative path) and one named by `I` records may
 * share an id, and so may the two classes.
 */
export class QuartileSlots {
  readonly fileSlots = new Map<string, number>();
  readonly namedSlots = new Map<string, number>();
  readonly stateIndex: ReadonlyMap<string, number>;
  readonly stateCount: number;
  readonly targets: Float64Array;
  readonly starts: Float64Array;

  constructor(layout: QuartileLayout) {
    layout.ids.forEach((id, slot) => (layout.named[slot] === 1 ? this.namedSlots : this.fileSlots).set(`${layout.bad[slot] === 1 ? 'bad' : 'good'}\t${id}`, slot));
    this.stateIndex = new Map(layout.stateNames.map((name, v) => [name, v]));
    this.stateCount = layout.stateNames.length;
    this.targets = Float64Array.from(QUARTERS, (q) => q * layout.referenceDuration);
    this.starts = layout.starts;
  }
}

/**
 * What a second pass over some of the input found (AbsoluteQuartilePass.results):
 * per (instance, state variable) met, in the order first met, its key (slot ×
 * state variables + variable) and its 8 numbers (see AbsoluteQuartilePass.values).
 */
export interface QuartileFindings {
  readonly keys: Float64Array;
  readonly values: Float64Array;
}

/**
 * The `q1.abs`, `half.abs`, `q3.abs` state features from a second read of the
 * input, for inputs too large to hold every state change point until Dref is
 * known. Streaming and exact: per (instance, state variable) it keeps the
 * earliest value (the answer when nothing is logged at or before x) and, for
 * each x = q × Dref, the latest value at or before x — later input lines win
 * ties, as the stable time sort of the first pass does. Memory: 8 numbers per
 * (instance, state variable).
 *
 * A dlog reader gives it the state records in typed batches (`intake`) and
 * skips the event lines unparsed (RecordIntake.statesOnly). Several threads
 * may read consecutive parts of the input, each into a pass of its own; the
 * parts' findings merged in input order (`merge`) are what one pass over
 * all of them finds (docs/internals.md, "Memory").
 */
export class AbsoluteQuartilePass implements ClassSink {
  /**
   * key slot × S + variable → where its 8 numbers start in `values`: firstT,
   * firstV, then t and v at or before each target (q1, half, q3).
   */
  private readonly best = new Map<number, number>();
  private values = new Float64Array(8 * 64);
  private used = 0;
  private className: ClassName = 'good';
  private current = -1;
  /** The current slot's places in `values` by variable (−1: not looked up yet), and the variables looked up. */
  private readonly placeOf: Int32Array;
  private readonly looked: number[] = [];
  private placesFor = -1;
  /** The intake's state numbers: the layout's variable of each (−1: a name the first pass did not meet). */
  private readonly intakeStates: number[] = [];
  private readonly intakeStateIds = new Map<string, number>();
  private readonly intakeEventIds = new Map<string, number>();
  readonly intake: RecordIntake = {
    statesOnly: true,
    eventVariable: (name) => {
      let id = this.intakeEventIds.get(name);
      if (id === undefined) this.intakeEventIds.set(name, (id = this.intakeEventIds.size));
      return id;
    },
    stateVariable: (name) => {
      let id = this.intakeStateIds.get(name);
      if (id === undefined) {
        this.intakeStateIds.set(name, (id = this.intakeStates.length));
        this.intakeStates.push(this.slots.stateIndex.get(name) ?? -1);
      }
      return id;
    },
    records: (code, t, v, n) => {
      if (this.current < 0) return;
      const states = this.intakeStates;
      for (let i = 0; i < n; i++) {
        const c = code[i] as number;
        if (c >= 0) continue;
        const variable = states[-1 - c] as number;
        if (variable >= 0) this.take(variable, t[i] as number, v[i] as number);
      }
    },
  };

  constructor(private readonly slots: QuartileSlots) {
    this.placeOf = new Int32Array(slots.stateCount).fill(-1);
  }

  beginFile(file: InputFile, className: ClassName): void {
    this.className = className;
    this.current = this.slots.fileSlots.get(`${className}\t${file.relativePath}`) ?? -1;
  }

  endFile(): void {
    this.current = -1;
  }

  instance(id: string): void {
    this.current = this.slots.namedSlots.get(`${this.className}\t${id}`) ?? -1;
  }

  event(): void {
    // Events do not enter state features.
  }

  state(t: number, name: string, value: number): void {
    if (this.current < 0) return;
    const v = this.slots.stateIndex.get(name);
    if (v !== undefined) this.take(v, t, value);
  }

  /** A value of state variable `v` of the current instance at time `t`. */
  private take(v: number, t: number, value: number): void {
    const tn = t - (this.slots.starts[this.current] as number);
    const at = this.placeFor(v);
    const b = this.values;
    if (tn < (b[at] as number)) {
      b[at] = tn;
      b[at + 1] = value;
    }
    const targets = this.slots.targets;
    for (let q = 0; q < 3; q++) {
      if (tn <= (targets[q] as number) && tn >= (b[at + 2 + 2 * q] as number)) {
        b[at + 2 + 2 * q] = tn;
        b[at + 3 + 2 * q] = value;
      }
    }
  }

  /** Where the current instance's numbers for variable `v` start in `values` (made on its first value). */
  private placeFor(v: number): number {
    if (this.placesFor !== this.current) {
      for (const seen of this.looked) this.placeOf[seen] = -1;
      this.looked.length = 0;
      this.placesFor = this.current;
    }
    const cached = this.placeOf[v] as number;
    if (cached >= 0) return cached;
    const at = this.placeOfKey(this.current * this.slots.stateCount + v);
    this.placeOf[v] = at;
    this.looked.push(v);
    return at;
  }

  /** Where `key`'s numbers start in `values`, made (as before any value) on first asking. */
  private placeOfKey(key: number): number {
    let at = this.best.get(key);
    if (at === undefined) {
      at = this.used;
      if (at + 8 > this.values.length) {
        const grown = new Float64Array(this.values.length * 2);
        grown.set(this.values);
        this.values = grown;
      }
      this.values.set(EMPTY, at);
      this.used = at + 8;
      this.best.set(key, at);
    }
    return at;
  }

  /** What this pass found, in the order first met (for another thread's pass to merge). */
  results(): QuartileFindings {
    const keys = new Float64Array(this.best.size);
    let k = 0;
    for (const key of this.best.keys()) keys[k++] = key;
    // (The places were handed out in the same order: values are in key order already.)
    return { keys, values: this.values.slice(0, this.used) };
  }

  /**
   * Take in what a pass over the input right after everything read here so
   * far found: the same as reading it here. Its earliest value wins only if
   * strictly earlier (the earlier line wins ties); its value at or before a
   * target wins if no earlier (the later line wins ties).
   */
  merge(later: QuartileFindings): void {
    const { keys, values: theirs } = later;
    // (Places cached for the current instance stay right: a key merged in is new, or keeps its place.)
    for (let k = 0; k < keys.length; k++) {
      const at = this.placeOfKey(keys[k] as number);
      const from = 8 * k;
      const b = this.values;
      if ((theirs[from] as number) < (b[at] as number)) {
        b[at] = theirs[from] as number;
        b[at + 1] = theirs[from + 1] as number;
      }
      for (let q = 0; q < 3; q++) {
        const t = theirs[from + 2 + 2 * q] as number;
        if (t > -Infinity && t >= (b[at + 2 + 2 * q] as number)) {
          b[at + 2 + 2 * q] = t;
          b[at + 3 + 2 * q] = theirs[from + 3 + 2 * q] as number;
        }
      }
    }
  }

  /** Write the features into the collector's columns. */
  finish(collector: FeatureCollector): void {
    const b = this.values;
    const stateCount = this.slots.stateCount;
    for (const [key, at] of this.best) {
      const slot = Math.floor(key / stateCount);
      const v = key - slot * stateCount;
      const cols = collector.stateColumns[v];
      if (cols === undefined) continue;
      for (let q = 0; q < 3; q++) {
        const found = (b[at + 2 + 2 * q] as number) > -Infinity;
        cols[Q1_ABS + q]!.set(slot, found ? (b[at + 3 + 2 * q] as number) : (b[at + 1] as number));
      }
    }
    this.best.clear();
    this.values = new Float64Array(0);
    this.used = 0;
  }
}
