#!/usr/bin/env node
// distalyze benchmark (issue 6: fast on gigabytes, a million instances).
//
//   npm run build && npm run bench
//
// Generates large synthetic sets once (cached in bench/data/, keyed by their
// parameters), then measures on the same files, in the same run:
//   wc -l            the machine's floor for reading them,
//   node line loop   the language's floor (bench/line-loop.mjs: 64 KB chunks
//                    split into line strings, nothing else),
//   distalyze -jN    the full analysis, --jobs 1 and --jobs 2 (BENCH_JOBS),
//                    and on the dlog, few and small sets two --jobs 1 runs at
//                    once (how this machine scales distalyze's own parsing,
//                    nothing shared),
// and prints every figure as a ratio against those references, beside the
// targets of issue 6. Results go to bench/results/latest.json.
// See bench/README.md for the environment variables and what each figure means.
//
// Plain Node ESM, no dependencies. Measurements assume a warm page cache
// (each set is read once, untimed, before it is measured).

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createGzip } from 'node:zlib';
import { GENERATOR_VERSION, dlogJobs, log4jJobs, requestJobs } from './generate.mjs';
import { median } from './median.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const DATA = join(BENCH, 'data');
/** The executable measured: this checkout's, or BENCH_CLI (another build, for before/after tables). */
const CLI = process.env.BENCH_CLI ? resolve(process.env.BENCH_CLI) : join(ROOT, 'bin', 'distalyze.js');

// ---------------------------------------------------------------------------
// Parameters

const env = (name, fallback) => (process.env[name] !== undefined && process.env[name] !== '' ? process.env[name] : fallback);
const num = (name, fallback) => {
  const x = Number(env(name, fallback));
  if (!Number.isFinite(x) || x <= 0) throw new Error(`${name}=${process.env[name]}: not a positive number`);
  return x;
};

const P = {
  gb: num('BENCH_GB', 1),
  instances: Math.round(num('BENCH_INSTANCES', 1000)),
  requests: Math.round(num('BENCH_REQUESTS', 1_000_000)),
  requestFiles: Math.round(num('BENCH_REQUEST_FILES', 20)),
  log4jMB: num('BENCH_LOG4J_MB', 300),
  log4jFiles: Math.round(num('BENCH_LOG4J_FILES', 100)),
  smallFiles: Math.round(num('BENCH_SMALL_FILES', 10_000)),
  fewGB: num('BENCH_FEW_GB', 2),
  fewFiles: Math.round(num('BENCH_FEW_FILES', 4)),
  smallMB: num('BENCH_SMALL_MB', 120),
  seed: Math.round(num('BENCH_SEED', 1)),
  sets: env('BENCH_SETS', 'dlog,requests,log4j').split(',').map((s) => s.trim()).filter(Boolean),
  jobs: env('BENCH_JOBS', '1,2').split(',').map((s) => Number(s.trim())),
  repeat: Math.round(num('BENCH_REPEAT', 1)),
  refRepeat: Math.round(num('BENCH_REF_REPEAT', 3)),
  timeoutS: num('BENCH_TIMEOUT_S', 1800),
  translator: env('BENCH_LOG4J_TRANSLATOR', join(ROOT, 'examples', 'log4j', 'log4j.yaml')),
  generateOnly: env('BENCH_GENERATE_ONLY', '') === '1',
  out: env('BENCH_OUT', join(BENCH, 'results', 'latest.json')),
  extraArgs: env('BENCH_ARGS', '').split(' ').filter(Boolean),
  refs: env('BENCH_REFS', 'dlog,small').split(',').map((s) => s.trim()).filter((s) => s !== '' && s !== 'none'),
  python: env('BENCH_PYTHON', ''),
};
const SET_NAMES = ['dlog', 'few', 'few-gz', 'requests', 'requests-hashed', 'requests-files', 'small', 'log4j', 'log4j-raw'];
for (const s of P.sets) if (!SET_NAMES.includes(s)) throw new Error(`BENCH_SETS: unknown set '${s}' (${SET_NAMES.join(', ')})`);
for (const j of P.jobs) if (!(Number.isInteger(j) && j >= 1)) throw new Error(`BENCH_JOBS: '${j}' is not a whole number ≥ 1`);

/** Issue 6's targets. */
const TARGETS = {
  dlogParseVsLoop: 0.25, // dlog parse throughput ≥ 25 % of the bare Node loop, 1 core
  speedup2: 1.8, // "near-linear" speed-up from 1 to 2 cores (our reading: ≥ 1.8×)
  dnSeconds: 30, // dependency networks + attention on 1 000 000 instances
  rulesMBps: 100, // rules translator over log4j text on 2 cores
  rssMB: 1500, // peak RSS for 5 GB / 1 000 instances (MB = 10^6 bytes)
};

/** Issue 17's targets. */
const TARGETS17 = {
  vsPython: 10, // end to end, wall: ≥ 10× the Python reference
  cpuVsDuckdb: 0.5, // cpu ≤ half of the DuckDB query's
  parseVsLoopPerCore: 0.5, // parse + collect ≥ 50 % of the node line loop per core
  scalingVsMachine: 0.9, // 2-core parse speed-up within 10 % of the machine's string-parsing scaling
  requestsVsLoop: 0.25, // 1 M request instances, parse ≥ 25 % of the line loop
  dnSeconds: 10, // DN + attention on 200 k instances × 23 variables
  rssJ2VsJ1: 1.3, // -j2 peak RSS with I records ≤ 1.3 × -j1's
  rssMB: 1500, // "5 GB in < 1.5 GB RSS", read on every set at its own size
};

/** The sets whose 2-core parse speed-up is held against the machine's, measured beside each round (sameMoment). */
const SAME_MOMENT_SETS = ['dlog', 'few', 'small'];
/** Best of this many 1- and 2-thread string-parsing runs, beside each round (~2.5 s). */
const SAME_MOMENT_CHECK_ROUNDS = 3;

const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

// ---------------------------------------------------------------------------
// Generation (cached)

/** A short hash of the generators' source: editing them invalidates the cache. */
function generatorHash() {
  const h = createHash('sha1');
  h.update(String(GENERATOR_VERSION));
  for (const f of [join(BENCH, 'generate.mjs'), join(ROOT, 'fixtures', 'generate.mjs')]) h.update(readFileSync(f));
  return h.digest('hex').slice(0, 8);
}

