/**
 * What the mining pass hands to the translating pass (LineReplay): each line's message key, and a text log's line
 * heads (time, where the message starts, level and entity), so that translating a line of an unchanged file
 * neither keys nor splits it again. A speed path: translating with no replay (templateTranslator of a model
 * without it) reads every line from scratch and gives the same records (test/templates-replay.test.ts).
 */
import { statSync } from 'node:fs';
import type { RecordEnds } from '../files.js';
import { isEdgePunct, keyPlan, knownKeyShifts, numericValue, numericValueIn, type KeyPlan } from './mask.js';
import { podOfLine } from './header.js';
import type { FileState } from './split.js';
import type { FileMining, LineHeads, LineKeys } from './types.js';

/**
 * Each line's message key, as the mining pass computed it, and each key's
 * template, as the translator's match gives it (computed once per distinct
 * key). Translating checks that a line's message still has the key the
 * mining pass saw, by the key's plan (mask.ts keyPlan / readByPlan), which
 * also reads the numbers of the template's states: a line of an unchanged
 * file skips the message key, its lookup and tokenizing; any other line (a
 * file that changed between the passes) is keyed anew, so it is translated
 * from what is read.
 */
export interface LineReplay {
  /** Distinct message keys of all files, in order of first occurrence. */
  readonly keys: readonly string[];
  /** Per key: its template's id, −1 when it matches none. */
  readonly templates: Int32Array;
  /**
   * Per file path, per line (index lineNo − 1): 1 + the index of its key in `keys`, 0 for a line with none. In
   * shared memory (one copy for every parsing thread), 2 bytes a line up to 65 535 keys.
   * Files past REPLAY_MAX_BYTES, or whose new keys would pass REPLAY_MAX_KEY_CHARS, have none (memory).
   */
  readonly lines: Readonly<Record<string, LineKeys>>;
  /**
   * Per file path: its lines' heads (time, message start, level and entity), for the translating pass not to split
   * them again (splitByHeads). Only text logs mined when the input was at most HEADS_MAX_INPUT_BYTES; in shared
   * memory, 14 bytes a line.
   */
  readonly heads?: Readonly<Record<string, LineHeads>>;
  /**
   * Per key (index in `keys`): the token positions that can read as a number (readsAsNumber), those whose numbers a
   * line's LineHeads.numbers hold, in that order. Present when some file kept its numbers.
   */
  readonly numbered?: readonly Int32Array[];
}

/** Most bytes of line keys (all files) the mining pass hands to the translating pass, shared by the parsing threads. */
export const REPLAY_MAX_BYTES = 128 << 20;
/** Most characters of distinct message keys handed over (2 bytes each, per parsing thread). */
export const REPLAY_MAX_KEY_CHARS = 32_000_000;

/** A mined key: what keyTemplates matches, and runEnds reads the times of. */
export type MinedKey = FileMining['keys'][number];

/** Per file: the earliest and latest times of its lines whose key matches a template (TemplateModel.ends). */
export function runEnds(minings: readonly FileMining[], templateOf: (key: MinedKey) => number): Record<string, RecordEnds> {
  const ends: Record<string, RecordEnds> = {};
  for (const m of minings) {
    let first = Infinity;
    let last = -Infinity;
    for (const k of m.keys) {
      if (templateOf(k) === -1) continue;
      if (k.first < first) first = k.first;
      if (k.last > last) last = k.last;
    }
    for (const st of m.statements) {
      if (st.first < first) first = st.first;
      if (st.last > last) last = st.last;
    }
    if (first <= last) ends[m.path] = { first, last };
  }
  return ends;
}

/**
 * The LineReplay of the files mined: each distinct key's template (keyTemplates), each line's key and head. Files are
 * taken in order while they fit in REPLAY_MAX_BYTES and REPLAY_MAX_KEY_CHARS.
 */
