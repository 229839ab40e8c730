import { parameterKey, tokenKey, WILDCARD } from './mask.js';

/**
 * Indexes over the clusters of a Drain leaf, so that learning a message
 * compares it with a few clusters, not with every one (issue 54, item 9):
 * with thousands of distinct messages of one shape a leaf holds thousands of
 * clusters, and the plain scan (drain.ts `bestIn`) made mining quadratic
 * (16 000 distinct lines a class: 81 s of CPU, 2.4 s with these). What they
 * find is what the plain scan finds, so the templates are the same; the
 * plain scan stays as the oracle (`new Drain(p, { indexed: false })`), and
 * test/mining-scale.test.ts holds the two equal.
 *
 * Learning (drain.ts `mostSimilar`) is a threshold algorithm: a cluster's
 * similarity counts the message's literal tokens it has at their positions,
 * so the postings of those tokens (LiteralIndex) are taken rarest first;
 * after k of the L are taken, a cluster not yet taken has at most L − k, and
 * the best such one is the first, in the order ties are broken in
 * (RankOrder), that is in every posting left: header words are in most
 * clusters, so it is found at once. Matching (MatchIndex) looks up the
 * message's tokens once per wildcard mask.
 *
 * A keyed parameter (`user=<*>`, drain.ts) is a literal that any value of its
 * key equals: it is in the posting of its own token, which a message's
 * `user=ann` takes besides its own (a cluster has one token at a position, so
 * it is in at most one of the two and the bound holds); a match looks it up
 * by the message token's key.
 */
/** Per token position: which clusters have which literal token (not `<*>`) there. */
export class LiteralIndex {
  private readonly positions: Array<Map<string, Set<number>>> = [];

  add(id: number, tokens: readonly string[]): void {
    for (let i = 0; i < tokens.length; i++) if (tokens[i] !== WILDCARD) this.addAt(id, i, tokens[i] as string);
  }

  /** Cluster `id` now has literal `token` (not `<*>`) at position `i` (a keyed parameter, drain.ts). */
  addAt(id: number, i: number, token: string): void {
    let byToken = this.positions[i];
    if (byToken === undefined) this.positions[i] = byToken = new Map();
    let ids = byToken.get(token);
    if (ids === undefined) byToken.set(token, ids = new Set());
    ids.add(id);
  }

  /** Cluster `id` no longer has `token` at position `i` (it became `<*>`, or the cluster was absorbed). */
  remove(id: number, i: number, token: string): void {
    if (token === WILDCARD) return;
    const byToken = this.positions[i];
    const ids = byToken?.get(token);
    if (ids === undefined) return;
    ids.delete(id);
    if (ids.size === 0) byToken?.delete(token);
  }

  removeAll(id: number, tokens: readonly string[]): void {
    for (let i = 0; i < tokens.length; i++) this.remove(id, i, tokens[i] as string);
  }

  /** The clusters with literal `token` at position `i`. */
  with(i: number, token: string): ReadonlySet<number> {
    return this.positions[i]?.get(token) ?? NONE;
  }

  /**
   * The postings of the message's literal tokens (those holding `<*>` match no literal), and of the keyed parameter
   * of a token's key where a cluster has one (`user=<*>` for `user=ann`), smallest first.
   */
  postingsOf(tokens: readonly string[]): ReadonlySet<number>[] {
    const postings: ReadonlySet<number>[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] as string;
      if (token === WILDCARD) continue;
      postings.push(this.with(i, token));
      const key = tokenKey(token);
      if (key === '' || key.length + WILDCARD.length === token.length && token.endsWith(WILDCARD)) continue;
      const keyed = this.with(i, key + WILDCARD);
      if (keyed.size > 0) postings.push(keyed);
    }
    return postings.sort((a, b) => a.size - b.size);
  }
}

const NONE: ReadonlySet<number> = new Set();

