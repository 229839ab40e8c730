// Large synthetic log sets for the benchmark (bench/run.mjs), written in big
// buffered chunks. Deterministic: every draw comes from seeded mulberry32
// streams (the fixtures' simulation helpers), every time is an integer number
// of microseconds or milliseconds, so the same parameters give the same bytes.
//
//   dlog      GB of dlog across 1 000 instances (one file each): the storage
//             write pipeline of fixtures/ as long runs, same planted cause
//             (lock contention) and red herrings (config_version, heap_mb).
//   requests  one file per class, many request instances switching with `I`
//             records: the fixtures' request simulation (planted: DbReply
//             delayed in bad).
//   log4j     raw log4j-layout text of HBase-like region servers, for the rules
//             translator examples/log4j/log4j.yaml (planted: slow memstore
//             flushes in bad, so the RPC queue backs up).
//
// Each generator writes one file per call of `writeFile(job)`; run.mjs hands
// the jobs of a set to worker threads (this module is also the worker entry).

import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import {
  PIPELINE_CLASSES,
  formatTimestamp,
  mulberry32,
  normal,
  seedStream,
  simulateRequest,
  uniform,
} from '../fixtures/generate.mjs';

/** Bump when the bytes a generator writes change: it is part of the cache key. */
export const GENERATOR_VERSION = 1;

const US_PER_S = 1_000_000;
const CHUNK_LINES = 32 * 1024; // lines buffered before a write (~1–4 MB)

/** A file written in large chunks: lines gathered in an array, joined and written. */
class ChunkedFile {
  constructor(path) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w');
    this.pending = [];
    this.bytes = 0;
    this.lines = 0;
  }
  line(text) {
    this.pending.push(text);
    if (this.pending.length >= CHUNK_LINES) this.flush();
  }
  flush() {
    if (this.pending.length === 0) return;
    this.lines += this.pending.length;
    this.pending.push('');
    this.bytes += writeSync(this.fd, this.pending.join('\n'));
    this.pending = [];
  }
  close() {
    this.flush();
    closeSync(this.fd);
    return { bytes: this.bytes, lines: this.lines };
  }
}

/** A sink that only counts, for calibrating sizes without writing. */
class CountingSink {
  constructor() {
    this.bytes = 0;
    this.lines = 0;
  }
  line(text) {
    this.bytes += text.length + 1; // ASCII only
    this.lines++;
  }
  close() {
    return { bytes: this.bytes, lines: this.lines };
  }
}

const round1 = (x) => Math.round(x * 10) / 10;
const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));

// ---------------------------------------------------------------------------
// dlog: the storage write pipeline as a long run

/**
 * One long run of the fixtures' storage write pipeline (fixtures/README.md),
 * streamed in time order: Start, ReadConfig, `rounds` × (OpenSegment → write
 * → FlushBegin → lock wait + I/O → FlushEnd), Compaction, Finish; states
 * queue_len, cpu_pct, mem_mb, lock_wait_ms, heap_mb sampled every ~1.5 s,
 * config_version once. Events and samples draw from two separate streams so
 * that they can be interleaved as they are produced.
 */
