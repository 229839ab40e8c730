import { erfcx } from '../stats/erfc.js';
import { studentTTwoSided } from '../stats/student-t.js';
import { normalQuantile } from '../stats/normal-quantile.js';
import { sumOver } from '../stats/sum.js';
import { identity, sortColumn, type SortedColumn } from './sort-order.js';

/**
 * CART regression tree (Breiman et al. 1984) with the selectivity gate of
 * SPEC §4, the conditional learner of the dependency networks.
 *
 * The gate (`splitTest`, default 'rank'): a rank-based conditional-inference
 * test (Hothorn, Hornik & Zeileis 2006, rank scores). Once per set of
 * columns, weighted mid-ranks rank(v) = Σ_{x<v} w + (Σ_{x=v} w + 1)/2. At a
 * node of total weight W, with L the predictors not constant in it, k = |L|:
 *   leaf if W < minSamplesSplit, W ≤ 2, the target is constant, or k = 0;
 *   α_k = 1 − (1 − α)^(1/k) (Šidák), c* = Φ⁻¹(α_k/2)²; leaf if W − 1 ≤ c*
 *   (no c_j can exceed W − 1, since r² ≤ 1);
 *   c_j = (W − 1)·S_ab²/(S_aa·S_bb) on the node-centred weighted ranks of the
 *   target (a) and predictor j (b), = (W − 1)·r_s² (r_s: the weighted
 *   Spearman correlation), ~ χ²₁ under independence;
 *   Sig = {j : c_j > c*}; leaf if empty; otherwise the split is the largest
 *   weighted SSE reduction over the predictors in Sig only (ties: the lowest
 *   column, then the lowest threshold).
 * At the root every leaf check comes before any per-predictor work, so with
 * many predictors and few rows (c* grows with k) the tree costs O(1).
 *
 * The earlier gates, kept for comparison ('f-splits', 'f-predictors'): the
 * best split over all predictors, kept if the F-test of that two-group split,
 *   F = (SSE_parent − SSE_children) / (SSE_children / (W − 2)),  1 and W − 2 df,
 * has p < α / k, k = the candidate splits examined at the node
 * ('f-splits') or the non-constant predictors ('f-predictors'). The F-test of
 * the best of ~W thresholds is anti-conservative, and on heavy-tailed data a
 * split isolating one outlier passes it half the time (bench/gate.mjs).
 *
 * Each predictor is sorted once. A node's rows are one contiguous range of a
 * single row list, in ascending row order, which a split partitions stably;
 * the node's checks and rank statistics are sums over that range in that
 * order (O(node size) per predictor, nothing written). Only a predictor that
 * may split the node gets the node's rows in its sorted order (NodeOrder),
 * for the scan over thresholds. No recursion: nodes wait on an explicit stack.
 */
export interface RegressionTreeOptions {
  /** A node with fewer than this many (weighted) samples is not split. */
  readonly minSamplesSplit: number;
  /** The selectivity gate's family-wise level α at a node (before the Šidák or Bonferroni division). */
  readonly splitAlpha: number;
  /** The gate: 'rank' (default, SPEC §4), or the earlier F-test gates 'f-splits' and 'f-predictors'. */
  readonly splitTest?: SplitTest;
  /** Non-negative replication counts per row (default: 1 each). A row of weight k is k identical rows. */
  readonly weights?: Float64Array;
  /**
   * Buffers to reuse from one tree to the next over the same rows (a
   * dependency network trains one tree per column): saves allocating and
   * collecting ~40 bytes × rows × predictors per tree. Not shared between
   * concurrent calls.
   */
  readonly workspace?: TreeWorkspace;
}

export type SplitTest = 'rank' | 'f-splits' | 'f-predictors';
export const SPLIT_TESTS: readonly SplitTest[] = ['rank', 'f-splits', 'f-predictors'];
export const DEFAULT_SPLIT_TEST: SplitTest = 'rank';

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
  /** Index into the `predictors` the tree was trained on (into `TreeColumns.columns` for growTree). */
  readonly predictor: number;
  /** Rows with predictor ≤ threshold go left. */
  readonly threshold: number;
  /** Indices into RegressionTree.nodes. */
  readonly left: number;
  readonly right: number;
  /**
   * The gate's statistic for the chosen predictor: c_j (χ²₁) under 'rank',
   * F (∞ for a perfect split) under the F gates.
   */
  readonly statistic: number;
  /**
   * Its p: under 'rank' Šidák-adjusted over the node's k candidates,
   * 1 − (1 − p_j)^k with p_j = P(χ²₁ > c_j); under the F gates the F-test's
   * own p (compared with α / k).
   */
  readonly p: number;
}

