import { randomBytes } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { InputError } from '../errors.js';
import { describeFsError } from '../parse/files.js';

/**
 * Write an output file atomically: a temporary file beside it, then a rename,
 * so a failure never leaves a half-written report. `-` writes to stdout.
 */
export async function writeOutput(path: string, content: string, option: string, stdout: NodeJS.WritableStream = process.stdout): Promise<void> {
  if (path === '-') {
    await new Promise<void>((resolve, reject) => stdout.write(content, (err) => (err ? reject(err) : resolve())));
    return;
  }
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, content);
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw new InputError(`${option} ${path}: cannot write: ${describeFsError(err)}`);
  }
}
