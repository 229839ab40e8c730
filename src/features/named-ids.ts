/** Ids named by `I` records: their sorted order, and the ids both classes name (shared ids). */

/** A class's ids named by `I` records: in order, whether strictly ascending, and a Set of them once one was needed. */
export interface NamedIds {
  ids: string[];
  ascending: boolean;
  set: IdSet | null;
  /** The indices of `ids` in sorted order, when they do not ascend and it is known (from summarizing them). */
  sorted: Int32Array | null;
}

/** What a NamedIds' Set is used for. */
interface IdSet {
  has(id: string): boolean;
  add(id: string): void;
}

/** Whether a class's named ids ascend, and those the other class named too (NamedScan). */
interface ScanResult {
  readonly ascending: boolean;
  readonly shared: string[];
}

/**
 * A class's ids named by `I` records, scanned: whether they ascend, and those
 * the other class named too, in this class's order (by a merge while both
 * lists ascend, one step per id, else through a Set of the other's: both find
 * the same ids, so switching from one to the other midway changes nothing but
 * the time). Ids that come in absorbed parts are scanned as they come
 * (`push`), so a class of a million instances summarized elsewhere is not
 * scanned whole after the thread that summarized it is done; finishClass
 * scans the others (`over`).
 */
export class NamedScan {
  private ascending = true;
  /**
   * The ids pushed are list[0, size), the shared ones shared[0, sharedSize): room may be made ahead (reserve),
   * each array trimmed to its size when it is handed out.
   */
  private shared: string[] = [];
  private size: number;
  private sharedSize = 0;
  private readonly otherIds: readonly string[];
  private readonly otherLength: number;
  /** merge: while both lists ascend; set: through the other's Set; none: the other class named none. */
  private mode: 'merge' | 'set' | 'none';
  private p = 0;
  private set: IdSet | null = null;

  /** The list's sorted order, while its scan waits for `result` to be a merge of both sorted lists (withOrder). */
  private order: Int32Array | null = null;
  /** withOrder's merge, done when the scan was made. */
  private merged: ScanResult | null = null;

  constructor(private readonly other: NamedIds | undefined, private list: string[] = []) {
    this.size = list.length;
    this.otherIds = other?.ids ?? [];
    this.otherLength = this.otherIds.length;
    this.mode = other === undefined || this.otherLength === 0 ? 'none' : other.ascending && other.set === null ? 'merge' : 'set';
  }

  /** `ids` scanned whole (not copied) against `other`: whether they ascend, and those it names too. */
  static over(ids: readonly string[], other: NamedIds | undefined, order: Int32Array | null = null): ScanResult {
    const scan = order !== null ? NamedScan.withOrder(other, ids as string[], order) : new NamedScan(other, ids as string[]);
    if (order === null) for (let j = 0; j < ids.length; j++) scan.step(j);
    return scan.result(other) as ScanResult;
  }

  /**
   * `ids` (distinct, not copied) with their sorted order: scanned only when
   * the result is asked, by merging the two lists in sorted order when the
   * other's is known too (no Set of a million ids built and looked up),
   * else one by one as usual.
   */
  static withOrder(other: NamedIds | undefined, ids: string[], order: Int32Array): NamedScan {
    const scan = new NamedScan(other, ids);
    scan.order = order;
    // Merged now, when the other's order is known (the main thread takes a worker's ids in while it waits for the
    // worker's parts): not after the worker's last part.
    scan.merged = scan.byOrder(other);
    return scan;
  }

  /** The result from both lists in sorted order (sharedBySort), or null when the other's order is not known. */
  private byOrder(other: NamedIds | undefined): ScanResult | null {
    const order = this.order as Int32Array;
    const theirs = other === undefined || other.ascending ? null : other.sorted;
    if (this.mode !== 'none' && theirs === null && other?.ascending !== true) return null;
    return { ascending: isIdentityOrder(order), shared: this.mode === 'none' ? [] : sharedBySort(this.list, order, this.otherIds, theirs) };
  }

  /** The ids pushed (the list a finished class keeps: the scan is not used after). */
  get ids(): string[] {
    if (this.list.length !== this.size) this.list.length = this.size;
    return this.list;
  }