export type TreeNode = TreeLeaf | TreeSplit;

export interface RegressionTree {
  /** nodes[0] is the root; children always come after their parent. */
  readonly nodes: readonly TreeNode[];
  /** Predictors that could be split on (not constant over the rows): k at the root. */
  readonly candidates: number;
}

/**
 * Gains within this relative difference are a tie (SPEC §4 step 4: the lowest
 * column, then the lowest threshold). Equal gains come out of sums in
 * different orders (each predictor's sorted order) unequal in their last
 * bits: a target of a few values split perfectly by two columns. Without a
 * margin the tie went to whichever column summed larger; round-off in a sum
 * over a million rows stays near 1e-10.
 */
export const GAIN_TIE = 1e-9;

/** SSE_children at or below this fraction of SSE_parent is a perfect split (round-off, not signal). */
const PERFECT_SPLIT = 1e-12;

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
    const s = squareSums(this.ranks(j), (this.allRows ??= identity(this.rows)), 0, this.rows);
    return (this.rankSums[j] = Float64Array.of(s, squaresSum));
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

/**
 * Weighted mid-ranks: rank(v) = Σ_{x<v} w + (Σ_{x=v} w + 1)/2, in row order.
 * Unweighted, the usual mid-ranks 1..n (ties get the mean of their positions).
 */
export function midRanks(sorted: SortedColumn, weights: Float64Array | undefined): Float64Array {
  const { order, values } = sorted;
  const n = order.length;
  const out = new Float64Array(n);
  let below = 0;
  let i = 0;
  while (i < n) {
    let j = i;
    let tied = 0;
    while (j < n && values[j] === values[i]) tied += weights ? weights[order[j++]] : (j++, 1);
    const rank = below + (tied + 1) / 2;
    for (let t = i; t < j; t++) out[order[t]] = rank;
    below += tied;
    i = j;
  }
  return out;
}

/** Šidák's per-test level for k tests at family-wise α: 1 − (1 − α)^(1/k), computed without cancellation. */
export function sidakLevel(alpha: number, k: number): number {
  return alpha >= 1 ? 1 : -Math.expm1(Math.log1p(-alpha) / k);
}

/** The rank gate's critical value for k candidates: c* = Φ⁻¹(1 − α_k/2)² (taken as Φ⁻¹(α_k/2)², the accurate tail). */
export function rankCriticalValue(alpha: number, k: number): number {
  const z = normalQuantile(sidakLevel(alpha, k) / 2);
  return z * z;
}

/** P(χ²₁ > c) = erfc(√(c/2)); 1 for c ≤ 0, 0 for c = ∞. */
export function chiSquare1Upper(c: number): number {
  if (!(c > 0)) return 1;
  const x = Math.sqrt(c / 2);
  return x === Infinity ? 0 : erfcx(x) * Math.exp(-x * x);
}

/** Šidák-adjusted p of the best of k: 1 − (1 − p)^k. */
export function sidakAdjust(p: number, k: number): number {
  return p >= 1 ? 1 : -Math.expm1(k * Math.log1p(-p));
}

export function trainRegressionTree(
  target: Float64Array,
  predictors: readonly Float64Array[],
  options: RegressionTreeOptions,
): RegressionTree {
  if (predictors.some((col) => col.length !== target.length)) {
    const j = predictors.findIndex((col) => col.length !== target.length);
    throw new RangeError(`predictor ${j} has ${predictors[j].length} rows, target ${target.length}`);
  }
  for (let i = 0; i < target.length; i++) if (!Number.isFinite(target[i])) throw new RangeError(`target row ${i} is not finite`);
  const columns = new TreeColumns([...predictors, target], options.weights);
  return growTree(columns, predictors.length, options);
}

