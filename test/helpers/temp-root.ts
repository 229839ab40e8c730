// Vitest global setup: every test's temporary files go under one directory made
// for this run, removed when the run ends, so `npm test` leaves nothing in the
// machine's temporary directory. Workers and the CLI processes the tests start
// inherit TMPDIR, which os.tmpdir() reads on each call.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'distalyze-test-'));
  // As the system's temporary directory is: the tests that run the CLI as `nobody` reach their files through it.
  chmodSync(root, 0o1777);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}
