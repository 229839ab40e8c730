/**
 * Issue 54, items 7, 11 and 12: what the user's files and code do while we
 * read is reported as theirs, in one line naming the file (exit 2), and never
 * lands in our standard output. Through the built executable (exit codes,
 * stack traces, worker threads): `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBinary } from './helpers/run.js';

let root = '';
const at = (...parts: string[]): string => join(root, ...parts);

function mk(dir: string, shift: number): void {
  mkdirSync(dir, { recursive: true });
  for (let k = 1; k <= 4; k++) writeFileSync(join(dir, `i${k}.dlog`), `E\t0\tStart\nS\t0.1\tq\t${k + shift}\nE\t${1 + shift}.${k}\tEnd\n`);
}

/** Raw logs `t=SECONDS NAME`, one instance per file. */
function raw(dir: string, shift: number): void {
  mkdirSync(dir, { recursive: true });
  for (let k = 1; k <= 4; k++) writeFileSync(join(dir, `n${k}.log`), `t=0 start\nt=${k + shift}.5 end\n`);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'distalyze-trust-reading-'));
  mk(at('g'), 0);
  mk(at('b'), 1);
  raw(at('rg'), 0);
  raw(at('rb'), 3);
});

describe('item 11: a corrupt .gz is the file\'s error, on every path', () => {
  it('the first file of a class (read by the sniff before the reading): one line naming it, exit 2', () => {
    mk(at('bz'), 0);
    writeFileSync(at('bz', 'a.dlog.gz'), Buffer.from('1f8b0800676172626167650a', 'hex'));
    for (const jobs of [[], ['-j1'], ['-j2']]) {
      const r = runBinary([at('bz'), at('b'), ...jobs]);
      expect(r.stderr).toBe(`distalyze: ${at('bz', 'a.dlog.gz')}: truncated gzip data (unexpected end of file)\n`);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    }
  });

  it('a raw log class (template mining samples the first lines)', () => {
    raw(at('rz'), 0);
    writeFileSync(at('rz', 'a.log.gz'), Buffer.from('1f8b0800676172626167650a', 'hex'));
    const r = runBinary([at('rz'), at('rb')]);
    expect(r.stderr).toBe(`distalyze: ${at('rz', 'a.log.gz')}: truncated gzip data (unexpected end of file)\n`);
    expect(r.code).toBe(2);
  });
});

/** A translator module `name` in the sandbox: `body` is its default export's body (line, ctx). */
function translator(name: string, body: string): string {
  const path = at(name);
  writeFileSync(path, `export default function (line, ctx) {\n${body}\n}\n`);
  return path;
}

const EVENTS = "const m = /t=(\\S+) (\\w+)/.exec(line); if (m) ctx.event(Number(m[1]), m[2]);";

describe('item 12: a translator that throws what cannot be shown is still named, with the file and line', () => {
  const cases: [string, string][] = [
    ['throws-tostring.mjs', "throw { toString() { throw new Error('nested'); } };"],
    ['throws-null-proto.mjs', 'throw Object.create(null);'],
  ];
  for (const [name, body] of cases) {
    it(`${name}: on one thread, on two, and in translate`, () => {
      const path = translator(name, body);
      const expected = `distalyze: ${at('rg', 'n1.log')}:1: translator ${path} failed: it threw [object Object], which cannot be shown as text\n`;
      for (const args of [[at('rg'), at('rb'), '--translator', path, '-j1'], [at('rg'), at('rb'), '--translator', path, '-j2'], ['translate', '--translator', path, at('rg'), '-o', '-']]) {
        const r = runBinary(args);
        expect(r.stderr).toBe(expected);
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
      }
    });
  }

  it('a value that cannot be shown thrown from a timer: named too (not an internal error)', () => {
    const path = translator('throws-later.mjs', `${EVENTS}\nif (ctx.line === 1 && ctx.file.endsWith('n1.log')) setTimeout(() => { throw Object.create(null); });`);
    const r = runBinary([at('rg'), at('rb'), '--translator', path, '-j1']);
    expect(r.stderr).toMatch(new RegExp(`^distalyze: ${at('rg')}/n\\d\\.log: translator ${path} failed: it threw \\[object Object\\], which cannot be shown as text\\n$`));
    expect(r.code).toBe(2);
  });
});

