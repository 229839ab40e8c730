/**
 * The byte-level dlog line parser (SPEC §1): the records `parseDlogLine`
 * (../dlog.ts, the plain reading) gives, parsed from Buffer chunks. Held
 * equal to it by test/dlog-fast.test.ts. The readers of dlog-fast.ts and
 * dlog-tail.ts feed it chunks.
 */
import { StringDecoder } from 'node:string_decoder';
import { clip, parseDlogLine } from '../dlog.js';
import { MAX_LINE_LENGTH } from '../lines.js';
import type { RecordIntake, RecordSink } from '../records.js';
import { parseDecimal, parseTimestamp } from '../timestamp.js';
import { type DlogScanner, SCAN_BYTES, SCAN_END, SCAN_FULL, SCAN_NAME, threadScanner } from './dlog-scan.js';

/** A line that yielded no record: its number, why (built only when shown), and a hint. */
export type SkipHandler = (lineNo: number, reason: () => string, hint?: string) => void;

export const NOT_A_RECORD_HINT = 'records are I/E/S lines with TAB-separated fields; use --translator for raw logs';

/**
 * Bytes per read of a stream (compressed files and standard input; plain
 * files go through fileChunks): 64 KB.
 */
export const STREAM_CHUNK = 64 * 1024;
export const NL = 10;
const TAB = 9;
const CR = 13;
const MAX_SAFE = 9007199254740991;
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
const NEWLINE = Buffer.from([NL]);
/** Records per batch given to an intake. */
const BATCH = 4096;
/** Records in a parser's first batch (see DlogBufferParser.batchLimit). */
const FIRST_BATCH = 16;
/**
 * A finished parser's record batch and name caches, for the next parser on
 * this thread: allocating and clearing them (80 KB and four 1 024-slot
 * arrays) cost ~25 µs a file (10 000 small files: 0.25 s). The batch is
 * never read before being written; the caches hold variable numbers of
 * `owner`'s, kept for a parser of the same intake (they stay its numbers),
 * cleared for another.
 */
interface ParserScratch {
  readonly code: Int32Array<ArrayBuffer>;
  readonly t: Float64Array<ArrayBuffer>;
  readonly v: Float64Array<ArrayBuffer>;
  owner: RecordIntake;
  readonly eventNames: (string | null)[];
  readonly eventIds: Int32Array;
  readonly stateNames: (string | null)[];
  readonly stateIds: Int32Array;
}
const freeScratch: ParserScratch[] = [];

function takeScratch(intake: RecordIntake): ParserScratch {
  const s = freeScratch.pop();
  if (s === undefined) {
    return {
      code: new Int32Array(BATCH), t: new Float64Array(BATCH), v: new Float64Array(BATCH), owner: intake,
      eventNames: new Array<string | null>(CACHE_SLOTS).fill(null), eventIds: new Int32Array(CACHE_SLOTS),
      stateNames: new Array<string | null>(CACHE_SLOTS).fill(null), stateIds: new Int32Array(CACHE_SLOTS),
    };
  }
  if (s.owner !== intake) {
    s.eventNames.fill(null);
    s.stateNames.fill(null);
    s.owner = intake;
  }
  return s;
}
/** A line across chunks up to this many bytes, all ASCII, is joined and parsed from bytes; longer ones are decoded. */
const JOIN_LIMIT = 4096;

/**
 * Names by their bytes: a hash of them (computed while scanning the line)
 * picks a slot holding the last name seen there, its bytes and its string. A
 * hit returns the same string object, so the collector's Map lookup finds its
 * hash already computed and compares by identity: no string is made for a
 * repeated name.
 */
const CACHE_SLOTS = 1024;
const CACHE_WIDTH = 64;
const cacheNames: string[] = new Array<string>(CACHE_SLOTS).fill('');
const cacheLengths = new Int32Array(CACHE_SLOTS);
const cacheBytes = new Uint8Array(CACHE_SLOTS * CACHE_WIDTH);

/** The hash of the scans in `timed`: h = h * 31 + byte, in 32 bits. */
function hashBytes(b: Buffer, s: number, e: number): number {
  let h = 0;
  for (let i = s; i < e; i++) h = (h * 31 + (b[i] as number)) | 0;
  return h;
}

function slotOf(h: number): number {
  return (h ^ (h >>> 10) ^ (h >>> 20)) & (CACHE_SLOTS - 1);
}

