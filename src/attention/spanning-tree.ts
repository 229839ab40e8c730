/** An undirected edge between vertices a and b (0-based). */
export interface WeightedEdge {
  readonly a: number;
  readonly b: number;
  readonly weight: number;
}

/**
 * The maximum spanning tree of the connected component containing `root`,
 * rooted there. Vertices outside that component have parent −2.
 */
export interface RootedTree {
  readonly root: number;
  /** parent[v]: the root's is −1, outside the component −2. */
  readonly parent: Int32Array;
  /** Weight of the edge v–parent[v] (NaN for the root and outside). */
  readonly parentWeight: Float64Array;
  /** The component's vertices in the order they joined the tree (root first; a parent always before its children). */
  readonly order: Uint32Array;
}

/**
 * Prim's algorithm from `root`, which grows exactly the root's connected
 * component (SPEC §5 steps 1–2 in one pass). Parallel edges count once with
 * their largest weight; self-loops are ignored. Deterministic: among edges of
 * equal weight the one reaching the lower-numbered vertex wins, then the one
 * from the lower-numbered tree vertex. A binary heap with lazy deletion:
 * O(E log E), no recursion, so 10⁵-vertex chains are fine.
 */
export function maximumSpanningTree(size: number, edges: readonly WeightedEdge[], root: number): RootedTree {
  const adjacency = adjacencyOf(size, edges);
  const parent = new Int32Array(size).fill(-2);
  const parentWeight = new Float64Array(size).fill(NaN);
  const order: number[] = [];
  if (root < 0 || root >= size) return { root, parent, parentWeight, order: new Uint32Array(0) };

  const heap = new EdgeHeap();
  const join = (v: number, from: number, weight: number): void => {
    parent[v] = from;
    parentWeight[v] = weight;
    order.push(v);
    for (const [u, w] of adjacency[v]) if (parent[u] === -2) heap.push(w, u, v);
  };
  join(root, -1, NaN);
  while (heap.size > 0) {
    const [weight, v, from] = heap.pop();
    if (parent[v] !== -2) continue; // stale: v joined through a heavier edge
    join(v, from, weight);
  }
  return { root, parent, parentWeight, order: Uint32Array.from(order) };
}

/** Neighbour lists [vertex, weight], each neighbour once with its heaviest edge, in vertex order. */
function adjacencyOf(size: number, edges: readonly WeightedEdge[]): [number, number][][] {
  const heaviest = Array.from({ length: size }, () => new Map<number, number>());
  for (const { a, b, weight } of edges) {
    if (a === b) continue;
    if (!(weight > (heaviest[a].get(b) ?? -Infinity))) continue;
    heaviest[a].set(b, weight);
    heaviest[b].set(a, weight);
  }
  return heaviest.map((m) => [...m].sort((x, y) => x[0] - y[0]));
}

/** A max-heap of (weight, vertex, from), ties to the lower vertex, then the lower `from`. */
class EdgeHeap {
  private readonly weights: number[] = [];
  private readonly vertices: number[] = [];
  private readonly froms: number[] = [];

  get size(): number {
    return this.weights.length;
  }

  push(weight: number, vertex: number, from: number): void {
    let i = this.weights.length;
    this.weights.push(weight);
    this.vertices.push(vertex);
    this.froms.push(from);
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!this.before(i, up)) break;
      this.swap(i, up);
      i = up;
    }
  }

  pop(): [weight: number, vertex: number, from: number] {
    const top: [number, number, number] = [this.weights[0], this.vertices[0], this.froms[0]];
    const last = this.weights.length - 1;
    this.swap(0, last);
    this.weights.pop();
    this.vertices.pop();
    this.froms.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < last && this.before(l, best)) best = l;
      if (r < last && this.before(r, best)) best = r;
      if (best === i) break;
      this.swap(i, best);
      i = best;
    }
    return top;
  }

  private before(i: number, j: number): boolean {
    const wi = this.weights[i];
    const wj = this.weights[j];
    if (wi !== wj) return wi > wj;
    if (this.vertices[i] !== this.vertices[j]) return this.vertices[i] < this.vertices[j];
    return this.froms[i] < this.froms[j];
  }

  private swap(i: number, j: number): void {
    [this.weights[i], this.weights[j]] = [this.weights[j], this.weights[i]];
    [this.vertices[i], this.vertices[j]] = [this.vertices[j], this.vertices[i]];
    [this.froms[i], this.froms[j]] = [this.froms[j], this.froms[i]];
  }
}