function setSpecs() {
  const g = generatorHash();
  const specs = {
    dlog: {
      name: 'dlog',
      title: `dlog, ${P.instances} instances (one file each)`,
      dir: `dlog-${P.gb}GB-${P.instances}i-s${P.seed}-${g}`,
      jobs: (root) => dlogJobs(root, { bytes: P.gb * 1e9, instances: P.instances, seed: P.seed }),
      args: [],
    },
    few: {
      name: 'few',
      title: `dlog, a few large runs (${P.fewFiles} files of one instance each)`,
      dir: `dlog-${P.fewGB}GB-${P.fewFiles}i-s${P.seed}-${g}`,
      jobs: (root) => dlogJobs(root, { bytes: P.fewGB * 1e9, instances: P.fewFiles, seed: P.seed }),
      args: [],
    },
    // The few set's files gzipped (gzip's default level): compressed runs, whose ends are found by decompressing them.
    'few-gz': {
      name: 'few-gz',
      title: `dlog, a few large runs, gzipped (${P.fewFiles} .dlog.gz files of one instance each)`,
      dir: `dlog-${P.fewGB}GB-${P.fewFiles}i-s${P.seed}-${g}-gz`,
      compressedFrom: 'few',
      args: [],
    },
    requests: {
      name: 'requests',
      title: `dlog, ${P.requests} request instances (one file per class)`,
      dir: `requests-${P.requests}-s${P.seed}-${g}`,
      jobs: (root) => requestJobs(root, { requests: P.requests, seed: P.seed + 100 }),
      args: [],
    },
    'requests-hashed': {
      name: 'requests-hashed',
      title: `dlog, ${P.requests} request instances (one file per class), ids not in order`,
      dir: `requests-hashed-${P.requests}-s${P.seed}-${g}`,
      jobs: (root) => requestJobs(root, { requests: P.requests, seed: P.seed + 100, hashedIds: true }),
      args: [],
    },
    'requests-files': {
      name: 'requests-files',
      title: `dlog, ${P.requests} request instances in ${P.requestFiles} files per class (a rotated log)`,
      dir: `requests-files-${P.requests}-${P.requestFiles}f-s${P.seed}-${g}`,
      jobs: (root) => requestJobs(root, { requests: P.requests, seed: P.seed + 100, files: P.requestFiles }),
      args: [],
    },
    small: {
      name: 'small',
      title: `dlog, ${P.smallFiles} small files (one instance each)`,
      dir: `small-${P.smallMB}MB-${P.smallFiles}f-s${P.seed}-${g}`,
      jobs: (root) => dlogJobs(root, { bytes: P.smallMB * 1e6, instances: P.smallFiles, seed: P.seed + 300 }),
      args: [],
    },
    log4j: {
      name: 'log4j',
      title: `log4j text, ${P.log4jFiles} files, rules translator ${relative(ROOT, P.translator)}`,
      dir: `log4j-${P.log4jMB}MB-${P.log4jFiles}f-s${P.seed}-${g}`,
      jobs: (root) => log4jJobs(root, { bytes: P.log4jMB * 1e6, files: P.log4jFiles, seed: P.seed + 200 }),
      args: ['--translator', P.translator],
    },
    // The log4j set's files with no translator: templates mined from them (docs/input.md, "Raw logs, no translator").
    'log4j-raw': {
      name: 'log4j-raw',
      title: `log4j text, ${P.log4jFiles} files, no translator (templates mined)`,
      dir: `log4j-${P.log4jMB}MB-${P.log4jFiles}f-s${P.seed}-${g}`,
      jobs: (root) => log4jJobs(root, { bytes: P.log4jMB * 1e6, files: P.log4jFiles, seed: P.seed + 200 }),
      args: [],
    },
  };
  return P.sets.map((s) => ({ ...specs[s], ...(specs[s].compressedFrom !== undefined ? { plain: specs[specs[s].compressedFrom] } : {}) }));
}

/** A set whose files are another set's gzipped (spec.plain), made from that one (generated first if need be). */
async function ensureCompressedSet(spec) {
  const dir = join(DATA, spec.dir);
  const manifestPath = join(dir, 'manifest.json');
  const plain = await ensureSet(spec.plain);
  if (existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, 'utf8'));
    log(`${spec.name}: cached ${relative(ROOT, dir)} (${fmtBytes(m.compressedBytes)} compressed, ${m.files.length} files)`);
    return { dir, ...m, plain };
  }
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const t0 = performance.now();
  log(`${spec.name}: gzipping ${plain.files.length} files of ${relative(ROOT, plain.dir)} into ${relative(ROOT, dir)} …`);
  const queue = [...plain.files];
  // zlib compresses on libuv's threads: a few files at once.
  await Promise.all(Array.from({ length: Math.min(os.availableParallelism(), queue.length) }, async () => {
    for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
      mkdirSync(dirname(join(tmp, f)), { recursive: true });
      await pipeline(createReadStream(join(plain.dir, f)), createGzip(), createWriteStream(join(tmp, `${f}.gz`)));
    }
  }));
  const files = plain.files.map((f) => `${f}.gz`);
  const fileBytes = files.map((f) => statSync(join(tmp, f)).size);
  const manifest = {
    params: spec.dir,
    generatedMs: Math.round(performance.now() - t0),
    // What they decompress to (the plain set's), so that throughputs compare with it.
    bytes: plain.bytes,
    lines: plain.lines,
    files,
    fileBytes,
    compressedBytes: fileBytes.reduce((a, b) => a + b, 0),
  };
  writeFileSync(join(tmp, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  log(`${spec.name}: wrote ${fmtBytes(manifest.compressedBytes)} in ${(manifest.generatedMs / 1000).toFixed(1)} s`);
  return { dir, ...manifest, plain };
}

/** Runs `jobs` on a pool of worker threads (bench/generate.mjs), largest first. */
async function runGenerators(jobs, threads) {
  const queue = [...jobs].sort((a, b) => (b.rounds ?? b.count ?? b.cycles ?? 0) - (a.rounds ?? a.count ?? a.cycles ?? 0));
  const results = [];
  const workerUrl = new URL('./generate.mjs', import.meta.url);
  await Promise.all(Array.from({ length: Math.min(threads, queue.length) }, () => new Promise((resolveWorker, reject) => {
    const w = new Worker(workerUrl, { workerData: { benchGenerator: true } });
    const next = () => w.postMessage(queue.length > 0 ? queue.shift() : null);
    w.on('message', (r) => { results.push(r); next(); });
    w.on('error', reject);
    w.on('exit', () => resolveWorker());
    next();
  })));
  return results;
}

/** The set's directory with good/ and bad/, generated unless already there. */
async function ensureSet(spec) {
  const dir = join(DATA, spec.dir);
  const manifestPath = join(dir, 'manifest.json');
  if (existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, 'utf8'));
    log(`${spec.name}: cached ${relative(ROOT, dir)} (${fmtBytes(m.bytes)}, ${m.files.length} files)`);
    return { dir, ...m };
  }
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const t0 = performance.now();
  const jobs = spec.jobs(tmp);
  log(`${spec.name}: generating ${jobs.length} files in ${relative(ROOT, dir)} …`);
  const results = await runGenerators(jobs, os.availableParallelism());
  const ms = performance.now() - t0;
  const byPath = new Map(results.map((r) => [r.path, r]));
  const files = jobs.map((j) => relative(tmp, j.path));
  const bytes = results.reduce((s, r) => s + r.bytes, 0);
  const lines = results.reduce((s, r) => s + r.lines, 0);
  const manifest = {
    params: spec.dir,
    generatedMs: Math.round(ms),
    bytes,
    lines,
    files,
    fileBytes: jobs.map((j) => byPath.get(j.path).bytes),
  };
  writeFileSync(join(tmp, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  log(`${spec.name}: wrote ${fmtBytes(bytes)}, ${fmtCount(lines)} lines in ${(ms / 1000).toFixed(1)} s (${(bytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s)`);
  return { dir, ...manifest };
}

// ---------------------------------------------------------------------------
// Measurements

const HAS_TIME = existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-v', 'true']).status === 0;
/**
 * `taskset`, to run `--jobs 1` on one core (the 2-core rows' "from one core"): unpinned on two cores, `--jobs 1`
 * uses more than one (a large file read ahead on libuv's pool, V8's compiling and marking on its own threads),
 * where the machine check's one thread uses one.
 */
const HAS_TASKSET = os.cpus().length >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/**
 * Runs a command (under /usr/bin/time -v when present); resolves with wall
 * time, CPU time (user + system, all threads), peak RSS, the 1-minute load
 * average before it started (other work on the machine skews wall times),
 * exit status, stdout and stderr.
 */
function timed(cmd, args, { timeoutS = P.timeoutS } = {}) {
  if (HAS_TIME) [cmd, args] = ['/usr/bin/time', ['-v', cmd, ...args]];
  const load = os.loadavg()[0];
  return new Promise((resolveRun, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    }, timeoutS * 1000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      const field = (label) => {
        const m = new RegExp(`${label}: ([\\d.]+)`).exec(stderr);
        return m === null ? NaN : Number(m[1]);
      };
      const exit = field('Exit status');
      resolveRun({
        ms: Number(process.hrtime.bigint() - t0) / 1e6,
        cpuMs: (field('User time \\(seconds\\)') + field('System time \\(seconds\\)')) * 1000,
        rssMB: (field('Maximum resident set size \\(kbytes\\)') * 1024) / 1e6,
        // Each a 4 KB page mapped (and zeroed) on its first write: memory written for the first time.
        pageFaults: field('Minor \\(reclaiming a frame\\) page faults'),
        load,
        code: HAS_TIME && code !== 0 && Number.isFinite(exit) ? exit : code,
        signal,
        timedOut,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr,
      });
    });
  });
}

const best = (runs) => runs.reduce((a, b) => (b.ms < a.ms ? b : a));

