// Time of the dependency networks + attention stage alone (issue 17's "< 10 s
// on 200 k instances"), on a set already parsed once in this process.
//   npm run build && node bench/dn.mjs GOOD BAD [repeat=3]
// Parses GOOD and BAD (one thread), builds the feature set and the t-tests,
// then runs focusAttention `repeat` times with the CLI's defaults and prints
// wall and CPU time of each run (trust CPU on a shared machine) and a hash of
// the graphs (the same before and after a speed change, or it changed a result).
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';

const dist = new URL('../dist/', import.meta.url);
const imp = (p) => import(new URL(p, dist).href);
const { FeatureCollector } = await imp('features/collector.js');
const { buildFeatureSet } = await imp('features/index.js');
const { listInputFiles } = await imp('parse/files.js');
const { readClass, emptyReadStats } = await imp('parse/reader.js');
const { runTests } = await imp('ttest/index.js');
const { focusAttention } = await imp('attention/index.js');

const [good, bad, repeatArg] = process.argv.slice(2);
const repeat = Number(repeatArg ?? 3);
const collector = new FeatureCollector(true);
for (const [c, spec] of [['good', good], ['bad', bad]]) {
  const files = await listInputFiles(spec, c);
  await readClass(files, c, collector, { strict: false }, emptyReadStats());
  collector.finishClass();
}
const fs = buildFeatureSet(collector, { weight: 'none' }).features;
const summary = runTests(fs, { alpha: 0.05, correction: 'bonferroni', kinds: 'on' });
console.log(`${fs.instances.length} instances, ${fs.tables.length} tables`);
for (let r = 0; r < repeat; r++) {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const graphs = focusAttention({ ...fs }, summary, { balance: 0.5, top: 1, maxNodes: 10, dnClass: 'bad', splitAlpha: 0.05, splitTest: 'rank', sample: 100000, seed: 1 });
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  const hash = createHash('sha256').update(JSON.stringify(graphs)).digest('hex').slice(0, 12);
  console.log(`focusAttention: ${wall.toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU, graphs ${hash}`);
}
