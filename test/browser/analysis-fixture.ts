/**
 * Hand-built Analysis values for the HTML report tests: the shape of the
 * pipeline fixture's answer (lock_wait_ms tied to duration; heap_mb and
 * config_version diverging harmlessly) plus hostile names from a log.
 */
import type { Analysis, Distributions } from '../../src/analysis.js';
import { distributionKey } from '../../src/analysis.js';
import type { AttentionGraph } from '../../src/attention/types.js';
import type { FeatureType, LogKind } from '../../src/features/types.js';
import type { TestResult } from '../../src/ttest/types.js';
import { signedZ } from '../../src/stats/normal.js';
import type { Verdict, VerdictCause } from '../../src/attention/verdict.js';

export const HOSTILE = '<script>alert(1)</script>';
export const HOSTILE_INSTANCE = 'node-"><img src=x onerror=alert(2)>';

interface TestSpec {
  readonly variable: string;
  readonly kind: LogKind;
  readonly feature: FeatureType;
  readonly t: number;
  readonly log10p: number;
  readonly meanGood: number;
  readonly meanBad: number;
  readonly significant: boolean;
}

function test(s: TestSpec): TestResult {
  const p = 10 ** s.log10p;
  return {
    ...s,
    df: 60,
    p,
    nGood: 40,
    nBad: 40,
    effectSize: s.t / 4.5,
    separated: !Number.isFinite(s.t),
    method: 'welch',
    presence: 'both',
    z: signedZ(Math.sign(s.t), s.log10p),
  };
}

/** A deterministic spread of n values around `mean`. */
function spread(n: number, mean: number, sd: number, seed: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(mean + sd * Math.sin(seed * 12.9898 + i * 78.233) * 1.7);
  return out;
}

export interface FixtureOptions {
  /** No significant feature at all. */
  readonly nothing?: boolean;
  /** Only P diverges: the graphs are P alone. */
  readonly metricOnly?: boolean;
  readonly heavyTail?: boolean;
  /** Extra non-significant tests, to exercise a large table. */
  readonly padTests?: number;
  readonly distributions?: boolean;
}

export function makeAnalysis(o: FixtureOptions = {}): Analysis {
  const sig = !o.nothing;
  const causes = sig && !o.metricOnly;
  const specs: TestSpec[] = [
    { variable: 'duration', kind: 'state', feature: 'max', t: 9.8, log10p: -14.2, meanGood: 6.7, meanBad: 11.9, significant: sig },
    { variable: 'lock_wait_ms', kind: 'state', feature: 'mean', t: 11.4, log10p: -17.6, meanGood: 9.4, meanBad: 812, significant: causes },
    { variable: 'heap_mb', kind: 'state', feature: 'mean', t: 58.1, log10p: -60.3, meanGood: 420, meanBad: 781, significant: causes },
    { variable: 'config_version', kind: 'state', feature: 'mean', t: Infinity, log10p: -Infinity, meanGood: 3, meanBad: 4, significant: causes },
    { variable: HOSTILE, kind: 'state', feature: 'mean', t: 5.2, log10p: -6.1, meanGood: 1, meanBad: 2, significant: causes },
    { variable: 'queue_len', kind: 'state', feature: 'mean', t: 0.7, log10p: -0.3, meanGood: 4.1, meanBad: 4.3, significant: false },
    { variable: 'duration', kind: 'event', feature: 'gap', t: 9.8, log10p: -14.2, meanGood: 6.7, meanBad: 11.9, significant: sig },
    { variable: 'FlushEnd', kind: 'event', feature: 'gap', t: 12.3, log10p: -340.5, meanGood: 0.09, meanBad: 0.91, significant: causes },
    { variable: 'OpenSegment', kind: 'event', feature: 'gap', t: -1.1, log10p: -0.6, meanGood: 0.61, meanBad: 0.6, significant: false },
  ];
  for (let i = 0; i < (o.padTests ?? 0); i++) {
    specs.push({ variable: `var_${String(i).padStart(5, '0')}`, kind: i % 2 ? 'event' : 'state', feature: i % 2 ? 'count' : 'mean', t: Math.sin(i) * 2, log10p: -Math.abs(Math.cos(i)), meanGood: i, meanBad: i + 0.5, significant: false });
  }
  const tests = specs.map(test);
  const ranked = (variable: string, kind: LogKind) => {
    const features = tests.filter((t) => t.variable === variable && t.kind === kind && t.significant);
    return { variable, kind, score: features.reduce((s, t) => s + Math.abs(t.z), 0), presence: 'both' as const, features };
  };
  const ranking = [
    ranked('config_version', 'state'), ranked('heap_mb', 'state'), ranked('FlushEnd', 'event'),
    ranked('lock_wait_ms', 'state'), ranked('duration', 'state'), ranked('duration', 'event'), ranked(HOSTILE, 'state'),
  ].filter((r) => r.features.length > 0).sort((a, b) => b.score - a.score);

  const stateGraph: AttentionGraph = causes
    ? {
      kind: 'state', feature: 'mean', features: ['mean', 'max'], className: 'bad', score: 3.1, omitted: 0, aliases: [],
      nodes: [
        { variable: 'duration', t: 9.8, significant: true, metric: true },
        { variable: 'lock_wait_ms', t: 11.4, significant: true, metric: false },
        { variable: HOSTILE, t: 5.2, significant: true, metric: false },
        { variable: 'queue_len', t: 0.7, significant: false, metric: false },
      ],
      edges: [
        { from: 'duration', to: 'lock_wait_ms', weight: 0.86, directed: false },
        { from: 'lock_wait_ms', to: HOSTILE, weight: 0.41, directed: false },
        { from: 'duration', to: 'queue_len', weight: 0.12, directed: false },
      ],
    }
    : { kind: 'state', feature: 'mean', features: ['mean'], className: 'bad', score: 0, omitted: 0, aliases: [], nodes: [{ variable: 'duration', t: 9.8, significant: sig, metric: true }], edges: [] };
  const eventGraph: AttentionGraph = causes
    ? {
      kind: 'event', feature: 'gap', features: ['gap'], className: 'bad', score: 2.4, omitted: 2, aliases: [],
      nodes: [
        { variable: 'duration', t: 9.8, significant: true, metric: true },
        { variable: 'FlushEnd', t: 12.3, significant: true, metric: false },
      ],
      edges: [{ from: 'FlushEnd', to: 'duration', weight: 0.91, directed: true }],
    }
    : { kind: 'event', feature: 'gap', features: ['gap'], className: 'bad', score: 0, omitted: 0, aliases: [], nodes: [{ variable: 'duration', t: 9.8, significant: sig, metric: true }], edges: [] };

  const analysis: Analysis = {
    tool: { name: 'distalyze', version: '0.1.0' },
    classes: {
      good: { instances: 40, files: 40, bytes: 73_000, records: 5_400, skippedLines: 0, skippedExamples: [] },
      bad: { instances: 40, files: 40, bytes: 98_000, records: 7_100, skippedLines: 2, skippedExamples: [`bad/node-007.dlog:3: not a record: ${HOSTILE}`] },
    },
    metric: { event: 'duration', state: 'duration', eventIsDuration: true, stateIsDuration: true },
    heavyTail: o.heavyTail
      ? { detected: true, fraction: 0.05, variable: 'duration', kind: 'state', feature: 'max', mean: 9.3, sd: 3.1 }
      : { detected: false, fraction: 0.0, variable: 'duration', kind: 'state', feature: 'max', mean: 9.3, sd: 3.1 },
    weighting: { mode: 'none', half: null, applied: false },
    alpha: 0.05,
    correction: 'bonferroni',
    performed: tests.length,
    hypotheses: tests.length,
    tests,
    ranking,
    graphs: [stateGraph, eventGraph],
    verdict: verdictFor(tests, causes),
    kinds: null,
    inflation: [],
    warnings: [`variable ${HOSTILE} appears in the bad logs only`],
  };
  return o.distributions === false ? analysis : { ...analysis, distributions: distributionsFor(tests) };
}

