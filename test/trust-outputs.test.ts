/**
 * Issue 54, item 1: one output guard for every command. No report of any
 * command replaces an input log, lands inside a directory the command reads
 * (the next run would read it as a log), shares a file with another report,
 * or shares standard output with another output.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run, type RunResult } from './helpers/run.js';

let root = '';
const at = (...parts: string[]): string => join(root, ...parts);

/** Four instances of dlog, each P = 1 + shift + k/10 (the reproducer). */
function mk(dir: string, shift: number): void {
  mkdirSync(dir, { recursive: true });
  for (let k = 1; k <= 4; k++) writeFileSync(join(dir, `i${k}.dlog`), `E\t0\tStart\nS\t0.1\tq\t${k + shift}\nE\t${1 + shift}.${k}\tEnd\n`);
}

/** Every file below `dir` with its content: what must stay as it was. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out[join(e.parentPath, e.name)] = readFileSync(join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'distalyze-trust-outputs-'));
  mk(at('g'), 0);
  mk(at('b'), 1);
  for (let r = 1; r <= 3; r++) mk(at('base', `r${r}`), 0);
  for (let r = 1; r <= 6; r++) mk(at('h', `r${r}`), 0);
  mkdirSync(at('rg'));
  mkdirSync(at('rb'));
  for (let k = 1; k <= 2; k++) {
    writeFileSync(at('rg', `n${k}.log`), `2026-11-20 10:00:0${k},000 INFO a ${k}\n2026-11-20 10:00:0${k + 2},000 INFO done\n`);
    writeFileSync(at('rb', `n${k}.log`), `2026-11-20 10:00:0${k},000 INFO a ${k}\n2026-11-20 10:00:0${k + 5},000 INFO done\n`);
  }
  mkdirSync(at('out'));
  writeFileSync(at('rules.yaml'), "timestamp: iso8601\nrules:\n  - match: 'INFO (?<name>\\w+)'\n    event: '{name}'\n");
});

/** Refused: exit 2, exactly this one line, nothing on stdout, and no file of the sandbox changed or added. */
async function refused(args: string[], message: string): Promise<RunResult> {
  const before = snapshot(root);
  const r = await run(...args);
  expect(r.stderr).toBe(`distalyze: ${message}\n`);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(snapshot(root)).toEqual(before);
  return r;
}

describe('a report never replaces an input log', () => {
  it('check --junit on a log of the new run', async () => {
    await refused(['check', at('base'), at('b'), '--junit', at('b', 'i1.dlog')], `--junit ${at('b', 'i1.dlog')}: cannot write: it is the input file ${at('b', 'i1.dlog')}`);
  });

  it('check --json on a log of a baseline run', async () => {
    await refused(['check', at('base'), at('b'), '--json', at('base', 'r1', 'i1.dlog')],
      `--json ${at('base', 'r1', 'i1.dlog')}: cannot write: it is the input file ${at('base', 'r1', 'i1.dlog')}`);
  });

  it('history --html on a log of a run', async () => {
    await refused(['history', at('h'), '--html', at('h', 'r1', 'i1.dlog')], `--html ${at('h', 'r1', 'i1.dlog')}: cannot write: it is the input file ${at('h', 'r1', 'i1.dlog')}`);
  });

  it('templates -o on a raw log, named as typed (-o or --out)', async () => {
    await refused(['templates', at('rg'), at('rb'), '-o', at('rg', 'n1.log')], `-o ${at('rg', 'n1.log')}: cannot write: it is the input file ${at('rg', 'n1.log')}`);
    await refused(['templates', at('rg'), at('rb'), '--out', at('rb', 'n2.log')], `--out ${at('rb', 'n2.log')}: cannot write: it is the input file ${at('rb', 'n2.log')}`);
  });
});

