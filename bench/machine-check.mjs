// How well does this machine itself run two threads at once?
//
//   node bench/machine-check.mjs                    prints one JSON line
//   node bench/machine-check.mjs strings --rounds=3 only string parsing, best of 3
//                                                   (what the bench runs beside
//                                                   each round of distalyze runs)
//   node bench/machine-check.mjs files --list=LISTFILE --rounds=3
//                                                   string parsing of those files
//                                                   (one path per line; the bench
//                                                   runs it beside the strings)
//
// The same fixed amount of work per thread, on 1 and then 2 worker threads,
// alternating (best of ROUNDS each: 3 for the steady arithmetic, 9 for string
// parsing, whose ~0.4 s runs on a shared VM read 1.19×, 1.92× and 1.75× in
// three checks in a row with 3; the bench holds distalyze's 2-core speed-up
// against it); scaling = 2 × time(1 thread) / time(2 threads), so 2.0 is
// perfect and 1.0 means the second core added nothing (above 2.0, the
// one-thread runs were slowed: no figure):
//   compute  integer arithmetic in registers (no memory traffic)
//   memory   summing a 256 MB Float64Array (memory bandwidth)
//   strings  slicing lines out of a string and parsing numbers (what a log
//            parser does: short-lived allocations, young-generation GC)
//   fresh    writing 256 MB of newly allocated memory, one value per 4 KB
//            page: the kernel maps and zeroes each page on its first write
//            (a page fault). Feature columns and held records of a million
//            requests are ~1.4 GB written this way once.
//   files    the node line loop's work (bench/line-loop.mjs: 64 KB chunks,
//            UTF-8 decoded, every line a string) on the files of --list, read
//            with synchronous reads (no stream machinery, which scaled worse
//            still): one thread reads them all, then two threads half each
//            (balanced by bytes), so scaling = time(1 thread) / time(2 threads).
//            String parsing with the reading of real files in it: the kernel's
//            copy of each file into memory scaled 1.02–1.22× here by itself.
// On a shared or virtualised machine the second and third often scale far
// worse than the first; distalyze's parse stage cannot scale better than them.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { LineSplitter } from './line-split.mjs';

const ROUNDS = { compute: 3, memory: 5, strings: 9, fresh: 5, files: 3 };
/** Kinds run only when asked for by name (they need an argument). */
const NAMED_ONLY = new Set(['files']);
const FILE_CHUNK = 64 * 1024;
const FRESH_VALUES = 32 << 20;
const PAGE_VALUES = 4096 / Float64Array.BYTES_PER_ELEMENT;

/** The line loop over `paths`: lines plus characters. */
function lineLoop(paths) {
  const chunk = Buffer.allocUnsafe(FILE_CHUNK);
  let n = 0;
  for (const path of paths) {
    const fd = openSync(path, 'r');
    try {
      const decoder = new StringDecoder('utf8');
      const split = new LineSplitter();
      for (;;) {
        const got = readSync(fd, chunk, 0, FILE_CHUNK, null);
        if (got === 0) break;
        split.write(decoder.write(chunk.subarray(0, got)));
      }
      split.end(decoder.end());
      n += split.lines + split.chars;
    } finally {
      closeSync(fd);
    }
  }
  return n;
}

/** `paths` in two halves of about equal bytes, each in input order. */
function halves(paths) {
  const out = [[], []];
  const bytes = [0, 0];
  for (const path of paths) {
    const k = bytes[0] <= bytes[1] ? 0 : 1;
    out[k].push(path);
    bytes[k] += statSync(path).size;
  }
  return out;
}

function work(kind, paths) {
  if (kind === 'files') return lineLoop(paths);
  if (kind === 'compute') {
    let x = 0;
    for (let i = 0; i < 2e8; i++) x = (x * 1103515245 + 12345) | 0;
    return x;
  }
  if (kind === 'fresh') {
    // Returns the µs per page (the whole loop's time over the pages first written).
    const t0 = performance.now();
    let pages = 0;
    for (let r = 0; r < 2; r++) {
      const a = new Float64Array(FRESH_VALUES);
      for (let i = 0; i < a.length; i += PAGE_VALUES) a[i] = i;
      pages += a.length / PAGE_VALUES;
    }
    return ((performance.now() - t0) * 1000) / pages;
  }
  if (kind === 'memory') {
    const a = new Float64Array(32 << 20).fill(1);
    let s = 0;
    for (let r = 0; r < 4; r++) for (let i = 0; i < a.length; i++) s += a[i];
    return s;
  }
  const text = 'S\t1763600000.123456\tlock_wait_ms\t1234.5\n'.repeat(4000);
  let n = 0;
  for (let r = 0; r < 300; r++) {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      const line = text.slice(start, nl);
      const t2 = line.indexOf('\t', 2);
      const t3 = line.lastIndexOf('\t');
      n += Number(line.slice(2, t2)) + Number(line.slice(t3 + 1)) + line.slice(t2 + 1, t3).length;
      start = nl + 1;
    }
  }
  return n;
}

/**
 * The wall time of one thread per element of `parts` doing `kind` at once, and what the first one returned. For
 * files, each element is the paths that thread reads (the others ignore them).
 */
async function timeThreads(kind, parts) {
  const t0 = performance.now();
  const results = await Promise.all(parts.map((paths) => new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { kind, paths } });
    w.on('message', resolve);
    w.on('error', reject);
  })));
  return { ms: performance.now() - t0, result: results[0] };
}

if (isMainThread) {
  const args = process.argv.slice(2);
  const roundsArg = args.find((a) => a.startsWith('--rounds='));
  const rounds = roundsArg === undefined ? null : Number(roundsArg.slice('--rounds='.length));
  if (rounds !== null && !(Number.isInteger(rounds) && rounds >= 1)) throw new Error(`${roundsArg}: not a whole number ≥ 1`);
  const listArg = args.find((a) => a.startsWith('--list='));
  const named = args.filter((a) => !a.startsWith('--'));
  for (const k of named) if (!(k in ROUNDS)) throw new Error(`unknown kind '${k}' (${Object.keys(ROUNDS).join(', ')})`);
  if (named.includes('files') && listArg === undefined) throw new Error('files: which files? --list=LISTFILE (one path per line)');
  const paths = listArg === undefined ? [] : readFileSync(listArg.slice('--list='.length), 'utf8').split('\n').filter((p) => p.length > 0);
  // One thread reads all the files; two read half each (split once, outside the timing).
  const split = halves(paths);
  const out = {};
  for (const kind of named.length > 0 ? named : Object.keys(ROUNDS).filter((k) => !NAMED_ONLY.has(k))) {
    const one = [];
    const two = [];
    for (let r = 0; r < (rounds ?? ROUNDS[kind]); r++) {
      one.push(await timeThreads(kind, [paths]));
      two.push(await timeThreads(kind, split));
    }
    const fastest = one.reduce((a, b) => (b.ms < a.ms ? b : a));
    const t1 = fastest.ms;
    const t2 = Math.min(...two.map((r) => r.ms));
    // Files: two threads share one thread's work; the others: each thread does one thread's work.
    const perThread = kind === 'files' ? 1 : 2;
    out[kind] = { oneThreadMs: Math.round(t1), twoThreadsMs: Math.round(t2), scaling: Math.round((100 * perThread * t1) / t2) / 100 };
    if (kind === 'fresh') out[kind].usPerPage = Math.round(fastest.result * 1000) / 1000;
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
} else {
  parentPort.postMessage(work(workerData.kind, workerData.paths));
}