/**
 * Clusters grouped by where their literal tokens are (their wildcard mask),
 * each group keyed by those tokens: the clusters a message matches (every
 * literal token equal) are found with one lookup per mask. Built from a
 * fixed set of clusters: rebuilt when they change (drain.ts `match`).
 */
export class MatchIndex {
  private readonly masks: Group[] = [];

  constructor(ids: Iterable<number>, tokensOf: (id: number) => readonly string[]) {
    const byMask = new Map<string, Group>();
    for (const id of ids) {
      const tokens = tokensOf(id);
      let mask = '';
      for (const t of tokens) mask += t === WILDCARD ? '*' : parameterKey(t) !== null ? 'k' : '.';
      let group = byMask.get(mask);
      if (group === undefined) {
        const literals: number[] = [];
        const keyed: number[] = [];
        for (let i = 0; i < tokens.length; i++) if (mask.charAt(i) === '.') literals.push(i); else if (mask.charAt(i) === 'k') keyed.push(i);
        byMask.set(mask, group = { literals, keyed, byTokens: new Map() });
        this.masks.push(group);
      }
      const key = keyAt(tokens, group.literals) + keysAt(tokens, group.keyed);
      const list = group.byTokens.get(key);
      if (list === undefined) group.byTokens.set(key, [id]);
      else list.push(id);
    }
  }

  /** Masks looked at per message: the work of a lookup. */
  get size(): number {
    return this.masks.length;
  }

  /**
   * The clusters whose literal tokens the message has, one list per mask
   * (a list may hold a cluster that differs, in the rare case of a token
   * holding the key's separator: the caller checks).
   */
  *matching(tokens: readonly string[]): Generator<readonly number[]> {
    for (const { literals, keyed, byTokens } of this.masks) {
      const list = byTokens.get(keyed.length === 0 ? keyAt(tokens, literals) : keyAt(tokens, literals) + keysAt(tokens, keyed));
      if (list !== undefined) yield list;
    }
  }
}

/** Clusters of one wildcard mask: positions of their literal tokens and of their keyed parameters, and the clusters by those. */
interface Group {
  readonly literals: readonly number[];
  readonly keyed: readonly number[];
  readonly byTokens: Map<string, number[]>;
}

/** The keys of the tokens at `positions` (a keyed parameter's, or a message token's: tokenKey). */
function keysAt(tokens: readonly string[], positions: readonly number[]): string {
  let key = '';
  for (const i of positions) key += `${tokenKey(tokens[i] as string)}\u0000`;
  return key;
}

function keyAt(tokens: readonly string[], positions: readonly number[]): string {
  let key = '';
  for (const i of positions) key += `${tokens[i] as string}\u0000`;
  return key;
}

/**
 * The clusters of a leaf in the order learning breaks ties in (drain.ts
 * `bestIn`): more wildcards first, then the older. The first that satisfies
 * a test is found without looking at the rest.
 */
export class RankOrder {
  /** By number of wildcards: ids ascending. */
  private readonly byParams: number[][] = [];

  add(id: number, params: number): void {
    let ids = this.byParams[params];
    if (ids === undefined) this.byParams[params] = ids = [];
    ids.splice(insertionPoint(ids, id), 0, id);
  }

  remove(id: number, params: number): void {
    const ids = this.byParams[params];
    if (ids === undefined) return;
    const at = insertionPoint(ids, id);
    if (ids[at] === id) ids.splice(at, 1);
  }

  /** The first cluster, in this order, for which `test` holds, looking at `budget` clusters at most; −1 if none. */
  first(test: (id: number) => boolean, budget: number): number {
    let left = budget;
    for (let p = this.byParams.length - 1; p >= 0; p--) {
      for (const id of this.byParams[p] ?? []) {
        if (left-- <= 0) return -1;
        if (test(id)) return id;
      }
    }
    return -1;
  }
}

/** Where `id` is or would go in ascending `ids`. */
function insertionPoint(ids: readonly number[], id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ids[mid] as number) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
