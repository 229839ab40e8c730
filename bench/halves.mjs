#!/usr/bin/env node
// Issue 17's 2-core speed-up against two processes that share nothing and do
// the same work: each reads half of each class (every other file, through
// symbolic links in a temporary directory). The bench's "two -j1 runs at
// once" gives each process the whole set, so each process's start and
// warm-up are spread over twice the data a -j2 thread reads; this pair is
// the fair yardstick for what one process's two threads could get
// (docs/performance.md, "Targets").
//
//   node bench/halves.mjs SET_DIR [--rounds R]
//
// SET_DIR: good/ and bad/ of flat files (bench/data/… from `npm run bench`).
// Each round: --jobs 1, --jobs 1 on one core (taskset, where it works),
// --jobs 2, the two halves at once (--jobs 1 each), then the machine's string
// scaling (machine-check.mjs strings). Parse-stage times from --timings; each
// speed-up is also printed over the string check's, as the bench's 2-core row.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = at < 0 ? 5 : Number(args.splice(at, 2)[1]);
const [set] = args;
if (set === undefined || !(rounds >= 1)) {
  process.stderr.write('usage: node bench/halves.mjs SET_DIR [--rounds R]\n');
  process.exit(2);
}
const pinnable = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** The parse stage of one run (ms), its process started now. */
function parse(dir, jobs, pinned = false) {
  const command = [join(ROOT, 'bin/distalyze.js'), join(dir, 'good'), join(dir, 'bad'), '--jobs', String(jobs), '--quiet', '--json', '/dev/null', '--timings'];
  const child = pinned ? spawn('taskset', ['-c', '0', process.execPath, ...command]) : spawn(process.execPath, command);
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((done, fail) => child.on('close', (code) => {
    const m = /"parse":(\d+)/.exec(stderr);
    if (code !== 0 || m === null) fail(new Error(`${dir} --jobs ${jobs}: exit ${code}\n${stderr}`));
    else done(Number(m[1]));
  }));
}

function stringScaling() {
  const r = spawnSync(process.execPath, [join(ROOT, 'bench/machine-check.mjs'), 'strings', '--rounds=3'], { encoding: 'utf8' });
  return JSON.parse(r.stdout.trim()).strings.scaling;
}


const scratch = mkdtempSync(join(tmpdir(), 'distalyze-halves-'));
const halves = ['a', 'b'].map((h) => join(scratch, h));
const rows = [];
try {
  for (const c of ['good', 'bad']) {
    const names = readdirSync(join(set, c)).filter((n) => !n.startsWith('.')).sort();
    halves.forEach((half, k) => {
      mkdirSync(join(half, c), { recursive: true });
      names.forEach((n, i) => { if (i % 2 === k) symlinkSync(resolve(set, c, n), join(half, c, n)); });
    });
  }
  for (let r = 0; r < rounds; r++) {
    process.stderr.write(`[halves] round ${r + 1}/${rounds} …\n`);
    const j1 = await parse(set, 1);
    const j1Pinned = pinnable ? await parse(set, 1, true) : Number.NaN;
    const j2 = await parse(set, 2);
    const pair = Math.max(...(await Promise.all(halves.map((h) => parse(h, 1)))));
    rows.push({ j1, j1Pinned, j2, pair, machine: stringScaling() });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
for (const x of rows) {
  process.stdout.write(`-j1 ${x.j1}  on one core ${x.j1Pinned}  -j2 ${x.j2}  halves at once ${x.pair}  (ms)  strings ${x.machine.toFixed(2)}×\n`);
}
// Above 2 the check's one-thread runs were slowed: no figure (as the bench's 2-core row).
const valid = rows.filter((x) => x.machine <= 2);
const vs = (f) => median(valid.map((x) => f(x) / x.machine)).toFixed(2);
process.stdout.write(`medians over ${valid.length} rounds, against the string check:\n` +
  `  -j2:            from -j1 ${vs((x) => x.j1 / x.j2)}, from one core ${pinnable ? vs((x) => x.j1Pinned / x.j2) : 'n/a'}\n` +
  `  halves at once: from -j1 ${vs((x) => x.j1 / x.pair)}, from one core ${pinnable ? vs((x) => x.j1Pinned / x.pair) : 'n/a'}\n` +
  `  -j2 vs halves at once (their slower one's time over -j2's): ${median(rows.map((x) => x.pair / x.j2)).toFixed(2)}\n`);