// growTree's loops over a node's rows, each a function that ends with its loop: in one large function each was
// compiled while it ran (on-stack replacement) and went on into code that had not run yet, and the whole function
// took 50–100 ms to compile, several times a run, running unoptimized meanwhile. What a loop finds beyond its
// return value it leaves in a module variable (one call at a time), whose write needs nothing learned, as an
// array element's or a field's would.
let nodeDeviation = 0;
let nodeMin = 0;
let nodeMax = 0;

/** Σw(y − mean)² over the node's rows of nonzero weight; Σw(y − mean) into nodeDeviation, min and max y into nodeMin, nodeMax. */
function nodeSse(y: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, mean: number): number {
  let sse = 0;
  let S = 0;
  let yMin = Infinity;
  let yMax = -Infinity;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const wi = w ? (w[r] as number) : 1;
    if (wi === 0) continue;
    const yi = y[r] as number;
    const d = yi - mean;
    S += wi * d;
    sse += wi * d * d;
    if (yi < yMin) yMin = yi;
    if (yi > yMax) yMax = yi;
  }
  nodeDeviation = S;
  nodeMin = yMin;
  nodeMax = yMax;
  return sse;
}

let squaresSum = 0;

/** Σa over rows[lo, hi) (in that order); Σa² into squaresSum. */
function squareSums(a: Float64Array, rows: Uint32Array, lo: number, hi: number): number {
  let sa = 0;
  let saa = 0;
  for (let i = lo; i < hi; i++) {
    const v = a[rows[i] as number] as number;
    sa += v;
    saa += v * v;
  }
  squaresSum = saa;
  return sa;
}

let crossSumB = 0;
let crossSumBB = 0;

/** Σ a·b over the node's rows; Σb and Σb² into crossSumB, crossSumBB. */
function crossSums(b: Float64Array, a: Float64Array, rows: Uint32Array, lo: number, hi: number): number {
  let sb = 0;
  let sbb = 0;
  let sab = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const v = b[r] as number;
    sb += v;
    sbb += v * v;
    sab += (a[r] as number) * v;
  }
  crossSumB = sb;
  crossSumBB = sbb;
  return sab;
}

let sumVaried = false;

/** Σw·b over the node's rows; whether b takes more than one value there into sumVaried. */
function weightedSumOver(b: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number): number {
  const first = b[rows[lo] as number];
  let varies = false;
  let sum = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const v = b[r] as number;
    sum += (w ? (w[r] as number) : 1) * v;
    if (v !== first) varies = true;
  }
  sumVaried = varies;
  return sum;
}

/** Whether x takes more than one value over the node's rows. */
function variesOver(x: Float64Array, rows: Uint32Array, lo: number, hi: number): boolean {
  const first = x[rows[lo] as number];
  for (let i = lo; i < hi; i++) if (x[rows[i] as number] !== first) return true;
  return false;
}

let scanPos = -1;
let scanLeftWeight = 0;
let scanExamined = 0;

/**
 * The split points of one predictor over the node (its rows in the predictor's order: `lane`), against the best
 * gain so far: returns the best gain after them; where it was improved last (-1: nowhere) and the left weight there
 * into scanPos and scanLeftWeight, and how many points were examined into scanExamined. Ties (GAIN_TIE) keep the
 * earlier point.
 */
function scanSplits(lane: Uint32Array, x: Float64Array, y: Float64Array, w: Float64Array | undefined, mean: number, W: number, S: number,
  size: number, wEps: number, bestGain: number): number {
  let best = bestGain;
  let pos = -1;
  let bestWl = 0;
  let examined = 0;
  let wl = 0;
  let sl = 0;
  let r = lane[0] as number;
  let xi = x[r] as number;
  for (let i = 0; i < size - 1; i++) {
    const wi = w ? (w[r] as number) : 1;
    wl += wi;
    sl += wi * ((y[r] as number) - mean);
    r = lane[i + 1] as number;
    const xNext = x[r] as number;
    if (xi !== xNext) {
      const wr = W - wl;
      if (wl > wEps && wr > wEps) {
        examined++;
        const sr = S - sl;
        const gain = (sl * sl) / wl + (sr * sr) / wr;
        if (gain > best * (1 + GAIN_TIE)) {
          best = gain;
          pos = i;
          bestWl = wl;
        }
      }
    }
    xi = xNext;
  }
  scanPos = pos;
  scanLeftWeight = bestWl;
  scanExamined = examined;
  return best;
}

