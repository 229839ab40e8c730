import { DLOG_SCAN_WASM } from './dlog-scan-wasm.js';
import type { RecordIntake } from '../records.js';

/**
 * The dlog scanner (dlog-scan.wat): a chunk's usual E and S lines parsed in
 * WebAssembly into record columns, for DlogBufferParser. The module is
 * compiled once per thread (1.5 KB: about a millisecond with its memory) and
 * runs compiled from the first line, where the parser's JavaScript ran its
 * first megabytes in the interpreter on every parsing thread (docs/internals.md,
 * "Parsing dlog lines"). It takes a line only in the shape `timed`'s
 * fast path takes it, and hands every other line back to the parser.
 */

/** Bytes of lines one scan can hold (the module's input region). */
export const SCAN_BYTES = 4 * 1024 * 1024;
/** Records the columns hold: at least the parser's batch. */
export const SCAN_RECORDS = 4096;

/** What `scan` stopped at. Every line taken: */
export const SCAN_END = 0;
/** `max` records written: */
export const SCAN_FULL = 1;
/** the line at `pos()` is the parser's to read: */
export const SCAN_LINE = 2;
/** the line at `pos()` names a variable the table does not have (`kind()`, bytes [nameStart(), nameEnd())). */
export const SCAN_NAME = 3;

/**
 * The few WebAssembly types used here (the compiler's ES2022 library has none). Node has the API, unless
 * it runs without generating code (`--jitless`, which some locked-down hosts set in NODE_OPTIONS).
 */
declare const WebAssembly: {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object, imports: object) => { readonly exports: object };
} | undefined;

interface ScanExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  readonly reset: () => void;
  readonly add: (code: number) => number;
  readonly scan: (from: number, to: number, max: number, statesOnly: number) => number;
}

const CODE_AT = 4194304;
const T_AT = 4210688;
const V_AT = 4243456;
/** The results of a scan (dlog-scan.wat RESULTS): pos, lines, n, kind, nameStart, nameEnd (and the name's hash, for `add`). */
const RESULTS_AT = 4669712;

export class DlogScanner {
  /** The input region: a chunk's lines are copied here, from offset 0. */
  readonly bytes: Uint8Array;
  /** The records of the last scan: the first `n()` of each. */
  readonly code: Int32Array;
  readonly t: Float64Array;
  readonly v: Float64Array;
  private readonly results: Int32Array;
  /** Whose variable numbers the name table holds. */
  private owner: RecordIntake | null = null;

  constructor(private readonly x: ScanExports) {
    const buffer = x.memory.buffer;
    this.bytes = new Uint8Array(buffer, 0, SCAN_BYTES);
    this.code = new Int32Array(buffer, CODE_AT, SCAN_RECORDS);
    this.t = new Float64Array(buffer, T_AT, SCAN_RECORDS);
    this.v = new Float64Array(buffer, V_AT, SCAN_RECORDS);
    this.results = new Int32Array(buffer, RESULTS_AT, 6);
  }

  /** Name numbers are `intake`'s from now on (the table is emptied for another intake). */
  own(intake: RecordIntake): void {
    if (this.owner !== intake) {
      this.x.reset();
      this.owner = intake;
    }
  }

  /** Scan the lines in bytes [from, to) (the last ends with '\n'), writing at most `max` records (≤ SCAN_RECORDS). */
  scan(from: number, to: number, max: number, statesOnly: boolean): number {
    return this.x.scan(from, to, max, statesOnly ? 1 : 0);
  }

  /** After a scan: where it stopped, the lines it took, the records it wrote. */
  pos(): number {
    return this.results[0] as number;
  }

  lines(): number {
    return this.results[1] as number;
  }

  n(): number {
    return this.results[2] as number;
  }

  /** After SCAN_NAME: the name's kind (1 event, 2 state) and bytes. */
  kind(): number {
    return this.results[3] as number;
  }

  nameStart(): number {
    return this.results[4] as number;
  }

  nameEnd(): number {
    return this.results[5] as number;
  }

  /** After SCAN_NAME: give that name the number `code`; false: the table is full (its lines stay the parser's). */
  add(code: number): boolean {
    return this.x.add(code) === 1;
  }
}

let thisThread: DlogScanner | null | undefined;

/**
 * This thread's scanner (each parsing thread has its own memory), or null where Node has no WebAssembly
 * (`--jitless`): the parser then reads every line itself, to the same records.
 */
export function threadScanner(): DlogScanner | null {
  if (thisThread === undefined) {
    thisThread = typeof WebAssembly === 'undefined'
      ? null
      : new DlogScanner(new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(DLOG_SCAN_WASM, 'base64')), {}).exports as ScanExports);
  }
  return thisThread;
}
