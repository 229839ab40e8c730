import { isUtf8 } from 'node:buffer';
/**
 * The byte-level dlog reader (src/parse/fast/dlog-fast.ts) against the string path
 * it replaces in reader.ts (readLines + parseDlogLine): the same sink calls,
 * the same skipped lines (number, reason, hint), the same error (message,
 * line, hint), the same byte and line counts — for inputs built from a grammar
 * of dlog lines, valid and broken, cut into chunks at random.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { clip, parseDlogLine } from '../src/parse/dlog.js';
import { readDlogFast } from '../src/parse/fast/dlog-fast.js';
import { openInputFile, type InputFile } from '../src/parse/files.js';
import { readLines } from '../src/parse/lines.js';
import { emptyReadStats, readClass, type ClassSink } from '../src/parse/reader.js';
import type { RecordSink } from '../src/parse/records.js';
import { parseDecimal, parseTimestamp } from '../src/parse/timestamp.js';
import { recording, recordingWithIntake } from './helpers/records.js';

interface Outcome {
  calls: string[];
  skips: [number, string, string | undefined][];
  bytes: number;
  result: { bytes: number; lines: number } | null;
  error: { type: string; message: string; line?: number; hint?: string } | null;
}

/** The bytes as a stream of the given pieces (sizes used in turn; 0 = an empty chunk). */
function chunked(bytes: Buffer, sizes: readonly number[]): Readable {
  const pieces: Buffer[] = [];
  let at = 0;
  for (let k = 0; at < bytes.length; k++) {
    const n = sizes.length === 0 ? bytes.length : (sizes[k % sizes.length] as number);
    if (n === 0 && k > 4 * sizes.length) break; // all zero sizes: guard
    pieces.push(Buffer.from(bytes.subarray(at, at + n)));
    at += n;
  }
  if (at < bytes.length) pieces.push(Buffer.from(bytes.subarray(at)));
  return Readable.from(pieces);
}

const FILE: InputFile = { path: 'x.dlog', relativePath: 'x.dlog', gzip: false, size: 0 };

function caught(err: unknown): Outcome['error'] {
  if (err instanceof InputError) return { type: 'InputError', message: err.message, line: err.line, hint: err.hint };
  return { type: 'other', message: String(err) };
}

/** `strict`: the first skipped line throws, as reader.ts's skip does under --strict. */
function skipper(skips: Outcome['skips'], strict: boolean) {
  return (lineNo: number, reason: () => string, hint?: string) => {
    if (strict) throw new InputError(`${reason()} (--strict)`, FILE.path, lineNo, hint);
    skips.push([lineNo, reason(), hint]);
  };
}

/** reader.ts's dlog branch before the byte reader. */
async function viaStrings(stream: Readable, strict = false, file = FILE): Promise<Outcome> {
  const out: Outcome = { calls: [], skips: [], bytes: 0, result: null, error: null };
  const sink = recording(out.calls);
  const skip = skipper(out.skips, strict);
  try {
    out.result = await readLines(file, {
      line: (text, lineNo) => {
        if (parseDlogLine(text, sink, file.path, lineNo) === 'not-a-record') {
          skip(lineNo, () => `not a record: '${clip(text)}'`, 'records are I/E/S lines with TAB-separated fields; use --translator for raw logs');
        }
      },
      tooLong: (lineNo, length) => skip(lineNo, () => `line of ${length} characters is over the 1 MiB limit`),
    }, (n) => { out.bytes += n; }, stream);
  } catch (err) {
    out.error = caught(err);
  }
  return out;
}

/** `intake`: through a sink's fast lane, whose record count must be the reader's `records`. */
async function viaBytes(stream: Readable, strict = false, file = FILE, intake = false): Promise<Outcome> {
  const out: Outcome = { calls: [], skips: [], bytes: 0, result: null, error: null };
  const given = { n: 0 };
  try {
    const sink = intake ? recordingWithIntake(out.calls, given) : recording(out.calls);
    const { records, helped, ...result } = await readDlogFast(file, sink, skipper(out.skips, strict), (n) => { out.bytes += n; }, stream);
    expect(records).toBe(given.n);
    out.result = result;
  } catch (err) {
    out.error = caught(err);
  }
  return out;
}

/** The byte reader, by name and through a fast lane, against the string path. */
async function same(bytes: Buffer, sizes: readonly number[], strict = false): Promise<Outcome> {
  const expected = await viaStrings(chunked(bytes, sizes), strict);
  const actual = await viaBytes(chunked(bytes, sizes), strict);
  expect(actual).toEqual(expected);
  expect(await viaBytes(chunked(bytes, sizes), strict, FILE, true)).toEqual(expected);
  return actual;
}

// --- A grammar of dlog lines, as bytes ------------------------------------------

const b = (s: string) => Buffer.from(s, 'utf8');
const pick = <T>(...xs: T[]) => fc.constantFrom(...xs);

