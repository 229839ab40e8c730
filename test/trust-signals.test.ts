/**
 * SIGINT and SIGTERM end a run whose translator never returns (issue 54, item
 * 8; src/cli/supervise.ts): a rules file's regex that backtracks forever, a
 * module's endless loop, a TypeScript module whose top level never returns.
 * Each through the real executable: the exit status a shell sees, one line on
 * stderr, no temporary or half-written file left, within a bounded wait.
 */
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { inProcessTranslator } from '../src/cli/supervise.js';
import { makeSandbox, type Sandbox } from './helpers/broken-inputs.js';
import { BOUND_MS, childrenOf, cpuSeconds, runThenSignal } from './helpers/signals.js';

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
