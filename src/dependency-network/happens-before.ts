import { DURATION, isTimeFeature, type FeatureSet, type FeatureTable } from '../features/types.js';

/** The happens-before relation of one event feature table (SPEC §4). */
export interface HappensBefore {
  /**
   * True iff feature `f` of `earlier` is strictly smaller than that of `later`
   * in every instance (of both classes) where both are present, and there is
   * at least one such instance. Always false for feature types that are not
   * times (`count`, `gap`, state features) and for unknown variables.
   */
  before(earlier: string, later: string): boolean;
}

/**
 * Happens-before is asked only about the few edges that end up in an
 * attention graph, so each pair is decided on demand (one pass over the
 * instances) and remembered, instead of all V² pairs up front.
 *
 * The built-in metric `duration` holds D in every feature type (SPEC §2);
 * as a time it is the end of the instance: D in the absolute feature types,
 * and 1 (= D/D) in the relative ones, where D itself would compare seconds
 * with fractions.
 */
export function happensBefore(fs: Pick<FeatureSet, 'instances' | 'metric'>, table: FeatureTable): HappensBefore {
  if (!isTimeFeature(table.kind, table.feature)) return { before: () => false };
  const n = fs.instances.length;
  let columns = table.columns;
  const end = table.variables.indexOf(DURATION);
  if (fs.metric.eventIsDuration && end >= 0 && table.feature.endsWith('.rel')) {
    columns = columns.map((c, v) => (v === end ? new Float64Array(n).fill(1) : c));
  }
  const index = new Map(table.variables.map((v, i) => [v, i]));
  const known = new Map<string, boolean>();
  return {
    before(earlier, later) {
      const a = index.get(earlier);
      const b = index.get(later);
      if (a === undefined || b === undefined || a === b) return false;
      const key = `${a} ${b}`;
      let answer = known.get(key);
      if (answer === undefined) {
        answer = strictlyBefore(columns[a], columns[b], n);
        known.set(key, answer);
      }
      return answer;
    },
  };
}

/** a[i] < b[i] wherever both are present (not NaN), and somewhere both are. */
function strictlyBefore(a: Float64Array, b: Float64Array, n: number): boolean {
  let both = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (Number.isNaN(x) || Number.isNaN(y)) continue;
    if (!(x < y)) return false;
    both++;
  }
  return both > 0;
}
