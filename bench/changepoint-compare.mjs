#!/usr/bin/env node
// The change-point method against the only change-point package on npm.
//
//   npm run build && npm install --no-save bayesian-changepoint && node bench/changepoint-compare.mjs
//
// The test alone on 20 000 pure-noise series (its calibration); then
// 200 series of 30 N(0,1) points (no change) and 200 with a step of 3σ at
// point 19, same seeds for both methods: the share of null series with any
// alarm, the share of step series with exactly one change at 19, and the time.
// bayesian-changepoint is not a dependency (docs/dependencies.md and docs/method.md, "Nightly runs: check and history": why).

import { changePoints } from '../dist/history/changepoint.js';
import { mulberry32, normal } from '../fixtures/generate.mjs';

function series(seed) {
  const rng = mulberry32(seed);
  const out = [];
  for (let s = 0; s < 200; s++) {
    out.push({ null: Array.from({ length: 30 }, () => normal(rng)), step: Array.from({ length: 30 }, (_, i) => (i >= 19 ? 3 : 0) + normal(rng)) });
  }
  return out;
}

function measure(name, detect) {
  let alarms = 0;
  let exact = 0;
  const t0 = performance.now();
  series(3).forEach((s, i) => {
    if (detect(s.null, i).length > 0) alarms++;
    const at = detect(s.step, i);
    if (at.length === 1 && at[0] === 19) exact++;
  });
  console.log(`${name}: null series with an alarm ${(alarms / 2).toFixed(1)}%, step found exactly at 19 ${(exact / 2).toFixed(1)}%, ${((performance.now() - t0) / 1000).toFixed(2)} s`);
}

// Calibration of the test alone: 20 000 pure-noise series at threshold 0.01 (expected 200 ± 14 alarms).
{
  const rng = mulberry32(12345);
  let alarms = 0;
  for (let s = 0; s < 20_000; s++) {
    const x = Float64Array.from({ length: 30 }, () => normal(rng));
    if (changePoints(x, { threshold: 0.01, seed: 1_000_003 * s }).length > 0) alarms++;
  }
  console.log(`calibration: ${alarms} alarms in 20000 pure-noise series at threshold 0.01 (${(alarms / 200).toFixed(2)}%)`);
}

measure('distalyze (permutation max-t, threshold 0.01)', (x, i) => changePoints(Float64Array.from(x), { threshold: 0.01, seed: i }).map((c) => c.at));
let BCP;
try {
  const mod = await import('bayesian-changepoint');
  BCP = mod.default?.default ?? mod.default ?? mod;
} catch {
  console.log('bayesian-changepoint: not installed (npm install --no-save bayesian-changepoint)');
}
if (BCP !== undefined) {
  measure('bayesian-changepoint 1.0.1 (every break point kept)', (x) => {
    const d = new BCP({ breakpointVerifier: () => true });
    d.exec(x);
    return d.breakPoints().map((b) => b.index);
  });
}
