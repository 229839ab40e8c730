#!/usr/bin/env node
// Byte-identity check: `--json -` of a reference build against this build, on
// input pairs, for -j1, -j2 and --two-pass (and -j2 --two-pass).
//
//   node bench/identical.mjs REF_ROOT GOOD BAD [-- extra options] [GOOD BAD ...]
//
// REF_ROOT is a checkout whose bin/distalyze.js and dist/ are the reference
// (e.g. main built in a temporary directory). Exit 1 on any difference.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [ref, ...rest] = process.argv.slice(2);
if (ref === undefined || rest.length < 2) {
  process.stderr.write('usage: node bench/identical.mjs REF_ROOT GOOD BAD [GOOD BAD ...] [-- options]\n');
  process.exit(2);
}
const dash = rest.indexOf('--');
const pairs = dash < 0 ? rest : rest.slice(0, dash);
const extra = dash < 0 ? [] : rest.slice(dash + 1);
const VARIANTS = [['--jobs', '1'], ['--jobs', '2'], ['--jobs', '1', '--two-pass'], ['--jobs', '2', '--two-pass']];

function run(root, args) {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'distalyze.js'), ...args, '--quiet', '--json', '-'], { maxBuffer: 1 << 30 });
  return { status: r.status, hash: createHash('sha1').update(r.stdout).digest('hex').slice(0, 12), bytes: r.stdout.length, stderr: String(r.stderr).trim().split('\n')[0] };
}

let bad = 0;
for (let p = 0; p + 1 < pairs.length; p += 2) {
  const input = [pairs[p], pairs[p + 1], ...extra];
  const want = run(ref, [...input, '--jobs', '1']);
  for (const v of VARIANTS) {
    const got = run(ROOT, [...input, ...v]);
    const same = got.status === want.status && got.hash === want.hash;
    if (!same) bad++;
    process.stdout.write(`${same ? 'same' : 'DIFF'}  ${input.join(' ')} ${v.join(' ')}  (${got.bytes} B, exit ${got.status}; reference ${want.bytes} B, exit ${want.status})${same ? '' : `  ${got.stderr} | ${want.stderr}`}\n`);
  }
}
process.exit(bad > 0 ? 1 : 0);
