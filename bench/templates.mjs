#!/usr/bin/env node
// Template mining benchmark (issue 14): raw logs with no translator.
//
//   npm run build && npm run bench:templates
//
// 1. Speed: the generated log4j set (bench/generate.mjs, 300 MB by default,
//    BENCH_LOG4J_MB) analysed with no translator (templates mined, then
//    translated) and with the rules translator examples/log4j/log4j.yaml, both
//    with --jobs BENCH_JOBS (2), in the same run: parse MB/s and lines/s of
//    each, the ratio, the CPU (user + system) of each run and its ratio
//    (issue 53: mined at most 2x the rules file's), and whether the top cause
//    is the planted one (slow memstore flushes).
// 2. Grouping accuracy on the LogHub 2k samples (Zhu et al., ICSE 2019) of 16
//    systems against their ground truth: the share of lines whose mined group
//    holds exactly the lines of their true template (the published "grouping
//    accuracy"). LogHub is under a research licence and no package of the npm
//    registry ships it: download it yourself (github.com/logpai/loghub, each
//    system's <S>_2k.log_structured.csv; or loghub-2.0's 2k_dataset) and set
//    LOGHUB_DIR to the directory holding the <System>/ folders. Nothing is
//    downloaded here. One setting for all systems: the defaults.
// 3. Drain3 (Python) on the same messages in the same run, when `import
//    drain3` works (pip install drain3): its accuracy and lines/s.
//
// Results are printed and written to bench/results/templates.json.
// BENCH_SPEED=0 skips part 1 (accuracy only; results written to
// bench/results/templates-accuracy.json so the speed figures are kept).
// LOGHUB_DETAIL=1 lists each system's wrong raw-line groups with example lines.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { GENERATOR_VERSION, log4jJobs, writeFile } from './generate.mjs';
import { childrenCpu } from './children-cpu.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = join(ROOT, 'bench', 'data');
const MB = Number(process.env.BENCH_LOG4J_MB ?? 300);
const JOBS = Number(process.env.BENCH_JOBS ?? 2);
const LOGHUB = process.env.LOGHUB_DIR;
// BENCH_SPEED=0: skip the speed part (only the grouping accuracy, in seconds).
const SPEED = process.env.BENCH_SPEED !== '0';
const SYSTEMS = ['HDFS', 'Hadoop', 'Spark', 'Zookeeper', 'BGL', 'HPC', 'Thunderbird', 'Windows', 'Linux', 'Android',
  'HealthApp', 'Apache', 'Proxifier', 'OpenSSH', 'OpenStack', 'Mac'];
const log = (s) => process.stdout.write(`${s}\n`);
const results = { machine: { node: process.version }, speed: null, accuracy: null };

// ---------------------------------------------------------------------------
// 1. Speed

function ensureLog4j() {
  const dir = join(DATA, `templates-log4j-${MB}MB-100f-s201-${GENERATOR_VERSION}`);
  if (existsSync(join(dir, 'manifest.json'))) return { dir, ...JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) };
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(join(tmp, 'good'), { recursive: true });
  mkdirSync(join(tmp, 'bad'), { recursive: true });
  log(`generating ${MB} MB of log4j logs in ${dir} …`);
  let bytes = 0;
  let lines = 0;
  for (const job of log4jJobs(tmp, { bytes: MB * 1e6, files: 100, seed: 201 })) {
    const r = writeFile(job);
    bytes += r.bytes;
    lines += r.lines;
  }
  writeFileSync(join(tmp, 'manifest.json'), JSON.stringify({ bytes, lines }));
  renameSync(tmp, dir);
  return { dir, bytes, lines };
}

function analyse(set, extra) {
  const args = [join(ROOT, 'bin/distalyze.js'), join(set.dir, 'good'), join(set.dir, 'bad'), '--quiet', '--timings', '--json', '-', '--jobs', String(JOBS), ...extra];
  const t0 = performance.now();
  const cpu0 = childrenCpu();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, CI: 'true' } });
  const wall = performance.now() - t0;
  const cpu1 = childrenCpu();
  const cpuS = cpu0 === null || cpu1 === null ? null : Math.round((cpu1 - cpu0) * 100) / 100;
  if (r.status !== 0) throw new Error(`distalyze failed: ${r.stderr}`);
  const timings = JSON.parse(r.stderr.trim().split('\n').pop());
  const json = JSON.parse(r.stdout);
  const top = json.ranking.find((x) => x.variable !== 'duration')?.variable;
  return { wallMs: Math.round(wall), cpuS, parseMs: timings.stages.parse, top, MBps: set.bytes / 1e6 / (timings.stages.parse / 1000), linesPerS: set.lines / (timings.stages.parse / 1000) };
}

