/** Synthetic FeatureSets with a known answer, for the attention-focusing tests. */
import type { FeatureSet, FeatureType, LogKind } from '../src/features/types.js';
import { featureSet, normalStream, type ClassColumns } from './dn-fixtures.js';
import { featuresOf as collectFeatures } from './helpers/collect.js';

/**
 * A planted root cause (SPEC §5's "right answer"): P = 3·cause + noise in both
 * classes, and cause shifts up by 2σ in bad, so P diverges through it. The red
 * herring diverges far more (5σ) but P does not depend on it. noise1..4 are
 * the same process in both classes.
 */
export function plantedCause(seed: number, n = 50, kind: LogKind = 'state', features: readonly FeatureType[] = ['mean']): FeatureSet {
  const noise = normalStream(seed);
  const draw = (shift: number): number[] => Array.from({ length: n }, () => shift + noise());
  const columns: ClassColumns = {};
  const cause = { good: draw(0), bad: draw(2) };
  columns.P = { good: cause.good.map((c) => 3 * c + 0.5 * noise()), bad: cause.bad.map((c) => 3 * c + 0.5 * noise()) };
  columns.cause = cause;
  columns.herring = { good: draw(0), bad: draw(5) };
  for (let k = 1; k <= 4; k++) columns[`noise${k}`] = { good: draw(0), bad: draw(0) };
  return featureSet(features.map((feature) => ({ kind, feature, columns })), { [kind]: 'P' });
}

/** Both classes drawn from one process: P = 3·x + noise, y and z independent noise. */
export function nullCase(seed: number, n = 50): FeatureSet {
  const noise = normalStream(seed);
  const draw = (): number[] => Array.from({ length: n }, () => noise());
  const x = { good: draw(), bad: draw() };
  const columns: ClassColumns = {
    P: { good: x.good.map((v) => 3 * v + noise()), bad: x.bad.map((v) => 3 * v + noise()) },
    x,
    y: { good: draw(), bad: draw() },
    z: { good: draw(), bad: draw() },
  };
  return featureSet(
    [
      { kind: 'event', feature: 'first.abs', columns },
      { kind: 'event', feature: 'count', columns },
      { kind: 'state', feature: 'mean', columns },
      { kind: 'state', feature: 'max', columns },
    ],
    { event: 'P', state: 'P' },
  );
}

export const ROOT_FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

/** The feature set of in-memory dlog texts, through the real parser and feature creation. */
export function featuresOf(texts: { good: readonly string[]; bad: readonly string[] }): FeatureSet {
  return collectFeatures(texts).features;
}