/** wc -l over the files named (NUL-separated) in `namesFile`. */
async function measureWc(namesFile) {
  const runs = [];
  for (let i = 0; i < P.refRepeat; i++) {
    const r = await timed('wc', ['-l', `--files0-from=${namesFile}`]);
    if (r.code !== 0) throw new Error(`wc -l failed: ${r.stderr}`);
    const last = r.stdout.trim().split('\n').at(-1).trim();
    runs.push({ ms: r.ms, cpuMs: r.cpuMs, load: r.load, lines: Number(last.split(/\s+/)[0]) });
  }
  return best(runs);
}

/** The node line loop over the set's files (`sync`: its reads synchronous, as distalyze's; see bench/line-loop.mjs). */
async function measureLoop(listFile, sync = false) {
  const runs = [];
  for (let i = 0; i < P.refRepeat; i++) {
    const r = await timed(process.execPath, [join(BENCH, 'line-loop.mjs'), listFile, ...(sync ? ['--sync'] : [])]);
    if (r.code !== 0) throw new Error(`line loop failed: ${r.stderr}`);
    const j = JSON.parse(r.stdout.trim());
    runs.push({ ms: r.ms, cpuMs: r.cpuMs, load: r.load, innerMs: j.ms, lines: j.lines, bytes: j.bytes });
  }
  return best(runs);
}

/** A reference program: `command` is REFERENCES.python or REFERENCES.duckdb ({ program, args }). */
async function measureRef(spec, name, command, args) {
  const r = await timed(command.program, [...command.args, ...args]);
  if (r.code !== 0) {
    log(`${spec.name}: ${name} reference failed: ${r.stderr.split('\n').filter((l) => l.trim() && !/^\s/.test(l)).slice(-1)[0] ?? ''}`);
    return { ok: false };
  }
  return { ok: true, ms: r.ms, cpuMs: r.cpuMs, rssMB: r.rssMB, load: r.load, out: r.stdout.trim() };
}

/** DuckDB's Node bindings for the DuckDB reference (bench/duckdb-run.mjs), pinned: the same engine on every machine. */
const DUCKDB_NODE_API = '@duckdb/node-api@1.5.6-r.1';

/**
 * The programs of the two references, each found on its own (either may be
 * missing; a missing one is skipped and said so):
 * - python: bench/reference.py under BENCH_PYTHON, else bench/.venv (created
 *   on first use with numpy, pandas, scipy and scikit-learn from the Python
 *   registry, with the system's packages visible), else python3 if it has them;
 * - duckdb: bench/duckdb-run.py under that Python if it has duckdb, else
 *   bench/duckdb-run.mjs with DuckDB's Node bindings, installed in
 *   bench/.duckdb from the npm registry on first use.
 * The bench only: distalyze itself uses neither Python nor DuckDB.
 */
