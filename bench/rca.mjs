#!/usr/bin/env node
// Diagnosis accuracy on real faults (issues 10, 52): does distalyze name the
// injected service, and the code region, of each fault of the TrainTicket day
// in ../shared/datasets/trainticket, or of the OnlineBoutique day in
// ../shared/datasets/onlineboutique (see their README.md)?
//
//   npm run build && npm run bench:rca [-- options]
//
// For every fault of faults.json: good = baseline/, bad = faults/NN/, each
// staged as a temporary directory of symlinks to the class's files (the
// dataset stays read-only), analysed by the built CLI with `--json -` (and,
// where logs are among the sources, the translator examples/trainticket/trainticket.mjs;
// span files are read natively). Then, in the answer —
// the verdict's candidate causes (`verdict.causes`, which never hold P or its
// aliases), or for a build without a verdict the JSON `ranking` with P and its
// aliases left out:
//   service  the rank of the injected service among the distinct services, in
//            rank order: the verdict's components (`verdict.components`, the
//            services it names) first, then the services of the causes after
//            them (a variable's service is the part of its name before
//            the first `:`, without Kubernetes replica suffixes; variables
//            naming no service are passed over);
//   region   the rank of the first variable of that service naming either end
//            of the fault's `inner_label` (`c.s.ContactsServiceImpl#31_c.s.ContactsServiceImpl#34`:
//            `…:c.s.ContactsServiceImpl#31` or `…#34`), among distinct variables.
// A fault whose cause is not ranked at all (not significant) is a miss.
//
// Options:
//   --sources logs|logs+traces|logs+metrics|logs+traces+metrics|traces|traces+metrics|raw|all
//       (default all = each source set the dataset has, in turn: faults.json `sources`;
//       TrainTicket the four with logs, OnlineBoutique, which has no logs, traces and traces+metrics)
//       logs     log.csv.gz;
//       raw      log.csv.gz with no translator (the layout and templates distalyze finds: docs/input.md);
//                only when asked for, not in all.
//       traces   trace.csv.gz (beside the log file, in the same class directory);
//       metrics  --metrics <dataset>/metric/baseline --metrics <dataset>/metric/fault-day
//                where the dataset splits them so, else --metrics <dataset>/metric.
//       A source this build cannot read is reported "not supported by this build" and skipped.
//   --extra "ARGS"     more CLI options for every run (e.g. "--kinds off"), split on spaces
//   --json FILE|-      the whole result as JSON
//   --dataset DIR      default $TRAINTICKET, else ../shared/datasets/trainticket (or ../../shared/…);
//                      e.g. ../shared/datasets/onlineboutique
//   --faults 01,07     only these faults
//
// Plain Node ESM, no dependencies; the runs are sequential (one core each).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceOf } from '../examples/trainticket/trainticket.mjs';
import { childrenCpu } from './children-cpu.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin', 'distalyze.js');
const TRANSLATOR = 'examples/trainticket/trainticket.mjs';
const SOURCES = ['logs', 'logs+traces', 'logs+metrics', 'logs+traces+metrics', 'traces', 'traces+metrics', 'raw'];
const TYPES = ['exception', 'return', 'cpu_contention', 'cpu_consumed', 'network_delay'];

/** The source sets a dataset can give: those of SOURCES made only of the kinds its faults.json lists (default: logs, traces, metrics). */
export function sourceSets(kinds = ['logs', 'traces', 'metrics']) {
  const sets = SOURCES.filter((s) => s.split('+').every((k) => kinds.includes(k)));
  // With logs, every set starts from them (as TrainTicket has always been measured).
  return kinds.includes('logs') ? sets.filter((s) => s.startsWith('logs')) : sets;
}
const KS = [1, 3, 5];

// ---------------------------------------------------------------------------
// Options

/** ../shared/datasets/trainticket beside the checkout (or beside the folder of worktrees). */
function defaultDataset() {
  const near = ['../shared', '../../shared'].map((p) => resolve(ROOT, p, 'datasets/trainticket'));
  return near.find((d) => existsSync(join(d, 'faults.json'))) ?? near[0];
}

