import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SIGNALS } from '../cleanup.js';

/**
 * Relaunching a large run with huge pages (docs/internals.md, "Memory": "Huge pages
 * for large runs").
 *
 * A large run writes hundreds of MB of fresh memory on its main thread (a
 * million requests: ~900 MB of columns and held records), and the kernel
 * faults it in 4 KiB at a time. With glibc's `glibc.malloc.hugetlb=1`, malloc
 * asks for transparent huge pages (madvise) on its mappings of 2 MiB and
 * more: 512 times fewer faults there. Whether that pays depends on the
 * machine: on a VM where a 4 KiB fault costs ~11 µs, touching 1 GB took
 * 3.0 s in small pages and 0.7–1.8 s in huge ones, and a million requests'
 * run 5.7 → 5.0 s; on a VM where it costs 1.4 µs, huge pages were 2.5 times
 * slower (357 → 891 ms a GB). glibc reads its tunables once, when the process
 * starts, so the CLI starts itself again with the tunable added: one more
 * Node start-up and listing (~0.1–0.2 s), worth it only for large inputs of
 * many instances, where the kernel gives huge pages on request (`madvise`),
 * and where a small page's first write is measured dear.
 */

/** The tunable: malloc's mappings of 2 MiB and more get transparent huge pages (glibc 2.35 and later). */
export const HUGE_PAGES_TUNABLE = 'glibc.malloc.hugetlb=1';
/** In a relaunched process's environment: the milliseconds its parent ran before starting it (reported by --timings). */
export const RELAUNCHED_ENV = 'DISTALYZE_RELAUNCHED';
/** Test hook: `1` relaunches whatever the input's size and the system (the tunable is then inert where unsupported). */
export const RELAUNCH_TEST_ENV = 'DISTALYZE_RELAUNCH_TEST';

/**
 * Input from which relaunching pays: this much, its records naming
 * instances (many instances: the memory written grows with them, not with
 * bytes). The gain is the faults spared on memory written once; the cost a
 * start-up, the files listed again and the modules loaded again (~0.19 s on
 * the VM below). Measured there on 2 cores (wall, medians of 5 interleaved
 * runs; docs/internals.md, "Memory"): 1 M requests (293 MB) in 2 files
 * 5.98 → 5.28 s, ids not in order 8.28 → 6.75 s, in 40 files 7.45 → 6.54 s;
 * but 1 GB of dlog in 100 files, one run each, 2.39 → 2.47 s (the parse 155
 * ms shorter, less than the relaunch).
 */
export const RELAUNCH_MIN_BYTES = 256 * 1024 * 1024;

/**
 * The cost of a 4 KiB page's first write from which huge pages pay: a 2 MiB
 * page cost 0.7–1.8 ms to touch first on the two VMs measured (up to ~3.5 µs
 * per 4 KiB it replaces), so above 4 µs the 512 small faults cost more.
 */
export const HUGE_PAGES_MIN_FAULT_MICROS = 4;

/** What decides whether the tunable can work here, and pay. */
export interface HugePageSystem {
  readonly platform: NodeJS.Platform;
  /** The contents of /sys/kernel/mm/transparent_hugepage/enabled (e.g. `always [madvise] never`), or null. */
  readonly thp: string | null;
  /** glibc's version at run time (process.report), or undefined (another C library, or none). */
  readonly glibc: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The time of a 4 KiB page's first write, in µs (pageFaultMicros). */
  readonly pageFaultMicros: number;
  /** Node's options for this process (process.execArgv): a child would get them too. */
  readonly execArgv: readonly string[];
}

/** What relaunchFor decides on: the input's size, and whether its records name many instances (asked only of a large one). */
export interface RelaunchInput {
  readonly totalBytes: number;
  readonly namesManyInstances: () => Promise<boolean>;
}

/**
 * The GLIBC_TUNABLES to relaunch with, or null when relaunching would change
 * nothing, or not pay: not Linux with glibc 2.35 or later; the kernel gives
 * huge pages to all memory already (`always`) or to none (`never`); a small
 * page's first write is cheap (HUGE_PAGES_MIN_FAULT_MICROS); the user set
 * `glibc.malloc.hugetlb` (to any value: theirs stands, `=0` turns this off);
 * Node runs under a debugger (`--inspect`); or this process is the relaunched one. Other tunables the user set are kept.
 */
