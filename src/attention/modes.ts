/**
 * Two slow paths inside the bad set (issue 52). When bad's P falls in two
 * clearly separate groups and good's does not, the bad instances are two
 * different problems: pooled, the rarer one's cause moves its feature's mean
 * only a little and ranks below any steady herring. Each group (mode) is
 * compared with good on its own, with the same tests, and its top cause
 * named (verdict.ts pins them first, one per mode).
 */
import { classRange, isTimeFeature, type FeatureSet } from '../features/types.js';
import { twoModes } from '../stats/mixture.js';
import type { TestResult, TestSummary } from '../ttest/types.js';
import { aliasesByTable } from './aliases.js';
import { compareEffect } from '../ttest/effect.js';
import { headlineFeature, verdictOf, type VerdictCause, type VerdictMode } from './verdict.js';

/**
 * The modes of bad's P, each with its top cause, largest share of the added
 * time first: n_mode · (mean P of the mode − good's mean P). Empty unless all
 * hold: P is worse in bad (its headline test significant at α, as the
 * verdict reads it); instances are not compared within kinds (kinds already
 * split requests of different types) nor calibrated by windows; bad's P has
 * two modes (stats/mixture.ts twoModes, on ln P where every P is positive,
 * as durations spread by factors) and good's has not (else the modes are the
 * system's own, e.g. cache hits and misses). A mode's cause is, among the
 * significant, not negligible causes that locate (no time position) of the
 * verdict of good against that mode's instances alone, tested by `retest`
 * (the analysis's own options), no graphs, the one with the largest |z| (ties: the larger effect): without graphs the
 * verdict's order is Σ|z| over a variable's features, which a state, whose
 * eleven features all move together, wins with a small shift (a response
 * size) against a step's one large gap. null where none is.
 */
export function modesOf(fs: FeatureSet, summary: TestSummary, retest: (sub: FeatureSet) => TestSummary, balance: number): VerdictMode[] {
  if (summary.kinds !== null || summary.windows?.calibrated === true) return [];
  const headline = (['event', 'state'] as const).map((kind) => headlineFeature(fs, kind)).find((h) => h !== null);
  if (headline === undefined || headline === null) return [];
  const test = summary.tests.find((t) => t.kind === headline.kind && t.variable === headline.variable && t.feature === headline.feature);
  if (test === undefined || !(test.significant || test.log10p < Math.log10(summary.alpha)) || !(test.meanBad > test.meanGood)) return [];
  const table = fs.tables.find((t) => t.kind === headline.kind && t.feature === headline.feature);
  const column = table?.columns[table.variables.indexOf(headline.variable)];
  if (column === undefined) return [];
  const [g0, g1] = classRange(fs, 'good');
  const [b0, b1] = classRange(fs, 'bad');
  const scale = (x: Float64Array): Float64Array => (x.every((v) => !Number.isFinite(v) || v > 0) ? x.map(Math.log) : x);
  if (twoModes(scale(column.slice(g0, g1))) !== null) return [];
  const split = twoModes(scale(column.slice(b0, b1)));
  if (split === null) return [];
  const modes = [0, 1].map((high) => {
    const bad: number[] = [];
    for (let i = b0; i < b1; i++) if (Number.isFinite(column[i]) && split.isHigh[i - b0] === high) bad.push(i);
    const meanP = bad.reduce((s, i) => s + (column[i] as number), 0) / bad.length;
    const sub = subset(fs, g1 - g0, bad);
    const subSummary = retest(sub);
    const v = verdictOf(sub, subSummary, [], balance, aliasesByTable(sub));
    const testOf = (c: VerdictCause): TestResult | undefined => subSummary.tests.find((t) => t.kind === c.kind && t.variable === c.variable && t.feature === c.feature);
    const stronger = (c: VerdictCause, best: VerdictCause): boolean => {
      const dz = Math.abs(c.z) - Math.abs(best.z);
      if (dz !== 0) return dz > 0;
      const [tc, tb] = [testOf(c), testOf(best)];
      return tc !== undefined && tb !== undefined && compareEffect(tc, tb) < 0;
    };
    // A time position moves with any delay before it (SPEC §5 locatesCause): it cannot name a mode's cause.
    const locates = (c: VerdictCause): boolean => c.feature === 'occurrence' || !isTimeFeature(c.kind, c.feature);
    const cause = v.causes.filter((c) => c.source !== 'weak' && !c.negligible && c.addsNoTime !== true && locates(c))
      .reduce<VerdictCause | null>((best, c) => (best === null || stronger(c, best) ? c : best), null);
    return { instances: bad.length, meanP, cause, added: bad.length * (meanP - test.meanGood) };
  });
  return modes.sort((x, y) => y.added - x.added).map(({ added: _added, ...m }) => m);
}

/** The good instances [0, nGood) and the bad instances `bad` of fs, as a FeatureSet (a column shared by tables stays shared). */
function subset(fs: FeatureSet, nGood: number, bad: readonly number[]): FeatureSet {
  const keep = [...Array.from({ length: nGood }, (_, i) => i), ...bad];
  const picked = new Map<Float64Array, Float64Array>();
  const pick = (x: Float64Array): Float64Array => {
    let out = picked.get(x);
    if (out === undefined) picked.set(x, (out = Float64Array.from(keep, (i) => x[i] as number)));
    return out;
  };
  return {
    ...fs,
    instances: keep.map((i) => fs.instances[i]!),
    nGood,
    nBad: bad.length,
    weights: pick(fs.weights),
    tables: fs.tables.map((t) => ({ ...t, columns: t.columns.map(pick) })),
    ...(fs.starts !== undefined ? { starts: pick(fs.starts) } : {}),
  };
}