export function writePipelineRun(out, { seed, bad, rounds, startUs }) {
  const rng = mulberry32(seed);
  const cls = bad ? PIPELINE_CLASSES.bad : PIPELINE_CLASSES.good;
  const lockWaitMean = uniform(rng, cls.lockWaitMs[0], cls.lockWaitMs[1]);
  const heapMean = cls.heapMb + 25 * normal(rng);
  const cpuLevel = 55 + 8 * normal(rng);
  const memLevel = 2048 + 150 * normal(rng);
  const queueLevel = 12 + 3 * normal(rng);
  const srng = mulberry32(Math.floor(rng() * 4294967296)); // the samples' stream

  out.line(`# distalyze bench: pipeline run (${bad ? 'bad' : 'good'}), ${rounds} segments`);
  const t0 = startUs;
  let t = t0;
  let ts = t0 + Math.round(uniform(srng, 0.3, 0.7) * US_PER_S); // next sample
  const samplesUntil = (limit) => {
    while (ts < limit) {
      const time = formatTimestamp(ts);
      out.line(`S\t${time}\tqueue_len\t${Math.max(0, Math.round(queueLevel + 1.5 * normal(srng)))}`);
      out.line(`S\t${time}\tcpu_pct\t${round1(clamp(cpuLevel + 2 * normal(srng), 0, 100))}`);
      out.line(`S\t${time}\tmem_mb\t${Math.round(memLevel + 10 * normal(srng))}`);
      out.line(`S\t${time}\tlock_wait_ms\t${round1(Math.max(0, lockWaitMean * (1 + 0.08 * normal(srng))))}`);
      out.line(`S\t${time}\theap_mb\t${round1(heapMean + 5 * normal(srng))}`);
      ts += Math.round(1.5 * uniform(srng, 0.95, 1.05) * US_PER_S);
    }
  };
  const event = (name) => {
    samplesUntil(t);
    out.line(`E\t${formatTimestamp(t)}\t${name}`);
  };
  const after = (seconds) => {
    t += Math.max(1, Math.round(seconds * US_PER_S));
  };

  event('Start');
  after(uniform(rng, 0.02, 0.08));
  event('ReadConfig');
  samplesUntil(t + 1000);
  out.line(`S\t${formatTimestamp(t + 1000)}\tconfig_version\t${cls.configVersion}`);
  for (let k = 0; k < rounds; k++) {
    after(uniform(rng, 0.005, 0.02));
    event('OpenSegment');
    after(Math.max(0.2, 0.6 + 0.08 * normal(rng)));
    event('FlushBegin');
    const lockWaitMs = Math.max(0, lockWaitMean * (1 + 0.08 * normal(rng)));
    after(lockWaitMs / 1000 + uniform(rng, 0.04, 0.12));
    event('FlushEnd');
  }
  after(uniform(rng, 0.1, 0.3));
  event('Compaction');
  after(Math.max(0.3, 1.0 + 0.2 * normal(rng)));
  event('Finish');
}

/** Average bytes per segment round of each class (a short pilot, not written). */
function pipelineBytesPerRound(seed) {
  const pilot = (bad) => {
    const rounds = 400;
    const sink = new CountingSink();
    const seeds = seedStream(seed ^ (bad ? 0xbad : 0x600d), 100);
    for (const s of seeds) writePipelineRun(sink, { seed: s, bad, rounds, startUs: 1763600000 * US_PER_S });
    return sink.bytes / (rounds * seeds.length);
  };
  return { good: pilot(false), bad: pilot(true) };
}

/**
 * The files of the dlog set: `instances` runs, half good half bad, sized so
 * that the set totals about `bytes`. Both classes get the same number of
 * segments (±10 % per run); bad runs are longer, so their files are larger.
 */
export function dlogJobs(root, { bytes, instances, seed }) {
  const perClass = Math.floor(instances / 2);
  const perRound = pipelineBytesPerRound(seed);
  const meanRounds = bytes / (perClass * (perRound.good + perRound.bad));
  const jobs = [];
  for (const cls of ['good', 'bad']) {
    const seeds = seedStream(seed + (cls === 'bad' ? 1 : 0), perClass + 1);
    const rng = mulberry32(seeds[perClass]);
    const day = cls === 'bad' ? 1763683200 : 1763596800;
    for (let i = 0; i < perClass; i++) {
      const rounds = Math.max(1, Math.round(meanRounds * uniform(rng, 0.9, 1.1)));
      const startUs = Math.round((day + i * 60 + uniform(rng, 0, 5)) * US_PER_S);
      jobs.push({
        kind: 'dlog',
        path: `${root}/${cls}/run-${String(i + 1).padStart(4, '0')}.dlog`,
        seed: seeds[i],
        bad: cls === 'bad',
        rounds,
        startUs,
      });
    }
  }
  return jobs;
}

// ---------------------------------------------------------------------------
// requests: one file per class, instances switching with I records

/**
 * `count` requests of the fixtures' web service in one file, each a contiguous
 * block `I req-0000001`, … (as fixtures/pipeline-requests.dlog, at scale).
 * hashedIds: ids not in order, as request ids often are (`I 9e3779b1`, the
 * request's number times 2654435761 mod 2³², in hex: distinct).
 */
