import { studentTTwoSided } from '../stats/student-t.js';
import { NodeOrder, partition, TreeWorkspace } from './node-rows.js';
import { crossSums, moments, nodeSse, squareSums, variesOver, weightedSumOver, type NodeSums } from './node-sums.js';
import { centred, chiSquare1Upper, exactRankStatistic, rankCriticalValue, rankStatistic, sidakAdjust } from './rank-gate.js';
import { TreeColumns } from './tree-columns.js';

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

/**
 * The split points of one predictor over the node (its rows in the predictor's order: `lane`), against the best
 * gain so far: returns the best gain after them; where it was improved last (-1: nowhere) and the left weight there
 * into out.scanPos and out.scanLeftWeight, and how many points were examined into out.scanExamined. Ties (GAIN_TIE) keep the
 * earlier point.
 */
function scanSplits(lane: Uint32Array, x: Float64Array, y: Float64Array, w: Float64Array | undefined, mean: number, W: number, S: number,
  size: number, wEps: number, bestGain: number, out: NodeSums): number {
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
  out.scanPos = pos;
  out.scanLeftWeight = bestWl;
  out.scanExamined = examined;
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
  const sums = work.sums;
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
    const sse = nodeSse(y, rows, w, lo, hi, mean, sums);
    const S = sums.deviation;
    if (sums.min === sums.max || !(sse > 0)) continue; // constant target: nothing to explain

    // Which predictors may split here (every live one at the root), with their rank sums.
    let k = 0;
    const exact = ranked && id !== 0 && columns.exactRanks;
    const sa = exact ? squareSums(RY, rows, lo, hi, sums) : 0;
    const saa = exact ? sums.squares : 0;
    for (let l = 0; l < live.length; l++) {
      let varies = id === 0;
      if (exact) {
        // Unweighted mid-ranks are multiples of ½ and W the row count: these sums are exact (EXACT_RANK_ROWS).
        const sab = crossSums(rxs[l] as Float64Array, RY, rows, lo, hi, sums);
        const sb = sums.sumB;
        const sbb = sums.sumBB;
        varies = W * sbb - sb * sb > 0;
        stat[l] = exactRankStatistic(W, sa, saa, sb, sbb, sab);
      } else if (!varies && ranked) {
        rankSums[l] = weightedSumOver(rxs[l] as Float64Array, rows, w, lo, hi, sums);
        varies = sums.varied;
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
          const c = ta === undefined ? stat[l] : rankStatistic(RY, ta, rxs[l], rankSums[l] / W, rows, w, lo, hi, W, sums);
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
      const gain = scanSplits(order.of(columns.sorted(live[l] as number)), xs[l] as Float64Array, y, w, mean, W, S, size, wEps, bestGain, sums);
      examined += sums.scanExamined;
      if (sums.scanPos >= 0) {
        bestGain = gain;
        bestK = l;
        bestPos = sums.scanPos;
        bestWl = sums.scanLeftWeight;
      }
    }
    if (bestK < 0) continue;

    const chosen = order.of(columns.sorted(live[bestK]));
    const mid = bestPos + 1;
    const leftSide = moments(y, chosen, w, 0, mid, sums);
    const rightSide = moments(y, chosen, w, mid, size, sums);
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

function checkOptions(options: RegressionTreeOptions): void {
  if (!(options.splitAlpha > 0 && options.splitAlpha <= 1)) throw new RangeError(`splitAlpha must be in (0, 1], got ${options.splitAlpha}`);
  if (!(options.minSamplesSplit >= 0)) throw new RangeError(`minSamplesSplit must be ≥ 0, got ${options.minSamplesSplit}`);
  if (options.splitTest !== undefined && !SPLIT_TESTS.includes(options.splitTest)) throw new RangeError(`unknown splitTest ${options.splitTest}`);
}
