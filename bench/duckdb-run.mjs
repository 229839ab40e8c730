#!/usr/bin/env node
// Run bench/duckdb-features.sql over GOOD_DIR and BAD_DIR (its records read as
// duckdb-raw-named.sql or duckdb-raw-files.sql, as duckdb-run.py chooses) with DuckDB's own
// Node bindings (issue 17's DuckDB reference, as bench/duckdb-run.py does with
// DuckDB's Python package; the same engine and query, for a machine that
// reaches the npm registry but not the Python one).
//
//     node bench/duckdb-run.mjs GOOD_DIR BAD_DIR [THREADS]
//
//     node bench/duckdb-run.mjs --check      (exit 0: the bindings load)
//
// Prints the number of (variable, feature) rows and the five largest |t|, as
// duckdb-run.py does. Needs @duckdb/node-api where Node finds it: the bench
// installs it in bench/.duckdb (git-ignored; DUCKDB_NODE_API names another
// folder holding node_modules/@duckdb/node-api). distalyze never uses DuckDB.
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [good, bad, threadsArg] = process.argv.slice(2);
const check = good === '--check';
if (!check && (good === undefined || bad === undefined)) {
  console.error('usage: node bench/duckdb-run.mjs GOOD_DIR BAD_DIR [THREADS]');
  process.exit(2);
}
const threads = threadsArg === undefined ? 2 : Number(threadsArg);
const folder = process.env.DUCKDB_NODE_API ?? join(here, '.duckdb');
// Resolved from that folder (not from bench/, which has no node_modules of its own).
let entry;
try {
  entry = createRequire(join(folder, 'package.json')).resolve('@duckdb/node-api');
} catch {
  console.error(`duckdb-run: @duckdb/node-api is not installed in ${folder} (npm install --prefix ${folder} @duckdb/node-api; npm run bench does it)`);
  process.exit(3);
}
const { DuckDBInstance } = await import(pathToFileURL(entry).href);
if (check) {
  // The bench asks whether the bindings are installed and load: one query, then stop.
  await (await (await DuckDBInstance.create(':memory:')).connect()).run('SELECT 1');
  process.exit(0);
}

// Records read as duckdb-raw-named.sql does if any file names instances (an `I` record in its first 64 KB, as
// bench/reference.py decides), else as duckdb-raw-files.sql (one instance per file).
const filesOf = (root) => (statSync(root).isFile() ? [root] : readdirSync(root, { recursive: true }).map((f) => join(root, f)).filter((f) => statSync(f).isFile()));
const namesInstances = (path) => {
  const fd = openSync(path, 'r');
  const head = Buffer.alloc(1 << 16);
  const n = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const text = head.subarray(0, n).toString('latin1');
  return text.startsWith('I\t') || text.includes('\nI\t');
};
const named = [good, bad].some((d) => filesOf(d).some(namesInstances));
const raw = readFileSync(join(here, named ? 'duckdb-raw-named.sql' : 'duckdb-raw-files.sql'), 'utf8')
  .split('\n').filter((l) => !l.startsWith('--')).join('\n').trim();
const glob = (d) => (statSync(d).isFile() ? d : join(d, '**', '*')).replaceAll("'", "''");
const sql = readFileSync(join(here, 'duckdb-features.sql'), 'utf8').replace('WITH {raw},', () => `WITH ${raw},`)
  .replaceAll('{good}', () => glob(good)).replaceAll('{bad}', () => glob(bad));
const db = await DuckDBInstance.create(':memory:', { threads: String(threads) });
const con = await db.connect();
const rows = (await con.runAndReadAll(sql)).getRows();
const num = (x) => (x === null ? null : Number(x));
const finite = rows.filter((r) => num(r[5]) !== null && Number.isFinite(num(r[5])));
console.log(`${rows.length} (variable, feature) rows; ${finite.length} with a finite t`);
const g = (x) => Number(x.toPrecision(6)).toString();
for (const r of finite.sort((a, b) => Math.abs(num(b[5])) - Math.abs(num(a[5]))).slice(0, 5)) {
  const t = num(r[5]);
  console.log(`  ${r[1]} ${r[0]} ${r[2]}: good ${g(num(r[3]))} bad ${g(num(r[4]))} t ${t >= 0 ? '+' : ''}${t.toFixed(4)}`);
}
