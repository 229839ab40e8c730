#!/usr/bin/env node
// A change's effect on the parse stage: a reference checkout and this one, run
// in alternating pairs on one set (whole-process runs, `--timings`), so that
// both see the same moments of a noisy machine. Prints each side's parse times
// (ms), their median, and the median process CPU (user + system, through
// /usr/bin/time when it is there), then the ratio this / reference.
//
//   node bench/ab-parse.mjs REF_ROOT SET_DIR [--jobs N] [--rounds R]
//
// REF_ROOT: a checkout whose bin/distalyze.js and dist/ are the reference
// (e.g. `git clone -q . /tmp/base && cd /tmp/base && git checkout OLD && npm ci`).
// SET_DIR: a directory with good/ and bad/ (bench/data/… from `npm run bench`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [value] = args.splice(at, 2).slice(1);
  return Number(value);
};
const jobs = option('--jobs', 1);
const rounds = option('--rounds', 6);
const [ref, set] = args;
if (ref === undefined || set === undefined || !(jobs >= 1) || !(rounds >= 1)) {
  process.stderr.write('usage: node bench/ab-parse.mjs REF_ROOT SET_DIR [--jobs N] [--rounds R]\n');
  process.exit(2);
}
const TIME = '/usr/bin/time';
const timed = existsSync(TIME);
const scratch = mkdtempSync(join(tmpdir(), 'distalyze-ab-'));

function run(root) {
  const cpuFile = join(scratch, 'cpu');
  const command = [join(root, 'bin/distalyze.js'), join(set, 'good'), join(set, 'bad'), '--jobs', String(jobs), '--quiet', '--json', '/dev/null', '--timings'];
  const r = timed
    ? spawnSync(TIME, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...command], { encoding: 'utf8' })
    : spawnSync(process.execPath, command, { encoding: 'utf8' });
  const parse = /"parse":(\d+)/.exec(r.stderr);
  if (r.status !== 0 || parse === null) {
    process.stderr.write(`${root}: exit ${r.status}\n${r.stderr}`);
    process.exit(1);
  }
  const cpu = timed ? readFileSync(cpuFile, 'utf8').trim().split(/\s+/).reduce((a, x) => a + Number(x), 0) * 1000 : NaN;
  return { parse: Number(parse[1]), cpu };
}

const sides = { reference: [], this: [] };
try {
  for (let r = 0; r < rounds; r++) {
    sides.reference.push(run(resolve(ref)));
    sides.this.push(run(ROOT));
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const summary = {};
for (const [name, runs] of Object.entries(sides)) {
  summary[name] = { parse: median(runs.map((x) => x.parse)), cpu: median(runs.map((x) => x.cpu)) };
  process.stdout.write(`${name.padEnd(9)} -j${jobs} parse ${runs.map((x) => x.parse).join(' ')}  median ${summary[name].parse}  cpu median ${Math.round(summary[name].cpu)}\n`);
}
const ratio = (k) => (summary.this[k] / summary.reference[k]).toFixed(2);
process.stdout.write(`this / reference: parse ${ratio('parse')}×${timed ? `, cpu ${ratio('cpu')}×` : ''}\n`);
