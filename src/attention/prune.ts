import type { RootedTree } from './spanning-tree.js';

/**
 * SPEC §5 step 3: repeatedly remove leaves other than the root for which
 * `keep` is false. What is left is the root, every kept vertex of the tree and
 * the vertices on their paths to the root. Returns membership flags (1 = left
 * in). Iterative: a queue of removable leaves, O(tree size).
 */
export function pruneTree(tree: RootedTree, keep: (vertex: number) => boolean): Uint8Array {
  const size = tree.parent.length;
  const inTree = new Uint8Array(size);
  const children = new Uint32Array(size);
  for (const v of tree.order) {
    inTree[v] = 1;
    const p = tree.parent[v];
    if (p >= 0) children[p]++;
  }
  const removable: number[] = [];
  for (const v of tree.order) if (v !== tree.root && children[v] === 0 && !keep(v)) removable.push(v);
  while (removable.length > 0) {
    const v = removable.pop()!;
    inTree[v] = 0;
    const p = tree.parent[v];
    if (--children[p] === 0 && p !== tree.root && !keep(p)) removable.push(p);
  }
  return inTree;
}