describe('a new report never lands where the next run reads logs', () => {
  it('check --junit inside the baseline directory (the next nightly check would read it as a run)', async () => {
    await refused(['check', at('base'), at('b'), '--junit', at('base', 'j.xml')],
      `--junit ${at('base', 'j.xml')}: cannot write: it is inside the baseline directory ${at('base')}, whose every file is read as a log`);
    // So the next check still runs.
    expect((await run('check', at('base'), at('b'))).code).toBe(1);
  });

  it('check --json inside the new run', async () => {
    await refused(['check', at('base'), at('b'), '--json', at('b', 'r.json')],
      `--json ${at('b', 'r.json')}: cannot write: it is inside the run directory ${at('b')}, whose every file is read as a log`);
  });

  it('history --json inside the directory of runs', async () => {
    await refused(['history', at('h'), '--json', at('h', 'r.json')],
      `--json ${at('h', 'r.json')}: cannot write: it is inside the directory of runs ${at('h')}, whose every file is read as a log`);
  });

  it('history --json inside one of the runs given', async () => {
    const runs = [1, 2, 3, 4, 5, 6].map((r) => at('h', `r${r}`));
    await refused(['history', ...runs, '--json', at('h', 'r3', 'r.json')],
      `--json ${at('h', 'r3', 'r.json')}: cannot write: it is inside the run directory ${at('h', 'r3')}, whose every file is read as a log`);
  });

  it('templates -o inside a class directory', async () => {
    await refused(['templates', at('rg'), at('rb'), '-o', at('rb', 'rules.yaml')],
      `-o ${at('rb', 'rules.yaml')}: cannot write: it is inside the bad class directory ${at('rb')}, whose every file is read as a log`);
  });
});

describe('two outputs never share a file or standard output', () => {
  it('check --junit and --json to one file', async () => {
    await refused(['check', at('base'), at('b'), '--junit', at('out', 'r.out'), '--json', at('out', 'r.out')],
      `--json and --junit both write to '${at('out', 'r.out')}'; give each report its own file`);
  });

  it('history --json and --html to one file', async () => {
    await refused(['history', at('h'), '--json', at('out', 'h.out'), '--html', `${at('out')}/./h.out`],
      `--json and --html both write to '${at('out', 'h.out')}'; give each report its own file`);
  });

  it('check --github and --json - both on standard output', async () => {
    await refused(['check', at('base'), at('b'), '--github', '--json', '-'], '--github and --json - both write to standard output; send one of them to a file');
    await refused(['check', at('base'), at('b'), '--github', '--json', '/dev/stdout'], "--github and --json both write to '/dev/stdout'; give each report its own file");
  });

  it('check --github alone, and --json - alone, still write to standard output', async () => {
    const gh = await run('check', at('base'), at('b'), '--github');
    expect(gh.code).toBe(1);
    expect(gh.stdout).toMatch(/^::error /);
    const json = await run('check', at('base'), at('b'), '--json', '-');
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { passed: boolean }).passed).toBe(false);
  });

  it('the main command: --json - and --dot - as before', async () => {
    await refused([at('g'), at('b'), '--json', '-', '--dot', '-'], '--dot - and --json - both write to standard output; send one of them to a file');
  });
});

describe('beyond: an error names the option as the user typed it', () => {
  it('-j or --jobs', async () => {
    await refused([at('g'), at('b'), '-j', '0'], '-j 0: must be a whole number from 1 to 64');
    await refused([at('g'), at('b'), '-j200'], '-j 200: must be a whole number from 1 to 64');
    await refused([at('g'), at('b'), '--jobs', '0'], '--jobs 0: must be a whole number from 1 to 64');
  });

  it('translate -o or --out', async () => {
    await refused(['translate', '--translator', at('rules.yaml'), at('rg'), '--out', at('rules.yaml')], `${at('rules.yaml')}: --out: exists and is not a directory`);
    await refused(['translate', '--translator', at('rules.yaml'), at('rg'), '-o', at('rules.yaml')], `${at('rules.yaml')}: -o: exists and is not a directory`);
  });
});
