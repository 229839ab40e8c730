/**
 * Hand-built FeatureSets and TestSummaries for the dependency-network,
 * attention and DOT tests: no parsing or feature creation involved.
 */
import { featureTypesOf, type FeatureSet, type FeatureTable, type FeatureType, type Instance, type LogKind } from '../src/features/types.js';
import type { TestResult, TestSummary } from '../src/ttest/types.js';
import { studentTTwoSided } from '../src/stats/student-t.js';
import { signedZ, Z_CAP } from '../src/stats/normal.js';

/** Per variable, the values in good instances and in bad instances (NaN = missing). */
export type ClassColumns = Record<string, { good: readonly number[]; bad: readonly number[] }>;

export interface TableSpec {
  readonly kind: LogKind;
  readonly feature: FeatureType;
  readonly columns: ClassColumns;
}

export function featureSet(
  tables: readonly TableSpec[],
  metric: { event?: string; state?: string },
  weights?: { good: readonly number[]; bad: readonly number[] },
): FeatureSet {
  const first = Object.values(tables[0].columns)[0];
  const nGood = first.good.length;
  const nBad = first.bad.length;
  const instances: Instance[] = [
    ...Array.from({ length: nGood }, (_, i) => ({ id: `g${i}`, className: 'good' as const, duration: 1, records: 1, kind: null })),
    ...Array.from({ length: nBad }, (_, i) => ({ id: `b${i}`, className: 'bad' as const, duration: 1, records: 1, kind: null })),
  ];
  const featureTables: FeatureTable[] = tables.map((t) => {
    const variables = Object.keys(t.columns);
    return {
      kind: t.kind,
      feature: t.feature,
      variables,
      columns: variables.map((v) => {
        const c = t.columns[v];
        if (c.good.length !== nGood || c.bad.length !== nBad) throw new Error(`column ${v} has the wrong length`);
        return Float64Array.from([...c.good, ...c.bad]);
      }),
    };
  });
  return {
    instances,
    nGood,
    nBad,
    weights: weights ? Float64Array.from([...weights.good, ...weights.bad]) : new Float64Array(nGood + nBad).fill(1),
    metric: {
      event: metric.event ?? null,
      state: metric.state ?? null,
      eventIsDuration: false,
      stateIsDuration: false,
    },
    tables: featureTables,
    referenceDuration: 1,
  };
}

/** Welch t-tests of every column of every table, Bonferroni at α = 0.05 (an independent, minimal SPEC §3). */
export function welchTests(fs: FeatureSet, alpha = 0.05): TestSummary {
  const raw: Omit<TestResult, 'significant'>[] = [];
  for (const table of fs.tables) {
    table.variables.forEach((variable, v) => {
      const col = table.columns[v];
      const good = [...col.subarray(0, fs.nGood)].filter((x) => !Number.isNaN(x));
      const bad = [...col.subarray(fs.nGood)].filter((x) => !Number.isNaN(x));
      if (good.length < 2 || bad.length < 2) return;
      const [mg, vg] = meanVar(good);
      const [mb, vb] = meanVar(bad);
      const se2 = vb / bad.length + vg / good.length;
      let t: number;
      let df: number;
      let p: number;
      let log10p: number;
      if (se2 === 0) {
        t = mb === mg ? 0 : (mb - mg) * Infinity;
        df = good.length + bad.length - 2;
        p = mb === mg ? 1 : 0;
        log10p = mb === mg ? 0 : -Infinity;
      } else {
        t = (mb - mg) / Math.sqrt(se2);
        df = se2 ** 2 / ((vb / bad.length) ** 2 / (bad.length - 1) + (vg / good.length) ** 2 / (good.length - 1));
        ({ p, log10p } = studentTTwoSided(t, df));
      }
      raw.push({
        variable, kind: table.kind, feature: table.feature, t, df, p, log10p,
        meanGood: mg, meanBad: mb, nGood: good.length, nBad: bad.length, effectSize: 0,
        separated: !Number.isFinite(t), method: 'welch', presence: 'both', z: signedZ(Math.sign(t), log10p),
      });
    });
  }
  const m = raw.length;
  const tests: TestResult[] = raw.map((r) => ({ ...r, significant: r.p < alpha / m }));
  const maxFinite = (kind: LogKind): number => Math.max(0, ...tests.filter((t) => t.kind === kind && Number.isFinite(t.t)).map((t) => Math.abs(t.t)));
  const maxZ = (kind: LogKind): number => Math.max(0, ...tests.filter((t) => t.kind === kind).map((t) => Math.abs(t.z)));
  return {
    tests, ranking: [], performed: m, hypotheses: m, untestable: 0, alpha, correction: 'bonferroni', kinds: null, inflation: [],
    maxFiniteAbsT: { event: maxFinite('event'), state: maxFinite('state') },
    maxAbsZ: { event: maxZ('event'), state: maxZ('state') },
  };
}

/** A TestSummary from given t values (significant as given), for hand-made networks: T̂ = |t| / maxFiniteAbsT. */
export function givenTests(kind: LogKind, feature: FeatureType, ts: Record<string, { t: number; significant: boolean }>, maxFiniteAbsT: number): TestSummary {
  const tests: TestResult[] = Object.entries(ts).map(([variable, { t, significant }]) => ({
    variable, kind, feature, t, df: 10, p: significant ? 1e-6 : 0.5, log10p: significant ? -6 : Math.log10(0.5),
    meanGood: 0, meanBad: 0, nGood: 10, nBad: 10, effectSize: 0, significant, separated: !Number.isFinite(t),
    // Hand-made networks fix T̂ = |z|/38 = |t|/maxFiniteAbsT (a separated one: z capped, T̂ = 1).
    method: 'welch', presence: 'both', z: Math.max(-Z_CAP, Math.min(Z_CAP, (t / maxFiniteAbsT) * Z_CAP)),
  }));
  return {
    tests, ranking: [], performed: tests.length, hypotheses: tests.length, untestable: 0, alpha: 0.05, correction: 'bonferroni', kinds: null, inflation: [],
    maxFiniteAbsT: { event: kind === 'event' ? maxFiniteAbsT : 0, state: kind === 'state' ? maxFiniteAbsT : 0 },
    maxAbsZ: { event: kind === 'event' ? Z_CAP : 0, state: kind === 'state' ? Z_CAP : 0 },
  };
}

function meanVar(xs: readonly number[]): [number, number] {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1);
  return [mean, variance];
}

/** Deterministic normal deviates (mulberry32 + Box–Muller), independent of the code under test. */
export function normalStream(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

export function allFeatureTables(kind: LogKind, columns: ClassColumns): TableSpec[] {
  return featureTypesOf(kind).map((feature) => ({ kind, feature, columns }));
}
