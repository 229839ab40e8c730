/** Sums and means of finite values, in order and without overflow. */

/** The mean of finite values, finite even where their sum overflows. */
export function finiteMean(values: ArrayLike<number>, sum: number): number {
  const n = values.length;
  if (Number.isFinite(sum)) return sum / n;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += (values[i] as number) / n;
  return mean;
}

/**
 * Σ x[start, end), in order. A function that ends with its loop (see correlationOver): its callers' code after
 * their own loops stopped where the loop ran on into code not yet run.
 */
export function sumOver(x: Float64Array, start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += x[i] as number;
  return sum;
}
