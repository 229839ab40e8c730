import { LiteralIndex, MatchIndex, RankOrder } from './drain-index.js';
import { generalized, keyedHolds, parameterKey, WILDCARD } from './mask.js';
import { inRequestLine } from './request-line.js';

/**
 * Drain (He, Zhu, Zheng, Lyu: "Drain: An Online Log Parsing Approach with
 * Fixed Depth Tree", ICWS 2017), as in Drain3's `drain.py`: messages are
 * grouped first by their number of tokens, then by their first
 * `depth − 2` tokens along a prefix tree, and within the leaf reached, a
 * message joins the template it is most similar to if the similarity reaches
 * `similarity`, else it starts a new template. Joining replaces the positions
 * where the two differ by `<*>`.
 *
 * similarity(template, message) = (positions where both have the same token,
 * wildcards excluded) / number of tokens. Ties go to the template with more
 * wildcards, then the older one (Drain3's rule), so the result depends only on
 * the order of the messages.
 *
 * Tokens are masked before they get here (mask.ts), so a token holding `<*>`
 * is a variable; the tree routes tokens that are exactly `<*>` to a wildcard
 * child, as Drain does with tokens that contain digits, and dotted names too
 * (`com.apple.CacheDelete.daily:`, `org.foo.Bar`: a bundle, logger or key
 * name, which takes many values where a verb takes few): they stay literal in
 * the template, so they become `<*>` only as any other word does, once the
 * position has shown `minWordVariants` of them in the leaf.
 *
 * One change to Drain, for performance diagnosis: a word (a token without
 * `<*>`) is made a parameter only once its position has shown
 * `minWordVariants` distinct words among the messages that matched in that
 * leaf. Until then a message that differs from its best template in such a
 * word starts a template of its own, so `Compaction started` and
 * `Compaction completed` stay two events (a begin/end pair is where time is
 * measured), while user names or host names, which take many values, still
 * become `<*>`. When a position does become a parameter, the templates of
 * that leaf that differ from the generalized one only where it now has `<*>`
 * are absorbed into it (`resolve` maps their ids to it): otherwise the words
 * seen before the threshold (`user=root`, `user=uucp`) would stay templates
 * of their own, more specific than the parameter, and which words do would
 * depend only on the order the messages came in. And a message that differs
 * from a template at more than
 * `maxTokenDifferences` positions (not counting the template's `<*>`) starts
 * a template of its own: messages
 * carry a few shared header tokens (level, thread, a request id) that make
 * `GET <*> received` and `response sent status=<*>` look similar to Drain.
 *
 * And a position whose words share a key (`user=ann`, `user=bob`: the same
 * `key=`, the `=` included) becomes `user=<*>`, not `<*>`, as a number's does
 * when masked (`dur=<*>`): the key names the parameter, and a template that
 * keeps it says what varies. Such a keyed parameter stands for any value of
 * its key and never another key's (mask.ts keyedHolds), in similarity (a
 * message with the key counts as equal there, as it did when the values were
 * masked numbers), absorbing, the indexes (drain-index.ts) and matching, as
 * the rules file's regex for it does (token-regex.ts).
 */
export interface DrainParameters {
  /** Depth of the prefix tree counting the root and the token-count level: depth − 2 leading tokens route a message (Drain3: 4). */
  readonly depth: number;
  /** Least similarity for a message to join a template, in [0, 1] (Drain3: 0.4). */
  readonly similarity: number;
  /** Most children of a tree node; further distinct tokens share the wildcard child (Drain3: 100). */
  readonly maxChildren: number;
  /**
   * Distinct words a position must have shown (in one leaf) before two
   * templates differing only in words there merge into a `<*>` (not in Drain:
   * see below). 1 is Drain's behaviour.
   */
  readonly minWordVariants: number;
  /** Most positions at which a message may differ from a template (other than at the template's `<*>`) and still join it (not in Drain). */
  readonly maxTokenDifferences: number;
}