function cachedName(b: Buffer, s: number, e: number, h: number): string {
  const len = e - s;
  if (len > CACHE_WIDTH) return latin1(b, s, e);
  const slot = slotOf(h);
  let k = slot * CACHE_WIDTH;
  if (cacheLengths[slot] === len) {
    let i = s;
    while (i < e && cacheBytes[k] === b[i]) {
      i++;
      k++;
    }
    if (i === e) return cacheNames[slot] as string;
    k = slot * CACHE_WIDTH;
  }
  const name = latin1(b, s, e);
  cacheNames[slot] = name;
  cacheLengths[slot] = len;
  for (let i = s; i < e; i++) cacheBytes[k++] = b[i] as number;
  return name;
}

/**
 * Whether the `len` bytes at `at` (4 ≤ len ≤ 64, an earlier field of b) equal those at `i`, followed
 * by a TAB below `viewEnd` (the chunk's last '\n', so every word read is inside the view): the last
 * word first (a timestamp's last digits differ soonest), then the others.
 */
function sameField(b: Buffer, view: DataView, at: number, i: number, len: number, viewEnd: number): boolean {
  const end = i + len;
  if (end > viewEnd || b[end] !== TAB || view.getInt32(end - 4, true) !== view.getInt32(at + len - 4, true)) return false;
  for (let k = 0; k < len - 4; k += 4) if (view.getInt32(i + k, true) !== view.getInt32(at + k, true)) return false;
  return true;
}

/**
 * Names predicted from the name before them. With a fast lane, each ASCII name
 * of at most CACHE_WIDTH bytes gets an entry (its bytes and its code: event v,
 * or −1−v for state v), and each entry remembers the two entries that followed
 * it last (`next`, the latest, and `second`). A record is first compared, byte
 * by byte, with the entries that followed the previous record's: a whole match
 * up to the name's end is that name, with no hash, cache or number lookup;
 * anything else takes the usual path. Entries hold the codes of one intake
 * (`owner`), for every file read into it. Two, as a log often interleaves a
 * few sequences (a state sampled now and then between a pipeline's events):
 * on the bench's runs, one entry missed 19.5 % of records (each costing a hash,
 * a name cache and a number lookup), two miss 0.3 %.
 */
const PRED_ENTRIES = 256;
const PRED_MAX_VARIABLES = 1 << 16;
class NamePredictor {
  owner: RecordIntake | null = null;
  /** Counts resets: a parser uses the entries only while they are those of its own reset or later ones of the same owner. */
  generation = 0;
  readonly bytes = new Uint8Array(PRED_ENTRIES * CACHE_WIDTH);
  /** The same bytes as little-endian 32-bit words (CACHE_WIDTH is a multiple of 4). */
  readonly words = new Int32Array(this.bytes.buffer);
  readonly len = new Int32Array(PRED_ENTRIES);
  readonly code = new Int32Array(PRED_ENTRIES);
  readonly next = new Int32Array(PRED_ENTRIES);
  readonly second = new Int32Array(PRED_ENTRIES);
  count = 0;
  /** Entry of each event / state variable, or −1. */
  private eventEntry = new Int32Array(0);
  private stateEntry = new Int32Array(0);

  reset(owner: RecordIntake): void {
    this.owner = owner;
    this.generation++;
    this.count = 0;
    this.eventEntry = new Int32Array(0);
    this.stateEntry = new Int32Array(0);
  }

  /** The entry of the name at [s, e) of b whose code is `code` (added if new and it fits), or −1. */
  entry(code: number, b: Buffer, s: number, e: number): number {
    const isEvent = code >= 0;
    const v = isEvent ? code : -1 - code;
    let byVariable = isEvent ? this.eventEntry : this.stateEntry;
    if (v < byVariable.length && (byVariable[v] as number) >= 0) return byVariable[v] as number;
    if (e - s > CACHE_WIDTH || this.count === PRED_ENTRIES || v >= PRED_MAX_VARIABLES) return -1;
    // An event name ending in CR: matched up to a line's '\n', that CR would be the line's (stripped), not the name's.
    if (isEvent && b[e - 1] === CR) return -1;
    if (v >= byVariable.length) {
      const grown = new Int32Array(Math.min(PRED_MAX_VARIABLES, Math.max(64, 2 * (v + 1)))).fill(-1);
      grown.set(byVariable);
      byVariable = grown;
      if (isEvent) this.eventEntry = grown;
      else this.stateEntry = grown;
    }
    const k = this.count++;
    let at = k * CACHE_WIDTH;
    for (let i = s; i < e; i++) this.bytes[at++] = b[i] as number;
    this.len[k] = e - s;
    this.code[k] = code;
    this.next[k] = -1;
    this.second[k] = -1;
    byVariable[v] = k;
    return k;
  }
}
const predictor = new NamePredictor();

