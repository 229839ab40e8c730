// The split gate's false-split rate on pure noise (SPEC §4, issue 12).
//   npm run build && node bench/gate.mjs [trees=400] [predictors=4]
// For each gate (--split-test rank | f-splits | f-predictors), each distribution
// (normal, lognormal σ = 2, Pareto tail index 1.2, tied Poisson(3) counts) and each
// N ∈ {30, 200, 1000}: `trees` tables of N rows, a target and `predictors` columns,
// all independent, one tree each with the dependency-network defaults
// (minSamplesSplit ⌈N/3⌉, --split-alpha 0.05). A tree splits iff its root does,
// so the share of trees that split is the gate's false-split rate at a node; the
// nominal rate is 5 %. Seeded (mulberry32): the same arguments print the same table.
// Then, per gate, over `seeds` (default 100) pipeline systems generated like the
// fixture (fixtures/generate.mjs: 40 good + 40 bad runs, planted lock contention,
// red herrings heap_mb and config_version), how often a herring is in the top state
// graph and how often the cause lock_wait_ms is: the full CLI (dist/cli/main.js,
// --json) on each.
//   node bench/gate.mjs [trees=400] [predictors=4] [seeds=100]
const distArg = process.env.DISTALYZE_DIST ?? new URL('../dist/', import.meta.url).href;
const dist = distArg.endsWith('/') ? distArg : `${distArg}/`;
const { trainRegressionTree } = await import(new URL('dependency-network/cart.js', dist).href);

const trees = Number(process.argv[2] ?? 400);
const predictors = Number(process.argv[3] ?? 4);
const seeds = Number(process.argv[4] ?? 100);
const GATES = ['rank', 'f-splits', 'f-predictors'];
const SIZES = [30, 200, 1000];

const { mulberry32: projectMulberry32 } = await import(new URL('stats/prng.js', dist).href);

/** The project's mulberry32, shifted by half a step into (0, 1) so that log() of it is finite. */
function mulberry32(seed) {
  const next = projectMulberry32(seed);
  return () => next() + 0.5 / 4294967296;
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

// Planted-cause systems.
const { mkdtempSync, rmSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const { Writable } = await import('node:stream');
const { main } = await import(new URL('cli/main.js', dist).href);
const gen = await import(new URL('../fixtures/generate.mjs', import.meta.url).href);
const sink = () => {
  const w = new Writable({ write(chunk, _e, done) { w.text += String(chunk); done(); } });
  w.text = '';
  return w;
};
const counts = Object.fromEntries(GATES.map((g) => [g, { heap: 0, config: 0, cause: 0 }]));
for (let s = 1; s <= seeds; s++) {
  const dir = mkdtempSync(join(tmpdir(), 'distalyze-gate-'));
  const good = gen.pipelineClassRuns(1000 + 2 * s, 40, false, 1763596800);
  const bad = gen.pipelineClassRuns(1001 + 2 * s, 40, true, 1763683200);
  gen.writeClassDir(join(dir, 'good'), good.map((r) => gen.formatDlog(r.records)));
  gen.writeClassDir(join(dir, 'bad'), bad.map((r) => gen.formatDlog(r.records)));
  for (const gate of GATES) {
    const out = sink();
    await main([join(dir, 'good'), join(dir, 'bad'), '--json', '-', '--quiet', '--split-test', gate], { stdout: out, stderr: sink() });
    const doc = JSON.parse(out.text);
    const state = doc.graphs.find((g) => g.kind === 'state');
    const names = new Set(state ? state.nodes.map((n) => n.variable) : []);
    if (names.has('heap_mb')) counts[gate].heap++;
    if (names.has('config_version')) counts[gate].config++;
    if (names.has('lock_wait_ms')) counts[gate].cause++;
  }
  rmSync(dir, { recursive: true, force: true });
}
console.log('');
console.log(`top state graph over ${seeds} generated pipeline systems (seeds 1000 + 2s, 1001 + 2s):`);
console.log('');
console.log('| gate | heap_mb (herring) | config_version (herring) | lock_wait_ms (cause) |');
console.log('|---|---:|---:|---:|');
for (const gate of GATES) console.log(`| ${gate} | ${counts[gate].heap} / ${seeds} | ${counts[gate].config} / ${seeds} | ${counts[gate].cause} / ${seeds} |`);
