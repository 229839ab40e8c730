import type { LogKind } from '../features/types.js';
import { compareEffect } from './effect.js';
import type { Presence, RankedVariable, TestResult } from './types.js';

/**
 * Variables ranked by Σ|z| over their *significant* features, descending
 * (SPEC §3: z is capped at 38, so a perfectly separated or near-constant
 * feature counts once, not without bound as |t| did). Only variables with at
 * least one significant feature are listed. Ties: the larger effect of the
 * strongest feature first (compareEffect: many features share the capped z),
 * then `event` before `state`, then variable name in plain UTF-16 code-unit
 * order. Each variable's features come strongest first (|z| descending, then
 * effect, then |t|, then test order). Deterministic;
 * empty when nothing is significant.
 */
export function rankVariables(tests: readonly TestResult[]): RankedVariable[] {
  const groups = new Map<string, { variable: string; kind: LogKind; presence: Presence; features: TestResult[] }>();
  for (const test of tests) {
    if (!test.significant) continue;
    const key = `${test.kind}\u0000${test.variable}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { variable: test.variable, kind: test.kind, presence: test.presence, features: [] };
      groups.set(key, group);
    }
    group.features.push(test);
  }
  const ranked = [...groups.values()].map(({ variable, kind, presence, features }) => {
    // Array.prototype.sort is stable: equal strengths keep test order.
    const sorted = [...features].sort((a, b) => Math.abs(b.z) - Math.abs(a.z) || compareEffect(a, b) || strength(b.t) - strength(a.t));
    const score = sorted.reduce((sum, r) => sum + Math.abs(r.z), 0);
    return { variable, kind, score, presence, features: sorted };
  });
  return ranked.sort(
    (a, b) => b.score - a.score || compareEffect(a.features[0] as TestResult, b.features[0] as TestResult) ||
      compareCodeUnits(a.kind, b.kind) || compareCodeUnits(a.variable, b.variable),
  );
}

function strength(t: number): number {
  return Number.isNaN(t) ? -1 : Math.abs(t);
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
