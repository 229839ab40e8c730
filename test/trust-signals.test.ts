/**
 * SIGINT and SIGTERM end a run whose translator never returns (issue 54, item
 * 8; src/cli/supervise.ts): a rules file's regex that backtracks forever, a
 * module's endless loop, a TypeScript module whose top level never returns.
 * Each through the real executable: the exit status a shell sees, one line on
 * stderr, no temporary or half-written file left, within a bounded wait.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { describe, expect, it, onTestFinished } from 'vitest';
import { inProcessTranslator, SUPERVISOR_GRACE_MS } from '../src/cli/supervise.js';
import { BIN, makeSandbox, type Sandbox } from './helpers/broken-inputs.js';
import { ROOT } from './helpers/run.js';

/** After the signal, the run must have ended within this (the supervisor's grace, and slack for a loaded machine). */
const BOUND_MS = SUPERVISOR_GRACE_MS + 1400;

interface Ended {
  /** What a shell sees: the exit code, or 128 + the signal's number. */
  readonly status: number;
  readonly stderr: string;
  /** From the signal to the end. */
  readonly ms: number;
}

/** CPU seconds a process has used (/proc; 0 when it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The child processes of `pid` (the supervised run of the executable). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter((s) => s !== '').map(Number);
  } catch {
    return [];
  }
}

/**
 * The executable with `args`, sent `signal` once `ready(pid)` holds (polled every 20 ms, 30 s at most); killed
 * (and the test failed) if it has not ended BOUND_MS × 3 after the signal.
 */
function runThenSignal(args: readonly string[], ready: (pid: number) => boolean, signal: NodeJS.Signals): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.stdout.resume();
    const started = Date.now();
    let sent = 0;
    let watchdog: NodeJS.Timeout | undefined;
    const poll = setInterval(() => {
      if (!ready(child.pid as number) && Date.now() - started < 30_000) return;
      clearInterval(poll);
      sent = Date.now();
      child.kill(signal);
      watchdog = setTimeout(() => {
        for (const pid of childrenOf(child.pid as number)) process.kill(pid, 'SIGKILL');
        child.kill('SIGKILL');
      }, BOUND_MS * 3);
    }, 20);
    child.on('error', reject);
    child.on('close', (code, sig) => {
      clearInterval(poll);
      clearTimeout(watchdog);
      resolve({ status: code ?? (sig === null ? -1 : 128 + osConstants.signals[sig]), stderr, ms: sent === 0 ? -1 : Date.now() - sent });
    });
  });
}

/** Raw log4j lines, and one line of 30 000 `a` and a `!`: `(a+)+$` backtracks on it for longer than anyone waits. */
function rawClasses(sb: Sandbox, dir: string): { good: string; bad: string } {
  const lines = Array.from({ length: 20 }, (_, k) => `2026-11-20 10:00:${String(k).padStart(2, '0')},123 INFO start ${k}`);
  for (const c of ['good', 'bad']) {
    for (let f = 1; f <= 2; f++) sb.write(`${dir}/${c}/run-${f}.log`, `${lines.join('\n')}\n2026-11-20 10:01:00,000 INFO ${'a'.repeat(30_000)}!\n`);
  }
  return { good: sb.path(dir, 'good'), bad: sb.path(dir, 'bad') };
}

/** The sandbox's report directory is empty (no report, no temporary file). */
function expectNoOutput(sb: Sandbox): void {
  expect(sb.outputs()).toEqual([]);
}

describe('inProcessTranslator: which command lines run user code in distalyze\'s threads', () => {
  it('rules files and modules, as --translator F or --translator=F; not programs, not after --', () => {
    expect(inProcessTranslator(['g', 'b', '--translator', 'r.yaml'])).toBe('r.yaml');
    expect(inProcessTranslator(['translate', '--translator=t.MJS', 'in', '-o', '-'])).toBe('t.MJS');
    expect(inProcessTranslator(['g', 'b', '--translator', 't.ts', '-j2'])).toBe('t.ts');
    expect(inProcessTranslator(['g', 'b', '--translator', 'tr.sh'])).toBeNull();
    expect(inProcessTranslator(['g', 'b'])).toBeNull();
    expect(inProcessTranslator(['--', '--translator', 'r.yaml'])).toBeNull();
  });
});

describe('a translator that never returns: SIGINT and SIGTERM still end the run (exit 130, 143), one line, nothing left', () => {
  for (const jobs of ['1', '2']) {
    it(`a rules file whose regex backtracks forever (--jobs ${jobs}), SIGINT`, async () => {
      const sb = makeSandbox('distalyze-signals-');
      onTestFinished(() => sb.cleanup());
      const { good, bad } = rawClasses(sb, 'regex');
      const rules = sb.write('regex/rules.yaml', "timestamp: log4j\nrules:\n  - { match: '(a+)+$', event: never }\n  - { match: 'start', event: start }\n");
      // Ready once the run has spent half a second of CPU past its start-up: in the regex.
      const r = await runThenSignal([good, bad, '--translator', rules, '--jobs', jobs, ...sb.outputArgs()],
        (pid) => childrenOf(pid).some((c) => cpuSeconds(c) >= 0.8), 'SIGINT');
      expect(r.status).toBe(130);
      expect(r.stderr).toMatch(/^distalyze: interrupted by SIGINT[^\n]*\n$/);
      expect(r.ms).toBeLessThan(BOUND_MS);
      expectNoOutput(sb);
    });

    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      it(`a module in an endless loop (--jobs ${jobs}), ${signal}`, async () => {
        const sb = makeSandbox('distalyze-signals-');
        onTestFinished(() => sb.cleanup());
        const { good, bad } = rawClasses(sb, 'loop');
        const looping = sb.path('loop', 'looping');
        const mjs = sb.write('loop/loop.mjs', `import { writeFileSync } from 'node:fs';\n` +
          `export default (line) => { if (line.includes('start 5')) { writeFileSync(${JSON.stringify(looping)}, 'x'); for (;;) {} } };\n`);
        const r = await runThenSignal([good, bad, '--translator', mjs, '--jobs', jobs, ...sb.outputArgs()], () => existsSync(looping), signal);
        expect(r.status).toBe(signal === 'SIGINT' ? 130 : 143);
        expect(r.stderr).toMatch(new RegExp(`^distalyze: interrupted by ${signal}[^\\n]*\\n$`));
        expect(r.ms).toBeLessThan(BOUND_MS);
        expectNoOutput(sb);
      });
    }
  }

  it('a TypeScript module whose top level never returns: its compiled copy is removed', async () => {
    const sb = makeSandbox('distalyze-signals-');
    onTestFinished(() => sb.cleanup());
    const { good, bad } = rawClasses(sb, 'ts');
    const looping = sb.path('ts', 'looping');
    sb.write('ts/loop.ts', `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(looping)}, 'x');\nfor (;;) {}\n` +
      'export default (line: string): boolean => line.length > 0;\n');
    const r = await runThenSignal([good, bad, '--translator', sb.path('ts', 'loop.ts'), '--jobs', '1'], () => existsSync(looping), 'SIGINT');
    expect(r.status).toBe(130);
    expect(r.stderr).toMatch(/^distalyze: interrupted by SIGINT[^\n]*\n$/);
    expect(r.ms).toBeLessThan(BOUND_MS);
    expect(readdirSync(sb.path('ts')).sort()).toEqual(['bad', 'good', 'loop.ts', 'looping']);
  });
});
