import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { registerTranslateCommand, runTranslate } from '../src/cli/translate.js';
import { listInputFiles } from '../src/parse/files.js';
import type { Translator } from '../src/parse/translator.js';
import { FileNames } from '../src/parse/translators/dlog-writer.js';
import { loadTranslator } from '../src/parse/translators/load.js';
import { recordsByInstance } from './helpers/records.js';
import { run } from './helpers/run.js';

const RAW = 'fixtures/raw';

/** Records per instance (`E t name`, `S t name value`), following the reader's instance rules. */
const records = (input: string, translator?: Translator) => recordsByInstance(input, translator !== undefined ? { translator } : {});

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Values of state `name` over all instances. */
const stateValues = (byInstance: Record<string, string[]>, name: string): number[] =>
  Object.values(byInstance).flat().filter((r) => r.startsWith('S ') && r.split(' ')[2] === name).map((r) => Number(r.split(' ')[3]));

class Capture extends PassThrough {
  text = '';
  constructor() {
    super();
    this.setEncoding('utf8');
    this.on('data', (d: string) => { this.text += d; });
  }
}

describe('examples/log4j: HBase region servers (rules, and the same in Python)', () => {
  it('one instance per file; flushes, queue lengths and writer threads; stack traces counted as untranslated', async () => {
    const translator = await loadTranslator('examples/log4j/log4j.yaml');
    const { byInstance, stats } = await records(`${RAW}/log4j/good`, translator);
    expect(Object.keys(byInstance)).toEqual(['rs-1.log', 'rs-2.log', 'rs-3.log', 'rs-4.log']);
    expect(byInstance['rs-1.log']?.slice(0, 9)).toEqual([
      'E 1795168800.266 Start',
      'E 1795168800.514 ConfigLoaded',
      'E 1795168800.534 Writer_1_run',
      'E 1795168800.55 Writer_2_run',
      'E 1795168800.57 Writer_3_run',
      'S 1795168801.534 rpc_queue 3',
      'E 1795168802.024 MemstoreFlush',
      'S 1795168802.024 flush_size_mb 138',
      'S 1795168802.024 flush_seconds 0.453',
    ]);
    expect(byInstance['rs-1.log']?.at(-1)).toBe('E 1795168812.76 Finish');
    expect(stats.skippedLines).toBe(4 * 3); // the exception and its two `at` lines, per file
    expect(stats.skippedExamples[0]).toBe(`${RAW}/log4j/good/rs-1.log:19: no translator rule matched: 'java.io.IOException: Connection reset by peer'`);
  });

  it('the planted difference: bad flushes are slower and the RPC queue longer', async () => {
    const translator = await loadTranslator('examples/log4j/log4j.yaml');
    const good = (await records(`${RAW}/log4j/good`, translator)).byInstance;
    const bad = (await records(`${RAW}/log4j/bad`, translator)).byInstance;
    expect(mean(stateValues(bad, 'flush_seconds'))).toBeGreaterThan(4 * mean(stateValues(good, 'flush_seconds')));
    expect(mean(stateValues(bad, 'rpc_queue'))).toBeGreaterThan(5 * mean(stateValues(good, 'rpc_queue')));
  });

  it('log4j.py (an executable translator) produces the very same records', async () => {
    for (const cls of ['good', 'bad']) {
      const rules = await records(`${RAW}/log4j/${cls}`, await loadTranslator('examples/log4j/log4j.yaml'));
      const python = await records(`${RAW}/log4j/${cls}`, await loadTranslator('examples/log4j/log4j.py'));
      expect(python.byInstance).toEqual(rules.byInstance);
      expect(python.stats.skippedLines).toBe(0);
    }
  });
});

