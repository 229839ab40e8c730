/** A column in ascending order: `values[i] = column[order[i]]`, `rank[order[i]] = i`. */
export interface SortedColumn {
  readonly order: Uint32Array;
  /** The inverse permutation: where each row went. */
  readonly rank: Uint32Array;
  readonly values: Float64Array;
}

/**
 * Sorts a column ascending, ties kept in row order (a stable sort, so the
 * result is fully determined by the input). Values must not be NaN; −0 sorts
 * equal to +0 (and comes back as +0).
 *
 * Large inputs use an LSD radix sort on the IEEE-754 bits mapped to an
 * order-preserving unsigned 64-bit key (up to 8 passes of 8 bits, each key
 * travelling with its row so every pass reads sequentially; passes where all
 * keys share the digit are skipped). The sorted values are rebuilt from the
 * keys, which saves a random-access gather over the column. (Random reads
 * are what costs at a million rows: scattering through the inverse
 * permutation, `out[rank[r]] = in[r]`, is several times faster than
 * gathering, `out[i] = in[order[i]]`, so `rank` is returned for that.)
 */
export function sortColumn(column: Float64Array): SortedColumn {
  return column.length < RADIX_THRESHOLD ? sortSmall(column) : sortRadix(column);
}

// The sort's loops are functions of their own, each ending with its loop: in one function, a loop compiled while it
// ran (on-stack replacement) went on into loops and paths that had not run yet (the small columns' sort, a later
// pass), and stopped there on each next call until the whole function was compiled again.

/** sortColumn below RADIX_THRESHOLD rows: a comparator sort. */
function sortSmall(column: Float64Array): SortedColumn {
  const n = column.length;
  const order = comparatorOrder(column);
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = column[order[i]] === 0 ? 0 : column[order[i]];
  return { order, rank: inverse(order), values };
}

/** sortColumn from RADIX_THRESHOLD rows: the LSD radix sort. */
function sortRadix(column: Float64Array): SortedColumn {
  const n = column.length;
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  const histograms = new Uint32Array(8 * RADIX);
  const bits = new Float64Array(1);
  const halves = new Uint32Array(bits.buffer);
  radixKeys(column, lo, hi, histograms, bits, halves);

  let order: Uint32Array = identity(n);
  let spare: Uint32Array = new Uint32Array(n);

  // Low word: the key travels with the row.
  let keys = lo;
  let spareKeys = new Uint32Array(n);
  for (let pass = 0; pass < 4; pass++) {
    const counts = radixOffsets(histograms, pass, lo[0] as number, n);
    if (counts === null) continue;
    radixPass(keys, order, spareKeys, spare, counts, pass * 8);
    [order, spare] = [spare, order];
    [keys, spareKeys] = [spareKeys, keys];
  }

  // High word: gathered once in the current order; the low word rides along
  // so the values can be rebuilt at the end.
  let low = keys;
  let spareLow = spareKeys;
  keys = new Uint32Array(n);
  spareKeys = hi; // hi is no longer needed once gathered
  const rank = inverse(order);
  scatter(hi, rank, keys);
  for (let pass = 4; pass < 8; pass++) {
    const counts = radixOffsets(histograms, pass, hi[0] as number, n);
    if (counts === null) continue;
    radixPassCarrying(keys, order, low, spareKeys, spare, spareLow, counts, (pass - 4) * 8);
    [order, spare] = [spare, order];
    [keys, spareKeys] = [spareKeys, keys];
    [low, spareLow] = [spareLow, low];
  }

  const values = new Float64Array(n);
  valuesOfKeys(keys, low, values, bits, halves);
  rankInto(order, rank);
  return { order, rank, values };
}

/**
 * Each value's order-preserving key, its high word into `hi` and its low word into `lo`, and every pass's digit
 * histogram, in this one read (counts do not depend on order). `bits`/`halves`: one float and its two words.
 */
