import { describe, expect, it } from 'vitest';
import type { Analysis } from '../src/analysis.js';
import type { AttentionGraph } from '../src/attention/types.js';
import { renderText } from '../src/report/text.js';

// Golden test of the terminal tree (issue 10): each child's subtree is printed
// right after it, under it, before its next sibling — also for nested,
// non-last children.
const node = (variable: string, t: number, metric = false) => ({ variable, t, significant: true, metric });
const graph: AttentionGraph = {
  kind: 'state', feature: 'mean', features: ['mean'], className: 'bad', score: 1.5, omitted: 0, aliases: [],
  nodes: [node('runtime', 9, true), node('A', 5), node('A1', 4), node('A2', 3), node('B', 2.5), node('B1', 2)],
  edges: [
    { from: 'runtime', to: 'A', weight: 0.9, directed: false },
    { from: 'A', to: 'A1', weight: 0.8, directed: false },
    { from: 'A', to: 'A2', weight: 0.7, directed: false },
    { from: 'runtime', to: 'B', weight: 0.6, directed: false },
    { from: 'B', to: 'B1', weight: 0.5, directed: false },
  ],
};

function analysis(): Analysis {
  const cls = { instances: 30, files: 30, bytes: 100, records: 100, skippedLines: 0, skippedExamples: [] };
  return {
    tool: { name: 'distalyze', version: '0.0.0' },
    classes: { good: cls, bad: cls },
    metric: { event: null, state: 'runtime', eventIsDuration: false, stateIsDuration: false },
    heavyTail: null,
    weighting: { mode: 'none', half: null, applied: false },
    alpha: 0.05, correction: 'bonferroni', performed: 0, hypotheses: 0, tests: [], ranking: [],
    graphs: [graph],
    verdict: { metric: null, causes: [], components: [], timeShares: [], eventSpan: null, aliases: [], anySignificant: false },
    kinds: null,
    inflation: [],
    warnings: [],
  };
}

describe('the terminal tree', () => {
  it('prints each child\'s subtree right after it (nested, non-last children)', () => {
    const text = renderText(analysis(), { color: false, limit: 10 });
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  States, feature mean'));
    expect(lines.slice(at + 1, at + 8)).toEqual([
      '    runtime (P) t +9',
      '    ├─ A t +5  weight 0.90',
      '    │  ├─ A1 t +4  weight 0.80',
      '    │  └─ A2 t +3  weight 0.70',
      '    └─ B t +2.5  weight 0.60',
      '       └─ B1 t +2  weight 0.50',
      '',
    ]);
  });
});

describe('the inflation line under the verdict', () => {
  it('names the deflated families, largest λ first, and how to turn it off', () => {
    const a: Analysis = {
      ...analysis(),
      inflation: [
        { source: 'log', kind: 'event', feature: 'gap', tests: 400, lambda: 1.5, applied: true },
        { source: 'log', kind: 'event', feature: 'count', tests: 500, lambda: 0.2, applied: false },
        { source: 'log', kind: 'event', feature: 'last.rel', tests: 400, lambda: 9, applied: true },
      ],
    };
    const line = renderText(a, { color: false, limit: 10 }).split('\n').find((l) => l.includes('diverged as a whole'));
    expect(line).toBe('  2 feature types diverged as a whole (event last.rel λ 9, event gap λ 1.5): deflated by √λ before the correction (--inflation off tests them as they are)');
  });

  it('names the source of a family that is not log lines', () => {
    const a: Analysis = {
      ...analysis(),
      inflation: [
        { source: 'span', kind: 'state', feature: 'min', tests: 200, lambda: 4, applied: true },
        { source: 'log', kind: 'event', feature: 'gap', tests: 400, lambda: 1.5, applied: true },
      ],
    };
    const line = renderText(a, { color: false, limit: 10 }).split('\n').find((l) => l.includes('diverged as a whole'));
    expect(line).toBe('  2 feature types diverged as a whole (span state min λ 4, event gap λ 1.5): deflated by √λ before the correction (--inflation off tests them as they are)');
  });
});


describe('the next candidates under the verdict', () => {
  it('say which are not significant and which are times under 1% of a run', () => {
    const cause = (variable: string, source: 'divergence' | 'weak', negligible: boolean) => ({
      variable, kind: 'event' as const, feature: 'gap' as const, method: 'welch' as const, z: 5, t: 5,
      meanGood: 0.01, meanBad: 0.02, presence: 'both' as const, source, weight: null, negligible,
    });
    const a: Analysis = {
      ...analysis(),
      verdict: { metric: null, causes: [cause('A', 'divergence', false), cause('B', 'divergence', false), cause('C', 'weak', false), cause('D', 'divergence', true)],
        components: [], timeShares: [], eventSpan: null, aliases: [], anySignificant: true },
    };
    const line = renderText(a, { color: false, limit: 10 }).split('\n').find((l) => l.includes('next candidates'));
    expect(line).toBe('  next candidates: B (event gap), C (event gap, not significant), D (event gap, under 1% of a run)');
  });
});
