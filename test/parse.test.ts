import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDlogLine } from '../src/parse/dlog.js';
import { listInputFiles } from '../src/parse/files.js';
import { emptyReadStats, readClass, type ClassSink } from '../src/parse/reader.js';
import { parseDecimal, parseTimestamp } from '../src/parse/timestamp.js';
import { FIXTURES } from './helpers/synth.js';

type Rec = ['I', string] | ['E', number, string] | ['S', number, string, number];

function recorder(): ClassSink & { records: Rec[]; files: string[] } {
  const records: Rec[] = [];
  const files: string[] = [];
  return {
    records,
    files,
    beginFile: (f) => { files.push(f.relativePath); },
    endFile: () => undefined,
    instance: (id) => { records.push(['I', id]); },
    event: (t, n) => { records.push(['E', t, n]); },
    state: (t, n, v) => { records.push(['S', t, n, v]); },
  };
}

function tempDir(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'distalyze-parse-'));
  for (const [name, content] of Object.entries(files)) {
    const path = join(root, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
  }
  return root;
}

async function read(dir: string, strict = false) {
  const sink = recorder();
  const stats = await readClass(await listInputFiles(dir, 'good'), 'good', sink, { strict });
  return { sink, stats };
}

describe('timestamps (SPEC §1)', () => {
  it('reads decimal seconds', () => {
    expect(parseTimestamp('1763632801.25')).toBe(1763632801.25);
    expect(parseTimestamp('-2')).toBe(-2);
    expect(parseTimestamp('1e3')).toBe(1000);
  });

  it('reads ISO-8601 with T or space, . or , fractions, and zones (none = UTC)', () => {
    const base = Date.UTC(2026, 10, 20, 10, 0, 1) / 1000;
    expect(parseTimestamp('2026-11-20T10:00:01.123Z')).toBeCloseTo(base + 0.123, 6);
    expect(parseTimestamp('2026-11-20 10:00:01,123')).toBeCloseTo(base + 0.123, 6);
    expect(parseTimestamp('2026-11-20T10:00:01')).toBe(base);
    expect(parseTimestamp('2026-11-20T11:00:01+01:00')).toBe(base);
    expect(parseTimestamp('2026-11-20T05:00:01-0500')).toBe(base);
    expect(parseTimestamp('2026-11-20T10:00:01.123456789Z') - base).toBeCloseTo(0.123456789, 6);
  });

  it('rejects what is neither', () => {
    for (const bad of ['', ' 1', '0x10', 'Infinity', 'NaN', '12abc', '2026-02-31T00:00:00', '2026-13-01 00:00:00', '10:00:01']) {
      expect(parseTimestamp(bad), bad).toBeNaN();
    }
  });

  it('parseDecimal accepts plain decimals only', () => {
    expect(parseDecimal('.5')).toBe(0.5);
    expect(parseDecimal('+7')).toBe(7);
    expect(parseDecimal('0e5')).toBe(0);
    expect(parseDecimal('1.')).toBe(1);
    expect(parseDecimal('-0.25e-2')).toBe(-0.0025);
    expect(parseDecimal('007')).toBe(7);
    for (const bad of ['inf', '-inf', 'NaN', 'Infinity', '-Infinity', '12abc', '1e', '.', '-', '+', '1e999', '0x10', '0X1F', '0b1', '0o7', '-0x10', '+0b1',
      ' 1', '1 ', '\t1', '1\n', '1_000', '1,5', '', 'e5', '١']) {
      expect(parseDecimal(bad), JSON.stringify(bad)).toBeNaN();
    }
  });
});

describe('parseDecimal agrees with Number() to the last bit', () => {
  it('on decimal renderings of arbitrary doubles and on long digit strings', () => {
    const simple = /^[-+]?\d*\.?\d+$|^[-+]?\d+\.$/;
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
      for (const s of [String(x), x.toFixed(6), x.toPrecision(12)]) if (simple.test(s)) expect(parseDecimal(s)).toBe(Number(s));
    }), { numRuns: 5000 });
    // Epoch timestamps with µs..ns: 16–26 significant digits, across the 2^53 fast-path boundary.
    fc.assert(fc.property(fc.stringMatching(/^-?\d{1,17}\.\d{0,9}$/), (s) => { expect(parseDecimal(s)).toBe(Number(s)); }), { numRuns: 5000 });
  });
});

