/**
 * Issue 7: robust on bad input, hostile names and huge lines.
 *
 * A matrix of broken inputs through the real CLI (in-process `run`, and the
 * built executable for what needs a real process: exit codes, stack traces,
 * file permissions, a closed stdout). Every failure a user can cause must end
 * in exactly the one-line error asserted here (plus an optional hint line),
 * exit 2, and leave no output file behind; every accepted oddity must be
 * counted or noted in the report. `npm run build` before running this file.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, createReadStream, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  CONTROL_IN_FILES, HOSTILE_NAMES, INSTANCES, NOBODY, RAW_CONTROL, corruptGzip, gzip, makeSandbox, replaceLine, runBinaryAs, runBinaryIntoHead,
  runBinaryShell, runBinaryStdoutClosed, runBinaryThenSignal, processAlive, truncatedGzip, validInstance, withBom, withCrlf, withLongLine, type Sandbox,
} from './helpers/broken-inputs.js';
import { main } from '../src/cli/main.js';
import { StagedOutputs } from '../src/cli/output.js';
import { ROOT, run, runBinary, type RunResult } from './helpers/run.js';
import { FIXTURES } from './helpers/synth.js';

interface JsonTest { variable: string; kind: string; feature: string; t: number | string | null; nGood: number; nBad: number; meanGood: number | null; meanBad: number | null }
interface JsonDoc {
  classes: Record<'good' | 'bad', { instances: number; skippedLines: number; skippedExamples: string[] }>;
  tests: JsonTest[];
  graphs: { kind: string; nodes: { variable: string }[]; edges: { from: string; to: string }[] }[];
  warnings: string[];
}

let sb: Sandbox;
beforeAll(() => { sb = makeSandbox(); });
afterAll(() => sb.cleanup());

/** The error path: exactly `stderr`, exit 2, nothing on stdout, nothing in out/. */
async function expectError(args: string[], stderr: string): Promise<RunResult> {
  const r = await run(...sb.outputArgs(), ...args);
  expect(r.stderr).toBe(stderr);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(sb.outputs()).toEqual([]);
  return r;
}

/** The accepted path: exit 0, the JSON report (written to out/, then removed) and the terminal report. */
async function accepted(args: string[]): Promise<{ doc: JsonDoc; text: string }> {
  const json = sb.path('out', 'accepted.json');
  const r = await run(...args, '--json', json);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const doc = JSON.parse(readFileSync(json, 'utf8')) as JsonDoc;
  execFileSync('rm', ['-f', json]);
  return { doc, text: r.stdout };
}

const noteLines = (text: string): string[] => text.split('\n').filter((l) => l.startsWith('  note: ')).map((l) => l.slice(8));

/** The t-tests of a report, without what depends on the input bytes. */
const testsOf = (doc: JsonDoc): JsonTest[] => doc.tests;

describe('paths', () => {
  it('a missing good path', async () => {
    const p = sb.path('no-such-dir');
    await expectError([p, sb.bad], `distalyze: good class: cannot read '${p}': no such file or directory\n`);
  });

  it('a missing bad path', async () => {
    const p = sb.path('no-such-file.dlog');
    await expectError([sb.good, p], `distalyze: bad class: cannot read '${p}': no such file or directory\n`);
  });

  it('a directory with no files', async () => {
    const d = sb.path('empty-dir');
    mkdirSync(d);
    await expectError([d, sb.bad], `distalyze: good class: directory '${d}' holds no log files (hidden files are skipped)\n`);
  });

  it('a directory with only hidden files', async () => {
    const d = sb.classWith('hidden-only', 'good', {});
    for (const f of readdirSync(d)) execFileSync('mv', [join(d, f), join(d, `.${f}`)]);
    await expectError([sb.good, d], `distalyze: bad class: directory '${d}' holds no log files (hidden files are skipped)\n`);
  });

  it('both classes from standard input', async () => {
    await expectError(['-', '-'], 'distalyze: only one class can be read from standard input (-)\n');
  });

  it('a symbolic link cycle', async () => {
    const d = sb.classWith('cycle', 'good', {});
    symlinkSync('.', join(d, 'again'));
    await expectError([d, sb.bad],
      `distalyze: good class: '${d}/again' leads back to '${d}' (a symbolic link cycle)\n  hint: remove the link, or point distalyze at a directory without it\n`);
  });

  it('a symbolic link cycle through a parent', async () => {
    const d = sb.classWith('cycle-up/logs', 'good', {});
    mkdirSync(sb.path('cycle-up/logs/sub'));
    symlinkSync('../..', sb.path('cycle-up/logs/sub/up'));
    await expectError([d, sb.bad],
      `distalyze: good class: '${d}/sub/up/logs' leads back to '${d}' (a symbolic link cycle)\n  hint: remove the link, or point distalyze at a directory without it\n`);
  });

  it('a symbolic link to another directory is followed', async () => {
    const d = sb.classWith('linked', 'good', {});
    symlinkSync(sb.bad, join(d, 'more'));
    const { doc } = await accepted([d, sb.bad]);
    expect(doc.classes.good.instances).toBe(2 * INSTANCES);
  });

  it('a dangling symbolic link', async () => {
    const d = sb.classWith('dangling', 'bad', {});
    symlinkSync(sb.path('gone.dlog'), join(d, 'stale.dlog'));
    await expectError([sb.good, d], `distalyze: bad class: cannot read '${d}/stale.dlog': a symbolic link to a missing file\n`);
  });

  it('a path through a file', async () => {
    const p = join(sb.good, 'run-1.dlog', 'x');
    await expectError([p, sb.bad], `distalyze: good class: cannot read '${p}': a part of the path is not a directory\n`);
  });

  describe('a file nobody may read (chmod 000)', () => {
    // Root reads a chmod-000 file anyway, so as root the executable is run as
    // `nobody`: the error must be the one an ordinary user sees.
    const asUser = (args: string[]): RunResult | null =>
      process.getuid?.() === 0 ? runBinaryAs(NOBODY, args) : runBinary(args);

    it('an unreadable file', (ctx) => {
      const d = sb.classWith('unreadable-file', 'good', {});
      const f = join(d, 'run-2.dlog');
      chmodSync(f, 0);
      onTestFinished(() => chmodSync(f, 0o644));
      const r = asUser([d, sb.bad, '--json', sb.path('out', 'r.json')]);
      if (r === null) return ctx.skip('running as root, and cannot run as nobody to see EACCES');
      expect(r.stderr).toBe(`distalyze: ${f}: cannot read: permission denied\n`);
      expect(r.code).toBe(2);
      expect(sb.outputs()).toEqual([]);
    });

    it('an unreadable directory', (ctx) => {
      const d = sb.classWith('unreadable-dir', 'bad', {});
      mkdirSync(join(d, 'sub'));
      chmodSync(join(d, 'sub'), 0);
      onTestFinished(() => chmodSync(join(d, 'sub'), 0o755)); // so that cleanup can remove it
      const r = asUser([sb.good, d, '--json', sb.path('out', 'r.json')]);
      if (r === null) return ctx.skip('running as root, and cannot run as nobody to see EACCES');
      expect(r.stderr).toBe(`distalyze: bad class: cannot read directory '${d}/sub': permission denied\n`);
      expect(r.code).toBe(2);
      expect(sb.outputs()).toEqual([]);
    });
  });
});

