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

/** The graph's feature tested for each node, z = its t (the tree prints z, as the lists do). */
const tests = graph.nodes.map((n) => ({ variable: n.variable, kind: 'state', feature: 'mean', z: n.t, t: n.t }) as unknown as Analysis['tests'][number]);

function analysis(): Analysis {
  const cls = { instances: 30, files: 30, bytes: 100, records: 100, skippedLines: 0, skippedExamples: [] };
  return {
    tool: { name: 'distalyze', version: '0.0.0' },
    classes: { good: cls, bad: cls },
    metric: { event: null, state: 'runtime', eventIsDuration: false, stateIsDuration: false },
    heavyTail: null,
    weighting: { mode: 'none', half: null, applied: false },
    alpha: 0.05, correction: 'bonferroni', performed: 0, hypotheses: 0, tests, ranking: [],
    graphs: [graph],
    verdict: { metric: null, causes: [], components: [], timeShares: [], eventSpan: null, aliases: [], modes: [], anySignificant: false },
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
      '    runtime (P) z +9',
      '    ├─ A z +5  weight 0.90',
      '    │  ├─ A1 z +4  weight 0.80',
      '    │  └─ A2 z +3  weight 0.70',
      '    └─ B z +2.5  weight 0.60',
      '       └─ B1 z +2  weight 0.50',
      '',
    ]);
  });

  it('draws only what supports the answer: a long chain is cut, an insignificant branch dropped, and both are said', () => {
    // runtime — C1 — C2 — C3 — C4 — C5 (all significant), and runtime — N (not significant, a leaf).
    const chain = ['C1', 'C2', 'C3', 'C4', 'C5'];
    const long: AttentionGraph = {
      ...graph,
      nodes: [node('runtime', 9, true), ...chain.map((v) => node(v, 4)), { variable: 'N', t: 1, significant: false, metric: false }],
      edges: [...chain.map((v, i) => ({ from: i === 0 ? 'runtime' : chain[i - 1]!, to: v, weight: 0.9, directed: false })), { from: 'runtime', to: 'N', weight: 0.5, directed: false }],
    };
    const lines = renderText({ ...analysis(), tests: [], graphs: [long] }, { color: false, limit: 10 }).split('\n');
    const at = lines.findIndex((l) => l.startsWith('  States, feature mean'));
    expect(lines.slice(at + 1, at + 6)).toEqual([
      '    runtime (P)',
      '    └─ C1  weight 0.90',
      '       └─ C2  weight 0.90',
      '          └─ C3  weight 0.90',
      '    (left out: cut: 2 significant nodes more than 3 steps from P; 1 node not significant and on no path to a significant one (--json has the whole graph))',
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
    expect(line).toBe('  2 feature types diverged as a whole (event last.rel λ 9, event gap λ 1.5): each feature counts only by how much more it moved than the rest of its type (--inflation off tests them as they are)');
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
    expect(line).toBe('  2 feature types diverged as a whole (span state min λ 4, event gap λ 1.5): each feature counts only by how much more it moved than the rest of its type (--inflation off tests them as they are)');
  });
});


describe('the first list under the verdict', () => {
  it('lists the causes in the verdict\'s order, each with its standing: herring, not significant, under 1% of a run', () => {
    const cause = (variable: string, source: 'graph' | 'divergence' | 'weak', negligible: boolean) => ({
      variable, kind: 'state' as const, feature: 'mean' as const, method: 'welch' as const, z: 5, t: 5,
      meanGood: 0.01, meanBad: 0.02, presence: 'both' as const, source, weight: source === 'graph' ? 1 : null, negligible,
    });
    const a: Analysis = {
      ...analysis(),
      verdict: { metric: null, causes: [cause('A', 'graph', false), cause('B', 'divergence', false), cause('C', 'weak', false), cause('D', 'divergence', true)],
        components: [], timeShares: [], eventSpan: null, aliases: [], modes: [], anySignificant: true },
    };
    const lines = renderText(a, { color: false, limit: 10 }).split('\n');
    const at = lines.findIndex((l) => l.startsWith('What changed, the cause first'));
    expect(lines.slice(at + 1, at + 5)).toEqual([
      '   1. A state mean 0.01 → 0.02 z +5 cause: tied to the change in P',
      '   2. B state mean 0.01 → 0.02 z +5 herring: changed, but not tied to the change in P',
      '   3. C state mean 0.01 → 0.02 z +5 not significant: where to look next',
      '   4. D state mean 0.01 → 0.02 z +5 changed by under 1% of a run: too little to matter',
    ]);
  });
});