function parseArgs(argv) {
  const o = { sources: 'all', extra: '', json: null, dataset: process.env.TRAINTICKET ?? defaultDataset(), faults: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--sources') o.sources = value();
    else if (a === '--extra') o.extra = value();
    else if (a === '--json') o.json = value();
    else if (a === '--dataset') o.dataset = resolve(value());
    else if (a === '--faults') o.faults = value().split(',');
    else throw new Error(`unknown option ${a} (see the header of bench/rca.mjs)`);
  }
  if (o.sources !== 'all' && !SOURCES.includes(o.sources)) throw new Error(`--sources ${o.sources}: one of ${SOURCES.join(', ')}, all`);
  return o;
}

// ---------------------------------------------------------------------------
// Scoring (pure)

/** The fault's code region: the two ends of `inner_label`, split at the `_` between them. */
export function regionEnds(label) {
  const m = /^(.*#\d+|.*? start)_(.*)$/.exec(label);
  return m === null ? [label] : [m[1], m[2]];
}

/** The variables that are P or an alias of it, by every name the JSON may use. */
export function metricNames(json) {
  const names = new Set(['duration']);
  const m = json.metric ?? {};
  for (const k of ['event', 'state']) if (typeof m[k] === 'string') names.add(m[k]);
  const aliases = [m.aliases, json.aliases, json.verdict?.aliases, m.event_aliases, m.eventAliases, m.stateAliases].flat().filter((x) => x !== undefined && x !== null);
  for (const a of aliases) names.add(typeof a === 'string' ? a : a.variable);
  for (const r of json.ranking ?? []) if (r.alias === true || r.isAlias === true) names.add(r.variable);
  return names;
}

/** The candidate causes in answer order, each once: the verdict's, else the ranking's. */
export function candidates(json) {
  const skip = metricNames(json);
  const seen = new Set();
  const out = [];
  for (const r of json.verdict?.causes ?? json.ranking ?? []) {
    if (skip.has(r.variable) || seen.has(r.variable)) continue;
    seen.add(r.variable);
    out.push(r.variable);
  }
  return out;
}

/** `ts-x-service-5dc8d4f9fd-46997:Foo#1` → `ts-x-service`; null for a name without a service. */
export function serviceOfVariable(name) {
  const i = name.indexOf(':');
  return i <= 0 ? null : serviceOf(name.slice(0, i));
}

/**
 * The services of the answer in its order: the verdict's components (the
 * services it names, the waits on calls a common caller placed counted as that
 * caller's), then the services of the candidate causes after them.
 */
export function answerServices(json) {
  const out = [];
  for (const c of json.verdict?.components ?? []) {
    const s = serviceOf(c.component);
    if (!out.includes(s)) out.push(s);
  }
  for (const s of rankedServices(candidates(json))) if (!out.includes(s)) out.push(s);
  return out;
}

/** Distinct services in rank order. */
export function rankedServices(variables) {
  const out = [];
  for (const v of variables) {
    const s = serviceOfVariable(v);
    if (s !== null && !out.includes(s)) out.push(s);
  }
  return out;
}

/** Does variable `v` name an end of the fault's region (in the injected service)? */
export function namesRegion(v, fault) {
  if (serviceOfVariable(v) !== fault.service) return false;
  const what = v.slice(v.indexOf(':') + 1);
  return regionEnds(fault.inner_label).some((end) => (/#\d+$/.test(end) ? what === end : what.includes(end)));
}

/** 1-based rank, or null when absent. */
const rankOf = (i) => (i < 0 ? null : i + 1);

export function score(json, fault) {
  const vars = candidates(json);
  const services = answerServices(json);
  return {
    serviceRank: rankOf(services.indexOf(fault.service)),
    regionRank: rankOf(vars.findIndex((v) => namesRegion(v, fault))),
    top3: services.slice(0, 3),
    ranked: vars.length,
  };
}

/** Share of rows with a rank ≤ k, per k. */
function shares(rows, key) {
  const out = {};
  for (const k of KS) out[`top${k}`] = rows.length === 0 ? null : rows.filter((r) => r[key] !== null && r[key] <= k).length / rows.length;
  return out;
}

export function summarize(rows) {
  const groups = {};
  const others = [...new Set(rows.map((r) => r.type))].filter((t) => !TYPES.includes(t)).sort();
  for (const type of [...TYPES, ...others, 'overall']) {
    const sel = type === 'overall' ? rows : rows.filter((r) => r.type === type);
    if (sel.length === 0) continue;
    groups[type] = { faults: sel.length, service: shares(sel, 'serviceRank'), region: shares(sel, 'regionRank') };
  }
  return groups;
}

// ---------------------------------------------------------------------------
// Running the CLI

function git(args) {
  const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

function cli(args) {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, CI: 'true' } });
}

/** A temporary class directory holding symlinks to `files` (absolute paths). */
function stage(root, name, files) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const f of files) symlinkSync(f, join(dir, f.split('/').at(-1)));
  return dir;
}

