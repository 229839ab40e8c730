/**
 * Sums over a node's rows for the regression tree (cart.ts): each a function that ends with its loop, summing in
 * the order of the rows it is given.
 */

// growTree's loops over a node's rows, each a function that ends with its loop: in one large function each was
// compiled while it ran (on-stack replacement) and went on into code that had not run yet, and the whole function
// took 50–100 ms to compile, several times a run, running unoptimized meanwhile. What a loop finds beyond its
// return value it leaves in a module variable (one call at a time), whose write needs nothing learned, as an
// array element's or a field's would.
export let nodeDeviation = 0;
export let nodeMin = 0;
export let nodeMax = 0;

/** Σw(y − mean)² over the node's rows of nonzero weight; Σw(y − mean) into nodeDeviation, min and max y into nodeMin, nodeMax. */
export function nodeSse(y: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, mean: number): number {
  let sse = 0;
  let S = 0;
  let yMin = Infinity;
  let yMax = -Infinity;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const wi = w ? (w[r] as number) : 1;
    if (wi === 0) continue;
    const yi = y[r] as number;
    const d = yi - mean;
    S += wi * d;
    sse += wi * d * d;
    if (yi < yMin) yMin = yi;
    if (yi > yMax) yMax = yi;
  }
  nodeDeviation = S;
  nodeMin = yMin;
  nodeMax = yMax;
  return sse;
}

export let squaresSum = 0;

/** Σa over rows[lo, hi) (in that order); Σa² into squaresSum. */
export function squareSums(a: Float64Array, rows: Uint32Array, lo: number, hi: number): number {
  let sa = 0;
  let saa = 0;
  for (let i = lo; i < hi; i++) {
    const v = a[rows[i] as number] as number;
    sa += v;
    saa += v * v;
  }
  squaresSum = saa;
  return sa;
}

export let crossSumB = 0;
export let crossSumBB = 0;

/** Σ a·b over the node's rows; Σb and Σb² into crossSumB, crossSumBB. */
export function crossSums(b: Float64Array, a: Float64Array, rows: Uint32Array, lo: number, hi: number): number {
  let sb = 0;
  let sbb = 0;
  let sab = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const v = b[r] as number;
    sb += v;
    sbb += v * v;
    sab += (a[r] as number) * v;
  }
  crossSumB = sb;
  crossSumBB = sbb;
  return sab;
}

export let sumVaried = false;

/** Σw·b over the node's rows; whether b takes more than one value there into sumVaried. */
export function weightedSumOver(b: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number): number {
  const first = b[rows[lo] as number];
  let varies = false;
  let sum = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const v = b[r] as number;
    sum += (w ? (w[r] as number) : 1) * v;
    if (v !== first) varies = true;
  }
  sumVaried = varies;
  return sum;
}

/** Whether x takes more than one value over the node's rows. */
export function variesOver(x: Float64Array, rows: Uint32Array, lo: number, hi: number): boolean {
  const first = x[rows[lo] as number];
  for (let i = lo; i < hi; i++) if (x[rows[i] as number] !== first) return true;
  return false;
}

// The trees' loops over rows are functions that end with their loops: compiled while it ran (on-stack
// replacement), a loop went on into code that had not run yet, and that code, kept, stopped there on every call
// after (a million requests, 100 000 rows a network: NodeOrder.of ~40 times a run, rankStatistic ~5). A second
// result goes to a module variable, whose write needs nothing learned.

/** Σw·a over rows[lo, hi), in that order. */
export function weightedSumAt(a: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number): number {
  let s = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    s += (w ? (w[r] as number) : 1) * (a[r] as number);
  }
  return s;
}

/** Σw·(a − mean)² over rows[lo, hi), in that order. */
export function squaresAbout(a: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, mean: number): number {
  let ss = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const d = (a[r] as number) - mean;
    ss += (w ? (w[r] as number) : 1) * d * d;
  }
  return ss;
}

/**
 * Weighted mean and SSE about it of the target over the rows `rows[lo, hi)`,
 * two-pass. The mean is taken as an offset from the first value, so a
 * constant range has exactly its value as mean and exactly 0 as SSE.
 */
export function moments(y: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number): { mean: number; sse: number } {
  const origin = y[rows[lo]];
  const sd = offsetSum(y, rows, w, lo, hi, origin);
  const mean = origin + sd / offsetWeight;
  return { mean, sse: squaresAbout(y, rows, w, lo, hi, mean) };
}

let offsetWeight = 0;

/** Σw·(y − origin) over rows[lo, hi), in that order; Σw into offsetWeight. */
function offsetSum(y: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, origin: number): number {
  let sw = 0;
  let sd = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const wi = w ? (w[r] as number) : 1;
    sw += wi;
    sd += wi * ((y[r] as number) - origin);
  }
  offsetWeight = sw;
  return sd;
}
