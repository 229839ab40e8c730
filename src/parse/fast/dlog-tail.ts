import type { InputFile } from '../files.js';
import { Utf8Check } from '../utf8-check.js';
import type { RecordIntake, RecordSink } from '../records.js';
import { pushAll } from '../../memory/lists.js';
import { VariableIndex } from '../../memory/variable-index.js';
import { float64sIn, GrowableFloat64, GrowableInt32, prefixIn } from '../../memory/growable.js';
import { PIECE_RECORDS, type TailOwner, type TailPiece } from '../tail-help.js';
import { plainChunks } from '../chunks.js';
import { DlogBufferParser, NL, type SkipHandler } from './dlog-parser.js';

/**
 * The helper's part taken in (tail-help.ts): its pieces' records given to
 * `intake` with its names numbered here, in the order it met them; `took`
 * told each piece's lines, records and bytes. Returns where this thread reads
 * on from (the file's size: nowhere).
 */
export async function takeTail(tail: TailOwner, intake: RecordIntake, split: number, took: (lines: number, records: number, bytes: number) => void): Promise<number> {
  // The helper's names, and the numbers here of those met so far (a name is numbered when its first record comes, as
  // the owner's own reader would number it: after the records before it are given).
  const eventNames: string[] = [];
  const stateNames: string[] = [];
  const events: number[] = [];
  const states: number[] = [];
  let v = new Float64Array(0);
  for (;;) {
    const m = await tail.next();
    if (m.type === 'tail-end') return m.resumeAt < 0 ? split : m.resumeAt;
    pushAll(eventNames, m.eventNames);
    pushAll(stateNames, m.stateNames);
    const { code, t, values, n } = m;
    // The values back in place: a state's in order, an event's 0.
    if (v.length < n) v = new Float64Array(Math.max(n, 2 * v.length));
    let given = 0;
    for (let i = 0, k = 0; i < n; i++) {
      const c = code[i] as number;
      let mapped = c >= 0 ? events[c] : states[-1 - c];
      if (mapped === undefined) {
        if (i > given) intake.records(code.subarray(given, i), t.subarray(given, i), v.subarray(given, i), i - given);
        given = i;
        if (c >= 0) mapped = events[c] = intake.eventVariable(eventNames[c] as string);
        else mapped = states[-1 - c] = -1 - intake.stateVariable(stateNames[-1 - c] as string);
      }
      code[i] = mapped;
      v[i] = c >= 0 ? 0 : (values[k++] as number);
    }
    if (n > given) intake.records(code.subarray(given, n), t.subarray(given, n), v.subarray(given, n), n - given);
    took(m.lines, n, m.bytes);
  }
}

/**
 * The helper's side (tail-help.ts): the rest of `file` from the first line
 * start after `cut` (a chunk boundary), parsed into records numbered by names
 * of its own and handed to `send` in pieces of whole chunks' lines. Stops at
 * anything the fast lane does not take, or any error, at the end of its last
 * such chunk. Returns where the owner reads on from (the file's size: nowhere),
 * or −1 when it read nothing (no line starts in the chunk after the cut).
 * `readAhead` as readDlogFast's.
 */
export async function readDlogTail(file: InputFile, cut: number, send: (piece: TailRecords) => void, readAhead = true): Promise<number> {
  const store = new TailStore();
  const parser = new DlogBufferParser(store, GIVE_UP_SKIP, file.path);
  const utf8 = new Utf8Check();
  let at = cut;
  /** The end of the last whole line read (−1 before the first chunk). */
  let committed = -1;
  let lines = 0;
  let sentAt = -1;
  const flush = (): void => {
    if (store.committed === 0 && committed === sentAt) return;
    send(store.piece(store.committedLines - lines, committed - sentAt));
    lines = store.committedLines;
    sentAt = committed;
  };
  try {
    for await (const chunk of plainChunks(file.path, cut, file.size, readAhead)) {
      const begin = at;
      at += chunk.length;
      let start = 0;
      if (committed < 0) {
        const nl = chunk.indexOf(NL);
        if (nl === -1 || begin + nl + 1 >= file.size) return -1;
        start = nl + 1;
        committed = sentAt = begin + start;
      }
      // The checks the owner would make (its chunk at the cut it made itself, whole).
      const body = start === 0 ? chunk : chunk.subarray(start);
      if (body.indexOf(0) !== -1 || utf8.check(body) !== null) {
        at = -1;
        break;
      }
      parser.chunk(chunk, start);
      const last = chunk.lastIndexOf(NL);
      if (last >= start) {
        committed = begin + last + 1;
        store.commit(parser.lineNo);
        if (store.committed >= PIECE_RECORDS) flush();
      }
    }
    if (at === file.size && !utf8.end()) {
      parser.end();
      committed = file.size;
      store.commit(parser.lineNo);
    }
  } catch {
    // (Anything irregular, or an error: the owner reads on from the last whole chunk, and meets it itself.)
  } finally {
    parser.release();
  }
  if (committed < 0) return -1;
  flush();
  return committed;
}