const classFiles = (dir, source) => [...(source.includes('logs') || source === 'raw' ? [join(dir, 'log.csv.gz')] : []), ...(source.includes('traces') ? [join(dir, 'trace.csv.gz')] : [])];

/** The translator, where log lines are read (span files are read natively). */
const translatorArgs = (source) => (source.includes('logs') ? ['--translator', TRANSLATOR] : []);

/** TrainTicket's metrics: a baseline folder and a fault-day folder; OnlineBoutique's: one folder for the day. */
function metricArgs(dataset) {
  const split = existsSync(join(dataset, 'metric', 'baseline'));
  return (split ? [join(dataset, 'metric', 'baseline'), join(dataset, 'metric', 'fault-day')] : [join(dataset, 'metric')]).flatMap((d) => ['--metrics', d]);
}

/**
 * Can this build read `source`? Traces: the span file alone, through the same
 * translator, must yield records (the translator itself leaves span files
 * untranslated, so only a native span reader makes any). Metrics: the CLI
 * must know --metrics.
 */
function supports(source, dataset, tmp) {
  if (source === 'logs') return { ok: true };
  if (!(cli(['--help']).stdout ?? '').includes('--metrics') && source.includes('metrics')) return { ok: false, why: 'no --metrics option' };
  if (!source.includes('traces')) return { ok: true };
  // One probe directory per source (a second stage() into the same one would find its link there already).
  const probe = stage(tmp, `probe-traces-${source.replace(/\+/g, '-')}`, [join(dataset, 'baseline', 'trace.csv.gz')]);
  const r = cli(['translate', ...translatorArgs('logs'), probe, '-o', '-']);
  if (r.status !== 0 || !/^E\t/m.test(r.stdout ?? '')) return { ok: false, why: 'span files (trace.csv) give no records' };
  return { ok: true };
}

function runFault(fault, source, o, tmp) {
  const dir = join(tmp, `${source.replace(/\+/g, '-')}-${fault.fault}`);
  const good = stage(dir, 'good', classFiles(join(o.dataset, 'baseline'), source));
  const bad = stage(dir, 'bad', classFiles(join(o.dataset, 'faults', fault.fault), source));
  const metrics = source.includes('metrics') ? metricArgs(o.dataset) : [];
  const extra = o.extra.split(/\s+/).filter((x) => x !== '');
  const started = process.hrtime.bigint();
  const cpuBefore = childrenCpu();
  const r = cli([good, bad, ...translatorArgs(source), '--json', '-', ...metrics, ...extra]);
  const cpuAfter = childrenCpu();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  rmSync(dir, { recursive: true, force: true });
  const cpu = cpuBefore === null || cpuAfter === null ? null : Math.round((cpuAfter - cpuBefore) * 100) / 100;
  const row = { fault: fault.fault, type: fault.type, service: fault.service, inner_label: fault.inner_label, seconds: Math.round(seconds * 100) / 100, cpu };
  if (r.status !== 0) return { ...row, error: (r.stderr ?? '').trim().split('\n')[0] ?? `exit ${r.status}`, serviceRank: null, regionRank: null, top3: [], ranked: 0 };
  const json = JSON.parse(r.stdout);
  return { ...row, ...score(json, fault), instances: { good: json.classes.good.instances, bad: json.classes.bad.instances } };
}

