import { describe, it, expect } from 'vitest';
import { rankVariables } from '../src/ttest/rank.js';
import { Z_CAP } from '../src/stats/normal.js';
import type { TestResult } from '../src/ttest/types.js';
import type { FeatureType, LogKind } from '../src/features/types.js';

/** A test whose z is given (t = z, or ±∞ for a separated one whose z is capped). */
function test(variable: string, kind: LogKind, feature: FeatureType, t: number, significant = true): TestResult {
  const z = Math.max(-Z_CAP, Math.min(Z_CAP, t));
  return {
    variable, kind, feature, method: 'welch', t, z, df: 10, p: 0.001, log10p: -3, significant, separated: Math.abs(t) === Infinity,
    presence: 'both', meanGood: 0, meanBad: 0, nGood: 6, nBad: 6, effectSize: 0,
  };
}

describe('rankVariables', () => {
  const tests = [
    test('A', 'event', 'first.abs', 5),
    test('A', 'event', 'last.abs', -3),
    test('A', 'event', 'count', 10, false), // largest finite |t| of events, not significant
    test('B', 'event', 'gap', Infinity), // separated: z capped at 38
    test('D', 'event', 'count', 8),
    test('Z', 'state', 'max', -8),
    test('C', 'state', 'mean', 6),
    test('C', 'state', 'final', 30), // |z| 30
    test('E', 'state', 'min', 1, false), // nothing significant: not ranked
  ];

  it('orders by Σ|z|, then kind, then name; lists significant features strongest first', () => {
    const ranking = rankVariables(tests);
    expect(ranking.map((r) => [r.kind, r.variable, r.score])).toEqual([
      ['event', 'B', 38],
      ['state', 'C', 36],
      ['event', 'A', 8], // 5 + 3 ties D's 8: name order
      ['event', 'D', 8],
      ['state', 'Z', 8], // ties A and D: events first
    ]);
    expect(ranking[1]!.features.map((f) => f.feature)).toEqual(['final', 'mean']);
    expect(ranking[2]!.features.map((f) => f.feature)).toEqual(['first.abs', 'last.abs']);
  });

  it('a separated feature counts its capped z, once: a near-constant feature cannot outrank a real cause without bound', () => {
    // Issue 10: a near-constant feature from 2 vs 4 requests reached t = 738; its z is capped like any other.
    const ranking = rankVariables([test('S', 'state', 'max', -Infinity), test('R', 'state', 'min', 20), test('R', 'state', 'max', 20)]);
    expect(ranking.map((r) => [r.variable, r.score])).toEqual([['R', 40], ['S', 38]]);
  });

  it('orders names by code units, not locale', () => {
    const ranking = rankVariables([test('b', 'event', 'count', 2), test('B', 'event', 'count', 2), test('é', 'event', 'count', 2), test('a', 'event', 'count', 2)]);
    expect(ranking.map((r) => r.variable)).toEqual(['B', 'a', 'b', 'é']);
  });

  it('is empty when nothing is significant', () => {
    expect(rankVariables([test('A', 'event', 'count', 3, false)])).toEqual([]);
  });
});
