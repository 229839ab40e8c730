#!/usr/bin/env node
// The distalyze executable: runs the compiled CLI (npm install builds dist/ via `prepare`):
// its bundle (dist/bundle/, see scripts/bundle.mjs) unless tsc has compiled dist/ since.
import { statSync } from 'node:fs';

// A translator that runs in this process (a rules file, a module) may block its thread for good (a regex that
// backtracks forever, a loop): the command then runs in a child that this process watches, so that SIGINT and
// SIGTERM always end it (src/cli/supervise.ts). The child's IPC channel must not keep it alive.
const { asSupervisedChild, supervise } = await import('../dist/cli/supervise.js');
const supervised = supervise(process.argv.slice(2));
if (supervised !== null) process.exit(await supervised);
asSupervisedChild();

const bundled = (() => {
  try {
    return statSync(new URL('../dist/bundle/distalyze.js', import.meta.url)).mtimeMs >= statSync(new URL('../dist/cli/entry.js', import.meta.url)).mtimeMs;
  } catch {
    return false;
  }
})();
const { cleanUpNow, consoleOnStderr, installSignalCleanup, main, formatUserError, clearProgressLine, translatorFailureOf, translatorInCharge } =
  await import(bundled ? '../dist/bundle/distalyze.js' : '../dist/cli/entry.js');

// The CLI writes its output to stdout itself, never through console: what a translator module prints goes to stderr.
consoleOnStderr();

// SIGINT/SIGTERM/SIGHUP: remove temporary reports, stop translator programs, exit 130/143/129.
installSignalCleanup(clearProgressLine);

// An error escaping to the process: a translator module's timer or forgotten promise
// is the user's (exit 2, one line naming it and the file); anything else is a bug of ours.
const escaped = (err) => {
  const failure = translatorFailureOf(err);
  clearProgressLine();
  cleanUpNow();
  finished = true;
  if (failure !== null) process.stderr.write(formatUserError(failure.message, failure.hint));
  else process.stderr.write(`distalyze: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(failure !== null ? 2 : 3);
};
process.on('uncaughtException', escaped);
process.on('unhandledRejection', escaped);

// The process ending before main() returned: a translator module called a process.exit it saved
// (the one it calls while translating throws instead). Never a quiet exit 0.
let finished = false;
process.on('exit', (code) => {
  if (finished) return;
  const who = translatorInCharge();
  clearProgressLine();
  cleanUpNow();
  process.stderr.write(formatUserError(who === null
    ? `ended before finishing (exit code ${code})`
    : `${who.file}: translator ${who.path} exited (exit code ${code}) while reading this file`));
  process.exitCode = 2;
});

// As the executable, a large run may start itself again with huge pages (src/cli/relaunch.ts).
// The run is over when main() returns (its output written: stdout and stderr are synchronous for files, pipes and
// terminals on Linux and macOS): a translator module's child process or timer that keeps the event loop alive is
// not waited for.
main(process.argv.slice(2), undefined, { relaunch: true }).then(
  (code) => { finished = true; process.exit(code); },
  (err) => {
    finished = true;
    clearProgressLine();
    // Only a bug in distalyze gets here: user errors are InputErrors, printed on one line.
    process.stderr.write(`distalyze: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 3;
  },
);
