import type { InputFile } from '../parse/files.js';
import type { ClassSink } from '../parse/reader.js';
import type { ClassName } from '../parse/records.js';
import type { FeatureCollector } from './collector.js';
import { median } from './stats.js';
import { STATE_FEATURE_TYPES } from './types.js';

const Q1_ABS = STATE_FEATURE_TYPES.indexOf('q1.abs');
const QUARTERS = [0.25, 0.5, 0.75] as const;

/** Dref (SPEC §2): the median duration over all instances of both classes. */
export function referenceDurationOf(collector: FeatureCollector): number {
  // median skips missing values (and copies what it selects in): a view of the stored durations is enough.
  const { durations } = collector;
  return median(durations.data.subarray(0, Math.min(collector.instanceCount, durations.length)));
}

/**
 * The `q1.abs`, `half.abs`, `q3.abs` state features from a second read of the
 * input, for inputs too large to hold every state change point until Dref is
 * known. Streaming and exact: per (instance, state variable) it keeps the
 * earliest value (the answer when nothing is logged at or before x) and, for
 * each x = q × Dref, the latest value at or before x — later input lines win
 * ties, as the stable time sort of the first pass does. Memory: 8 numbers per
 * (instance, state variable).
 */
export class AbsoluteQuartilePass implements ClassSink {
  /**
   * Slots by class and id, apart for the two ways an instance is named (as
   * the collector keeps them apart): a file's own instance (its relative path)
   * and one named by `I` records may share an id, and so may the two classes.
   */
  private readonly fileSlots = new Map<string, number>();
  private readonly namedSlots = new Map<string, number>();
  /** key slot × S + variable → [firstT, firstV, t(q1), v(q1), t(half), v(half), t(q3), v(q3)] */
  private readonly best = new Map<number, Float64Array>();
  private readonly targets: readonly number[];
  private readonly stateCount: number;
  private className: ClassName = 'good';
  private current = -1;

  constructor(private readonly collector: FeatureCollector, referenceDuration: number) {
    collector.ids.forEach((id, slot) => (collector.named.data[slot] === 1 ? this.namedSlots : this.fileSlots).set(`${collector.classes[slot]}\t${id}`, slot));
    this.targets = QUARTERS.map((q) => q * referenceDuration);
    this.stateCount = collector.states.names.length;
  }

  beginFile(file: InputFile, className: ClassName): void {
    this.className = className;
    this.current = this.fileSlots.get(`${className}\t${file.relativePath}`) ?? -1;
  }

  endFile(): void {
    this.current = -1;
  }

  instance(id: string): void {
    this.current = this.namedSlots.get(`${this.className}\t${id}`) ?? -1;
  }

  event(): void {
    // Events do not enter state features.
  }

  state(t: number, name: string, value: number): void {
    if (this.current < 0) return;
    const v = this.collector.states.indexOf(name);
    if (v < 0) return;
    const tn = t - (this.collector.starts.data[this.current] as number);
    const key = this.current * this.stateCount + v;
    let b = this.best.get(key);
    if (b === undefined) {
      b = Float64Array.of(Infinity, Number.NaN, -Infinity, Number.NaN, -Infinity, Number.NaN, -Infinity, Number.NaN);
      this.best.set(key, b);
    }
    if (tn < (b[0] as number)) {
      b[0] = tn;
      b[1] = value;
    }
    for (let q = 0; q < 3; q++) {
      if (tn <= (this.targets[q] as number) && tn >= (b[2 + 2 * q] as number)) {
        b[2 + 2 * q] = tn;
        b[3 + 2 * q] = value;
      }
    }
  }

  /** Write the features into the collector's columns. */
  finish(): void {
    for (const [key, b] of this.best) {
      const slot = Math.floor(key / this.stateCount);
      const v = key - slot * this.stateCount;
      const cols = this.collector.stateColumns[v];
      if (cols === undefined) continue;
      for (let q = 0; q < 3; q++) {
        const found = (b[2 + 2 * q] as number) > -Infinity;
        cols[Q1_ABS + q]!.set(slot, found ? (b[3 + 2 * q] as number) : (b[1] as number));
      }
    }
    this.best.clear();
  }
}
