// Is a worker thread slower than the main thread at the same parse? Reads and
// summarizes one file (a class's only file of `I`-named requests) with a
// FeatureCollector, 4 rounds, on this thread, in a Worker, or both at once.
//
//   npm run build
//   node bench/worker-alone.mjs FILE [main|worker|both]     (default: main then worker)
//
// Prints each round's read and finishClass (summarize) times in ms, per thread.
import { statSync } from 'node:fs';
import { isMainThread, Worker, workerData } from 'node:worker_threads';

const ROUNDS = 4;

async function rounds(path, who) {
  const { readClass } = await import('../dist/parse/reader.js');
  const { FeatureCollector } = await import('../dist/features/collector.js');
  const file = { path, relativePath: 'requests.dlog', gzip: false, size: statSync(path).size };
  const reads = [];
  const finishes = [];
  for (let r = 0; r < ROUNDS; r++) {
    const c = new FeatureCollector(true);
    let t = performance.now();
    await readClass([file], 'bad', c.sink(() => undefined), { strict: false });
    reads.push(performance.now() - t);
    t = performance.now();
    c.finishClass();
    finishes.push(performance.now() - t);
  }
  const ms = (xs) => xs.map((x) => x.toFixed(0)).join(' ');
  process.stdout.write(`${who.padEnd(6)} read ${ms(reads)}  summarize ${ms(finishes)}\n`);
}

function inWorker(path) {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { path } });
    w.on('exit', resolve);
    w.on('error', reject);
  });
}

if (!isMainThread) {
  await rounds(workerData.path, 'worker');
} else {
  const [path, mode] = process.argv.slice(2);
  if (path === undefined) {
    process.stderr.write('usage: node bench/worker-alone.mjs FILE [main|worker|both]\n');
    process.exit(2);
  }
  if (mode === 'both') await Promise.all([rounds(path, 'main'), inWorker(path)]);
  else {
    if (mode !== 'worker') await rounds(path, 'main');
    if (mode !== 'main') await inWorker(path);
  }
}
