import { classRange, type FeatureSet, type FeatureTable } from '../features/types.js';
import type { ClassName } from '../parse/records.js';
import { growTree, TreeColumns, TreeWorkspace, type TreeSplit } from './cart.js';
import { weightedMedian } from './median.js';
import { mulberry32, sampleWithoutReplacement } from './prng.js';
import type { DependencyEdge, DependencyNetwork, DependencyNetworkOptions } from './types.js';

export { happensBefore, type HappensBefore } from './happens-before.js';
export { DEFAULT_SPLIT_TEST, growTree, predictRow, SPLIT_TESTS, trainRegressionTree, TreeColumns, TreeWorkspace, type RegressionTree, type RegressionTreeOptions, type SplitTest, type TreeNode } from './cart.js';
export { DEFAULT_DEPENDENCY_NETWORK_OPTIONS } from './types.js';
export type { DependencyEdge, DependencyNetwork, DependencyNetworkOptions } from './types.js';

/**
 * The dependency network of one feature table in one class (SPEC §4, paper
 * §2.2.3): one row per instance of the class (at most `options.sample` per
 * class, a seeded sample), one column per variable that is present somewhere
 * in those rows, missing values imputed with the class's (weighted) median.
 * For each column X a CART tree predicts X from all the other columns; every
 * variable X's tree splits on becomes a parent of X, with weight
 *   max over X's split nodes on that parent of (weighted samples at node / N_c),
 * the largest minSamplesSplit at which the edge would still be learned.
 */
export function learnDependencyNetwork(
  fs: FeatureSet,
  table: FeatureTable,
  className: ClassName | 'both',
  options: DependencyNetworkOptions,
): DependencyNetwork {
  const rows = selectRows(fs, className, options);
  const m = rows.length;
  const weights = new Float64Array(m);
  let total = 0;
  let unweighted = true;
  for (let i = 0; i < m; i++) {
    weights[i] = fs.weights[rows[i]];
    total += weights[i];
    if (weights[i] !== 1) unweighted = false;
  }

  const variables: string[] = [];
  const columns: Float64Array[] = [];
  table.variables.forEach((variable, v) => {
    const source = table.columns[v];
    const column = new Float64Array(m);
    for (let i = 0; i < m; i++) column[i] = source[rows[i]];
    let missing = 0;
    for (let i = 0; i < m; i++) if (Number.isNaN(column[i])) missing++;
    if (missing > 0 || m === 0) {
      const median = weightedMedian(column, weights);
      if (Number.isNaN(median)) return; // missing in every row of the class
      for (let i = 0; i < m; i++) if (Number.isNaN(column[i])) column[i] = median;
    }
    variables.push(variable);
    columns.push(column);
  });

  const minSplit = options.minSplit ?? Math.ceil(total / 3);
  const prepared = new TreeColumns(columns, unweighted ? undefined : weights);
  const edges: DependencyEdge[] = [];
  const workspace = new TreeWorkspace(m);
  const treeOptions = {
    minSamplesSplit: minSplit,
    splitAlpha: options.splitAlpha,
    ...(options.splitTest ? { splitTest: options.splitTest } : {}),
    workspace,
  };
  const progress = options.onProgress;
  const label = `${table.kind} ${table.feature}`;
  for (let child = 0; child < columns.length; child++) {
    if (progress && (child & 1023) === 0) progress(child, columns.length, label);
    const tree = growTree(prepared, child, treeOptions);
    if (tree.nodes.length === 1) continue;
    // Per parent, the split node with the most samples (the first in node order on ties).
    const strongest = new Map<number, TreeSplit>();
    for (const node of tree.nodes) {
      if (node.kind !== 'split') continue;
      const have = strongest.get(node.predictor);
      if (!have || node.samples > have.samples) strongest.set(node.predictor, node);
    }
    for (const [parent, node] of [...strongest].sort((a, b) => a[0] - b[0])) {
      edges.push({ parent, child, weight: node.samples / total, statistic: node.statistic, p: node.p });
    }
  }
  if (progress) progress(columns.length, columns.length, label);

  return {
    kind: table.kind,
    feature: table.feature,
    className,
    variables,
    edges,
    instances: m,
    weight: total,
    minSplit,
  };
}

/**
 * Indices into fs.instances of the rows to learn from, ascending: the class's
 * instances ('both': good then bad), each class capped at `options.sample`
 * by a sample drawn with a PRNG seeded from `options.seed`.
 */
export function selectRows(fs: FeatureSet, className: ClassName | 'both', options: Pick<DependencyNetworkOptions, 'sample' | 'seed'>): Uint32Array {
  const classes: ClassName[] = className === 'both' ? ['good', 'bad'] : [className];
  const random = mulberry32(options.seed);
  const parts = classes.map((c) => {
    const [start, end] = classRange(fs, c);
    const picked = sampleWithoutReplacement(end - start, Math.max(0, Math.floor(options.sample)), random);
    for (let i = 0; i < picked.length; i++) picked[i] += start;
    return picked;
  });
  const rows = new Uint32Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const part of parts) {
    rows.set(part, at);
    at += part.length;
  }
  return rows;
}