/** The helper's records of one piece (TailPiece without its address). */
export type TailRecords = Omit<TailPiece, 'type' | 'owner' | 'gen'>;

/** A skipped line: the helper stops (the owner reads it, and reports it). */
const GIVE_UP_SKIP: SkipHandler = () => {
  throw new TailStop();
};

class TailStop extends Error {}

/**
 * The helper's records (readDlogTail): numbered by names of its own, each in
 * order of first appearance; only those of whole lines up to the last commit,
 * and the names they brought, go in a piece (if it stops, the rest is left). Anything but a record in the
 * fast lane (a record by name, an `I` record) stops it.
 */
class TailStore implements RecordSink, RecordIntake {
  readonly intake: RecordIntake = this;
  private readonly code = new GrowableInt32(PIECE_RECORDS * 2);
  private readonly t = new GrowableFloat64(PIECE_RECORDS * 2, 0);
  private readonly v = new GrowableFloat64(PIECE_RECORDS * 2, 0);
  private readonly eventIndex = new VariableIndex();
  private readonly stateIndex = new VariableIndex();
  /** Records, names and lines at the last commit; the names already sent. */
  committed = 0;
  private events = 0;
  private states = 0;
  committedLines = 0;
  private eventsSent = 0;
  private statesSent = 0;

  eventVariable(name: string): number {
    return this.eventIndex.id(name);
  }

  stateVariable(name: string): number {
    return this.stateIndex.id(name);
  }

  records(code: Int32Array, t: Float64Array, v: Float64Array, n: number): void {
    this.code.append(code, n);
    this.t.append(t, n);
    this.v.append(v, n);
  }

  instance(): void {
    throw new TailStop();
  }

  event(): void {
    throw new TailStop();
  }

  state(): void {
    throw new TailStop();
  }

  /** Everything so far is whole lines, `lines` of them. */
  commit(lines: number): void {
    this.committed = this.code.length;
    this.events = this.eventIndex.names.length;
    this.states = this.stateIndex.names.length;
    this.committedLines = lines;
  }

  /**
   * The committed records and the names they brought since the last piece, as a piece: copies of exactly their
   * length (the store's own arrays, twice a piece's room, stay for the next), the states' values only (an event's
   * is 0). Emptied.
   */
  piece(lines: number, bytes: number): TailRecords {
    const n = this.committed;
    const code = this.code.data;
    // In shared memory: the piece crosses to the owner's thread shared, neither copied nor moved (a move would
    // detach the buffer here: see FeatureCollector's exportMemory).
    const values = float64sIn(SharedArrayBuffer, stateRecords(code, n));
    stateValuesInto(values, code, this.v.data, n);
    const piece = {
      code: prefixIn(SharedArrayBuffer, code, n), t: prefixIn(SharedArrayBuffer, this.t.data, n), values, n,
      eventNames: this.eventIndex.names.slice(this.eventsSent, this.events), stateNames: this.stateIndex.names.slice(this.statesSent, this.states), lines, bytes,
    };
    this.eventsSent = this.events;
    this.statesSent = this.states;
    // (At a commit, nothing is past it; once the helper stops, nothing more is sent.)
    this.code.clear();
    this.t.clear();
    this.v.clear();
    this.committed = 0;
    return piece;
  }
}

/**
 * How many of the first `n` records are states (code < 0). This loop and the
 * next are functions of their own: V8 compiles a long loop while it runs
 * (on-stack replacement), and when they were in TailStore.piece, that code
 * ran on to calls that had never run and stopped there, on every piece,
 * entering the same compiled loop again each time (the few set, `-j2`: 34
 * stops a run; docs/internals.md, "V8: keep what it compiles").
 */
function stateRecords(code: Int32Array, n: number): number {
  let states = 0;
  for (let i = 0; i < n; i++) if ((code[i] as number) < 0) states++;
  return states;
}

/** The values of the states among the first `n` records, in order, into `values`. */
function stateValuesInto(values: Float64Array, code: Int32Array, v: Float64Array, n: number): void {
  for (let i = 0, k = 0; i < n; i++) if ((code[i] as number) < 0) values[k++] = v[i] as number;
}