describe('classes', () => {
  it('a class with 1 instance against one of 2: too few to compare', async () => {
    sb.write('two-runs/run-1.dlog', validInstance(1, true));
    const two = dirname(sb.write('two-runs/run-2.dlog', validInstance(2, true)));
    await expectError([join(sb.good, 'run-1.dlog'), two],
      'distalyze: good class: only 1 instance, and the bad class 2; one instance is compared with a class of at least 3, or give each class 2\n  hint: one file is one instance unless I records name instances\n');
  });

  it('a class whose files hold no records', async () => {
    const d = sb.path('no-records');
    sb.write('no-records/a.dlog', '');
    sb.write('no-records/b.dlog', '# only a comment\n\n   \n');
    await expectError([sb.good, d],
      'distalyze: bad class: no instances (no records in its input)\n  hint: one file is one instance unless I records name instances\n');
  });

  it('an empty file among good ones: counted in a note', async () => {
    const d = sb.classWith('with-empty', 'good', { 'run-0.dlog': '' });
    const { doc, text } = await accepted([d, sb.bad]);
    expect(doc.classes.good.instances).toBe(INSTANCES);
    expect(noteLines(text)).toContain(`1 file(s) held no records, e.g. ${join(d, 'run-0.dlog')}`);
  });

  it('a file with only comments: counted in a note', async () => {
    const d = sb.classWith('with-comments', 'bad', { 'run-9.dlog': '# translated by hand\n#\n\n' });
    const { doc, text } = await accepted([sb.good, d]);
    expect(doc.classes.bad.instances).toBe(INSTANCES);
    expect(noteLines(text)).toContain(`1 file(s) held no records, e.g. ${join(d, 'run-9.dlog')}`);
  });

  it('instance ids shared by both classes: a note, each class keeps its own', async () => {
    const both = (bad: boolean): string => [1, 2, 3].map((i) => `I\treq-${i}\n${validInstance(i, bad)}`).join('');
    const good = sb.write('shared-ids/good.dlog', both(false));
    const bad = sb.write('shared-ids/bad.dlog', both(true));
    const { doc, text } = await accepted([good, bad]);
    expect(doc.classes.good.instances).toBe(3);
    expect(doc.classes.bad.instances).toBe(3);
    expect(noteLines(text)).toContain("3 instance id(s) occur in both classes (e.g. 'req-1'); each class keeps its own instance");
  });

  it('variables in one class only: noted, and their count is tested', async () => {
    const extra = (i: number): string => `${validInstance(i, true)}E\t${1000 + 10 * i + 0.5}\tRetry\nS\t${1000 + 10 * i + 0.5}\tretries\t${i}\n`;
    const d = sb.classWith('one-class-vars', 'bad', Object.fromEntries([1, 2, 3, 4].map((i) => [`run-${i}.dlog`, extra(i)])));
    const { doc, text } = await accepted([sb.good, d]);
    expect(noteLines(text)).toEqual(expect.arrayContaining([
      "1 event variable(s) occur only in the bad class: 'Retry' (their count is tested: 0 in the other class)",
      "1 state variable(s) occur only in the bad class: 'retries' (untestable: no values in the other class)",
    ]));
    const retry = doc.tests.filter((t) => t.variable === 'Retry');
    expect(retry.map((t) => t.feature)).toEqual(['count', 'occurrence']);
    expect(retry[0]).toMatchObject({ nGood: INSTANCES, nBad: INSTANCES, meanGood: 0, meanBad: 1, presence: 'new' });
    expect(retry[1]).toMatchObject({ method: 'fisher', meanGood: 0, meanBad: 1, presence: 'new' });
    expect(doc.tests.filter((t) => t.variable === 'retries')).toEqual([]);
  });

  it('a metric present in one class only', async () => {
    const d = sb.classWith('metric-one-class', 'bad', Object.fromEntries([1, 2, 3, 4].map((i) => [`run-${i}.dlog`, `${validInstance(i, true)}E\t${1000 + 10 * i + 3}\tFinish\n`])));
    await expectError([sb.good, d, '--event-metric', 'Finish'],
      'distalyze: metric Finish (event) occurs in no instance of the good class; P must be measured in both classes to compare them\n');
    await expectError([sb.good, d, '--metric', 'Finish'],
      'distalyze: metric Finish (event) occurs in no instance of the good class; P must be measured in both classes to compare them\n');
  });

  it('a metric present in no class', async () => {
    await expectError([sb.good, sb.bad, '--state-metric', 'Queue'],
      "distalyze: --state-metric Queue: no state variable of that name occurs in any instance\n  hint: did you mean 'queue'? (names are case-sensitive)\n");
  });
});