export const DEFAULT_DRAIN_PARAMETERS: DrainParameters = { depth: 4, similarity: 0.4, maxChildren: 100, minWordVariants: 3, maxTokenDifferences: 1 };

export interface Cluster {
  /** 0-based, in order of creation. */
  readonly id: number;
  /** The template: masked tokens, `<*>` where the messages differ. */
  tokens: string[];
  /** -1 while live; else the id of the cluster that absorbed it (see `resolve`). */
  mergedInto: number;
}

interface TreeNode {
  readonly children: Map<string, TreeNode>;
  /** Clusters in this leaf, by id (in order of creation). */
  readonly clusters: Set<number>;
  /** Per token position: the distinct words seen there by messages that matched a template of this leaf. */
  readonly words: Map<number, Set<string>>;
  /** Its clusters by literal token and position, and in the order ties are broken in (drain-index.ts). */
  readonly literals: LiteralIndex;
  readonly ranks: RankOrder;
  /** Its clusters by wildcard mask, for `match`, and the Drain's `version` it was built at. */
  matchIndex: MatchIndex | null;
  matchVersion: number;
}

const newNode = (): TreeNode => ({ children: new Map(), clusters: new Set(), words: new Map(), literals: new LiteralIndex(), ranks: new RankOrder(), matchIndex: null, matchVersion: -1 });

/** How the Drain looks for a message's clusters. */
export interface DrainSearch {
  /**
   * Whether through the indexes of drain-index.ts (the default), or by
   * comparing the message with every cluster of its leaf (Drain's plain scan:
   * the same templates, in time quadratic in the clusters of a leaf; kept as
   * the tests' oracle).
   */
  readonly indexed: boolean;
}

export class Drain {
  readonly clusters: Cluster[] = [];
  private readonly byLength = new Map<number, TreeNode>();
  /** Every cluster of a token count, for the fallback of `match` (a node of its own, never routed to; its `literals` unused). */
  private readonly allByLength = new Map<number, TreeNode>();
  /** Bumped when a cluster is created, widened or absorbed: a match index built before is stale. */
  private version = 0;
  /** Per cluster id: the last search that compared it (candidates reached through several postings are compared once). */
  private readonly seenIn: number[] = [];
  private searches = 0;
  /**
   * Clusters compared with a message (its similarity or subsumption computed; one per mask looked up in a match
   * index): the work of mining, grown linearly with distinct messages when the index finds few candidates
   * (test/mining-scale.test.ts).
   */
  compared = 0;

  constructor(readonly parameters: DrainParameters = DEFAULT_DRAIN_PARAMETERS, readonly search: DrainSearch = { indexed: true }) {
    if (!(parameters.depth >= 3)) throw new Error('Drain depth must be at least 3');
    if (!(parameters.similarity >= 0 && parameters.similarity <= 1)) throw new Error('Drain similarity must be in [0, 1]');
  }

