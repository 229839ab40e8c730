import { randomBytes } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { InputError } from '../errors.js';
import { describeFsError } from '../parse/files.js';
import { escapeTerminal } from '../report/format.js';

/**
 * Write an output file atomically: a temporary file beside it, then a rename,
 * so a failure never leaves a half-written report. `-` writes to stdout.
 */
export async function writeOutput(path: string, content: string, option: string, stdout: NodeJS.WritableStream = process.stdout): Promise<void> {
  if (path === '-') return writeStream(stdout, content, 'standard output');
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, content);
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw new InputError(`${option} ${path}: cannot write: ${describeFsError(err)}`);
  }
}

/**
 * Write to stdout or stderr. A reader that went away (`distalyze … | head -1`)
 * is not an error: the rest of the output is dropped quietly (EPIPE). Any other
 * failure to write is an InputError naming the stream.
 */
export async function writeStream(stream: NodeJS.WritableStream, content: string, name = 'standard output'): Promise<void> {
  guardStream(stream);
  await new Promise<void>((resolve, reject) => {
    stream.write(content, (err?: Error | null) => {
      if (err === undefined || err === null || (err as NodeJS.ErrnoException).code === 'EPIPE') resolve();
      else reject(new InputError(`cannot write to ${name}: ${describeFsError(err)}`));
    });
  });
}

const guarded = new WeakSet<NodeJS.WritableStream>();

/**
 * Failed writes also emit 'error' on the stream, which without a listener
 * kills the process with a stack trace (an EPIPE when stdout or stderr is
 * closed early). Writes that matter report their own failure through their
 * callback (writeStream); this listener only keeps the event from crashing.
 */
export function guardStream(stream: NodeJS.WritableStream): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  stream.on('error', () => undefined);
}

/**
 * A user error as the CLI prints it: `distalyze: MESSAGE` and an optional
 * `  hint: …` line. File names, ids and values quoted in a message come from
 * the user's files, so control characters (a newline, an escape sequence) are
 * made visible: the error stays one line and cannot drive the terminal.
 */
export function formatUserError(message: string, hint?: string): string {
  return `distalyze: ${escapeTerminal(message)}\n${hint === undefined ? '' : `  hint: ${escapeTerminal(hint)}\n`}`;
}
