import { describe, it, expect } from 'vitest';
import { CHI2_1_MEDIAN, deflate, inflationOf, MIN_FAMILY } from '../src/ttest/inflation.js';
import { runTests } from '../src/ttest/index.js';
import { signedZ } from '../src/stats/normal.js';
import type { FeatureSet, FeatureTable, Instance } from '../src/features/types.js';
import { sourceKey, sourceOf, variableSources } from '../src/features/sources.js';

describe('inflationOf: λ = median z² / median of χ²₁ per (kind, feature) family', () => {
  // R 4.3: qchisq(0.5, 1) = 0.4549364231195724; = qnorm(0.75)^2 = 0.6744897501960817^2.
  it('uses the median of χ²₁', () => {
    expect(CHI2_1_MEDIAN).toBeCloseTo(0.6744897501960817 ** 2, 15);
  });

  // 101 z: 50 small, one with z² = 2·median(χ²₁), 50 large → median z² = 2·median(χ²₁), λ = 2 by construction.
  const family = (kind: 'event' | 'state', feature: 'gap' | 'mean', small: number, large: number, middle: number, source: 'log' | 'span' | 'metric' = 'log') => [
    ...Array.from({ length: 50 }, () => ({ source, kind, feature, z: small })),
    { source, kind, feature, z: middle },
    ...Array.from({ length: 50 }, () => ({ source, kind, feature, z: large })),
  ];

  it('estimates λ from the median, whatever the tails (up to half the family may be real causes)', () => {
    const [f] = inflationOf(family('event', 'gap', 0.1, 38, -Math.sqrt(2 * CHI2_1_MEDIAN)));
    expect(f).toMatchObject({ source: 'log', kind: 'event', feature: 'gap', tests: 101, applied: true });
    expect(f!.lambda).toBeCloseTo(2, 12);
  });

  it('keeps families apart, and marks λ ≤ 1 as not applied', () => {
    const out = inflationOf([...family('event', 'gap', 0.1, 5, Math.sqrt(2 * CHI2_1_MEDIAN)), ...family('state', 'mean', 0, 5, Math.sqrt(0.5 * CHI2_1_MEDIAN))]);
    expect(out.map((f) => [f.kind, f.feature, f.applied])).toEqual([['event', 'gap', true], ['state', 'mean', false]]);
    expect(out[1]!.lambda).toBeCloseTo(0.5, 12);
  });

  it('keeps sources apart: span timings that moved together are not averaged with metric excesses that are 0', () => {
    // One (state, mean) feature type from two sources: 101 span tests with λ = 2 by construction, 101 metric tests all 0.
    const out = inflationOf([...family('state', 'mean', 0.1, 5, Math.sqrt(2 * CHI2_1_MEDIAN), 'span'), ...family('state', 'mean', 0, 0, 0, 'metric')]);
    expect(out.map((f) => [f.source, f.kind, f.feature, f.tests, f.applied])).toEqual([['span', 'state', 'mean', 101, true], ['metric', 'state', 'mean', 101, false]]);
    expect(out[0]!.lambda).toBeCloseTo(2, 12);
    // Pooled, the median z² would be a metric's 0 and nothing would be deflated.
    const pooled = inflationOf([...family('state', 'mean', 0.1, 5, Math.sqrt(2 * CHI2_1_MEDIAN)), ...family('state', 'mean', 0, 0, 0)]);
    expect(pooled[0]!.applied).toBe(false);
  });

  it(`needs at least ${MIN_FAMILY} tests with a z; NaN z do not count`, () => {
    const few = Array.from({ length: MIN_FAMILY - 1 }, () => ({ source: 'log' as const, kind: 'event' as const, feature: 'gap' as const, z: 3 }));
    expect(inflationOf(few)).toEqual([]);
    expect(inflationOf([...few, { source: 'log', kind: 'event', feature: 'gap', z: NaN }])).toEqual([]);
    expect(inflationOf([...few, { source: 'log', kind: 'event', feature: 'gap', z: 3 }])).toHaveLength(1);
  });
});

describe('deflate: z/√λ and its two-sided p', () => {
  it('z 4 in a family inflated 4× is z 2: p = 2·Q(2)', () => {
    const d = deflate(4, 4);
    expect(d.z).toBe(2);
    // scipy 1.17: 2 * norm.sf(2) = 0.04550026389635839
    expect(10 ** d.log10p).toBeCloseTo(0.04550026389635839, 14);
  });
  it('keeps the sign, and far tails in log space', () => {
    const d = deflate(-60, 4);
    expect(d.z).toBe(-30);
    // scipy 1.17: (norm.logsf(30) + log(2)) / log(10) = -197.00817926599697
    expect(d.log10p).toBeCloseTo(-197.00817926599697, 9);
  });
});

/**
 * 100 good and 100 bad instances, 150 state variables: every one shifted in bad
 * by a common amount (the other minute's load), `cause` shifted far more.
 * Deterministic values: a sawtooth spread around each class mean.
 */