  /** Learn from one masked message; returns the cluster it joined or started. */
  add(tokens: readonly string[]): Cluster {
    const leaf = this.leafFor(tokens, true) as TreeNode;
    const found = this.search.indexed ? this.mostSimilar(leaf, tokens) : this.bestIn(leaf.clusters, tokens, this.parameters.similarity, false);
    if (found !== null) {
      const t = found.tokens;
      let generalize = true;
      let differences = 0;
      let variantsReached = false;
      for (let i = 0; i < t.length; i++) {
        const a = t[i] as string;
        const b = tokens[i] as string;
        if (a === b) continue;
        if (a === WILDCARD || keyedHolds(a, b)) {
          // A word at a parameter (of its key, for `user=<*>`): count it, so
          // that the templates holding words there (from before the
          // parameter) are absorbed once the position has shown
          // minWordVariants of them.
          if (b.includes(WILDCARD)) continue;
          let words = leaf.words.get(i);
          if (words === undefined) leaf.words.set(i, words = new Set());
          if (words.size < this.parameters.minWordVariants && !words.has(b)) {
            words.add(b);
            if (words.size === this.parameters.minWordVariants) variantsReached = true;
          }
          continue;
        }
        if (++differences > this.parameters.maxTokenDifferences) generalize = false;
        // A request line's method and target name an endpoint (request-line.ts): never a parameter.
        if (inRequestLine(tokens, i)) generalize = false;
        // Two variables differing only in punctuation (`<*>`, `[<*>]`) are one
        // form, and so are a bare variable and one partly masked
        // (`10.0.0.1,` / `LOCAL(0),` → `<*>,` / `LOCAL(<*>),`): the position
        // already holds values. A word against a variable (`HTTPS` / `SOCKS5`
        // → `<*>`), or variables keyed by different words (`(uid=<*>)` /
        // `LOGIN(uid=<*>)`), are two variants: the position becomes a
        // parameter only once it has shown enough of them.
        if (a.includes(WILDCARD) && b.includes(WILDCARD) && sameVariableForm(a, b)) continue;
        let words = leaf.words.get(i);
        if (words === undefined) leaf.words.set(i, words = new Set());
        words.add(a);
        words.add(b);
        if (words.size < this.parameters.minWordVariants) generalize = false;
      }
      if (generalize) {
        let widened = false;
        const params = wildcards(t);
        for (let i = 0; i < t.length; i++) {
          const a = t[i] as string;
          const b = tokens[i] as string;
          if (a !== b && a !== WILDCARD && !keyedHolds(a, b)) {
            leaf.literals.remove(found.id, i, a);
            t[i] = generalized(a, b);
            if (t[i] !== WILDCARD) leaf.literals.addAt(found.id, i, t[i] as string);
            widened = true;
          }
        }
        if (widened) {
          leaf.ranks.remove(found.id, params);
          leaf.ranks.add(found.id, wildcards(t));
          this.version++;
        }
        if (widened || variantsReached) this.absorb(leaf, found);
        return found;
      }
    }
    return this.restore(tokens);
  }

  /** The live cluster an id ended in (itself unless it was absorbed). */
  resolve(id: number): number {
    let c = this.clusters[id] as Cluster;
    while (c.mergedInto !== -1) c = this.clusters[c.mergedInto] as Cluster;
    return c.id;
  }

  /** The clusters not absorbed, in order of creation. */
  live(): Cluster[] {
    return this.clusters.filter((c) => c.mergedInto === -1);
  }

  /**
   * After `into` gained wildcards: absorb the other clusters of its leaf that
   * it now subsumes (equal wherever `into` has a literal token).
   */
  private absorb(leaf: TreeNode, into: Cluster): void {
    const t = into.tokens;
    const subsumed: Cluster[] = [];
    for (const id of this.search.indexed ? this.sharingLiterals(leaf, t) : leaf.clusters) {
      const c = this.clusters[id] as Cluster;
      this.compared++;
      let is = id !== into.id;
      for (let i = 0; is && i < t.length; i++) if (!holds(t[i] as string, c.tokens[i] as string)) is = false;
      if (is) subsumed.push(c);
    }
    if (subsumed.length === 0) return;
    const all = this.allByLength.get(t.length) as TreeNode;
    for (const c of subsumed) {
      c.mergedInto = into.id;
      leaf.clusters.delete(c.id);
      leaf.literals.removeAll(c.id, c.tokens);
      leaf.ranks.remove(c.id, wildcards(c.tokens));
      all.clusters.delete(c.id);
    }
    this.version++;
  }

  /** The clusters of a leaf that may be subsumed by template `t`: those with its literal token at the position where the fewest have it. */
  private sharingLiterals(leaf: TreeNode, t: readonly string[]): ReadonlySet<number> {
    let fewest: ReadonlySet<number> = leaf.clusters;
    for (let i = 0; i < t.length; i++) {
      // (A keyed parameter subsumes the key's words, which are not in its posting.)
      if (t[i] === WILDCARD || parameterKey(t[i] as string) !== null) continue;
      const ids = leaf.literals.with(i, t[i] as string);
      if (ids.size < fewest.size) fewest = ids;
    }
    // (A copy: absorbing deletes from the sets.)
    return new Set(fewest);
  }