describe('file contents', () => {
  const broken = (rel: string, text: string | Uint8Array, name = 'run-3.dlog'): { dir: string; file: string } => {
    const dir = sb.classWith(rel, 'bad', { [name]: text });
    return { dir, file: join(dir, name) };
  };



  it('binary data (a NUL byte)', async () => {
    const { dir, file } = broken('binary', 'E\t1\tStart\n\u0000\u0001\u0002\u0003');
    await expectError([sb.good, dir], `distalyze: ${file}:2: binary data (a NUL byte near byte 10); not a text log\n  hint: if it is compressed, name it *.gz\n`);
  });

  it('binary data inside a .gz file', async () => {
    const { dir, file } = broken('binary-gz', gzip('E\t1\tStart\nE\t2\tEnd\u0000\n'), 'run-3.dlog.gz');
    await expectError([sb.good, dir], `distalyze: ${file}:2: binary data (a NUL byte near byte 17); not a text log\n`);
  });

  it('binary data far into a file names the line it is on, across 64 KB chunks', async () => {
    const records = Array.from({ length: 9999 }, (_, i) => `E\t${1000 + i / 1000}\tWork`).join('\n');
    const text = `${records}\nE\t1010\tEnd\u0000\n`;
    const { dir, file } = broken('binary-far', text);
    const at = Buffer.byteLength(text) - 2;
    await expectError([sb.good, dir], `distalyze: ${file}:10000: binary data (a NUL byte near byte ${at}); not a text log\n  hint: if it is compressed, name it *.gz\n`);
  });

  it('a truncated .gz file', async () => {
    const { dir, file } = broken('truncated-gz', truncatedGzip(validInstance(3, true)), 'run-3.dlog.gz');
    await expectError([sb.good, dir], `distalyze: ${file}: truncated gzip data (unexpected end of file)\n`);
  });

  it('a corrupt .gz file', async () => {
    const { dir, file } = broken('corrupt-gz', corruptGzip(validInstance(3, true)), 'run-3.dlog.gz');
    await expectError([sb.good, dir], `distalyze: ${file}: corrupt gzip data (invalid block type)\n`);
  });

  it('a .gz file that is not gzip at all', async () => {
    const { dir, file } = broken('not-gz', validInstance(3, true), 'run-3.dlog.gz');
    await expectError([sb.good, dir], `distalyze: ${file}: corrupt gzip data (incorrect header check)\n`);
  });

  it('a valid .gz file is read like the plain one', async () => {
    const { dir } = broken('valid-gz', gzip(validInstance(3, true)), 'run-3.dlog');
    execFileSync('mv', [join(dir, 'run-3.dlog'), join(dir, 'run-3.dlog.gz')]);
    const plain = await accepted([sb.good, sb.bad]);
    const gz = await accepted([sb.good, dir]);
    expect(testsOf(gz.doc).length).toBeGreaterThan(0);
    expect(testsOf(gz.doc)).toEqual(testsOf(plain.doc));
  });

  it('a UTF-8 BOM is accepted: the same analysis', async () => {
    const { dir } = broken('bom', withBom(validInstance(3, true)));
    const plain = await accepted([sb.good, sb.bad]);
    const bom = await accepted([sb.good, dir]);
    expect(bom.doc.classes.bad.skippedLines).toBe(0);
    expect(testsOf(bom.doc)).toEqual(testsOf(plain.doc));
  });

  it('CRLF line ends are accepted: the same analysis', async () => {
    const d = sb.classWith('crlf', 'bad', Object.fromEntries([1, 2, 3, 4].map((i) => [`run-${i}.dlog`, withCrlf(validInstance(i, true))])));
    const plain = await accepted([sb.good, sb.bad]);
    const crlf = await accepted([sb.good, d]);
    expect(crlf.doc.classes.bad.skippedLines).toBe(0);
    expect(testsOf(crlf.doc)).toEqual(testsOf(plain.doc));
  });

  it('a line over 1 MiB is skipped and counted, not held', async () => {
    const length = 1024 * 1024 + 100;
    const { dir, file } = broken('long-line', withLongLine(validInstance(3, true), length));
    const plain = await accepted([sb.good, sb.bad]);
    const long = await accepted([sb.good, dir]);
    expect(long.doc.classes.bad.skippedLines).toBe(1);
    expect(long.doc.classes.bad.skippedExamples).toEqual([`${file}:3: line of ${length} characters is over the 1 MiB limit`]);
    expect(long.text).toContain('  skipped 1 line');
    expect(long.text).toContain(`    ${file}:3: line of ${length} characters is over the 1 MiB limit\n`);
    expect(testsOf(long.doc)).toEqual(testsOf(plain.doc));
  });

  it('a line over 1 MiB without a final newline is counted too', async () => {
    const length = 2 * 1024 * 1024;
    const { dir, file } = broken('long-last-line', `${validInstance(3, true)}${'y'.repeat(length)}`);
    const long = await accepted([sb.good, dir]);
    expect(long.doc.classes.bad.skippedExamples).toEqual([`${file}:9: line of ${length} characters is over the 1 MiB limit`]);
  });

  it('--strict: a line over 1 MiB is an error', async () => {
    const length = 1024 * 1024 + 1;
    const { dir, file } = broken('long-line-strict', withLongLine(validInstance(3, true), length));
    await expectError([sb.good, dir, '--strict'], `distalyze: ${file}:3: line of ${length} characters is over the 1 MiB limit (--strict)\n`);
  });

  it('a line that is no record is counted and shown', async () => {
    const { dir, file } = broken('not-a-record', replaceLine(validInstance(3, true), 3, 'hello world'));
    const r = await accepted([sb.good, dir]);
    expect(r.doc.classes.bad.skippedLines).toBe(1);
    expect(r.doc.classes.bad.skippedExamples).toEqual([`${file}:3: not a record: 'hello world'`]);
    expect(r.text).toContain(`  skipped 1 line that was not a record (good 0, bad 1), e.g.:\n    ${file}:3: not a record: 'hello world'\n`);
  });

  it('several skipped lines: counted per class, the first few shown', async () => {
    const bad = sb.classWith('not-records-bad', 'bad', { 'run-3.dlog': `${validInstance(3, true)}junk 1\njunk 2\n` });
    const good = sb.classWith('not-records-good', 'good', { 'run-1.dlog': `junk 0\n${validInstance(1, false)}` });
    const r = await accepted([good, bad]);
    expect(r.text).toContain(`  skipped 3 lines that were not records (good 1, bad 2), e.g.:\n    ${good}/run-1.dlog:1: not a record: 'junk 0'\n    ${bad}/run-3.dlog:9: not a record: 'junk 1'\n    ${bad}/run-3.dlog:10: not a record: 'junk 2'\n`);
  });

  it('--strict: a line that is no record is an error', async () => {
    const { dir, file } = broken('not-a-record-strict', replaceLine(validInstance(3, true), 3, 'hello world'));
    await expectError([sb.good, dir, '--strict'],
      `distalyze: ${file}:3: not a record: 'hello world' (--strict)\n  hint: records are I/E/S lines with TAB-separated fields; use --translator for raw logs\n`);
  });

  it('a timestamp in an unknown format', async () => {
    const { dir, file } = broken('bad-timestamp', replaceLine(validInstance(3, true), 4, 'E\t20/11/2026 10:00:01\tWork'));
    await expectError([sb.good, dir],
      `distalyze: ${file}:4: timestamp '20/11/2026 10:00:01' is neither decimal seconds nor ISO-8601\n  hint: e.g. 1763632801.25 or 2026-11-20T10:00:01.250Z\n`);
  });

  it('an impossible ISO-8601 date', async () => {
    const { dir, file } = broken('bad-date', replaceLine(validInstance(3, true), 4, 'E\t2026-02-30T10:00:01Z\tWork'));
    await expectError([sb.good, dir],
      `distalyze: ${file}:4: timestamp '2026-02-30T10:00:01Z' is neither decimal seconds nor ISO-8601\n  hint: e.g. 1763632801.25 or 2026-11-20T10:00:01.250Z\n`);
  });

  for (const value of ['NaN', 'inf', '-Infinity', '12abc', '0x1f', '', ' 12', '1e999']) {
    it(`a state value '${value}'`, async () => {
      const { dir, file } = broken(`value-${Buffer.from(value).toString('hex')}`, replaceLine(validInstance(3, true), 6, `S\t1030.5\tqueue\t${value}`));
      await expectError([sb.good, dir], `distalyze: ${file}:6: state 'queue' has value '${value}', not a finite decimal number\n`);
    });
  }

  it('an event without a name', async () => {
    const { dir, file } = broken('no-name', replaceLine(validInstance(3, true), 3, 'E\t1030.5'));
    await expectError([sb.good, dir], `distalyze: ${file}:3: event record needs a timestamp and a name: E<TAB>t<TAB>name\n`);
  });

  it('timestamps going backwards are accepted: sorted, with a note', async () => {
    const lines = validInstance(3, true).trimEnd().split('\n');
    const shuffled = [lines[0], ...lines.slice(1).reverse()].join('\n');
    const { dir } = broken('backwards', `${shuffled}\n`);
    const plain = await accepted([sb.good, sb.bad]);
    const back = await accepted([sb.good, dir]);
    expect(noteLines(back.text)).toContain('1 instance(s) had timestamps going backwards; their records were sorted by time');
    expect(testsOf(back.doc)).toEqual(testsOf(plain.doc));
  });

  it('a CSV file without the required columns', async () => {
    const { dir, file } = broken('csv-header', 'time,what\n1,Start\n', 'run-3.csv');
    await expectError([sb.good, dir], `distalyze: ${file}:1: CSV header lacks column(s) kind, timestamp, name; expected kind,timestamp,name,value[,instance]\n`);
  });

  it('binary data in a CSV file', async () => {
    const { dir, file } = broken('csv-binary', 'kind,timestamp,name,value\nE,1,Start,\nE,2,En\u0000d,\n', 'run-3.csv');
    await expectError([sb.good, dir], `distalyze: ${file}:3: binary data (a NUL byte near byte 43); not a text table\n  hint: if it is compressed, name it *.gz\n`);
  });

  it('binary data in a gzipped TSV file', async () => {
    const { dir, file } = broken('tsv-binary', gzip('kind\ttimestamp\tname\tvalue\nE\t1\tSt\u0000art\t\n'), 'run-3.tsv.gz');
    await expectError([sb.good, dir], `distalyze: ${file}:2: binary data (a NUL byte near byte 32); not a text table\n`);
  });

  it('a CSV record over 1 MiB (an unclosed quote early in a big file) is an error, not held', async () => {
    const { dir, file } = broken('csv-huge', `kind,timestamp,name,value\nE,1,"Start,\n${'E,2,End,\n'.repeat(200_000)}`, 'run-3.csv');
    await expectError([sb.good, dir], `distalyze: ${file}:116510: a CSV record grows over the 1 MiB limit by this line\n  hint: an unclosed quote (") makes the rest of the file one field\n`);
  });

  it('a CSV row with more fields than the header (an unquoted comma in a name)', async () => {
    const { dir, file } = broken('csv-extra', 'kind,timestamp,name,value\nE,1,Start,\nE,2,End, at last,\n', 'run-3.csv');
    await expectError([sb.good, dir], `distalyze: ${file}:3: row has 5 fields, the header 4\n  hint: a field holding a comma must be quoted: "a,b"\n`);
  });

  it('a TSV row with more fields than the header', async () => {
    const { dir, file } = broken('tsv-extra', 'kind\ttimestamp\tname\nE\t1\tStart\tsurplus\n', 'run-3.tsv');
    await expectError([sb.good, dir], `distalyze: ${file}:2: row has 4 fields, the header 3\n  hint: a field holding a TAB must be quoted: "a<TAB>b"\n`);
  });

  it('a CSV row with an unclosed quote', async () => {
    const { dir, file } = broken('csv-quote', 'kind,timestamp,name,value\nE,1,Start,\nE,2,"End,\n', 'run-3.csv');
    await expectError([sb.good, dir], `distalyze: ${file}:3: not valid CSV: Quote Not Closed: the parsing is finished with an opening quote at line 3\n`);
  });
});

describe('options', () => {
  it('an unknown option', async () => {
    await expectError([sb.good, sb.bad, '--bogus'], "distalyze: unknown option '--bogus'\n");
  });

  it('an option without its value', async () => {
    await expectError([sb.good, sb.bad, '--alpha'], "distalyze: option '--alpha <p>' argument missing\n");
  });

  it('--json - and --dot - both on stdout', async () => {
    const r = await run(sb.good, sb.bad, '--json', '-', '--dot', '-');
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'distalyze: --dot - and --json - both write to standard output; send one of them to a file\n' });
  });

  it('--metric with --event-metric', async () => {
    await expectError([sb.good, sb.bad, '--metric', 'End', '--event-metric', 'End'],
      'distalyze: --metric sets both kinds; use it alone, or --event-metric / --state-metric instead\n');
  });

  it('--html -', async () => {
    const r = await run(sb.good, sb.bad, '--html', '-');
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'distalyze: --html needs a file name (the report is one self-contained file)\n' });
  });

  it('a value out of range', async () => {
    await expectError([sb.good, sb.bad, '--jobs', '0'], 'distalyze: --jobs 0: must be a whole number from 1 to 64\n');
  });
});

describe('errors quoting names from the logs stay one line', () => {
  it('a file name with a newline and an escape sequence', async () => {
    const dir = sb.classWith('odd-file-name', 'bad', { 'a\nb\u001b[2J.dlog': 'E\t1\tStart\nE\tsoon\tEnd\n' });
    await expectError([sb.good, dir],
      `distalyze: ${dir}/a\\x0ab\\x1b[2J.dlog:2: timestamp 'soon' is neither decimal seconds nor ISO-8601\n  hint: e.g. 1763632801.25 or 2026-11-20T10:00:01.250Z\n`);
  });

  it('a huge state name with control characters is clipped and escaped', async () => {
    const name = `\u001b]0;owned\u0007${'q'.repeat(100_000)}`;
    const { dir, file } = ((): { dir: string; file: string } => {
      const d = sb.classWith('huge-name', 'bad', { 'run-2.dlog': `E\t1\tStart\nS\t2\t${name}\tlots\n` });
      return { dir: d, file: join(d, 'run-2.dlog') };
    })();
    await expectError([sb.good, dir],
      `distalyze: ${file}:2: state '\\x1b]0;owned\\x07${'q'.repeat(50)}…' has value 'lots', not a finite decimal number\n`);
  });

  it("commander's suggestion becomes a hint line", async () => {
    await expectError([sb.good, sb.bad, '--jsn', 'x'], "distalyze: unknown option '--jsn'\n  hint: Did you mean --json?\n");
  });

  it('too many arguments: one line and the usage', async () => {
    await expectError([sb.good, sb.bad, sb.bad],
      'distalyze: too many arguments. Expected 2 arguments but got 3.\n  usage: distalyze [options] GOOD BAD (see distalyze --help)\n');
  });
});