/**
 * Bytes below 0x80 as a string: Buffer#latin1Slice, which toString('latin1')
 * calls after its encoding switch (undocumented, so checked once).
 */
const latin1: (b: Buffer, s: number, e: number) => string =
  typeof (Buffer.prototype as unknown as { latin1Slice?: unknown }).latin1Slice === 'function'
    ? (b, s, e) => (b as unknown as { latin1Slice(start: number, end: number): string }).latin1Slice(s, e)
    : (b, s, e) => b.toString('latin1', s, e);

/**
 * The line state of one file. `line(b, s)` parses the line at `s` of a buffer
 * known to hold a '\n' at or after `s` (so every scan stops there without a
 * bounds check) and returns the index of that '\n'. The bytes after a chunk's
 * last '\n' are carried to the next chunk, as pieces, mirroring readLines'
 * string carry — including its rule for over-long lines, counted in characters.
 */
export class DlogBufferParser {
  lineNo = 0;
  /** Bytes of the unfinished line, one piece per chunk (copies: a stream may reuse its buffers). */
  private pieces: Buffer[] = [];
  private carryBytes = 0;
  private carryHigh = false;
  /** Fed the pieces once they pass MAX_LINE_LENGTH bytes, to count their characters as readLines does. */
  private carryDecoder: StringDecoder | null = null;
  private carryChars = 0;
  /** Inside a line over the limit: its characters so far, and the decoder that counts the rest. */
  private skipping = false;
  private skippedLength = 0;
  /** The sink's fast lane, or null; the records given to it. */
  private readonly intake: RecordIntake | null;
  /** The intake wants no events (RecordIntake.statesOnly): event lines are skipped unparsed. */
  private readonly statesOnly: boolean;
  intakeRecords = 0;
  /** Records for the intake not yet given: given before any other sink call, at each chunk's end and at the end. */
  /** The batch and caches below, taken from freeScratch (null: none, or given back). */
  private scratch: ParserScratch | null = null;
  private batchCode = new Int32Array(0);
  private batchT = new Float64Array(0);
  private batchV = new Float64Array(0);
  private batched = 0;
  /**
   * Records that fill a batch: BATCH, but FIRST_BATCH until the first batch is given, so that
   * `batch`'s flush has run before V8 first optimizes the parse (else the flush, never seen run,
   * deoptimizes it once per thread). Where batches end does not change what the intake gets.
   */
  private batchLimit = FIRST_BATCH;
  /** The entry (see NamePredictor) of the last record's name, or −1; the predictor's generation it belongs to. */
  private previousEntry = -1;
  private generation = -1;
  /**
   * Variable numbers by cache slot (the name cache's slots), valid while the
   * slot's name is the same string object: a hit costs no Map lookup.
   */
  private readonly eventNames: (string | null)[];
  private readonly eventIds: Int32Array;
  private readonly stateNames: (string | null)[];
  private readonly stateIds: Int32Array;
  /**
   * The first 8 bytes of the last timestamp whose first 8 bytes were digits
   * (two little-endian words) and their value: consecutive timestamps mostly
   * share them (an epoch's first 8 digits change every 100 s), so a line that
   * does starts its digit loop 8 bytes in. Read through a view of the chunk
   * being parsed, below its last '\n' only.
   */
  private view: DataView | null = null;
  private viewOf: Buffer | null = null;
  private viewEnd = 0;
  private prefix0 = 0;
  private prefix1 = 0;
  private prefixValue = -1;
  /**
   * The last simple timestamp field of this chunk (where it starts, its length before the TAB,
   * its value): states logged together share it, so a state whose field holds the same bytes,
   * compared a word at a time, has the same value without its digit loop (events are not tried:
   * consecutive ones rarely share a time, and the failed compare costs). −1: none yet.
   */
  private tsAt = -1;
  private tsLen = 0;
  private tsValue = 0;

  constructor(
    private readonly sink: RecordSink,
    private readonly onSkip: SkipHandler,
    private readonly file: string,
  ) {
    this.intake = sink.intake ?? null;
    this.statesOnly = this.intake?.statesOnly === true;
    if (this.intake === null) {
      this.eventNames = this.stateNames = [];
      this.eventIds = this.stateIds = new Int32Array(0);
      return;
    }
    if (predictor.owner !== this.intake) predictor.reset(this.intake);
    this.generation = predictor.generation;
    const scratch = takeScratch(this.intake);
    this.scratch = scratch;
    this.batchCode = scratch.code;
    this.batchT = scratch.t;
    this.batchV = scratch.v;
    this.eventNames = scratch.eventNames;
    this.eventIds = scratch.eventIds;
    this.stateNames = scratch.stateNames;
    this.stateIds = scratch.stateIds;
  }