describe('examples/trace-csv: one request spans three services\' files (rules, and the same as a module)', () => {
  it('groups rows by trace id across gateway.csv, auth.csv and db.csv', async () => {
    const { byInstance, stats } = await records(`${RAW}/trace-csv/good`, await loadTranslator('examples/trace-csv/trace.yaml'));
    expect(Object.keys(byInstance)).toHaveLength(10);
    expect(byInstance.cdab89241000).toEqual([
      // auth.csv, db.csv, gateway.csv: files are read in sorted order
      'E 1795168800.281 auth_check_token_start',
      'E 1795168800.294 auth_check_token_end',
      'S 1795168800.294 auth_check_token_seconds 0.013',
      'E 1795168800.296 db_query_start',
      'E 1795168800.324 db_query_end',
      'S 1795168800.324 db_query_seconds 0.028',
      'E 1795168800.278 gateway_request_start',
      'E 1795168800.328 gateway_request_end',
      'S 1795168800.328 gateway_request_seconds 0.05',
    ]);
    expect(stats.skippedLines).toBe(0); // headers are ignored by a rule
  });

  it('trace.mjs (a module translator) produces the very same records', async () => {
    for (const cls of ['good', 'bad']) {
      const rules = await records(`${RAW}/trace-csv/${cls}`, await loadTranslator('examples/trace-csv/trace.yaml'));
      const mod = await records(`${RAW}/trace-csv/${cls}`, await loadTranslator('examples/trace-csv/trace.mjs'));
      expect(mod.byInstance).toEqual(rules.byInstance);
    }
  });

  it('the planted difference: the db query is slow in bad/', async () => {
    const translator = await loadTranslator('examples/trace-csv/trace.yaml');
    const good = (await records(`${RAW}/trace-csv/good`, translator)).byInstance;
    const bad = (await records(`${RAW}/trace-csv/bad`, translator)).byInstance;
    expect(mean(stateValues(bad, 'db_query_seconds'))).toBeGreaterThan(4 * mean(stateValues(good, 'db_query_seconds')));
    expect(Math.abs(mean(stateValues(bad, 'auth_check_token_seconds')) - mean(stateValues(good, 'auth_check_token_seconds')))).toBeLessThan(0.005);
  });
});

describe('examples/syslog: hosts in one collected file (rules with --year)', () => {
  it('one instance per host; the year from the option; the day rolls over at midnight', async () => {
    const translator = await loadTranslator('examples/syslog/syslog.yaml', { year: 2026 });
    const { byInstance, stats } = await records(`${RAW}/syslog/bad`, translator);
    expect(Object.keys(byInstance).sort()).toEqual(['db-1', 'db-2', 'db-3', 'db-4', 'web-1', 'web-2', 'web-3', 'web-4']);
    expect(byInstance['web-1']).toEqual([
      'S 1794268680 link_mbps 100', // Nov  9 23:58:00 (2026)
      'E 1794268717 BackupStart',
      'E 1794268720 SnapshotDone',
      'S 1794268720 snapshot_files 9774',
      'E 1794268814 UploadDone', // Nov 10 00:00:14: 94 s of upload at 100 Mbps
      'S 1794268814 upload_seconds 94',
      'E 1794268816 Finish',
    ]);
    expect(stats.skippedLines).toBe(0);
    const good = (await records(`${RAW}/syslog/good`, translator)).byInstance;
    expect(mean(stateValues(byInstance, 'upload_seconds'))).toBeGreaterThan(8 * mean(stateValues(good, 'upload_seconds')));
  });
});