describe('output paths', () => {
  it('an output path that is a directory: checked before the input is read', async () => {
    const r = await run(sb.path('not-read-yet'), sb.bad, '--tsv', sb.path('out', 'r.tsv'), '--json', sb.out);
    expect(r.stderr).toBe(`distalyze: --json ${sb.out}: cannot write: is a directory\n`);
    expect(r.code).toBe(2);
    expect(sb.outputs()).toEqual([]);
  });

  it('an output path in a missing directory', async () => {
    const p = sb.path('no-such-dir', 'r.html');
    const r = await run(sb.good, sb.bad, '--json', sb.path('out', 'r.json'), '--html', p);
    expect(r.stderr).toBe(`distalyze: --html ${p}: cannot write: no such file or directory\n`);
    expect(r.code).toBe(2);
    expect(existsSync(sb.path('no-such-dir'))).toBe(false);
    expect(sb.outputs()).toEqual([]);
  });

  it('an output path through a file', async () => {
    const p = join(sb.good, 'run-1.dlog', 'r.dot');
    await expectError([sb.good, sb.bad, '--dot', p], `distalyze: --dot ${p}: cannot write: a part of the path is not a directory\n`);
  });

  it('two reports to the same file', async () => {
    const p = sb.path('out', 'same');
    await expectError([sb.good, sb.bad, '--json', p, '--tsv', `${sb.out}/./same`],
      `distalyze: --json and --tsv both write to '${p}'; give each report its own file\n`);
  });

  it('an output directory nobody may write to', (ctx) => {
    const ro = sb.path('read-only');
    mkdirSync(ro, { mode: 0o555 });
    chmodSync(ro, 0o555);
    const args = [sb.good, sb.bad, '--json', sb.path('out', 'r.json'), '--html', join(ro, 'r.html')];
    const r = process.getuid?.() === 0 ? runBinaryAs(NOBODY, args) : runBinary(args);
    if (r === null) return ctx.skip('running as root, and cannot run as nobody to see EACCES');
    expect(r.stderr).toBe(`distalyze: --html ${join(ro, 'r.html')}: cannot write: permission denied\n`);
    expect(r.code).toBe(2);
    expect(sb.outputs()).toEqual([]);
  });

  it('a symbolic link as the destination is written through and stays a link', async () => {
    const real = sb.path('link-target', 'real.json');
    sb.write('link-target/real.json', 'old');
    const link = sb.path('out', 'link.json');
    symlinkSync(real, link);
    const r = await run(sb.good, sb.bad, '--json', link);
    expect(r.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect((JSON.parse(readFileSync(real, 'utf8')) as JsonDoc).classes.good.instances).toBe(INSTANCES);
    expect(readdirSync(sb.path('link-target'))).toEqual(['real.json']);
    execFileSync('rm', [link]);
  });

  it('a FIFO as the destination is written directly', async () => {
    const fifo = sb.path('report.fifo');
    execFileSync('mkfifo', [fifo]);
    let received = '';
    const reader = new Promise<void>((resolveRead, reject) => {
      const stream = createReadStream(fifo, 'utf8');
      stream.on('data', (d) => { received += String(d); });
      stream.on('end', resolveRead);
      stream.on('error', reject);
    });
    const r = await run(sb.good, sb.bad, '--tsv', fifo);
    await reader;
    expect(r.code).toBe(0);
    expect(received.split('\n')[0]).toBe('variable\tkind\tfeature\tmethod\tt\tdf\tp\tlog10p\tz\tsignificant\tseparated\tmeanGood\tmeanBad\tnGood\tnBad\teffectSize\tpresence');
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it("bash process substitution: --json >(wc -c)", () => {
    const script = `"${process.execPath}" "${ROOT}/bin/distalyze.js" "${sb.good}" "${sb.bad}" -q --json >(wc -c > "${sb.path('wc.txt')}"); echo "exit=$?"`;
    const out = execFileSync('bash', ['-c', `${script}; wait $!`], { encoding: 'utf8' }); // $!: the >(…) process
    expect(out).toContain('exit=0');
    expect(Number(readFileSync(sb.path('wc.txt'), 'utf8'))).toBeGreaterThan(1000);
  });

  it('reports are written all or nothing: a failed one removes the others', async () => {
    const dir = sb.path('staged');
    mkdirSync(dir);
    const files = new StagedOutputs();
    await files.stage(join(dir, 'a.json'), '{}', '--json');
    await files.stage(join(dir, 'b.tsv'), 'x', '--tsv');
    await expect(files.stage(join(dir, 'missing', 'c.dot'), 'digraph {}', '--dot'))
      .rejects.toThrow(`--dot ${join(dir, 'missing', 'c.dot')}: cannot write: no such file or directory`);
    expect(readdirSync(dir)).toHaveLength(2); // the two temporary files, not yet in place
    expect(readdirSync(dir).every((f) => /^\.(a\.json|b\.tsv)\.[0-9a-f]{8}\.tmp$/.test(f))).toBe(true);
    await files.discard();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reports are renamed into place only on commit', async () => {
    const dir = sb.path('committed');
    mkdirSync(dir);
    const files = new StagedOutputs();
    await files.stage(join(dir, 'a.json'), '{}', '--json');
    await files.commit();
    await files.discard();
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('a successful run writes every report and no temporary file', async () => {
    const r = await run(sb.good, sb.bad, ...sb.outputArgs());
    expect(r.code).toBe(0);
    expect(sb.outputs()).toEqual(['r.dot', 'r.html', 'r.json', 'r.tsv']);
    for (const f of sb.outputs()) execFileSync('rm', [sb.path('out', f)]);
  });
});

describe('the built executable: exit code, one line, no stack trace', () => {
  const expectBinaryError = (args: string[], stderr: string): void => {
    const r = runBinary([...args, ...sb.outputArgs()]);
    expect(r.stderr).toBe(stderr);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.code).toBe(2);
    expect(sb.outputs()).toEqual([]);
  };

  it('a missing path', () => {
    const p = sb.path('nowhere');
    expectBinaryError([sb.good, p], `distalyze: bad class: cannot read '${p}': no such file or directory\n`);
  });


  it('binary input on worker threads (--jobs 2)', () => {
    const d = sb.classWith('binary-jobs', 'good', { 'run-2.dlog': 'E\t1\tStart\nE\t2\t\u0000\n' });
    expectBinaryError([d, sb.bad, '--jobs', '2'],
      `distalyze: ${join(d, 'run-2.dlog')}:2: binary data (a NUL byte near byte 14); not a text log\n  hint: if it is compressed, name it *.gz\n`);
  });


  it('a truncated .gz on worker threads', () => {
    const d = sb.classWith('truncated-jobs', 'good', { 'run-2.dlog.gz': truncatedGzip(validInstance(2, false)) });
    expectBinaryError([d, sb.bad, '--jobs', '2'], `distalyze: ${join(d, 'run-2.dlog.gz')}: truncated gzip data (unexpected end of file)\n`);
  });

  it('--strict on worker threads', () => {
    const d = sb.classWith('strict-jobs', 'good', { 'run-4.dlog': 'E\t1\tStart\nStart at 1\n' });
    expectBinaryError([d, sb.bad, '--jobs', '2', '--strict'],
      `distalyze: ${join(d, 'run-4.dlog')}:2: not a record: 'Start at 1' (--strict)\n  hint: records are I/E/S lines with TAB-separated fields; use --translator for raw logs\n`);
  });

  it('a bad state value', () => {
    const d = sb.classWith('nan-binary', 'good', { 'run-4.dlog': 'E\t1\tStart\nS\t2\tqueue\tNaN\n' });
    expectBinaryError([d, sb.bad], `distalyze: ${join(d, 'run-4.dlog')}:2: state 'queue' has value 'NaN', not a finite decimal number\n`);
  });

  it('an unknown option', () => {
    expectBinaryError([sb.good, sb.bad, '--bogus'], "distalyze: unknown option '--bogus'\n");
  });

  it('binary data on standard input', () => {
    const r = runBinary(['-', sb.bad, ...sb.outputArgs()], 'E\t1\tStart\nE\t2\u0000\n');
    expect(r.stderr).toBe('distalyze: -:2: binary data (a NUL byte near byte 13); not a text log\n  hint: if it is compressed, name it *.gz\n');
    expect(r.code).toBe(2);
    expect(sb.outputs()).toEqual([]);
  });

  it('empty standard input', () => {
    const r = runBinary([sb.good, '-', ...sb.outputArgs()], '');
    expect(r.stderr).toBe('distalyze: bad class: no instances (no records in its input)\n  hint: one file is one instance unless I records name instances\n');
    expect(r.code).toBe(2);
    expect(sb.outputs()).toEqual([]);
  });
});

describe('stdout closed early: no stack trace', () => {
  // The pipeline fixture: its JSON (~150 KB) is more than a pipe holds.
  const big = [FIXTURES.pipelineGood, FIXTURES.pipelineBad];
  const noCrash = (r: RunResult): void => {
    expect(r.stderr).not.toMatch(/internal error|EPIPE|Unhandled|\n\s+at /);
    expect(r.code).toBe(0);
  };

  it('--json - with stdout closed before the first write', async () => {
    const r = await runBinaryStdoutClosed([...big, '--json', '-', '--quiet']);
    noCrash(r);
    expect(r.stderr).toBe('');
  });

  it('--tsv -: the terminal report still reaches stderr', async () => {
    const r = await runBinaryStdoutClosed([...big, '--tsv', '-']);
    noCrash(r);
    expect(r.stderr).toMatch(/^distalyze \S+\n {2}good: 40 instances/);
  });

  it('the terminal report with stdout closed', async () => {
    const r = await runBinaryStdoutClosed(big);
    noCrash(r);
    expect(r.stderr).toBe('');
  });

  it('distalyze --json - | head -1', () => {
    const r = runBinaryIntoHead([...big, '--json', '-', '--quiet']);
    noCrash(r);
    expect(r.stdout).toBe('{\n');
  });

  it('distalyze --dot - 2>&1 | head -1 (stderr closed too)', () => {
    const r = runBinaryIntoHead([...big, '--dot', '-'], 1, true);
    noCrash(r);
    expect(r.stdout).toMatch(/^(digraph distalyze \{|distalyze \S+)\n$/);
  });

  const failingStdout = (code: string): Writable => new Writable({
    write(_chunk, _enc, done) { done(Object.assign(new Error(`write ${code}`), { code })); },
  });

  it('in-process: EPIPE on stdout ends the run quietly', async () => {
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (d: Buffer) => { text += String(d); });
    expect(await main([sb.good, sb.bad, '--json', '-'], { stdout: failingStdout('EPIPE'), stderr })).toBe(0);
    expect(text).toMatch(/^distalyze /);
  });

  it('in-process: any other failure to write stdout is one line, exit 2', async () => {
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (d: Buffer) => { text += String(d); });
    expect(await main([sb.good, sb.bad], { stdout: failingStdout('ENOSPC'), stderr })).toBe(2);
    expect(text).toBe('distalyze: cannot write to standard output: no space left on device\n');
  });

  it('a user error with stderr closed still exits 2', () => {
    const r = runBinaryIntoHead(['/no/such/dir', FIXTURES.pipelineBad], 0, true);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
  });
});

describe('hostile names', () => {
  // The pipeline fixture with two variables of its top graphs renamed, so the
  // names reach every output: the ranking, the tests and the graphs.
  const EVENT = `Flush ${HOSTILE_NAMES.esc} ${HOSTILE_NAMES.script} ${HOSTILE_NAMES.bidi}`;
  const STATE = `lock ${HOSTILE_NAMES.tab} ${HOSTILE_NAMES.c1} ${HOSTILE_NAMES.quotes}`;
  let dirs: { good: string; bad: string };
  let text: RunResult;
  let docText: string;
  let page: string | undefined;
  const htmlPage = async (): Promise<string> => {
    if (page === undefined) {
      const html = sb.path('hostile', 'r.html');
      const r = await run(dirs.good, dirs.bad, '--html', html);
      expect(r.code).toBe(0);
      page = readFileSync(html, 'utf8');
    }
    return page;
  };

  beforeAll(async () => {
    const rename = (from: string, to: string): string => {
      for (const f of readdirSync(from)) {
        const t = readFileSync(join(from, f), 'utf8').replaceAll('\tFlushEnd\n', `\t${EVENT}\n`).replaceAll('\tlock_wait_ms\t', `\t${STATE}\t`);
        sb.write(`${to}/${f}`, t);
      }
      return sb.path(to);
    };
    dirs = { good: rename(FIXTURES.pipelineGood, 'hostile/good'), bad: rename(FIXTURES.pipelineBad, 'hostile/bad') };
    text = await run(dirs.good, dirs.bad, '--json', sb.path('hostile', 'r.json'), '--tsv', sb.path('hostile', 'r.tsv'), '--dot', sb.path('hostile', 'r.dot'));
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    docText = readFileSync(sb.path('hostile', 'r.json'), 'utf8');
  });

  it('JSON: the names round-trip exactly, in tests and graphs', () => {
    const doc = JSON.parse(docText) as JsonDoc;
    const names = new Set(doc.tests.map((t) => t.variable));
    expect(names).toContain(EVENT);
    expect(names).toContain(STATE);
    const inGraphs = doc.graphs.flatMap((g) => g.nodes.map((n) => n.variable));
    expect(inGraphs).toContain(EVENT);
    expect(inGraphs).toContain(STATE);
    expect(docText).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/); // JSON.stringify escapes C0; C1 and U+2028 are valid JSON
  });

  it('TSV: every row has 17 columns and the names unescape back', () => {
    const rows = readFileSync(sb.path('hostile', 'r.tsv'), 'utf8').trimEnd().split('\n').map((l) => l.split('\t'));
    expect(new Set(rows.map((r) => r.length))).toEqual(new Set([17]));
    const unescape = (s: string): string => s.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c));
    const names = new Set(rows.slice(1).map((r) => unescape(r[0] as string)));
    expect(names).toContain(EVENT);
    expect(names).toContain(STATE);
  });

  it('DOT: labels are escaped and Graphviz renders it', () => {
    const dot = readFileSync(sb.path('hostile', 'r.dot'), 'utf8');
    expect(dot).not.toMatch(CONTROL_IN_FILES);
    expect(dot).toContain('label="Flush Esc\uFFFD[31mred\uFFFDbell\\ncr <script>alert(1)</script> bidi \u202eevil\u202c \u2066iso\u2069\\nz = ');
    expect(dot).toContain('label="lock Tab\uFFFDhere Csi\uFFFD2J\uFFFDnext\u2028line quo\\"te\\\\n \\\\l {x} -> y; }\\nz = ');
    let svg: string;
    try {
      svg = execFileSync('dot', ['-Tsvg', sb.path('hostile', 'r.dot')], { encoding: 'utf8' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // no Graphviz here; cli.test.ts insists on it
      throw err;
    }
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('the terminal report has no raw control characters from the logs', () => {
    expect(text.stdout).not.toMatch(RAW_CONTROL);
    expect(text.stdout).toContain('Flush Esc\\x1b[31mred\\x07bell\\x0dcr <script>alert(1)</script>');
    expect(text.stdout).toContain('lock Tab\\x09here Csi\\x9b2J\\x85next\\u2028line');
    expect(text.stdout).toContain('<script>alert(1)</script> bidi \\u202eevil\\u202c \\u2066iso\\u2069');
  });

  it('HTML: no markup from a name survives', async () => {
    const page = await htmlPage();
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  // src/report/html/escape.ts (not this files) passes C0/C1 control
  // characters of names into the page's text: not markup, but invalid HTML.
  // This test flips to failing when that is fixed; then make it a plain `it`.
  it('HTML: no raw control characters from names', async () => {
    expect(await htmlPage()).not.toMatch(CONTROL_IN_FILES);
  });


  it('a name with a newline (CSV quoting) is escaped everywhere', async () => {
    const csv = (bad: boolean, i: number): string => {
      const rows = ['kind,timestamp,name,value', `E,${10 * i},Start,`, `E,${10 * i + 0.5},"two\nlines",`, `S,${10 * i + 0.5},"q\r\nx",${bad ? 9 + (i % 3) : 3 + (i % 3)}`, `E,${10 * i + (bad ? 2 : 1) + 0.1 * (i % 3)},End,`];
      return `${rows.join('\n')}\n`;
    };
    for (let i = 1; i <= 4; i++) {
      sb.write(`newline/good/r${i}.csv`, csv(false, i));
      sb.write(`newline/bad/r${i}.csv`, csv(true, i));
    }
    const r = await run(sb.path('newline/good'), sb.path('newline/bad'), '--tsv', sb.path('newline', 'r.tsv'), '--dot', sb.path('newline', 'r.dot'));
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain('two\\x0alines');
    const tsv = readFileSync(sb.path('newline', 'r.tsv'), 'utf8');
    expect(tsv).toContain('two\\nlines\tevent\t');
    expect(tsv).toContain('q\\r\\nx\tstate\t');
    expect(new Set(tsv.trimEnd().split('\n').map((l) => l.split('\t').length))).toEqual(new Set([17]));
  });
});

// --- Issue 11: never lose a user's file, never succeed silently ------------

/** A pass-through module translator: dlog E lines in, events out. */
const PASS_MJS = 'export default (l, c) => { const p = l.split("\\t"); if (p[0] === "E") c.event(+p[1], p[2]); };\n';

describe('translate never deletes what it was not asked to write', () => {
  it('-o DIR that holds one of the inputs is refused, and the input stays', async () => {
    const pass = sb.write('t1/pass.mjs', PASS_MJS);
    const t = sb.path('t1', 'in');
    sb.write('t1/in/i1.dlog', validInstance(1, false));
    sb.write('t1/in/i2.dlog', validInstance(2, false));
    const r = await run('translate', '--translator', pass, join(t, 'i1.dlog'), '-o', t);
    expect(r.stderr).toBe(`distalyze: ${t}: -o: directory holds input ${join(t, 'i1.dlog')}; translate would overwrite its own input\n`);
    expect(r.code).toBe(2);
    expect(readdirSync(t).sort()).toEqual(['i1.dlog', 'i2.dlog']);
    expect(readFileSync(join(t, 'i1.dlog'), 'utf8')).toBe(validInstance(1, false));
  });

  it('-o DIR holding .dlog files not written by translate is refused, and they stay', async () => {
    const pass = sb.write('t2/pass.mjs', PASS_MJS);
    sb.write('t2/out/mine.dlog', 'E\t1\tMine\n');
    const r = await run('translate', '--translator', pass, sb.good, '-o', sb.path('t2', 'out'));
    expect(r.stderr).toBe(`distalyze: ${sb.path('t2', 'out')}: -o: directory is not empty (it holds mine.dlog)\n` +
      '  hint: translate writes into a new or empty directory, or one holding only the files of an earlier translate run (they are replaced)\n');
    expect(r.code).toBe(2);
    expect(readdirSync(sb.path('t2', 'out'))).toEqual(['mine.dlog']);
  });

  it('a rerun into its own output directory replaces only its own files', async () => {
    const pass = sb.write('t3/pass.mjs', PASS_MJS);
    const out = sb.path('t3', 'out');
    expect((await run('translate', '--translator', pass, sb.good, '-o', out)).code).toBe(0);
    const first = readdirSync(out).sort();
    expect(first).toEqual(['.distalyze-translate', 'run-1.dlog.dlog', 'run-2.dlog.dlog', 'run-3.dlog.dlog', 'run-4.dlog.dlog']);
    const r = await run('translate', '--translator', pass, join(sb.good, 'run-1.dlog'), '-o', out);
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['.distalyze-translate', 'run-1.dlog.dlog']);
  });
});

describe('reports never replace what is not theirs', () => {
  it('--json /dev/stdout >> log.txt appends in place: the earlier content and the terminal report stay', () => {
    const log = sb.write('append/log.txt', 'earlier line\n');
    const inode = statSync(log).ino;
    const r = runBinaryShell([sb.good, sb.bad, '--json', '/dev/stdout'], `>> '${log}'`);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const text = readFileSync(log, 'utf8');
    expect(statSync(log).ino).toBe(inode);
    expect(text.startsWith('earlier line\n{\n')).toBe(true);
    expect(text).toMatch(/\n}\ndistalyze \S+\n {2}good: 4 instances/);
    expect(readdirSync(sb.path('append'))).toEqual(['log.txt']);
  });

  it('a report path that is one of the input logs is refused, and the log stays', async () => {
    const input = join(sb.bad, 'run-1.dlog');
    const r = await run(sb.good, sb.bad, '--json', input);
    expect(r.stderr).toBe(`distalyze: --json ${input}: cannot write: it is the input file ${input}\n`);
    expect(r.code).toBe(2);
    expect(readFileSync(input, 'utf8')).toBe(validInstance(1, true));
  });

  it('a report path that leads to an input log through a symbolic link is refused', async () => {
    const input = join(sb.good, 'run-2.dlog');
    const link = sb.path('out', 'link-to-input.json');
    symlinkSync(input, link);
    onTestFinished(() => { execFileSync('rm', [link]); });
    const r = await run(sb.good, sb.bad, '--tsv', link);
    expect(r.stderr).toBe(`distalyze: --tsv ${link}: cannot write: it is the input file ${input}\n`);
    expect(r.code).toBe(2);
    expect(readFileSync(input, 'utf8')).toBe(validInstance(2, false));
  });

  it('a report inside a class directory is refused: the next run would read it as a log', async () => {
    const d = sb.classWith('report-inside', 'good', {});
    const r = await run(d, sb.bad, '--json', join(d, 'r.json'));
    expect(r.stderr).toBe(`distalyze: --json ${join(d, 'r.json')}: cannot write: it is inside the good class directory ${d}, whose every file is read as a log\n`);
    expect(r.code).toBe(2);
    expect(readdirSync(d).sort()).toEqual(['run-1.dlog', 'run-2.dlog', 'run-3.dlog', 'run-4.dlog']);
  });

  it('--json /dev/stdout with --tsv -: both on standard output, refused', async () => {
    const r = await run(sb.good, sb.bad, '--json', '/dev/stdout', '--tsv', '-');
    expect(r.stderr).toBe("distalyze: --json and --tsv both write to '/dev/stdout'; give each report its own file\n");
    expect(r.code).toBe(2);
  });

  it('a report path that is a hard link to an input log is refused', async () => {
    const input = join(sb.good, 'run-3.dlog');
    const link = sb.path('out', 'hard.json');
    execFileSync('ln', [input, link]);
    onTestFinished(() => { execFileSync('rm', [link]); });
    const r = await run(sb.good, sb.bad, '--json', link);
    expect(r.stderr).toBe(`distalyze: --json ${link}: cannot write: it is the input file ${input}\n`);
    expect(r.code).toBe(2);
    expect(readFileSync(input, 'utf8')).toBe(validInstance(3, false));
  });

  it('two reports that resolve to the same file through a symbolic link are refused', async () => {
    const real = sb.write('same-real/r.txt', 'old');
    const link = sb.path('same-real', 'link.txt');
    symlinkSync(real, link);
    const r = await run(sb.good, sb.bad, '--json', real, '--tsv', link);
    expect(r.stderr).toBe(`distalyze: --json and --tsv both write to '${real}'; give each report its own file\n`);
    expect(r.code).toBe(2);
    expect(readFileSync(real, 'utf8')).toBe('old');
  });

  it('--tsv r.tsv --json /dev/full: exit 2 and r.tsv keeps its old content', () => {
    const tsv = sb.write('full/r.tsv', 'old report\n');
    const r = runBinary([sb.good, sb.bad, '--tsv', tsv, '--json', '/dev/full']);
    expect(r.stderr).toBe('distalyze: --json /dev/full: cannot write: no space left on device\n');
    expect(r.code).toBe(2);
    expect(readFileSync(tsv, 'utf8')).toBe('old report\n');
    expect(readdirSync(sb.path('full'))).toEqual(['r.tsv']);
  });
});

describe('signals: clean up, exit 128 + the signal number', () => {
  it('SIGTERM while reports are written: no temporary file left, the old report kept, exit 143', async () => {
    const dir = sb.path('sig-reports');
    mkdirSync(dir);
    const fifo = join(dir, 'nobody-reads.fifo');
    execFileSync('mkfifo', [fifo]);
    sb.write('sig-reports/r.tsv', 'old\n');
    // The FIFO has no reader: writing it blocks, after r.tsv's temporary file is written.
    const r = await runBinaryThenSignal([sb.good, sb.bad, '--json', fifo, '--tsv', join(dir, 'r.tsv')],
      () => readdirSync(dir).some((f) => f.endsWith('.tmp')), 'SIGTERM');
    expect(r.code).toBe(143);
    expect(r.stderr).toBe('distalyze: interrupted by SIGTERM\n');
    expect(readdirSync(dir).sort()).toEqual(['nobody-reads.fifo', 'r.tsv']);
    expect(readFileSync(join(dir, 'r.tsv'), 'utf8')).toBe('old\n');
  });

  for (const jobs of ['1', '2']) {
    it(`SIGINT while an executable translator runs (--jobs ${jobs}): its process group is killed, exit 130`, async () => {
      const dir = sb.path(`sig-translator-${jobs}`);
      const pids = join(dir, 'pids');
      const tr = sb.write(`sig-translator-${jobs}/tr.sh`, `#!/bin/sh\ncat "$1"\nsleep 300 &\necho $! >> '${pids}'\nwait\n`);
      chmodSync(tr, 0o755);
      onTestFinished(() => {
        for (const pid of existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').map(Number) : []) {
          try { process.kill(pid); } catch { /* gone, as it should be */ }
        }
      });
      // Once every worker runs the program (one per worker): a program started at the very moment of the signal may escape.
      const running = (): number => (existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').length : 0);
      const r = await runBinaryThenSignal([sb.good, sb.bad, '--translator', tr, '--jobs', jobs], () => running() >= Number(jobs), 'SIGINT');
        expect(r.code).toBe(130);
      expect(r.stderr).toBe('distalyze: interrupted by SIGINT\n');
      await new Promise((done) => setTimeout(done, 200));
      const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
      expect(started.length).toBeGreaterThan(0);
      expect(started.filter(processAlive)).toEqual([]);
    });
  }
});

describe('a translator module that misbehaves: exit 2, one line naming the translator and the file', () => {
  const binaryError = (args: string[]): RunResult => {
    const r = runBinary(args);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    return r;
  };

  for (const jobs of ['1', '2']) {
    it(`a module calling process.exit(0) (--jobs ${jobs})`, () => {
      const mjs = sb.write(`exit-${jobs}/exit.mjs`, 'export default (l, c) => { if (l.startsWith("E")) process.exit(0); };\n');
      const r = binaryError([sb.good, sb.bad, '--translator', mjs, '--jobs', jobs]);
      expect(r.stderr).toBe(`distalyze: ${join(sb.good, 'run-1.dlog')}:2: translator ${mjs} failed: it called process.exit(0)\n`);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    });

    it(`a module calling a process.exit it saved (--jobs ${jobs})`, () => {
      // With --jobs 2 whichever thread claims the bad class's file reads it (a worker or this one): the same message.
      const where = jobs === '1' ? join(sb.good, 'run-2.dlog') : join(sb.bad, 'run-2.dlog');
      const mjs = sb.write(`saved-exit-${jobs}/exit.mjs`, `const { exit } = process;\nexport default (l, c) => { if (c.file === ${JSON.stringify(where)}) exit(0); };\n`);
      const r = binaryError([sb.good, sb.bad, '--translator', mjs, '--jobs', jobs]);
      expect(r.stderr).toBe(`distalyze: ${where}: translator ${mjs} exited (exit code 0) while reading this file\n`);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    });

    it(`an async module that rejects (--jobs ${jobs})`, () => {
      const mjs = sb.write(`reject-${jobs}/reject.mjs`, 'export default async (l, c) => { if (l.startsWith("E\\t1030")) throw new Error("no luck"); };\n');
      const r = binaryError([sb.good, sb.bad, '--translator', mjs, '--jobs', jobs]);
      expect(r.stderr).toBe(`distalyze: ${join(sb.good, 'run-3.dlog')}:2: translator ${mjs} failed: no luck\n`);
      expect(r.code).toBe(2);
    });

    it(`a module that throws later, from a timer (--jobs ${jobs})`, () => {
      const mjs = sb.write(`timer-${jobs}/timer.mjs`, 'export default (l, c) => { if (l.startsWith("E\\t1030")) setTimeout(() => { throw new Error("too late"); }, 0); };\n');
      const r = binaryError([sb.good, sb.bad, '--translator', mjs, '--jobs', jobs]);
      // Blamed on the file being read when the timer fires: run-3 or one read after it.
      expect(r.stderr).toMatch(new RegExp(`^distalyze: ${sb.root}/(good|bad)/run-\\d\\.dlog: translator ${mjs} failed: too late\n$`));
      expect(r.code).toBe(2);
    });
  }

  it('a TypeScript translator on four workers: no clash between their compiled files', () => {
    // A big module (an 8 MB constant) makes writing and importing the compiled file slow enough to overlap.
    const ts = sb.write('ts-jobs/pass.ts', `const big = "${'x'.repeat(8_000_000)}";\n` +
      'export default (l: string, c: { event(t: number, n: string): void }): void => { const p = l.split("\\t"); if (p[0] === "E" && big.length > 0) c.event(+p[1]!, p[2]!); };\n');
    const r = binaryError([sb.good, sb.bad, '--translator', ts, '--jobs', '4', '--json', sb.path('ts-jobs', 'r.json')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(sb.path('ts-jobs')).sort()).toEqual(['pass.ts', 'r.json']);
  });
});

describe('standard output that fails is an error; only a reader that went away is not', () => {
  it('translate -o - > /dev/full: exit 2, one line', () => {
    const pass = sb.write('full-translate/pass.mjs', PASS_MJS);
    const r = runBinaryShell(['translate', '--translator', pass, sb.good, '-o', '-'], '> /dev/full');
    expect(r.stderr).toBe('distalyze: cannot write to standard output: no space left on device\n');
    expect(r.code).toBe(2);
  });

  it('distalyze > /dev/full: exit 2, one line', () => {
    const r = runBinaryShell([sb.good, sb.bad], '> /dev/full');
    expect(r.stderr).toBe('distalyze: cannot write to standard output: no space left on device\n');
    expect(r.code).toBe(2);
  });

  it('translate -o - | head -1: a reader that went away ends it quietly', () => {
    const pass = sb.write('head-translate/pass.mjs', PASS_MJS);
    const r = runBinaryIntoHead(['translate', '--translator', pass, sb.good, sb.bad, '-o', '-']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('I\trun-1.dlog\n');
  });
});

describe('options: bounded, and validated alike by distalyze and distalyze translate', () => {
  it('--jobs above the bound', async () => {
    await expectError([sb.good, sb.bad, '--jobs', '100000'], 'distalyze: --jobs 100000: must be a whole number from 1 to 64\n');
  });

  for (const year of ['26', '20x6', '1969', '10000']) {
    it(`--year ${year}: the same one line from both commands`, async () => {
      const pass = sb.write('year/pass.mjs', PASS_MJS);
      const message = `distalyze: --year ${year}: must be a year from 1970 to 9999, such as 2026\n`;
      const main = await run(sb.good, sb.bad, '--translator', pass, '--year', year);
      const translate = await run('translate', '--translator', pass, '--year', year, sb.good, '-o', '-');
      expect(main).toEqual({ code: 2, stdout: '', stderr: message });
      expect(translate).toEqual({ code: 2, stdout: '', stderr: message });
    });
  }
});

describe("translate's summary shows text from logs escaped", () => {
  it('control characters, C1 and bidi overrides in unmapped lines and file names', async () => {
    const pass = sb.write('summary-escape/pass.mjs', PASS_MJS);
    const file = sb.write('summary-escape/in/a\u001b[2Jb.log', `E\t1\tStart\nplain \u009b2J csi \u202eevil\u202c \u001b]0;title\u0007\n`);
    const r = await run('translate', '--translator', pass, file, '-o', '-');
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stderr).toContain(`${sb.path('summary-escape', 'in')}/a\\x1b[2Jb.log:2: no translator rule matched: 'plain \\x9b2J csi \\u202eevil\\u202c \\x1b]0;title\\x07'`);
  });
});

describe('the progress line', () => {
  it('is cleared before an error message, which starts its own line', (ctx) => {
    const dir = sb.classWith('progress-error', 'bad', { 'run-3.dlog': 'E\t1\tStart\nE\tsoon\tEnd\n' });
    const tr = sb.write('progress-error-tr/slow.sh', '#!/bin/sh\ncase "$1" in *good/run-4.dlog) sleep 1.5;; esac\ncat "$1"\n');
    chmodSync(tr, 0o755);
    const cmd = [process.execPath, join(ROOT, 'bin/distalyze.js'), sb.good, dir, '--translator', tr].map((a) => `'${a}'`).join(' ');
    // `script` runs it on a pseudo-terminal, so the progress line is drawn (not in CI).
    const env = { ...process.env };
    delete env.CI;
    let out: string;
    try {
      out = execFileSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8', env });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ctx.skip('no `script` here to give a pseudo-terminal');
      out = String((err as { stdout?: string }).stdout);
    }
    expect(out).toContain('reading: ');
    expect(out).toContain(`\r\u001b[Kdistalyze: ${join(dir, 'run-3.dlog')} (translator ${tr} output):2: timestamp 'soon' is neither decimal seconds nor ISO-8601`);
  });
});

describe('special files in a class directory: an error naming them, never a hang or a silent skip', () => {
  it('file names that are not UTF-8 (two would decode to one name)', async () => {
    const d = sb.classWith('latin1-names', 'good', {});
    writeFileSync(Buffer.from(`${d}/caf\u00e9.dlog`, 'latin1'), validInstance(5, false));
    writeFileSync(Buffer.from(`${d}/caf\u00e8.dlog`, 'latin1'), validInstance(6, false));
    await expectError([d, sb.bad], `distalyze: good class: a file name in '${d}' is not valid UTF-8 ('caf\uFFFD.dlog')\n  hint: rename it; distalyze names instances by their file names\n`);
  });

  it('a FIFO', async () => {
    const d = sb.classWith('special-fifo', 'good', {});
    execFileSync('mkfifo', [join(d, 'pipe.dlog')]);
    await expectError([d, sb.bad], `distalyze: good class: '${d}/pipe.dlog' is a FIFO, not a regular file\n  hint: distalyze reads regular files (and .gz files) only; move it out of the class directory\n`);
  });

  it('a link to a character device', async () => {
    const d = sb.classWith('special-device', 'bad', {});
    symlinkSync('/dev/null', join(d, 'null.dlog'));
    await expectError([sb.good, d], `distalyze: bad class: '${d}/null.dlog' is a character device, not a regular file\n  hint: distalyze reads regular files (and .gz files) only; move it out of the class directory\n`);
  });

  it('a socket', async () => {
    const d = sb.classWith('special-socket', 'bad', {});
    execFileSync('python3', ['-c', `import socket; socket.socket(socket.AF_UNIX).bind(${JSON.stringify(join(d, 'log.sock'))})`]);
    await expectError([sb.good, d], `distalyze: bad class: '${d}/log.sock' is a socket, not a regular file\n  hint: distalyze reads regular files (and .gz files) only; move it out of the class directory\n`);
  });
});

describe('--two-pass gives the one-pass answer when instance ids repeat', () => {
  it('a file-named instance and an I-named one with the same id, the same ids in both classes', async () => {
    // Each class: files run-1..4 (file-named), and req.dlog naming instances 'run-1.dlog', 'run-2.dlog' with I records.
    const named = (bad: boolean): string => [1, 2].map((i) => `I\trun-${i}.dlog\n${validInstance(i + 10, bad)}`).join('').replace(/\tqueue\t(\d+)/g, (_, v: string) => `\tqueue\t${Number(v) * 7}`);
    const good = sb.classWith('two-pass/good', 'good', { 'req.dlog': named(false) });
    const bad = sb.classWith('two-pass/bad', 'bad', { 'req.dlog': named(true) });
    const one = await accepted([good, bad]);
    const two = await accepted([good, bad, '--two-pass']);
    expect(one.doc.classes.good.instances).toBe(INSTANCES + 2);
    const quartiles = (doc: JsonDoc): JsonTest[] => doc.tests.filter((t) => t.feature.endsWith('.abs'));
    expect(quartiles(one.doc).length).toBeGreaterThan(0);
    expect(quartiles(two.doc)).toEqual(quartiles(one.doc));
    expect(two.doc.tests).toEqual(one.doc.tests);
  });
});

describe('a line of exactly 1 MiB ending in CRLF whose CR ends a 64 KiB chunk', () => {
  // 65535 bytes before the long line put its CR at byte 65535 + 1 MiB: the last byte of a chunk.
  const text = (): string => {
    const head = withCrlf(validInstance(3, true));
    const pad = 65535 - Buffer.byteLength(head);
    const filler = `#${'p'.repeat(pad - 3)}\r\n`;
    const long = `#${'x'.repeat(1024 * 1024 - 1)}\r\n`;
    const all = `${head}${filler}${long}E\t1040\tLate\r\n`;
    expect(Buffer.byteLength(`${head}${filler}`)).toBe(65535);
    return all;
  };

  it('is accepted by the dlog reader (it is within the limit)', async () => {
    const d = sb.classWith('limit-cr', 'bad', { 'run-3.dlog': text() });
    const r = await accepted([sb.good, d]);
    expect(r.doc.classes.bad.skippedLines).toBe(0);
    expect(r.doc.classes.bad.skippedExamples).toEqual([]);
  });

  it('is accepted by the line reader of translators', async () => {
    const keep = sb.write('limit-cr-tr/keep.mjs', 'export default (l, c) => { if (l.startsWith("#")) return l.length <= 1048576; const p = l.split("\\t"); if (p[0] === "E") c.event(+p[1], p[2]); else if (p[0] === "S") c.state(+p[1], p[2], p[3]); };\n');
    const d = sb.classWith('limit-cr-tr/bad', 'bad', { 'run-3.dlog': text() });
    const r = await accepted([sb.good, d, '--translator', keep]);
    expect(r.doc.classes.bad.skippedExamples).toEqual([]);
  });
});

describe('line ends: LF, CRLF, or a lone CR for a whole file', () => {
  const withCr = (text: string): string => text.replace(/\n/g, '\r');
  it('lone-CR files (classic Mac OS) read like LF ones', async () => {
    const d = sb.classWith('cr-only', 'bad', Object.fromEntries([1, 2, 3, 4].map((i) => [`run-${i}.dlog`, withCr(validInstance(i, true))])));
    const plain = await accepted([sb.good, sb.bad]);
    const cr = await accepted([sb.good, d]);
    expect(cr.doc.classes.bad.skippedLines).toBe(0);
    expect(testsOf(cr.doc)).toEqual(testsOf(plain.doc));
  });

  it('lone-CR files through a translator module', async () => {
    const pass = sb.write('cr-only-tr/pass.mjs', 'export default (l, c) => { const p = l.split("\\t"); if (p[0] === "E") c.event(+p[1], p[2]); else if (p[0] === "S") c.state(+p[1], p[2], p[3]); else if (l.startsWith("#")) return true; };\n');
    const d = sb.classWith('cr-only-tr/bad', 'bad', Object.fromEntries([1, 2, 3, 4].map((i) => [`run-${i}.dlog`, withCr(validInstance(i, true))])));
    const plain = await accepted([sb.good, sb.bad, '--translator', pass]);
    const cr = await accepted([sb.good, d, '--translator', pass]);
    expect(cr.doc.classes.bad.skippedLines).toBe(0);
    expect(testsOf(cr.doc)).toEqual(testsOf(plain.doc));
  });

  it('in an LF file a lone CR is part of the name; U+2028 never ends a line', async () => {
    const d = sb.classWith('cr-inside', 'bad', { 'run-1.dlog': `${validInstance(1, true)}E\t1011\tA\rB\u2028C\n` });
    const r = await accepted([sb.good, d]);
    expect(r.doc.tests.map((t) => t.variable)).toContain('A\rB\u2028C');
  });
});

describe('bytes that are not UTF-8: refused, so distinct names never merge', () => {
  const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');
  const HINT = '  hint: convert it to UTF-8 first, e.g. iconv -f ISO-8859-1 -t UTF-8\n';

  it('a dlog file with Latin-1 names (café, cafè would both become caf\uFFFD)', async () => {
    const d = sb.classWith('latin1', 'bad', { 'run-2.dlog': latin1('E\t1\tStart\nE\t2\tcaf\u00e9\nE\t3\tcaf\u00e8\n') });
    await expectError([sb.good, d], `distalyze: ${d}/run-2.dlog:2: not valid UTF-8 (byte 0xe9 near byte 17); distinct names could not be told apart\n${HINT}`);
  });

  it('the same through a translator module', async () => {
    const pass = sb.write('latin1-tr/pass.mjs', PASS_MJS);
    const d = sb.classWith('latin1-tr/bad', 'bad', { 'run-2.dlog': latin1('E\t1\tStart\nE\t2\tcaf\u00e9\n') });
    await expectError([sb.good, d, '--translator', pass], `distalyze: ${d}/run-2.dlog:2: not valid UTF-8 (byte 0xe9 near byte 17); distinct names could not be told apart\n${HINT}`);
  });

  it('a CSV file', async () => {
    const d = sb.classWith('latin1-csv', 'bad', { 'run-2.csv': latin1('kind,timestamp,name,value\nE,1,Start,\nE,2,caf\u00e9,\n') });
    await expectError([sb.good, d], `distalyze: ${d}/run-2.csv:3: not valid UTF-8 (byte 0xe9 near byte 44); distinct names could not be told apart\n${HINT}`);
  });

  it('a sequence cut off by the end of the file', async () => {
    const d = sb.classWith('utf8-cut', 'bad', { 'run-2.dlog': Buffer.concat([Buffer.from('E\t1\tStart\nE\t2\tEnd'), Buffer.from([0xe2, 0x82])]) });
    await expectError([sb.good, d], `distalyze: ${d}/run-2.dlog:2: not valid UTF-8 (an unfinished sequence at the end near byte 19); distinct names could not be told apart\n${HINT}`);
  });

  it('valid multi-byte names split across 64 KiB chunks are accepted', async () => {
    // The é straddles the first chunk's end: its first byte is byte 65535.
    const before = 'E\t1020\tStart\nE\t1021\tcaf';
    const pad = `#${'p'.repeat(65535 - before.length - 2)}\n`;
    expect(Buffer.byteLength(pad + before)).toBe(65535);
    const d = sb.classWith('utf8-split', 'bad', { 'run-2.dlog': `${pad}${before}é 日本😀\nE\t1022\tEnd\n` });
    const r = await accepted([sb.good, d]);
    expect(r.doc.tests.map((t) => t.variable)).toContain('café 日本😀');
  });
});
