#!/usr/bin/env node
// Many small CSV tables, one run each (the shape of the small-CSV
// measurement behind docs/internals.md, "Reading"): FILES files per class of 40 rows
// (kind,timestamp,name,value), events and one state; the bad class's 21st
// record comes later. Deterministic (a fixed seed).
//
//   node bench/small-tables.mjs DIR [FILES]     (FILES: 3000 by default)
//   node bench/ab-parse.mjs REF_ROOT DIR --jobs 1 then time it against a reference build
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, filesArg = '3000'] = process.argv.slice(2);
if (dir === undefined) {
  process.stderr.write('usage: node bench/small-tables.mjs DIR [FILES]\n');
  process.exit(2);
}
const files = Number(filesArg);
let seed = 2;
/** A deterministic uniform [0, 1) (mulberry32). */
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
for (const cls of ['good', 'bad']) {
  mkdirSync(join(dir, cls), { recursive: true });
  for (let f = 0; f < files; f++) {
    let t = 1700000000 + f;
    const rows = ['kind,timestamp,name,value'];
    for (let i = 0; i < 40; i++) {
      t += random() * 0.01 * (cls === 'bad' && i === 20 ? 3 : 1);
      rows.push(i % 2 === 0 ? `E,${t.toFixed(6)},step${i % 5},` : `S,${t.toFixed(6)},queue,${Math.floor(random() * 51)}`);
    }
    writeFileSync(join(dir, cls, `run-${String(f).padStart(5, '0')}.csv`), `${rows.join('\n')}\n`);
  }
}
process.stdout.write(`${2 * files} files in ${dir}\n`);
