// growTree against a plain reading of SPEC §4 written here: no lanes, no
// partitions, no shared buffers; every node sorts its own rows afresh. Deep
// trees over every column of a table (one workspace reused from tree to
// tree, as a dependency network does), with ties, constant stretches and
// replication weights. The two agree on every node's kind, predictor and
// threshold exactly, and on samples, values and statistics to 1e-9. Splits
// whose gains tie but for rounding go to the lowest column (SPEC §4 step 4).
import { describe, expect, it } from 'vitest';
import { GAIN_TIE, growTree, type TreeNode } from '../src/dependency-network/cart.js';
import { TreeWorkspace } from '../src/dependency-network/node-rows.js';
import { chiSquare1Upper, midRanks, rankCriticalValue, sidakAdjust } from '../src/dependency-network/rank-gate.js';
import { TreeColumns } from '../src/dependency-network/tree-columns.js';
import { sortColumn } from '../src/dependency-network/sort-order.js';
import { normalStream } from './dn-fixtures.js';

/** Nodes where two splits of the reference had the same gain but for rounding. */
let ties = 0;

interface RefNode {
  kind: 'leaf' | 'split';
  samples: number;
  value: number;
  predictor?: number;
  threshold?: number;
  statistic?: number;
  /** Šidák-adjusted over the node's k non-constant predictors. */
  p?: number;
}

/** The tree predicting columns[target] from the others, node by node as SPEC §4 states it. */
function referenceTree(columns: readonly Float64Array[], target: number, w: Float64Array, minSplit: number, alpha: number): RefNode[] {
  const n = w.length;
  const y = columns[target];
  const ranks = columns.map((c) => midRanks(sortColumn(c), w));
  const nodes: RefNode[] = [];
  const grow = (rows: number[], at: number): void => {
    let W = 0;
    let sy = 0;
    for (const r of rows) {
      W += w[r];
      sy += w[r] * y[r];
    }
    const mean = sy / W;
    nodes[at] = { kind: 'leaf', samples: W, value: mean };
    if (W < minSplit || W <= 2) return;
    const weighted = rows.filter((r) => w[r] > 0).map((r) => y[r]);
    if (Math.min(...weighted) === Math.max(...weighted)) return;
    const varying = columns.map((c, j) => j !== target && Math.min(...rows.map((r) => c[r])) !== Math.max(...rows.map((r) => c[r])));
    const k = varying.filter(Boolean).length;
    if (k === 0) return;
    const cStar = rankCriticalValue(alpha, k);
    if (!(W - 1 > cStar)) return;
    // c_j = (W − 1)·S_ab² / (S_aa·S_bb), the ranks centred at their weighted node means.
    const centredRanks = (j: number): number[] => {
      const m = rows.reduce((s, r) => s + w[r] * ranks[j][r], 0) / W;
      return rows.map((r) => ranks[j][r] - m);
    };
    const a = centredRanks(target);
    const saa = rows.reduce((s, r, i) => s + w[r] * a[i] * a[i], 0);
    const stat = columns.map((_, j) => {
      if (!varying[j]) return 0;
      const b = centredRanks(j);
      const sab = rows.reduce((s, r, i) => s + w[r] * a[i] * b[i], 0);
      const sbb = rows.reduce((s, r, i) => s + w[r] * b[i] * b[i], 0);
      return saa > 0 && sbb > 0 ? ((W - 1) * sab * sab) / (saa * sbb) : 0;
    });
    // The largest SSE reduction over the significant predictors (ties: lowest column, then lowest threshold).
    const candidates: { j: number; threshold: number; gain: number; left: number[]; right: number[] }[] = [];
    for (let j = 0; j < columns.length; j++) {
      if (!varying[j] || !(stat[j] > cStar)) continue;
      const x = columns[j];
      const sorted = [...rows].sort((p, q) => x[p] - x[q] || p - q);
      let wl = 0;
      let sl = 0;
      let S = 0;
      for (const r of sorted) S += w[r] * (y[r] - mean);
      for (let i = 0; i + 1 < sorted.length; i++) {
        const r = sorted[i];
        wl += w[r];
        sl += w[r] * (y[r] - mean);
        const here = x[r];
        const next = x[sorted[i + 1]];
        const wr = W - wl;
        if (here === next || !(wl > W * 1e-12 && wr > W * 1e-12)) continue;
        const gain = (sl * sl) / wl + ((S - sl) * (S - sl)) / wr;
        if (gain > 0) candidates.push({ j, threshold: (here + next) / 2, gain, left: sorted.slice(0, i + 1), right: sorted.slice(i + 1) });
      }
    }
    if (candidates.length === 0) return;
    const top = Math.max(...candidates.map((c) => c.gain));
    // The first (lowest column, then threshold) of the largest gain, rounding aside (GAIN_TIE).
    const best = candidates.find((c) => c.gain >= top * (1 - GAIN_TIE))!;
    if (candidates.some((c) => c !== best && c.gain >= top * (1 - GAIN_TIE))) ties++;
    nodes[at] = { kind: 'split', samples: W, value: mean, predictor: best.j, threshold: best.threshold, statistic: stat[best.j], p: sidakAdjust(chiSquare1Upper(stat[best.j]), k) };
    const left = nodes.length;
    nodes.push({ kind: 'leaf', samples: 0, value: 0 }, { kind: 'leaf', samples: 0, value: 0 });
    grow(best.left, left);
    grow(best.right, left + 1);
  };
  grow(Array.from({ length: n }, (_, i) => i), 0);
  return nodes;
}

