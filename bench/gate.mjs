// The split gate's false-split rate on pure noise (SPEC §4, issue 12).
//   npm run build && node bench/gate.mjs [trees=400] [predictors=4]
// For each gate (--split-test rank | f-splits | f-predictors), each distribution
// (normal, lognormal σ = 2, Pareto tail index 1.2, tied Poisson(3) counts) and each
// N ∈ {30, 200, 1000}: `trees` tables of N rows, a target and `predictors` columns,
// all independent, one tree each with the dependency-network defaults
// (minSamplesSplit ⌈N/3⌉, --split-alpha 0.05). A tree splits iff its root does,
// so the share of trees that split is the gate's false-split rate at a node; the
// nominal rate is 5 %. Seeded (mulberry32): the same arguments print the same table.
const distArg = process.env.DISTALYZE_DIST ?? new URL('../dist/', import.meta.url).href;
const dist = distArg.endsWith('/') ? distArg : `${distArg}/`;
const { trainRegressionTree } = await import(new URL('dependency-network/cart.js', dist).href);

const trees = Number(process.argv[2] ?? 400);
const predictors = Number(process.argv[3] ?? 4);
const GATES = ['rank', 'f-splits', 'f-predictors'];
const SIZES = [30, 200, 1000];

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
}

const DISTRIBUTIONS = {
  normal: (u) => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u()),
  lognormal: (u) => Math.exp(2 * Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u())),
  pareto: (u) => u() ** (-1 / 1.2),
  counts: (u) => {
    // Poisson(3) by inversion: many ties.
    let k = 0;
    let p = Math.exp(-3);
    let s = p;
    const x = u();
    while (x > s) {
      k++;
      p *= 3 / k;
      s += p;
    }
    return k;
  },
};

function falseSplitRate(gate, kind, n) {
  const u = mulberry32(n * 7919 + Object.keys(DISTRIBUTIONS).indexOf(kind));
  const draw = DISTRIBUTIONS[kind];
  let split = 0;
  for (let t = 0; t < trees; t++) {
    const column = () => Float64Array.from({ length: n }, () => draw(u));
    const y = column();
    const xs = Array.from({ length: predictors }, column);
    if (trainRegressionTree(y, xs, { minSamplesSplit: Math.ceil(n / 3), splitAlpha: 0.05, splitTest: gate }).nodes.length > 1) split++;
  }
  return split / trees;
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;
console.log(`false-split rate on pure noise: ${trees} trees per cell, ${predictors} predictors, α = 0.05 (binomial sd at 5 %: ±${(100 * Math.sqrt(0.0475 / trees)).toFixed(1)} points)`);
console.log('');
console.log(`| gate | ${Object.keys(DISTRIBUTIONS).flatMap((d) => SIZES.map((n) => `${d} N=${n}`)).join(' | ')} |`);
console.log(`|---|${Object.keys(DISTRIBUTIONS).flatMap(() => SIZES.map(() => '---:')).join('|')}|`);
for (const gate of GATES) {
  const cells = Object.keys(DISTRIBUTIONS).flatMap((d) => SIZES.map((n) => pct(falseSplitRate(gate, d, n))));
  console.log(`| ${gate} | ${cells.join(' | ')} |`);
}