  /**
   * What `bestIn` finds in learning mode over the leaf, from the clusters
   * that can be chosen: the postings of the message's literal tokens
   * (LiteralIndex) are taken rarest first, each time after looking for the
   * best of those left (a threshold algorithm, as in top-k search).
   */
  private mostSimilar(leaf: TreeNode, tokens: readonly string[]): Cluster | null {
    const n = tokens.length;
    const threshold = this.parameters.similarity;
    // The fewest equal tokens reaching the threshold, as the division below computes it.
    let need = Math.ceil(threshold * n);
    while (need > 0 && (need - 1) / n >= threshold) need--;
    while (need <= n && need / n < threshold) need++;
    // Every cluster reaches it (a similarity of 0, an empty message): all are candidates.
    if (n === 0 || need <= 0) return this.bestIn(leaf.clusters, tokens, threshold, false);
    const postings = leaf.literals.postingsOf(tokens);
    const search = ++this.searches;
    const seen = this.seenIn;
    const candidates: number[] = [];
    let mostSame = 0;
    // After the k rarest postings are taken, a cluster not taken has at most L − k equal tokens (L = postings.length).
    for (let k = 0; k < postings.length; k++) {
      const bound = postings.length - k;
      if (bound < need || mostSame > bound) break;
      const rest = postings.slice(k);
      // The first cluster, in the order ties go, with `bound` equal tokens (in every posting left): better than any
      // other not taken, and at least as similar as those taken. Looked for at no more cost than taking the next
      // posting: a header word's posting holds most of the leaf, and the first cluster in order is usually in it.
      const top = leaf.ranks.first((id) => {
        if (seen[id] === search) return false;
        this.compared++;
        for (const ids of rest) if (!ids.has(id)) return false;
        return true;
      }, (rest[0] as ReadonlySet<number>).size);
      if (top !== -1) {
        candidates.push(top);
        break;
      }
      for (const id of postings[k] as ReadonlySet<number>) {
        if (seen[id] === search) continue;
        seen[id] = search;
        candidates.push(id);
        this.compared++;
        const t = (this.clusters[id] as Cluster).tokens;
        let same = 0;
        for (let i = 0; i < n; i++) if (t[i] !== WILDCARD && equalAt(t[i] as string, tokens[i] as string)) same++;
        if (same > mostSame) mostSame = same;
      }
    }
    return this.bestIn(candidates.sort((a, b) => a - b), tokens, threshold, false);
  }

  /** Put back a template learned earlier (ids follow the order of calls), without matching. */
  restore(tokens: readonly string[]): Cluster {
    const leaf = this.leafFor(tokens, true) as TreeNode;
    const cluster: Cluster = { id: this.clusters.length, tokens: tokens.slice(), mergedInto: -1 };
    this.clusters.push(cluster);
    leaf.clusters.add(cluster.id);
    leaf.literals.add(cluster.id, cluster.tokens);
    leaf.ranks.add(cluster.id, wildcards(cluster.tokens));
    let all = this.allByLength.get(tokens.length);
    if (all === undefined) this.allByLength.set(tokens.length, all = newNode());
    all.clusters.add(cluster.id);
    this.version++;
    return cluster;
  }

  /**
   * The template a masked message belongs to, without learning: one whose
   * every non-wildcard token equals the message's (Drain3's `match`), the most
   * specific (fewest wildcards, then oldest) if several; null if none.
   */
  match(tokens: readonly string[]): Cluster | null {
    const leaf = this.leafFor(tokens, false);
    if (leaf !== null) {
      const c = this.matchIn(leaf, tokens);
      if (c !== null) return c;
    }
    const all = this.allByLength.get(tokens.length);
    return all === undefined ? null : this.matchIn(all, tokens);
  }

