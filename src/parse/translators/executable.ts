import { constants } from 'node:fs';
import { access, open } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { InputError } from '../../errors.js';
import type { ExecutableTranslator } from '../translator.js';

/**
 * The program translator (SPEC §1, form 3): any executable, run once per raw
 * file as `program RAWFILE`, whose standard output is read as dlog records.
 * The path is passed exactly as given, `.gz` included: the program decompresses
 * what it reads (`zcat`, Python's gzip.open), as the paper's Perl scripts did.
 *
 * Which program runs: the file itself when it has execute permission;
 * otherwise the interpreter on its `#!` line; otherwise one picked by its
 * extension (.py → python3, .pl → perl, .awk → awk -f, .sh → sh, .rb → ruby).
 */
export async function loadExecutableTranslator(path: string): Promise<ExecutableTranslator | null> {
  const absolute = resolve(path);
  const prefix = await interpreterFor(absolute);
  if (prefix === null) return null;
  return {
    type: 'executable',
    path,
    command(file: string) {
      return { cmd: prefix[0] as string, args: [...prefix.slice(1), file] };
    },
  };
}

const BY_EXTENSION: Readonly<Record<string, readonly string[]>> = {
  '.py': ['python3'],
  '.pl': ['perl'],
  '.awk': ['awk', '-f'],
  '.sh': ['sh'],
  '.rb': ['ruby'],
};

/** argv before the raw file's path, or null when the file is not runnable. */
async function interpreterFor(absolute: string): Promise<string[] | null> {
  try {
    await access(absolute, constants.X_OK);
    return [absolute];
  } catch {
    // not executable: look for a #! line
  }
  const shebang = await firstLine(absolute);
  if (shebang.startsWith('#!')) {
    const argv = shebang.slice(2).trim().split(/\s+/).filter((s) => s.length > 0);
    if (argv.length > 0) return [...argv, absolute];
  }
  const byExtension = BY_EXTENSION[extname(absolute).toLowerCase()];
  return byExtension === undefined ? null : [...byExtension, absolute];
}

async function firstLine(path: string): Promise<string> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new InputError(`cannot read translator: ${(err as Error).message}`, path);
  }
  try {
    const buf = Buffer.alloc(256);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    const nl = text.indexOf('\n');
    return nl === -1 ? text : text.slice(0, nl);
  } finally {
    await handle.close();
  }
}