  /**
   * Room for `n` ids to be pushed, before the first: a million pushes into
   * arrays that grow as they come cost ~3× filling arrays made at their size
   * (each growth a copy into memory written for the first time).
   */
  reserve(n: number): void {
    if (this.size > 0 || this.list.length > 0 || this.order !== null || n <= 0) return;
    this.list = new Array<string>(n);
    if (this.mode !== 'none') this.shared = new Array<string>(Math.min(n, this.otherLength));
  }

  private share(id: string): void {
    if (this.sharedSize < this.shared.length) this.shared[this.sharedSize] = id;
    else this.shared.push(id);
    this.sharedSize++;
  }

  /** The sorted order of `ids`, when they came with it and nothing was pushed after. */
  get sortedOrder(): Int32Array | null {
    return this.order;
  }

  push(id: string): void {
    if (this.order !== null) this.scanAll();
    if (this.size < this.list.length) this.list[this.size] = id;
    else this.list.push(id);
    this.step(this.size++);
  }

  /** The ids that came with their order, scanned one by one after all (more are pushed). */
  private scanAll(): void {
    this.order = null;
    this.merged = null;
    for (let j = 0; j < this.size; j++) this.step(j);
  }

  /** The id at `j`, after those before it. */
  private step(j: number): void {
    const ids = this.list;
    const id = ids[j] as string;
    if (this.ascending && j > 0 && !(id > (ids[j - 1] as string))) {
      this.ascending = false;
      if (this.mode === 'merge') this.toSet(j);
    }
    if (this.mode === 'set') {
      if ((this.set ??= (this.other as NamedIds).set ??= new Set(this.otherIds)).has(id)) this.share(id);
    } else if (this.mode === 'merge') {
      const theirs = this.otherIds;
      // Equal first: the two classes often name the same ids (one comparison each instead of two).
      if (theirs[this.p] === id) {
        this.share(id);
        this.p++;
        return;
      }
      while (this.p < this.otherLength && (theirs[this.p] as string) < id) this.p++;
      // (Past their last id, no later id of an ascending list can be theirs: each step costs one comparison.)
      if (this.p < this.otherLength && theirs[this.p] === id) this.share(id);
    }
  }

  /** The ids stopped ascending at `j`: those before it looked up again, the rest as they come. */
  private toSet(j: number): void {
    this.mode = 'set';
    const set = (this.set = (this.other as NamedIds).set ??= new Set(this.otherIds));
    this.sharedSize = 0;
    for (let i = 0; i < j; i++) if (set.has(this.list[i] as string)) this.share(this.list[i] as string);
  }

  /**
   * Whether the ids ascend, and those the other class named too, when
   * `other` (its ids when this class is finished) is what they were scanned
   * against, unchanged; else null (scan them again).
   */
  result(other: NamedIds | undefined): ScanResult | null {
    const same = other === this.other && (other === undefined || (other.ids === this.otherIds && other.ids.length === this.otherLength));
    if (!same) return null;
    if (this.order !== null) {
      const merged = this.merged ?? this.byOrder(other);
      if (merged !== null) return merged;
      this.scanAll();
    }
    if (this.shared.length !== this.sharedSize) this.shared.length = this.sharedSize;
    return { ascending: this.ascending, shared: this.shared };
  }
}

/** Whether order[i] is i for every i. */
function isIdentityOrder(order: Int32Array): boolean {
  for (let i = 0; i < order.length; i++) if (order[i] !== i) return false;
  return true;
}

/**
 * The ids of `mine` (distinct) that `theirs` (distinct) holds too, in
 * `mine`'s order: both walked in sorted order (`myOrder`; `theirOrder`, null
 * when `theirs` ascends), each step one comparison, the matches marked.
 */
function sharedBySort(mine: readonly string[], myOrder: Int32Array, theirs: readonly string[], theirOrder: Int32Array | null): string[] {
  const marked = new Uint8Array(mine.length);
  let found = 0;
  for (let p = 0, q = 0; p < mine.length && q < theirs.length;) {
    const j = myOrder[p] as number;
    const a = mine[j] as string;
    const b = theirs[theirOrder === null ? q : (theirOrder[q] as number)] as string;
    if (a === b) {
      marked[j] = 1;
      found++;
      p++;
      q++;
    } else if (a < b) {
      p++;
    } else {
      q++;
    }
  }
  const shared: string[] = [];
  for (let j = 0; j < mine.length && shared.length < found; j++) if (marked[j] === 1) shared.push(mine[j] as string);
  return shared;
}

