// Many variables: a translator that puts a request id into an event name makes one
// variable per request (issue 11 item 10).
//   npm run build && node bench/variables.mjs [counts=10000,100000,1000000]
// For each count V: 8 instances (good/ 4, bad/ 4), each a dlog file of Start, V/8 events
// `req-<id>` with ids unique across all files, and Finish (bad instances take longer).
// Runs `node bin/distalyze.js good bad --quiet --timings --json /dev/null` on them and prints
// wall time, peak RSS (from /usr/bin/time when present) and the exit code. Files go
// under bench/data/variables-V (git-ignored), generated once.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const counts = (process.argv[2] ?? '10000,100000,1000000').split(',').map(Number);

function generate(V) {
  const dir = join(root, 'bench', 'data', `variables-${V}`);
  if (existsSync(join(dir, 'done'))) return dir;
  const per = Math.ceil(V / 8);
  let id = 0;
  for (let i = 0; i < 8; i++) {
    const cls = i < 4 ? 'good' : 'bad';
    mkdirSync(join(dir, cls), { recursive: true });
    const lines = [];
    let t = 1_700_000_000 + i * 10_000;
    lines.push(`E\t${t.toFixed(6)}\tStart`);
    const step = (cls === 'bad' ? 2e-3 : 1e-3) * (1 + (i % 4) * 0.1);
    for (let k = 0; k < per && id < V; k++) {
      t += step;
      lines.push(`E\t${t.toFixed(6)}\treq-${String(id++).padStart(7, '0')}`);
    }
    t += step;
    lines.push(`E\t${t.toFixed(6)}\tFinish`);
    writeFileSync(join(dir, cls, `node-${i}.dlog`), `${lines.join('\n')}\n`);
  }
  writeFileSync(join(dir, 'done'), '');
  return dir;
}

const hasTime = existsSync('/usr/bin/time');
console.log('| variables | input | wall | peak RSS | exit | stages (ms) |');
console.log('|---:|---:|---:|---:|---:|---|');
for (const V of counts) {
  const dir = generate(V);
  const size = Number(execFileSync('du', ['-sk', dir]).toString().split('\t')[0]) * 1024;
  const args = ['bin/distalyze.js', join(dir, 'good'), join(dir, 'bad'), '--quiet', '--timings', '--json', '/dev/null'];
  const t0 = Date.now();
  const run = hasTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 })
    : spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = (Date.now() - t0) / 1000;
  const errLines = run.stderr.trim().split('\n');
  const rss = hasTime ? `${(Number(errLines.at(-1)) / 1024).toFixed(0)} MB` : '?';
  const stats = errLines.find((l) => l.startsWith('{"stages"'));
  const timings = stats ? Object.entries(JSON.parse(stats).stages).map(([k, v]) => `${k} ${v}`).join(', ') : '';
  const error = run.status !== 0 && run.status !== 1 ? ` — ${errLines.find((l) => l.startsWith('distalyze:')) ?? errLines.filter((l) => !/^\d+$/.test(l)).slice(-1)[0] ?? ''}` : '';
  console.log(`| ${V.toLocaleString('en')} | ${(size / 1e6).toFixed(1)} MB | ${wall.toFixed(1)} s | ${rss} | ${run.status}${error} | ${timings} |`);
}