if (SPEED) {
const set = ensureLog4j();
// Warm the page cache (untimed), so both runs read from memory.
spawnSync('cat', [...readdirSync(join(set.dir, 'good')).map((f) => join(set.dir, 'good', f)), ...readdirSync(join(set.dir, 'bad')).map((f) => join(set.dir, 'bad', f))], { stdio: 'ignore' });
const mined = analyse(set, []);
const rules = analyse(set, ['--translator', join(ROOT, 'examples/log4j/log4j.yaml')]);
results.speed = { bytes: set.bytes, lines: set.lines, jobs: JOBS, mined, rules, ratio: mined.MBps / rules.MBps,
  cpuRatio: mined.cpuS !== null && rules.cpuS ? mined.cpuS / rules.cpuS : null };
log(`== speed: log4j, ${(set.bytes / 1e6).toFixed(0)} MB, ${(set.lines / 1e6).toFixed(2)} M lines, --jobs ${JOBS}`);
for (const [name, r] of [['no translator (mined templates)', mined], ['rules translator', rules]]) {
  log(`  ${name.padEnd(32)} parse ${(r.parseMs / 1000).toFixed(1)} s  ${r.MBps.toFixed(0)} MB/s  ${(r.linesPerS / 1e6).toFixed(2)} M lines/s  wall ${(r.wallMs / 1000).toFixed(1)} s  cpu ${r.cpuS?.toFixed(2) ?? '?'} s  top: ${r.top}`);
}
log(`  mined / rules: ${(100 * results.speed.ratio).toFixed(0)} % of the speed   (target: >= 50 MB/s on two cores)`);
log(`  CPU mined / rules: ${results.speed.cpuRatio?.toFixed(2) ?? '?'}x   (target, issue 53: <= 2x)`);
} else {
  log('== speed: skipped (BENCH_SPEED=0)');
}

// ---------------------------------------------------------------------------
// 2. Grouping accuracy on LogHub 2k

/** Minimal CSV (RFC 4180 quotes) for the structured files. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') { field += '"'; i++; } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); field = '';
      rows.push(row); row = [];
    } else field += c;
  }
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
  return rows.filter((r) => r.length > 1);
}

/** Grouping accuracy (Zhu et al. 2019): lines whose predicted group equals their true group, as a set. */
export function groupingAccuracy(truth, predicted) {
  const byTruth = new Map();
  const byPred = new Map();
  truth.forEach((t, i) => { (byTruth.get(t) ?? byTruth.set(t, []).get(t)).push(i); });
  predicted.forEach((p, i) => { (byPred.get(p) ?? byPred.set(p, []).get(p)).push(i); });
  let correct = 0;
  for (const lines of byPred.values()) {
    const t = truth[lines[0]];
    if (lines.every((i) => truth[i] === t) && byTruth.get(t).length === lines.length) correct += lines.length;
  }
  return correct / truth.length;
}

/**
 * Grouping on RAW lines (issue 53), as distalyze mines them: the system's `<S>_2k.log` is mined as one file (its
 * timestamp and header learned, the message mined) and each line's template read back as `templates --lines`
 * does, grouped by event (the template's name). A line no template takes (no time, a header) is a group of its own. Truth: the structured file's EventId
 * of the same line.
 */
