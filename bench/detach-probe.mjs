// What a detached ArrayBuffer costs a parsing thread (docs/internals.md, "Threads":
// "Nothing crosses between threads moved"): the same dlog files read into a collector by
// workers of two kinds, in turn, one at a time: "keep" never detaches a
// buffer, "detach" detaches an empty one before it loads anything (as a
// transfer list would after its first batch). Prints each worker's best of 3
// passes (after a first, warming one) and the ratio of the medians.
//
//   npm run build && node bench/detach-probe.mjs DIR [ROUNDS]   (DIR holds good/ and bad/)
import { readdirSync, statSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

if (isMainThread) {
  const dir = process.argv[2];
  const rounds = Number(process.argv[3] ?? 6);
  if (dir === undefined) throw new Error('usage: node bench/detach-probe.mjs DIR [ROUNDS]');
  const ms = { keep: [], detach: [] };
  for (let r = 0; r < rounds; r++) {
    for (const mode of r % 2 === 1 ? ['keep', 'detach'] : ['detach', 'keep']) {
      ms[mode].push(await new Promise((resolve, reject) => {
        const w = new Worker(new URL(import.meta.url), { workerData: { dir, mode } });
        w.on('message', resolve);
        w.on('error', reject);
      }));
    }
  }
  const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  console.log(`keep ${ms.keep.map(Math.round).join(' ')} ms; detach ${ms.detach.map(Math.round).join(' ')} ms; detach/keep of the medians ${(median(ms.detach) / median(ms.keep)).toFixed(3)}`);
} else {
  const { dir, mode } = workerData;
  if (mode === 'detach') {
    const empty = new ArrayBuffer(0);
    structuredClone(empty, { transfer: [empty] });
  }
  const { readClass } = await import('../dist/parse/reader.js');
  const { FeatureCollector } = await import('../dist/features/collector.js');
  const byClass = { good: [], bad: [] };
  for (const className of ['good', 'bad']) {
    for (const name of readdirSync(`${dir}/${className}`).sort()) {
      const path = `${dir}/${className}/${name}`;
      byClass[className].push({ path, relativePath: name, size: statSync(path).size });
    }
  }
  let best = Infinity;
  for (let pass = 0; pass < 4; pass++) {
    const started = performance.now();
    for (const className of ['good', 'bad']) await readClass(byClass[className], className, new FeatureCollector(false), { strict: false });
    if (pass > 0) best = Math.min(best, performance.now() - started);
  }
  parentPort.postMessage(best);
}
