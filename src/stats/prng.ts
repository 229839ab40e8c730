/**
 * mulberry32: a small, fast 32-bit PRNG (Tommy Ettinger's public-domain
 * generator). Not for cryptography; here it only has to make `--dn-sample`
 * reproducible: same seed ⇒ same sample ⇒ byte-identical output.
 * Returns a function yielding uniform doubles in [0, 1).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * k of the integers 0..n−1 drawn uniformly without replacement (a partial
 * Fisher–Yates shuffle), returned in ascending order. All n when k ≥ n.
 */
export function sampleWithoutReplacement(n: number, k: number, random: () => number): Uint32Array {
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  if (k >= n) return all;
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(random() * (n - i));
    const t = all[i];
    all[i] = all[j];
    all[j] = t;
  }
  return all.slice(0, k).sort();
}
