/**
 * The executable runs the bundle `npm run build` writes into dist/bundle/
 * (scripts/bundle.mjs), with dist/errors.js shared with the package's own
 * entry: a translator module's InputError imported from the package must be
 * the class the CLI checks with `instanceof`, so its message is printed as
 * the module wrote it (a foreign class would be wrapped as a translator
 * failure).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runBinary } from './helpers/run.js';

const BUNDLE = join(ROOT, 'dist/bundle');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the bundled CLI (dist/bundle)', () => {
  it('is built with its workers next to the chunks that start them, and is newer than tsc output', () => {
    const files = readdirSync(BUNDLE);
    expect(files).toEqual(expect.arrayContaining(['distalyze.js', 'worker.js', 'mine-worker.js']));
    // bin/distalyze.js uses the bundle only when it is at least as new as dist/cli/entry.js.
    expect(statSync(join(BUNDLE, 'distalyze.js')).mtimeMs).toBeGreaterThanOrEqual(statSync(join(ROOT, 'dist/cli/entry.js')).mtimeMs);
  });

  it('imports InputError from dist/errors.js instead of holding a copy', () => {
    const sources = readdirSync(BUNDLE).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(BUNDLE, f), 'utf8'));
    expect(sources.some((s) => /class InputError\b/.test(s))).toBe(false);
    expect(sources.some((s) => s.includes('from "../errors.js"'))).toBe(true);
  });

  it.each(['1', '2'])('passes on a translator module\'s InputError from the package as the module wrote it (-j%s)', (jobs) => {
    const dir = mkdtempSync(join(tmpdir(), 'distalyze-bundle-'));
    dirs.push(dir);
    for (const c of ['good', 'bad']) {
      mkdirSync(join(dir, c));
      writeFileSync(join(dir, c, 'a.log'), 'alpha\nbeta\n');
    }
    writeFileSync(join(dir, 'tr.mjs'), [
      `import { InputError } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/index.js')).href)};`,
      'export default function translate() { throw new InputError(\'my own complaint\', \'somewhere.log\', 7); }',
      '',
    ].join('\n'));
    const r = runBinary([join(dir, 'good'), join(dir, 'bad'), '--translator', join(dir, 'tr.mjs'), '--jobs', jobs]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('distalyze: somewhere.log:7: my own complaint\n');
  });
});
