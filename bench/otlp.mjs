#!/usr/bin/env node
// OTLP/JSON logs with no translator (issue 53): CPU of reading a LogsData line's log records, against the same
// records flattened to JSON Lines (one record a line, as `jq` would make them).
//
//   npm run build && node bench/otlp.mjs [MB=80]
//
// Generates (once, seeded) a good and a bad file of ~MB each under bench/data/otlp-<MB>MB/: one LogsData object a
// line as the collector's file exporter writes it (12 services, batches of ~100 records grouped by resource, requests of 4–9 records a trace id,
// attributes of every type, some kvlist bodies, some records with no time but an observed one; planted in bad: a
// slow `charge` in payment), and their records flattened to JSON Lines by src/parse/otlp.ts (otlpLines) in
// flat-good/ and flat-bad/. Then runs `distalyze GOOD BAD --quiet --json /dev/null --jobs J` on each pair
// (BENCH_JOBS, default 1), BENCH_REPEAT times (default 1; the least CPU kept), and prints CPU (user + system, the
// child's), the parse stage's seconds (--timings) and the ratios OTLP / flat. BENCH_CLI measures another build's bin/distalyze.js.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childrenCpu } from './children-cpu.mjs';
import { mulberry32 } from '../fixtures/generate.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MB = Number(process.argv[2] ?? 80);
const JOBS = Number(process.env.BENCH_JOBS ?? 1);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 1);
const CLI = process.env.BENCH_CLI ?? join(ROOT, 'bin', 'distalyze.js');
// BENCH_OTLP_TRACES=0: records with no trace id (instances by the resource's host: few, so that the analysis after
// parsing costs little and the CPU is the reading's).
const TRACES = process.env.BENCH_OTLP_TRACES !== '0';
const DIR = join(ROOT, 'bench', 'data', `otlp-${MB}MB-v4${TRACES ? '' : '-notrace'}`);
const log = (s) => process.stdout.write(`${s}\n`);

const SERVICES = ['gateway', 'checkout', 'payment', 'cart', 'catalog', 'shipping', 'email', 'currency', 'ads', 'recommend', 'auth', 'search'];
const str = (s) => ({ stringValue: s });

/** One file's lines: LogsData objects of ~100 records each, until ~MB megabytes. */
async function writeOtlp(path, flatPath, seed, bad) {
  const { otlpLines } = await import(join(ROOT, 'dist', 'parse', 'otlp.js'));
  const rnd = mulberry32(seed);
  const hex = (n) => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const out = createWriteStream(`${path}.tmp`);
  const flat = createWriteStream(`${flatPath}.tmp`);
  let bytes = 0;
  let t = 1796637600;
  while (bytes < MB * 1e6) {
    // (A batch of ~100 records: requests of 4–9 records each, one trace id a request, spread over the services.)
    const records = new Map();
    for (let n = 0; n < 100;) {
      const trace = hex(32);
      const steps = 4 + Math.floor(rnd() * 6);
      for (let i = 0; i < steps; i++, n++) {
        t += rnd() * 0.002;
        const s = i === 0 ? 'gateway' : pick(SERVICES);
        const ns = `${Math.floor(t)}${String(Math.floor((t % 1) * 1e9)).padStart(9, '0')}`;
        const kind = i === 0 ? 0 : rnd();
        let body;
        const attributes = [{ key: 'k8s.pod.name', value: str(`${s}-5c95b49cff-${pick(['tdsdz', 'h2v9k', 'p6r3b'])}`) }, { key: 'thread.name', value: str(`worker-${Math.floor(rnd() * 8)}`) }];
        if (kind < 0.3) {
          body = str(`request ${pick(['GET', 'POST'])} /api/${s}/${Math.floor(rnd() * 1000)} took ${Math.floor(rnd() * 50)} ms`);
          attributes.push({ key: 'http.response.status_code', value: { intValue: rnd() < 0.95 ? '200' : '503' } });
        } else if (kind < 0.5) {
          const slow = bad && s === 'payment';
          body = str(`charge ${Math.floor(rnd() * 1e8)} ok`);
          attributes.push({ key: 'duration_ms', value: { doubleValue: Math.round((slow ? 200 : 20) + rnd() * 30) / 10 } }, { key: 'retried', value: { boolValue: rnd() < 0.1 } });
        } else if (kind < 0.75) {
          body = { kvlistValue: { values: [{ key: 'msg', value: str('cache lookup') }, { key: 'hits', value: { intValue: Math.floor(rnd() * 100) } }, { key: 'level', value: str('debug') }] } };
        } else {
          body = str(`order ${Math.floor(rnd() * 99999)} placed with ${1 + Math.floor(rnd() * 5)} items`);
          attributes.push({ key: 'tags', value: { arrayValue: { values: [str('a'), str('b')] } } }, { key: 'code.lineno', value: { intValue: 42 } });
        }
        // (One record in 20 with no time, only the observed one, as the data model allows.)
        const untimed = rnd() < 0.05;
        const r = { ...(untimed ? {} : { timeUnixNano: ns }), observedTimeUnixNano: ns, severityNumber: kind < 0.5 ? 9 : 5, ...(rnd() < 0.5 ? { severityText: kind < 0.5 ? 'INFO' : 'DEBUG' } : {}), body, attributes, ...(TRACES ? { traceId: trace, spanId: hex(16) } : {}) };
        if (!records.has(s)) records.set(s, []);
        records.get(s).push(r);
      }
    }
    const line = JSON.stringify({
      resourceLogs: [...records].map(([s, logRecords]) => ({
        resource: { attributes: [{ key: 'service.name', value: str(s) }, { key: 'k8s.namespace.name', value: str('shop') }, { key: 'host.name', value: str(`node-${s.length % 3}`) }] },
        scopeLogs: [{ scope: { name: `com.example.shop.${s}` }, logRecords }],
      })),
    });
    bytes += line.length + 1;
    if (!out.write(`${line}\n`)) await new Promise((r) => out.once('drain', r));
    if (!flat.write(`${otlpLines(line).join('\n')}\n`)) await new Promise((r) => flat.once('drain', r));
  }
  await Promise.all([new Promise((r) => out.end(r)), new Promise((r) => flat.end(r))]);
  renameSync(`${path}.tmp`, path);
  renameSync(`${flatPath}.tmp`, flatPath);
}

