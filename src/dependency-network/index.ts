import { createHash } from 'node:crypto';
import { classRange, type FeatureSet, type FeatureTable } from '../features/types.js';
import type { ClassName } from '../parse/records.js';
import { growTree, type TreeSplit } from './cart.js';
import { TreeWorkspace } from './node-rows.js';
import { TreeColumns, type PreparedColumn } from './tree-columns.js';
import { weightedMedian } from './median.js';
import { mulberry32, sampleWithoutReplacement } from '../stats/prng.js';
import type { DependencyEdge, DependencyNetwork, DependencyNetworkOptions } from './types.js';

export { happensBefore, type HappensBefore } from './happens-before.js';
export { DEFAULT_SPLIT_TEST, growTree, predictRow, SPLIT_TESTS, trainRegressionTree, type RegressionTree, type RegressionTreeOptions, type SplitTest, type TreeNode } from './cart.js';
export { TreeWorkspace } from './node-rows.js';
export { TreeColumns } from './tree-columns.js';
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
  const shared = cacheOf(fs);
  const rows = shared.rowsOf(fs, className, options);
  const m = rows.length;
  const weights = new Float64Array(m);
  const total = gatherWeights(fs.weights, rows, weights);
  const unweighted = allOnes(weights);

  const variables: string[] = [];
  const columns: LearnedColumn[] = [];
  // The rows (and so the weights) are the same for every network of this class: a source array met before
  // (a follower's is its leader's, the built-in duration is in every table) is gathered and imputed once.
  const rowsKey = rowsKeyOf(className, options);
  table.variables.forEach((variable, v) => {
    const source = table.columns[v] as Float64Array;
    let column = shared.gathered(source, rowsKey);
    if (column === undefined) shared.keepGathered(source, rowsKey, (column = gatherImputed(source, rows, weights)));
    if (column === null) return; // missing in every row of the class
    variables.push(variable);
    columns.push(column);
  });

  const minSplit = options.minSplit ?? Math.ceil(total / 3);
  const progress = options.onProgress;
  const label = `${table.kind} ${table.feature}`;
  const network = (edges: readonly DependencyEdge[]): DependencyNetwork => ({
    kind: table.kind,
    feature: table.feature,
    className,
    variables,
    edges,
    instances: m,
    weight: total,
    minSplit,
  });
  // The trees are a function of the columns' values, the weights and the
  // gate's options only: a table whose columns equal an earlier table's
  // (first = median = last of a one-off event, states sampled once) gets
  // that table's edges without growing a tree.
  // Below SHARE_MIN_ROWS rows the trees cost less than hashing thousands of columns would.
  const cache = m >= SHARE_MIN_ROWS ? shared : new NetworkCache();
  const digests = m >= SHARE_MIN_ROWS ? columns.map((c) => (c.digest ??= digest(c.values))) : columns.map((_, j) => String(j));
  const weighting = unweighted ? '1' : digest(weights);
  const key = `${m} ${weighting} ${minSplit} ${options.splitAlpha} ${options.splitTest ?? ''} ${digests.join(',')}`;
  const known = cache.networks.get(key);
  if (known !== undefined) {
    if (progress) progress(columns.length, columns.length, label);
    return network(known.map((e) => ({ ...e })));
  }
  // Sort orders and ranks of equal columns (same values, same weights) are shared too.
  const columnKey = (j: number): string => `${m} ${weighting} ${digests[j]}`;
  const prepared = new TreeColumns(columns.map((c) => c.values), unweighted ? undefined : weights, digests.map((_, j) => cache.columns.get(columnKey(j))));
  const edges: DependencyEdge[] = [];
  if (cache.workspace?.rows !== m) cache.workspace = new TreeWorkspace(m);
  const workspace = cache.workspace;
  const treeOptions = {
    minSamplesSplit: minSplit,
    splitAlpha: options.splitAlpha,
    ...(options.splitTest ? { splitTest: options.splitTest } : {}),
    workspace,
  };
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
  cache.networks.set(key, edges.map((e) => ({ ...e })));
  for (let j = 0; j < columns.length; j++) {
    const done = prepared.prepared(j);
    if (done !== undefined) cache.remember(columnKey(j), done);
  }
  return network(edges);
}

/**
 * What the networks of one feature set share: learned edges per network key
 * (what a network's trees depend on: the row count, the weights, minSplit,
 * the gate's options and the columns' values, as imputed, in order; equal
 * keys give equal trees, the training being deterministic), the sort order
 * and ranks per column key (bounded: the oldest are dropped past
 * COLUMN_CACHE_BYTES), and the trees' buffers.
 */
class NetworkCache {
  readonly networks = new Map<string, readonly DependencyEdge[]>();
  readonly columns = new Map<string, PreparedColumn>();
  workspace: TreeWorkspace | undefined;
  private bytes = 0;
  private readonly rows = new Map<string, Uint32Array>();
  /** Per source column and rows (rowsKeyOf), the learned column (null: missing in every row). */
  private readonly learned = new Map<Float64Array, Map<string, LearnedColumn | null>>();
  private learnedBytes = 0;