  /** The number of an ASCII event name at [s, e) with hash h (the intake's). */
  private eventVariable(intake: RecordIntake, b: Buffer, s: number, e: number, h: number): number {
    const name = cachedName(b, s, e, h);
    const slot = slotOf(h);
    if (this.eventNames[slot] === name) return this.eventIds[slot] as number;
    this.flush();
    const v = intake.eventVariable(name);
    this.eventNames[slot] = name;
    this.eventIds[slot] = v;
    return v;
  }

  private stateVariable(intake: RecordIntake, b: Buffer, s: number, e: number, h: number): number {
    const name = cachedName(b, s, e, h);
    const slot = slotOf(h);
    if (this.stateNames[slot] === name) return this.stateIds[slot] as number;
    this.flush();
    const v = intake.stateVariable(name);
    this.stateNames[slot] = name;
    this.stateIds[slot] = v;
    return v;
  }

  /** Give the batched records to the intake. */
  flush(): void {
    const n = this.batched;
    if (n === 0) return;
    this.batched = 0;
    this.intakeRecords += n;
    (this.intake as RecordIntake).records(this.batchCode, this.batchT, this.batchV, n);
  }

  /** After a name found the usual way: the previous record's entry is followed by this one's. */
  private follow(code: number, b: Buffer, s: number, e: number): void {
    // Another intake's parser reset the entries since (not done by any caller: reads are sequential): no prediction.
    if (predictor.generation !== this.generation) return;
    const entry = predictor.entry(code, b, s, e);
    const previous = this.previousEntry;
    if (previous >= 0 && predictor.next[previous] !== entry) {
      predictor.second[previous] = predictor.next[previous] as number;
      predictor.next[previous] = entry;
    }
    this.previousEntry = entry;
  }

  private batch(code: number, t: number, v: number): void {
    const k = this.batched;
    this.batchCode[k] = code;
    this.batchT[k] = t;
    this.batchV[k] = v;
    if ((this.batched = k + 1) === this.batchLimit) {
      this.batchLimit = BATCH;
      this.flush();
    }
  }

  chunk(b: Buffer, start: number): void {
    const len = b.length;
    if (this.skipping || this.pieces.length > 0) {
      const nl = b.indexOf(NL, start);
      if (nl === -1) {
        this.extendCarry(b, start, len);
        return;
      }
      this.finishCarry(b, start, nl);
      start = nl + 1;
    }
    const last = b.lastIndexOf(NL);
    this.view = new DataView(b.buffer, b.byteOffset, b.length);
    this.viewOf = b;
    this.viewEnd = last;
    this.tsAt = -1;
    const scanner = this.intake !== null && last >= start && last + 1 - start <= SCAN_BYTES ? threadScanner() : null;
    const pos = scanner !== null ? this.scanned(scanner, b, start, last) : this.lines(b, start, last);
    this.tsAt = -1;
    this.viewOf = null;
    this.view = null;
    this.flush();
    if (pos < len) this.extendCarry(b, pos, len);
  }

  /**
   * The whole lines from pos on (the last ends at `last`); returns where the rest begins. Its own
   * method: V8 optimizes this loop on the stack, and code after it that had not run yet would
   * deoptimize it on leaving, once per chunk.
   */
  private lines(b: Buffer, pos: number, last: number): number {
    while (pos <= last) pos = this.line(b, pos) + 1;
    return pos;
  }

  /**
   * The whole lines from pos on (the last ends at `last`), through this thread's scanner (dlog-scan.ts): it
   * writes the usual records, numbered by its table of names; a name it does not have is numbered here (as
   * `timed` numbers it) and added, and any line it hands back is read by `line`. Returns where the rest begins.
   */
  private scanned(scanner: DlogScanner, b: Buffer, pos: number, last: number): number {
    scanner.own(this.intake as RecordIntake);
    scanner.bytes.set(b.subarray(pos, last + 1));
    this.scanLines(scanner, b, pos, last + 1 - pos);
    // The name predictor's last entry is not the last record's after scanned ones: no prediction from it.
    this.previousEntry = -1;
    return last + 1;
  }

