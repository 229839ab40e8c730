import { InputError } from '../errors.js';

/**
 * Heap one variable costs from reading to the t-tests: its collector columns,
 * one column per feature type and a t-test per feature (about 5.5 KB at 8
 * instances, measured by bench/variables.mjs at 100 000 variables), doubled
 * for margin. Object headers dominate, so it barely grows with instances.
 */
export const HEAP_BYTES_PER_VARIABLE = 11_000;

/** The most variables of one kind a heap of `heapBytes` holds (never below 10 000). */
export function variableLimit(heapBytes: number): number {
  return Math.max(10_000, Math.floor(heapBytes / HEAP_BYTES_PER_VARIABLE));
}

/**
 * The one-line error for more variables than the heap holds (issue 11: a
 * million ids in names must end in an error, not a V8 out-of-memory abort),
 * naming the first few.
 */
export function tooManyVariables(names: readonly string[], limit: number): InputError {
  const shown = names.slice(0, 3).map((n) => `'${n}'`).join(', ');
  return new InputError(
    `more than ${limit} distinct variable names (e.g. ${shown}): too many to analyse in this heap`,
    undefined,
    undefined,
    'names that carry an id (request id, address, timestamp) make one variable per occurrence: keep the id out of the name in the translator, or raise the heap with NODE_OPTIONS=--max-old-space-size=MB',
  );
}
