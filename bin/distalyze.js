#!/usr/bin/env node
// The distalyze executable: runs the compiled CLI (npm install builds dist/ via `prepare`).
import { installSignalCleanup } from '../dist/cleanup.js';
import { main } from '../dist/cli/main.js';

// SIGINT/SIGTERM/SIGHUP: remove temporary reports, stop translator programs, exit 130/143/129.
installSignalCleanup(() => { if (process.stderr.isTTY) process.stderr.write('\r\x1b[K'); });

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => {
    // Only a bug in distalyze gets here: user errors are InputErrors, printed on one line.
    process.stderr.write(`distalyze: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 3;
  },
);
