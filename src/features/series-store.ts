/** The state change points every instance slot keeps until Dref is known (q*.abs, SPEC §2). */
import { type ExportMemory, float64sIn, GrowableInt32, int32sIn } from '../memory/growable.js';
import type { FileContribution } from './contribution.js';

/** Change points per block: the smallest block, and the size blocks grow to (20 bytes a point). */
const SERIES_BLOCK_MIN = 4096;
const SERIES_BLOCK_MAX = 1 << 20;

/** One block of change points: state variable, time (relative to the instance's start), value. */
export interface SeriesBlock {
  readonly v: Int32Array;
  readonly t: Float64Array;
  readonly x: Float64Array;
}

/**
 * State change points of every instance slot, in blocks that are never
 * copied: a slot's points lie in one block (the next block starts when an
 * instance might not fit), so growing costs no copy of what is held and no
 * page faults for memory written twice. Blocks double up to 2^20 points.
 */
export class SeriesStore {
  private readonly blocks: SeriesBlock[] = [{ v: new Int32Array(0), t: new Float64Array(0), x: new Float64Array(0) }];
  private capacity = 0;
  /** The current (last) block's arrays and how many of its points are written. */
  blockVar = new Int32Array(0);
  blockT = new Float64Array(0);
  blockV = new Float64Array(0);
  used = 0;
  private readonly slotBlock = new GrowableInt32();
  private readonly slotStart = new GrowableInt32();
  private readonly slotEnd = new GrowableInt32();

  /**
   * Write into `other`'s current block from its start (this store new, `other`
   * not used after, its points sent out copied): a worker's batch after batch
   * goes on in the block the last one grew to, instead of allocating and
   * first writing its own.
   */
  reuseBlockOf(other: SeriesStore): void {
    if (this.blocks.length !== 1 || this.slotStart.length > 0) throw new Error('reuseBlockOf: this series store is in use');
    this.blocks[0] = other.blocks[other.blocks.length - 1] as SeriesBlock;
    this.capacity = other.blockVar.length;
    this.blockVar = other.blockVar;
    this.blockT = other.blockT;
    this.blockV = other.blockV;
    this.used = 0;
    other.blocks.length = 0;
  }

  /** Room for `slots` slots' ranges. */
  reserveSlots(slots: number): void {
    for (const g of [this.slotBlock, this.slotStart, this.slotEnd]) g.reserve(slots);
  }

  /** Room for n more points of one slot in the current block (call before beginSlot). */
  room(n: number): void {
    if (this.used + n <= this.blockVar.length) return;
    const size = Math.max(n, Math.min(SERIES_BLOCK_MAX, Math.max(SERIES_BLOCK_MIN, this.capacity)));
    const block = { v: new Int32Array(size), t: new Float64Array(size), x: new Float64Array(size) };
    this.blocks.push(block);
    this.capacity += size;
    this.blockVar = block.v;
    this.blockT = block.t;
    this.blockV = block.x;
    this.used = 0;
  }

  beginSlot(): void {
    this.slotBlock.push(this.blocks.length - 1);
    this.slotStart.push(this.used);
  }

  endSlot(): void {
    this.slotEnd.push(this.used);
  }

  blockOf(slot: number): SeriesBlock {
    return this.blocks[this.slotBlock.data[slot] as number] as SeriesBlock;
  }

  startOf(slot: number): number {
    return this.slotStart.data[slot] as number;
  }

  endOf(slot: number): number {
    return this.slotEnd.data[slot] as number;
  }

  /** The first `slots` slots' points, contiguous, as a FileContribution holds them (seriesStart: each slot's first). */
  pack(slots: number, memory: ExportMemory = ArrayBuffer): Pick<FileContribution, 'seriesVar' | 'seriesT' | 'seriesV' | 'seriesStart'> {
    const total = this.pointsOf(slots);
    const seriesVar = int32sIn(memory, total);
    const seriesT = float64sIn(memory, total);
    const seriesV = float64sIn(memory, total);
    const seriesStart = int32sIn(memory, slots);
    // No points (all dropped once their q*.abs were written): every slot's first is 0.
    if (total === 0) return { seriesVar, seriesT, seriesV, seriesStart };
    let w = 0;
    let s = 0;
    while (s < slots) {
      // A run of slots one after another in one block: one copy each.
      const block = this.slotBlock.data[s] as number;
      const from = this.startOf(s);
      let to = this.endOf(s);
      seriesStart[s] = w;
      let e = s + 1;
      while (e < slots && this.slotBlock.data[e] === block && this.startOf(e) === to) {
        seriesStart[e] = w + to - from;
        to = this.endOf(e);
        e++;
      }
      const b = this.blocks[block] as SeriesBlock;
      seriesVar.set(b.v.subarray(from, to), w);
      seriesT.set(b.t.subarray(from, to), w);
      seriesV.set(b.x.subarray(from, to), w);
      w += to - from;
      s = e;
    }
    return { seriesVar, seriesT, seriesV, seriesStart };
  }

  /**
   * The points of slots [0, slots). A function of its own: compiled while it
   * ran (on-stack replacement), this loop's code went on in `pack` to calls
   * that had never run and stopped there, on every pack (a million requests:
   * 11 stops a run).
   */
  private pointsOf(slots: number): number {
    let total = 0;
    for (let s = 0; s < slots; s++) total += this.endOf(s) - this.startOf(s);
    return total;
  }

  /** Append a contribution's slots and (with keep) their points, state variables renumbered by `stateMap`. */
  absorb(part: FileContribution, stateMap: readonly number[], keep: boolean): void {
    const n = keep ? part.seriesVar.length : 0;
    const slots = part.seriesStart.length;
    if (n > 0) this.room(n);
    const at = this.used;
    if (n > 0) {
      this.blockT.set(part.seriesT, at);
      this.blockV.set(part.seriesV, at);
      const to = this.blockVar;
      const from = part.seriesVar;
      for (let i = 0; i < n; i++) to[at + i] = stateMap[from[i] as number] as number;
      this.used = at + n;
    }
    const block = this.blocks.length - 1;
    for (let s = 0; s < slots; s++) {
      this.slotBlock.push(block);
      this.slotStart.push(n > 0 ? at + (part.seriesStart[s] as number) : at);
      this.slotEnd.push(n > 0 ? at + (s + 1 < slots ? (part.seriesStart[s + 1] as number) : n) : at);
    }
  }

  /** The first `slots` slots' points dropped (their q*.abs are written). */
  dropPoints(slots: number): void {
    for (let s = 0; s < slots; s++) this.slotEnd.data[s] = this.slotStart.data[s] as number;
  }

  /** Forget every slot (the current block is written again from its start). */
  clear(): void {
    const last = this.blocks[this.blocks.length - 1] as SeriesBlock;
    this.blocks.length = 0;
    this.blocks.push(last);
    this.capacity = last.v.length;
    this.used = 0;
    this.slotBlock.clear();
    this.slotStart.clear();
    this.slotEnd.clear();
  }
}