describe('dlog records', () => {
  const parse = (line: string) => {
    const sink = recorder();
    return { kind: parseDlogLine(line, sink, 'f.dlog', 7), records: sink.records };
  };

  it('parses I, E and S records; names may contain spaces', () => {
    expect(parse('I\treq 42').records).toEqual([['I', 'req 42']]);
    expect(parse('E\t1.5\tFlush begin').records).toEqual([['E', 1.5, 'Flush begin']]);
    expect(parse('S\t2\tqueue len\t-3.25').records).toEqual([['S', 2, 'queue len', -3.25]]);
  });

  it('ignores comments and blank lines, flags other lines', () => {
    expect(parse('# a comment').kind).toBe('ignored');
    expect(parse('').kind).toBe('ignored');
    expect(parse('   ').kind).toBe('ignored');
    expect(parse('hello world').kind).toBe('not-a-record');
    expect(parse('X\t1\tfoo').kind).toBe('not-a-record');
  });

  it('rejects broken records with the file and line', () => {
    expect(() => parse('S\t1\tq\t12abc')).toThrow("f.dlog:7: state 'q' has value '12abc', not a finite decimal number");
    expect(() => parse('S\t1\tq\tNaN')).toThrow("f.dlog:7: state 'q' has value 'NaN', not a finite decimal number");
    expect(() => parse('S\t1\tq\tinf')).toThrow("f.dlog:7: state 'q' has value 'inf', not a finite decimal number");
    expect(() => parse('E\tyesterday\tStart')).toThrow("f.dlog:7: timestamp 'yesterday' is neither decimal seconds nor ISO-8601");
    expect(() => parse('E\t1')).toThrow('f.dlog:7: event record needs a timestamp and a name: E<TAB>t<TAB>name');
    expect(() => parse('S\t1\tq')).toThrow('f.dlog:7: state record needs a timestamp, a name and a value: S<TAB>t<TAB>name<TAB>value');
    expect(() => parse('I\t')).toThrow('f.dlog:7: instance record has an empty id');
  });
});

