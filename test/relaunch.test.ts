/**
 * A large run relaunched with huge pages (src/cli/relaunch.ts): when it is
 * worth it, what environment the child gets, and that the relaunched run is
 * the same run to its caller: the same bytes out, the same exit code, the
 * same signals.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  HUGE_PAGES_MIN_FAULT_MICROS, HUGE_PAGES_TUNABLE, RELAUNCH_MIN_BYTES, RELAUNCH_TEST_ENV, RELAUNCHED_ENV,
  relaunchFor, relaunchTunables, type HugePageSystem,
} from '../src/cli/relaunch.js';
import type { InputFile } from '../src/parse/files.js';
import { namesManyInstances } from '../src/parse/sniff.js';
import { BIN, makeSandbox, processAlive, runBinaryThenSignal, type Sandbox } from './helpers/broken-inputs.js';
import { ROOT, type RunResult } from './helpers/run.js';

const MiB = 1024 * 1024;

/** A machine where the tunable works and pays: Linux, THP for memory that asks, glibc 2.36, a small page's first write 11 µs. */
const madvise: HugePageSystem = { platform: 'linux', thp: 'always [madvise] never\n', glibc: '2.36', env: {}, pageFaultMicros: 11, execArgv: [] };

describe('relaunchTunables: only where the tunable changes something', () => {
  it('Linux, madvise, glibc 2.35 or later: the tunable, after the user\'s own', () => {
    expect(relaunchTunables(madvise)).toBe('glibc.malloc.hugetlb=1');
    expect(HUGE_PAGES_TUNABLE).toBe('glibc.malloc.hugetlb=1');
    expect(relaunchTunables({ ...madvise, glibc: '2.35' })).toBe('glibc.malloc.hugetlb=1');
    expect(relaunchTunables({ ...madvise, glibc: '3.0' })).toBe('glibc.malloc.hugetlb=1');
    expect(relaunchTunables({ ...madvise, env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' } })).toBe('glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1');
  });

  it('nothing to gain: huge pages for all memory already, or for none; another C library or an older glibc; not Linux', () => {
    expect(relaunchTunables({ ...madvise, thp: '[always] madvise never\n' })).toBeNull();
    expect(relaunchTunables({ ...madvise, thp: 'always madvise [never]\n' })).toBeNull();
    expect(relaunchTunables({ ...madvise, thp: null })).toBeNull();
    expect(relaunchTunables({ ...madvise, glibc: '2.34' })).toBeNull();
    expect(relaunchTunables({ ...madvise, glibc: '1.99' })).toBeNull();
    expect(relaunchTunables({ ...madvise, glibc: undefined })).toBeNull();
    expect(relaunchTunables({ ...madvise, platform: 'darwin' })).toBeNull();
  });

  it('small pages cheap to write first (under 4 µs, where a 2 MiB page costs more than its 512): no relaunch', () => {
    expect(HUGE_PAGES_MIN_FAULT_MICROS).toBe(4);
    expect(relaunchTunables({ ...madvise, pageFaultMicros: 4 })).toBe('glibc.malloc.hugetlb=1');
    expect(relaunchTunables({ ...madvise, pageFaultMicros: 3.99 })).toBeNull();
    expect(relaunchTunables({ ...madvise, pageFaultMicros: 1.4 })).toBeNull();
    expect(relaunchTunables({ ...madvise, pageFaultMicros: Number.NaN })).toBeNull();
  });


  it('the user\'s own hugetlb setting stands (=0 turns relaunching off); a relaunched or debugged process never relaunches', () => {
    expect(relaunchTunables({ ...madvise, env: { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' } })).toBeNull();
    expect(relaunchTunables({ ...madvise, env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1' } })).toBeNull();
    expect(relaunchTunables({ ...madvise, env: { [RELAUNCHED_ENV]: '170' } })).toBeNull();
    // Under a debugger, by option or NODE_OPTIONS: the process being debugged is this one.
    expect(relaunchTunables({ ...madvise, execArgv: ['--inspect-brk=9230'] })).toBeNull();
    expect(relaunchTunables({ ...madvise, env: { NODE_OPTIONS: '--max-old-space-size=4096 --inspect' } })).toBeNull();
    expect(relaunchTunables({ ...madvise, execArgv: ['--max-old-space-size=4096'], env: { NODE_OPTIONS: '--enable-source-maps' } })).toBe('glibc.malloc.hugetlb=1');
    // (A tunable merely ending in the name is another one.)
    expect(relaunchTunables({ ...madvise, env: { GLIBC_TUNABLES: 'x.glibc.malloc.hugetlb=0' } })).toBe('x.glibc.malloc.hugetlb=0:glibc.malloc.hugetlb=1');
  });

  it('the test hook relaunches on any system, still not over the user\'s own setting', () => {
    expect(relaunchTunables({ ...madvise, platform: 'darwin', glibc: undefined, env: { [RELAUNCH_TEST_ENV]: '1' } })).toBe('glibc.malloc.hugetlb=1');
    expect(relaunchTunables({ ...madvise, env: { [RELAUNCH_TEST_ENV]: '1', GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' } })).toBeNull();
  });
});

describe('relaunchFor: large input of many instances, the system looked at only then', () => {
  const never = (): never => { throw new Error('looked at'); };
  const asked = (answer: boolean): (() => Promise<boolean>) => async () => answer;

  it('under 256 MiB: null, without looking at the files or the system', async () => {
    expect(RELAUNCH_MIN_BYTES).toBe(256 * MiB);
    expect(await relaunchFor({ totalBytes: RELAUNCH_MIN_BYTES - 1, namesManyInstances: never }, never)).toBeNull();
  });

  it('256 MiB of one instance a file: null, without looking at the system', async () => {
    expect(await relaunchFor({ totalBytes: RELAUNCH_MIN_BYTES, namesManyInstances: asked(false) }, never)).toBeNull();
  });

  it('256 MiB naming many instances: the system decides', async () => {
    expect(await relaunchFor({ totalBytes: RELAUNCH_MIN_BYTES, namesManyInstances: asked(true) }, () => madvise)).toBe('glibc.malloc.hugetlb=1');
    expect(await relaunchFor({ totalBytes: 5000 * MiB, namesManyInstances: asked(true) }, () => ({ ...madvise, pageFaultMicros: 1.4 }))).toBeNull();
  });
});

describe('namesManyInstances: a plain dlog file whose head names instances', () => {
  let sb: Sandbox;
  beforeAll(() => { sb = makeSandbox('distalyze-sniff-'); });
  afterAll(() => sb.cleanup());
  const file = (rel: string, text: string, gzip = false): InputFile => ({ path: sb.write(rel, text), relativePath: rel, gzip, size: Buffer.byteLength(text) });
  const request = (i: number): string => `I\treq-${i}\nE\t${i}.0\tRecv\nE\t${i}.5\tReply\n`;

  it('requests: yes; one run\'s log (one I record, or none): no', async () => {
    expect(await namesManyInstances(file('requests.dlog', '# requests\n' + request(1) + request(2)))).toBe(true);
    expect(await namesManyInstances(file('run.dlog', request(1) + 'E\t3.0\tEnd\n'))).toBe(false);
    expect(await namesManyInstances(file('plain.dlog', 'E\t1.0\tStart\nS\t1.5\theap_mb\t12\n'))).toBe(false);
  });

  it('only at a line\'s start, and only in the first 64 KiB', async () => {
    expect(await namesManyInstances(file('inside.dlog', 'E\t1.0\tI\tx\nE\t2.0\tI\ty\n' + request(1)))).toBe(false);
    expect(await namesManyInstances(file('late.dlog', `# ${'x'.repeat(64 * 1024)}\n${request(1)}${request(2)}`))).toBe(false);
  });

  it('tables and compressed files are not looked at', async () => {
    expect(await namesManyInstances(file('requests.csv', request(1) + request(2)))).toBe(false);
    expect(await namesManyInstances(file('requests.tsv', request(1) + request(2)))).toBe(false);
    expect(await namesManyInstances(file('requests.dlog.gz', request(1) + request(2), true))).toBe(false);
  });
});

describe('the executable relaunched (the test hook): the same run to its caller', () => {
  let sb: Sandbox;
  beforeAll(() => { sb = makeSandbox('distalyze-relaunch-'); });
  afterAll(() => sb.cleanup());

  const runWith = (args: readonly string[], env: Readonly<Record<string, string>>): RunResult => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true', ...env } });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  };

  it('the same JSON byte for byte, the same exit code, and --timings says it was relaunched', () => {
    const args = [sb.good, sb.bad, '--json', '-', '--fail-on-divergence', '--timings', '--quiet'];
    const here = runWith(args, {});
    const relaunched = runWith(args, { [RELAUNCH_TEST_ENV]: '1' });
    expect(here.code).toBe(1);
    expect(relaunched.code).toBe(1);
    expect(relaunched.stdout).toBe(here.stdout);
    expect(here.stderr).not.toContain('relaunchedAfterMs');
    expect(JSON.parse(relaunched.stderr).relaunchedAfterMs).toBeGreaterThan(0);
  });

  it('the child has the tunable after the user\'s own; an input error is the same line and exit 2', () => {
    const seen = sb.path('tunables-seen');
    const tr = sb.write('relaunch-tr/tr.sh', `#!/bin/sh\necho "$GLIBC_TUNABLES" > '${seen}'\ncat "$1"\n`);
    chmodSync(tr, 0o755);
    const r = runWith([sb.good, sb.bad, '--translator', tr, '--jobs', '1', '--quiet', '--json', '/dev/null'], { [RELAUNCH_TEST_ENV]: '1', GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' });
    expect(r.code).toBe(0);
    expect(readFileSync(seen, 'utf8')).toBe('glibc.malloc.arena_max=4:glibc.malloc.hugetlb=1\n');
    // A line that is not a record, with --strict: the relaunched run stops at it, as a run here does.
    const strictBad = sb.classWith('relaunch-strict-bad', 'bad', { 'run-2.dlog': 'E\t1000\tStart\nnot a record\n' });
    const args = [sb.good, strictBad, '--strict', '--quiet'];
    const here = runWith(args, {});
    const relaunched = runWith(args, { [RELAUNCH_TEST_ENV]: '1' });
    expect(here.stderr.split('\n')[0]).toBe(`distalyze: ${join(strictBad, 'run-2.dlog')}:2: not a record: 'not a record' (--strict)`);
    expect(relaunched).toEqual(here);
    expect(relaunched.code).toBe(2);
  });

  /** A translator that notes its parent (the relaunched process) and a program it starts, then waits; and what it noted. */
  const waitingTranslator = (name: string): { tr: string; noted: () => number[] } => {
    const pids = sb.path(name, 'pids');
    const tr = sb.write(`${name}/tr.sh`, `#!/bin/sh\ncat "$1"\nsleep 300 &\necho $PPID $! >> '${pids}'\nwait\n`);
    chmodSync(tr, 0o755);
    const noted = (): number[] => (existsSync(pids) ? readFileSync(pids, 'utf8').trim().split(/\s+/).map(Number) : []);
    onTestFinished(() => {
      for (const pid of noted()) {
        try { process.kill(pid, 'SIGKILL'); } catch { /* gone, as it should be */ }
      }
    });
    return { tr, noted };
  };

  /** The relaunched process and its translator's program, gone (200 ms after the run ended). */
  const expectGone = async (noted: () => number[]): Promise<void> => {
    await new Promise((done) => setTimeout(done, 200));
    const [child, sleeper] = noted() as [number, number];
    expect(processAlive(child)).toBe(false);
    expect(processAlive(sleeper)).toBe(false);
  };

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to the first process alone reaches the relaunched one: it cleans up (its translator killed) and both end by ${signal}`, async () => {
      const { tr, noted } = waitingTranslator(`relaunch-${signal}`);
      const r = await runBinaryThenSignal([sb.good, sb.bad, '--translator', tr, '--jobs', '1'], () => noted().length >= 2, signal, { [RELAUNCH_TEST_ENV]: '1' });
      expect(r.code).toBe(signal === 'SIGTERM' ? 143 : 130);
      expect(r.stderr).toBe(`distalyze: interrupted by ${signal}\n`);
      await expectGone(noted);
    });
  }

  it('Ctrl-C (SIGINT to the whole process group: the relaunched process gets it twice, from the terminal and relayed): exit 130, cleaned up', async () => {
    const { tr, noted } = waitingTranslator('relaunch-group');
    // Its own process group, as a shell gives a command: SIGINT to the group is what Ctrl-C sends.
    const first = spawn(process.execPath, [BIN, sb.good, sb.bad, '--translator', tr, '--jobs', '1'], {
      cwd: ROOT, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: 'true', [RELAUNCH_TEST_ENV]: '1' },
    });
    let stderr = '';
    first.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    const ended = new Promise<NodeJS.Signals | number | null>((done) => first.on('close', (code, sig) => done(sig ?? code)));
    const started = Date.now();
    while (noted().length < 2 && Date.now() - started < 20_000) await new Promise((done) => setTimeout(done, 20));
    process.kill(-(first.pid as number), 'SIGINT');
    expect(await ended).toBe('SIGINT');
    expect(stderr).toBe('distalyze: interrupted by SIGINT\n');
    await expectGone(noted);
  });
});

describe('installSignalCleanup: a second signal during the cleanup waits for it', () => {
  it('SIGTERM twice, the second while `before` runs: the temporary file is still removed, and the process ends by SIGTERM', async () => {
    const sb = makeSandbox('distalyze-signal-twice-');
    onTestFinished(() => sb.cleanup());
    const temporary = sb.write('report.tmp', 'partial');
    const busy = sb.path('busy');
    // `before` notes that it runs, then keeps the thread 400 ms: the second signal comes meanwhile.
    const script = `import { writeFileSync } from 'node:fs';
import { installSignalCleanup, registerTemporaryFile } from ${JSON.stringify(join(ROOT, 'dist/cleanup.js'))};
registerTemporaryFile(${JSON.stringify(temporary)});
installSignalCleanup(() => { writeFileSync(${JSON.stringify(busy)}, ''); const until = Date.now() + 400; while (Date.now() < until); });
writeFileSync(${JSON.stringify(sb.path('ready'))}, '');
setInterval(() => undefined, 1000);
`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    const ended = new Promise<NodeJS.Signals | number | null>((done) => child.on('close', (code, sig) => done(sig ?? code)));
    const until = async (path: string): Promise<void> => {
      const started = Date.now();
      while (!existsSync(path) && Date.now() - started < 20_000) await new Promise((done) => setTimeout(done, 10));
    };
    await until(sb.path('ready'));
    child.kill('SIGTERM');
    await until(busy);
    child.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    expect(existsSync(temporary)).toBe(false);
  });
});
