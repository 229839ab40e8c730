/**
 * Inflation of a whole family of tests, and its correction (genomic control:
 * Devlin & Roeder, Biometrics 55, 1999).
 *
 * When the two classes differ in something that moves most variables a little
 * (the load of a different minute, a busier database, a workload of another
 * mix), nearly every timing test of a large analysis comes out "significant":
 * each is a true difference, but none is a cause, and together they bury the
 * few that are. Under the null hypothesis z² of a test follows χ²₁, whose
 * median is 0.45494; a family whose median z² is λ times that is inflated by
 * λ, and its tests are deflated by z ← z/√λ, p ← 2·Q(|z|/√λ) before the
 * correction. A variable that moved more than the family moved stays
 * significant; one that moved with the rest does not.
 *
 * A family is one (source, log kind, feature type): all `gap` tests of log
 * events, all `min` tests of span self times, all occurrence tests of log
 * events. Sources differ in how two minutes differ: nearly every span timing
 * moves with the other minute's load, nearly every joined metric excess is 0
 * in both classes, log lines do neither; pooled, one source's λ would be read
 * off another's (on TrainTicket the metrics' zeros made λ 0, and the span
 * timings that had moved were not deflated at all). The median is robust: up to half the family
 * may be real causes without moving λ. λ is only estimated from families of
 * at least MIN_FAMILY tests (its relative standard error is about
 * 2.3/√n: 23% at 100 tests) and only applied when above 1, so small analyses,
 * and families with no inflation, are untouched.
 */
import type { LogKind, VariableSource } from '../features/types.js';
import { logNormalUpper } from '../stats/normal.js';
import type { Inflation, TestedFeature } from './types.js';

/** The median of χ²₁: qchisq(0.5, 1) = 0.4549364231195724 (R 4.3; = (Φ⁻¹(0.75))²). */
export const CHI2_1_MEDIAN = 0.4549364231195724;

/** Families with fewer tests than this are not corrected. */
export const MIN_FAMILY = 100;


export interface FamilyMember {
  readonly source: VariableSource;
  readonly kind: LogKind;
  readonly feature: TestedFeature;
  readonly z: number;
}

/** The key of the family a test belongs to (and of the Inflation that describes it). */
export function familyKey(f: { readonly source: VariableSource; readonly kind: LogKind; readonly feature: TestedFeature }): string {
  return `${f.source}\u0000${f.kind}\u0000${f.feature}`;
}

/**
 * λ per (source, kind, feature) family of at least MIN_FAMILY tests with a finite z,
 * in first-appearance order. NaN z are left out of the median.
 */
export function inflationOf(members: readonly FamilyMember[], minFamily: number = MIN_FAMILY): Inflation[] {
  const families = new Map<string, { source: VariableSource; kind: LogKind; feature: TestedFeature; z2: number[] }>();
  for (const m of members) {
    if (Number.isNaN(m.z)) continue;
    const key = familyKey(m);
    let f = families.get(key);
    if (f === undefined) families.set(key, (f = { source: m.source, kind: m.kind, feature: m.feature, z2: [] }));
    f.z2.push(m.z * m.z);
  }
  const out: Inflation[] = [];
  for (const { source, kind, feature, z2 } of families.values()) {
    if (z2.length < minFamily) continue;
    const lambda = median(z2) / CHI2_1_MEDIAN;
    out.push({ source, kind, feature, tests: z2.length, lambda, applied: lambda > 1 });
  }
  return out;
}

/** The deflated z and two-sided log10 p of a test of a family inflated by λ > 1: z/√λ and log10(2·Q(|z|/√λ)). */
export function deflate(z: number, lambda: number): { z: number; log10p: number } {
  const d = z / Math.sqrt(lambda);
  return { z: d, log10p: Math.min(0, (logNormalUpper(Math.abs(d)) + Math.LN2) / Math.LN10) };
}

/** The median of the values (sorts a copy). */
function median(values: readonly number[]): number {
  const s = Float64Array.from(values).sort();
  const h = s.length >> 1;
  return s.length % 2 === 1 ? (s[h] as number) : ((s[h - 1] as number) + (s[h] as number)) / 2;
}
