/** Records not yet summarized, in four growable columns of one allocation. */
import { type ExportMemory, GROW_FAST, GrowableFloat64, GrowableInt32 } from './growable.js';

/** A held record's bytes: its time and value (Float64), code and instance (Int32). */
const HELD_RECORD_BYTES = 24;

/** Records not yet summarized: event variable v is coded v, state variable v is coded −1−v. */
export class RecordBuffer {
  /** memory: where the records are (SharedArrayBuffer for a worker's, which may cross to the main thread: exportFile's handOver). */
  constructor(private readonly memory: ExportMemory = ArrayBuffer) {}

  // Read only below their length: no NaN fill on growing; by GROW_FAST (a class's held records reach millions).
  readonly code = new GrowableInt32(16, GROW_FAST);
  readonly t = new GrowableFloat64(16, 0, GROW_FAST);
  readonly v = new GrowableFloat64(16, 0, GROW_FAST);
  /** Instance index, for the buffer of instances named by `I` records. */
  readonly inst = new GrowableInt32(16, GROW_FAST);

  get length(): number {
    return this.code.length;
  }

  /**
   * Room for n more records (at least GROW_FAST times the present room when
   * it must grow): the four columns in one allocation, each a view of its
   * part. One mapping of 24 bytes a record, not four: with huge pages
   * (docs/internals.md, "Memory": huge pages) a mapping is in small pages from
   * its start to the first 2 MiB boundary and from the last one to its end,
   * which for a worker's batch of a few MB was nearly all of each (a million
   * requests in 20 files a class: ~24 000 faults of the worker's reading).
   */
  reserveMore(n: number): void {
    const need = this.length + n;
    if (need <= this.code.data.length) return;
    const size = Math.max(need, this.code.data.length * GROW_FAST);
    // Float64 columns first (8-byte aligned), then the Int32 ones.
    const buffer = new this.memory(size * HELD_RECORD_BYTES);
    this.t.moveTo(new Float64Array(buffer, 0, size));
    this.v.moveTo(new Float64Array(buffer, size * 8, size));
    this.code.moveTo(new Int32Array(buffer, size * 16, size));
    this.inst.moveTo(new Int32Array(buffer, size * 20, size));
  }

  clear(): void {
    this.code.clear();
    this.t.clear();
    this.v.clear();
    this.inst.clear();
  }
}