export function relaunchTunables(system: HugePageSystem): string | null {
  const { env } = system;
  if (env[RELAUNCHED_ENV] !== undefined) return null;
  const tunables = env.GLIBC_TUNABLES ?? '';
  if (/(^|:)glibc\.malloc\.hugetlb=/.test(tunables)) return null;
  // Under a debugger (--inspect…): the one being debugged is this process (a child would want the same port).
  if ([...system.execArgv, env.NODE_OPTIONS ?? ''].some((a) => /(^|\s)--inspect/.test(a))) return null;
  if (env[RELAUNCH_TEST_ENV] !== '1') {
    if (system.platform !== 'linux' || !/\[madvise\]/.test(system.thp ?? '') || !glibcAtLeast(system.glibc, 2, 35)) return null;
    if (!(system.pageFaultMicros >= HUGE_PAGES_MIN_FAULT_MICROS)) return null;
  }
  return tunables === '' ? HUGE_PAGES_TUNABLE : `${tunables}:${HUGE_PAGES_TUNABLE}`;
}

function glibcAtLeast(version: string | undefined, major: number, minor: number): boolean {
  const m = /^(\d+)\.(\d+)/.exec(version ?? '');
  if (m === null) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a > major || (a === major && b >= minor);
}

/** This process's HugePageSystem (reads /sys, builds a diagnostic report's header and writes 2 MiB: ~10 ms, so only for large inputs). */
export function thisSystem(): HugePageSystem {
  let thp: string | null = null;
  try {
    thp = readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'latin1');
  } catch {
    // no THP
  }
  const header = process.platform === 'linux' ? (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header : undefined;
  return { platform: process.platform, thp, glibc: header?.glibcVersionRuntime, env: process.env, pageFaultMicros: pageFaultMicros(), execArgv: process.execArgv };
}

/**
 * The time of a 4 KiB page's first write on this machine, in µs: 2 MiB
 * allocated (a fresh mapping: glibc maps blocks this large on their own) and
 * one byte written per 4 KiB, allocation included (were the memory reused,
 * its zeroing would be timed instead, and the figure come out low: no
 * relaunch). ~11 µs on the VM where huge pages paid, 1.3–1.6 on the one
 * where they did not.
 */
export function pageFaultMicros(bytes = 2 * 1024 * 1024): number {
  const started = performance.now();
  const block = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i += 4096) block[i] = 1;
  return ((performance.now() - started) * 1000) / (bytes / 4096);
}

/**
 * The tunables to relaunch this run with, or null to go on here: input of
 * RELAUNCH_MIN_BYTES at least whose records name many instances, on a system
 * where the tunable pays (relaunchTunables; looked at only then). The test
 * hook relaunches any input.
 */
export async function relaunchFor(input: RelaunchInput, system: () => HugePageSystem = thisSystem): Promise<string | null> {
  if (process.env[RELAUNCH_TEST_ENV] !== '1') {
    if (input.totalBytes < RELAUNCH_MIN_BYTES || !(await input.namesManyInstances())) return null;
  }
  return relaunchTunables(system());
}

/**
 * Run this command again in a child process whose environment adds
 * `tunables`, with the same standard streams, and end as it ends: its exit
 * code is returned; a signal that ended it ends this process too. Until then
 * this process only relays SIGINT, SIGTERM and SIGHUP to it (this process's
 * own cleanup handlers are removed: it holds no temporary file). Returns null
 * when the child cannot be started (the run then goes on here).
 */
export function relaunch(tunables: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: 'inherit',
      // (performance.now(): the milliseconds since this process started.)
      env: { ...process.env, GLIBC_TUNABLES: tunables, [RELAUNCHED_ENV]: String(Math.round(performance.now())) },
    });
    const relay = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    let started = false;
    child.once('spawn', () => {
      started = true;
      for (const name of SIGNALS) {
        process.removeAllListeners(name);
        process.on(name, relay);
      }
    });
    child.on('error', () => {
      if (!started) resolve(null);
    });
    child.once('exit', (code, signal) => {
      if (signal !== null) {
        // Ended by a signal: so does this process (its default action, once nothing listens).
        for (const name of SIGNALS) process.removeListener(name, relay);
        process.kill(process.pid, signal);
        return;
      }
      resolve(code ?? 0);
    });
  });
}