export function writeRequestsFile(out, { seed, bad, count, startTime, hashedIds = false, first = 0, width = Math.max(4, String(count).length) }) {
  const seeds = seedStream(seed, count + 1);
  const rng = mulberry32(seeds[count]);
  out.line(`# distalyze bench: ${count} requests (${bad ? 'bad: DB reply delayed' : 'good'})`);
  for (let i = 0; i < count; i++) {
    const n = first + i + 1;
    const start = startTime + (n - 1) * 0.2 + uniform(rng, 0, 0.1);
    out.line(hashedIds ? `I\t${(Math.imul(n, 2654435761) >>> 0).toString(16).padStart(8, '0')}` : `I\treq-${String(n).padStart(width, '0')}`);
    for (const r of simulateRequest({ seed: seeds[i], bad, startTime: start })) {
      const time = formatTimestamp(r.us);
      out.line(r.kind === 'E' ? `E\t${time}\t${r.name}` : `S\t${time}\t${r.name}\t${r.value}`);
    }
  }
}

/**
 * A class's requests in one file, or in `files` files of consecutive requests
 * (as a rotated log: `requests-01.dlog`, …; the ids go on from file to file).
 */
export function requestJobs(root, { requests, seed, hashedIds = false, files = 1 }) {
  const perClass = Math.floor(requests / 2);
  const width = Math.max(4, String(perClass).length);
  return ['good', 'bad'].flatMap((cls) => Array.from({ length: files }, (_, f) => {
    const first = Math.floor((perClass * f) / files);
    return {
      kind: 'requests',
      path: files === 1 ? `${root}/${cls}/requests.dlog` : `${root}/${cls}/requests-${String(f + 1).padStart(String(files).length, '0')}.dlog`,
      seed: seed + (cls === 'bad' ? 1 : 0) + 1000 * f,
      bad: cls === 'bad',
      count: Math.floor((perClass * (f + 1)) / files) - first,
      startTime: cls === 'bad' ? 1763683200 : 1763596800,
      hashedIds,
      first,
      width,
    };
  }));
}

// ---------------------------------------------------------------------------
// log4j: raw text of HBase-like region servers