function radixKeys(column: Float64Array, lo: Uint32Array, hi: Uint32Array, histograms: Uint32Array, bits: Float64Array, halves: Uint32Array): void {
  const n = column.length;
  for (let i = 0; i < n; i++) {
    const v = column[i];
    bits[0] = v === 0 ? 0 : v;
    let h = halves[H];
    let l = halves[L];
    if (h & SIGN) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else {
      h = (h | SIGN) >>> 0;
    }
    hi[i] = h;
    lo[i] = l;
    histograms[l & MASK]++;
    histograms[RADIX + ((l >>> 8) & MASK)]++;
    histograms[2 * RADIX + ((l >>> 16) & MASK)]++;
    histograms[3 * RADIX + (l >>> 24)]++;
    histograms[4 * RADIX + (h & MASK)]++;
    histograms[5 * RADIX + ((h >>> 8) & MASK)]++;
    histograms[6 * RADIX + ((h >>> 16) & MASK)]++;
    histograms[7 * RADIX + (h >>> 24)]++;
  }
}

/** One stable pass on the digit at `shift`: rows and keys moved to their places in `toOrder`/`toKeys`. */
function radixPass(keys: Uint32Array, order: Uint32Array, toKeys: Uint32Array, toOrder: Uint32Array, counts: Uint32Array, shift: number): void {
  const n = keys.length;
  for (let i = 0; i < n; i++) {
    const key = keys[i];
    const at = counts[(key >>> shift) & MASK]++;
    toOrder[at] = order[i];
    toKeys[at] = key;
  }
}

/** radixPass with the low words riding along (`low` → `toLow`). */
function radixPassCarrying(keys: Uint32Array, order: Uint32Array, low: Uint32Array, toKeys: Uint32Array, toOrder: Uint32Array, toLow: Uint32Array,
  counts: Uint32Array, shift: number): void {
  const n = keys.length;
  for (let i = 0; i < n; i++) {
    const key = keys[i];
    const at = counts[(key >>> shift) & MASK]++;
    toOrder[at] = order[i];
    toKeys[at] = key;
    toLow[at] = low[i];
  }
}

/** 0, 1, …, n − 1. */
export function identity(n: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order;
}

/** rank[order[i]] = i: where each row went. */
function rankInto(order: Uint32Array, rank: Uint32Array): void {
  for (let i = 0; i < order.length; i++) rank[order[i]] = i;
}

/** to[rank[r]] = from[r] for every row r. */
function scatter(from: Uint32Array, rank: Uint32Array, to: Uint32Array): void {
  for (let r = 0; r < from.length; r++) to[rank[r]] = from[r];
}

/** The values back from their keys' high and low words, in sorted order. */
function valuesOfKeys(keys: Uint32Array, low: Uint32Array, values: Float64Array, bits: Float64Array, halves: Uint32Array): void {
  for (let i = 0; i < values.length; i++) {
    let h = keys[i];
    let l = low[i];
    if (h & SIGN) {
      h = (h & ~SIGN) >>> 0;
    } else {
      h = ~h >>> 0;
      l = ~l >>> 0;
    }
    halves[H] = h;
    halves[L] = l;
    values[i] = bits[0];
  }
}

/**
 * Pass `pass`'s digit counts (of `histograms`) turned into each digit's first place, or null when every one of
 * the `n` keys shares the digit of `first` (the pass is skipped). (Not a closure in sortColumn: its compiled code
 * called the first call's closure, and was thrown away on the next call.)
 */
function radixOffsets(histograms: Uint32Array, pass: number, first: number, n: number): Uint32Array | null {
  const counts = histograms.subarray(pass * RADIX, (pass + 1) * RADIX);
  if (counts[(first >>> ((pass % 4) * 8)) & MASK] === n) return null; // every key shares this digit
  let sum = 0;
  for (let d = 0; d < RADIX; d++) {
    const c = counts[d] as number;
    counts[d] = sum;
    sum += c;
  }
  return counts;
}

/** The permutation that sorts `column` ascending (stable). */
export function sortOrder(column: Float64Array): Uint32Array {
  return sortColumn(column).order;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const L = LITTLE_ENDIAN ? 0 : 1;
const H = LITTLE_ENDIAN ? 1 : 0;
const SIGN = 0x80000000;
const RADIX = 256;
const MASK = RADIX - 1;
/** Below this size a comparator sort is as fast and allocates less. */
const RADIX_THRESHOLD = 512;

function inverse(order: Uint32Array): Uint32Array {
  const rank = new Uint32Array(order.length);
  for (let i = 0; i < order.length; i++) rank[order[i]] = i;
  return rank;
}

function comparatorOrder(values: Float64Array): Uint32Array {
  const order = identity(values.length);
  // %TypedArray%.prototype.sort is stable (ES2019), so ties stay in row order.
  return order.sort((a, b) => values[a] - values[b]);
}