/** Each held index's place in `order` (its inverse). */
export function rankOf(order: Int32Array): Int32Array {
  const rank = new Int32Array(order.length);
  for (let p = 0; p < order.length; p++) rank[order[p] as number] = p;
  return rank;
}

/**
 * Indices of `ids` in code-unit order, equal ids in index order (dedupeHeld
 * relies on it: every pass is stable); an O(n) check first (ids
 * often come in order). Many ids are ordered by the code units after the
 * prefix they all share, as numbers (a radix sort: RADIX_DIGITS stable passes
 * over 16-bit digits, each two code units where all are below 256, else one),
 * and only ids equal in those by comparing them: a comparator sort of a
 * million random ids takes ~0.5 s, this a tenth.
 */
export function sortedOrder(ids: readonly string[]): Int32Array {
  const n = ids.length;
  const order = new Int32Array(n);
  let inOrder = true;
  for (let j = 0; j < n; j++) {
    order[j] = j;
    if (j > 0 && inOrder) inOrder = (ids[j - 1] as string) <= (ids[j] as string);
  }
  if (inOrder) return order;
  if (n < RADIX_MIN_IDS) return order.sort((a, b) => compare(ids[a] as string, ids[b] as string));
  const from = sharedPrefixLength(ids);
  const digits = Array.from({ length: RADIX_DIGITS }, () => new Uint16Array(n));
  // A code unit past an id's end reads as 0: a shorter id ties with one that has a 0 there (ties are compared whole).
  const unit = (id: string, at: number): number => (at < id.length ? id.charCodeAt(at) : 0);
  let narrow = true;
  for (let j = 0; j < n && narrow; j++) {
    const id = ids[j] as string;
    for (let c = 0; c < 2 * RADIX_DIGITS; c++) if (unit(id, from + c) > 0xff) narrow = false;
  }
  for (let j = 0; j < n; j++) {
    const id = ids[j] as string;
    for (let d = 0; d < RADIX_DIGITS; d++) {
      (digits[d] as Uint16Array)[j] = narrow ? (unit(id, from + 2 * d) << 8) | unit(id, from + 2 * d + 1) : unit(id, from + d);
    }
  }
  let a = order;
  let b = new Int32Array(n);
  const count = new Int32Array(0x10001);
  for (let d = RADIX_DIGITS - 1; d >= 0; d--) {
    const digit = digits[d] as Uint16Array;
    count.fill(0);
    for (let i = 0; i < n; i++) count[(digit[a[i] as number] as number) + 1]++;
    for (let c = 0; c < 0x10000; c++) count[c + 1] = (count[c + 1] as number) + (count[c] as number);
    for (let i = 0; i < n; i++) {
      const j = a[i] as number;
      b[count[digit[j] as number]++] = j;
    }
    [a, b] = [b, a];
  }
  // Runs of ids equal in their digits: compared whole.
  for (let i = 0; i < n;) {
    let e = i + 1;
    while (e < n && sameDigits(digits, a[i] as number, a[e] as number)) e++;
    if (e - i > 1) a.subarray(i, e).sort((x, y) => compare(ids[x] as string, ids[y] as string));
    i = e;
  }
  return a;
}

function sameDigits(digits: readonly Uint16Array[], x: number, y: number): boolean {
  for (const digit of digits) if (digit[x] !== digit[y]) return false;
  return true;
}

/** Below this many ids a comparator sort is as fast as the radix passes; the passes (16-bit digits) per id. */
const RADIX_MIN_IDS = 4096;
const RADIX_DIGITS = 4;

/** The length of the prefix every id starts with. */
function sharedPrefixLength(ids: readonly string[]): number {
  const first = ids[0] as string;
  let length = first.length;
  for (let j = 1; j < ids.length && length > 0; j++) {
    const id = ids[j] as string;
    let c = 0;
    while (c < length && c < id.length && id.charCodeAt(c) === first.charCodeAt(c)) c++;
    length = c;
  }
  return length;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
