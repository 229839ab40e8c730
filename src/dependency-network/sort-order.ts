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
  const n = column.length;
  if (n < RADIX_THRESHOLD) {
    const order = comparatorOrder(column);
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) values[i] = column[order[i]] === 0 ? 0 : column[order[i]];
    return { order, rank: inverse(order), values };
  }

  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  const histograms = new Uint32Array(8 * RADIX);
  const bits = new Float64Array(1);
  const halves = new Uint32Array(bits.buffer);
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
    // Every pass's digit histogram, in this one read (counts do not depend on order).
    histograms[l & MASK]++;
    histograms[RADIX + ((l >>> 8) & MASK)]++;
    histograms[2 * RADIX + ((l >>> 16) & MASK)]++;
    histograms[3 * RADIX + (l >>> 24)]++;
    histograms[4 * RADIX + (h & MASK)]++;
    histograms[5 * RADIX + ((h >>> 8) & MASK)]++;
    histograms[6 * RADIX + ((h >>> 16) & MASK)]++;
    histograms[7 * RADIX + (h >>> 24)]++;
  }
  const offsets = (pass: number, first: number): Uint32Array | null => {
    const counts = histograms.subarray(pass * RADIX, (pass + 1) * RADIX);
    if (counts[(first >>> ((pass % 4) * 8)) & MASK] === n) return null; // every key shares this digit
    let sum = 0;
    for (let d = 0; d < RADIX; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    return counts;
  };

  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let spare = new Uint32Array(n);

  // Low word: the key travels with the row.
  let keys = lo;
  let spareKeys = new Uint32Array(n);
  for (let pass = 0; pass < 4; pass++) {
    const counts = offsets(pass, lo[0]);
    if (counts === null) continue;
    const shift = pass * 8;
    for (let i = 0; i < n; i++) {
      const key = keys[i];
      const at = counts[(key >>> shift) & MASK]++;
      spare[at] = order[i];
      spareKeys[at] = key;
    }
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
  for (let r = 0; r < n; r++) keys[rank[r]] = hi[r];
  for (let pass = 4; pass < 8; pass++) {
    const counts = offsets(pass, hi[0]);
    if (counts === null) continue;
    const shift = (pass - 4) * 8;
    for (let i = 0; i < n; i++) {
      const key = keys[i];
      const at = counts[(key >>> shift) & MASK]++;
      spare[at] = order[i];
      spareKeys[at] = key;
      spareLow[at] = low[i];
    }
    [order, spare] = [spare, order];
    [keys, spareKeys] = [spareKeys, keys];
    [low, spareLow] = [spareLow, low];
  }

  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
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
  for (let i = 0; i < n; i++) rank[order[i]] = i;
  return { order, rank, values };
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
  const order = new Uint32Array(values.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  // %TypedArray%.prototype.sort is stable (ES2019), so ties stay in row order.
  return order.sort((a, b) => values[a] - values[b]);
}
