#!/usr/bin/env node
// The distalyze executable: runs the compiled CLI (npm install builds dist/ via `prepare`).
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => {
    // Only a bug in distalyze gets here: user errors are InputErrors, printed on one line.
    process.stderr.write(`distalyze: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 3;
  },
);
