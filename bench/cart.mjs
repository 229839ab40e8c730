// Training time of the CART regression tree and of a dependency network (SPEC §4).
//   npm run build && node bench/cart.mjs [rows=1000000] [columns=20] [dnRows=100000]
// Prints wall and CPU time (the CPU figure is the one to trust on a shared machine) to
// sort the columns, to train one tree with minSamplesSplit ⌈n/3⌉ (the dependency-network
// default) and 2 (a deep tree), and to learn one dependency network of dnRows rows
// (a tree per column, the --dn-sample default size).
import { performance } from 'node:perf_hooks';

const distArg = process.env.DISTALYZE_DIST ?? new URL('../dist/', import.meta.url).href;
const dist = distArg.endsWith('/') ? distArg : `${distArg}/`;
const { trainRegressionTree } = await import(new URL('dependency-network/cart.js', dist).href);
const { sortColumn } = await import(new URL('dependency-network/sort-order.js', dist).href);
const { learnDependencyNetwork } = await import(new URL('dependency-network/index.js', dist).href);

const rows = Number(process.argv[2] ?? 1_000_000);
const columns = Number(process.argv[3] ?? 20);
const dnRows = Number(process.argv[4] ?? 100_000);

/** Deterministic data: column 0 = a step of column 1 + a smooth function of column 2 + noise; column 3 = column 0 + noise; the rest noise. */
function table(n, p, seed) {
  let state = seed >>> 0 || 1;
  const uniform = () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 4294967296;
  };
  const cols = Array.from({ length: p }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    for (let j = 1; j < p; j++) cols[j][i] = Math.round(uniform() * 1000) / 10;
    cols[0][i] = (cols[1][i] > 50 ? 10 : 0) + Math.sin(cols[2][i] / 10) * 3 + uniform();
    if (p > 3) cols[3][i] = cols[0][i] + 2 * uniform();
  }
  return cols;
}

function timed(label, f) {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const result = f();
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  console.log(`${label}: ${wall.toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU`);
  return result;
}

const cols = table(rows, columns, 0x9e3779b9);
const target = cols[0];
const predictors = cols.slice(1);
console.log(`one tree: ${rows} rows, ${predictors.length} predictors`);
const sorted = timed(`  sort ${predictors.length} columns`, () => predictors.map((c) => sortColumn(c)));
for (const minSamplesSplit of [Math.ceil(rows / 3), 2]) {
  const tree = timed(`  train, minSamplesSplit ${minSamplesSplit}`, () => trainRegressionTree(target, predictors, { minSamplesSplit, splitAlpha: 0.05, sorted }));
  const splits = tree.nodes.filter((n) => n.kind === 'split').length;
  console.log(`    ${tree.nodes.length} nodes, ${splits} splits`);
}
const both = timed(`  sort + train, minSamplesSplit ${Math.ceil(rows / 3)}`, () => trainRegressionTree(target, predictors, { minSamplesSplit: Math.ceil(rows / 3), splitAlpha: 0.05 }));
void both;

const dnCols = table(dnRows, columns, 12345);
const variables = dnCols.map((_, j) => `v${j}`);
const fs = {
  instances: Array.from({ length: dnRows }, (_, i) => ({ id: String(i), className: 'bad', duration: 1, records: 1 })),
  nGood: 0, nBad: dnRows, weights: new Float64Array(dnRows).fill(1),
  metric: { event: null, state: 'v0', eventIsDuration: false, stateIsDuration: false },
  tables: [{ kind: 'state', feature: 'mean', variables, columns: dnCols }], referenceDuration: 1,
};
console.log(`dependency network: ${dnRows} rows, ${columns} variables (${columns} trees)`);
const dn = timed('  learn', () => learnDependencyNetwork(fs, fs.tables[0], 'bad', { splitAlpha: 0.05, sample: 100_000, seed: 1 }));
console.log(`    ${dn.edges.length} edges: ${dn.edges.map((e) => `${variables[e.parent]}→${variables[e.child]} ${e.weight.toFixed(2)}`).join(', ')}`);
