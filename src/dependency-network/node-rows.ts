/** The rows of a regression tree's nodes (cart.ts): the buffers trees share, and a node's rows in a predictor's order. */
import { NodeSums } from './node-sums.js';
import type { SortedColumn } from './sort-order.js';

/** Reusable buffers for trees over `rows` rows (a dependency network's trees share one). */
export class TreeWorkspace {
  /** The nodes' rows: each node's a range, in ascending row order. */
  readonly nodeRows: Uint32Array;
  readonly goLeft: Uint8Array;
  readonly scratch: Uint32Array;
  /** A node's rows in one predictor's sorted order (NodeOrder). */
  readonly inOrder: Uint32Array;
  readonly positions: Uint32Array;
  /** Rows of the node NodeOrder marked last carry `stamp`. */
  readonly mark: Uint32Array;
  stamp = 0;
  /** What the node loops find beside their return values (node-sums.ts). */
  readonly sums = new NodeSums();

  constructor(readonly rows: number) {
    this.nodeRows = new Uint32Array(rows);
    this.goLeft = new Uint8Array(rows);
    this.scratch = new Uint32Array(rows);
    this.inOrder = new Uint32Array(rows);
    this.positions = new Uint32Array(rows);
    this.mark = new Uint32Array(rows);
  }
}

/**
 * A node's rows in a predictor's sorted order, as a stable partition of that
 * order at every split would have left them: the order itself at the root;
 * for a node of many rows, the order filtered to the node's rows (marked
 * once per node); for a few, their positions in the order, sorted.
 */
export class NodeOrder {
  private rows: Uint32Array = new Uint32Array(0);
  private lo = 0;
  private hi = 0;
  private marked = false;

  constructor(private readonly work: TreeWorkspace) {}

  enter(rows: Uint32Array, lo: number, hi: number): void {
    this.rows = rows;
    this.lo = lo;
    this.hi = hi;
    this.marked = false;
  }

  /** Valid until the next call. */
  of(sorted: SortedColumn): Uint32Array {
    const { rows, lo, hi, work } = this;
    const { order, rank } = sorted;
    const n = order.length;
    const size = hi - lo;
    if (size === n) return order;
    const out = work.inOrder;
    if (size * FILTER_SHARE >= n) {
      const mark = work.mark;
      if (!this.marked) {
        if (work.stamp === 0xffffffff) {
          mark.fill(0);
          work.stamp = 0;
        }
        stampRows(mark, rows, lo, hi, ++work.stamp);
        this.marked = true;
      }
      return out.subarray(0, stamped(order, mark, work.stamp, out));
    }
    const positions = work.positions.subarray(0, size);
    ranksAt(rank, rows, lo, positions);
    positions.sort();
    gatherAt(order, positions, out);
    return out.subarray(0, size);
  }
}

// NodeOrder.of's loops, each a function that ends with it (see centred).

/** mark[rows[i]] = stamp for i in [lo, hi). */
function stampRows(mark: Uint32Array, rows: Uint32Array, lo: number, hi: number, stamp: number): void {
  for (let i = lo; i < hi; i++) mark[rows[i] as number] = stamp;
}

/** The rows of `order` marked with `stamp`, in that order, into `out`; how many. */
function stamped(order: Uint32Array, mark: Uint32Array, stamp: number, out: Uint32Array): number {
  let m = 0;
  for (let i = 0; i < order.length; i++) {
    const r = order[i] as number;
    if (mark[r] === stamp) out[m++] = r;
  }
  return m;
}

/** positions[i] = rank[rows[lo + i]] for each i of positions. */
function ranksAt(rank: Uint32Array, rows: Uint32Array, lo: number, positions: Uint32Array): void {
  for (let i = 0; i < positions.length; i++) positions[i] = rank[rows[lo + i] as number] as number;
}

/** out[i] = order[positions[i]] for each i of positions. */
function gatherAt(order: Uint32Array, positions: Uint32Array, out: Uint32Array): void {
  for (let i = 0; i < positions.length; i++) out[i] = order[positions[i] as number] as number;
}

/** A node of at least 1/FILTER_SHARE of the rows filters a sorted order (O(rows)) instead of sorting its own (O(size log size)). */
const FILTER_SHARE = 4;

/** Stable partition of rows[lo, hi): rows with goLeft first, then the rest. */
export function partition(rows: Uint32Array, lo: number, hi: number, goLeft: Uint8Array, scratch: Uint32Array): void {
  let a = lo;
  let b = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i];
    if (goLeft[r] === 1) rows[a++] = r;
    else scratch[b++] = r;
  }
  rows.set(scratch.subarray(0, b), a);
}
