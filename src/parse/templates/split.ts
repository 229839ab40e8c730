/**
 * Splitting a raw text line or table row into its time, message and header parts (entity, level, syslog host),
 * shared by mining and translating (index.ts), and the message keys lines are cached by.
 */
import type { TimeFormat } from '../translators/time-formats.js';
import { hasKey, maskToken } from './mask.js';
import { maskRequestLine } from './request-line.js';
import { fieldStart, plausibleTime, isTimeOfDay } from './timestamps.js';
import { dropLeadingIds, podOfLine, unpipe, type HeaderParts } from './header.js';
import { headerMemo, type HeaderMemo } from './header-memo.js';
import type { FileLayout, LineHeads, LineKeys } from './types.js';
import type { OtlpRecord } from '../otlp.js';
import { readHead, RowReader, type MessageHead, type RowParts } from '../layout.js';

export interface FileState {
  readonly layout: FileLayout;
  readonly format: TimeFormat;
  /** Whether the format is a time of day (plausibleTime). */
  readonly timeOfDay: boolean;
  lastTime: number;
  /** The mining pass's key per line of this file (LineReplay.lines), if any. */
  readonly replay?: LineKeys | undefined;
  /** The mining pass's line heads of this file (replay.ts splitByHeads), if any. */
  readonly heads?: LineHeads | undefined;
  /** The last line split (splitLine): its time, message, syslog host ('' if none), and whether it had its own timestamp. */
  t: number;
  message: string;
  host: string;
  timed: boolean;
  /**
   * Where the last line's message starts in the line, when the message is the line's end (`line.slice(start)`); −1
   * when it is not (a table's cell, a comma layout, bars read as spaces, a timestamp after other fields, a syslog
   * host). What the mining pass hands to the translating pass with the line's header (replay.ts LineHeads).
   */
  start: number;
  /** A table's rows (null: a text log), and the last row's parts: entity, trace, level ('' each when none). */
  readonly rows: RowReader | null;
  readonly row: RowParts;
  /** The last line's level and log statement (readHead: '' each when none). */
  readonly head: MessageHead;
  /** A text line's header parts (layout.textHeader): its level and entity ('' each when none). */
  readonly parts: HeaderParts;
  /** How the text header is read (readTextHeader, remembered: header-memo.ts); null without one. */
  readonly headers: HeaderMemo | null;
  /** A text log whose header opens with kubectl's `[pod/<pod>/<container>]`: the pod is the line's host (podOfLine). */
  readonly pods: boolean;
}

export function fileState(layout: FileLayout, format: TimeFormat, replay?: LineKeys, heads?: LineHeads): FileState {
  return {
    layout, format, timeOfDay: isTimeOfDay(format), lastTime: NaN, replay, heads, t: NaN, message: '', host: '', timed: false, start: -1,
    rows: layout.table === undefined ? null : new RowReader(layout.table),
    row: { t: NaN, message: '', entity: '', trace: '', level: '', location: '' },
    head: { level: '', location: '' },
    parts: { level: '', entity: '' },
    headers: layout.textHeader === undefined ? null : headerMemo(layout.textHeader),
    pods: layout.table === undefined && layout.textHeader?.slots[0] === 'pod',
  };
}

/**
 * Split a line into its time and message (the line without its timestamp and syslog host), into `state.t`,
 * `.message`, `.host` and `.timed`; false for a header or a line that cannot be timed. (Fields of the file's
 * state rather than a new object per line.)
 */
export function splitLine(line: string, lineNo: number, state: FileState): boolean {
  const { layout, format } = state;
  state.start = -1;
  if (layout.header && lineNo === 1) return false;
  if (line.length === 0) return false;
  // A table row: its message cell (or field) is the message, the row's time its time; a row that cannot be read
  // (a cut or interleaved one) is not a continuation line.
  if (state.rows !== null) return state.rows.read(line, state.row) && splitRead(state);
  state.head.location = '';
  state.head.level = '';
  const start = fieldStart(line, layout.field, layout.comma);
  const t = start >= 0 ? format.parse(line, start) : NaN;
  state.host = '';
  if (plausibleTime(t, state.timeOfDay)) {
    let end = format.end;
    if (line.charCodeAt(end) === 93 /* ] */ && line.charCodeAt(start - 1) === 91) end++;
    const from = line.charCodeAt(start - 1) === 91 ? start - 1 : start;
    if (layout.comma) {
      state.message = line.slice(0, from) + line.slice(end + (line.charCodeAt(end) === 44 ? 1 : 0));
    } else if (layout.host) {
      // Syslog: the host is the field after the timestamp.
      let i = end;
      while (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9) i++;
      let j = i;
      while (j < line.length && line.charCodeAt(j) !== 32 && line.charCodeAt(j) !== 9) j++;
      state.host = line.slice(i, j);
      state.message = line.slice(j);
    } else if (from === 0) {
      state.message = line.slice(end);
      state.start = end;
    } else {
      state.message = line.slice(0, from) + line.slice(end);
    }
    if (layout.pipes !== undefined) {
      state.message = unpipe(state.message, layout.pipes);
      state.start = -1;
    }
    // (Leading ids and a text header are cut from the message's start: a line's end stays the line's end.)
    if (layout.ids !== undefined) state.message = dropLeadingIds(state.message, layout.ids);
    // (kubectl's `--prefix`: the pod stands where a syslog line's host does, and names instances with no request id.)
    if (state.pods) state.host = podOfLine(state.message);
    if (state.headers !== null) {
      state.message = state.headers.read(state.message, state.parts);
      state.head.level = state.parts.level;
    }
    if (state.start >= 0) state.start = line.length - state.message.length;
    state.t = t;
    state.timed = true;
    state.lastTime = t;
  } else {
    if (Number.isNaN(state.lastTime)) return false;
    state.parts.level = '';
    state.parts.entity = '';
    state.message = line;
    // (A line kubectl prefixed was written in its pod, whether or not it has a time of its own.)
    if (state.pods) state.host = podOfLine(line);
    state.start = 0;
    state.t = state.lastTime;
    state.timed = false;
  }
  return true;
}

