import { studentTTwoSided } from '../ttest/tdist.js';
import { sortColumn, type SortedColumn } from './sort-order.js';

/**
 * CART regression tree (Breiman et al. 1984) with the selectivity gate of
 * SPEC §4, the conditional learner of the dependency networks.
 *
 * Splits minimise the weighted sum of squared errors (SSE) of the two
 * children; thresholds lie between distinct sorted values of a predictor.
 * The best split found at a node is kept only if the F-test of that
 * two-group split,
 *   F = (SSE_parent − SSE_children) / (SSE_children / (n − 2)),  1 and n − 2 df,
 * has p < splitAlpha / k (n = the weighted samples at the node). F(1, ν) =
 * t(ν)², so p is the two-sided Student t p of √F. A perfect split
 * (SSE_children = 0 < SSE_parent) is F = ∞, p = 0, always kept. A node whose
 * best split is rejected becomes a leaf: growth stops below it.
 *
 * k, the Bonferroni divisor: SPEC §4 says the number of candidate predictors
 * (`splitCorrection: 'predictors'`). But the F-test is of the *best* of about
 * n − 1 thresholds per predictor, and that choice alone lets about half of
 * pure-noise nodes through at n = 30 (≈ 45 %, 60 % at n = 100, 70 % at
 * n = 300), which connects red herrings to P. The default, 'splits', divides
 * by the number of candidate splits examined at the node (distinct thresholds
 * summed over predictors): 1–3 % false splits on noise, and the planted-cause
 * tests keep the herring out (test/dn-cart, test/attention-focus).
 *
 * Each predictor is sorted once; every node owns the same contiguous range
 * [lo, hi) of every predictor's sort order, and a split partitions those
 * ranges stably (so they stay sorted). Finding and applying a split both cost
 * O(node size) per predictor, so a tree costs O(n · predictors · depth) after
 * the sort. Children too small to split are not partitioned at all.
 * No recursion: nodes wait on an explicit stack.
 */
export interface RegressionTreeOptions {
  /** A node with fewer than this many (weighted) samples is not split. */
  readonly minSamplesSplit: number;
  /** The selectivity gate's level, before the Bonferroni division (see `splitCorrection`). */
  readonly splitAlpha: number;
  /**
   * What the gate divides splitAlpha by: 'splits' (the default) = the number
   * of candidate splits examined at the node (distinct thresholds summed over
   * the predictors), which also pays for choosing the best threshold;
   * 'predictors' = the number of non-constant predictors (SPEC §4's wording).
   */
  readonly splitCorrection?: SplitCorrection;
  /** Non-negative replication counts per row (default: 1 each). A row of weight k is k identical rows. */
  readonly weights?: Float64Array;
  /**
   * `sortColumn(predictors[j])` for each predictor, when the caller already
   * has it (a dependency network sorts each column once for all its trees).
   * Not modified.
   */
  readonly sorted?: readonly SortedColumn[];
  /**
   * Buffers to reuse from one tree to the next over the same rows (a
   * dependency network trains one tree per column): saves allocating and
   * collecting ~20 bytes × rows × predictors per tree. Not shared between
   * concurrent calls.
   */
  readonly workspace?: TreeWorkspace;
}

export type SplitCorrection = 'predictors' | 'splits';
export const DEFAULT_SPLIT_CORRECTION: SplitCorrection = 'splits';

export interface TreeLeaf {
  readonly kind: 'leaf';
  /** Weighted samples at the node. */
  readonly samples: number;
  /** Weighted mean of the target at the node: the prediction. */
  readonly value: number;
}

export interface TreeSplit {
  readonly kind: 'split';
  readonly samples: number;
  readonly value: number;
  /** Index into the `predictors` the tree was trained on. */
  readonly predictor: number;
  /** Rows with predictor ≤ threshold go left. */
  readonly threshold: number;
  /** Indices into RegressionTree.nodes. */
  readonly left: number;
  readonly right: number;
  /** The gate's F statistic (∞ for a perfect split) and its p. */
  readonly f: number;
  readonly p: number;
}

export type TreeNode = TreeLeaf | TreeSplit;