  /** `bestIn` in matching mode over a node's clusters; indexed, over those its match index finds (the others do not match). */
  private matchIn(node: TreeNode, tokens: readonly string[]): Cluster | null {
    if (!this.search.indexed) return this.bestIn(node.clusters, tokens, 1, true);
    if (node.matchIndex === null || node.matchVersion !== this.version) {
      node.matchIndex = new MatchIndex(node.clusters, (id) => (this.clusters[id] as Cluster).tokens);
      node.matchVersion = this.version;
    }
    this.compared += node.matchIndex.size;
    const candidates: number[] = [];
    for (const ids of node.matchIndex.matching(tokens)) candidates.push(...ids);
    return this.bestIn(candidates.sort((a, b) => a - b), tokens, 1, true);
  }

  private leafFor(tokens: readonly string[], create: boolean): TreeNode | null {
    let node: TreeNode | undefined = this.byLength.get(tokens.length);
    if (node === undefined) {
      if (!create) return null;
      node = newNode();
      this.byLength.set(tokens.length, node);
    }
    const levels = Math.min(this.parameters.depth - 2, tokens.length);
    for (let d = 0; d < levels; d++) {
      const token = routeKey(tokens[d] as string);
      let next: TreeNode | undefined = node.children.get(token);
      if (next === undefined) {
        if (!create) {
          next = node.children.get(WILDCARD);
          if (next === undefined) return null;
        } else {
          const key = token === WILDCARD || node.children.size >= this.parameters.maxChildren - 1 ? WILDCARD : token;
          next = node.children.get(key);
          if (next === undefined) node.children.set(key, next = newNode());
        }
      }
      node = next;
    }
    return node;
  }

  /**
   * The most similar cluster among `ids` reaching `threshold`. In learning
   * mode wildcards count neither way and ties prefer more wildcards (Drain3);
   * in matching mode (`exact`) wildcards count as equal and ties prefer fewer.
   */
  private bestIn(ids: Iterable<number>, tokens: readonly string[], threshold: number, exact: boolean): Cluster | null {
    let best: Cluster | null = null;
    let bestSim = -1;
    let bestParams = -1;
    const n = tokens.length;
    for (const id of ids) {
      const c = this.clusters[id] as Cluster;
      this.compared++;
      const t = c.tokens;
      let same = 0;
      let params = 0;
      for (let i = 0; i < n; i++) {
        const a = t[i];
        if (a === WILDCARD) params++;
        else if (equalAt(a as string, tokens[i] as string)) same++;
      }
      const sim = n === 0 ? 1 : (exact ? same + params : same) / n;
      if (sim < threshold) continue;
      if (sim > bestSim || (sim === bestSim && (exact ? params < bestParams : params > bestParams))) {
        best = c;
        bestSim = sim;
        bestParams = params;
      }
    }
    return best;
  }
}