export function replayOf(minings: readonly FileMining[], templateOf: (key: MinedKey) => number): LineReplay {
  const byKey = new Map<string, number>();
  const keys: string[] = [];
  const templates: number[] = [];
  const lines: Record<string, LineKeys> = {};
  const heads: Record<string, LineHeads> = {};
  const numbered: Int32Array[] = [];
  // (Keys of every file: those handed over are fewer.)
  const narrow = new Set(minings.flatMap((m) => m.keys.map((k) => k.key))).size <= 0xffff;
  const width = narrow ? Uint16Array.BYTES_PER_ELEMENT : Int32Array.BYTES_PER_ELEMENT;
  let bytes = 0;
  let keyChars = 0;
  for (const m of minings) {
    if (bytes + m.lineKeys.length * width > REPLAY_MAX_BYTES) continue;
    let newChars = 0;
    for (const k of m.keys) if (!byKey.has(k.key)) newChars += k.key.length;
    if (keyChars + newChars > REPLAY_MAX_KEY_CHARS) continue;
    bytes += m.lineKeys.length * width;
    keyChars += newChars;
    const global = new Int32Array(m.keys.length);
    m.keys.forEach((k, i) => {
      let index = byKey.get(k.key);
      if (index === undefined) {
        byKey.set(k.key, index = keys.length);
        keys.push(k.key);
        templates.push(templateOf(k));
        numbered.push(Int32Array.from(k.numbered));
      }
      global[i] = index;
    });
    const shared = new SharedArrayBuffer(m.lineKeys.length * width);
    const out = narrow ? new Uint16Array(shared) : new Int32Array(shared);
    for (let i = 0; i < out.length; i++) {
      const k = m.lineKeys[i] as number;
      out[i] = k === 0 ? 0 : (global[k - 1] as number) + 1;
    }
    lines[m.path] = out;
    if (m.heads !== undefined) heads[m.path] = m.heads;
  }
  const numbers = Object.values(heads).some((h) => h.numbers !== undefined);
  return { keys, templates: Int32Array.from(templates), lines, ...(Object.keys(heads).length > 0 ? { heads: sharedHeads(heads) } : {}), ...(numbers ? { numbered } : {}) };
}


// ---------------------------------------------------------------------------
// Line heads

/**
 * Most bytes of input (a compressed file's size counted 10 times) whose text lines keep their heads: 14 bytes a
 * line, for the whole pass (a GiB of 100-byte lines: 150 MB). Past it every line is split again when translated.
 */
export const HEADS_MAX_INPUT_BYTES = 1 << 30;

/** Whether a pass over `files` keeps its lines' heads (HEADS_MAX_INPUT_BYTES). */
export function keepsHeads(files: ReadonlyArray<{ readonly size: number; readonly gzip: boolean }>): boolean {
  return inputBytes(files) <= HEADS_MAX_INPUT_BYTES;
}

/** The bytes of input a pass reads, a compressed file's size counted 10 times. */
function inputBytes(files: ReadonlyArray<{ readonly size: number; readonly gzip: boolean }>): number {
  return files.reduce((n, f) => n + (f.gzip ? 10 : 1) * f.size, 0);
}

/**
 * Most bytes of input (counted as for HEADS_MAX_INPUT_BYTES) whose text lines also keep their numbers (LineHeads.numbers):
 * 8 bytes per token of a line that can read as a number, for the whole pass (300 MB of log4j: ~25 MB; at most
 * NUMBERS_MAX_SHARE of the input). Past it the translating pass reads the files again.
 */
export const NUMBERS_MAX_INPUT_BYTES = 512 << 20;

/**
 * Most bytes of numbers a file keeps, as a share of its own bytes (past it, it keeps none and is read again): a
 * quarter, so that the numbers of a pass take at most a quarter of NUMBERS_MAX_INPUT_BYTES whatever its lines hold
 * (log4j: 8 %).
 */
export const NUMBERS_MAX_SHARE = 0.25;

/** Whether a pass over `files` keeps its lines' numbers (NUMBERS_MAX_INPUT_BYTES). */
export function keepsNumbers(files: ReadonlyArray<{ readonly size: number; readonly gzip: boolean }>): boolean {
  return inputBytes(files) <= NUMBERS_MAX_INPUT_BYTES;
}

/**
 * The heads of a file's lines as the mining pass splits them (splitLine into a FileState): those whose message
 * is the line's end (FileState.start ≥ 0), with their time, level and entity; a line not recorded is split again.
 */
export class HeadsRecorder {
  private t = new Float64Array(256);
  /** 1 + the message's start; 0: not recorded. */
  private start = new Int32Array(256);
  /** Index of the [level, entity] pair × 2, + 1 when the line had its own timestamp. */
  private head = new Uint16Array(256);
  private readonly parts: string[] = ['', ''];
  private readonly byLevel = new Map<string, Map<string, number>>([['', new Map([['', 0]])]]);
  private lastLevel = '';
  private lastEntity = '';
  private lastPair = 0;

  constructor(private readonly size: number, private readonly mtimeMs: number) {}

