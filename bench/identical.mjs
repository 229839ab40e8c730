#!/usr/bin/env node
// Byte-identity check: `--json -` of a reference build against this build, on
// input pairs, for -j1, -j2 and --two-pass (and -j2 --two-pass).
//
//   node bench/identical.mjs [--numbers REL] REF_ROOT GOOD BAD [GOOD BAD ...] [-- extra options]
//
// REF_ROOT is a checkout whose bin/distalyze.js and dist/ are the reference
// (e.g. main built in a temporary directory). Exit 1 on any difference.
// With --numbers REL, outputs that differ in bytes are compared as JSON:
// "close" when every value is equal but numbers, and those within a relative
// REL (a change of summation order, say); their count and largest relative
// difference are printed, and the first few other differences.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const numbersAt = argv.indexOf('--numbers');
const tolerance = numbersAt === 0 ? Number(argv[1]) : null;
const [ref, ...rest] = numbersAt === 0 ? argv.slice(2) : argv;
if (ref === undefined || rest.length < 2 || (tolerance !== null && !(tolerance >= 0))) {
  process.stderr.write('usage: node bench/identical.mjs [--numbers REL] REF_ROOT GOOD BAD [GOOD BAD ...] [-- options]\n');
  process.exit(2);
}
const dash = rest.indexOf('--');
const pairs = dash < 0 ? rest : rest.slice(0, dash);
const extra = dash < 0 ? [] : rest.slice(dash + 1);
const VARIANTS = [['--jobs', '1'], ['--jobs', '2'], ['--jobs', '1', '--two-pass'], ['--jobs', '2', '--two-pass']];

function run(root, args) {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'distalyze.js'), ...args, '--quiet', '--json', '-'], { maxBuffer: 1 << 30 });
  return { status: r.status, stdout: r.stdout, hash: createHash('sha1').update(r.stdout).digest('hex').slice(0, 12), bytes: r.stdout.length, stderr: String(r.stderr).trim().split('\n')[0] };
}

/** Numbers within `rel` of each other, and every other value equal: { close, numbers, maxRel, others }. */
function compareJson(a, b, rel) {
  const out = { numbers: 0, maxRel: 0, others: [] };
  const walk = (x, y, path) => {
    if (typeof x === 'number' && typeof y === 'number' && x !== y) {
      const d = Math.abs(x - y) / Math.max(Math.abs(x), Math.abs(y));
      if (d <= rel) {
        out.numbers++;
        out.maxRel = Math.max(out.maxRel, d);
        return;
      }
    }
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') {
      if (x !== y) out.others.push(`${path}: ${JSON.stringify(x)} | ${JSON.stringify(y)}`.slice(0, 200));
      return;
    }
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) walk(x[k], y[k], `${path}.${k}`);
  };
  walk(a, b, '');
  return { close: out.others.length === 0, ...out };
}

let bad = 0;
for (let p = 0; p + 1 < pairs.length; p += 2) {
  const input = [pairs[p], pairs[p + 1], ...extra];
  const want = run(ref, [...input, '--jobs', '1']);
  for (const v of VARIANTS) {
    const got = run(ROOT, [...input, ...v]);
    const same = got.status === want.status && got.hash === want.hash;
    let verdict = same ? 'same' : 'DIFF';
    let detail = same ? '' : `  ${got.stderr} | ${want.stderr}`;
    if (!same && tolerance !== null && got.status === want.status && got.status === 0) {
      const c = compareJson(JSON.parse(String(got.stdout)), JSON.parse(String(want.stdout)), tolerance);
      if (c.close) [verdict, detail] = ['close', `  ${c.numbers} numbers within ${tolerance} (largest ${c.maxRel.toExponential(2)})`];
      else detail = `  ${c.others.length} other differences, first: ${c.others.slice(0, 3).join('; ')}`;
    }
    if (verdict === 'DIFF') bad++;
    process.stdout.write(`${verdict}  ${input.join(' ')} ${v.join(' ')}  (${got.bytes} B, exit ${got.status}; reference ${want.bytes} B, exit ${want.status})${detail}\n`);
  }
}
process.exit(bad > 0 ? 1 : 0);