async function rawLineIds(logPath) {
  const { listInputFiles } = await import('../dist/parse/files.js');
  const { mineTemplates, lineTemplates, templateTranslator } = await import('../dist/parse/templates/index.js');
  const files = await listInputFiles(logPath, 'good');
  const model = await mineTemplates({ good: files, bad: [] }, { year: 2017 });
  const ids = [];
  // (A line's event is its template's name: templates of one skeleton share it, drain.ts, as groupMessages does.)
  for (const [line, id] of await lineTemplates(model, files[0])) ids[line - 1] = id < 0 ? `none:${line}` : model.templates[id].name;
  // templates -o: the share of lines to which the rules file written from the mining gives the miner's events.
  const { rulesYaml } = await import('../dist/parse/templates/rules.js');
  const { loadTranslator } = await import('../dist/parse/translators/load.js');
  const rulesPath = join(tmpdir(), `distalyze-bench-rules-${process.pid}.yaml`);
  writeFileSync(rulesPath, rulesYaml(model));
  const mined = await eventsByLine(files[0], templateTranslator(model));
  const viaRules = await eventsByLine(files[0], await loadTranslator(rulesPath, { year: 2017 }));
  rmSync(rulesPath, { force: true });
  let same = 0;
  // (A line's events in any order: a rules file gives the level's event first.)
  const key = (events) => JSON.stringify([...(events ?? [])].sort());
  for (let i = 0; i < mined.length; i++) if (key(mined[i]) === key(viaRules[i])) same++;
  return { ids, templates: model.templates.length, rulesShare: same / Math.max(1, mined.length) };
}

/** Per line of a file, the event names a line translator gives it. */
async function eventsByLine(file, translator) {
  const out = [];
  let line = 0;
  const ctx = { file: file.path, relativePath: file.relativePath, className: 'good' };
  const sink = { instance: () => undefined, event: (_t, name) => { (out[line - 1] ??= []).push(name); }, state: () => undefined };
  translator.beginFile?.(ctx, sink);
  for (const text of readFileSync(file.path, 'utf8').split('\n')) {
    line++;
    if (text !== '') translator.translateLine(text, { ...ctx, line }, sink);
  }
  return out.slice(0, line);
}

// LOGHUB_DETAIL=1: after each system's raw figure, its wrong groups (mined group, the true events it mixes or
// splits, two example lines each).
const DETAIL = process.env.LOGHUB_DETAIL === '1';

/** The mined groups that are not exactly one true event, with example lines, as lines to print. */
function wrongGroups(truth, predicted, lines) {
  const out = [];
  const byTruth = new Map();
  const byPred = new Map();
  truth.forEach((t, i) => { (byTruth.get(t) ?? byTruth.set(t, []).get(t)).push(i); });
  predicted.forEach((p, i) => { (byPred.get(p) ?? byPred.set(p, []).get(p)).push(i); });
  for (const [p, idx] of byPred) {
    const events = [...new Set(idx.map((i) => truth[i]))];
    if (events.length === 1 && byTruth.get(events[0]).length === idx.length) continue;
    out.push(`      mined ${String(p).slice(0, 60)} (${idx.length} lines): true ${events.map((e) => `${e} (${byTruth.get(e).length})`).join(', ')}`);
    for (const i of idx.slice(0, 2)) out.push(`        ${i + 1}: ${lines[i].slice(0, 110)}`);
  }
  return out;
}

function findStructured(system) {
  for (const name of [`${system}_2k.log_structured_corrected.csv`, `${system}_2k.log_structured.csv`]) {
    for (const p of [join(LOGHUB, system, name), join(LOGHUB, name)]) if (existsSync(p)) return p;
  }
  return null;
}

function drain3Available() {
  const r = spawnSync('python3', ['-c', 'import drain3'], { encoding: 'utf8' });
  return r.status === 0;
}

const DRAIN3 = `
import sys, json, time
from drain3 import TemplateMiner
from drain3.template_miner_config import TemplateMinerConfig
msgs = json.load(sys.stdin)
cfg = TemplateMinerConfig()
cfg.profiling_enabled = False
m = TemplateMiner(config=cfg)
t0 = time.perf_counter()
ids = [m.add_log_message(x)["cluster_id"] for x in msgs]
dt = time.perf_counter() - t0
print(json.dumps({"ids": ids, "seconds": dt}))
`;