/** The key a token routes by in the prefix tree: `<*>` for a dotted name (a `.` between two letters), else the token. */
function routeKey(token: string): string {
  for (let i = token.indexOf('.', 1); i !== -1 && i + 1 < token.length; i = token.indexOf('.', i + 1)) {
    if (isAsciiLetter(token.charCodeAt(i - 1)) && isAsciiLetter(token.charCodeAt(i + 1))) return WILDCARD;
  }
  return token;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Words that, right after a variable, are its unit (`<1 sec`, `5 ms`, `3.2 MB`): part of the value. */
const UNITS = new Set(['ms', 's', 'sec', 'secs', 'second', 'seconds', 'min', 'mins', 'minute', 'minutes', 'h', 'hr', 'hrs', 'hour', 'hours',
  'b', 'kb', 'mb', 'gb', 'tb', 'kib', 'mib', 'gib', 'tib']);

/** Most tokens a bracketed group may span (`(1.16 KB)` is 2). */
const MAX_GROUP_TOKENS = 4;

export interface Skeleton {
  /**
   * The template's words in order (tokens with a literal word in them, `user=<*>` too; not a variable's unit,
   * not in a bracketed group holding a variable) and the number of variables between them; null under 2 words.
   */
  readonly key: string | null;
  /** The words' positions. */
  readonly words: readonly number[];
  /** Per gap between words (gap g before word g; the last after the last word): positions of its variable tokens outside bracketed groups. */
  readonly gaps: readonly (readonly number[])[];
}

/**
 * A template's skeleton: what stays when its variables are taken out, with
 * what goes with them: the unit word after one (`lifetime <*> sec`) and a
 * bracketed group holding one (`bytes (<*> KB) sent`). Templates of a leaf
 * differ in length when a variable spans a different number of tokens
 * (`lifetime 00:01` / `lifetime <1 sec`) or an annotation comes and goes
 * (`1190 bytes (1.16 KB) sent` / `620 bytes sent`): Drain, which groups by
 * length first, keeps them apart; templates with the same skeleton are one
 * event (see index.ts).
 */
export function skeleton(tokens: readonly string[]): Skeleton {
  const words: string[] = [];
  const wordAt: number[] = [];
  const gaps: number[][] = [[]];
  const n = tokens.length;
  let i = 0;
  while (i < n) {
    const tok = tokens[i] as string;
    const open = tok.charCodeAt(0);
    if (open === 40 /* ( */ || open === 91 /* [ */) {
      const close = open === 40 ? ')' : ']';
      let end = -1;
      for (let j = i; j < n && j < i + MAX_GROUP_TOKENS; j++) {
        if (stripTrailing(tokens[j] as string).endsWith(close)) { end = j; break; }
      }
      if (end > i) {
        let variable = false;
        for (let j = i; j <= end; j++) if ((tokens[j] as string).includes(WILDCARD)) variable = true;
        if (variable) { i = end + 1; continue; }
      }
    }
    if (tok.includes(WILDCARD) && !hasLetter(tok.split(WILDCARD).join(''))) {
      (gaps[gaps.length - 1] as number[]).push(i);
      i++;
      if (i < n && UNITS.has(stripTrailing(tokens[i] as string).toLowerCase())) i++;
      continue;
    }
    words.push(tok);
    wordAt.push(i);
    gaps.push([]);
    i++;
  }
  // The number of variables between two words is part of the key: an extra variable is another field (`rhost=<*>`
  // / `rhost=<*> <*>`), not a longer value.
  const key = words.map((w, k) => `${(gaps[k] as number[]).length}\u0001${w}`).join('\u0001') + `\u0001${(gaps[words.length] as number[]).length}`;
  return { key: words.length >= 2 ? key : null, words: wordAt, gaps };
}

/**
 * Two masked tokens are one variable form when their letters are the same
 * (`<*>` / `[<*>]`; `(uid=<*>)` / `LOGIN(uid=<*>)` are not), or when one of
 * them has none: a bare variable (`<*>,`) against a partly masked one
 * (`LOCAL(<*>),`).
 */
function sameVariableForm(a: string, b: string): boolean {
  const la = letters(a);
  const lb = letters(b);
  return la === lb || la === '' || lb === '';
}

/** The letters of a token, in order (`LOGIN(uid=<*>)` → `LOGINuid`). */
function letters(token: string): string {
  return token.split(WILDCARD).join('').replace(/[^A-Za-z]/g, '');
}

function hasLetter(s: string): boolean {
  return /[A-Za-z]/.test(s);
}

function stripTrailing(token: string): string {
  let to = token.length;
  while (to > 0 && ',;:.'.includes(token.charAt(to - 1))) to--;
  return token.slice(0, to);
}

/** Whether template token `t` (not `<*>`) counts as equal to message token `m`: the same, or a keyed parameter of `m`'s key. */
function equalAt(t: string, m: string): boolean {
  return t === m || keyedHolds(t, m);
}

/** Whether template token `t` holds message token `m`: `<*>` holds any, a keyed parameter any of its key, a word itself. */
function holds(t: string, m: string): boolean {
  return t === WILDCARD || equalAt(t, m);
}

/** The number of `<*>` in a template. */
function wildcards(tokens: readonly string[]): number {
  let n = 0;
  for (const t of tokens) if (t === WILDCARD) n++;
  return n;
}
