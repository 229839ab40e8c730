import { describe, it, expect } from 'vitest';
import { rankVariables, scoredAbsT } from '../src/ttest/rank.js';
import type { TestResult } from '../src/ttest/types.js';
import type { FeatureType, LogKind } from '../src/features/types.js';

function test(variable: string, kind: LogKind, feature: FeatureType, t: number, significant = true): TestResult {
  return {
    variable, kind, feature, t, df: 10, p: 0.001, log10p: -3, significant, separated: Math.abs(t) === Infinity,
    meanGood: 0, meanBad: 0, nGood: 6, nBad: 6, effectSize: 0,
  };
}

describe('scoredAbsT', () => {
  it('is |t| when finite, 2 × the largest finite |t| (or 2 × 1) when separated', () => {
    expect(scoredAbsT(-3.5, 10)).toBe(3.5);
    expect(scoredAbsT(Infinity, 10)).toBe(20);
    expect(scoredAbsT(-Infinity, 10)).toBe(20);
    expect(scoredAbsT(Infinity, 0)).toBe(2);
    expect(scoredAbsT(NaN, 10)).toBeNaN();
  });
});

describe('rankVariables', () => {
  const tests = [
    test('A', 'event', 'first.abs', 5),
    test('A', 'event', 'last.abs', -3),
    test('A', 'event', 'count', 10, false), // largest finite |t| of events, not significant
    test('B', 'event', 'gap', Infinity), // separated: 2 × 10
    test('D', 'event', 'count', 8),
    test('Z', 'state', 'max', -8),
    test('C', 'state', 'mean', 6),
    test('C', 'state', 'final', Infinity), // 2 × 8 (largest finite |t| of states)
    test('E', 'state', 'min', 1, false), // nothing significant: not ranked
  ];

  it('orders by score, then kind, then name; lists significant features strongest first', () => {
    const ranking = rankVariables(tests, { event: 10, state: 8 });
    expect(ranking.map((r) => [r.kind, r.variable, r.score])).toEqual([
      ['state', 'C', 22],
      ['event', 'B', 20],
      ['event', 'A', 8], // 5 + 3 ties D's 8: name order
      ['event', 'D', 8],
      ['state', 'Z', 8], // ties A and D: events first
    ]);
    expect(ranking[0]!.features.map((f) => f.feature)).toEqual(['final', 'mean']);
    expect(ranking[2]!.features.map((f) => f.feature)).toEqual(['first.abs', 'last.abs']);
  });

  it('caps ∞ at 2 × 1 when a kind has no finite |t|', () => {
    const ranking = rankVariables([test('S', 'state', 'max', -Infinity), test('R', 'state', 'min', 1.5)], { event: 0, state: 0 });
    expect(ranking.map((r) => [r.variable, r.score])).toEqual([['S', 2], ['R', 1.5]]);
  });

  it('orders names by code units, not locale', () => {
    const ranking = rankVariables([test('b', 'event', 'count', 2), test('B', 'event', 'count', 2), test('é', 'event', 'count', 2), test('a', 'event', 'count', 2)], { event: 2, state: 0 });
    expect(ranking.map((r) => r.variable)).toEqual(['B', 'a', 'b', 'é']);
  });

  it('is empty when nothing is significant', () => {
    expect(rankVariables([test('A', 'event', 'count', 3, false)], { event: 3, state: 0 })).toEqual([]);
  });
});