  /** Line `lineNo` as splitLine left `state`. */
  record(lineNo: number, state: FileState): void {
    if (state.start < 0) return;
    const level = state.parts.level;
    const entity = state.parts.entity;
    let pair = this.lastPair;
    if (level !== this.lastLevel || entity !== this.lastEntity) {
      let byEntity = this.byLevel.get(level);
      if (byEntity === undefined) this.byLevel.set(level, byEntity = new Map());
      const known = byEntity.get(entity);
      if (known === undefined) {
        // (Past 32 768 pairs a line is split again.)
        if (this.parts.length >= 2 * 0x8000) return;
        pair = this.parts.length / 2;
        byEntity.set(entity, pair);
        this.parts.push(level, entity);
      } else {
        pair = known;
      }
      this.lastLevel = level;
      this.lastEntity = entity;
      this.lastPair = pair;
    }
    const i = lineNo - 1;
    if (i >= this.t.length) this.grow(lineNo);
    this.t[i] = state.t;
    this.start[i] = state.start + 1;
    this.head[i] = pair * 2 + (state.timed ? 1 : 0);
  }

  private grow(lines: number): void {
    const n = Math.max(this.t.length * 2, lines);
    const t = new Float64Array(n);
    t.set(this.t);
    this.t = t;
    const start = new Int32Array(n);
    start.set(this.start);
    this.start = start;
    const head = new Uint16Array(n);
    head.set(this.head);
    this.head = head;
  }

  /** The heads of the file's `lines` lines (replayOf puts every file's in shared memory). */
  finish(lines: number): LineHeads {
    const n = Math.min(lines, this.t.length);
    const t = new Float64Array(lines);
    t.set(this.t.subarray(0, n));
    const start = new Int32Array(lines);
    start.set(this.start.subarray(0, n));
    const head = new Uint16Array(lines);
    head.set(this.head.subarray(0, n));
    return { t, start, head, parts: this.parts, size: this.size, mtimeMs: this.mtimeMs };
  }
}

/**
 * The heads of the files handed over, in three blocks of shared memory (one copy for every parsing thread; a
 * block per file was a cost per file on many small ones), each file's a view of them.
 */
function sharedHeads(heads: Readonly<Record<string, LineHeads>>): Record<string, LineHeads> {
  const all = Object.entries(heads);
  const lines = all.reduce((n, [, h]) => n + h.t.length, 0);
  const t = new Float64Array(new SharedArrayBuffer(lines * Float64Array.BYTES_PER_ELEMENT));
  const start = new Int32Array(new SharedArrayBuffer(lines * Int32Array.BYTES_PER_ELEMENT));
  const head = new Uint16Array(new SharedArrayBuffer(lines * Uint16Array.BYTES_PER_ELEMENT));
  const numbers = new Float64Array(new SharedArrayBuffer(all.reduce((n, [, h]) => n + (h.numbers?.length ?? 0), 0) * Float64Array.BYTES_PER_ELEMENT));
  const out: Record<string, LineHeads> = {};
  let at = 0;
  let numbersAt = 0;
  for (const [path, h] of all) {
    const n = h.t.length;
    t.set(h.t, at);
    start.set(h.start, at);
    head.set(h.head, at);
    out[path] = { ...h, t: t.subarray(at, at + n), start: start.subarray(at, at + n), head: head.subarray(at, at + n) };
    at += n;
    if (h.numbers !== undefined) {
      numbers.set(h.numbers, numbersAt);
      out[path] = { ...out[path] as LineHeads, numbers: numbers.subarray(numbersAt, numbersAt + h.numbers.length) };
      numbersAt += h.numbers.length;
    }
  }
  return out;
}

/**
 * Whether a token of a message can read as a number (numericValue), judged by its key's token (its digit runs as one
 * `0`): whether it does depends on where its digit runs are, not on their digits (mask.ts numericValueIn reads `=`,
 * edge punctuation, a sign, digits, a `.`, a unit), except for `0x`, which a digit run followed by x may or may not
 * be. A token that cannot reads as NaN on every line of its key: its number need not be kept.
 */
export function readsAsNumber(keyToken: string): boolean {
  return /0[xX]/.test(keyToken) || !Number.isNaN(numericValue(keyToken));
}

/**
 * How to read the numbers of a key's lines at its numbered positions (readsAsNumber) from where their digit runs are
 * (mask.ts hasKey's shifts), as numericValueIn reads each token: a token's number is one digit run of the key (the
 * k-th), with the sign before it and the run after its `.` when the key's token has them; a token with a unit that
 * numericValueIn reads as more than a unit (a time unit scales), or whose key token holds `0x` (its digits decide:
 * readsAsNumber), is read by numericValueIn.
 */