function commonShift(shift: number, causeShift: number): FeatureSet {
  const n = 100;
  const instances: Instance[] = Array.from({ length: 2 * n }, (_, i) => ({
    id: `i${i}`, className: i < n ? 'good' : 'bad', duration: 1, records: 1, kind: null,
  }));
  const variables = ['duration', ...Array.from({ length: 150 }, (_, v) => (v === 0 ? 'cause' : `v${String(v).padStart(3, '0')}`))];
  const columns = variables.map((name, v) => Float64Array.from({ length: 2 * n }, (_, i) => {
    const spread = ((i * 7 + v * 3) % 11) / 10 - 0.5; // in [-0.5, 0.5], sd ≈ 0.32
    const moved = name === 'duration' ? 0 : name === 'cause' ? causeShift : shift * (0.6 + ((v * 13) % 9) / 10);
    return 10 + spread + (i >= n ? moved : 0);
  }));
  const table: FeatureTable = { kind: 'state', feature: 'mean', variables, columns };
  return {
    instances, nGood: n, nBad: n, weights: new Float64Array(2 * n).fill(1),
    metric: { event: null, state: 'duration', eventIsDuration: false, stateIsDuration: true },
    tables: [table], referenceDuration: 1,
  };
}

describe('runTests with inflation', () => {
  // Shared shift: t ≈ 2–5 per variable (many significant on their own); the cause: t ≈ 67.
  const fs = commonShift(0.15, 3);
  const auto = runTests(fs, { alpha: 0.05, correction: 'bonferroni' });
  const off = runTests(fs, { alpha: 0.05, correction: 'bonferroni', inflation: 'off' });
  const significant = (s: typeof auto) => s.tests.filter((t) => t.significant).map((t) => t.variable);

  it('a shift shared by the whole family is deflated away; the variable that moved far more stays', () => {
    expect(off.inflation).toEqual([]);
    expect(significant(off).length).toBeGreaterThan(50); // 68 of 150
    expect(auto.inflation).toHaveLength(1);
    expect(auto.inflation[0]).toMatchObject({ source: 'log', kind: 'state', feature: 'mean', tests: 150, applied: true });
    expect(auto.inflation[0]!.lambda).toBeGreaterThan(10);
    expect(significant(auto)).toEqual(['cause']);
    expect(auto.ranking[0]!.variable).toBe('cause');
  });

  it('reports the deflated p and z with λ, the test statistic t unchanged; P itself is not deflated', () => {
    const lambda = auto.inflation[0]!.lambda;
    const byName = (s: typeof auto, v: string) => s.tests.find((t) => t.variable === v)!;
    const before = byName(off, 'v001');
    const after = byName(auto, 'v001');
    expect(after.t).toBe(before.t);
    expect(after.inflation).toBe(lambda);
    // Deflated from the test's own z (its p's quantile), not from the ranking z bounded by the sample sizes.
    expect(after.log10p).toBeCloseTo(deflate(signedZ(Math.sign(before.t), before.log10p), lambda).log10p, 9);
    expect(Math.abs(after.z)).toBeLessThan(Math.abs(before.z));
    expect(byName(auto, 'duration')).toEqual(byName(off, 'duration'));
    expect(byName(auto, 'duration').inflation).toBeUndefined();
  });

  it('no shared shift: λ ≤ 1, nothing changes', () => {
    const quiet = commonShift(0, 3);
    const a = runTests(quiet, { alpha: 0.05, correction: 'bonferroni' });
    const o = runTests(quiet, { alpha: 0.05, correction: 'bonferroni', inflation: 'off' });
    expect(a.inflation[0]!.applied).toBe(false);
    expect(a.tests).toEqual(o.tests);
  });
});

describe('runTests: one family per source (FeatureSet.sources)', () => {
  // The shifted 150 variables are span self times; beside them, 200 joined metrics whose excess is 0 in every instance.
  const base = commonShift(0.15, 3);
  const table = base.tables[0]!;
  const metrics = Array.from({ length: 200 }, (_, v) => `svc${String(v).padStart(3, '0')}:CpuUsage`);
  const pooledTable: FeatureTable = {
    ...table,
    variables: [...table.variables, ...metrics],
    columns: [...table.columns, ...metrics.map(() => new Float64Array(base.instances.length))],
  };
  const pooled: FeatureSet = { ...base, tables: [pooledTable] };
  const sources = new Map<string, 'span' | 'metric'>([
    ...table.variables.filter((v) => v !== 'duration').map((v) => [sourceKey('state', v), 'span'] as [string, 'span']),
    ...metrics.map((v) => [sourceKey('state', v), 'metric'] as [string, 'metric']),
  ]);
  const split: FeatureSet = { ...pooled, sources };
  const significant = (fs: FeatureSet) => runTests(fs, { alpha: 0.05, correction: 'bonferroni' }).tests.filter((t) => t.significant).map((t) => t.variable);

  it('without sources the metrics\' zeros hold λ at 0 and the shared shift stays significant', () => {
    const r = runTests(pooled, { alpha: 0.05, correction: 'bonferroni' });
    expect(r.inflation.map((f) => [f.source, f.applied])).toEqual([['log', false]]);
    expect(significant(pooled).length).toBeGreaterThan(50);
  });

  it('with sources the span family is deflated on its own, and only the cause stays', () => {
    const r = runTests(split, { alpha: 0.05, correction: 'bonferroni' });
    expect(r.inflation.map((f) => [f.source, f.kind, f.feature, f.tests, f.applied])).toEqual([['span', 'state', 'mean', 150, true], ['metric', 'state', 'mean', 200, false]]);
    expect(significant(split)).toEqual(['cause']);
  });
});