function findReferences() {
  if (P.generateOnly || P.refs.length === 0) return { python: null, duckdb: null };
  const has = (py, modules) => spawnSync(py, ['-c', `import ${modules}`], { stdio: 'ignore' }).status === 0;
  const ANALYSIS = 'numpy, pandas, scipy, sklearn';
  let py = null;
  if (P.python !== '') {
    if (has(P.python, ANALYSIS)) py = P.python;
    else log(`BENCH_PYTHON=${P.python} lacks numpy/pandas/scipy/scikit-learn: the Python reference is skipped`);
  } else {
    const venv = join(BENCH, '.venv');
    const inVenv = join(venv, 'bin', 'python');
    if (existsSync(inVenv) && has(inVenv, ANALYSIS)) py = inVenv;
    else if (has('python3', ANALYSIS)) py = 'python3';
    else {
      log('creating bench/.venv for the Python reference (numpy pandas scipy scikit-learn duckdb) …');
      const mk = spawnSync('python3', ['-m', 'venv', '--system-site-packages', venv], { stdio: 'inherit' });
      // duckdb too, for duckdb-run.py; without it the Node bindings serve (below).
      if (mk.status === 0) spawnSync(inVenv, ['-m', 'pip', 'install', '-q', 'numpy', 'pandas', 'scipy', 'scikit-learn', 'duckdb'], { stdio: 'inherit' });
      if (existsSync(inVenv) && has(inVenv, ANALYSIS)) py = inVenv;
      else log('could not set up bench/.venv: the Python reference is skipped (set BENCH_PYTHON to a python that has numpy, pandas, scipy and scikit-learn)');
    }
  }
  const python = py === null ? null : { program: py, args: [join(BENCH, 'reference.py')] };
  if (py !== null && has(py, 'duckdb')) return { python, duckdb: { program: py, args: [join(BENCH, 'duckdb-run.py')] } };
  const folder = join(BENCH, '.duckdb');
  const nodeDuck = { program: process.execPath, args: [join(BENCH, 'duckdb-run.mjs')] };
  const works = () => spawnSync(process.execPath, [join(BENCH, 'duckdb-run.mjs'), '--check'], { stdio: 'ignore' }).status === 0;
  if (works()) return { python, duckdb: nodeDuck };
  log(`installing DuckDB's Node bindings in bench/.duckdb for the DuckDB reference (${DUCKDB_NODE_API}, from the npm registry) …`);
  mkdirSync(folder, { recursive: true });
  if (!existsSync(join(folder, 'package.json'))) writeFileSync(join(folder, 'package.json'), '{ "private": true }\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  spawnSync(npm, ['install', '--prefix', folder, '--no-audit', '--no-fund', '--loglevel=error', DUCKDB_NODE_API], { stdio: 'inherit' });
  if (works()) return { python, duckdb: nodeDuck };
  log('could not install DuckDB (neither the Python package nor the Node bindings): the DuckDB reference is skipped');
  return { python, duckdb: null };
}

async function measureDistalyze(set, spec, jobs, repeat = P.repeat, { oneCore = false } = {}) {
  const node = oneCore ? ['taskset', ['-c', '0', process.execPath]] : [process.execPath, []];
  const args = [...node[1], CLI, join(set.dir, 'good'), join(set.dir, 'bad'), '--quiet', '--timings', '--json', '/dev/null', '--jobs', String(jobs), ...spec.args, ...P.extraArgs];
  const runs = [];
  for (let i = 0; i < repeat; i++) {
    log(`${spec.name}: distalyze --jobs ${jobs}${oneCore ? ' on one core' : ''} …`);
    const r = await timed(node[0], args);
    const timingsLine = r.stderr.split('\n').find((l) => l.startsWith('{"stages"'));
    if (r.code !== 0 || timingsLine === undefined) {
      const why = r.timedOut ? `timed out after ${P.timeoutS} s` : `exit ${r.code ?? r.signal}`;
      const errLines = r.stderr.split('\n').filter((l) => l.trim() && !/^\s+(Command (being timed|exited)|User time|System time|Percent|Elapsed|Average|Maximum|Major|Minor|Voluntary|Involuntary|Swaps|File system|Socket|Signals|Page size|Exit status)/.test(l));
      const firstErr = errLines.find((l) => /^distalyze:|Error\b/.test(l)) ?? errLines[0] ?? '';
      log(`${spec.name}: distalyze --jobs ${jobs} failed (${why}): ${firstErr}`);
      return { ok: false, jobs, ms: r.ms, error: `${why}: ${firstErr}`.slice(0, 500) };
    }
    const t = JSON.parse(timingsLine);
    runs.push({
      ok: true,
      jobs,
      ms: r.ms,
      cpuMs: r.cpuMs,
      load: r.load,
      stages: t.stages,
      // /usr/bin/time's figure counts the whole process (workers included), as does --timings.
      rssMB: Number.isFinite(r.rssMB) ? r.rssMB : (t.maxRssMB * 1048576) / 1e6,
      timingsRssMB: (t.maxRssMB * 1048576) / 1e6,
      pageFaults: r.pageFaults,
      instances: t.instances,
      bytes: t.bytes,
      lines: t.lines,
      parallel: t.parallel,
      // Large files whose rest a second thread read (docs/internals.md, "Threads": "The rest of a large run is read by a thread with nothing left").
      helped: t.helped ?? 0,
      // The first process's time before it relaunched the run with huge pages (docs/internals.md, "Memory"), if it did.
      relaunchedAfterMs: t.relaunchedAfterMs,
    });
  }
  return best(runs);
}

async function measureSet(spec) {
  const set = spec.plain !== undefined ? await ensureCompressedSet(spec) : await ensureSet(spec);
  if (P.generateOnly) return { spec, set };
  // (A compressed set's floors are its plain set's: the same lines, not decompressed.)
  const floor = set.plain ?? set;
  const paths = floor.files.map((f) => join(floor.dir, f));
  const listFile = join(floor.dir, 'files.txt');
  writeFileSync(listFile, `${paths.join('\n')}\n`);
  // wc reads the names from a file (NUL-separated, GNU wc's --files0-from): 40 000 names overflow a command line.
  const namesFile = join(floor.dir, 'files0.txt');
  writeFileSync(namesFile, paths.map((p) => `${p}\0`).join(''));
  log(`${spec.name}: warming the page cache …`);
  await timed('wc', ['-l', `--files0-from=${namesFile}`]);
  if (set.plain !== undefined) {
    const compressed = join(set.dir, 'files0.txt');
    writeFileSync(compressed, set.files.map((f) => `${join(set.dir, f)}\0`).join(''));
    await timed('wc', ['-c', `--files0-from=${compressed}`]);
  }
  log(`${spec.name}: wc -l, node line loop …`);
  const wc = await measureWc(namesFile);
  const loop = await measureLoop(listFile);
  const loopSync = await measureLoop(listFile, true);
  // Rounds: the references and every distalyze setting in turn, so that load changes hit them alike.
  const withRefs = P.refs.includes(spec.name) && spec.args.length === 0 && (REFERENCES.python !== null || REFERENCES.duckdb !== null);
  const tries = {};
  /** Per round with both -j1 and -j2: their parse times and the machine's string scaling just after, in cache and on the set's files (figures' sameMoment). */
  const sameMoment = [];
  const refRuns = { python: [], duckdb: [] };
  for (let i = 0; i < P.repeat; i++) {
    if (withRefs) {
      log(`${spec.name}: the references (round ${i + 1}/${P.repeat}) …`);
      const dirs = [join(set.dir, 'good'), join(set.dir, 'bad')];
      if (REFERENCES.python !== null) refRuns.python.push(await measureRef(spec, 'python', REFERENCES.python, dirs));
      if (REFERENCES.duckdb !== null) refRuns.duckdb.push(await measureRef(spec, 'duckdb', REFERENCES.duckdb, [...dirs, '2']));
    }
    for (const j of P.jobs) (tries[`j${j}`] ??= []).push(await measureDistalyze(set, spec, j, 1));
    // The machine's string-parsing scaling right after this round's -j1 and -j2 (sameMoment in figures): on a
    // shared VM it moves within minutes (1.37× to 1.93× within an hour), so the check at the start is a poor yardstick.
    if (SAME_MOMENT_SETS.includes(spec.name) && P.jobs.includes(1) && P.jobs.includes(2) && env('BENCH_MACHINE_CHECK', '1') !== '0') {
      // Beside it, the line loop over this set's own files on 1 and 2 threads: string parsing with their reading in it.
      log(`${spec.name}: the machine's string-parsing scaling now, in cache and on these files (round ${i + 1}/${P.repeat}) …`);
      const r = await timed(process.execPath, [join(BENCH, 'machine-check.mjs'), 'strings', 'files', `--list=${listFile}`, `--rounds=${SAME_MOMENT_CHECK_ROUNDS}`]);
      const j1 = tries.j1?.at(-1);
      const j2 = tries.j2?.at(-1);
      // And --jobs 1 on one core (HAS_TASKSET), as the check's one thread runs.
      const pinned = HAS_TASKSET ? await measureDistalyze(set, spec, 1, 1, { oneCore: true }) : null;
      if (r.code === 0 && j1?.ok && j2?.ok) {
        const check = JSON.parse(r.stdout.trim());
        sameMoment.push({ round: i, j1Parse: j1.stages.parse, j2Parse: j2.stages.parse, machine: check.strings.scaling, machineFiles: check.files.scaling,
          ...(pinned?.ok ? { j1OneCoreParse: pinned.stages.parse } : {}) });
      }
    }
    // This machine's scaling for distalyze's own parsing, nothing shared: two --jobs 1 runs at once (on the few
    // runs too, where whole files a thread bound -j2 below it; and on the small files, where the reading of
    // 10 000 files each is most of the work).
    if (SAME_MOMENT_SETS.includes(spec.name) && P.jobs.includes(1) && P.jobs.includes(2)) {
      log(`${spec.name}: two distalyze --jobs 1 at once (round ${i + 1}/${P.repeat}) …`);
      const pair = await Promise.all([measureDistalyze(set, spec, 1, 1), measureDistalyze(set, spec, 1, 1)]);
      if (pair.every((r) => r.ok)) {
        const pairParse = (pair[0].stages.parse + pair[1].stages.parse) / 2;
        (tries.pairJ1 ??= []).push({ ...pair[0], stages: { parse: pairParse }, ms: (pair[0].ms + pair[1].ms) / 2 });
        // Beside this round's -j2 (sameMoment): one process's threads against two processes at once.
        const moment = sameMoment.at(-1);
        if (moment !== undefined && moment.round === i) moment.pairParse = pairParse;
      }
    }
  }
  const runs = {};
  for (const [k, rs] of Object.entries(tries)) {
    const ok = rs.filter((r) => r.ok);
    runs[k] = ok.length > 0 ? best(ok) : rs[0];
  }
  const refs = {};
  for (const [k, rs] of Object.entries(refRuns)) {
    const ok = rs.filter((r) => r.ok);
    if (ok.length > 0) refs[k] = best(ok);
  }
  if (wc.lines !== set.lines) log(`${spec.name}: note: wc -l counted ${wc.lines} lines, the generator wrote ${set.lines}`);
  for (const r of Object.values(runs)) {
    if (r.ok && r.lines !== set.lines) log(`${spec.name}: note: distalyze --jobs ${r.jobs} read ${r.lines} lines, the generator wrote ${set.lines}`);
  }
  return { spec, set, wc, loop, loopSync, runs, refs, sameMoment };
}

// ---------------------------------------------------------------------------
// Report

function fmtBytes(b) {
  return b >= 1e9 ? `${(b / 1e9).toFixed(2)} GB` : `${(b / 1e6).toFixed(1)} MB`;
}
function fmtCount(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : String(n);
}
const fmtS = (ms) => (ms / 1000).toFixed(ms < 10_000 ? 2 : 1);
const fmtRatio = (x) => (x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(2));
const pct = (x) => `${(100 * x).toFixed(x < 0.1 ? 1 : 0)}%`;

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c] ?? '').length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  ').trimEnd()).join('\n');
}