if (!existsSync(join(DIR, 'done'))) {
  rmSync(DIR, { recursive: true, force: true });
  for (const d of ['good', 'bad', 'flat-good', 'flat-bad']) mkdirSync(join(DIR, d), { recursive: true });
  log(`generating ${MB} MB a class of OTLP/JSON logs in ${DIR} …`);
  await writeOtlp(join(DIR, 'good', 'logs.jsonl'), join(DIR, 'flat-good', 'logs.jsonl'), 1, false);
  await writeOtlp(join(DIR, 'bad', 'logs.jsonl'), join(DIR, 'flat-bad', 'logs.jsonl'), 2, true);
  writeFileSync(join(DIR, 'done'), '');
}

/** Of REPEAT runs on a pair, the one of least CPU: its CPU seconds and its parse stage's wall seconds (--timings). */
function measure(good, bad) {
  let best = { cpu: Infinity, parse: NaN };
  for (let i = 0; i < REPEAT; i++) {
    const before = childrenCpu();
    const r = spawnSync(process.execPath, [CLI, good, bad, '--quiet', '--timings', '--json', '/dev/null', '--jobs', String(JOBS)], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`distalyze exited ${r.status}: ${String(r.stderr).split('\n')[0]}`);
    const cpu = childrenCpu() - before;
    const timings = `${r.stdout}\n${r.stderr}`.split('\n').find((l) => l.startsWith('{"stages"'));
    if (cpu < best.cpu) best = { cpu, parse: timings === undefined ? NaN : JSON.parse(timings).stages.parse / 1000 };
  }
  return best;
}

const otlp = measure(join(DIR, 'good'), join(DIR, 'bad'));
const flat = measure(join(DIR, 'flat-good'), join(DIR, 'flat-bad'));
log(`-j${JOBS}: OTLP/JSON ${otlp.cpu.toFixed(2)} s CPU (parse stage ${otlp.parse.toFixed(2)} s), the same records as JSON Lines ` +
  `${flat.cpu.toFixed(2)} s CPU (parse ${flat.parse.toFixed(2)} s): ${(otlp.cpu / flat.cpu).toFixed(2)}x CPU, ${(otlp.parse / flat.parse).toFixed(2)}x parse`);