/** splitLine of a line, or splitRecord of an OTLP/JSON log record (one row of a line: otlp.ts). */
export function splitRow(row: string | Readonly<OtlpRecord>, lineNo: number, state: FileState): boolean {
  return typeof row === 'string' ? splitLine(row, lineNo, state) : splitRecord(row, state);
}

/**
 * splitLine of a table row given as its record, parsed and flat (an OTLP/JSON log record: otlp.ts), with no text
 * made of it (RowReader.readRecord): the same split as of the record's JSON text.
 */
export function splitRecord(record: Readonly<Record<string, unknown>>, state: FileState): boolean {
  state.start = -1;
  return state.rows !== null && state.rows.readRecord(record, state.row) && splitRead(state);
}

/** splitLine's rest for a table row read into `state.row`. */
function splitRead(state: FileState): boolean {
  state.t = state.row.t;
  state.message = readHead(state.row.message, state.head);
  if (state.headers !== null) {
    // (The message's own text header: layout.textHeader, index.ts mineFile.)
    state.message = state.headers.read(state.message, state.parts);
    if (state.parts.level !== '') state.head.level = state.parts.level;
    if (state.row.entity === '') state.row.entity = state.parts.entity;
  }
  if (state.row.level !== '') state.head.level = state.row.level;
  if (state.message.length === 0 && state.head.location === '') return false;
  // (A table's source stands where a syslog line's host does: with no request id, it names instances.)
  state.host = state.row.source ?? '';
  state.timed = true;
  state.lastTime = state.t;
  return true;
}

/**
 * The cache key of a message: its digit runs collapsed to one `0`. Masking
 * depends on digits only through whether a token has one (mask.ts), so two
 * messages with the same key have the same masked tokens, and most lines of a
 * log skip tokenizing and masking altogether.
 */
const DIGIT_RUNS = /[0-9]+/g;
/** A digit run followed by x: numericValue's `0x` test reads the run's digits, which a message key does not keep. */
export const HEX_LIKE = /[0-9][xX]/;
export function messageKey(message: string): string {
  return message.replace(DIGIT_RUNS, '0');
}

/**
 * Finding a message's key without making it: a few recent keys per slot,
 * the slot chosen by what digit runs cannot change (where the message's first
 * digit is, up to its 32nd character, the character before it, and its last
 * character, a digit read as `0`), each tried by its digit-free segments
 * (hasKey: the message has the key iff it is those segments with a digit run
 * between each two). A hit is exact;
 * a miss makes the key (messageKey) and looks it up in the Map. Measured on the
 * bench set: 0.29 µs a line against 0.40–0.45 for the key and a direct-mapped
 * cache before the Map, 0.61–0.78 for the key and the Map (hit rate 99.99 %).
 */
const GUESS_SLOTS = 256;
const GUESS_WAYS = 4;

export class KeyGuess<T extends { readonly segments: readonly string[] }> {
  private readonly slots: Array<T | undefined> = new Array<T | undefined>(GUESS_SLOTS * GUESS_WAYS).fill(undefined);

  private static slot(message: string): number {
    const n = message.length;
    // (The first digit, or the 32nd character when none comes before: the same for every message of a key.)
    const scan = Math.min(n, 32);
    let d = 0;
    while (d < scan) {
      const c = message.charCodeAt(d);
      if (c >= 48 && c <= 57) break;
      d++;
    }
    let last = n > 0 ? message.charCodeAt(n - 1) : 0;
    if (last >= 48 && last <= 57) last = 48;
    return ((d * 31 + (d > 0 ? message.charCodeAt(d - 1) : 0) * 7 + last) & (GUESS_SLOTS - 1)) * GUESS_WAYS;
  }

  /**
   * The entry whose key the message has, among those remembered in its slot, and with `shifts` (as long as any
   * entry's segments) where its digit runs are (mask.ts hasKey).
   */
  find(message: string, shifts: Int32Array | null = null): T | undefined {
    const at = KeyGuess.slot(message);
    for (let w = 0; w < GUESS_WAYS; w++) {
      const e = this.slots[at + w];
      if (e === undefined) return undefined;
      if (hasKey(message, e.segments, shifts)) return e;
    }
    return undefined;
  }

  /** Remember an entry for messages like this one (the slot's most recent first). */
  add(message: string, entry: T): void {
    const at = KeyGuess.slot(message);
    for (let w = GUESS_WAYS - 1; w > 0; w--) this.slots[at + w] = this.slots[at + w - 1];
    this.slots[at] = entry;
  }
}

export function maskAll(tokens: readonly string[]): string[] {
  const masked = new Array<string>(tokens.length);
  for (let i = 0; i < tokens.length; i++) masked[i] = maskToken(tokens[i] as string);
  maskRequestLine(tokens, masked);
  return masked;
}

