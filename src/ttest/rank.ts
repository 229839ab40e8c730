import type { LogKind } from '../features/types.js';
import type { RankedVariable, TestResult } from './types.js';

/**
 * The |t| a test contributes to scores (SPEC §3): |t| itself when finite; for
 * a perfectly separated test (|t| = ∞), 2 × the largest finite |t| seen among
 * the tests of the same kind, or 2 × 1 when there is none (or it is 0), so
 * that a separated feature always outweighs any finite one of its kind.
 * NaN for NaN t.
 */
export function scoredAbsT(t: number, maxFiniteAbsT: number): number {
  const abs = Math.abs(t);
  if (abs !== Infinity) return abs;
  return 2 * (maxFiniteAbsT > 0 ? maxFiniteAbsT : 1);
}

/**
 * Variables ranked by Σ scoredAbsT over their *significant* features,
 * descending (SPEC §3). Only variables with at least one significant feature
 * are listed. Ties: `event` before `state`, then variable name in plain UTF-16
 * code-unit order. Each variable's features come strongest first (scored |t|
 * descending, then in the order of `tests`). Deterministic; empty when
 * nothing is significant.
 */
export function rankVariables(
  tests: readonly TestResult[],
  maxFiniteAbsT: { readonly event: number; readonly state: number },
): RankedVariable[] {
  const groups = new Map<string, { variable: string; kind: LogKind; features: TestResult[] }>();
  for (const test of tests) {
    if (!test.significant) continue;
    const key = `${test.kind}\u0000${test.variable}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { variable: test.variable, kind: test.kind, features: [] };
      groups.set(key, group);
    }
    group.features.push(test);
  }
  const ranked = [...groups.values()].map(({ variable, kind, features }) => {
    const cap = maxFiniteAbsT[kind];
    const strength = (r: TestResult): number => scoredAbsT(r.t, cap);
    // Array.prototype.sort is stable: equal strengths keep test order.
    const sorted = [...features].sort((a, b) => strength(b) - strength(a));
    const score = sorted.reduce((sum, r) => sum + strength(r), 0);
    return { variable, kind, score, features: sorted };
  });
  return ranked.sort(
    (a, b) => b.score - a.score || compareCodeUnits(a.kind, b.kind) || compareCodeUnits(a.variable, b.variable),
  );
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