describe('runTests: each source is its own correction family (SPEC §3, Replication)', () => {
  // 10 log variables, one of them shifted by 0.15 (sd ≈ 0.32, 100 per class: t ≈ 3.3), and 500 span variables that
  // do not differ at all (constant, one value each: t = 0, p = 1, 500 distinct hypotheses).
  const n = 100;
  const logs = Array.from({ length: 10 }, (_, v) => (v === 0 ? 'app:cause' : `app:line${v}`));
  const spans = Array.from({ length: 500 }, (_, v) => `svc:op${String(v).padStart(3, '0')} self`);
  const instances: Instance[] = Array.from({ length: 2 * n }, (_, i) => ({ id: `i${i}`, className: i < n ? 'good' : 'bad', duration: 1, records: 1, kind: null }));
  const logColumn = (name: string, v: number) => Float64Array.from({ length: 2 * n }, (_, i) => 10 + ((i * 7 + v * 3) % 11) / 10 - 0.5 + (i >= n && name === 'app:cause' ? 0.15 : 0));
  const table: FeatureTable = {
    kind: 'state', feature: 'mean', variables: ['duration', ...logs, ...spans],
    columns: [new Float64Array(2 * n).fill(1), ...logs.map(logColumn), ...spans.map((_, v) => new Float64Array(2 * n).fill(v))],
  };
  const base: FeatureSet = {
    instances, nGood: n, nBad: n, weights: new Float64Array(2 * n).fill(1), tables: [table], referenceDuration: 1,
    metric: { event: null, state: 'duration', eventIsDuration: false, stateIsDuration: true },
  };
  const withSources: FeatureSet = { ...base, sources: new Map(spans.map((v) => [sourceKey('state', v), 'span'] as [string, 'span'])) };
  const cause = (fs: FeatureSet) => runTests(fs, { alpha: 0.05, correction: 'bonferroni' }).tests.find((t) => t.variable === 'app:cause')!;

  it('the log cause is corrected over the log tests only: significant beside 500 span tests that add nothing', () => {
    const alone = cause(withSources);
    // Its p lies between the two thresholds: α/511 over everything (the span tests and P counted) and α/11 over the log lines and P.
    expect(alone.p).toBeLessThan(0.05 / 11);
    expect(alone.p).toBeGreaterThan(0.05 / 511);
    expect(alone.significant).toBe(true);
    // The same analysis with every variable read as one source: the 500 span tests dilute it away.
    expect(cause(base).p).toBe(alone.p);
    expect(cause(base).significant).toBe(false);
  });
});

describe('variableSources: spans by the span reader\'s marks, metrics by what the join emitted', () => {
  it('marks a client span billed to its callee: `callee:op wait` beside its marked `callee:op.reply`, and the marked events', () => {
    const spanEvents = new Set(['frontend:hipstershop.CartService/GetCart.start', 'cartservice:hipstershop.CartService/GetCart.reply']);
    const events = [...spanEvents, 'frontend:render.start', 'app:queue.reply'];
    const states = ['cartservice:hipstershop.CartService/GetCart wait', 'app:lock wait', 'app:queue wait'];
    const fs = { sources: variableSources(states, spanEvents) };
    expect(events.map((v) => sourceOf(fs, 'event', v))).toEqual(['span', 'span', 'log', 'log']);
    // `app:lock wait` has no `app:lock.reply`; `app:queue.reply` is a translator's event, not the span reader's.
    expect(states.map((v) => sourceOf(fs, 'state', v))).toEqual(['span', 'log', 'log']);
  });

  it('marks X.start, X.end and X self of a span the reader marked, and the joined metric states; the rest are log lines', () => {
    const spanEvents = new Set(['svc:GET /a.start', 'svc:GET /a.end']);
    const events = [...spanEvents, 'svc:ERROR', 'svc:job.start', 'svc:job.end'];
    const states = ['svc:GET /a self', 'svc:job self', 'svc:CpuUsage', 'svc:queue'];
    const fs = { sources: variableSources(states, spanEvents, new Set(['svc:CpuUsage'])) };
    // A translator's `svc:job.start`, `svc:job.end` and `svc:job self` are a log's, though named as a span's would be
    // (the names alone made them a span's before the reader's marks decided).
    expect(events.map((v) => sourceOf(fs, 'event', v))).toEqual(['span', 'span', 'log', 'log', 'log']);
    expect(states.map((v) => sourceOf(fs, 'state', v))).toEqual(['span', 'log', 'metric', 'log']);
    expect(sourceOf({}, 'state', 'svc:GET /a self')).toBe('log');
  });
});
