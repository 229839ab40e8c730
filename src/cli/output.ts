import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { InputError } from '../errors.js';
import { describeFsError } from '../parse/files.js';
import { escapeTerminal } from '../report/format.js';

/**
 * The report files of one run, written all or nothing: each is rendered and
 * written to a temporary file beside its destination (`stage`), and only when
 * every one of them is written are they renamed into place (`commit`). A run
 * that fails on the third file leaves neither it nor the first two behind:
 * `discard` (call it in a `finally`) removes whatever was not committed.
 * A symbolic link is written through (the temporary file goes beside the file
 * it points to, and the link stays). A destination that is no regular file —
 * a FIFO, `/dev/stdout`, bash's `>(jq .)` — cannot be renamed over: it is
 * written directly, at commit.
 */
export class StagedOutputs {
  private staged: { readonly tmp: string; readonly path: string; readonly target: string; readonly option: string }[] = [];
  private direct: { readonly path: string; readonly content: string; readonly option: string }[] = [];

  async stage(path: string, content: string, option: string): Promise<void> {
    const fail = (err: unknown): never => { throw new InputError(`${option} ${path}: cannot write: ${describeFsError(err)}`); };
    const existing = await stat(path).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : fail(err)));
    if (existing !== null && !existing.isFile()) {
      if (existing.isDirectory()) fail({ code: 'EISDIR' });
      this.direct.push({ path, content, option });
      return;
    }
    const target = existing === null ? path : await realpath(path).catch(fail);
    const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await writeFile(tmp, content);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      fail(err);
    }
    this.staged.push({ tmp, path, target, option });
  }

  async commit(): Promise<void> {
    while (this.staged.length > 0) {
      const { tmp, path, target, option } = this.staged[0]!;
      try {
        await rename(tmp, target);
      } catch (err) {
        throw new InputError(`${option} ${path}: cannot write: ${describeFsError(err)}`);
      }
      this.staged.shift();
    }
    for (const { path, content, option } of this.direct.splice(0)) {
      try {
        await writeFile(path, content);
      } catch (err) {
        throw new InputError(`${option} ${path}: cannot write: ${describeFsError(err)}`);
      }
    }
  }

  async discard(): Promise<void> {
    const left = this.staged;
    this.staged = [];
    this.direct = [];
    await Promise.all(left.map((s) => unlink(s.tmp).catch(() => undefined)));
  }
}

/**
 * Check an output path before the analysis starts, so a typo costs seconds,
 * not a whole run: its directory must exist and the path must not be one.
 */
export async function checkOutputPath(path: string, option: string): Promise<void> {
  if (path === '-') return;
  const fail = (why: string): never => { throw new InputError(`${option} ${path}: cannot write: ${why}`); };
  const target = await stat(path).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : fail(describeFsError(err))));
  if (target?.isDirectory() === true) fail('is a directory');
  if (target !== null && !target.isFile()) {
    // A FIFO or a device (/dev/stdout, >(…)): written directly, so only it must be writable.
    await access(path, constants.W_OK).catch((err: unknown) => fail(describeFsError(err)));
    return;
  }
  // The temporary file goes beside the file a symbolic link points to.
  const dirPath = dirname(target === null ? path : await realpath(path).catch((err: unknown) => fail(describeFsError(err))));
  const dir = await stat(dirPath).catch((err: unknown) => fail(describeFsError(err)));
  if (!dir.isDirectory()) fail('a part of the path is not a directory');
  await access(dirPath, constants.W_OK).catch((err: unknown) => fail(describeFsError(err)));
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
