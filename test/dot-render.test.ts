import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Analysis } from '../src/analysis.js';
import type { AttentionGraph } from '../src/attention/types.js';
import { quote, renderDot } from '../src/report/dot.js';

const DOT = '/usr/bin/dot';
const HOSTILE = 'a"b\\c<script>\n';

/** Renders with the real Graphviz; fails (does not skip) when it is missing or rejects the input. */
function svgOf(dot: string): string {
  const run = spawnSync(DOT, ['-Tsvg'], { input: dot, encoding: 'utf8' });
  if (run.error) throw new Error(`cannot run ${DOT} (CI installs Graphviz): ${run.error.message}`);
  expect(run.stderr, run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout;
}

function analysis(graphs: AttentionGraph[]): Analysis {
  const cls = { instances: 10, files: 10, bytes: 100, records: 100, skippedLines: 0, skippedExamples: [] };
  return {
    tool: { name: 'distalyze', version: '0.0.0' },
    classes: { good: cls, bad: cls },
    metric: { event: 'done', state: 'runtime', eventIsDuration: false, stateIsDuration: false },
    heavyTail: null,
    weighting: { mode: 'none', half: null, applied: false },
    alpha: 0.05,
    correction: 'bonferroni',
    performed: 0,
    hypotheses: 0,
    tests: [],
    ranking: [],
    graphs,
    verdict: { metric: null, causes: [], components: [], timeShares: [], eventSpan: null, aliases: [], modes: [], anySignificant: false },
    kinds: null,
    inflation: [],
    warnings: [],
  };
}

const eventGraph: AttentionGraph = {
  kind: 'event', feature: 'first.abs', features: ['first.abs', 'median.abs'], className: 'bad', score: 0.8123,
  nodes: [
    { variable: 'done', t: 12, significant: true, metric: true },
    { variable: HOSTILE, t: -Infinity, significant: true, metric: false },
    { variable: 'lock_wait', t: 3, significant: true, metric: false },
    { variable: 'between', t: 0.4, significant: false, metric: false },
  ],
  edges: [
    { from: 'done', to: HOSTILE, weight: 1, directed: false },
    { from: 'between', to: 'done', weight: 0.35, directed: true },
    { from: 'between', to: 'lock_wait', weight: 0.5, directed: false },
  ],
  omitted: 2,
  aliases: [],
};
const stateAlone: AttentionGraph = {
  kind: 'state', feature: 'mean', features: ['mean', 'max'], className: 'bad', score: 0,
  nodes: [{ variable: 'runtime', t: NaN, significant: false, metric: true }], edges: [], omitted: 0, aliases: [],
};

describe('renderDot', () => {
  it('renders one digraph with a cluster per graph that Graphviz accepts, hostile names included', () => {
    const dot = renderDot(analysis([eventGraph, stateAlone]));
    expect(dot.startsWith('digraph distalyze {')).toBe(true);
    expect(dot.match(/subgraph cluster_\d+ \{/g)).toEqual(['subgraph cluster_0 {', 'subgraph cluster_1 {']);
    const svg = svgOf(dot);
    // The name arrives intact, as text: quote, backslash and markup escaped by Graphviz's XML writer.
    expect(svg).toContain('a&quot;b\\c&lt;script&gt;');
    expect(svg).not.toContain('<script');
    expect(svg).toContain('event · first.abs, median.abs · class bad');
    expect(svg).toContain('score 0.812');
    expect(svg).toContain('no divergent dependency found');
    expect(dot).toContain('left out (--json has the whole graph):\\n2 more by --max-nodes');
  });

  it('fills P, sizes fonts by |t| and pens by weight, and directs only happens-before edges', () => {
    const dot = renderDot(analysis([eventGraph]));
    const line = (id: string): string => dot.split('\n').find((l) => l.trimStart().startsWith(`${id} [`))!;
    expect(line('g0_n0')).toContain('style="filled"');
    expect(line('g0_n0')).toContain('fillcolor=');
    // P at the fixed 16 pt whatever its t (12). The largest finite |t| of the other drawn nodes (3)
    // gets 28 pt, ∞ too; 0.4 → 10 + 18·0.4/3 = 12.4.
    expect(line('g0_n0')).toContain('fontsize="16"');
    expect(line('g0_n1')).toContain('fontsize="28"');
    expect(line('g0_n2')).toContain('fontsize="28"');
    expect(line('g0_n3')).toContain('fontsize="12.4"');
    const edges = dot.split('\n').filter((l) => l.includes(' -> '));
    expect(edges).toHaveLength(3);
    // The weights differ (1, 0.35, 0.5): each edge is labelled.
    expect(edges[0]).toMatch(/g0_n0 -> g0_n1 \[penwidth="6", label="1", dir="none"\]/);
    expect(edges[1]).toMatch(/g0_n3 -> g0_n0 \[penwidth="2.75", label="0.35"\]/);
    expect(edges[2]).toContain('dir="none"');
    svgOf(dot);
  });

  it('labels no edge when every weight is the same (said once in the heading), and draws a legend', () => {
    const same: AttentionGraph = { ...eventGraph, edges: eventGraph.edges.map((e) => ({ ...e, weight: 1 })) };
    const dot = renderDot(analysis([same]));
    expect(dot.split('\n').filter((l) => l.includes(' -> ')).every((l) => !l.includes('label='))).toBe(true);
    expect(dot).toContain('every edge weight 1');
    expect(dot).toMatch(/legend \[.*arrow: happens-before \(earlier → later\), not causality/);
    expect(dot).toContain('red outline: larger in bad (t > 0); blue: larger in good (t < 0)');
    expect(renderDot(analysis([same]), { legend: false })).not.toContain('legend');
    svgOf(dot);
  });

  it('a P-only graph does not draw P biggest; fonts share one scale across graphs', () => {
    const pOnly: AttentionGraph = { ...stateAlone, nodes: [{ variable: 'runtime', t: 40, significant: true, metric: true }] };
    const dot = renderDot(analysis([eventGraph, pOnly]));
    const line = (id: string): string => dot.split('\n').find((l) => l.trimStart().startsWith(`${id} [`))!;
    expect(line('g1_n0')).toContain('fontsize="16"');
    // Drawing the second graph alone (as the HTML report does) keeps the first graph's scale.
    const alone = renderDot(analysis([pOnly, eventGraph]), { only: 1 });
    expect(alone).not.toContain('g0_n0');
    expect(alone.split('\n').find((l) => l.trimStart().startsWith('g1_n3 ['))).toContain('fontsize="12.4"');
  });

  it('keeps node ids unique per cluster even when two graphs share variable names', () => {
    const dot = renderDot(analysis([eventGraph, { ...eventGraph, feature: 'count', features: ['count'] }]));
    const ids = [...dot.matchAll(/^\s+(g\d+_n\d+) \[/gm)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(8);
    svgOf(dot);
  });

  it('renders an empty analysis as a valid graph with a note', () => {
    const dot = renderDot(analysis([]));
    expect(svgOf(dot)).toContain('No dependency graphs');
  });

  it('survives every kind of awkward name', () => {
    const names = ['\\', 'ends with backslash\\', '"', '\\"', 'tab\there', 'cr\rlf\r\n', 'nul\u0000bell\u0007', 'del\u007f', '\\N \\G \\L \\E', 'ünïcödé ✓ 日本', 'lone \ud800 surrogate', '{record|shape}', '<b>html</b>', '-> edge ;', ''];
    const g: AttentionGraph = {
      ...eventGraph,
      // Every name next to P and significant, so the drawing (what supports the answer, support.ts) keeps them all.
      nodes: names.map((variable, i) => ({ variable, t: i, significant: true, metric: i === 0 })),
      edges: names.slice(1).map((to, i) => ({ from: names[0]!, to, weight: 0.5, directed: i % 2 === 0 })),
      omitted: 0,
      aliases: [],
    };
    const svg = svgOf(renderDot(analysis([g])));
    expect(svg).toContain('ends with backslash\\');
    expect(svg).toContain('\\N \\G \\L \\E');
    expect(svg).toContain('ünïcödé ✓ 日本');
    expect(svg).toContain('&lt;b&gt;html&lt;/b&gt;');
  });
});

describe('renderDot draws what supports the answer', () => {
  it('cuts a chain beyond 3 steps from P and drops insignificant branches, saying so in the heading', () => {
    const chain = ['c1', 'c2', 'c3', 'c4', 'c5'];
    const long: AttentionGraph = {
      ...eventGraph, omitted: 0,
      nodes: [{ variable: 'done', t: 12, significant: true, metric: true }, ...chain.map((variable) => ({ variable, t: 4, significant: true, metric: false })),
        { variable: 'noise', t: 0.1, significant: false, metric: false }],
      edges: [...chain.map((to, i) => ({ from: i === 0 ? 'done' : chain[i - 1]!, to, weight: 0.9, directed: false })), { from: 'done', to: 'noise', weight: 0.4, directed: false }],
    };
    const dot = renderDot(analysis([long]));
    expect([...dot.matchAll(/^\s+g0_n\d+ \[label="([^\\"]*)/gm)].map((m) => m[1])).toEqual(['done', 'c1', 'c2', 'c3']);
    expect(dot).toContain('left out (--json has the whole graph):\\ncut: 2 significant nodes more than 3 steps from P\\n1 node not significant and on no path to a significant one');
  });
});

describe('quote', () => {
  it('escapes quotes and backslashes, turns line breaks into \\n and control characters into U+FFFD', () => {
    expect(quote('plain')).toBe('"plain"');
    expect(quote('a"b')).toBe('"a\\"b"');
    expect(quote('a\\b')).toBe('"a\\\\b"');
    expect(quote('x\\')).toBe('"x\\\\"');
    expect(quote('one\ntwo\r\nthree\rfour')).toBe('"one\\ntwo\\nthree\\nfour"');
    expect(quote('\u0000\t\u001b\u007f\u0085')).toBe('"\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD"');
    expect(quote('\ud800')).toBe('"\uFFFD"');
    expect(quote('😀')).toBe('"😀"');
  });
});