  /**
   * scanned's loop, over the chunk's lines copied to the scanner from `base` on (`to` bytes). Its own method
   * ending with its loop, as `lines`: code after a loop V8 optimized while it ran would stop it on leaving.
   */
  private scanLines(scanner: DlogScanner, b: Buffer, base: number, to: number): void {
    const intake = this.intake as RecordIntake;
    let at = 0;
    for (;;) {
      const stop = scanner.scan(at, to, this.batchLimit - this.batched, this.statesOnly);
      const n = scanner.n();
      if (n > 0) this.scannedRecords(scanner.code, scanner.t, scanner.v, n);
      this.lineNo += scanner.lines();
      at = scanner.pos();
      if (stop === SCAN_END) return;
      if (stop === SCAN_FULL) continue;
      if (stop === SCAN_NAME) {
        const s = base + scanner.nameStart();
        const e = base + scanner.nameEnd();
        const kind = scanner.kind();
        const h = hashBytes(b, s, e);
        const code = kind === 1 ? this.eventVariable(intake, b, s, e, h) : -1 - this.stateVariable(intake, b, s, e, h);
        if (scanner.add(code)) continue;
      }
      // SCAN_LINE (or a name the full table cannot take): the parser reads the line, with no prediction from before it.
      this.previousEntry = -1;
      at = this.line(b, base + at) + 1 - base;
    }
  }

  /** The scanner's n records, batched as `batch` would batch them one by one. */
  private scannedRecords(code: Int32Array, t: Float64Array, v: Float64Array, n: number): void {
    const k = this.batched;
    if (n <= 16) {
      // A few records (a scan that stopped at an `I` line, say): copied one by one, without three views made.
      for (let i = 0; i < n; i++) {
        this.batchCode[k + i] = code[i] as number;
        this.batchT[k + i] = t[i] as number;
        this.batchV[k + i] = v[i] as number;
      }
    } else {
      this.batchCode.set(code.subarray(0, n), k);
      this.batchT.set(t.subarray(0, n), k);
      this.batchV.set(v.subarray(0, n), k);
    }
    if ((this.batched = k + n) === this.batchLimit) {
      this.batchLimit = BATCH;
      this.flush();
    }
  }

  end(): void {
    this.endLine();
    if (this.intake !== null) this.flush();
  }

  /** Hand the record batch and name caches to the next parser on this thread (this one is done with them). */
  release(): void {
    if (this.scratch === null) return;
    if (freeScratch.length < 2) freeScratch.push(this.scratch);
    this.scratch = null;
  }

  /** The last line, if the file does not end with a '\n'. */
  private endLine(): void {
    if (this.skipping) {
      const lineNo = ++this.lineNo;
      const length = this.skippedLength + (this.carryDecoder as StringDecoder).end().length;
      this.resetCarry();
      this.tooLong(lineNo, length);
      return;
    }
    if (this.carryBytes === 0) {
      this.resetCarry();
      return;
    }
    if (!this.carryHigh && this.carryBytes <= JOIN_LIMIT) {
      const joined = Buffer.concat([...this.pieces, NEWLINE]);
      this.resetCarry();
      this.line(joined, 0);
      return;
    }
    const decoder = new StringDecoder('utf8');
    let text = '';
    for (const piece of this.pieces) text += decoder.write(piece);
    text += decoder.end();
    this.resetCarry();
    this.text(stripCr(text), ++this.lineNo);
  }

  private extendCarry(b: Buffer, s: number, e: number): void {
    if (this.skipping) {
      this.skippedLength += (this.carryDecoder as StringDecoder).write(b.subarray(s, e)).length;
      return;
    }
    const piece = Buffer.from(b.subarray(s, e));
    this.pieces.push(piece);
    this.carryBytes += piece.length;
    if (!this.carryHigh && this.carryBytes <= JOIN_LIMIT) {
      for (let i = 0; i < piece.length; i++) {
        if ((piece[i] as number) >= 0x80) {
          this.carryHigh = true;
          break;
        }
      }
    }
    // readLines gives up on a line once its carried text passes the limit; a character is at most
    // one byte, so below the limit in bytes it cannot be over it in characters.
    if (this.carryBytes > MAX_LINE_LENGTH) {
      if (this.carryDecoder === null) {
        this.carryDecoder = new StringDecoder('utf8');
        for (const p of this.pieces) this.carryChars += this.carryDecoder.write(p).length;
      } else {
        this.carryChars += this.carryDecoder.write(piece).length;
      }
      // A CR last may be the first half of the line's CRLF (split by the chunk boundary): not the line's.
      if (this.carryChars > MAX_LINE_LENGTH + (piece[piece.length - 1] === CR ? 1 : 0)) {
        this.skipping = true;
        this.skippedLength = this.carryChars;
        this.pieces = [];
        this.carryBytes = 0;
        this.carryChars = 0;
      }
    }
  }