/** Whether a node of this weight may be split (minSamplesSplit, and more than two samples). */
function splittable(samples: number, minSplit: number): boolean {
  return samples >= minSplit && samples > 2;
}

/**
 * The rank gate at a tree's root: each live predictor's statistic against the target into `stat`, 1 in `sig`
 * where it passes `cStar`; whether any does. (A loop of its own, returning as it ends: in growTree, the tree's
 * leaf made after it when none passed had never run when the loop was compiled, and threw that code away. Nor
 * is `splittable` a closure: growTree's compiled code called the first call's, and threw itself away on the next.)
 */
function rootGate(columns: TreeColumns, target: number, live: readonly number[], cStar: number, sig: Uint8Array, stat: Float64Array): boolean {
  let any = false;
  for (let k = 0; k < live.length; k++) {
    const c = columns.rootStatistic(target, live[k] as number);
    stat[k] = c;
    if (c > cStar) {
      sig[k] = 1;
      any = true;
    }
  }
  return any;
}

/**
 * The tree predicting columns.columns[target] from every other column; a
 * split's `predictor` is a column index. Options' `weights` are ignored (the
 * columns carry theirs).
 */
export function growTree(columns: TreeColumns, target: number, options: RegressionTreeOptions): RegressionTree {
  checkOptions(options);
  const n = columns.rows;
  const w = columns.weights;
  const y = columns.columns[target];
  const test = options.splitTest ?? DEFAULT_SPLIT_TEST;
  const ranked = test === 'rank';
  const alpha = options.splitAlpha;
  const minSplit = options.minSamplesSplit;
  const candidates = columns.nonConstant - (columns.constant[target] === 1 ? 0 : 1);

  let rootW = 0;
  let rootS = 0;
  for (let i = 0; i < n; i++) {
    const wi = w ? w[i] : 1;
    rootW += wi;
    rootS += wi * y[i];
  }
  const nodes: TreeNode[] = [{ kind: 'leaf', samples: rootW, value: rootW > 0 ? rootS / rootW : NaN }];
  // The tree returned, made here (its nodes grow below): a literal after the nodes' loop had not run yet when the
  // loop was compiled while it ran (on-stack replacement), and that code stopped there at the end of every tree
  // after (67 times in a run of 10 000 instances, once the root's gate was a function of its own).
  const tree: RegressionTree = { nodes, candidates };
  // Leaf checks that cost nothing per predictor.
  if (!splittable(rootW, minSplit) || columns.constant[target] === 1 || candidates === 0) return tree;
  if (ranked && !(rootW - 1 > rankCriticalValue(alpha, candidates))) return tree;

  const live: number[] = [];
  for (let j = 0; j < columns.columns.length; j++) if (j !== target && columns.constant[j] === 0) live.push(j);

  // The rank gate at the root, on the ranks in row order: most trees stop here.
  let rootSig: Uint8Array | undefined;
  let rootStat: Float64Array | undefined;
  if (ranked) {
    rootSig = new Uint8Array(live.length);
    rootStat = new Float64Array(live.length);
    if (!rootGate(columns, target, live, rankCriticalValue(alpha, candidates), rootSig, rootStat)) return tree;
  }

  // Below the root, a node's rows are the range [lo, hi) of `rows`, in
  // ascending row order: a split partitions that one range stably (not a
  // range per predictor), and a node's sums run over it in that order. A
  // predictor's node rows in its sorted order are made only where it may
  // split (NodeOrder).
  const work = options.workspace !== undefined && options.workspace.rows === n ? options.workspace : new TreeWorkspace(n);
  const rows = work.nodeRows;
  for (let i = 0; i < n; i++) rows[i] = i;
  // Filled by a loop, not `map`: an array `map` made in optimized code and one made by the builtin differ in kind,
  // and the loops below, compiled on one, were thrown away on meeting the other (8 times in a run of 10 000 instances).
  const xs: Float64Array[] = [];
  const rxs: Float64Array[] = [];
  for (const j of live) {
    xs.push(columns.columns[j] as Float64Array);
    if (ranked) rxs.push(columns.ranks(j));
  }
  const RY = ranked ? columns.ranks(target) : y;
  const order = new NodeOrder(work);

  const goLeft = work.goLeft;
  const sig = new Uint8Array(live.length);
  const stat = new Float64Array(live.length);
  /** Per predictor, Σ w·rank over the node (the first pass of its rank statistic). */
  const rankSums = new Float64Array(live.length);
  /** Nodes waiting to be split: node index, lo, hi. */
  const stack: number[] = [0, 0, n];
  while (stack.length > 0) {
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    const id = stack.pop()!;
    const W = nodes[id].samples;
    const mean = nodes[id].value;
    order.enter(rows, lo, hi);

    // Two-pass SSE about the node mean; S = Σw(y − mean) is ~0 but kept for exactness.
    const sse = nodeSse(y, rows, w, lo, hi, mean);
    const S = nodeDeviation;
    if (nodeMin === nodeMax || !(sse > 0)) continue; // constant target: nothing to explain

    // Which predictors may split here (every live one at the root), with their rank sums.
    let k = 0;
    const exact = ranked && id !== 0 && columns.exactRanks;
    const sa = exact ? squareSums(RY, rows, lo, hi) : 0;
    const saa = exact ? squaresSum : 0;
    for (let l = 0; l < live.length; l++) {
      let varies = id === 0;
      if (exact) {
        // Unweighted mid-ranks are multiples of ½ and W the row count: these sums are exact (EXACT_RANK_ROWS).
        const sab = crossSums(rxs[l] as Float64Array, RY, rows, lo, hi);
        const sb = crossSumB;
        const sbb = crossSumBB;
        varies = W * sbb - sb * sb > 0;
        stat[l] = exactRankStatistic(W, sa, saa, sb, sbb, sab);
      } else if (!varies && ranked) {
        rankSums[l] = weightedSumOver(rxs[l] as Float64Array, rows, w, lo, hi);
        varies = sumVaried;
      } else if (!varies) {
        varies = variesOver(xs[l] as Float64Array, rows, lo, hi);
      }
      sig[l] = varies ? 1 : 0;
      if (varies) k++;
    }
    if (k === 0) continue;
    if (ranked) {
      const cStar = rankCriticalValue(alpha, k);
      if (!(W - 1 > cStar)) continue;
      let any = false;
      if (id === 0) {
        for (let l = 0; l < live.length; l++) {
          sig[l] = rootSig![l];
          stat[l] = rootStat![l];
          any ||= sig[l] === 1;
        }
      } else {
        const ta = exact ? undefined : centred(RY, rows, w, lo, hi, W);
        for (let l = 0; l < live.length; l++) {
          if (sig[l] === 0) continue;
          const c = ta === undefined ? stat[l] : rankStatistic(RY, ta, rxs[l], rankSums[l] / W, rows, w, lo, hi, W);
          stat[l] = c;
          sig[l] = c > cStar ? 1 : 0;
          any ||= sig[l] === 1;
        }
      }
      if (!any) continue;
    }

    // Best split over the allowed predictors, each scanned in its sorted order;
    // ties (GAIN_TIE) keep the lowest column, then the lowest threshold.
    let bestGain = 0;
    let bestK = -1;
    let bestPos = -1;
    let bestWl = 0;
    const wEps = W * 1e-12;
    let examined = 0;
    const size = hi - lo;
    for (let l = 0; l < live.length; l++) {
      if (sig[l] === 0) continue;
      const gain = scanSplits(order.of(columns.sorted(live[l] as number)), xs[l] as Float64Array, y, w, mean, W, S, size, wEps, bestGain);
      examined += scanExamined;
      if (scanPos >= 0) {
        bestGain = gain;
        bestK = l;
        bestPos = scanPos;
        bestWl = scanLeftWeight;
      }
    }
    if (bestK < 0) continue;

    const chosen = order.of(columns.sorted(live[bestK]));
    const mid = bestPos + 1;
    const leftSide = moments(y, chosen, w, 0, mid);
    const rightSide = moments(y, chosen, w, mid, size);
    let statistic: number;
    let p: number;
    if (ranked) {
      statistic = stat[bestK];
      p = sidakAdjust(chiSquare1Upper(statistic), k);
    } else {
      // The F gate, on the chosen split's children recomputed directly (two-pass, so a perfect split comes out exactly 0).
      const sseChildren = leftSide.sse + rightSide.sse;
      if (sseChildren <= sse * PERFECT_SPLIT) {
        statistic = Infinity;
        p = 0;
      } else {
        statistic = (sse - sseChildren) / (sseChildren / (W - 2));
        p = statistic > 0 ? studentTTwoSided(Math.sqrt(statistic), W - 2).p : 1;
      }
      if (!(p < alpha / (test === 'f-splits' ? examined : k))) continue;
    }

    const wl = bestWl;
    const wr = W - wl;
    const left = nodes.length;
    const right = left + 1;
    nodes[id] = {
      kind: 'split',
      samples: W,
      value: mean,
      predictor: live[bestK],
      threshold: midpoint(xs[bestK][chosen[bestPos]], xs[bestK][chosen[mid]]),
      left,
      right,
      statistic,
      p,
    };
    nodes.push({ kind: 'leaf', samples: wl, value: leftSide.mean });
    nodes.push({ kind: 'leaf', samples: wr, value: rightSide.mean });

    const splitLeft = splittable(wl, minSplit);
    const splitRight = splittable(wr, minSplit);
    if (!splitLeft && !splitRight) continue;

    // The node's rows, left ones first, each side still in row order.
    for (let i = 0; i < mid; i++) goLeft[chosen[i]] = 1;
    for (let i = mid; i < size; i++) goLeft[chosen[i]] = 0;
    partition(rows, lo, hi, goLeft, work.scratch);
    // Right pushed first so the left subtree is grown first.
    if (splitRight) stack.push(right, lo + mid, hi);
    if (splitLeft) stack.push(left, lo, lo + mid);
  }
  return tree;
}

