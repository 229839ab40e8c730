/** A test's own directory of input files, and which of them this process still holds open. */
import { mkdtempSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InputFile } from '../../src/parse/files.js';

export interface TestFiles {
  readonly dir: string;
  /** A file of `bytes` in the directory, listed as the reader sees it (its size now). */
  write(name: string, bytes: Buffer | string): InputFile;
  /** The files in the directory that this process has open (/proc/self/fd). */
  openHere(): string[];
  remove(): void;
}

export function testFiles(prefix: string): TestFiles {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write: (name, bytes) => {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return { path, relativePath: name, gzip: false, size: statSync(path).size };
    },
    openHere: () => {
      const out: string[] = [];
      for (const fd of readdirSync('/proc/self/fd')) {
        try {
          const target = readlinkSync(join('/proc/self/fd', fd));
          if (target.startsWith(dir)) out.push(target);
        } catch {
          // (closed meanwhile)
        }
      }
      return out;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