  /** The carried line ends at `nl` of chunk `b`. */
  private finishCarry(b: Buffer, s: number, nl: number): void {
    if (this.skipping) {
      const lineNo = ++this.lineNo;
      // With the '\n', so that an unfinished sequence before it is flushed as readLines' decoder does.
      const length = this.skippedLength + (this.carryDecoder as StringDecoder).write(b.subarray(s, nl + 1)).length - 1;
      this.resetCarry();
      this.tooLong(lineNo, length);
      return;
    }
    let high = this.carryHigh;
    const total = this.carryBytes + nl - s;
    if (!high && total <= JOIN_LIMIT) {
      for (let i = s; i < nl; i++) {
        if ((b[i] as number) >= 0x80) {
          high = true;
          break;
        }
      }
    }
    if (!high && total <= JOIN_LIMIT) {
      const joined = Buffer.concat([...this.pieces, b.subarray(s, nl + 1)]);
      this.resetCarry();
      this.line(joined, 0);
      return;
    }
    // Replay the pieces through a fresh decoder (a line starts with none pending): the same text as readLines'.
    const decoder = new StringDecoder('utf8');
    let text = '';
    for (const piece of this.pieces) text += decoder.write(piece);
    text += decoder.write(b.subarray(s, nl + 1));
    this.resetCarry();
    this.text(stripCr(text.slice(0, -1)), ++this.lineNo);
  }

  private resetCarry(): void {
    this.pieces = [];
    this.carryBytes = 0;
    this.carryHigh = false;
    this.carryDecoder = null;
    this.carryChars = 0;
    this.skipping = false;
    this.skippedLength = 0;
  }

  /** One line starting at `s`; there is a '\n' at or after `s`. Returns its index. */
  private line(b: Buffer, s: number): number {
    const lineNo = ++this.lineNo;
    const tag = b[s] as number;
    if (tag === NL) return s; // blank
    if (b[s + 1] === TAB) {
      if (tag === 83 /* S */ || tag === 69 /* E */) return tag === 69 && this.statesOnly ? b.indexOf(NL, s + 2) : this.timed(b, s, tag === 83, lineNo);
      if (tag === 73 /* I */) return this.instance(b, s, lineNo);
    } else if (tag === 35 /* # */) {
      const nl = b.indexOf(NL, s + 1);
      return nl - s > MAX_LINE_LENGTH ? this.generic(b, s, nl, lineNo) : nl;
    } else if (tag === CR && b[s + 1] === NL) {
      return s + 1; // blank, CRLF
    }
    return this.generic(b, s, b.indexOf(NL, s), lineNo);
  }