/** A table whose columns explain each other piecewise, so trees grow several levels deep. */
function table(n: number, seed: number): Float64Array[] {
  const noise = normalStream(seed);
  const x0 = Float64Array.from({ length: n }, () => noise());
  const x1 = Float64Array.from({ length: n }, () => Math.round(2 * noise())); // ties
  const x2 = Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 0 : noise())); // a constant stretch
  const y = Float64Array.from({ length: n }, (_, i) => 8 * Number(x0[i] > 0) + 4 * Number(x1[i] > 0) + 2 * Number(x2[i] > 0.5) + 0.3 * noise());
  const z = Float64Array.from({ length: n }, (_, i) => y[i] * 0.5 + x1[i] + 0.2 * noise());
  const u = Float64Array.from({ length: n }, () => noise());
  const g = Float64Array.from({ length: n }, (_, i) => (x0[i] > 0 ? noise() : 0)); // constant where x0 ≤ 0
  return [x0, x1, x2, y, z, u, g];
}

/** The tree's nodes in the reference's DFS order (left subtree first), for comparison. */
function inReferenceOrder(nodes: readonly TreeNode[]): TreeNode[] {
  const out: TreeNode[] = [];
  const visit = (id: number, at: number): void => {
    const node = nodes[id];
    out[at] = node;
    if (node.kind !== 'split') return;
    const left = out.length;
    out.push(node, node);
    visit(node.left, left);
    visit(node.right, left + 1);
  };
  visit(0, 0);
  return out;
}

describe('growTree against a plain reading of SPEC §4', () => {
  // Unweighted up to 4 096 rows the rank statistics come from exact sums; weighted, or past that, from two-pass ones.
  for (const [n, seed, weighted, minSplit] of [[120, 1, false, 8], [90, 2, true, 8], [200, 3, true, 8], [4200, 4, false, 600]] as const) {
    const sums = weighted || n > 4096 ? 'two-pass rank sums' : 'exact rank sums';
    it(`n = ${n}${weighted ? ', replication weights 1–3' : ''} (${sums}): every column's tree, node for node`, () => {
      const columns = table(n, seed);
      const w = Float64Array.from({ length: n }, (_, i) => (weighted ? 1 + ((i * 7) % 3) : 1));
      const prepared = new TreeColumns(columns, weighted ? w : undefined);
      const workspace = new TreeWorkspace(n);
      let splits = 0;
      ties = 0;
      let deepest = 0;
      for (let target = 0; target < columns.length; target++) {
        const tree = growTree(prepared, target, { minSamplesSplit: minSplit, splitAlpha: 0.05, workspace });
        const want = referenceTree(columns, target, w, minSplit, 0.05);
        const got = inReferenceOrder(tree.nodes);
        expect(got.map((g) => g.kind)).toEqual(want.map((r) => r.kind));
        got.forEach((g, i) => {
          const r = want[i];
          expect(g.samples).toBeCloseTo(r.samples, 9);
          expect(Math.abs(g.value - r.value)).toBeLessThan(1e-9 * (1 + Math.abs(r.value)));
          if (g.kind !== 'split') return;
          splits++;
          expect([g.predictor, g.threshold]).toEqual([r.predictor, r.threshold]);
          expect(Math.abs(g.statistic - r.statistic!)).toBeLessThan(1e-9 * r.statistic!);
          expect(Math.abs(g.p - r.p!)).toBeLessThanOrEqual(1e-9 * r.p!);
        });
        deepest = Math.max(deepest, depth(tree.nodes));
      }
      // Enough growth to exercise partitions below the first split on both sides.
      expect(splits).toBeGreaterThanOrEqual(12);
      expect(deepest).toBeGreaterThanOrEqual(3);
      // Ties but for rounding (x1 as the target: a few integer values, split perfectly on two columns).
      expect(ties).toBeGreaterThan(0);
    });
  }
});

function depth(nodes: readonly TreeNode[], id = 0): number {
  const node = nodes[id];
  return node.kind === 'split' ? 1 + Math.max(depth(nodes, node.left), depth(nodes, node.right)) : 0;
}