/** Bytes that are not valid UTF-8 on their own: lone continuation, truncated sequences, surrogates, overlongs. */
const badUtf8 = pick(
  Buffer.from([0x80]), Buffer.from([0xbf, 0x41]), Buffer.from([0xc3]), Buffer.from([0xe2, 0x82]),
  Buffer.from([0xf0, 0x9f, 0x98]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xff]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]), Buffer.from([0xef, 0xbb, 0xbf]),
);

const nameChar = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz_ABCXYZ0123456789'.split('')).map(b) },
  { weight: 2, arbitrary: pick(' ', '.', '-', '#', ':', '/', '"', "'", '\\').map(b) },
  { weight: 1, arbitrary: pick('é', 'ü', '日本', '😀', '\u00a0', '\u2028', '\ufeff', '\ufffd').map(b) },
  { weight: 1, arbitrary: pick('\t', '\r', '\x01', '\x7f').map(b) },
  { weight: 1, arbitrary: badUtf8 },
);
const name = fc.array(nameChar, { minLength: 0, maxLength: 12 }).map((xs) => Buffer.concat(xs));
/** Names that repeat (and collide in any cache): a small vocabulary plus fresh ones. */
const vocabulary = pick('FlushBegin', 'FlushEnd', 'queue_len', 'cpu_pct', 'a', 'b', 'ab', 'ba', 'x y', 'lock wait ms', 'é', 'Ab', 'bA');
const someName = fc.oneof({ weight: 3, arbitrary: vocabulary.map(b) }, { weight: 2, arbitrary: name });

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'.split('')), minLength: min, maxLength: max });
const sign = pick('', '', '', '-', '+');
const decimal = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(sign, digits(1, 12), pick('', '.'), digits(0, 8)).map(([s, i, p, f]) => `${s}${i}${p}${p ? f : ''}`) },
  { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map(String) },
  { weight: 1, arbitrary: fc.tuple(sign, digits(14, 24), pick('', '.'), digits(0, 24)).map(([s, i, p, f]) => `${s}${i}${p}${f}`) },
  { weight: 1, arbitrary: fc.tuple(digits(0, 70), pick('.'), digits(0, 30)).map(([i, p, f]) => `${i}${p}${f}`) },
  // Small mantissas in long fields: leading zeros (past 64 characters), or more than 22 digits after the point.
  { weight: 2, arbitrary: fc.tuple(sign, fc.integer({ min: 0, max: 75 }), digits(0, 3), pick('', '.'), fc.integer({ min: 0, max: 30 }), digits(0, 3))
    .map(([s, z, i, p, zf, f]) => `${s}${'0'.repeat(z)}${i}${p}${p ? '0'.repeat(zf) + f : ''}`) },
  { weight: 1, arbitrary: pick('.5', '5.', '-.5', '0', '-0', '+0', '00012', '1e3', '1E-3', '2.5e+10', '1e400', '-1e-400', '0x1f', '0b1', '1_000', 'Infinity', '-Infinity', 'NaN', '', '.', '-', '+', '1..2', '1.2.3', ' 1', '1 ', '١٢', '１', '12a', '9007199254740993', '9007199254740991', '0.1234567890123456789012345') },
);
const iso = fc.oneof(
  pick('2026-11-20T10:00:01.123Z', '2026-11-20 10:00:01,123', '2026-11-20T10:00:01', '2026-11-20T11:00:01+01:00', '2026-11-20T05:00:01-0500',
    '2026-02-31T00:00:00Z', '2026-11-20T25:00:00Z', '2026-11-20T10:00', '2026-11-20', '2026-11-20T10:00:01.123456789Z', '2026-13-01T00:00:00'),
  fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
);
const field = fc.oneof({ weight: 8, arbitrary: decimal.map(b) }, { weight: 2, arbitrary: iso.map(b) }, { weight: 1, arbitrary: name });
const tab = b('\t');

const line: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(field, someName).map(([t, n]) => Buffer.concat([b('E\t'), t, tab, n])) },
  { weight: 8, arbitrary: fc.tuple(field, someName, field).map(([t, n, v]) => Buffer.concat([b('S\t'), t, tab, n, tab, v])) },
  { weight: 3, arbitrary: someName.map((n) => Buffer.concat([b('I\t'), n])) },
  { weight: 2, arbitrary: name.map((n) => Buffer.concat([b('#'), n])) },
  { weight: 2, arbitrary: pick('', ' ', '  \t ', '\t', '\r', '\u00a0', '\u2028', '\ufeff').map(b) },
  { weight: 2, arbitrary: pick('E', 'S', 'I', 'E\t', 'S\t', 'I\t', 'E\t1', 'S\t1\tx', 'S\t1\t\t5', 'S\t\tx\t5', 'E\t1\t', 'S\t1\tx\t', 'X\t1\ty', 'e\t1\ty', ' E\t1\ty', 'E \t1\ty', 'S\t1\t\tx\t5', 'S\t1\tx\t\t5').map(b) },
  { weight: 2, arbitrary: fc.tuple(pick('E\t', 'S\t', 'I\t', '', '#'), fc.uint8Array({ maxLength: 20 })).map(([p, u]) => Buffer.concat([b(p), Buffer.from(u).map((x) => (x === 0 ? 1 : x))])) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map((s) => b(s.replace(/\0/g, ' '))) },
  { weight: 1, arbitrary: pick(b('E\t1\tnul\0here'), b('\0'), Buffer.concat([b('S\t1\t'), Buffer.from([0]), b('\t2')])) },
);
const terminator = pick('\n', '\n', '\n', '\n', '\r\n', '\r\n', '\r\r\n', '\n\r');