/** Figures of one set: throughput and every stage, as ratios against the references. */
function figures(m) {
  const { set, wc, loop, loopSync, runs } = m;
  const thr = (ms) => ({ MBps: set.bytes / 1e6 / (ms / 1000), linesPerS: set.lines / (ms / 1000) });
  const out = {
    data: { dir: relative(ROOT, set.dir), files: set.files.length, bytes: set.bytes, lines: set.lines, generatedMs: set.generatedMs,
      ...(set.compressedBytes !== undefined ? { compressedBytes: set.compressedBytes } : {}),
      ...(set.fileBytes !== undefined && set.files.length <= 16 ? { fileBytes: set.fileBytes } : {}) },
    wc: { ms: Math.round(wc.ms), cpuMs: Math.round(wc.cpuMs), load: wc.load, ...thr(wc.ms) },
    nodeLoop: { ms: Math.round(loop.ms), cpuMs: Math.round(loop.cpuMs), load: loop.load, innerMs: loop.innerMs, ...thr(loop.ms) },
    ...(loopSync !== undefined ? { nodeLoopSync: { ms: Math.round(loopSync.ms), cpuMs: Math.round(loopSync.cpuMs), load: loopSync.load, innerMs: loopSync.innerMs, ...thr(loopSync.ms) } } : {}),
    runs: {},
  };
  for (const [key, r] of Object.entries(runs)) {
    if (!r.ok) {
      out.runs[key] = r;
      continue;
    }
    const parseMs = r.stages.parse;
    out.runs[key] = {
      ...r,
      ms: Math.round(r.ms),
      ...thr(r.ms),
      // throughput as a fraction of each floor's (= floor time / our time)
      vsNodeLoop: loop.ms / r.ms,
      vsWc: wc.ms / r.ms,
      // the same by CPU time (user + system): less sensitive to other work on the machine
      vsNodeLoopCpu: loop.cpuMs / r.cpuMs,
      parse: { ...thr(parseMs), vsNodeLoop: loop.ms / parseMs, vsWc: wc.ms / parseMs, ...(loopSync !== undefined ? { vsNodeLoopSync: loopSync.ms / parseMs } : {}) },
      // each stage's time in units of the bare loop's time
      stagesVsNodeLoop: Object.fromEntries(Object.entries(r.stages).map(([k, v]) => [k, v / loop.ms])),
    };
  }
  out.refs = {};
  for (const [k, r] of Object.entries(m.refs ?? {})) out.refs[k] = { ...r, ms: Math.round(r.ms), cpuMs: Math.round(r.cpuMs), ...thr(r.ms) };
  const j1 = out.runs.j1;
  const j2 = out.runs.j2;
  if (j1?.ok && j2?.ok) out.speedup2 = { wall: j1.ms / j2.ms, parse: j1.stages.parse / j2.stages.parse, cpuRatio: j2.cpuMs / j1.cpuMs };
  // Two --jobs 1 runs at once, each its own process: their throughput together over one run's alone.
  const pair = runs.pairJ1;
  if (j1?.ok && pair?.ok) out.independentPair = { parse: (2 * j1.stages.parse) / pair.stages.parse };
  // Per round: our -j2 parse speed-up over the machine's string-parsing scaling measured right after it (a check
  // above 2 is no figure: its one-thread runs were slowed); the median of the rounds is the 2-core verdict.
  // Beside it (not the verdict), the same against the line loop over the set's own files on 1 and 2 threads (that
  // check above 2 is no figure either).
  const rounds = (m.sameMoment ?? []).filter((r) => r.machine <= 2).map((r) => {
    const ours = r.j1Parse / r.j2Parse;
    return { ...r, ours, ratio: ours / r.machine, ...(r.machineFiles !== undefined && r.machineFiles <= 2 ? { ratioFiles: ours / r.machineFiles } : {}),
      ...(r.j1OneCoreParse !== undefined ? { oursOneCore: r.j1OneCoreParse / r.j2Parse, ratioOneCore: r.j1OneCoreParse / r.j2Parse / r.machine } : {}) };
  });
  const onFiles = rounds.filter((r) => r.ratioFiles !== undefined);
  // Nor this: the same speed-up from --jobs 1 on one core (taskset), as the check's one thread runs, to -j2 on two.
  const oneCore = rounds.filter((r) => r.ratioOneCore !== undefined);
  // Not the verdict either: each round's -j2 throughput over that of two -j1 processes at once right after it (the
  // pair's mean parse over twice -j2's: the set read once by one process's two threads, twice by two processes).
  // 1.00: one process's threads got all that this machine gave distalyze's own work on two cores.
  const vsPair = (m.sameMoment ?? []).filter((r) => r.pairParse !== undefined).map((r) => r.pairParse / (2 * r.j2Parse));
  if (rounds.length > 0) {
    out.sameMoment = { rounds, median: median(rounds.map((r) => r.ratio)), discarded: (m.sameMoment ?? []).length - rounds.length,
      ...(onFiles.length > 0 ? { medianFiles: median(onFiles.map((r) => r.ratioFiles)) } : {}),
      ...(oneCore.length > 0 ? { medianOneCore: median(oneCore.map((r) => r.ratioOneCore)) } : {}) };
  }
  if (vsPair.length > 0) out.vsPair = { rounds: vsPair, median: median(vsPair) };
  delete out.runs.pairJ1;
  return out;
}

const SHORT_STAGE = { 'dependency networks + attention': 'DN+attention' };

function printSet(m, f) {
  const lines = [];
  lines.push(`== ${m.spec.name}: ${m.spec.title}`);
  lines.push(`   ${fmtBytes(f.data.bytes)}, ${fmtCount(f.data.lines)} lines, ${f.data.files} files${f.runs.j1?.instances !== undefined ? `, ${f.runs.j1.instances} instances` : ''}  (${f.data.dir})`);
  const runs = Object.values(f.runs);
  const cpu = (r) => (Number.isFinite(r.cpuMs) ? fmtS(r.cpuMs) : '');
  const cores = (r) => (Number.isFinite(r.cpuMs) ? (r.cpuMs / r.ms).toFixed(2) : '');
  // Throughput: the whole process against the two floors.
  const cpuPct = (x) => (Number.isFinite(x) ? pct(x) : '');
  const rows = [['run', 'wall s', 'cpu s', 'cores', 'load', 'MB/s', 'lines/s', 'vs wc -l', 'vs node loop', 'by cpu', 'peak RSS MB']];
  rows.push(['wc -l', fmtS(f.wc.ms), cpu(f.wc), cores(f.wc), f.wc.load.toFixed(1), f.wc.MBps.toFixed(0), fmtCount(f.wc.linesPerS), '100%', pct(f.nodeLoop.ms / f.wc.ms), cpuPct(f.nodeLoop.cpuMs / f.wc.cpuMs), '']);
  rows.push(['node line loop', fmtS(f.nodeLoop.ms), cpu(f.nodeLoop), cores(f.nodeLoop), f.nodeLoop.load.toFixed(1), f.nodeLoop.MBps.toFixed(0), fmtCount(f.nodeLoop.linesPerS), pct(f.wc.ms / f.nodeLoop.ms), '100%', '100%', '']);
  const REF_LABEL = { python: 'python reference', duckdb: 'duckdb query (2 thr)' };
  for (const [k, r] of Object.entries(f.refs ?? {})) {
    rows.push([REF_LABEL[k] ?? k, fmtS(r.ms), cpu(r), cores(r), r.load.toFixed(1), r.MBps.toFixed(1), fmtCount(r.linesPerS), pct(f.wc.ms / r.ms), pct(f.nodeLoop.ms / r.ms), cpuPct(f.nodeLoop.cpuMs / r.cpuMs), r.rssMB.toFixed(0)]);
  }
  for (const r of runs) {
    const label = `distalyze -j${r.jobs}`;
    if (!r.ok) rows.push([label, fmtS(r.ms), '', '', '', 'failed', '', '', '', '', '']);
    else rows.push([label, fmtS(r.ms), cpu(r), cores(r), r.load.toFixed(1), r.MBps.toFixed(1), fmtCount(r.linesPerS), pct(r.vsWc), pct(r.vsNodeLoop), cpuPct(r.vsNodeLoopCpu), r.rssMB.toFixed(0)]);
  }
  lines.push(table(rows));
  // Stages: seconds, and in units of the node loop's time.
  const ok = runs.filter((r) => r.ok);
  if (ok.length > 0) {
    const stageNames = [...new Set(ok.flatMap((r) => Object.keys(r.stages)))];
    const srows = [['stage s (× node loop time)', ...stageNames.map((s) => SHORT_STAGE[s] ?? s)]];
    for (const r of ok) {
      srows.push([`distalyze -j${r.jobs}`, ...stageNames.map((s) => (r.stages[s] === undefined ? '' : `${fmtS(r.stages[s])} (${fmtRatio(r.stagesVsNodeLoop[s])}×)`))]);
    }
    lines.push(table(srows));
  }
  for (const r of runs) {
    if (r.ok) {
      lines.push(`   parse stage -j${r.jobs}: ${r.parse.MBps.toFixed(1)} MB/s, ${fmtCount(r.parse.linesPerS)} lines/s = ${pct(r.parse.vsNodeLoop)} of the node loop, ${pct(r.parse.vsWc)} of wc -l` +
        (Number.isFinite(r.pageFaults) ? `; ${fmtCount(r.pageFaults)} page faults in the run${faultCost(r.pageFaults)}` : '') +
        (r.relaunchedAfterMs !== undefined ? `; relaunched with huge pages after ${r.relaunchedAfterMs} ms (in the wall time, not the stages)` : ''));
    } else {
      lines.push(`   distalyze -j${r.jobs} failed: ${r.error}`);
    }
  }
  if (f.speedup2) {
    lines.push(`   speed-up -j2 vs -j1: ${f.speedup2.wall.toFixed(2)}× wall, ${f.speedup2.parse.toFixed(2)}× parse stage` +
      (Number.isFinite(f.speedup2.cpuRatio) ? `; cpu time -j2/-j1 ${f.speedup2.cpuRatio.toFixed(2)} (the work added by going parallel)` : ''));
  }
  return lines.join('\n');
}