describe('distalyze translate', () => {
  it('writes one .dlog per instance that reads back to the same records, and a summary', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'distalyze-translate-')), 'out');
    const stdout = new Capture();
    const stderr = new Capture();
    const code = await runTranslate({ translator: 'examples/trace-csv/trace.yaml', inputs: [`${RAW}/trace-csv/bad`], out, strict: false }, { stdout, stderr });
    expect(code).toBe(0);
    expect(stdout.text).toBe('');
    const files = readdirSync(out).filter((f) => f !== '.distalyze-translate').sort();
    expect(files).toHaveLength(10);
    expect(files.every((f) => /^[0-9a-f]+\.dlog$/.test(f))).toBe(true);
    const direct = await records(`${RAW}/trace-csv/bad`, await loadTranslator('examples/trace-csv/trace.yaml'));
    const translated = await records(out);
    expect(translated.byInstance).toEqual(direct.byInstance);
    // The same records counted on the fly and after translate -o: events and states, not the
    // instance switches (the trace CSV interleaves its 10 traces; the .dlog files name none).
    expect(translated.stats.records).toBe(direct.stats.records);
    // 90 = the 30 + 30 + 30 lines of rules 2–4 below, one record each.
    expect(direct.stats.records).toBe(90);
    expect(stderr.text.replace(/ \([\d.]+ kB/, ' (N kB')).toBe([
      `translated 3 files (N kB, 63 lines) into 10 instances, 90 records (events and states) → ${out}`,
      'lines translated per rule:',
      '   3  rule 1 (ignore /^trace_id,/)',
      '  30  rule 2 (event ${service}_${span}_start)',
      '  30  rule 3 (event ${service}_${span}_end)',
      '  30  rule 4 (state ${service}_${span}_seconds)',
      '0 lines were not translated (no rule matched)',
      '',
    ].join('\n'));
  });

  it('-o - writes one dlog stream with I lines; the summary quotes untranslated lines', async () => {
    const stdout = new Capture();
    const stderr = new Capture();
    const code = await runTranslate({ translator: 'examples/log4j/log4j.yaml', inputs: [`${RAW}/log4j/good/rs-1.log`, `${RAW}/log4j/good/rs-2.log`], out: '-', strict: false }, { stdout, stderr });
    expect(code).toBe(0);
    const lines = stdout.text.split('\n');
    expect(lines.slice(0, 3)).toEqual(['I\trs-1.log', 'E\t1795168800.266\tStart', 'E\t1795168800.514\tConfigLoaded']);
    expect(lines.filter((l) => l.startsWith('I\t'))).toEqual(['I\trs-1.log', 'I\trs-2.log']);
    expect(stderr.text.replace(/ \([\d.]+ kB/, ' (N kB')).toBe([
      'translated 2 files (N kB, 62 lines) into 2 instances, 66 records (events and states) → stdout',
      'lines translated per rule:',
      '  14  rule 1 (ignore / DEBUG /)',
      '   2  rule 2 (event Start)',
      '   2  rule 3 (event ConfigLoaded)',
      '   6  rule 4 (event Writer_${worker}_run)',
      '  12  rule 5 (state rpc_queue)',
      '  12  rule 6 (event MemstoreFlush)',
      '  12  rule 7 (state flush_size_mb)',
      '  12  rule 8 (state flush_seconds)',
      '   4  rule 9 (event Compaction_${phase})',
      '   2  rule 10 (event SlowCall)',
      '   2  rule 11 (event Finish)',
      '6 lines were not translated (no rule matched), e.g.:',
      `  ${RAW}/log4j/good/rs-1.log:19: no translator rule matched: 'java.io.IOException: Connection reset by peer'`,
      `  ${RAW}/log4j/good/rs-1.log:20: no translator rule matched: '\\x09at sun.nio.ch.FileDispatcherImpl.read0(Native Method)'`,
      `  ${RAW}/log4j/good/rs-1.log:21: no translator rule matched: '\\x09at org.apache.hadoop.hbase.ipc.RpcServer$Connection.readAnd…'`,
      `  ${RAW}/log4j/good/rs-2.log:19: no translator rule matched: 'java.io.IOException: Connection reset by peer'`,
      `  ${RAW}/log4j/good/rs-2.log:20: no translator rule matched: '\\x09at sun.nio.ch.FileDispatcherImpl.read0(Native Method)'`,
      '',
    ].join('\n'));
  });

  it('notes the assumed year of syslog timestamps', async () => {
    const stderr = new Capture();
    await runTranslate({ translator: 'examples/syslog/syslog.yaml', inputs: [`${RAW}/syslog/good`], out: '-', strict: false }, { stdout: new Capture(), stderr });
    expect(stderr.text).toContain(`note: timestamps without a year were put in ${new Date().getUTCFullYear()} (the current year); pass --year for reproducible output`);
  });

  it('errors are one line and exit 2: a translator error, a non-empty output directory', async () => {
    const stderr = new Capture();
    expect(await runTranslate({ translator: 'fixtures/raw/translators/throwing.mjs', inputs: [`${RAW}/syslog/good`], out: '-', strict: false }, { stdout: new Capture(), stderr })).toBe(2);
    expect(stderr.text).toBe(`distalyze: ${RAW}/syslog/good/messages:3: translator fixtures/raw/translators/throwing.mjs failed: cannot parse 'Nov  9 23:58:15 web-3 kernel: [ 12.215] e1000e: eth0 NIC Link is Up 1000 Mbps Full Duplex, Flow Control: None'\n`);

    const dir = mkdtempSync(join(tmpdir(), 'distalyze-translate-'));
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const err2 = new Capture();
    expect(await runTranslate({ translator: 'examples/log4j/log4j.yaml', inputs: [`${RAW}/log4j/good`], out: dir, strict: false }, { stdout: new Capture(), stderr: err2 })).toBe(2);
    expect(err2.text).toBe(`distalyze: ${dir}: -o: directory is not empty (it holds notes.txt)\n` +
      '  hint: translate writes into a new or empty directory, or one holding only the files of an earlier translate run (they are replaced)\n');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('a rerun replaces the .dlog files of an earlier run', async () => {
    const out = mkdtempSync(join(tmpdir(), 'distalyze-translate-'));
    expect(await runTranslate({ translator: 'examples/log4j/log4j.yaml', inputs: [`${RAW}/log4j/good`], out, strict: false }, { stdout: new Capture(), stderr: new Capture() })).toBe(0);
    expect(await runTranslate({ translator: 'examples/log4j/log4j.yaml', inputs: [`${RAW}/log4j/bad`], out, strict: false }, { stdout: new Capture(), stderr: new Capture() })).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['.distalyze-translate', 'rs-1.log.dlog', 'rs-2.log.dlog', 'rs-3.log.dlog', 'rs-4.log.dlog']);
    expect(readFileSync(join(out, 'rs-1.log.dlog'), 'utf8').split('\n')[0]).toBe('I\trs-1.log');
  });
});