  /** selectRows, drawn once per class and options. */
  rowsOf(fs: FeatureSet, className: ClassName | 'both', options: Pick<DependencyNetworkOptions, 'sample' | 'seed'>): Uint32Array {
    const key = rowsKeyOf(className, options);
    let rows = this.rows.get(key);
    if (rows === undefined) this.rows.set(key, (rows = selectRows(fs, className, options)));
    return rows;
  }

  gathered(source: Float64Array, rowsKey: string): LearnedColumn | null | undefined {
    return this.learned.get(source)?.get(rowsKey);
  }

  keepGathered(source: Float64Array, rowsKey: string, column: LearnedColumn | null): void {
    const size = column === null ? 0 : column.values.byteLength;
    if (this.learnedBytes + size > LEARNED_CACHE_BYTES) return;
    let bySource = this.learned.get(source);
    if (bySource === undefined) this.learned.set(source, (bySource = new Map()));
    bySource.set(rowsKey, column);
    this.learnedBytes += size;
  }

  remember(key: string, column: PreparedColumn): void {
    if (this.columns.has(key)) return;
    const size = column.sorted.order.length * PREPARED_BYTES_PER_ROW;
    while (this.bytes + size > COLUMN_CACHE_BYTES && this.columns.size > 0) {
      const [oldest, dropped] = this.columns.entries().next().value as [string, PreparedColumn];
      this.columns.delete(oldest);
      this.bytes -= dropped.sorted.order.length * PREPARED_BYTES_PER_ROW;
    }
    if (size > COLUMN_CACHE_BYTES) return;
    this.columns.set(key, column);
    this.bytes += size;
  }
}

/** Fewest rows at which a network's work is shared with equal tables' (see NetworkCache). */
const SHARE_MIN_ROWS = 1024;

/** Sort orders and ranks kept for reuse across one feature set's networks. */
const COLUMN_CACHE_BYTES = 256 * 1024 * 1024;

/** A prepared column's bytes a row: its sort order and inverse (8), sorted values (8) and ranks (8). */
const PREPARED_BYTES_PER_ROW = 24;

/** What selectRows draws from: the class, the sample size, the seed. */
function rowsKeyOf(className: ClassName | 'both', options: Pick<DependencyNetworkOptions, 'sample' | 'seed'>): string {
  return `${className} ${Math.max(0, Math.floor(options.sample))} ${options.seed}`;
}

/** Learned columns kept for reuse across one feature set's networks. */
const LEARNED_CACHE_BYTES = 128 * 1024 * 1024;

/** A column as a network learns from it: its rows' values, missing ones imputed; its digest once taken. */
interface LearnedColumn {
  readonly values: Float64Array;
  digest?: string;
}

/** `source` at `rows`, missing values imputed with their (weighted) median; null when every one is missing. */
function gatherImputed(source: Float64Array, rows: Uint32Array, weights: Float64Array): LearnedColumn | null {
  const m = rows.length;
  const column = gathered(source, rows);
  if (missingIn(column) > 0 || m === 0) {
    const median = weightedMedian(column, weights);
    if (Number.isNaN(median)) return null;
    fillMissing(column, median);
  }
  return { values: column };
}

/**
 * The rows' weights into `weights`; their sum, in row order. A function that ends with its loop: in
 * learnDependencyNetwork, the loop was compiled while it ran (on-stack replacement) and went on into code that had
 * not run yet; that code, kept, stopped there on every network after (a million requests: 16 times a run, at three
 * places).
 */
function gatherWeights(all: Float64Array, rows: Uint32Array, weights: Float64Array): number {
  let total = 0;
  for (let i = 0; i < rows.length; i++) {
    const wi = all[rows[i] as number] as number;
    weights[i] = wi;
    total += wi;
  }
  return total;
}

/** Whether every weight is 1. */
function allOnes(weights: Float64Array): boolean {
  for (let i = 0; i < weights.length; i++) if (weights[i] !== 1) return false;
  return true;
}

// gatherImputed's loops, each a function that ends with it: compiled while one ran (on-stack replacement), the
// function went on into the next, which had not run yet, and that code, kept, stopped there on every call after
// (a million requests: 14 times a run at each of two places).

/** source[rows[i]] for each i. */
function gathered(source: Float64Array, rows: Uint32Array): Float64Array {
  const column = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) column[i] = source[rows[i] as number] as number;
  return column;
}

/** How many values are missing (NaN). */
function missingIn(column: Float64Array): number {
  let missing = 0;
  for (let i = 0; i < column.length; i++) if (Number.isNaN(column[i])) missing++;
  return missing;
}

/** Each missing value (NaN) replaced by `value`. */
function fillMissing(column: Float64Array, value: number): void {
  for (let i = 0; i < column.length; i++) if (Number.isNaN(column[i])) column[i] = value;
}

/** Per feature set (dropped with it). */
const networkCache = new WeakMap<FeatureSet, NetworkCache>();

function cacheOf(fs: FeatureSet): NetworkCache {
  let cache = networkCache.get(fs);
  if (cache === undefined) networkCache.set(fs, (cache = new NetworkCache()));
  return cache;
}

/** SHA-256 of a column's bytes (its values exactly, −0 and +0 apart). */
function digest(column: Float64Array): string {
  return createHash('sha256').update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength)).digest('base64');
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
