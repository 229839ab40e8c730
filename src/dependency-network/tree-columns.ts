import { sumOver } from '../stats/sum.js';
import { centred, EXACT_RANK_ROWS, exactRankStatistic, midRanks, rootRankStatistic, type Moments } from './rank-gate.js';
import { NodeSums, squareSums } from './node-sums.js';
import { identity, sortColumn, type SortedColumn } from './sort-order.js';

/**
 * Columns prepared once for many trees (a dependency network trains one per
 * column, each predicting it from all the others): inputs checked once,
 * constant columns found by one min/max pass, and the sort order and
 * weighted mid-ranks of a column computed the first time a tree needs them
 * (a tree that is a leaf at its root needs neither, which is what makes
 * thousands of columns over a few rows cheap).
 */
export class TreeColumns {
  readonly rows: number;
  /** 1 where the column has a single value over all rows. */
  readonly constant: Uint8Array;
  /** Columns not constant over the rows. */
  readonly nonConstant: number;
  private readonly sortedCache: (SortedColumn | undefined)[];
  private readonly rankCache: (Float64Array | undefined)[];
  private readonly momentsCache: (Moments | undefined)[] = [];
  /**
   * Unweighted over at most EXACT_RANK_ROWS rows: the rank statistics are
   * computed from exact sums (`exactRankStatistic`), so the same in any order.
   */
  readonly exactRanks: boolean;
  /** Per column, Σ rank and Σ rank² over all rows (exact ranks only). */
  private readonly rankSums: (Float64Array | undefined)[] = [];
  /** The root statistic of each pair of columns, NaN until taken (exact ranks, up to ROOT_CACHE_COLUMNS columns). */
  private rootCache: Float64Array | undefined;
  private allRows: Uint32Array | undefined;
  /** The rows' total weight (their count when unweighted), summed in row order as a tree's root weight is. */
  private readonly total: number;

  /**
   * `shared`: a column's sort order and ranks already computed elsewhere for
   * equal values and weights (a dependency network's caller reuses them
   * across tables), per column, undefined where unknown.
   */
  constructor(
    readonly columns: readonly Float64Array[],
    readonly weights: Float64Array | undefined,
    shared?: readonly (PreparedColumn | undefined)[],
  ) {
    const n = columns.length > 0 ? columns[0].length : (weights?.length ?? 0);
    this.rows = n;
    checkColumns(columns, n, weights);
    this.constant = new Uint8Array(columns.length);
    let live = 0;
    // (The loops over rows are functions of their own, each returning as it ends: compiled while they ran here, on
    // a first table's columns, the constructor's code went on into this table's later steps, which had never run,
    // and stopped there for every table after: 9 times a run of 10 000 instances.)
    for (let j = 0; j < columns.length; j++) {
      if (n === 0 || constantOver(columns[j] as Float64Array, n)) this.constant[j] = 1;
      else live++;
    }
    this.nonConstant = live;
    this.exactRanks = weights === undefined && n <= EXACT_RANK_ROWS;
    this.total = weights === undefined ? n : sumOver(weights, 0, n);
    this.sortedCache = new Array(columns.length);
    this.rankCache = new Array(columns.length);
    if (shared) {
      for (let j = 0; j < columns.length; j++) {
        const known = shared[j];
        if (known === undefined) continue;
        this.sortedCache[j] = known.sorted;
        this.rankCache[j] = known.ranks;
      }
    }
  }

  sorted(j: number): SortedColumn {
    return (this.sortedCache[j] ??= sortColumn(this.columns[j]));
  }

  /** Weighted mid-ranks of column j in row order (SPEC §4 step 1). */
  ranks(j: number): Float64Array {
    return (this.rankCache[j] ??= midRanks(this.sorted(j), this.weights));
  }

  /**
   * Column j's ranks' weighted mean and centred sum of squares over all rows
   * (`centred` in row order): the same at the root of every tree, so taken once.
   */
  rankMoments(j: number): Moments {
    const known = this.momentsCache[j];
    if (known !== undefined) return known;
    this.allRows ??= identity(this.rows);
    return (this.momentsCache[j] = centred(this.ranks(j), this.allRows, this.weights, 0, this.rows, this.total));
  }

  /**
   * c between columns t and j over all rows: the rank gate at a tree's root
   * (SPEC §4 step 3). With exact ranks it is symmetric to the bit and taken
   * once per pair.
   */
  rootStatistic(t: number, j: number): number {
    if (!this.exactRanks) {
      return rootRankStatistic(this.ranks(t), this.rankMoments(t), this.ranks(j), this.rankMoments(j), this.weights, this.total);
    }
    const p = this.columns.length;
    if (this.rootCache === undefined && p <= ROOT_CACHE_COLUMNS) this.rootCache = new Float64Array(p * p).fill(NaN);
    const known = this.rootCache?.[t * p + j];
    if (known !== undefined && !Number.isNaN(known)) return known;
    const sab = dot(this.ranks(t), this.ranks(j), this.rows);
    const [sa, saa] = this.exactSums(t);
    const [sb, sbb] = this.exactSums(j);
    const c = exactRankStatistic(this.rows, sa, saa, sb, sbb, sab);
    if (this.rootCache !== undefined) this.rootCache[t * p + j] = this.rootCache[j * p + t] = c;
    return c;
  }

  private exactSums(j: number): Float64Array {
    const known = this.rankSums[j];
    if (known !== undefined) return known;
    const sums = new NodeSums();
    const s = squareSums(this.ranks(j), (this.allRows ??= identity(this.rows)), 0, this.rows, sums);
    return (this.rankSums[j] = Float64Array.of(s, sums.squares));
  }

  /** What has been computed for column j so far (to share with another TreeColumns over equal values). */
  prepared(j: number): PreparedColumn | undefined {
    const sorted = this.sortedCache[j];
    const ranks = this.rankCache[j];
    return sorted && ranks ? { sorted, ranks } : undefined;
  }
}

/** Whether the first n values of `col` (finite: checkColumns) are all one value (−0 and +0 are one). */
function constantOver(col: Float64Array, n: number): boolean {
  const first = col[0] as number;
  for (let i = 1; i < n; i++) if (col[i] !== first) return false;
  return true;
}

/** Σ a·b over rows [0, n), in row order (a function that ends with its loop: see centred). */
function dot(a: Float64Array, b: Float64Array, n: number): number {
  let sab = 0;
  for (let r = 0; r < n; r++) sab += (a[r] as number) * (b[r] as number);
  return sab;
}

/** A column's sort order and its weighted mid-ranks in row order. */
export interface PreparedColumn {
  readonly sorted: SortedColumn;
  readonly ranks: Float64Array;
}

/** Columns up to which a network keeps every pair's root statistic (8 bytes a pair: 32 MB at 2 048). */
const ROOT_CACHE_COLUMNS = 2048;

function checkColumns(columns: readonly Float64Array[], n: number, w: Float64Array | undefined): void {
  columns.forEach((col, j) => {
    if (col.length !== n) throw new RangeError(`column ${j} has ${col.length} rows, expected ${n}`);
    for (let i = 0; i < n; i++) if (!Number.isFinite(col[i])) throw new RangeError(`predictor ${j} row ${i} is not finite`);
  });
  if (w) {
    if (w.length !== n) throw new RangeError(`weights have ${w.length} rows, target ${n}`);
    for (let i = 0; i < n; i++) if (!(w[i] >= 0 && Number.isFinite(w[i]))) throw new RangeError(`weight ${i} is not a finite non-negative number`);
  }
}
