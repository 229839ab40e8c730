// Training time of one CART regression tree on a large table (SPEC §4).
//   npm run build && node bench/cart.mjs [rows=1000000] [columns=20]
// Prints the time to sort the columns and to train with minSamplesSplit
// ⌈n/3⌉ (the dependency-network default) and with minSamplesSplit 2 (a deep tree).
import { performance } from 'node:perf_hooks';

const dist = process.env.DISTALYZE_DIST ?? new URL('../dist/', import.meta.url).href;
const { trainRegressionTree } = await import(new URL('dependency-network/cart.js', dist.endsWith('/') ? dist : `${dist}/`).href);
const { sortColumn } = await import(new URL('dependency-network/sort-order.js', dist.endsWith('/') ? dist : `${dist}/`).href);

const rows = Number(process.argv[2] ?? 1_000_000);
const columns = Number(process.argv[3] ?? 20);

// Deterministic data: column 0 is the target, a step function of column 1
// plus a smooth function of column 2 plus noise; the rest is noise.
let state = 0x9e3779b9;
const uniform = () => {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state / 4294967296;
};
const cols = Array.from({ length: columns }, () => new Float64Array(rows));
for (let i = 0; i < rows; i++) {
  for (let j = 1; j < columns; j++) cols[j][i] = Math.round(uniform() * 1000) / 10;
  cols[0][i] = (cols[1][i] > 50 ? 10 : 0) + Math.sin(cols[2][i] / 10) * 3 + uniform();
}
const target = cols[0];
const predictors = cols.slice(1);

let t0 = performance.now();
const sorted = predictors.map((c) => sortColumn(c));
const sortMs = performance.now() - t0;
console.log(`${rows} rows × ${columns} columns`);
console.log(`sort ${predictors.length} columns: ${sortMs.toFixed(0)} ms`);

for (const minSamplesSplit of [Math.ceil(rows / 3), 2]) {
  t0 = performance.now();
  const tree = trainRegressionTree(target, predictors, { minSamplesSplit, splitAlpha: 0.05, sorted });
  const ms = performance.now() - t0;
  const splits = tree.nodes.filter((n) => n.kind === 'split').length;
  console.log(`train minSamplesSplit=${minSamplesSplit}: ${ms.toFixed(0)} ms (${tree.nodes.length} nodes, ${splits} splits)`);
}
