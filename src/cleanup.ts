import { unlinkSync, writeSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

/**
 * What an interrupted run must undo (SIGINT, SIGTERM): temporary report files
 * not yet renamed into place, and translator programs still running (each the
 * leader of its own process group, so its children go too). Whoever creates
 * one registers it here and releases it when it is done with it; the CLI's
 * signal handler (installSignalCleanup) undoes what is left, synchronously.
 */
const temporaryFiles = new Set<string>();
/**
 * Running translator programs (process-group ids; 0 = a free slot) in memory
 * shared with the parsing workers, which start programs too: the signal
 * handler runs on the main thread and must see them at once, with no message
 * in flight. More programs than slots than this never run at once (one per worker).
 */
let processGroups = new Int32Array(new SharedArrayBuffer(4 * 1024));

/** The table to hand to worker threads (see useProcessGroupTable). */
export function processGroupTable(): SharedArrayBuffer {
  return processGroups.buffer as SharedArrayBuffer;
}

/** In a worker thread: register programs in the main thread's table. */
export function useProcessGroupTable(table: SharedArrayBuffer): void {
  processGroups = new Int32Array(table);
}

/** In a supervised run's environment (cli/supervise.ts): its supervisor is told of its temporary files, to remove them if it must kill it. */
export const SUPERVISED_ENV = 'DISTALYZE_SUPERVISED';

export function registerTemporaryFile(path: string): void {
  temporaryFiles.add(path);
  tellSupervisor(path, true);
}

export function releaseTemporaryFile(path: string): void {
  temporaryFiles.delete(path);
  tellSupervisor(path, false);
}

/** (Sent before the file is created: the message is written to the channel at once, and the supervisor's thread is idle.) */
function tellSupervisor(path: string, held: boolean): void {
  if (!isMainThread || process.send === undefined || process.connected !== true || process.env[SUPERVISED_ENV] === undefined) return;
  process.send({ distalyzeTemporary: path, held });
}

export function registerProcessGroup(pid: number): void {
  for (let i = 0; i < processGroups.length; i++) {
    if (Atomics.compareExchange(processGroups, i, 0, pid) === 0) return;
  }
}

export function releaseProcessGroup(pid: number): void {
  for (let i = 0; i < processGroups.length; i++) {
    if (Atomics.compareExchange(processGroups, i, pid, 0) === pid) return;
  }
}

/** Kill every registered program's process group and forget it (e.g. after terminating workers that ran them). */
export function killProcessGroups(): void {
  for (let i = 0; i < processGroups.length; i++) {
    const pid = Atomics.exchange(processGroups, i, 0);
    if (pid !== 0) killProcessGroup(pid);
  }
}

/** Kill a translator's process group (quietly: it may have ended already). */
export function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // gone already
    }
  }
}

/** Remove every registered temporary file and kill every registered process group. */
export function cleanUpNow(): void {
  for (const path of temporaryFiles) {
    try {
      unlinkSync(path);
    } catch {
      // gone already
    }
  }
  temporaryFiles.clear();
  killProcessGroups();
}

/** The signals that end a run after its cleanup (installSignalCleanup), and that a relaunched run's parent relays (cli/relaunch.ts). */
export const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * On SIGINT, SIGTERM or SIGHUP: clean up, say so in one line on stderr, then end by the same signal, as
 * well-behaved Unix programs do, so a shell sees 128 + its number (130, 143,
 * 129) and a parent sees the signal. (Not `process.exit(130)`: it waits for a
 * thread blocked in open(2) on a FIFO nobody reads, and would hang.) `before`
 * runs first (e.g. clear the progress line). A second signal while this runs
 * (Ctrl-C reaches a relaunched run both from the terminal and from its
 * parent: cli/relaunch.ts) is ignored until the cleanup is done. Only the
 * executable installs this: tests run main() in-process.
 */
export function installSignalCleanup(before: () => void = () => undefined): void {
  let ending = false;
  const handler = (name: NodeJS.Signals): void => {
    if (ending) return;
    ending = true;
    try {
      before();
    } finally {
      cleanUpNow();
      try {
        writeSync(2, `distalyze: interrupted by ${name}\n`);
      } catch {
        // stderr closed: nobody to tell
      }
      for (const signal of SIGNALS) process.removeListener(signal, handler);
      process.kill(process.pid, name); // the default action now: the process ends
    }
  };
  for (const name of SIGNALS) process.on(name, handler);
}