/**
 * The target ranks' weighted mean over the node's rows `rows[lo, hi)` and
 * their centred sum of squares S_aa, two-pass. Values and weights are in row
 * order and read through `rows`; summed in the order of `rows`.
 */
function centred(a: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, W: number): Moments {
  const mean = weightedSumAt(a, rows, w, lo, hi) / W;
  return { mean, ss: squaresAbout(a, rows, w, lo, hi, mean) };
}

// The trees' loops over rows are functions that end with their loops: compiled while it ran (on-stack
// replacement), a loop went on into code that had not run yet, and that code, kept, stopped there on every call
// after (a million requests, 100 000 rows a network: NodeOrder.of ~40 times a run, rankStatistic ~5). A second
// result goes to a module variable, whose write needs nothing learned.

/** Σw·a over rows[lo, hi), in that order. */
function weightedSumAt(a: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number): number {
  let s = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    s += (w ? (w[r] as number) : 1) * (a[r] as number);
  }
  return s;
}

/** Σw·(a − mean)² over rows[lo, hi), in that order. */
function squaresAbout(a: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, mean: number): number {
  let ss = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const d = (a[r] as number) - mean;
    ss += (w ? (w[r] as number) : 1) * d * d;
  }
  return ss;
}

/**
 * c = (W − 1)·S_ab² / (S_aa·S_bb) over the rows `rows[lo, hi)` (SPEC §4 step
 * 3), the ranks centred at their weighted node means (the predictor's, `mb`,
 * from its rank sum taken with its check for variation); 0 when either side
 * has no spread. As `centred`: row-order values, summed in the order of `rows`.
 */
