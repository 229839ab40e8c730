/**
 * How many values the prediction test needs (docs/method.md, "Few instances:
 * the prediction test"): a class with 1–2 values is tested value by value
 * against the other class's distribution, t = (x − x̄)/(s·√(1 + 1/n)) with
 * df = n − 1, and that distribution needs n ≥ 3 values (df ≥ 2).
 *
 * They are the test's own numbers, so they live with the statistics, on the
 * ground floor: the test (ttest/prediction.ts), the input check that refuses
 * two classes no test can compare before any reading of features
 * (features/index.ts checkInstanceCounts) and check's baseline all read them
 * from here, and none of those imports a layer above its own (issue 56).
 */

/** A class with at most this many values is tested value by value against the other. */
export const FEW_VALUES = 2;
/** ... and the other class needs at least this many values to give a distribution. */
export const REFERENCE_MIN_VALUES = 3;