describe("item 7: a translator module's console output never lands in our standard output", () => {
  /** Writes through every console method that prints to stdout: on import, per line, and later from a timer. */
  const noisy = (timer = true): string => {
    const path = at(timer ? 'noisy.mjs' : 'noisy-no-timer.mjs');
    writeFileSync(path, [
      "console.log('noise: import');",
      `let timer = ${!timer};`,
      'export default function (line, ctx) {',
      "  console.log('noise: log'); console.info('noise: info'); console.debug('noise: debug');",
      "  console.dir('noise: dir'); console.table(['noise: table']); console.count('noise: count');",
      "  if (!timer) { timer = true; setTimeout(() => console.log('noise: timer'), 0); }",
      `  ${EVENTS}`,
      '}',
    ].join('\n'));
    return path;
  };

  it('--json - parses, on one thread and on two; the noise goes to stderr', () => {
    const path = noisy();
    for (const jobs of ['-j1', '-j2']) {
      const r = runBinary([at('rg'), at('rb'), '--translator', path, '--json', '-', '-q', jobs]);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('noise');
      expect((JSON.parse(r.stdout) as { classes: { good: { instances: number } } }).classes.good.instances).toBe(4);
      for (const what of ['import', 'log', 'info', 'debug', 'dir', 'table', 'count', 'timer']) expect(r.stderr).toContain(`noise: ${what}`);
    }
  });

  it('translate -o -: standard output holds the records only', () => {
    const r = runBinary(['translate', '--translator', noisy(), at('rg'), '-o', '-']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter((l) => l !== '' && !/^[IES]\t/.test(l))).toEqual([]);
    expect(r.stderr).toContain('noise: log');
  });

  // (The library has no stdout of its own: a module's timers print where the caller's console does.)
  it('the library: a translator module\'s import and calls do not write to the caller\'s standard output', () => {
    const script = at('lib.mjs');
    writeFileSync(script, `const { distalyze } = await import(${JSON.stringify(join(import.meta.dirname, '..', 'dist', 'index.js'))});\n` +
      `await distalyze({ good: ${JSON.stringify(at('rg'))}, bad: ${JSON.stringify(at('rb'))}, translator: ${JSON.stringify(noisy(false))}, jobs: 1 });\n`);
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('noise: log');
  });
});

describe('beyond: a translator program that leaves a process running', () => {
  it('is not waited for: what it left is stopped when it exits, and the run ends', () => {
    const path = at('leaves-sleep.sh');
    writeFileSync(path, "#!/bin/sh\n(sleep 60 &)\nsed -n 's/^t=\\([0-9.]*\\) \\(.*\\)$/E\\t\\1\\t\\2/p' \"$1\"\n");
    chmodSync(path, 0o755);
    const started = Date.now();
    const r = runBinary([at('rg'), at('rb'), '--translator', path, '--json', '-', '-q', '-j1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { classes: { bad: { instances: number } } }).classes.bad.instances).toBe(4);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe('beyond: a translator module that starts a child process', () => {
  it('is not waited for once the run is over', () => {
    const path = at('spawns.mjs');
    writeFileSync(path, `import { spawn } from 'node:child_process';\nspawn('sleep', ['60'], { stdio: 'ignore' });\nexport default function (line, ctx) {\n${EVENTS}\n}\n`);
    const started = Date.now();
    const r = runBinary([at('rg'), at('rb'), '--translator', path, '--json', '-', '-q', '-j1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { classes: { bad: { instances: number } } }).classes.bad.instances).toBe(4);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