  private timed(b: Buffer, s: number, isState: boolean, lineNo: number): number {
    const view = this.view;
    let t: number;
    let t2: number;
    let c: number;
    let i = s + 2;
    let negative = false;
    let mantissa = 0;
    let dot = -1;
    if (isState && b === this.viewOf && view !== null && this.tsAt >= 0 && sameField(b, view, this.tsAt, s + 2, this.tsLen, this.viewEnd)) {
      // A state with the same timestamp field as the chunk's last simple one (see tsAt): its value.
      t = this.tsValue;
      t2 = s + 2 + this.tsLen;
    } else {
      // The timestamp, parsed while looking for the TAB after it (timestamp.ts's fastDecimal on bytes).
      c = b[i] as number;
      if (c === 45 || c === 43) {
        negative = c === 45;
        c = b[++i] as number;
      }
      const from = i;
      let known = false;
      if (b === this.viewOf && view !== null && i + 8 <= this.viewEnd) {
        if (view.getInt32(i, true) === this.prefix0 && view.getInt32(i + 4, true) === this.prefix1 && this.prefixValue >= 0) {
          // The same 8 digits as the cached ones: their value, as the loop below would have it after them.
          mantissa = this.prefixValue;
          i += 8;
          c = b[i] as number;
          known = true;
        }
      }
      for (;;) {
        const d = c - 48;
        if (d >= 0 && d <= 9) mantissa = mantissa * 10 + d;
        else if (c === 46 && dot < 0) dot = i;
        else break;
        c = b[++i] as number;
      }
      if (!known && i - from >= 8 && (dot < 0 || dot - from >= 8) && view !== null && b === this.viewOf && from + 8 <= this.viewEnd) {
        let prefix = 0;
        for (let p = from; p < from + 8; p++) prefix = prefix * 10 + ((b[p] as number) - 48);
        this.prefix0 = view.getInt32(from, true);
        this.prefix1 = view.getInt32(from + 4, true);
        this.prefixValue = prefix;
      }
      t2 = i;
      const fraction = dot < 0 ? 0 : i - dot - 1;
      if (c === TAB && i - from > (dot < 0 ? 0 : 1) && mantissa <= MAX_SAFE && fraction <= 22 && i - s - 2 <= 64) {
        t = fraction > 0 ? mantissa / (POW10[fraction] as number) : mantissa;
        if (negative) t = -t;
        if (b === this.viewOf && view !== null && i - s - 2 >= 4) {
          this.tsAt = s + 2;
          this.tsLen = i - s - 2;
          this.tsValue = t;
        }
      } else {
        // Not the simple shape (ISO-8601, an exponent, many digits…): the field as text, if it is ASCII.
        let high = 0;
        while (c !== TAB && c !== NL) {
          high |= c;
          c = b[++i] as number;
        }
        if (c !== TAB || high >= 0x80) return this.generic(b, s, b.indexOf(NL, i), lineNo);
        t2 = i;
        t = parseTimestamp(latin1(b, s + 2, t2));
        if (Number.isNaN(t)) return this.generic(b, s, b.indexOf(NL, i), lineNo);
      }
    }
    // The name: an event's runs to the end of the line, a state's to its last TAB.
    let j = t2 + 1;
    // First, the names that followed the previous record's last times (see NamePredictor).
    let code = 0;
    let predicted = -1;
    const previous = this.previousEntry;
    if (previous >= 0 && predictor.generation === this.generation) {
      let p = predictor.next[previous] as number;
      let k = this.predicted(p, b, s, j, isState);
      if (k < 0) {
        const other = predictor.second[previous] as number;
        k = this.predicted(other, b, s, j, isState);
        if (k >= 0) {
          // The latest to follow it first.
          predictor.second[previous] = p;
          predictor.next[previous] = other;
          p = other;
        }
      }
      if (k >= 0) {
        if (!isState) {
          this.batch(predictor.code[p] as number, t, 0);
          this.previousEntry = p;
          return b[k] === NL ? k : k + 1;
        }
        predicted = p;
        code = predictor.code[p] as number;
        j = k;
      }
    }
    let high = 0;
    let h = 0;
    c = b[j] as number;
    if (!isState) {
      while (c !== NL) {
        high |= c;
        h = (h * 31 + c) | 0;
        c = b[++j] as number;
      }
      let e = j;
      if (b[j - 1] === CR) {
        e--;
        h = hashBytes(b, t2 + 1, e);
      }
      if (e === t2 + 1 || e - s > MAX_LINE_LENGTH) return this.generic(b, s, j, lineNo); // empty name, or too long
      const intake = this.intake;
      if (intake !== null && high < 0x80) {
        code = this.eventVariable(intake, b, t2 + 1, e, h);
        this.batch(code, t, 0);
        this.follow(code, b, t2 + 1, e);
      } else {
        if (intake !== null) this.flush();
        this.sink.event(t, high < 0x80 ? cachedName(b, t2 + 1, e, h) : b.toString('utf8', t2 + 1, e));
      }
      return j;
    }
    if (predicted < 0) {
      while (c !== TAB && c !== NL) {
        high |= c;
        h = (h * 31 + c) | 0;
        c = b[++j] as number;
      }
    }
    const t3 = j;
    // An empty name or no value field: an error for parseDlogLine to word (unless more TABs follow).
    if (c === NL || t3 === t2 + 1) return this.generic(b, s, b.indexOf(NL, j), lineNo);
    // The value, parsed the same way; it must run to the end of the line (another TAB: the name holds TABs).
    i = t3 + 1;
    c = b[i] as number;
    negative = false;
    if (c === 45 || c === 43) {
      negative = c === 45;
      c = b[++i] as number;
    }
    const vFrom = i;
    mantissa = 0;
    dot = -1;
    for (;;) {
      const d = c - 48;
      if (d >= 0 && d <= 9) mantissa = mantissa * 10 + d;
      else if (c === 46 && dot < 0) dot = i;
      else break;
      c = b[++i] as number;
    }
    let value: number;
    let nl = i;
    const vFraction = dot < 0 ? 0 : i - dot - 1;
    if ((c === NL || (c === CR && b[i + 1] === NL)) && i - vFrom > (dot < 0 ? 0 : 1) && mantissa <= MAX_SAFE && vFraction <= 22 && i - t3 - 1 <= 64) {
      value = vFraction > 0 ? mantissa / (POW10[vFraction] as number) : mantissa;
      if (negative) value = -value;
      if (c === CR) nl++;
    } else {
      let rest = 0;
      while (c !== NL && c !== TAB) {
        rest |= c;
        c = b[++i] as number;
      }
      if (c === TAB || rest >= 0x80) return this.generic(b, s, b.indexOf(NL, i), lineNo);
      nl = i;
      value = parseDecimal(latin1(b, t3 + 1, b[i - 1] === CR ? i - 1 : i));
      if (Number.isNaN(value)) return this.generic(b, s, nl, lineNo);
    }
    if (nl - s > MAX_LINE_LENGTH) return this.generic(b, s, nl, lineNo);
    const intake = this.intake;
    if (predicted >= 0) {
      this.batch(code, t, value);
      this.previousEntry = predicted;
    } else if (intake !== null && high < 0x80) {
      code = -1 - this.stateVariable(intake, b, t2 + 1, t3, h);
      this.batch(code, t, value);
      this.follow(code, b, t2 + 1, t3);
    } else {
      if (intake !== null) this.flush();
      this.sink.state(t, high < 0x80 ? cachedName(b, t2 + 1, t3, h) : b.toString('utf8', t2 + 1, t3), value);
    }
    return nl;
  }