function rankStatistic(
  a: Float64Array,
  ta: Moments,
  b: Float64Array,
  mb: number,
  rows: Uint32Array,
  w: Float64Array | undefined,
  lo: number,
  hi: number,
  W: number,
): number {
  const sab = crossAbout(a, ta.mean, b, mb, rows, w, lo, hi);
  const sbb = crossSquares;
  if (!(ta.ss > 0 && sbb > 0)) return 0;
  return ((W - 1) * sab * sab) / (ta.ss * sbb);
}

/**
 * c = (W − 1)·N_ab² / (N_aa·N_bb), N_xy = W·Σxy − Σx·Σy: SPEC §4's c_j with
 * S_xy = N_xy / W², from plain sums. Unweighted mid-ranks are multiples of ½
 * and W is the row count, so every sum and N is exact while W·Σab < 2^51
 * (EXACT_RANK_ROWS); only the last division rounds. 0 when either side has
 * no spread.
 */
function exactRankStatistic(W: number, sa: number, saa: number, sb: number, sbb: number, sab: number): number {
  const naa = W * saa - sa * sa;
  const nbb = W * sbb - sb * sb;
  const nab = W * sab - sa * sb;
  return naa > 0 && nbb > 0 ? ((W - 1) * nab * nab) / (naa * nbb) : 0;
}

