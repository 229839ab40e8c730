import { randomBytes } from 'node:crypto';
import { constants, fstat as fstatFd, renameSync, write as writeFd } from 'node:fs';
import { access, lstat, readlink, realpath, stat, unlink, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { dirname, basename, join, resolve } from 'node:path';
import { registerTemporaryFile, releaseTemporaryFile } from '../cleanup.js';
import { InputError } from '../errors.js';
import { describeFsError } from '../parse/files.js';
import { escapeTerminal } from '../report/format.js';

/**
 * Where a report path leads. `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and
 * `/proc/self/fd/N` (also reached through symbolic links) are a file
 * descriptor this process already holds: `{ fd }`, written through as the
 * shell opened it (`>> log` appends). Anything else is the path at the end of
 * its symbolic links, with its directory's real path when that exists.
 */
export type Destination =
  | { readonly fd: number }
  | { readonly path: string; readonly exists: boolean; readonly regular: boolean; readonly directory: boolean };

const FD_ALIAS = /^\/(?:dev\/(stdout|stderr|fd\/(\d+))|proc\/(?:self|thread-self|\d+)\/fd\/(\d+))$/;

export async function destinationOf(path: string): Promise<Destination> {
  let current = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    const alias = FD_ALIAS.exec(current);
    if (alias !== null && (!/^\/proc\/\d+\//.test(current) || current.startsWith(`/proc/${process.pid}/`))) {
      return { fd: alias[1] === 'stdout' ? 1 : alias[1] === 'stderr' ? 2 : Number(alias[2] ?? alias[3]) };
    }
    const info = await lstat(current).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (info === null) {
      const dir = await realpath(dirname(current)).catch(() => dirname(current));
      return { path: join(dir, basename(current)), exists: false, regular: false, directory: false };
    }
    if (!info.isSymbolicLink()) {
      return { path: await realpath(current), exists: true, regular: info.isFile(), directory: info.isDirectory() };
    }
    current = resolve(dirname(current), await readlink(current));
  }
  throw Object.assign(new Error('too many levels of symbolic links'), { code: 'ELOOP' });
}

type Direct = { readonly option: string; readonly path: string; readonly content: string; readonly fd?: number };

/**
 * The report files of one run, written all or nothing: each is rendered and
 * written to a temporary file beside its destination (`stage`); `commit` then
 * writes the destinations that cannot be renamed over (a FIFO, a device,
 * `/dev/stdout`, bash's `>(jq .)`: written in place, as the shell opened
 * them), and only when all of that succeeded renames every temporary file
 * into place, in one synchronous loop that a signal cannot interrupt (its
 * handler runs between event-loop turns). So a failed or interrupted run
 * leaves the old reports or the new ones, never a mix. `discard` (call it in
 * a `finally`) removes whatever was not committed; the signal handler removes
 * registered temporary files too. A symbolic link is written through (the
 * temporary file goes beside the file it points to, and the link stays).
 */
export class StagedOutputs {
  private staged: { readonly tmp: string; readonly path: string; readonly target: string; readonly option: string }[] = [];
  private direct: Direct[] = [];

  async stage(path: string, content: string, option: string): Promise<void> {
    const fail = (err: unknown): never => { throw new InputError(`${option} ${path}: cannot write: ${describeFsError(err)}`); };
    const dest = await destinationOf(path).catch(fail);
    if ('fd' in dest) {
      this.direct.push({ option, path, content, fd: dest.fd });
      return;
    }
    if (dest.directory) fail({ code: 'EISDIR' });
    if (dest.exists && !dest.regular) {
      this.direct.push({ option, path, content });
      return;
    }
    const target = dest.path;
    const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.tmp`);
    registerTemporaryFile(tmp);
    try {
      await writeFile(tmp, content);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      releaseTemporaryFile(tmp);
      fail(err);
    }
    this.staged.push({ tmp, path, target, option });
  }

  async commit(): Promise<void> {
    for (const d of this.direct.splice(0)) {
      try {
        if (d.fd !== undefined) await writeAllToFd(d.fd, d.content);
        else await writeFile(d.path, d.content);
      } catch (err) {
        throw new InputError(`${d.option} ${d.path}: cannot write: ${describeFsError(err)}`);
      }
    }
    // Synchronous on purpose: see the class comment.
    while (this.staged.length > 0) {
      const { tmp, path, target, option } = this.staged[0]!;
      try {
        renameSync(tmp, target);
      } catch (err) {
        throw new InputError(`${option} ${path}: cannot write: ${describeFsError(err)}`);
      }
      releaseTemporaryFile(tmp);
      this.staged.shift();
    }
  }

  async discard(): Promise<void> {
    const left = this.staged;
    this.staged = [];
    this.direct = [];
    await Promise.all(left.map(async (s) => {
      await unlink(s.tmp).catch(() => undefined);
      releaseTemporaryFile(s.tmp);
    }));
  }
}

const writeFdAsync = promisify(writeFd);

/** Write all of `content` to an open descriptor; a reader that went away (EPIPE) ends it quietly. */
async function writeAllToFd(fd: number, content: string): Promise<void> {
  const bytes = Buffer.from(content);
  try {
    for (let at = 0; at < bytes.length;) {
      const n = await writeFdAsync(fd, bytes, at, bytes.length - at);
      at += typeof n === 'number' ? n : (n as { bytesWritten: number }).bytesWritten;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
      // A non-blocking pipe (stdout of some parents): fall back to the stream, which waits.
      const stream = fd === 2 ? process.stderr : process.stdout;
      if (fd === 1 || fd === 2) return writeStream(stream, content);
    }
    if ((err as NodeJS.ErrnoException).code !== 'EPIPE') throw err;
  }
}

/**
 * Check an output path before the analysis starts, so a typo costs seconds,
 * not a whole run: its directory must exist and the path must not be one.
 */
export async function checkOutputPath(path: string, option: string): Promise<void> {
  if (path === '-') return;
  const fail = (why: string): never => { throw new InputError(`${option} ${path}: cannot write: ${why}`); };
  const dest = await destinationOf(path).catch((err: unknown) => fail(describeFsError(err)));
  if ('fd' in dest) {
    await promisify(fstatFd)(dest.fd).catch((err: unknown) => fail(describeFsError(err)));
    return;
  }
  if (dest.directory) fail('is a directory');
  if (dest.exists && !dest.regular) {
    // A FIFO or a device (>(…), /dev/null): written directly, so only it must be writable.
    await access(dest.path, constants.W_OK).catch((err: unknown) => fail(describeFsError(err)));
    return;
  }
  // The temporary file goes beside the file a symbolic link points to.
  const dirPath = dirname(dest.path);
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

/** One report a command may write: its option, the path given (undefined: not asked for; `-`: stdout), and its renderer. */
export type ReportRequest = readonly [option: string, path: string | undefined, render: () => string | Promise<string>];

/**
 * Write the reports asked for, all or nothing: every file is staged
 * (StagedOutputs) and committed together, or none is; a report on stdout (`-`)
 * is rendered and returned for the caller to write after the files. Only
 * renders what is asked for.
 */
export async function writeReportFiles(reports: readonly ReportRequest[]): Promise<string | undefined> {
  const files = new StagedOutputs();
  let toStdout: string | undefined;
  try {
    for (const [option, path, render] of reports) {
      if (path === undefined) continue;
      if (path === '-') toStdout = await render();
      else await files.stage(path, await render(), option);
    }
    await files.commit();
  } finally {
    await files.discard();
  }
  return toStdout;
}
