// Summarise a V8 CPU profile: the functions with the most self time.
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bin/distalyze.js GOOD BAD --quiet --jobs 1
//   node bench/profile-top.mjs /tmp/prof [N=25]       (a .cpuprofile file or a directory of them)
//
// With --jobs > 1 each worker thread writes its own profile; a directory
// argument sums them all (pass one file to see one thread). Prints self time
// per function (name, file:line), its share, and the inclusive ("total") time.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const arg = process.argv[2];
if (arg === undefined) {
  process.stderr.write('usage: node bench/profile-top.mjs PROFILE.cpuprofile|DIR [N]\n');
  process.exit(2);
}
const top = Number(process.argv[3] ?? 25);
const files = statSync(arg).isDirectory()
  ? readdirSync(arg).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(arg, f))
  : [arg];

const self = new Map();
const total = new Map();
let all = 0;
for (const file of files) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const hits = new Map();
  for (let i = 0; i < p.samples.length; i++) hits.set(p.samples[i], (hits.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  const key = (n) => {
    const cf = n.callFrame;
    const where = cf.url ? `${cf.url.replace(/^file:\/\//, '').split('/').slice(-3).join('/')}:${cf.lineNumber + 1}` : '';
    return `${cf.functionName || '(anonymous)'} ${where}`.trim();
  };
  for (const [id, us] of hits) {
    const n = byId.get(id);
    self.set(key(n), (self.get(key(n)) ?? 0) + us);
    all += us;
    // inclusive: every distinct function on the stack
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur));
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + us);
    }
  }
}
process.stdout.write(`${files.length} profile(s), ${(all / 1e6).toFixed(2)} s sampled\n`);
process.stdout.write(`${'self ms'.padStart(9)} ${'self %'.padStart(7)} ${'total ms'.padStart(9)}  function\n`);
for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  process.stdout.write(`${(us / 1000).toFixed(0).padStart(9)} ${((100 * us) / all).toFixed(1).padStart(6)}% ${((total.get(k) ?? 0) / 1000).toFixed(0).padStart(9)}  ${k}\n`);
}