if (LOGHUB === undefined) {
  log('\n== grouping accuracy: skipped (set LOGHUB_DIR to the LogHub 2k samples; see the header of this file)');
} else {
  const { groupMessages } = await import('../dist/parse/templates/index.js');
  const withDrain3 = drain3Available();
  log(`\n== grouping accuracy, LogHub 2k (${LOGHUB}), default parameters for every system${withDrain3 ? ', vs Drain3' : ' (Drain3 not installed: pip install drain3)'}`);
  const rows = [];
  for (const system of SYSTEMS) {
    const path = findStructured(system);
    if (path === null) { log(`  ${system.padEnd(12)} missing`); continue; }
    const table = parseCsv(readFileSync(path, 'utf8'));
    const header = table[0];
    const ci = header.indexOf('Content');
    const ei = header.indexOf('EventId');
    const data = table.slice(1);
    const truth = data.map((r) => r[ei]);
    const row = { system, lines: data.length, accuracy: null, linesPerS: null };
    // (A structured file without its Content column, as a sample of raw lines with their labels: raw lines only.)
    const messages = ci < 0 ? null : data.map((r) => r[ci]);
    if (messages !== null) {
      // Best of 5 for the speed (2 000 lines are quick).
      let best = Infinity;
      let ids;
      for (let k = 0; k < 5; k++) {
        const t0 = performance.now();
        ids = groupMessages(messages).ids;
        best = Math.min(best, performance.now() - t0);
      }
      row.accuracy = groupingAccuracy(truth, Array.from(ids));
      row.linesPerS = messages.length / (best / 1000);
    }
    if (withDrain3 && messages !== null) {
      const r = spawnSync('python3', ['-c', DRAIN3], { input: JSON.stringify(messages), encoding: 'utf8', maxBuffer: 1 << 28 });
      if (r.status === 0) {
        const d = JSON.parse(r.stdout);
        row.drain3 = { accuracy: groupingAccuracy(truth, d.ids), linesPerS: messages.length / d.seconds };
      }
    }
    const rawPath = join(dirname(path), `${system}_2k.log`);
    let detail = [];
    if (existsSync(rawPath)) {
      const raw = await rawLineIds(rawPath);
      const n = Math.min(raw.ids.length, truth.length);
      row.raw = { lines: n, accuracy: groupingAccuracy(truth.slice(0, n), raw.ids.slice(0, n)), templates: raw.templates, rulesShare: raw.rulesShare };
      if (DETAIL) detail = wrongGroups(truth.slice(0, n), raw.ids.slice(0, n), readFileSync(rawPath, 'utf8').split('\n'));
    }
    rows.push(row);
    log(`  ${system.padEnd(12)} ${row.raw ? `raw ${row.raw.accuracy.toFixed(3)} (${row.raw.lines} lines; templates -o gives ${(100 * row.raw.rulesShare).toFixed(0)} % of lines the same events)  ` : ''}${row.accuracy === null ? '' : `content ${row.accuracy.toFixed(3)}  ${(row.linesPerS / 1e3).toFixed(0).padStart(6)} k lines/s`}${row.drain3 ? `   Drain3 ${row.drain3.accuracy.toFixed(3)}  ${(row.drain3.linesPerS / 1e3).toFixed(0).padStart(5)} k lines/s` : ''}`);
    for (const d of detail) log(d);
  }
  if (rows.length > 0) {
    const content = rows.filter((r) => r.accuracy !== null);
    const avg = (f) => content.reduce((s, r) => s + f(r), 0) / content.length;
    const summary = { systems: content.length, average: avg((r) => r.accuracy), linesPerS: avg((r) => r.linesPerS) };
    if (content.length > 0 && content.every((r) => r.drain3)) summary.drain3 = { average: avg((r) => r.drain3.accuracy), linesPerS: avg((r) => r.drain3.linesPerS) };
    results.accuracy = { rows, summary };
    const raws = rows.filter((r) => r.raw);
    if (raws.length > 0) {
      summary.raw = { systems: raws.length, average: raws.reduce((s, r) => s + r.raw.accuracy, 0) / raws.length, lowest: Math.min(...raws.map((r) => r.raw.accuracy)) };
      log(`  raw lines, average over ${raws.length}: ${summary.raw.average.toFixed(3)}, lowest ${summary.raw.lowest.toFixed(3)} (target: average >= 0.95, none < 0.85)`);
    }
    if (content.length > 0) log(`  content, average over ${content.length}: ${summary.average.toFixed(3)} (target >= 0.90)${summary.drain3 ? `; Drain3 ${summary.drain3.average.toFixed(3)}, ${(summary.linesPerS / summary.drain3.linesPerS).toFixed(1)}x its lines/s` : ''}`);
  }
}

mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', SPEED ? 'templates.json' : 'templates-accuracy.json'), `${JSON.stringify(results, null, 2)}\n`);
