/**
 * Sums over a node's rows for the regression tree (cart.ts): each a function that ends with its loop, summing in
 * the order of the rows it is given.
 */

// growTree's loops over a node's rows, each a function that ends with its loop: in one large function each was
// compiled while it ran (on-stack replacement) and went on into code that had not run yet, and the whole function
// took 50–100 ms to compile, several times a run, running unoptimized meanwhile. What a loop finds beyond its
// return value it writes into the NodeSums it is given.

/**
 * What the loops over a node's rows find beside their return values, each field written by one loop as it ends (a
 * tree's workspace holds one: TreeWorkspace.sums; one call at a time).
 */
export class NodeSums {
  /** nodeSse: Σw(y − mean), and the least and largest y. */
  deviation = 0;
  min = 0;
  max = 0;
  /** squareSums: Σa². */
  squares = 0;
  /** crossSums: Σb and Σb². */
  sumB = 0;
  sumBB = 0;
  /** weightedSumOver: whether b takes more than one value. */
  varied = false;
  /** moments' offsetSum: Σw. */
  weight = 0;
  /** rankStatistic's crossAbout (rank-gate.ts): Σw·(b − mb)². */
  crossSquares = 0;
  /** scanSplits (cart.ts): where the best gain was improved last (-1: nowhere), the left weight there, the points examined. */
  scanPos = -1;
  scanLeftWeight = 0;
  scanExamined = 0;
}

/** Σw(y − mean)² over the node's rows of nonzero weight; Σw(y − mean), min and max y into out.deviation, min, max. */
export function nodeSse(y: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, mean: number, out: NodeSums): number {
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
  out.deviation = S;
  out.min = yMin;
  out.max = yMax;
  return sse;
}

/** Σa over rows[lo, hi) (in that order); Σa² into out.squares. */
export function squareSums(a: Float64Array, rows: Uint32Array, lo: number, hi: number, out: NodeSums): number {
  let sa = 0;
  let saa = 0;
  for (let i = lo; i < hi; i++) {
    const v = a[rows[i] as number] as number;
    sa += v;
    saa += v * v;
  }
  out.squares = saa;
  return sa;
}

/** Σ a·b over the node's rows; Σb and Σb² into out.sumB, out.sumBB. */
export function crossSums(b: Float64Array, a: Float64Array, rows: Uint32Array, lo: number, hi: number, out: NodeSums): number {
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
  out.sumB = sb;
  out.sumBB = sbb;
  return sab;
}

/** Σw·b over the node's rows; whether b takes more than one value there into out.varied. */
export function weightedSumOver(b: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, out: NodeSums): number {
  const first = b[rows[lo] as number];
  let varies = false;
  let sum = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const v = b[r] as number;
    sum += (w ? (w[r] as number) : 1) * v;
    if (v !== first) varies = true;
  }
  out.varied = varies;
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
// after (a million requests, 100 000 rows a network: NodeOrder.of ~40 times a run, rankStatistic ~5).

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
export function moments(y: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, sums: NodeSums): { mean: number; sse: number } {
  const origin = y[rows[lo]];
  const sd = offsetSum(y, rows, w, lo, hi, origin, sums);
  const mean = origin + sd / sums.weight;
  return { mean, sse: squaresAbout(y, rows, w, lo, hi, mean) };
}

/** Σw·(y − origin) over rows[lo, hi), in that order; Σw into out.weight. */
function offsetSum(y: Float64Array, rows: Uint32Array, w: Float64Array | undefined, lo: number, hi: number, origin: number, out: NodeSums): number {
  let sw = 0;
  let sd = 0;
  for (let i = lo; i < hi; i++) {
    const r = rows[i] as number;
    const wi = w ? (w[r] as number) : 1;
    sw += wi;
    sd += wi * ((y[r] as number) - origin);
  }
  out.weight = sw;
  return sd;
}
