/**
 * A speed path (issue 53): header.ts readTextHeader remembered by the header's text, so that the lines of a file,
 * which repeat a few headers (level, thread, logger), are not read field by field each. Held equal to
 * readTextHeader by test/header-memo.test.ts; splitLine (split.ts) reads every text header through it.
 *
 * Why it is exact: readTextHeader decides a line's fields, level and entity from the characters up to its message
 * (the header and the blanks after it) and the one after them (not a blank), with one exception: a `[` field is
 * read up to its matching `]` wherever that is, then, if that `]` does not end the field, as a plain field. So a
 * header whose every `[` is matched within it reads the same at the start of any message that begins with it
 * followed by a character that is not a blank; a header with an unmatched `[` is not remembered.
 */
import { readTextHeader, type HeaderParts, type TextHeader } from './header.js';

/** Characters of a message's start that pick its candidates (a header, its thread and logger, mostly). */
const PREFIX = 32;
/** Most starts remembered per header shape (then forgotten at once, as the ENTITIES of header.ts are). */
const MAX_STARTS = 4096;
/** Most headers remembered per start. */
const MAX_PER_START = 4;
/** After this many reads, a shape whose lines found a remembered header less than half the time stops remembering. */
const TRIAL_READS = 2048;

interface Remembered {
  /** The header and the blanks after it: the message starts after them. */
  readonly text: string;
  readonly level: string;
  readonly entity: string;
}

/** Most header shapes whose memos a thread keeps (then all are forgotten at once). */
const MAX_SHAPES = 64;
const MEMOS = new Map<string, HeaderMemo>();

/**
 * The memo of a header shape, shared by the files of this thread that have it (a file of a few lines reads
 * headers the files before it remembered): readTextHeader depends on the message and the shape alone.
 */
export function headerMemo(header: TextHeader): HeaderMemo {
  // (A user's pattern may read past the header's fields: not remembered.)
  if (header.pattern !== undefined) return new HeaderMemo(header, false);
  const shape = `${header.entity} ${header.slots.join(' ')}`;
  let memo = MEMOS.get(shape);
  if (memo === undefined) {
    if (MEMOS.size >= MAX_SHAPES) MEMOS.clear();
    MEMOS.set(shape, memo = new HeaderMemo(header));
  }
  return memo;
}

export class HeaderMemo {
  private readonly byStart = new Map<string, Remembered[]>();
  private reads = 0;
  private hits = 0;
  constructor(private readonly header: TextHeader, private on = true) {}

  /** readTextHeader(message, header, parts). */
  read(message: string, parts: HeaderParts): string {
    if (this.on && ++this.reads === TRIAL_READS && this.hits * 2 < TRIAL_READS) {
      this.on = false;
      this.byStart.clear();
    }
    if (!this.on) return readTextHeader(message, this.header, parts);
    const n = message.length;
    const start = message.slice(0, PREFIX);
    const known = this.byStart.get(start);
    if (known !== undefined) {
      for (const r of known) {
        const h = r.text.length;
        // (A slice and `===` compare natively; startsWith goes character by character.)
        if (h < n && !isBlank(message.charCodeAt(h)) && message.slice(0, h) === r.text) {
          this.hits++;
          parts.level = r.level;
          parts.entity = r.entity;
          return message.slice(h);
        }
      }
    }
    const out = readTextHeader(message, this.header, parts);
    // (readTextHeader gives back the message itself when the line has no header of the file's shape.)
    if (out !== message) {
      const text = own(message.slice(0, n - out.length));
      if (bracketsMatched(text)) {
        if (this.byStart.size >= MAX_STARTS) this.byStart.clear();
        const list = this.byStart.get(start);
        const r = { text, level: parts.level, entity: parts.entity };
        if (list === undefined) this.byStart.set(own(start), [r]);
        else if (list.length < MAX_PER_START) list.push(r);
      }
    }
    return out;
  }
}

/** A copy of a slice that does not hold on to the string it was cut from (a 64 KiB chunk of the file). */
function own(slice: string): string {
  return JSON.parse(JSON.stringify(slice)) as string;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

/** Whether every `[` of `text` has its matching `]` in it (a `]` with none open is passed over). */
function bracketsMatched(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91) depth++;
    else if (c === 93 && depth > 0) depth--;
  }
  return depth === 0;
}