export interface RegressionTree {
  /** nodes[0] is the root; children always come after their parent. */
  readonly nodes: readonly TreeNode[];
  /** Predictors that could be split on (not constant over the rows): the gate's divisor under 'predictors'. */
  readonly candidates: number;
}

/** SSE_children at or below this fraction of SSE_parent is a perfect split (round-off, not signal). */
const PERFECT_SPLIT = 1e-12;

export function trainRegressionTree(
  target: Float64Array,
  predictors: readonly Float64Array[],
  options: RegressionTreeOptions,
): RegressionTree {
  const n = target.length;
  const w = options.weights;
  checkInputs(target, predictors, options);
  const work = options.workspace !== undefined && options.workspace.rows === n ? options.workspace : new TreeWorkspace(n);

  // Only non-constant predictors can split. Each gets its rows in sorted
  // order with their predictor value, target and weight copied alongside, so
  // that scanning a node reads memory sequentially (random reads of the
  // target cost more than everything else put together at a million rows).
  const live: number[] = [];
  const lanes: Lane[] = [];
  for (let j = 0; j < predictors.length; j++) {
    const col = predictors[j];
    const sorted = options.sorted?.[j] ?? sortColumn(col);
    if (n === 0 || sorted.values[0] === sorted.values[n - 1]) continue;
    live.push(j);
    lanes.push(fillLane(work.lane(lanes.length, w !== undefined), sorted, target, w));
  }
  const candidates = live.length;
  const perSplit = (options.splitCorrection ?? DEFAULT_SPLIT_CORRECTION) === 'splits';
  const minSplit = options.minSamplesSplit;
  const splittable = (samples: number): boolean => candidates > 0 && samples >= minSplit && samples > 2;

  let rootW = 0;
  let rootS = 0;
  for (let i = 0; i < n; i++) {
    const wi = w ? w[i] : 1;
    rootW += wi;
    rootS += wi * target[i];
  }
  const nodes: TreeNode[] = [{ kind: 'leaf', samples: rootW, value: rootW > 0 ? rootS / rootW : NaN }];
  if (!splittable(rootW)) return { nodes, candidates };

  const goLeft = work.goLeft;
  const scratch = work.scratch(w !== undefined);
  /** Nodes waiting to be split: node index, lo, hi (the node's rows are [lo, hi) of every lane). */
  const stack: number[] = [0, 0, n];
  while (stack.length > 0) {
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    const id = stack.pop()!;
    const W = nodes[id].samples;
    const mean = nodes[id].value;

    // Two-pass SSE about the node mean; S = Σw(y − mean) is ~0 but kept for exactness.
    const rows = lanes[0];
    let sse = 0;
    let S = 0;
    let yMin = Infinity;
    let yMax = -Infinity;
    for (let i = lo; i < hi; i++) {
      const wi = rows.w ? rows.w[i] : 1;
      if (wi === 0) continue;
      const y = rows.y[i];
      const d = y - mean;
      S += wi * d;
      sse += wi * d * d;
      if (y < yMin) yMin = y;
      if (y > yMax) yMax = y;
    }
    if (yMin === yMax || !(sse > 0)) continue; // constant target: nothing to explain

    // Best split over all live predictors; strict > keeps the lowest column, then the lowest threshold.
    let bestGain = 0;
    let bestK = -1;
    let bestPos = -1;
    let bestWl = 0;
    const wEps = W * 1e-12;
    let examined = 0;
    for (let k = 0; k < lanes.length; k++) {
      const { x, y, w: lw } = lanes[k];
      if (x[lo] === x[hi - 1]) continue;
      let wl = 0;
      let sl = 0;
      for (let i = lo; i < hi - 1; i++) {
        const wi = lw ? lw[i] : 1;
        wl += wi;
        sl += wi * (y[i] - mean);
        if (x[i] !== x[i + 1]) {
          const wr = W - wl;
          if (wl > wEps && wr > wEps) {
            examined++;
            const sr = S - sl;
            const gain = (sl * sl) / wl + (sr * sr) / wr;
            if (gain > bestGain) {
              bestGain = gain;
              bestK = k;
              bestPos = i;
              bestWl = wl;
            }
          }
        }
      }
    }
    if (bestK < 0) continue;

    // The selectivity gate, on the chosen split's children recomputed
    // directly (two-pass, so a perfect split comes out exactly 0).
    const chosen = lanes[bestK];
    const mid = bestPos + 1;
    const leftSide = moments(chosen, lo, mid);
    const rightSide = moments(chosen, mid, hi);
    const sseChildren = leftSide.sse + rightSide.sse;
    const gain = sse - sseChildren;
    let f: number;
    let p: number;
    if (sseChildren <= sse * PERFECT_SPLIT) {
      f = Infinity;
      p = 0;
    } else {
      f = gain / (sseChildren / (W - 2));
      p = f > 0 ? studentTTwoSided(Math.sqrt(f), W - 2).p : 1;
    }
    if (!(p < options.splitAlpha / (perSplit ? examined : candidates))) continue;

    const wl = bestWl;
    const wr = W - wl;
    const left = nodes.length;
    const right = left + 1;
    nodes[id] = {
      kind: 'split',
      samples: W,
      value: mean,
      predictor: live[bestK],
      threshold: midpoint(chosen.x[bestPos], chosen.x[mid]),
      left,
      right,
      f,
      p,
    };
    nodes.push({ kind: 'leaf', samples: wl, value: leftSide.mean });
    nodes.push({ kind: 'leaf', samples: wr, value: rightSide.mean });

    const splitLeft = splittable(wl);
    const splitRight = splittable(wr);
    if (!splitLeft && !splitRight) continue;

    // Partition every other lane's range stably: left rows first.
    for (let i = lo; i < mid; i++) goLeft[chosen.row[i]] = 1;
    for (let i = mid; i < hi; i++) goLeft[chosen.row[i]] = 0;
    for (let k = 0; k < lanes.length; k++) if (k !== bestK) partition(lanes[k], lo, hi, goLeft, scratch);
    // Right pushed first so the left subtree is grown first.
    if (splitRight) stack.push(right, mid, hi);
    if (splitLeft) stack.push(left, lo, mid);
  }
  return { nodes, candidates };
}

