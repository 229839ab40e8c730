/**
 * What bin/distalyze.js runs: the CLI and the process-level handlers around
 * it. One module, so the executable loads either this file's compiled form or
 * its bundle (dist/bundle/distalyze.js, built by `npm run build`; see
 * rolldown.config.mjs) with one import.
 */
export { cleanUpNow, installSignalCleanup } from '../cleanup.js';
export { main } from './main.js';
export { formatUserError } from './output.js';
export { clearProgressLine } from './progress.js';
export { translatorFailureOf, translatorInCharge } from '../parse/translators/module.js';
export { consoleOnStderr } from '../parse/translators/console.js';