/** The verdict the graphs above imply: P = duration; causes lock_wait_ms (state graph) then FlushEnd (event graph). */
function verdictFor(tests: readonly TestResult[], causes: boolean): Verdict {
  const find = (variable: string, kind: LogKind): TestResult => tests.find((t) => t.variable === variable && t.kind === kind)!;
  const p = find('duration', 'state');
  const cause = (t: TestResult, weight: number): VerdictCause => ({
    variable: t.variable, kind: t.kind, feature: t.feature, method: t.method, z: t.z, t: t.t,
    meanGood: t.meanGood, meanBad: t.meanBad, presence: t.presence, source: 'graph', weight, negligible: false,
  });
  return {
    metric: {
      variable: 'duration', kind: 'state', feature: p.feature, meanGood: p.meanGood, meanBad: p.meanBad, difference: p.meanBad - p.meanGood,
      relative: (p.meanBad - p.meanGood) / p.meanGood, p: p.p, log10p: p.log10p, significant: p.significant, spread: null,
    },
    causes: causes ? [cause(find('lock_wait_ms', 'state'), 0.93), cause(find('FlushEnd', 'event'), 0.88)] : [],
    components: [],
    timeShares: causes ? [{ event: 'FlushEnd', meanGood: 0.8, meanBad: 5.6, difference: 4.8, share: 0.92 }] : [],
    eventSpan: { meanGood: 6.7, meanBad: 11.9 },
    aliases: [],
    modes: [],
    anySignificant: p.significant,
  };
}

function distributionsFor(tests: readonly TestResult[]): Distributions {
  const instances = [
    ...Array.from({ length: 40 }, (_, i) => ({ id: `good/node-${String(i + 1).padStart(3, '0')}.dlog`, className: 'good' as const })),
    ...Array.from({ length: 40 }, (_, i) => ({ id: i === 6 ? HOSTILE_INSTANCE : `bad/node-${String(i + 1).padStart(3, '0')}.dlog`, className: 'bad' as const })),
  ];
  const values = new Map<string, Float64Array>();
  tests.forEach((t, k) => {
    const good = spread(40, t.meanGood, Math.abs(t.meanGood) * 0.1 + 0.05, k + 1);
    const bad = spread(40, t.meanBad, Math.abs(t.meanBad) * 0.25 + 0.05, k + 101);
    const column = Float64Array.from([...good, ...bad]);
    if (k === 1) column[3] = NaN; // one missing value
    values.set(distributionKey(t.kind, t.variable, t.feature), column);
  });
  return { instances, values };
}
