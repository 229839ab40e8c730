/**
 * An empty array that will hold objects or strings, made so from the start.
 * A `[]` starts as an array of small integers and changes kind at its first
 * push; a worker makes a collector per batch, and summarize, compiled on the
 * first one's arrays, was thrown away and compiled again at the second's
 * first push (twice: `ids`, then a column list; ~20 ms of a worker's time
 * each, 10 000 small files).
 */
export function emptyList<T>(): T[] {
  const list: unknown[] = [null];
  list.pop();
  return list as T[];
}

/** Append every element of `from` to `to`: the engine's push of many at once, in chunks below the argument limit. */
export function pushAll<T>(to: T[], from: readonly T[]): void {
  const CHUNK = 8192;
  for (let i = 0; i < from.length; i += CHUNK) to.push(...from.slice(i, i + CHUNK));
}