describe('reading files', () => {
  it('walks directories recursively in sorted order, skipping hidden files', async () => {
    const dir = tempDir({ 'b.dlog': 'E\t1\tx\n', 'a/z.dlog': 'E\t1\ty\n', 'a/.hidden': 'junk\n', '.git/config': 'junk\n', 'a/B.dlog': 'E\t1\tz\n' });
    const { sink } = await read(dir);
    expect(sink.files).toEqual(['a/B.dlog', 'a/z.dlog', 'b.dlog']);
  });

  it('handles CRLF, a BOM, a missing final newline and .gz', async () => {
    const text = '\ufeffE\t1\tStart\r\nS\t2\tq\t3\r\nE\t3\tEnd';
    const dir = tempDir({ 'a.dlog': text, 'b.dlog.gz': gzipSync(Buffer.from(text)) });
    const { sink, stats } = await read(dir);
    const expected: Rec[] = [['E', 1, 'Start'], ['S', 2, 'q', 3], ['E', 3, 'End']];
    expect(sink.records).toEqual([...expected, ...expected]);
    expect(stats.skippedLines).toBe(0);
  });

  it('counts lines that are not records, with examples; --strict stops at the first', async () => {
    const dir = tempDir({ 'a.dlog': 'E\t1\tStart\nhello\nE\t2\tEnd\nworld\n' });
    const { stats } = await read(dir);
    expect(stats.skippedLines).toBe(2);
    expect(stats.skippedExamples[0]).toBe(`${join(dir, 'a.dlog')}:2: not a record: 'hello'`);
    await expect(read(dir, true)).rejects.toThrow(`${join(dir, 'a.dlog')}:2: not a record: 'hello' (--strict)`);
  });

  it('skips and counts a line over 1 MiB without holding it', async () => {
    const dir = tempDir({ 'a.dlog': `E\t1\tStart\n${'x'.repeat(3 * 1024 * 1024)}\nE\t2\tEnd\n` });
    const { sink, stats } = await read(dir);
    expect(sink.records).toEqual([['E', 1, 'Start'], ['E', 2, 'End']]);
    expect(stats.skippedLines).toBe(1);
    expect(stats.skippedExamples[0]).toMatch(/a\.dlog:2: line of 3145728 characters is over the 1 MiB limit$/);
  });

  it('rejects binary and truncated gzip input with the file named', async () => {
    const gz = gzipSync(Buffer.from('E\t1\tStart\n'.repeat(1000)));
    const dir = tempDir({ 'bin.dlog': Buffer.from([69, 9, 49, 0, 1, 2]), 'cut.dlog.gz': gz.subarray(0, gz.length - 20) });
    await expect(readClass(await listInputFiles(join(dir, 'bin.dlog'), 'good'), 'good', recorder(), { strict: false }))
      .rejects.toThrow(`${join(dir, 'bin.dlog')}:1: binary data (a NUL byte near byte 3); not a text log`);
    await expect(readClass(await listInputFiles(join(dir, 'cut.dlog.gz'), 'good'), 'good', recorder(), { strict: false }))
      .rejects.toThrow(`${join(dir, 'cut.dlog.gz')}: truncated gzip data (unexpected end of file)`);
  });

  it('names a missing path and an empty directory', async () => {
    await expect(listInputFiles('/nonexistent/logs', 'bad')).rejects.toThrow("bad class: cannot read '/nonexistent/logs': no such file or directory");
    const empty = tempDir({ '.only-hidden': 'x' });
    await expect(listInputFiles(empty, 'good')).rejects.toThrow(`good class: directory '${empty}' holds no log files (hidden files are skipped)`);
  });

  it('lists a tree with each path as path.join gives it and each relative path as path.relative does, however the root is spelled', async () => {
    const dir = tempDir({ 'z.dlog': 'E\t1\tA\n', 'sp ace.dlog': 'E\t1\tA\n', '.hidden': 'x' });
    mkdirSync(join(dir, 'a', 'b', 'c'), { recursive: true });
    mkdirSync(join(dir, '.hd'));
    // (The linked directory lies outside the tree: a file reached twice in one class is an error, issue 54.)
    const elsewhere = tempDir({ 'in-link.dlog': 'E\t1\tA\n' });
    writeFileSync(join(dir, 'a', 'b', 'c', 'deep.dlog'), 'E\t1\tA\n');
    writeFileSync(join(dir, 'a', 'ü.dlog.gz'), gzipSync('E\t1\tA\n'));
    writeFileSync(join(dir, '.hd', 'q.dlog'), 'E\t1\tA\n');
    symlinkSync(elsewhere, join(dir, 'a', 'link'));
    // The listing as before it appended names to a prefix: path.join and path.relative for every file.
    const rels = ['a/b/c/deep.dlog', 'a/link/in-link.dlog', 'a/ü.dlog.gz', 'sp ace.dlog', 'z.dlog'];
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      for (const root of [dir, `${dir}/`, `${dir}//a/..`, '.', './', `.//a/../`, `../${basename(dir)}`]) {
        const listed = await listInputFiles(root, 'good');
        expect(listed.map((f) => f.relativePath), root).toEqual(rels);
        expect(listed.map((f) => f.path), root).toEqual(rels.map((r) => join(root, ...r.split('/'))));
        expect(listed.map((f) => relative(root, f.path).split(sep).join('/')), root).toEqual(rels);
        expect(listed.map((f) => f.gzip), root).toEqual([false, false, true, false, false]);
      }
      expect((await listInputFiles('a', 'good')).map((f) => [f.path, f.relativePath])).toEqual([
        [join('a', 'b', 'c', 'deep.dlog'), 'b/c/deep.dlog'], [join('a', 'link', 'in-link.dlog'), 'link/in-link.dlog'], [join('a', 'ü.dlog.gz'), 'ü.dlog.gz']]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('reads CSV with a header, in any column order, and an instance column', async () => {
    const dir = tempDir({ 'x.csv': 'timestamp,kind,name,value,instance\n1,E,Start,,r1\n2,S,q,4.5,r1\n3,event,End,,r2\n' });
    const { sink } = await read(dir);
    expect(sink.records).toEqual([['I', 'r1'], ['E', 1, 'Start'], ['S', 2, 'q', 4.5], ['I', 'r2'], ['E', 3, 'End']]);
  });

  it('rejects bad CSV rows with file and line', async () => {
    const dir = tempDir({ 'x.csv': 'kind,timestamp,name,value\nE,1,Start,\nS,2,q,abc\n' });
    await expect(read(dir)).rejects.toThrow(`${join(dir, 'x.csv')}:3: state 'q' has value 'abc', not a finite decimal number`);
    const noHeader = tempDir({ 'y.csv': 'E,1,Start,\n' });
    await expect(read(noHeader)).rejects.toThrow('CSV header lacks column(s) kind, timestamp, name');
  });

  it('reads the CSV and gzip fixtures to the same records as their dlog originals', async () => {
    const csv = await read(FIXTURES.csvGood);
    const gz = await read(FIXTURES.gzGood);
    const dlogFirst = await read(join(FIXTURES.pipelineGood, 'node-001.dlog'));
    expect(csv.sink.records.length).toBeGreaterThan(50);
    expect(gz.sink.records.slice(0, dlogFirst.sink.records.length)).toEqual(dlogFirst.sink.records);
    expect(csv.sink.records.slice(0, dlogFirst.sink.records.length)).toEqual(dlogFirst.sink.records);
  });

  it('reads each file by its name whichever comes first: dlog, TSV, gzipped CSV, a span file with an upper-case name', async () => {
    // The reader loads the table and span readers only on the first file whose name can be one
    // (src/parse/reader.ts): a dlog file first, then the others, each still read as its kind.
    const span = { TraceID: 't1', SpanID: '1', ParentID: 'root', PodName: 'p', OperationName: 'op', StartTimeUnixNano: 1000000000, EndTimeUnixNano: 1500000000 };
    const dir = tempDir({
      '1.dlog': 'E\t1\tStart\n',
      '2.tsv': 'kind\ttimestamp\tname\tvalue\nS\t2\tq\t4.5\n',
      '3.csv.gz': gzipSync('kind,timestamp,name,value\nE,3,End,\n'),
      '4.JSONL': JSON.stringify(span) + '\n',
    });
    const { sink } = await read(dir);
    expect(sink.files).toEqual(['1.dlog', '2.tsv', '3.csv.gz', '4.JSONL']);
    expect(sink.records.slice(0, 3)).toEqual([['E', 1, 'Start'], ['S', 2, 'q', 4.5], ['E', 3, 'End']]);
    // The span file: one instance (the trace) with its span's start and end events.
    expect(sink.records.slice(3).filter((r) => r[0] !== 'S')).toEqual([['I', 't1'], ['E', 1, 'p:op.start'], ['E', 1.5, 'p:op.end']]);
  });
});

void emptyReadStats;