const pad2 = (n) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** log4j's `yyyy-MM-dd HH:mm:ss,SSS` (UTC), the date part cached per second. */
function log4jClock() {
  let second = NaN;
  let prefix = '';
  return (ms) => {
    const s = Math.floor(ms / 1000);
    if (s !== second) {
      second = s;
      const d = new Date(s * 1000);
      prefix = `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
    }
    return `${prefix},${pad3(ms - s * 1000)}`;
  };
}

const RS = 'org.apache.hadoop.hbase.regionserver';
const RPC = 'org.apache.hadoop.hbase.ipc.RpcServer';

/**
 * One long region-server run in log4j's default layout, in the vocabulary of
 * examples/log4j/log4j.yaml (see fixtures/raw/generate.mjs for the short
 * version): start-up, then `cycles` × (RPC queue stats, a memstore flush,
 * block-cache DEBUG chatter), a compaction every 20 cycles, a slow call with a
 * stack trace now and then, Shutdown complete. Bad runs flush slowly (a slow
 * disk: 2.4–3.6 s instead of 0.3–0.6 s) and their RPC queue backs up.
 */
export function writeRegionServerRun(out, { seed, bad, cycles, node, startMs }) {
  const rng = mulberry32(seed);
  const between = (lo, hi) => Math.round(lo + (hi - lo) * rng());
  const clock = log4jClock();
  let t = startMs + between(0, 900);
  const log = (level, thread, cls, msg) => out.line(`${clock(t)} ${level} [${thread}] ${cls}: ${msg}`);
  log('INFO ', 'main', `${RS}.HRegionServer`, `Starting RegionServer ${node}, port=16020`);
  t += between(40, 80);
  log('DEBUG', 'main', 'org.apache.hadoop.conf.Configuration', 'loaded hbase-site.xml');
  t += between(100, 200);
  log('INFO ', 'main', `${RS}.HRegionServer`, 'Configuration loaded, regions=12');
  for (let w = 1; w <= 3; w++) {
    t += between(5, 20);
    log('INFO ', `Writer-${w}`, `${RS}.wal.FSHLog`, `Writer ${w} started`);
  }
  for (let i = 0; i < cycles; i++) {
    t += between(800, 1200);
    const queue = bad ? between(20, 60) : between(0, 6);
    log('INFO ', `RpcServer.handler=${i % 30}`, RPC, `callQueue stats: queue=${queue} handlers=30`);
    for (let k = between(1, 4); k > 0; k--) {
      t += between(1, 40);
      log('DEBUG', `RpcServer.handler=${between(0, 29)}`, RPC, `call multi(${between(1, 500)} actions) from 10.0.${between(0, 9)}.${between(1, 254)}:${between(40000, 60000)} processed in ${between(1, 30)}ms`);
    }
    t += between(10, 50);
    const size = between(100, 140);
    const flushMs = bad ? between(2400, 3600) : between(300, 600);
    t += flushMs;
    log('INFO ', `MemStoreFlusher.${i % 2}`, `${RS}.HRegion`, `Flushed memstore size=${size}MB in ${flushMs}ms, region=usertable,r${i % 12}`);
    if (rng() < 0.05) {
      t += between(20, 60);
      log('WARN ', `RpcServer.handler=${i % 30}`, RPC, 'Slow call: multi, responseTooSlow');
      out.line('java.io.IOException: Connection reset by peer');
      out.line('\tat sun.nio.ch.FileDispatcherImpl.read0(Native Method)');
      out.line('\tat org.apache.hadoop.hbase.ipc.RpcServer$Connection.readAndProcess(RpcServer.java:1592)');
    }
    t += between(5, 30);
    log('DEBUG', 'LruBlockCache', `${RS}.LruBlockCache`, `totalSize=${between(200, 400)}MB hitRatio=0.9${between(0, 9)}`);
    if (i % 20 === 19) {
      t += between(500, 900);
      log('INFO ', `regionserver/${node}.compactor`, `${RS}.CompactSplit`, `Compaction started, region=usertable,r${i % 12}`);
      t += bad ? between(4000, 6000) : between(1500, 2500);
      log('INFO ', `regionserver/${node}.compactor`, `${RS}.CompactSplit`, `Compaction completed, region=usertable,r${i % 12}`);
    }
  }
  t += between(100, 300);
  log('INFO ', 'main', `${RS}.HRegionServer`, 'Shutdown complete');
}

export function log4jJobs(root, { bytes, files, seed }) {
  const perClass = Math.floor(files / 2);
  // Pilot: bytes per cycle (the text does not depend on the class much).
  const sink = new CountingSink();
  writeRegionServerRun(sink, { seed, bad: false, cycles: 2000, node: 'rs-1', startMs: Date.UTC(2026, 10, 20, 10) });
  writeRegionServerRun(sink, { seed: seed + 1, bad: true, cycles: 2000, node: 'rs-1', startMs: Date.UTC(2026, 10, 20, 10) });
  const cycles = Math.max(1, Math.round(bytes / (2 * perClass) / (sink.bytes / 4000)));
  const jobs = [];
  for (const cls of ['good', 'bad']) {
    const seeds = seedStream(seed + (cls === 'bad' ? 11 : 10), perClass);
    for (let i = 0; i < perClass; i++) {
      jobs.push({
        kind: 'log4j',
        path: `${root}/${cls}/rs-${String(i + 1).padStart(3, '0')}.log`,
        seed: seeds[i],
        bad: cls === 'bad',
        cycles,
        node: `rs-${i + 1}`,
        startMs: Date.UTC(2026, 10, cls === 'bad' ? 21 : 20, 10, 0, 0),
      });
    }
  }
  return jobs;
}

// ---------------------------------------------------------------------------

/** Write one file of a set; returns its bytes and lines. */
export function writeFile(job) {
  const out = new ChunkedFile(job.path);
  if (job.kind === 'dlog') writePipelineRun(out, job);
  else if (job.kind === 'requests') writeRequestsFile(out, job);
  else if (job.kind === 'log4j') writeRegionServerRun(out, job);
  else throw new Error(`unknown generator ${job.kind}`);
  return out.close();
}

// Worker entry: write the jobs handed over one at a time.
if (!isMainThread && workerData?.benchGenerator === true) {
  parentPort.on('message', (job) => {
    if (job === null) {
      parentPort.close();
      return;
    }
    parentPort.postMessage({ path: job.path, ...writeFile(job) });
  });
}