describe('registerTranslateCommand', () => {
  it('adds `translate` to a commander program', async () => {
    const stdout = new Capture();
    const stderr = new Capture();
    let code = -1;
    const program = new Command('distalyze').exitOverride().argument('[good]').action(() => undefined);
    registerTranslateCommand(program, { stdout, stderr }, (c) => { code = c; });
    await program.parseAsync(['translate', '--translator', 'examples/syslog/syslog.yaml', '--year', '2026', '-o', '-', `${RAW}/syslog/good`], { from: 'user' });
    expect(code).toBe(0);
    expect(stdout.text.split('\n').slice(0, 2)).toEqual(['I\tweb-1', 'S\t1794268681\tlink_mbps\t1000']);
    await program.parseAsync(['translate', '--translator', 'examples/syslog/syslog.yaml', '--year', '26', '-o', '-', `${RAW}/syslog/good`], { from: 'user' });
    expect(code).toBe(2);
    expect(stderr.text).toContain('distalyze: --year 26: must be a year from 1970 to 9999, such as 2026\n');
  });
});

describe('instance file names', () => {
  it('are safe, unique ignoring case, and deterministic', () => {
    const names = new FileNames();
    expect(['a/b', 'a_b', 'A_B', '.hidden', '', 'con', 'x'.repeat(300), 'req 1:2'].map((id) => names.claim(id))).toEqual([
      'a_b.dlog', 'a_b~2.dlog', 'A_B~3.dlog', '_hidden.dlog', '_.dlog', '_con.dlog', `${'x'.repeat(120)}.dlog`, 'req_1_2.dlog',
    ]);
  });
});

describe('a rules file with the wrong timestamp format', () => {
  const wrong = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-wrong-ts-'));
    const path = join(dir, 'wrong.yaml');
    writeFileSync(path, readFileSync('examples/log4j/log4j.yaml', 'utf8').replace(/^timestamp: log4j/m, 'timestamp: syslog'));
    return path;
  };

  it('translate reports the matched-but-unusable lines first, as what they are, apart from the lines no rule matched', async () => {
    const stdout = new Capture();
    const stderr = new Capture();
    await runTranslate({ translator: wrong(), inputs: [`${RAW}/log4j/good/rs-1.log`], out: '-', strict: false, year: 2026 }, { stdout, stderr });
    const lines = stderr.text.split('\n');
    const problem = lines.findIndex((l) => /^\d+ lines matched a rule but had no timestamp in the format 'syslog', e\.g\.:$/.test(l));
    const unmatched = lines.findIndex((l) => /^\d+ lines were not translated \(no rule matched\), e\.g\.:$/.test(l));
    expect(problem).toBeGreaterThan(0);
    expect(unmatched).toBeGreaterThan(problem);
    // Together they are every line not ignored: 31 lines, 7 DEBUG lines ignored (rule 1).
    const count = (i: number): number => Number(lines[i]!.split(' ')[0]);
    const ignored = Number(/^\s*(\d+)\s+rule 1 \(ignore/m.exec(stderr.text)![1]);
    expect(count(problem) + count(unmatched) + ignored).toBe(readFileSync(`${RAW}/log4j/good/rs-1.log`, 'utf8').trimEnd().split('\n').length);
    expect(lines[unmatched + 1]).toMatch(/rs-1\.log:\d+: no translator rule matched: 'java\.io\.IOException/);
  });

  it('the analysis names the cause in one line, not "no instances"', async () => {
    const r = await run('--translator', wrong(), '--year', '2026', `${RAW}/log4j/good`, `${RAW}/log4j/bad`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^distalyze: good class: no records: \d+ lines were skipped, e\.g\. .*rs-1\.log:1: matched a rule but had no timestamp in the format 'syslog': '2026-11-20 10:00:00,266 INFO/);
    expect(r.stderr).toContain('hint: check the translator on one file: distalyze translate --translator');
  });
});
