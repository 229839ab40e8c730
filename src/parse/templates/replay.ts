/**
 * What the mining pass hands to the translating pass (LineReplay): each line's message key, and a text log's line
 * heads (time, where the message starts, level and entity), so that translating a line of an unchanged file
 * neither keys nor splits it again. A speed path: translating with no replay (templateTranslator of a model
 * without it) reads every line from scratch and gives the same records (test/templates-replay.test.ts).
 */
import { statSync } from 'node:fs';
import type { RecordEnds } from '../files.js';
import { knownKeyShifts, type KeyPlan } from './mask.js';
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
  return { keys, templates: Int32Array.from(templates), lines, ...(Object.keys(heads).length > 0 ? { heads: sharedHeads(heads) } : {}) };
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
  return files.reduce((n, f) => n + (f.gzip ? 10 : 1) * f.size, 0) <= HEADS_MAX_INPUT_BYTES;
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
  const out: Record<string, LineHeads> = {};
  let at = 0;
  for (const [path, h] of all) {
    const n = h.t.length;
    t.set(h.t, at);
    start.set(h.start, at);
    head.set(h.head, at);
    out[path] = { ...h, t: t.subarray(at, at + n), start: start.subarray(at, at + n), head: head.subarray(at, at + n) };
    at += n;
  }
  return out;
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
 * Line `lineNo` split from its head into `state`, as splitLine would split it (time, message, level, entity; no
 * host and no log statement: heads are only a text log's); false when the line has no head.
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
  state.host = '';
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
