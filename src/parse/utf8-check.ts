import { isUtf8 } from 'node:buffer';

/**
 * Input must be UTF-8 (SPEC §1 leaves it open). A decoder would turn every
 * invalid sequence into U+FFFD, so two names that differ only in their
 * invalid bytes (Latin-1 "café" and "cafè") would silently become one
 * variable: such a file is refused instead, naming the first invalid byte.
 *
 * `check` takes the chunks in order (a sequence may be split between two) and
 * returns the first invalid byte — its value and index in `chunk`, negative
 * when its sequence began in the previous chunk — or null; `end` says whether
 * the input stopped inside a sequence. Cost: one `isUtf8` per chunk.
 */
export class Utf8Check {
  private tail: Buffer | null = null;

  check(chunk: Uint8Array): { readonly byte: number; readonly at: number } | null {
    let body = chunk;
    let offset = 0;
    if (this.tail !== null) {
      const tail = this.tail;
      const need = sequenceLength(tail[0] as number) - tail.length;
      const joined = Buffer.concat([tail, chunk.subarray(0, need)]);
      this.tail = null;
      const bad = { byte: tail[0] as number, at: -tail.length };
      if (chunk.length < need) {
        if (!isPrefixValid(joined)) return bad;
        this.tail = joined;
        return null;
      }
      if (!isUtf8(joined)) return bad;
      body = chunk.subarray(need);
      offset = need;
    }
    // An incomplete sequence at the end waits for the next chunk.
    let cut = body.length;
    for (let i = body.length - 1; i >= 0 && i >= body.length - 3; i--) {
      const b = body[i] as number;
      if (b < 0x80) break;
      if (b >= 0xc0) {
        if (i + sequenceLength(b) > body.length) cut = i;
        break;
      }
    }
    const whole = body.subarray(0, cut);
    if (!isUtf8(whole)) {
      const at = offset + firstInvalid(whole);
      return { byte: chunk[at] as number, at };
    }
    if (cut < body.length) this.tail = Buffer.from(body.subarray(cut));
    return null;
  }

  /** Whether the input ended inside a sequence. */
  end(): boolean {
    return this.tail !== null;
  }
}

function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
}

/** A started sequence that may still complete: a lead byte, then continuation bytes only. */
function isPrefixValid(bytes: Buffer): boolean {
  if ((bytes[0] as number) < 0xc2 || (bytes[0] as number) > 0xf4) return false;
  for (let i = 1; i < bytes.length; i++) if (((bytes[i] as number) & 0xc0) !== 0x80) return false;
  return true;
}

/** Where the first invalid sequence starts (its structure; for overlong forms and surrogates, the start of the sequence isUtf8 refused). */
function firstInvalid(bytes: Uint8Array): number {
  let lo = 0;
  let hi = bytes.length;
  // The longest valid prefix, by bisection over sequence starts.
  while (hi - lo > 1) {
    let mid = (lo + hi) >> 1;
    while (mid > lo && ((bytes[mid] as number) & 0xc0) === 0x80) mid--;
    if (mid === lo) break;
    if (isUtf8(bytes.subarray(0, mid))) lo = mid;
    else hi = mid;
  }
  // lo: a valid prefix end; step over valid sequences one by one to the bad one.
  let i = lo;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const n = b < 0x80 ? 1 : sequenceLength(b);
    if (b >= 0x80 && (b < 0xc2 || !isUtf8(bytes.subarray(i, i + n)))) return i;
    i += n;
  }
  return lo;
}

/** The message for an invalid byte `at` bytes into the input. */
export function invalidUtf8Message(byte: number | undefined, at: number): string {
  const shown = byte === undefined ? 'an unfinished sequence at the end' : `byte 0x${byte.toString(16).padStart(2, '0')}`;
  return `not valid UTF-8 (${shown} near byte ${at}); distinct names could not be told apart`;
}

export const UTF8_HINT = 'convert it to UTF-8 first, e.g. iconv -f ISO-8859-1 -t UTF-8';

/** The 1-based line of byte `pos` of `chunk`, given the lines finished before the chunk. */
export function lineAt(chunk: Uint8Array, pos: number, linesBefore: number): number {
  let line = linesBefore + 1;
  if (pos <= 0) return line;
  for (let i = chunk.indexOf(10); i !== -1 && i < pos; i = chunk.indexOf(10, i + 1)) line++;
  return line;
}
