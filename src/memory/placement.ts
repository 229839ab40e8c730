/** Where growable columns live: many columns in one allocation, private or shared between threads. */
import type { GrowableFloat64 } from './growable.js';

/**
 * Every column of `columns` in shared storage with room for `room` slots:
 * those that are not yet moved into views of new SharedArrayBuffers, as many
 * columns per buffer as reserveTogether puts in one. One large mapping
 * instead of one per column: with huge pages (docs/internals.md, "Memory":
 * huge pages) each column's own mapping began and ended in small pages, 2 MB at
 * most at each end (a million requests with ids not in order: of the 155
 * blocks of 2 MiB written, 28 wholly in small pages and ~40 in part; 19 000
 * page faults more in all).
 */
export function shareAll(columns: readonly GrowableFloat64[], room: number): void {
  placeTogether(columns.filter((c) => !(c.data.buffer instanceof SharedArrayBuffer && c.data.length >= room)), room, SharedArrayBuffer);
}

/**
 * Room for `slots` values in each column that has less, all of it in one
 * allocation (each column a view of its own range). One large allocation is
 * mapped by the system page by page as it is first written, so room never
 * written costs no memory and no time; separate allocations of a few MB each
 * may come from the C heap instead, which clears them in full first (seen
 * as ~0.4 s of 1 M slots × 90 columns on a thread that had freed large
 * buffers before).
 */
export function reserveTogether(columns: readonly GrowableFloat64[], slots: number): void {
  placeTogether(columns.filter((c) => c.data.length < slots), slots, ArrayBuffer);
}

/** `columns` moved into views of `slots` values each of new buffers, at most RESERVE_MAX_BYTES each (one column at least), so no single allocation is huge. */
function placeTogether(columns: readonly GrowableFloat64[], slots: number, Buffer: typeof ArrayBuffer | typeof SharedArrayBuffer): void {
  const bytes = slots * Float64Array.BYTES_PER_ELEMENT;
  const perBuffer = Math.max(1, Math.floor(RESERVE_MAX_BYTES / bytes));
  for (let first = 0; first < columns.length; first += perBuffer) {
    const group = columns.slice(first, first + perBuffer);
    const buffer = new Buffer(group.length * bytes);
    group.forEach((c, i) => c.moveTo(new Float64Array(buffer, i * bytes, slots)));
  }
}
const RESERVE_MAX_BYTES = 1 << 30;