const document = fc.record({
  bom: fc.oneof({ weight: 5, arbitrary: fc.constant(Buffer.alloc(0)) }, { weight: 1, arbitrary: fc.constant(Buffer.from([0xef, 0xbb, 0xbf])) }),
  lines: fc.array(fc.tuple(line, terminator), { maxLength: 25 }),
  last: fc.option(line, { nil: undefined }),
}).map(({ bom, lines, last }) => Buffer.concat([bom, ...lines.flatMap(([l, t]) => [l, b(t)]), last ?? Buffer.alloc(0)]));

/**
 * Documents whose records are all valid (fields filtered by the parsers the
 * string path uses), with comments, blank lines and non-records among them: read
 * to the end, so every line is compared, where one broken record would stop it.
 */
const validName = someName.filter((n) => n.length > 0 && !n.equals(b('\r')) && isUtf8(n));
/** Input must be UTF-8 (src/parse/utf8-check.ts): a valid document's comments and non-records are too. */
const utf8Name = name.filter((n) => isUtf8(n));
/** An instance id or kind: a TAB would end it (SPEC §1: I<TAB>id[<TAB>kind]). */
const validId = validName.filter((n) => !n.includes(9));
const validTime = field.filter((f) => !Number.isNaN(parseTimestamp(f.toString('utf8'))));
const validValue = decimal.filter((v) => !Number.isNaN(parseDecimal(v))).map(b);
const validLine: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(validTime, validName).map(([t, n]) => Buffer.concat([b('E\t'), t, tab, n])) },
  { weight: 8, arbitrary: fc.tuple(validTime, validName, validValue).map(([t, n, v]) => Buffer.concat([b('S\t'), t, tab, n, tab, v])) },
  { weight: 2, arbitrary: validId.map((n) => Buffer.concat([b('I\t'), n])) },
  { weight: 1, arbitrary: fc.tuple(validId, validId).map(([n, k]) => Buffer.concat([b('I\t'), n, tab, k])) },
  { weight: 1, arbitrary: utf8Name.map((n) => Buffer.concat([b('#'), n])) },
  { weight: 1, arbitrary: pick('', ' ', '  \t ', '\t', '\r', '\u00a0').map(b) },
  { weight: 1, arbitrary: fc.tuple(pick('x', 'E', 'S ', 'I', 'é', '\t'), utf8Name).map(([p, n]) => Buffer.concat([b(p), n])).filter((l) => !/^[EIS]\t/.test(l.toString('latin1'))) },
);
const validDocument = fc.record({
  bom: fc.oneof({ weight: 5, arbitrary: fc.constant(Buffer.alloc(0)) }, { weight: 1, arbitrary: fc.constant(Buffer.from([0xef, 0xbb, 0xbf])) }),
  lines: fc.array(fc.tuple(validLine, pick('\n', '\n', '\n', '\r\n')), { minLength: 5, maxLength: 40 }),
  last: fc.option(validLine, { nil: undefined }),
}).map(({ bom, lines, last }) => Buffer.concat([bom, ...lines.flatMap(([l, t]) => [l, b(t)]), last ?? Buffer.alloc(0)]));

const chunkSizes = fc.oneof(
  fc.array(fc.integer({ min: 1, max: 16 }), { minLength: 1, maxLength: 8 }),
  fc.array(fc.integer({ min: 0, max: 64 }), { minLength: 1, maxLength: 8 }),
  fc.constant([]), // one chunk
);

