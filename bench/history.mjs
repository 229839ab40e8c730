#!/usr/bin/env node
// False-alarm rate of `distalyze history` on histories without any change.
//
//   npm run build && node bench/history.mjs [N=100]
//
// Generates N nightly histories with fixtures/history/generate.mjs (30 runs of
// 6 instances, the same variables as the fixture, the build counter
// config_version included) with neither the variance change nor the
// regression planted, each from its own seed, runs the built CLI on each
// (`history DIR --json -`), and counts the histories where anything was
// flagged as a change (the family-wise false-alarm rate that --alpha 0.05
// bounds) and the series flagged. Also runs the fixture's planted history
// and reports whether both changes were found at their runs. Writes
// bench/results/history.json. Deterministic: same N, same figures.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHistory } from '../fixtures/history/generate.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.argv[2] ?? 100);
const work = mkdtempSync(join(tmpdir(), 'distalyze-history-bench-'));

function history(dir) {
  const started = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/distalyze.js'), 'history', dir, '--json', '-', '--quiet'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`history ${dir}: exit ${r.status}: ${r.stderr}`);
  return { doc: JSON.parse(r.stdout), ms: performance.now() - started };
}

let alarmed = 0;
let seriesFlagged = 0;
let seriesTested = 0;
let driftOnlyVersion = 0;
const times = [];
const examples = [];
for (let i = 0; i < N; i++) {
  const dir = join(work, `null-${i}`);
  writeHistory(dir, { seed: 7_000 + i, varianceAt: null, regressionAt: null });
  const { doc, ms } = history(dir);
  times.push(ms);
  seriesTested += doc.seriesTested;
  seriesFlagged += doc.changes.length;
  if (doc.events.length > 0) {
    alarmed++;
    if (examples.length < 5) examples.push({ seed: 7_000 + i, events: doc.events.map((e) => e.runName), series: doc.changes.map((c) => `${c.variable} ${c.feature} ${c.statistic} @${c.runName}`) });
  }
  if (new Set(doc.drifts.map((d) => d.variable)).size === 1 && doc.drifts[0]?.variable === 'config_version') driftOnlyVersion++;
  rmSync(dir, { recursive: true, force: true });
}

const planted = join(work, 'planted');
writeHistory(planted);
const p = history(planted).doc;
rmSync(work, { recursive: true, force: true });

times.sort((a, b) => a - b);
const result = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? '', node: process.version },
  histories: N,
  runsPerHistory: 30,
  instancesPerRun: 6,
  falseAlarmHistories: alarmed,
  falseAlarmRate: alarmed / N,
  // 95% Clopper–Pearson upper bound for 0 alarms is 1 − 0.025^(1/N) (3.6% at N = 100).
  seriesTestedPerHistory: seriesTested / N,
  seriesFlaggedTotal: seriesFlagged,
  versionBumpReportedAsDriftOnly: driftOnlyVersion,
  medianSecondsPerHistory: times[Math.floor(times.length / 2)] / 1000,
  examples,
  planted: { events: p.events.map((e) => e.runName), metricChanges: p.changes.filter((c) => c.metric).map((c) => `${c.statistic} @${c.runName}`) },
};
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/history.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(`false alarms: ${alarmed} of ${N} histories without a change (${(100 * alarmed / N).toFixed(1)}%; --alpha 0.05 bounds it at 5%)`);
console.log(`series: ${seriesTested / N} searched per history; ${seriesFlagged} flagged in all ${N}`);
console.log(`version bump reported as "changing every run" (not a change) in ${driftOnlyVersion} of ${N}`);
console.log(`planted history: changes at ${result.planted.events.join(', ')}; P: ${result.planted.metricChanges.join(', ')}`);
console.log(`median ${result.medianSecondsPerHistory.toFixed(2)} s per history (CLI start included)`);