  /**
   * Where the name of entry p ends, if the name at j (of the line at s) is that one, followed by the rest of an
   * event's line ('\n' or "\r\n") or by the TAB before a state's value; otherwise −1 (and for p = −1, or an entry
   * of the other kind).
   */
  private predicted(p: number, b: Buffer, s: number, j: number, isState: boolean): number {
    if (p < 0 || ((predictor.code[p] as number) >= 0) === isState) return -1;
    const end = j + (predictor.len[p] as number);
    const bytes = predictor.bytes;
    const view = this.view;
    let at = p * CACHE_WIDTH;
    let k = j;
    if (b === this.viewOf && view !== null) {
      // Whole 4-byte words first (entries start at multiples of 4), only below the chunk's last '\n'.
      const words = predictor.words;
      const viewEnd = this.viewEnd;
      const stop = (end < viewEnd ? end : viewEnd) - 4;
      while (k <= stop && view.getInt32(k, true) === words[at >> 2]) {
        k += 4;
        at += 4;
      }
    }
    while (k < end && b[k] === bytes[at]) {
      k++;
      at++;
    }
    if (k !== end) return -1;
    const c = b[k] as number;
    if (isState) return c === TAB ? k : -1;
    return (c === NL || (c === CR && b[k + 1] === NL)) && k - s <= MAX_LINE_LENGTH ? k : -1;
  }

  private instance(b: Buffer, s: number, lineNo: number): number {
    let j = s + 2;
    let high = 0;
    let c = b[j] as number;
    while (c !== NL) {
      // A TAB starts the optional kind: the string path handles it.
      if (c === TAB) return this.generic(b, s, b.indexOf(NL, j), lineNo);
      high |= c;
      c = b[++j] as number;
    }
    let e = j;
    if (b[e - 1] === CR) e--;
    if (e === s + 2 || e - s > MAX_LINE_LENGTH) return this.generic(b, s, j, lineNo);
    if (this.intake !== null) this.flush();
    this.sink.instance(high < 0x80 ? latin1(b, s + 2, e) : b.toString('utf8', s + 2, e));
    return j;
  }

  /** Any line, the string path's way: decoded (as readLines would), then parseDlogLine. */
  private generic(b: Buffer, s: number, nl: number, lineNo: number): number {
    this.text(stripCr(b.toString('utf8', s, nl)), lineNo);
    return nl;
  }

  private text(line: string, lineNo: number): void {
    if (this.intake !== null) this.flush();
    if (line.length > MAX_LINE_LENGTH) {
      this.tooLong(lineNo, line.length);
    } else if (parseDlogLine(line, this.sink, this.file, lineNo) === 'not-a-record') {
      this.onSkip(lineNo, () => `not a record: '${clip(line)}'`, NOT_A_RECORD_HINT);
    }
  }

  private tooLong(lineNo: number, length: number): void {
    if (this.intake !== null) this.flush();
    this.onSkip(lineNo, () => `line of ${length} characters is over the 1 MiB limit`);
  }
}

function stripCr(line: string): string {
  return line.charCodeAt(line.length - 1) === CR ? line.slice(0, -1) : line;
}