const DN = 'dependency networks + attention';

/** What `faults` first writes cost at the machine check's one-thread rate (bench/machine-check.mjs, fresh). */
function faultCost(faults) {
  const us = SCALING?.fresh?.usPerPage;
  return Number.isFinite(us) ? ` (~${((faults * us) / 1e6).toFixed(2)} cpu s at ${us.toFixed(2)} µs each)` : '';
}

function targets(F) {
  const rows = [];
  const add = (name, measured, goal, ok, note = '') =>
    rows.push({ name, measured, goal, status: measured === 'failed' ? 'no figure' : ok === null ? 'n/a' : ok ? 'met' : 'MISSED', note });
  const d = F.dlog;
  if (d) {
    const j1 = d.runs.j1;
    add('dlog parse, 1 core, vs bare node loop', j1?.ok ? pct(j1.parse.vsNodeLoop) : 'failed', `≥ ${pct(TARGETS.dlogParseVsLoop)}`,
      j1?.ok ? j1.parse.vsNodeLoop >= TARGETS.dlogParseVsLoop : false, j1?.ok ? `whole run: ${pct(j1.vsNodeLoop)}; by cpu time: ${pct(j1.vsNodeLoopCpu)}` : '');
    add('dlog speed-up 1 → 2 cores (parse stage)', d.speedup2 ? `${d.speedup2.parse.toFixed(2)}×` : 'failed', `≥ ${TARGETS.speedup2}× (near-linear)`,
      d.speedup2 ? d.speedup2.parse >= TARGETS.speedup2 : false,
      d.speedup2 ? `whole run: ${d.speedup2.wall.toFixed(2)}×${SCALING ? `; the machine itself: ${SCALING.strings.scaling.toFixed(2)}× on string parsing` : ''}` : '');
    const rss = Math.max(...Object.values(d.runs).filter((r) => r.ok).map((r) => r.rssMB), -Infinity);
    const atScale = P.gb >= 5 && P.instances === 1000;
    add(`peak RSS, 5 GB / 1000 instances`, Number.isFinite(rss) ? `${rss.toFixed(0)} MB at ${P.gb} GB` : 'failed', `< ${TARGETS.rssMB} MB`,
      Number.isFinite(rss) ? (atScale ? rss < TARGETS.rssMB : null) : false, atScale ? '' : 'indicative only: run with BENCH_GB=5 for the target');
  }
  const q = F.requests;
  if (q) {
    const rs = Object.values(q.runs).filter((r) => r.ok && r.stages[DN] !== undefined);
    const worst = rs.length ? Math.max(...rs.map((r) => r.stages[DN])) : NaN;
    add(`DN + attention, ${fmtCount(P.requests)} instances`, rs.length ? `${fmtS(worst)} s` : 'failed', `< ${TARGETS.dnSeconds} s`,
      rs.length ? worst < TARGETS.dnSeconds * 1000 && P.requests >= 1_000_000 ? true : worst < TARGETS.dnSeconds * 1000 ? null : false : false,
      P.requests >= 1_000_000 ? 'slowest of the runs' : 'indicative only: fewer than 1 000 000 instances');
  }
  const l = F.log4j;
  if (l) {
    const j2 = l.runs.j2;
    const j1 = l.runs.j1;
    add('rules translator, 2 cores (parse stage)', j2?.ok ? `${j2.parse.MBps.toFixed(0)} MB/s` : 'failed', `≥ ${TARGETS.rulesMBps} MB/s`,
      j2?.ok ? j2.parse.MBps >= TARGETS.rulesMBps : false,
      j2?.ok ? `whole run: ${j2.MBps.toFixed(0)} MB/s${j1?.ok ? `; 1 core: ${j1.parse.MBps.toFixed(0)} MB/s` : ''}; node loop: ${l.nodeLoop.MBps.toFixed(0)} MB/s on 1 core` : '');
  }
  return rows;
}

/**
 * The best 2-core speed-up whole files allow (a run's file is read by one thread): all the bytes over the larger
 * thread's share in the best split of the files between two threads (every split tried: a few files).
 */
function fewBound(f) {
  const sizes = f.data.fileBytes ?? [];
  const total = sizes.reduce((a, b) => a + b, 0);
  if (sizes.length === 0 || sizes.length > 16) return 2;
  let best = total;
  for (let mask = 0; mask < 1 << sizes.length; mask++) {
    const one = sizes.reduce((sum, size, i) => (mask & (1 << i) ? sum + size : sum), 0);
    best = Math.min(best, Math.max(one, total - one));
  }
  return total / best;
}