// ---------------------------------------------------------------------------
// Printing

const pct = (x) => (x === null ? '   -' : `${Math.round(100 * x).toString().padStart(3)}%`);

function printTable(source, summary) {
  const lines = [`\nSources: ${source}`, '  type             faults | service  1st  top3  top5 | region  1st  top3  top5'];
  for (const [type, g] of Object.entries(summary)) {
    lines.push(`  ${type.padEnd(16)} ${String(g.faults).padStart(6)} |         ${pct(g.service.top1)}  ${pct(g.service.top3)}  ${pct(g.service.top5)} |        ${pct(g.region.top1)}  ${pct(g.region.top3)}  ${pct(g.region.top5)}`);
  }
  return lines.join('\n');
}

function printRows(rows) {
  const lines = ['  fault type            injected service              svc  region  ranked  top 3 services'];
  for (const r of rows) {
    const rank = (x) => (x === null ? '-' : String(x));
    const tail = r.error !== undefined ? `error: ${r.error}` : r.top3.join(', ');
    lines.push(`  ${r.fault.padEnd(5)} ${r.type.padEnd(15)} ${r.service.padEnd(29)} ${rank(r.serviceRank).padStart(3)}  ${rank(r.regionRank).padStart(6)}  ${String(r.ranked).padStart(6)}  ${tail}`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------

function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!existsSync(CLI) || !existsSync(join(ROOT, 'dist'))) throw new Error('build first: npm run build');
  const spec = JSON.parse(readFileSync(join(o.dataset, 'faults.json'), 'utf8'));
  const faults = spec.faults.filter((f) => o.faults === null || o.faults.includes(f.fault));
  const commit = git(['rev-parse', '--short', 'HEAD']);
  const dirty = (git(['status', '--porcelain', '--untracked-files=no']) ?? '') !== '';
  const tmp = mkdtempSync(join(tmpdir(), 'distalyze-rca-'));
  const say = o.json === '-' ? console.error : console.log; // keep stdout for the JSON
  const result = { dataset: `${spec.system} ${spec.day}`, commit: dirty ? `${commit} (modified)` : commit, extra: o.extra, node: process.version, sources: {} };
  say(`distalyze diagnosis accuracy — ${result.dataset}, ${faults.length} faults, commit ${result.commit}${o.extra !== '' ? `, extra options: ${o.extra}` : ''}`);
  try {
    for (const source of o.sources === 'all' ? sourceSets(spec.sources) : [o.sources]) {
      const can = supports(source, o.dataset, tmp);
      if (!can.ok) {
        say(`\nSources: ${source}: not supported by this build (${can.why})`);
        result.sources[source] = { supported: false, why: can.why };
        continue;
      }
      const rows = faults.map((f) => runFault(f, source, o, tmp));
      const summary = summarize(rows);
      say(printTable(source, summary));
      say(printRows(rows));
      const cpu = rows.every((r) => r.cpu !== null) ? Math.round(rows.reduce((n, r) => n + r.cpu, 0) * 10) / 10 : null;
      say(`  CPU ${cpu === null ? '-' : `${cpu} s`} (all runs), wall ${Math.round(rows.reduce((n, r) => n + r.seconds, 0) * 10) / 10} s`);
      const errors = rows.filter((r) => r.error !== undefined).length;
      if (errors > 0) say(`  ${errors} run(s) failed (counted as misses)`);
      result.sources[source] = { supported: true, summary, cpu, faults: rows };
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  if (o.json !== null) {
    const text = `${JSON.stringify(result, null, 2)}\n`;
    if (o.json === '-') process.stdout.write(text);
    else writeFileSync(o.json, text);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    console.error(`bench:rca: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  }
}