/** Rows up to which unweighted rank sums are exact: W·Σab ≤ n⁴ (ranks ≤ n) stays below 2^51 up to 6 888. */
const EXACT_RANK_ROWS = 4096;

/** Columns up to which a network keeps every pair's root statistic (8 bytes a pair: 32 MB at 2 048). */
const ROOT_CACHE_COLUMNS = 2048;

/** Weighted mean and centred sum of squares. */
interface Moments {
  readonly mean: number;
  readonly ss: number;
}

/**
 * `rankStatistic` over all rows in row order, with both columns' moments
 * known (`TreeColumns.rankMoments`): only S_ab is summed; the same value to
 * the bit.
 */
function rootRankStatistic(a: Float64Array, ta: Moments, b: Float64Array, tb: Moments, w: Float64Array | undefined, W: number): number {
  if (!(ta.ss > 0 && tb.ss > 0)) return 0;
  const sab = crossAboutAll(a, ta.mean, b, tb.mean, w);
  return ((W - 1) * sab * sab) / (ta.ss * tb.ss);
}

/**
 * Σw·(a − ma)(b − mb) over every row, in row order. A function that ends with its loop: compiled while it ran
 * (on-stack replacement), rootRankStatistic's loop went on into its result, which had not run yet, and that code,
 * kept, stopped there on every call after (269 times in three runs of 10 000 instances with -j2, none in others).
 */
function crossAboutAll(a: Float64Array, ma: number, b: Float64Array, mb: number, w: Float64Array | undefined): number {
  let sab = 0;
  for (let r = 0; r < a.length; r++) sab += (w ? (w[r] as number) : 1) * ((a[r] as number) - ma) * ((b[r] as number) - mb);
  return sab;
}

let crossSquares = 0;

/** Σw·(a − ma)(b − mb) over rows[lo, hi), in that order; Σw·(b − mb)² into crossSquares. */
function crossAbout(a: Float64Array, ma: number, b: Float64Array, mb: number, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number): number {
  let sab = 0;
  let sbb = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const wi = w ? (w[r] as number) : 1;
    const db = (b[r] as number) - mb;
    sab += wi * ((a[r] as number) - ma) * db;
    sbb += wi * db * db;
  }
  crossSquares = sbb;
  return sab;
}

/**
 * Weighted mean and SSE about it of the target over the rows `rows[lo, hi)`,
 * two-pass. The mean is taken as an offset from the first value, so a
 * constant range has exactly its value as mean and exactly 0 as SSE.
 */
function moments(y: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number): { mean: number; sse: number } {
  const origin = y[rows[lo]];
  const sd = offsetSum(y, rows, w, lo, hi, origin);
  const mean = origin + sd / offsetWeight;
  return { mean, sse: squaresAbout(y, rows, w, lo, hi, mean) };
}

let offsetWeight = 0;

/** Σw·(y − origin) over rows[lo, hi), in that order; Σw into offsetWeight. */
function offsetSum(y: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, origin: number): number {
  let sw = 0;
  let sd = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const wi = w ? (w[r] as number) : 1;
    sw += wi;
    sd += wi * ((y[r] as number) - origin);
  }
  offsetWeight = sw;
  return sd;
}

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
class NodeOrder {
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
function partition(rows: Uint32Array, lo: number, hi: number, goLeft: Uint8Array, scratch: Uint32Array): void {
  let a = lo;
  let b = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i];
    if (goLeft[r] === 1) rows[a++] = r;
    else scratch[b++] = r;
  }
  rows.set(scratch.subarray(0, b), a);
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

function checkOptions(options: RegressionTreeOptions): void {
  if (!(options.splitAlpha > 0 && options.splitAlpha <= 1)) throw new RangeError(`splitAlpha must be in (0, 1], got ${options.splitAlpha}`);
  if (!(options.minSamplesSplit >= 0)) throw new RangeError(`minSamplesSplit must be ≥ 0, got ${options.minSamplesSplit}`);
  if (options.splitTest !== undefined && !SPLIT_TESTS.includes(options.splitTest)) throw new RangeError(`unknown splitTest ${options.splitTest}`);
}