/**
 * Weighted mean and SSE about it of the target over lane[lo, hi), two-pass.
 * The mean is taken as an offset from the first value, so a constant range
 * has exactly its value as mean and exactly 0 as SSE.
 */
function moments(lane: Lane, lo: number, hi: number): { mean: number; sse: number } {
  const { y, w } = lane;
  const origin = y[lo];
  let sw = 0;
  let sd = 0;
  for (let i = lo; i < hi; i++) {
    const wi = w ? w[i] : 1;
    sw += wi;
    sd += wi * (y[i] - origin);
  }
  const mean = origin + sd / sw;
  let sse = 0;
  for (let i = lo; i < hi; i++) {
    const d = y[i] - mean;
    sse += (w ? w[i] : 1) * d * d;
  }
  return { mean, sse };
}

/** One predictor's rows in sorted order, with what a scan reads copied alongside (`w` undefined: all weights 1). */
interface Lane {
  readonly row: Uint32Array;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly w: Float64Array | undefined;
}


function fillLane(lane: Lane, sorted: SortedColumn, target: Float64Array, weights: Float64Array | undefined): Lane {
  const { order, rank, values } = sorted;
  const n = order.length;
  lane.row.set(order);
  lane.x.set(values);
  // Scattered through the inverse permutation: several times faster than gathering.
  const y = lane.y;
  for (let r = 0; r < n; r++) y[rank[r]] = target[r];
  if (!weights || !lane.w) return { row: lane.row, x: lane.x, y, w: undefined };
  const w = lane.w;
  for (let r = 0; r < n; r++) w[rank[r]] = weights[r];
  return { row: lane.row, x: lane.x, y, w };
}

/** Reusable buffers for trees over `rows` rows: one lane per predictor, grown on demand. */
export class TreeWorkspace {
  private readonly lanes: Lane[] = [];
  private spare: Lane | undefined;
  readonly goLeft: Uint8Array;