export interface NumberPlan {
  readonly segments: readonly string[];
  /** Per key digit run: its offset in the key (where the message's run starts, less the shift before it). */
  readonly runAt: Int32Array;
  /** Per numbered position: its integer digit run, or −1: read by numericValueIn from the token's span (`plan`). */
  readonly run: Int32Array;
  /** Per numbered position: 1 with a `-` before the run, 2 with a `+`, 0 without; 4 added with a fraction run after it. */
  readonly form: Uint8Array;
  readonly plan: KeyPlan;
}

export function numberPlan(key: string, commaSeparated: boolean, numbered: Int32Array): NumberPlan {
  const plan = keyPlan(key, commaSeparated, numbered);
  const segments = plan.segments;
  const runAt = new Int32Array(Math.max(0, segments.length - 1));
  let at = 0;
  for (let r = 0; r < runAt.length; r++) {
    at += (segments[r] as string).length;
    runAt[r] = at;
    at++;
  }
  const run = new Int32Array(numbered.length).fill(-1);
  const form = new Uint8Array(numbered.length);
  for (let p = 0; p < numbered.length; p++) {
    const start = plan.starts[p] as number;
    if (start === -1) continue;
    const token = key.slice(start, plan.ends[p]);
    if (/0[xX]/.test(token)) continue;
    // (numericValueIn's reading up to the first digit: after the first `=` and the edge punctuation, a sign.)
    const eq = token.indexOf('=');
    let i = eq === -1 ? 0 : eq + 1;
    while (i < token.length && isEdgePunct(token.charCodeAt(i))) i++;
    const c = token.charAt(i);
    if (c === '-' || c === '+') i++;
    if (token.charCodeAt(i) !== 48) continue;
    const fraction = token.charAt(i + 1) === '.' && token.charAt(i + 2) === '0';
    // A unit after the number (`850ms`, `12MB`) is read by numericValueIn, which decides what it means, unless it
    // reads as the number alone for other digits too (a unit that scales, or more runs, would not).
    const numberEnd = i + (fraction ? 3 : 1);
    let rest = numberEnd;
    while (rest < token.length && isEdgePunct(token.charCodeAt(rest))) rest++;
    const digit = (text: string, d: string): string => text.slice(0, i) + d + text.slice(i + 1);
    if (rest < token.length && !['1', '7'].every((d) => Object.is(numericValue(digit(token, d)), numericValue(digit(token.slice(0, numberEnd), d))))) continue;
    run[p] = (plan.runsBeforeStart[p] as number) + [...token.slice(0, i)].filter((ch) => ch === '0').length;
    form[p] = (c === '-' ? 1 : c === '+' ? 2 : 0) + (fraction ? 4 : 0);
  }
  return { segments, runAt, run, form, plan };
}

/**
 * The numbers of a file's lines as the translating pass would read them (readByPlan of a message known to have its
 * key, index.ts templateTranslator): per line that has a key, in line order, numericValueIn of each token at the
 * key's numbered positions (readsAsNumber; NaN past the last token). A file's numbers are dropped (`finish` gives
 * undefined) past NUMBERS_MAX_SHARE of its bytes, or if a message did not fit its key's shape, which a message of
 * that key always does.
 */
export class NumbersRecorder {
  private values = new Float64Array(4096);
  private n = 0;
  private shifts = new Int32Array(64);
  private broken = false;
  /** NUMBERS_MAX_SHARE of the file's bytes, in numbers. */
  private readonly most: number;

  /** For a file of `size` bytes. */
  constructor(size: number) {
    this.most = Math.floor(NUMBERS_MAX_SHARE * size / Float64Array.BYTES_PER_ELEMENT);
  }

  /**
   * The numbers of `message`, known to have the key of `plan`; `shifts`: where its digit runs are (hasKey's, of this
   * key), or null when not known.
   */
  record(message: string, plan: NumberPlan, shifts: Int32Array | null): void {
    const runs = plan.run;
    const np = runs.length;
    if (np === 0 || this.broken) return;
    if (this.n + np > this.most) {
      this.broken = true;
      this.values = new Float64Array(0);
      return;
    }
    if (this.n + np > this.values.length) {
      const grown = new Float64Array(Math.max(this.values.length * 2, this.n + np));
      grown.set(this.values.subarray(0, this.n));
      this.values = grown;
    }
    if (shifts === null) {
      if (plan.segments.length > this.shifts.length) this.shifts = new Int32Array(plan.segments.length);
      shifts = this.shifts;
      if (!knownKeyShifts(message, plan.segments, shifts)) {
        this.broken = true;
        return;
      }
    }
    const values = this.values;
    let at = this.n;
    for (let p = 0; p < np; p++) {
      const r = runs[p] as number;
      values[at++] = r === -1 ? generalNumber(message, plan.plan, p, shifts) : runNumber(message, plan, r, plan.form[p] as number, shifts);
    }
    this.n = at;
  }

