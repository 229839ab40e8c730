import { spawn } from 'node:child_process';
import { unlinkSync, writeSync } from 'node:fs';
import { extname } from 'node:path';
import { SIGNALS, SUPERVISED_ENV } from '../cleanup.js';

export { SUPERVISED_ENV };

/**
 * Running user code where a signal can stop it (issue 54, item 8;
 * docs/method.md, "Trust: user code and outputs").
 *
 * A rules file's regex (`(a+)+$` on a long line backtracks for hours) or a
 * translator module's loop runs in the thread that reads, and Node runs a
 * signal handler only between two turns of that thread's event loop: a
 * SIGINT or SIGTERM would wait for the user's code to return, i.e. forever.
 * So when the command line names a translator that runs in this process (a
 * rules file or a module; a program runs in a process of its own already),
 * the executable starts the same command again in a child process and only
 * watches it, with an idle thread that always hears a signal. The child
 * cleans up and ends by the signal as usual (cleanup.ts); if it has not ended
 * within SUPERVISOR_GRACE_MS (its thread is stuck), this process kills it,
 * removes the temporary files it had announced, prints one line and ends by
 * the same signal. The cost: one more Node start-up (~40 ms), not a slower
 * translator.
 */

/**
 * How long a child has, after the signal, to end by itself before it is
 * killed: it ends within a few ms when its thread is free, and a user asked
 * for about a second at most (issue 54).
 */
export const SUPERVISOR_GRACE_MS = 600;

/** Translator files run inside distalyze's threads (translators/load.ts: rules files and modules). */
const IN_PROCESS = new Set(['.yaml', '.yml', '.json', '.js', '.mjs', '.cjs', '.ts', '.mts']);

/** The value of `--translator` on a command line (`--translator F` or `--translator=F`), if any, when that translator runs in-process. */
export function inProcessTranslator(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') return null;
    const value = arg === '--translator' ? argv[i + 1] : arg.startsWith('--translator=') ? arg.slice('--translator='.length) : undefined;
    if (value !== undefined && IN_PROCESS.has(extname(value).toLowerCase())) return value;
  }
  return null;
}

/**
 * In a supervised child (bin/distalyze.js): its IPC channel must not keep it running; and should the supervisor
 * go (SIGKILL), the run stops as on SIGTERM rather than go on unwatched.
 */
export function asSupervisedChild(env: NodeJS.ProcessEnv = process.env): void {
  if (env[SUPERVISED_ENV] === undefined || process.channel === undefined) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

/** What a supervised child tells its supervisor on the IPC channel (cleanup.ts sends it). */
export interface SupervisorMessage {
  readonly distalyzeTemporary: string;
  readonly held: boolean;
}

/**
 * As the executable: run this command in a supervised child when `argv`
 * names an in-process translator (and this process is not that child), and
 * return its exit code once it ends; a signal that ended it ends this process
 * too (this promise then never settles). Null: run here.
 */
export function supervise(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> | null {
  if (env[SUPERVISED_ENV] !== undefined || inProcessTranslator(argv) === null) return null;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env: { ...env, [SUPERVISED_ENV]: '1' },
    });
    /** The child's temporary files (it announces them before creating them). */
    const temporary = new Set<string>();
    child.on('message', (m: SupervisorMessage) => {
      if (typeof m?.distalyzeTemporary !== 'string') return;
      if (m.held) temporary.add(m.distalyzeTemporary);
      else temporary.delete(m.distalyzeTemporary);
    });
    let signalled: NodeJS.Signals | null = null;
    let grace: NodeJS.Timeout | undefined;
    const relay = (name: NodeJS.Signals): void => {
      // A second signal (Ctrl-C reaches both processes: the child has it already) changes nothing.
      if (signalled !== null) return;
      signalled = name;
      child.kill(name);
      grace = setTimeout(() => child.kill('SIGKILL'), SUPERVISOR_GRACE_MS);
    };
    for (const name of SIGNALS) process.on(name, relay);
    const endBy = (signal: NodeJS.Signals): void => {
      for (const path of temporary) {
        try {
          unlinkSync(path);
        } catch {
          // gone already
        }
      }
      for (const name of SIGNALS) process.removeListener(name, relay);
      process.kill(process.pid, signal); // the default action now: this process ends
    };
    child.on('error', (err) => {
      // Not started (nothing ran): say why, as an internal error would.
      writeSync(2, `distalyze: cannot start the supervised run: ${err.message}\n`);
      for (const name of SIGNALS) process.removeListener(name, relay);
      resolve(3);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(grace);
      if (signal === 'SIGKILL' && signalled !== null) {
        // Its thread was stuck in the translator: the line it could not print.
        writeSync(2, `${process.stderr.isTTY === true ? '\r\x1b[K' : ''}distalyze: interrupted by ${signalled} (the translator did not return; stopped)\n`);
        endBy(signalled);
        return;
      }
      if (signal !== null) {
        endBy(signal);
        return;
      }
      for (const name of SIGNALS) process.removeListener(name, relay);
      resolve(code ?? 0);
    });
  });
}