/** Issue 17's targets, each as a ratio from the same run. */
function targets17(F) {
  const rows = [];
  const add = (name, measured, goal, ok, note = '') => rows.push({ name, measured, goal, status: measured === 'failed' ? 'no figure' : ok === null ? 'n/a' : ok ? 'met' : 'MISSED', note });
  const okRuns = (set) => Object.values(set.runs).filter((r) => r.ok);
  /** The references' targets on set `name`'s figures `set` (its rows named with `label`, '' for the dlog set's). */
  const refRows = (set, name, label) => {
    const rs = okRuns(set);
    const fastest = rs.length ? rs.reduce((a, b) => (b.ms < a.ms ? b : a)) : null;
    const leanest = rs.length ? rs.reduce((a, b) => (b.cpuMs < a.cpuMs ? b : a)) : null;
    const py = set.refs.python;
    const duck = set.refs.duckdb;
    add(`end to end vs Python reference (wall)${label}`, fastest && py ? `${(py.ms / fastest.ms).toFixed(1)}×` : 'failed', `≥ ${TARGETS17.vsPython}×`,
      fastest && py ? py.ms / fastest.ms >= TARGETS17.vsPython : false, fastest && py ? `python ${fmtS(py.ms)} s, distalyze -j${fastest.jobs} ${fmtS(fastest.ms)} s` : `run with the references (BENCH_REFS=${name})`);
    // The same by CPU time: what a loaded machine distorts least (not the target, which is wall).
    add(`end to end vs Python reference (cpu)${label}`, leanest && py ? `${(py.cpuMs / leanest.cpuMs).toFixed(1)}×` : 'failed', 'indicative', null,
      leanest && py ? `python ${fmtS(py.cpuMs)} cpu s, distalyze -j${leanest.jobs} ${fmtS(leanest.cpuMs)} cpu s; the wall target read on a loaded machine is unreliable` : '');
    add(`cpu vs DuckDB query${label}`, leanest && duck ? `${(leanest.cpuMs / duck.cpuMs).toFixed(2)}×` : 'failed', `≤ ${TARGETS17.cpuVsDuckdb}×`,
      leanest && duck ? leanest.cpuMs / duck.cpuMs <= TARGETS17.cpuVsDuckdb : false,
      leanest && duck ? `distalyze -j${leanest.jobs} ${fmtS(leanest.cpuMs)} cpu s, duckdb ${fmtS(duck.cpuMs)} cpu s (${fmtS(duck.ms)} s wall: distalyze wall/duckdb wall ${(fastest.ms / duck.ms).toFixed(2)})` : '');
  };
  /**
   * A set's 2-core parse speed-up against the machine check's string parsing. A reading above 2 is no figure:
   * two threads cannot do more than twice one's work, so the check's one-thread runs were slowed (a shared VM).
   */
  const scalingRow = (label, set, ownNote) => {
    // Every 2-core row ends with what two -j1 processes at once got, where the set ran them.
    const note = ownNote + (set.independentPair ? `; two -j1 runs at once: ${set.independentPair.parse.toFixed(2)}×` : '');
    const machineS = SCALING?.strings?.scaling;
    const name = `2-core parse speed-up vs machine scaling${label}`;
    const moment = set.sameMoment;
    if (moment) {
      // Each round's -j2 speed-up against the machine's scaling measured right after it: the median of the rounds.
      // The speed-up is from -j1 on one core (taskset), as the check's one thread runs, to -j2 on two: -j1 left free
      // on two cores already takes 1.1-1.3 of them (V8 compiles and marks on its own threads, large files are read
      // ahead), so -j1 → -j2 is not a 1 → 2 core speed-up (bench/README.md, "What each figure means"; docs/performance.md, "Targets"). Without taskset,
      // from -j1 as it runs.
      const unpinned = moment.rounds.map((r) => `${r.ours.toFixed(2)}×/${r.machine.toFixed(2)}×`).join(', ');
      const pinnedRounds = moment.rounds.filter((r) => r.ratioOneCore !== undefined);
      const onOneCore = moment.medianOneCore !== undefined;
      const verdict = onOneCore ? moment.medianOneCore : moment.median;
      const bestRuns = set.speedup2 && machineS ? `; best runs ${set.speedup2.parse.toFixed(2)}× against the start's check ${machineS.toFixed(2)}×` : '';
      add(name, verdict.toFixed(2), `≥ ${TARGETS17.scalingVsMachine}`, verdict >= TARGETS17.scalingVsMachine,
        (onOneCore
          ? `median of ${pinnedRounds.length} rounds, -j1 on one core over -j2, ours/machine's at the same moment: ` +
            pinnedRounds.map((r) => `${r.oursOneCore.toFixed(2)}×/${r.machine.toFixed(2)}×`).join(', ')
          : `median of ${moment.rounds.length} rounds, ours/machine's at the same moment: ${unpinned}`) +
        (moment.discarded > 0 ? ` (${moment.discarded} round(s) with a check above 2 left out)` : '') + (onOneCore ? '' : bestRuns) + note);
      // Not the verdict: the same from -j1 left free on two cores (the verdict until the thirty-fourth pass).
      if (onOneCore) {
        add(`  the same from -j1 free on two cores${label}`, moment.median.toFixed(2), 'indicative', null,
          `median of the rounds, unpinned -j1 over -j2, ours/machine's: ${unpinned}${bestRuns}`);
      }
      // Not the verdict: the same rounds against the line loop over the set's own files (machine-check.mjs files).
      if (moment.medianFiles !== undefined) {
        const files = moment.rounds.filter((r) => r.ratioFiles !== undefined).map((r) => `${r.ours.toFixed(2)}×/${r.machineFiles.toFixed(2)}×`).join(', ');
        add(`  the same vs the line loop on these files${label}`, moment.medianFiles.toFixed(2), 'indicative', null,
          `median of the rounds, unpinned -j1, ours/the line loop's 1 → 2 thread scaling on the same files: ${files}`);
      }
      if (set.vsPair !== undefined) {
        add(`  -j2 vs two -j1 runs at once${label}`, set.vsPair.median.toFixed(2), 'indicative', null,
          `median of the rounds, -j2's throughput over two -j1 processes' together, each round right after its -j2: ${set.vsPair.rounds.map((x) => x.toFixed(2)).join(', ')}`);
      }
      return;
    }
    if (!set.speedup2 || !machineS) return add(name, 'failed', `≥ ${TARGETS17.scalingVsMachine}`, false, '');
    const ours = `distalyze ${set.speedup2.parse.toFixed(2)}×`;
    if (machineS > 2) {
      return add(name, 'failed', `≥ ${TARGETS17.scalingVsMachine}`, false,
        `${ours}; the machine check read string parsing at ${machineS.toFixed(2)}×, above 2 (its one-thread runs were slowed): re-run${note}`);
    }
    const ratio = set.speedup2.parse / machineS;
    add(name, ratio.toFixed(2), `≥ ${TARGETS17.scalingVsMachine}`, ratio >= TARGETS17.scalingVsMachine, `${ours}, machine string parsing ${machineS.toFixed(2)}×${note}`);
  };
  /**
   * Beside a per-core row, not the verdict: the same share against the line loop with synchronous reads (line-loop.mjs
   * --sync), the faster way Node reads these files; the targets keep the stream loop they were set against.
   */
  const syncLoopRow = (label, set) => {
    const j1 = set.runs.j1;
    if (!j1?.ok || j1.parse.vsNodeLoopSync === undefined) return;
    add(`  the same vs the line loop with synchronous reads${label}`, pct(j1.parse.vsNodeLoopSync), 'indicative', null,
      `the loop ${fmtS(set.nodeLoopSync.ms)} s with synchronous reads, ${fmtS(set.nodeLoop.ms)} s through streams`);
  };
  const d = F.dlog;
  if (d) {
    refRows(d, 'dlog', '');
    const j1 = d.runs.j1;
    const j2 = d.runs.j2;
    add('dlog parse + collect per core vs node loop', j1?.ok ? pct(j1.parse.vsNodeLoop) : 'failed', `≥ ${pct(TARGETS17.parseVsLoopPerCore)}`,
      j1?.ok ? j1.parse.vsNodeLoop >= TARGETS17.parseVsLoopPerCore : false, j2?.ok ? `-j2 per core: ${pct(j2.parse.vsNodeLoop / 2)}` : '');
    syncLoopRow('', d);
    scalingRow('', d, '');
  }
  // A few large runs (issue 17's "few huge files"): the dlog set's targets on them, and the memory bound.
  const few = F.few;
  if (few) {
    const [j1, j2] = [few.runs.j1, few.runs.j2];
    const label = `, ${P.fewFiles} runs of ${fmtBytes(few.data.bytes / few.data.files)}`;
    add(`parse + collect per core vs node loop${label}`, j1?.ok ? pct(j1.parse.vsNodeLoop) : 'failed', `≥ ${pct(TARGETS17.parseVsLoopPerCore)}`,
      j1?.ok ? j1.parse.vsNodeLoop >= TARGETS17.parseVsLoopPerCore : false, j2?.ok ? `-j2 per core: ${pct(j2.parse.vsNodeLoop / 2)}` : '');
    syncLoopRow(label, few);
    scalingRow(label, few, ` (whole files alone would allow at most ${fewBound(few).toFixed(2)}×; rests read by a second thread: ${few.runs.j2?.helped ?? 0})`);
    const rs = okRuns(few);
    const peak = rs.length ? Math.max(...rs.map((r) => r.rssMB)) : NaN;
    add(`peak RSS${label}`, rs.length ? `${peak.toFixed(0)} MB` : 'failed', `< ${TARGETS17.rssMB} MB (at 5 GB)`, rs.length ? peak < TARGETS17.rssMB : false,
      `${fmtBytes(few.data.bytes)}; ${rs.map((r) => `-j${r.jobs} ${r.rssMB.toFixed(0)} MB`).join(', ')}`);
    if (Object.keys(few.refs ?? {}).length > 0) refRows(few, 'few', label);
  }
  // The same runs gzipped: summarized as they are read too (their ends found by decompressing them first).
  const fewGz = F['few-gz'];
  if (fewGz) {
    const label = `, ${P.fewFiles} gzipped runs of ${fmtBytes(fewGz.data.bytes / fewGz.data.files)}`;
    const rs = okRuns(fewGz);
    const peak = rs.length ? Math.max(...rs.map((r) => r.rssMB)) : NaN;
    const vsPlain = (r) => {
      const p = few?.runs[`j${r.jobs}`];
      return p?.ok ? `, ${(r.stages.parse / p.stages.parse).toFixed(2)}× the plain runs' parse` : '';
    };
    add(`peak RSS${label}`, rs.length ? `${peak.toFixed(0)} MB` : 'failed', `< ${TARGETS17.rssMB} MB (at 5 GB)`, rs.length ? peak < TARGETS17.rssMB : false,
      `${fmtBytes(fewGz.data.compressedBytes ?? 0)} compressed; ${rs.map((r) => `-j${r.jobs} ${r.rssMB.toFixed(0)} MB, parse ${fmtS(r.stages.parse)} s${vsPlain(r)}`).join('; ')}`);
  }
  // The requests target on other shapes (issue 17: "the targets must hold on them too"): ids not in order, and a
  // class's requests in many files.
  for (const [name, label] of [['requests-hashed', 'ids not in order'], ['requests-files', `in ${P.requestFiles} files a class`]]) {
    const other = F[name];
    if (!other) continue;
    const os = okRuns(other);
    const best = os.length ? Math.max(...os.map((r) => r.parse.vsNodeLoop)) : NaN;
    add(`${fmtCount(P.requests)} requests, ${label}`, os.length ? pct(best) : 'failed', `≥ ${pct(TARGETS17.requestsVsLoop)}`,
      os.length ? best >= TARGETS17.requestsVsLoop : false, `best of the runs (BENCH_SETS=${name})`);
    const [j1, j2] = [other.runs.j1, other.runs.j2];
    if (j1?.ok && j2?.ok) {
      add(`-j2 / -j1 peak RSS, ${label}`, `${(j2.rssMB / j1.rssMB).toFixed(2)}×`, `≤ ${TARGETS17.rssJ2VsJ1}×`, j2.rssMB / j1.rssMB <= TARGETS17.rssJ2VsJ1,
        `${j1.rssMB.toFixed(0)} → ${j2.rssMB.toFixed(0)} MB`);
    }
  }
  // Many small files: the 2-core target holds on every shape (issue 17, "How it is checked").
  if (F.small) scalingRow(`, ${P.smallFiles} small files`, F.small, '');
  // The references on the other sets they were run on (BENCH_REFS): the small files, and the request shapes (both
  // references take their instances from `I` records as distalyze does).
  for (const [name, label] of [['small', ', small files'], ['requests', `, ${fmtCount(P.requests)} requests`],
    ['requests-hashed', ', ids not in order'], ['requests-files', `, ${P.requestFiles} files a class`]]) {
    const other = F[name];
    if (other && Object.keys(other.refs ?? {}).length > 0) refRows(other, name, label);
  }
  const q = F.requests;
  if (q) {
    const rs = okRuns(q);
    const bestParse = rs.length ? Math.max(...rs.map((r) => r.parse.vsNodeLoop)) : NaN;
    add(`${fmtCount(P.requests)} requests, parse vs node loop`, rs.length ? pct(bestParse) : 'failed', `≥ ${pct(TARGETS17.requestsVsLoop)}`,
      rs.length ? bestParse >= TARGETS17.requestsVsLoop : false, 'best of the runs');
    const dn = rs.filter((r) => r.stages[DN] !== undefined);
    const worst = dn.length ? Math.max(...dn.map((r) => r.stages[DN])) : NaN;
    add('DN + attention, ≤ 200 k instances sampled', dn.length ? `${fmtS(worst)} s` : 'failed', `< ${TARGETS17.dnSeconds} s`,
      dn.length ? worst < TARGETS17.dnSeconds * 1000 : false, 'slowest of the runs (--dn-sample: 100 000 per class)');
    const j1 = q.runs.j1;
    const j2 = q.runs.j2;
    add('-j2 / -j1 peak RSS with I records', j1?.ok && j2?.ok ? `${(j2.rssMB / j1.rssMB).toFixed(2)}×` : 'failed', `≤ ${TARGETS17.rssJ2VsJ1}×`,
      j1?.ok && j2?.ok ? j2.rssMB / j1.rssMB <= TARGETS17.rssJ2VsJ1 : false, j1?.ok && j2?.ok ? `${j1.rssMB.toFixed(0)} → ${j2.rssMB.toFixed(0)} MB; -j2/-j1 wall ${(j2.ms / j1.ms).toFixed(2)}` : '');
  }
  return rows;
}

