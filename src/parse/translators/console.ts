import { Console } from 'node:console';

/**
 * A translator module's console output goes to standard error, never to
 * standard output: ours holds the reports and records (`--json -`,
 * `translate -o -`), and a library caller's is the caller's.
 *
 * console's methods that print to stdout are log, info, debug and dir (table,
 * group, count, dirxml and timeLog print through log). Each is replaced once
 * by one that prints to stderr while user code runs (`userCodeRuns`), and as
 * before otherwise: a flag per call, not four property writes (which cost a
 * module translator ~0.7 µs a line). Where nothing of ours prints through
 * console (the executable, a parsing worker), `consoleOnStderr` sends it to
 * stderr always, so that output from a module's timers is kept off stdout too.
 */
const METHODS = ['log', 'info', 'debug', 'dir'] as const;

let running = false;
let always = false;
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  for (const name of METHODS) {
    const own = console[name];
    const other = toStderr[name];
    console[name] = function (this: unknown, ...args: unknown[]): void {
      (running || always ? other : own).apply(console, args as never);
    };
  }
}

/** Run user code (a translator module's import or call): its console output goes to stderr. */
export function userCodeRuns<T>(fn: () => T): T {
  install();
  const outer = running;
  running = true;
  try {
    return fn();
  } finally {
    running = outer;
  }
}

/** `userCodeRuns` for asynchronous code (a module's import): stderr until it settles. */
export async function userCodeRunsAsync<T>(fn: () => Promise<T>): Promise<T> {
  install();
  const outer = running;
  running = true;
  try {
    return await fn();
  } finally {
    running = outer;
  }
}

/** Every console output that would go to stdout goes to stderr, for good: for a process or thread whose stdout is ours. */
export function consoleOnStderr(): void {
  install();
  always = true;
}
