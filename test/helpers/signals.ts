/** The executable sent a signal while it works, and how it ended (test/trust-signals.test.ts, test/mining-scale.test.ts). */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { SUPERVISOR_GRACE_MS } from '../../src/cli/supervise.js';
import { BIN } from './broken-inputs.js';
import { ROOT } from './run.js';

/** After the signal, the run must have ended within this (the supervisor's grace, and slack for a loaded machine). */
export const BOUND_MS = SUPERVISOR_GRACE_MS + 1400;

export interface Ended {
  /** What a shell sees: the exit code, or 128 + the signal's number. */
  readonly status: number;
  readonly stderr: string;
  /** From the signal to the end. */
  readonly ms: number;
}

/** CPU seconds a process has used (/proc; 0 when it is gone). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The child processes of `pid` (the supervised run of the executable). */
export function childrenOf(pid: number): number[] {
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
export function runThenSignal(args: readonly string[], ready: (pid: number) => boolean, signal: NodeJS.Signals): Promise<Ended> {
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