function machine() {
  const git = (args) => {
    const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
    return r.status === 0 ? r.stdout.trim() : undefined;
  };
  const distMain = join(ROOT, 'dist', 'cli', 'main.js');
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    availableParallelism: os.availableParallelism(),
    memoryGB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    commit: git(['rev-parse', '--short', 'HEAD']),
    cli: CLI,
    workingTreeDirty: (git(['status', '--porcelain', '--', 'src']) ?? '') !== '',
    distBuilt: existsSync(distMain) ? statSync(distMain).mtime.toISOString() : null,
    peakRssFrom: HAS_TIME ? '/usr/bin/time -v' : '--timings',
  };
}

/** Warn when src/ changed after the last build: the bench measures dist/. */
function checkBuild() {
  const distMain = join(ROOT, 'dist', 'cli', 'main.js');
  if (!existsSync(distMain)) {
    log('dist/ is missing: run `npm run build` first (the bench measures the built CLI)');
    return;
  }
  const built = statSync(distMain).mtimeMs;
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  const newer = walk(join(ROOT, 'src')).filter((f) => statSync(f).mtimeMs > built);
  if (newer.length > 0) log(`note: ${newer.length} file(s) in src/ changed after the last build (e.g. ${relative(ROOT, newer[0])}); run \`npm run build\` to measure them`);
}

// ---------------------------------------------------------------------------

const LOAD_AT_START = os.loadavg();
/** bench/machine-check.mjs: how this machine scales 1 → 2 threads by itself. */
let SCALING = null;
/** The references' programs (findReferences). */
let REFERENCES = { python: null, duckdb: null };

async function main() {
  mkdirSync(DATA, { recursive: true });
  if (!P.generateOnly) checkBuild();
  const specs = setSpecs();
  REFERENCES = findReferences();
  if (!P.generateOnly && env('BENCH_MACHINE_CHECK', '1') !== '0') {
    log('machine check: 1 vs 2 threads (compute, memory, strings, fresh memory) …');
    const r = await timed(process.execPath, [join(BENCH, 'machine-check.mjs')]);
    if (r.code === 0) SCALING = JSON.parse(r.stdout.trim());
    else log(`machine check failed: ${r.stderr.split('\n')[0]}`);
  }
  const measured = [];
  for (const spec of specs) measured.push(await measureSet(spec));
  if (P.generateOnly) return;

  const M = { ...machine(), loadAtStart: LOAD_AT_START, loadAtEnd: os.loadavg(), scaling: SCALING };
  const F = {};
  const blocks = [];
  for (const m of measured) {
    F[m.spec.name] = figures(m);
    blocks.push(printSet(m, F[m.spec.name]));
  }
  const T = targets(F);
  const scalingLine = SCALING === null ? '' :
    `machine's own 1 → 2 thread scaling (bench/machine-check.mjs; 2.00 = perfect): compute ${SCALING.compute.scaling.toFixed(2)}×, memory streaming ${SCALING.memory.scaling.toFixed(2)}×, string parsing ${SCALING.strings.scaling.toFixed(2)}×` +
    (SCALING.fresh ? `, first writes to new memory ${SCALING.fresh.scaling.toFixed(2)}× (${SCALING.fresh.usPerPage.toFixed(2)} µs a 4 KB page on one thread)` : '') + '\n';
  const header = `distalyze bench — ${M.cpu}, ${M.cores} cores, ${M.memoryGB} GB RAM, Node ${M.node}, ${M.platform}, commit ${M.commit ?? '?'}${M.workingTreeDirty ? ' (src/ modified)' : ''}${process.env.BENCH_CLI ? `; measuring BENCH_CLI=${CLI}` : ''}\n` +
    `(MB = 10^6 bytes; warm page cache; best of ${P.refRepeat} for references, of ${P.repeat} for distalyze; cpu = user + system time, all threads; cores = cpu / wall;\n` +
    ` load = 1-minute load average when the run started (above ${M.cores}, other work shared the cores and wall times are inflated);\n` +
    ` "vs" = throughput as a share of the reference's; "by cpu" = the same share by cpu time (node loop cpu / this cpu); "×loop" = stage time / node loop time)`;
  const targetTable = table([
    ['target (issue 6)', 'measured', 'goal', 'status', ''],
    ...T.map((t) => [t.name, t.measured, t.goal, t.status, t.note]),
  ]);
  const T17 = targets17(F);
  const target17Table = T17.length === 0 ? '' : `\n${table([
    ['target (issue 17)', 'measured', 'goal', 'status', ''],
    ...T17.map((t) => [t.name, t.measured, t.goal, t.status, t.note]),
  ])}\n`;
  const text = `${header}\n${scalingLine}\n${blocks.join('\n\n')}\n\n${targetTable}\n${target17Table}`;
  process.stdout.write(text);

  const result = {
    date: new Date().toISOString(),
    machine: M,
    params: { ...P, translator: relative(ROOT, P.translator), out: relative(ROOT, P.out) },
    targets: TARGETS,
    sets: F,
    verdicts: T,
    verdicts17: T17,
    table: text,
  };
  mkdirSync(dirname(P.out), { recursive: true });
  writeFileSync(P.out, `${JSON.stringify(result, null, 2)}\n`);
  log(`results written to ${relative(ROOT, P.out)}`);
}

await main();