describe('byte-level dlog reader ≡ readLines + parseDlogLine', () => {
  it('same records, skips, errors and counts on arbitrary dlog-like input in arbitrary chunks', async () => {
    await fc.assert(fc.asyncProperty(document, chunkSizes, fc.boolean(), async (bytes, sizes, strict) => {
      await same(bytes, sizes, strict);
    }), { numRuns: Number(process.env.DLOG_FAST_RUNS ?? 1500) });
  });

  it('same records and skips on documents of valid records, read to the end', async () => {
    let records = 0;
    await fc.assert(fc.asyncProperty(validDocument, chunkSizes, async (bytes, sizes) => {
      const out = await same(bytes, sizes);
      expect(out.error).toBeNull();
      records += out.calls.length;
    }), { numRuns: Number(process.env.DLOG_FAST_RUNS ?? 1500) });
    expect(records).toBeGreaterThan(7_500);
  });

  it('an intake that wants states only: events skipped unparsed; the same states, instances, skips and counts', async () => {
    let states = 0;
    let events = 0;
    let eventsGiven = 0;
    await fc.assert(fc.asyncProperty(validDocument, chunkSizes, async (bytes, sizes) => {
      const expected = await viaStrings(chunked(bytes, sizes));
      const out: Outcome = { calls: [], skips: [], bytes: 0, result: null, error: null };
      const given = { n: 0 };
      const sink = recordingWithIntake(out.calls, given);
      const numbered: string[] = [];
      const intake = { ...sink.intake!, statesOnly: true, eventVariable: (name: string) => numbered.push(name) - 1 };
      const { records, helped, ...result } = await readDlogFast(FILE, { ...sink, intake }, skipper(out.skips, false), (n) => { out.bytes += n; }, chunked(bytes, sizes));
      out.result = result;
      // No event is numbered for the intake. (A line the byte reader hands to the string parser, such as a
      // non-ASCII one across chunks, may still reach the sink's event(): allowed, and ignored by such a sink.)
      expect(numbered).toEqual([]);
      expect(records).toBe(given.n);
      const withoutEvents = (o: Outcome): Outcome => ({ ...o, calls: o.calls.filter((c) => !c.startsWith('E ')) });
      expect(withoutEvents(out)).toEqual(withoutEvents(expected));
      states += given.n;
      events += expected.calls.filter((c) => c.startsWith('E ')).length;
      eventsGiven += out.calls.filter((c) => c.startsWith('E ')).length;
    }), { numRuns: Number(process.env.DLOG_FAST_RUNS ?? 1500) / 3 });
    expect(states).toBeGreaterThan(1_000);
    expect(eventsGiven).toBeLessThan(events / 10);
  });

  it('same on arbitrary bytes', async () => {
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), chunkSizes, async (u, sizes) => {
      await same(Buffer.from(u), sizes);
    }), { numRuns: 500 });
  });

  it('a document split at every byte, and at every pair of bytes', async () => {
    const text = Buffer.concat([
      b('I\tnode 7\nE\t12.5\tFlush Begin\r\nS\t13\tq\t-4.25\nS\t2026-11-20T10:00:01.123Z\tq é\t1e3\r\n'),
      b('E\t1\t日本😀\n# comment\n\n  \r\nnot a record\nS\t1\tx\t'), Buffer.from([0xe2, 0x82]), b('\nE\t1\tab'), Buffer.from([0xc3]), b('\r\nE\t3\tlast'),
    ]);
    for (let p = 0; p <= text.length; p++) await same(text, [p, text.length]);
    const small = b('S\t1.5\tné\t2\r\nE\t-3\tab\nI\tz');
    for (let p = 1; p < small.length; p++) {
      for (let q = 1; p + q < small.length; q++) await same(small, [p, q, small.length]);
    }
  });

  it('every record shape split at every byte position', async () => {
    for (const rec of ['E\t1763596805.280171\tFlushBegin\n', 'S\t1763596805.280171\tlock_wait_ms\t11.5\r\n', 'I\trun-0001\n', 'S\t1\tname\t5', 'E\t1e3\tx\r']) {
      const bytes = b(`E\t0\tbefore\n${rec}`);
      for (let p = 0; p <= bytes.length; p++) {
        const out = await same(bytes, [p, bytes.length]);
        expect(out.error).toBeNull();
        expect(out.calls.length).toBe(2);
      }
    }
  });

  it('CRLF split between \\r and \\n', async () => {
    const bytes = b('E\t1\ta\r\nS\t2\tb\t3\r\n');
    const out = await same(bytes, [6, 100]);
    expect(out.calls).toEqual(['E 1 "a"', 'S 2 "b" 3']);
    await same(bytes, [15, 100]);
    await same(b('\r\n\r\n'), [1, 1, 1, 1]);
  });

  it('a NUL byte: binary data, on the right line, in any chunking', async () => {
    const bytes = b('E\t1\ta\nE\t2\tb\n\nE\t3\tc\0d\nE\t4\te\n');
    for (const sizes of [[], [1], [7], [12], [13], [14], [3, 20]]) {
      const out = await same(bytes, sizes);
      expect(out.error).toEqual({ type: 'InputError', message: 'x.dlog:4: binary data (a NUL byte near byte 18); not a text log', line: 4, hint: 'if it is compressed, name it *.gz' });
    }
  });

  it('a BOM is stripped from the first chunk (split, it is not: as readLines)', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b('E\t1\ta\n')]);
    expect((await same(bytes, [])).calls).toEqual(['E 1 "a"']);
    expect((await same(bytes, [2, 100])).skips.length).toBe(1);
    await same(bytes, [3, 100]);
    await same(bytes, [1, 1, 1, 1]);
  });

  it('chunks that are Uint8Arrays, not Buffers', async () => {
    const bytes = b('E\t1\tab\nS\t2\tné\t3\r\nI\tx');
    const pieces = () => Readable.from([bytes.subarray(0, 5), bytes.subarray(5, 13), bytes.subarray(13)].map((p) => new Uint8Array(p)));
    const out = await viaBytes(pieces());
    expect(out).toEqual(await viaStrings(pieces()));
    expect(out.calls).toEqual(['E 1 "ab"', 'S 2 "né" 3', 'I "x"']);
  });

  it('the final line without a newline', async () => {
    expect((await same(b('E\t1\ta\nS\t2\tb\t3'), [])).calls).toEqual(['E 1 "a"', 'S 2 "b" 3']);
    expect((await same(b('E\t1\ta\nS\t2\tb\t3\r'), [4])).calls).toEqual(['E 1 "a"', 'S 2 "b" 3']);
    expect((await same(b('E\t1\ta\nS\t2\tb\t'), [4])).error?.message).toBe("x.dlog:2: state 'b' has value '', not a finite decimal number");
    await same(Buffer.concat([b('E\t1\ta'), Buffer.from([0xe2, 0x82])]), [6]);
  });

  it('over-long lines are skipped with their length in characters', async () => {
    const long = 1024 * 1024 + 5;
    const ascii = Buffer.concat([b('E\t1\ta\nE\t2\t'), Buffer.alloc(long, 'x'), b('\r\nE\t3\tc\n')]);
    for (const sizes of [[], [65536], [1000, 65536], [7]]) {
      const out = await same(ascii, sizes);
      expect(out.calls).toEqual(['E 1 "a"', 'E 3 "c"']);
      expect(out.skips.map((s) => s[0])).toEqual([2]);
      expect(out.skips[0]?.[1]).toMatch(/^line of 104858[0-9] characters is over the 1 MiB limit$/);
    }
    // Two-byte characters: 1.2 MB but 600 000 characters is not over the limit; 1.1 M characters is.
    const under = Buffer.concat([b('E\t1\t'), Buffer.from('é'.repeat(600_000)), b('\n')]);
    for (const sizes of [[], [65535], [65536]]) expect((await same(under, sizes)).calls.length).toBe(1);
    const over = Buffer.concat([b('S\t1\t'), Buffer.from('é'.repeat(1_100_000)), b('\t1\r\nI\tx')]);
    for (const sizes of [[], [65535], [65536], [3, 100_001]]) {
      const out = await same(over, sizes);
      expect(out.skips[0]?.[0]).toBe(1);
      expect(out.calls).toEqual(['I "x"']);
    }
    // Given up on at a chunk's end, it ends in a later chunk after an unfinished UTF-8 sequence: not UTF-8, an error.
    const cut = Buffer.concat([b('E\t1\t'), Buffer.alloc(long, 'x'), Buffer.from([0xe2, 0x82]), b('\nE\t2\tb\n')]);
    for (const sizes of [[65536], [long + 4, 100], [long + 5, 100], [long + 6, 100]]) {
      expect((await same(cut, sizes)).error?.message).toBe(`x.dlog:1: not valid UTF-8 (byte 0xe2 near byte ${long + 4}); distinct names could not be told apart`);
    }
    // A long line that ends the file, and one inside a single chunk bigger than the limit.
    await same(Buffer.concat([b('E\t1\ta\n'), Buffer.alloc(long, 'y')]), [65536]);
    await same(Buffer.concat([b('E\t1\ta\n#'), Buffer.alloc(long, 'y'), b('\nS\t1\t'), Buffer.alloc(long, 'z'), b('\t2\n')]), []);
    await same(Buffer.concat([b('E\t1\ta\n#'), Buffer.alloc(1024 * 1024 - 2, 'y'), b('\r\n')]), [65536]);
  });

  it('timestamps sharing their first 8 bytes (the cached prefix), in any chunking', async () => {
    // Consecutive timestamps that share 8 leading digits start 8 bytes in; these mix hits, near misses and non-digits.
    const stamp = fc.tuple(pick('', '', '-', '+'), pick('17635968', '17635968', '17635969', '1763596.', '12345678', '00000000', '9999999', '176359680'),
      pick('', '.', '04.8686', '0', '05.337234', '9.', '.25', '1e3', 'x', '99999999999'));
    const line = fc.tuple(stamp, pick('E', 'S'), pick('a', 'FlushEnd', 'q')).map(([[sg, p, f], tag, name]) => `${tag}\t${sg}${p}${f}\t${name}${tag === 'S' ? '\t1.5' : ''}\n`);
    await fc.assert(fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 40 }), chunkSizes, async (lines, sizes) => {
      await same(b(lines.join('')), sizes);
    }), { numRuns: 400 });
    const out = await same(b(Array.from({ length: 50 }, (_, i) => `E\t1763596804.${String(i).padStart(6, '0')}\tX\n`).join('')), [300]);
    expect(out.calls[49]).toBe('E 1763596804.000049 "X"');
  });

  it('states repeating the timestamp field before them (its value reused): only the same bytes up to a TAB, in any chunking', async () => {
    // Look-alikes of the same length differing in the first, a middle or the last 4-byte word, longer and shorter fields,
    // signs, fields under 4 bytes, and fields that are not the simple shape.
    const pool = ['1763596805.337234', '1763596805.337234', '2763596805.337234', '1763597805.337234', '1763596805.337235', '1763596805.3372340',
      '1763596805.33723', '-1763596805.337234', '+1763596805.337234', '1.5', '2.5', '10.5', '11.5', '1e3', '2026-11-23T02:52:44Z', '99999999999999999'];
    const line = fc.tuple(pick('S', 'S', 'S', 'E'), fc.nat(pool.length - 1), pick('cpu', 'mem_mb')).map(([tag, k, name]) =>
      `${tag}\t${pool[k]}\t${name}${tag === 'S' ? '\t66.1' : ''}\n`);
    await fc.assert(fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 40 }), chunkSizes, async (lines, sizes) => {
      await same(b(lines.join('')), sizes);
    }), { numRuns: 400 });
    const out = await same(b('S\t1763596805.337234\ta\t1\nS\t1763596805.337234\tb\t2\nS\t1763596805.337235\tc\t3\nS\t2763596805.337235\td\t4\n'), []);
    expect(out.calls).toEqual(['S 1763596805.337234 "a" 1', 'S 1763596805.337234 "b" 2', 'S 1763596805.337235 "c" 3', 'S 2763596805.337235 "d" 4']);
  });

  it('names predicted from the name before them: only a whole match is taken, in any chunking', async () => {
    // A cycle of names (so the prediction mostly holds), broken by prefixes, extensions and look-alikes of the predicted name.
    // (Look-alikes differ inside the first or second 4-byte word too: the predicted name is compared a word at a time.)
    const pool = ['q', 'queue', 'queue_len', 'queue_lem', 'qXeue_len', 'queue_lXn', 'a', 'ab', 'a\tb', 'x'.repeat(64), 'x'.repeat(65), 'né', 'Flush', 'FlushEnd', 'FlushEnd ', 'z\r'];
    const ends = ['\n', '\r\n', '\t2\n', '\r\r\n', 'x\n', '\rx\n', '_len\n'];
    const record = fc.tuple(pick('E', 'S'), fc.nat(pool.length - 1));
    const doc = fc.tuple(fc.array(record, { minLength: 1, maxLength: 6 }), fc.nat(8), fc.array(fc.tuple(fc.nat(60), record), { maxLength: 6 }),
      fc.array(fc.nat(3 * ends.length), { minLength: 1, maxLength: 30 }))
      .map(([cycle, rounds, breaks, endings]) => {
        const recs = Array.from({ length: (rounds + 2) * cycle.length }, (_, i) => cycle[i % cycle.length]!);
        for (const [at, r] of breaks) recs[at % recs.length] = r;
        // Mostly a plain '\n' (so names are learnt), else a look-alike ending.
        const end = (i: number) => ends[endings[i % endings.length]! % (ends.length * 3) < ends.length ? endings[i % endings.length]! : 0]!;
        return recs.map(([tag, n], i) => `${tag}\t${i}\t${pool[n]}${tag === 'S' ? `\t${i % 5}` : ''}${end(i)}`).join('');
      });
    await fc.assert(fc.asyncProperty(doc, chunkSizes, async (text, sizes) => {
      await same(b(text), sizes);
    }), { numRuns: 600 });
    // An event name that ends in CR, then the same bytes ending a CRLF line: there the CR is the line's.
    const crs = await same(b('E\t0\tq\nE\t1\tz\r\r\nE\t2\tq\nE\t3\tz\r\nE\t4\tq\nE\t5\tz\r\r\n'), []);
    expect(crs.calls).toEqual(['E 0 "q"', 'E 1 "z\\r"', 'E 2 "q"', 'E 3 "z"', 'E 4 "q"', 'E 5 "z\\r"']);
    // Over 256 names (more than the entries), cycling.
    const many = Array.from({ length: 3 * 300 }, (_, i) => `S\t${i}\tv${i % 300}\t${i}\nE\t${i}\te${i % 300}\n`).join('');
    expect((await same(b(many), [4096])).calls.length).toBe(1800);
  });

  it('readers of different intakes interleaved: each gets its own records', async () => {
    // Chunks arrive asynchronously, so the three reads interleave; X's and Y's names get different numbers.
    const docX = b(Array.from({ length: 300 }, (_, i) => `S\t${i}\tq${i % 3}\t${i}\nE\t${i}\tA${i % 4}\n`).join(''));
    const docY = b(Array.from({ length: 300 }, (_, i) => `E\t${i}\tA${(i + 1) % 4}\nS\t${i}\tq${(i + 2) % 3}\t${-i}\n`).join(''));
    const read = async (doc: Buffer, intake: RecordSink) => {
      await readDlogFast(FILE, intake, () => undefined, undefined, chunked(doc, [97]));
    };
    const [callsX, callsY] = [[], []] as string[][];
    const x = recordingWithIntake(callsX, { n: 0 });
    // X, then Y, then X again: the predictor is reset twice while the first X reader is still reading.
    await Promise.all([read(docX, x), read(docY, recordingWithIntake(callsY, { n: 0 })), read(docX, x)]);
    const [fromX, fromY] = [(await viaStrings(chunked(docX, []))).calls, (await viaStrings(chunked(docY, []))).calls];
    // The two X readers' calls interleave in one list: the same calls, twice.
    expect([...callsX].sort()).toEqual([...fromX, ...fromX].sort());
    expect(callsY).toEqual(fromY);
  });

  it('repeated names come back equal, and colliding names stay distinct', async () => {
    const names = ['ab', 'ba', 'aab', 'abb', 'a b', 'a\tb', 'x'.repeat(64), 'x'.repeat(65), 'y'.repeat(64), 'queue_len', 'queue_lem',
      ...Array.from({ length: 40 }, (_, i) => `Writer_${i}_run`)];
    const text = Array.from({ length: 200 }, (_, i) => `S\t${i}\t${names[i % names.length]}\t${i}\nE\t${i}\t${names[(i * 7) % names.length]}\n`).join('');
    const out = await same(b(text), [333]);
    expect(out.calls.length).toBe(400);
    expect(out.calls.filter((c) => c.includes('Writer_')).length).toBeGreaterThan(200);
  });

  it('a plain file over several reads of the one reused buffer; a missing file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-dlog-fast-'));
    try {
      // ~2.6 MB: lines of varied lengths cross both 1 MB read boundaries; non-ASCII names and a CRLF among them.
      const body = Buffer.from(Array.from({ length: 60_000 }, (_, i) =>
        `S\t1763596804.${String(i).padStart(6, '0')}\t${i % 5 === 0 ? 'né' : 'q'.repeat(1 + (i % 13))}\t${i % 7}${i % 11 === 0 ? '\r' : ''}\nE\t${i}\tFlush${i % 3}\n`).join(''));
      writeFileSync(join(dir, 'big.dlog'), body);
      const file = (n: string, size: number): InputFile => ({ path: join(dir, n), relativePath: n, gzip: false, size });
      const calls: string[] = [];
      const given = { n: 0 };
      const sink: ClassSink = { ...recordingWithIntake(calls, given), beginFile: () => undefined, endFile: () => undefined };
      const stats = await readClass([file('big.dlog', body.length), file('big.dlog', body.length)], 'good', sink, { strict: true }, emptyReadStats());
      const once = (await viaStrings(Readable.from([body]))).calls;
      expect(calls).toEqual([...once, ...once]);
      expect(stats).toMatchObject({ bytes: 2 * body.length, lines: 240_000, records: 240_000 });
      const missing = await viaStrings(openInputFile(file('gone.dlog', 10)), false, file('gone.dlog', 10));
      await expect(readClass([file('gone.dlog', 10)], 'good', sink, { strict: true }, emptyReadStats())).rejects.toThrow(missing.error?.message ?? 'none');
      expect(missing.error?.message).toMatch(/cannot read: no such file or directory/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('through readClass: a gzip file, and a truncated one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-dlog-fast-'));
    try {
      const body = Buffer.from(Array.from({ length: 5000 }, (_, i) => `S\t${i}.25\tq\t${i % 7}\nE\t${i}\té${i % 3}\n`).join(''));
      writeFileSync(join(dir, 'a.dlog.gz'), gzipSync(body));
      writeFileSync(join(dir, 'b.dlog.gz'), gzipSync(body).subarray(0, 2000));
      const file = (n: string): InputFile => ({ path: join(dir, n), relativePath: n, gzip: true, size: 0 });
      const calls: string[] = [];
      const sink: ClassSink = { ...recording(calls), beginFile: () => undefined, endFile: () => undefined };
      const stats = await readClass([file('a.dlog.gz')], 'good', sink, { strict: true }, emptyReadStats());
      expect(stats.records).toBe(10_000);
      expect(stats.lines).toBe(10_000);
      expect(calls).toEqual((await viaStrings(Readable.from([body]))).calls);
      // Through a fast lane: the reader counts what it gives it (the é names go by name, through the counter).
      const fast: string[] = [];
      const given = { n: 0 };
      const viaIntake = await readClass([file('a.dlog.gz')], 'good', { ...recordingWithIntake(fast, given), beginFile: () => undefined, endFile: () => undefined }, { strict: true }, emptyReadStats());
      expect(given.n).toBe(5000);
      expect(viaIntake.records).toBe(10_000);
      expect(fast).toEqual(calls);
      // A truncated file: the same message either way.
      const expected = await viaStrings(openInputFile(file('b.dlog.gz')), false, file('b.dlog.gz'));
      const actual = await viaBytes(openInputFile(file('b.dlog.gz')), false, file('b.dlog.gz'));
      expect(actual).toEqual(expected);
      expect(actual.error?.message).toMatch(/truncated gzip data/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the WebAssembly scanner (dlog-scan.wat) inside the byte-level reader', () => {
  it('numbers across its eight-digit words: 1–25 digits, the point anywhere, signs, 0–23 fraction digits', async () => {
    // The scanner reads up to eight digits at a time and takes at most 19; the parser takes any other number.
    // Every split of a run of digits by a point, at every length around the words' edges and the limits.
    const lines: string[] = [];
    for (let n = 1; n <= 25; n++) {
      const run = '9876543210123456789012345'.slice(0, n);
      for (let at = 0; at <= n; at++) {
        const text = at === n ? run : `${run.slice(0, at)}.${run.slice(at)}`;
        lines.push(`E\t${text}\te\n`, `S\t-${text}\ts\t+${text}\n`, `S\t${n}\ts\t${text.replace(/^9/, '0')}\r\n`);
      }
    }
    // 2^53 − 1 and 2^53, as integers and with points; fractions of 22 and 23 digits; −0, a point first and last.
    lines.push('S\t9007199254740991\ts\t9007199254740992\n', 'S\t900719925474099.1\ts\t900719925474099.2\n', 'E\t0.0000000000000000000001\te\n',
      'E\t0.00000000000000000000001\te\n', 'S\t1\ts\t-0\n', 'S\t1\ts\t-.5\n', 'S\t1\ts\t5.\n');
    const text = lines.join('');
    const out = await same(b(text), []);
    expect(out.calls.length).toBe(lines.length);
    expect(out.calls).toContain('S 9007199254740991 "s" 9007199254740992');
    expect(out.calls).toContain('S 1 "s" -0');
    expect(out.calls).toContain('E 1e-23 "e"');
    // A point alone, two points: the parser's errors, on their lines.
    expect((await same(b('E\t1\te\nE\t.\te\n'), [])).error).toEqual({ type: 'InputError', message: "x.dlog:2: timestamp '.' is neither decimal seconds nor ISO-8601", line: 2, hint: 'e.g. 1763632801.25 or 2026-11-20T10:00:01.250Z' });
    expect((await same(b('S\t1\ts\t1.2.3\n'), [])).error?.message).toBe("x.dlog:1: state 's' has value '1.2.3', not a finite decimal number");
    await same(b(text), [4096]);
    await fc.assert(fc.asyncProperty(chunkSizes, async (sizes) => {
      await same(b(text), sizes);
    }), { numRuns: 30 });
  });

  it('names up to its 255 bytes and past them, its printable ASCII and the bytes around it, and more names than its table holds', async () => {
    const names = ['x'.repeat(255), 'x'.repeat(256), 'y'.repeat(1000), 'a\x7fb', 'a\x1fb', ' lead', 'trail ', '~', '!'];
    const edges = names.map((n, i) => `S\t${i}\t${n}\t${i}\nE\t${i}\t${n}\n`).join('');
    expect((await same(b(edges.repeat(3)), [])).calls.length).toBe(names.length * 6);
    // 3 500 names, twice: the table takes 3 072; the lines of the others stay the parser's, in order.
    const many = Array.from({ length: 7000 }, (_, i) => `${i % 2 === 0 ? 'E' : 'S'}\t${i}\tname_${i % 3500}${i % 2 === 0 ? '' : `\t${i}`}\n`).join('');
    const out = await same(b(many), [65536]);
    expect(out.calls.length).toBe(7000);
    expect(out.calls[6999]).toBe('S 6999 "name_3499" 6999');
  });

  it('where Node has no WebAssembly (--jitless), the parser reads every line itself: the same analysis, -j1 and -j2', async () => {
    const { spawnSync } = await import('node:child_process');
    const { ROOT } = await import('./helpers/run.js');
    const cli = (nodeFlags: string[], jobs: string) => spawnSync(process.execPath, [...nodeFlags, join(ROOT, 'bin/distalyze.js'),
      'fixtures/pipeline/good', 'fixtures/pipeline/bad', '--jobs', jobs, '--json', '-', '--quiet'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
    const usual = cli([], '1');
    expect(usual.status).toBe(0);
    expect(JSON.parse(usual.stdout).verdict.causes[0].variable).toBe('lock_wait_ms');
    for (const jobs of ['1', '2']) {
      const jitless = cli(['--jitless'], jobs);
      expect(jitless.status).toBe(0);
      expect(jitless.stdout).toBe(usual.stdout);
    }
  });

  it('the module in dlog-scan-wasm.ts is what dlog-scan.wat assembles to', async () => {
    const { assembled } = await import('../scripts/wasm.mjs');
    const { readFileSync } = await import('node:fs');
    expect(await assembled()).toBe(readFileSync(new URL('../src/parse/fast/dlog-scan-wasm.ts', import.meta.url), 'utf8'));
  });
});