  constructor(readonly rows: number) {
    this.goLeft = new Uint8Array(rows);
  }

  /** Lane k's buffers, with a weight buffer if `weighted`. */
  lane(k: number, weighted: boolean): Lane {
    const have = k >= 0 ? this.lanes[k] : undefined;
    if (have && (have.w || !weighted)) return have;
    const n = this.rows;
    const fresh = { row: new Uint32Array(n), x: new Float64Array(n), y: new Float64Array(n), w: weighted ? new Float64Array(n) : undefined };
    if (k >= 0) this.lanes[k] = fresh;
    return fresh;
  }

  /** The partition's scratch lane. */
  scratch(weighted: boolean): Lane {
    if (!this.spare || (weighted && !this.spare.w)) this.spare = this.lane(-1, weighted);
    const { row, x, y, w } = this.spare;
    return { row, x, y, w };
  }
}

/** Stable partition of lane[lo, hi): rows with goLeft first, then the rest. */
function partition(lane: Lane, lo: number, hi: number, goLeft: Uint8Array, scratch: Lane): void {
  const { row, x, y, w } = lane;
  let a = lo;
  let b = 0;
  for (let i = lo; i < hi; i++) {
    const r = row[i];
    if (goLeft[r] === 1) {
      row[a] = r;
      x[a] = x[i];
      y[a] = y[i];
      if (w) w[a] = w[i];
      a++;
    } else {
      scratch.row[b] = r;
      scratch.x[b] = x[i];
      scratch.y[b] = y[i];
      if (w) scratch.w![b] = w[i];
      b++;
    }
  }
  row.set(scratch.row.subarray(0, b), a);
  x.set(scratch.x.subarray(0, b), a);
  y.set(scratch.y.subarray(0, b), a);
  if (w) w.set(scratch.w!.subarray(0, b), a);
}

/** The tree's prediction for one row (`row[j]` = value of predictor j). */
export function predictRow(tree: RegressionTree, row: ArrayLike<number>): number {
  let node = tree.nodes[0];
  while (node.kind === 'split') {
    node = tree.nodes[row[node.predictor] <= node.threshold ? node.left : node.right];
  }
  return node.value;
}

/** A threshold strictly between a < b that routes a left and b right, even for adjacent doubles. */
function midpoint(a: number, b: number): number {
  const m = a / 2 + b / 2;
  return m >= a && m < b ? m : a;
}

function checkInputs(target: Float64Array, predictors: readonly Float64Array[], options: RegressionTreeOptions): void {
  const n = target.length;
  for (let i = 0; i < n; i++) if (!Number.isFinite(target[i])) throw new RangeError(`target row ${i} is not finite`);
  predictors.forEach((col, j) => {
    if (col.length !== n) throw new RangeError(`predictor ${j} has ${col.length} rows, target ${n}`);
    const sorted = options.sorted?.[j];
    if (sorted) {
      // Sorted, so its ends bound it (a NaN sorts to one end or the other).
      if (sorted.order.length !== n) throw new RangeError(`sorted column ${j} has ${sorted.order.length} rows, target ${n}`);
      if (n > 0 && !(Number.isFinite(sorted.values[0]) && Number.isFinite(sorted.values[n - 1]))) throw new RangeError(`predictor ${j} is not finite`);
    } else {
      for (let i = 0; i < n; i++) if (!Number.isFinite(col[i])) throw new RangeError(`predictor ${j} row ${i} is not finite`);
    }
  });
  const w = options.weights;
  if (w) {
    if (w.length !== n) throw new RangeError(`weights have ${w.length} rows, target ${n}`);
    for (let i = 0; i < n; i++) if (!(w[i] >= 0 && Number.isFinite(w[i]))) throw new RangeError(`weight ${i} is not a finite non-negative number`);
  }
  if (!(options.splitAlpha > 0 && options.splitAlpha <= 1)) throw new RangeError(`splitAlpha must be in (0, 1], got ${options.splitAlpha}`);
  if (!(options.minSamplesSplit >= 0)) throw new RangeError(`minSamplesSplit must be ≥ 0, got ${options.minSamplesSplit}`);
}