  finish(): Float64Array | undefined {
    return this.broken ? undefined : this.values.slice(0, this.n);
  }
}

/** numericValueIn of the token at the plan's position `p` (NaN past the last token). */
function generalNumber(message: string, plan: KeyPlan, p: number, shifts: Int32Array): number {
  const start = plan.starts[p] as number;
  return start === -1 ? NaN
    : numericValueIn(message, start + (shifts[plan.runsBeforeStart[p] as number] as number), (plan.ends[p] as number) + (shifts[plan.runsBeforeEnd[p] as number] as number));
}

/** numericValueIn of a token whose number is digit run `r` (with a sign and a fraction run by `form`: NumberPlan). */
function runNumber(message: string, plan: NumberPlan, r: number, form: number, shifts: Int32Array): number {
  const from = (plan.runAt[r] as number) + (shifts[r] as number);
  const to = from + (shifts[r + 1] as number) - (shifts[r] as number) + 1;
  if ((form & 4) === 0 && to - from <= 15) {
    // (numericValueIn's sum: exact up to 15 digits.)
    let value = 0;
    for (let i = from; i < to; i++) value = value * 10 + (message.charCodeAt(i) - 48);
    return (form & 3) === 1 ? -value : value;
  }
  // (The fraction run, r + 1, ends where its shift puts the key's end of it.)
  const end = (form & 4) === 0 ? to : (plan.runAt[r + 1] as number) + (shifts[r + 2] as number) + 1;
  return Number(message.slice((form & 3) === 0 ? from : from - 1, end));
}

/** The size and modification time of a file (−1 each when it cannot be read). */
export function fileStamp(path: string): { size: number; mtimeMs: number } {
  try {
    const st = statSync(path);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return { size: -1, mtimeMs: -1 };
  }
}

/** A file's line heads for the translating pass: when it has them and is the file mined (its size and mtime). */
export function headsOf(replay: LineReplay | undefined, path: string): LineHeads | undefined {
  const heads = replay?.heads?.[path];
  if (heads === undefined) return undefined;
  const now = fileStamp(path);
  return now.size === heads.size && now.mtimeMs === heads.mtimeMs && now.size >= 0 ? heads : undefined;
}

/**
 * Line `lineNo` split from its head into `state`, as splitLine would split it (time, message, level, entity, a
 * kubectl prefix's pod as host; no syslog host and no log statement: heads are only a text log's, not syslog's);
 * false when the line has no head.
 */
export function splitByHeads(line: string, lineNo: number, heads: LineHeads, state: FileState): boolean {
  const i = lineNo - 1;
  if (i >= heads.start.length) return false;
  const start = (heads.start[i] as number) - 1;
  if (start < 0 || start > line.length) return false;
  const head = heads.head[i] as number;
  const pair = head >> 1;
  const t = heads.t[i] as number;
  state.t = t;
  // (A continuation's time is the last one's already.)
  state.lastTime = t;
  state.timed = (head & 1) === 1;
  state.start = start;
  state.message = start === 0 ? line : line.slice(start);
  // (A kubectl-prefixed line's pod is its host: split.ts. Only its continuations have heads.)
  state.host = state.pods ? podOfLine(line) : '';
  state.parts.level = heads.parts[2 * pair] as string;
  state.parts.entity = heads.parts[2 * pair + 1] as string;
  state.head.level = state.parts.level;
  state.head.location = '';
  return true;
}

// ---------------------------------------------------------------------------
// A message known to have its key

/**
 * The tokens (mask.ts tokenize's) at the plan's positions of a message known to have the plan's key, into `out`
 * (the mining pass: a key's lines differ only in their digit runs, so the key tells where its tokens are). False
 * when the message does not fit the key, or a position is past its last token.
 */
export function tokensByKey(message: string, plan: KeyPlan, shifts: Int32Array, out: string[]): boolean {
  if (!knownKeyShifts(message, plan.segments, shifts)) return false;
  const starts = plan.starts;
  for (let p = 0; p < starts.length; p++) {
    const start = starts[p] as number;
    if (start === -1) return false;
    const from = start + (shifts[plan.runsBeforeStart[p] as number] as number);
    const to = (plan.ends[p] as number) + (shifts[plan.runsBeforeEnd[p] as number] as number);
    out[p] = message.slice(from, to);
  }
  return true;
}
