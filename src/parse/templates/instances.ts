/**
 * Naming instances by a request or trace id (issue 14).
 *
 * The rule: in the first `ID_SAMPLE_LINES` lines of every file, look for a
 * field named like a request id — `req=`, `request_id=`, `requestId:`,
 * `trace_id=`, `TraceID:`, `x-request-id:`, `correlation-id=`, `txid=` (the
 * name is case-insensitive, `-`/`_` optional, followed by `=` or `:`), or, in
 * CSV files, a header column of such a name. A field names instances when it
 * is on at least 10 % of the sampled lines and its values recur: fewer
 * distinct values than lines carrying it, and at least 2 of them. Of several,
 * the one on the most lines wins. Syslog files (several hosts in one file):
 * with no such field, the host after the timestamp names instances. Lines without the id are not mapped (they
 * are counted as skipped). `--instance-pattern REGEX` (group `id`, else group
 * 1) overrides the rule; without an id field one file is one instance.
 */
export const ID_SAMPLE_LINES = 1000;
export const ID_MIN_SHARE = 0.1;

const KEY = '(?:x-)?(?:req(?:uest)?[-_]?id|req|request|trace[-_]?id|correlation[-_]?id|transaction[-_]?id|txn?[-_]?id)';
const ID_FIELD = new RegExp(`(?:^|[\\s,;\\[(|])(${KEY})\\s*[=:]\\s*([A-Za-z0-9][\\w.:-]*[A-Za-z0-9]|[A-Za-z0-9])`, 'gi');
const ID_COLUMN = new RegExp(`^${KEY}$`, 'i');

/** How instances are named: a regex with the id in group `id` (or 1), or a CSV column. */
export type InstanceRule =
  | { readonly kind: 'pattern'; readonly pattern: string }
  | { readonly kind: 'column'; readonly column: number; readonly name: string }
  /** Syslog: the host field after the timestamp. */
  | { readonly kind: 'host' };

/** What an IdFieldCounter counted, as plain data (a mining worker counts its file's lines and posts this). */
export interface IdCounts {
  readonly sampled: number;
  readonly lines: ReadonlyMap<string, number>;
  readonly values: ReadonlyMap<string, ReadonlyMap<string, number>>;
  readonly columns: ReadonlyMap<string, { readonly column: number; readonly lines: number; readonly values: ReadonlyMap<string, number> }>;
}

export class IdFieldCounter {
  private readonly lines = new Map<string, number>();
  private readonly values = new Map<string, Map<string, number>>();
  private sampled = 0;
  private readonly columns = new Map<string, { column: number; lines: number; values: Map<string, number> }>();

  /** The counts so far (this counter's own maps: do not add to it afterwards). */
  counts(): IdCounts {
    return { sampled: this.sampled, lines: this.lines, values: this.values, columns: this.columns };
  }

  /**
   * Add another counter's counts (files are merged in input order): the rule then is the one counting all their
   * lines in one counter would give (sums; a column keeps the index it had in the first file that had it).
   */
  merge(other: IdCounts): void {
    this.sampled += other.sampled;
    for (const [key, n] of other.lines) this.lines.set(key, (this.lines.get(key) ?? 0) + n);
    for (const [key, values] of other.values) {
      let v = this.values.get(key);
      if (v === undefined) this.values.set(key, v = new Map());
      for (const [value, n] of values) v.set(value, (v.get(value) ?? 0) + n);
    }
    for (const [key, c] of other.columns) {
      let mine = this.columns.get(key);
      if (mine === undefined) this.columns.set(key, mine = { column: c.column, lines: 0, values: new Map() });
      mine.lines += c.lines;
      for (const [value, n] of c.values) mine.values.set(value, (mine.values.get(value) ?? 0) + n);
    }
  }

  /** Count one sampled row of a table by its trace column's value ('' for none: layout.ts). */
  addValue(value: string, column: { column: number; name: string }): void {
    this.sampled++;
    if (value === '') return;
    const key = `column:${column.name}`;
    let c = this.columns.get(key);
    if (c === undefined) this.columns.set(key, c = { column: column.column, lines: 0, values: new Map() });
    c.lines++;
    c.values.set(value, (c.values.get(value) ?? 0) + 1);
  }

  /** Count sampled lines that hold no id field (they only weigh in the 10 % share). */
  addSampled(n: number): void {
    this.sampled += n;
  }

  /** Count one sampled line (CSV: its header column index of an id, if any). */
  add(line: string, csvIdColumn: { column: number; name: string } | null): void {
    if (csvIdColumn !== null) {
      this.addValue(line.split(',')[csvIdColumn.column]?.trim() ?? '', csvIdColumn);
      return;
    }
    this.sampled++;
    if (!/[=:]/.test(line)) return;
    // exec in a loop, as matchAll does (a match is never empty), without the copy of the regex matchAll makes per line.
    let seen: Set<string> | undefined;
    ID_FIELD.lastIndex = 0;
    for (let m = ID_FIELD.exec(line); m !== null; m = ID_FIELD.exec(line)) {
      const key = (m[1] as string).toLowerCase();
      if (seen === undefined) seen = new Set();
      else if (seen.has(key)) continue;
      seen.add(key);
      this.lines.set(key, (this.lines.get(key) ?? 0) + 1);
      let v = this.values.get(key);
      if (v === undefined) this.values.set(key, v = new Map());
      v.set(m[2] as string, (v.get(m[2] as string) ?? 0) + 1);
    }
  }

  /** The rule chosen from what was counted, or null (one file = one instance). */
  rule(): InstanceRule | null {
    const qualifies = (lines: number, values: Map<string, number>): boolean =>
      lines >= ID_MIN_SHARE * this.sampled && values.size >= 2 && values.size < lines;
    let best: InstanceRule | null = null;
    let bestLines = 0;
    for (const [key, c] of [...this.columns].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (qualifies(c.lines, c.values) && c.lines > bestLines) {
        best = { kind: 'column', column: c.column, name: key.slice('column:'.length) };
        bestLines = c.lines;
      }
    }
    for (const [key, lines] of [...this.lines].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (qualifies(lines, this.values.get(key) as Map<string, number>) && lines > bestLines) {
        const escaped = key.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
        best = { kind: 'pattern', pattern: `(?i)(?:^|[\\s,;\\[(|])${escaped}\\s*[=:]\\s*(?<id>[A-Za-z0-9][\\w.:-]*[A-Za-z0-9]|[A-Za-z0-9])` };
        bestLines = lines;
      }
    }
    return best;
  }
}

/** The column of a CSV header that names request ids, or null. */
export function idColumnOf(header: string): { column: number; name: string } | null {
  const names = header.split(',').map((s) => s.trim().replace(/^"(.*)"$/, '$1'));
  const column = names.findIndex((n) => ID_COLUMN.test(n));
  return column === -1 ? null : { column, name: names[column] as string };
}
