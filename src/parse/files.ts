import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { statSync, type Stats } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { InputError } from '../errors.js';
import { plainChunks, READ_SIZE } from './chunks.js';
import { plainFile, type InputFile } from './input-file.js';

export { plainFile, type InputFile, type RecordEnds } from './input-file.js';

/**
 * The names of files that can be span files or tables (spans.ts's detectSpanFormat and csv.ts's tableFormatOf
 * look at these; any other name is neither): read as such, not as dlog.
 */
export const SPAN_OR_TABLE_NAME = /\.(csv|tsv|json|jsonl|ndjson)(\.gz)?$/i;

/**
 * A file of one run at least this large, with its ends read ahead and Dref
 * known, is summarized as it is read (features/streamed.ts), its records not
 * held; its ends are the earliest and latest times found at them (sniff.ts).
 */
export const STREAMED_MIN_BYTES = 8 << 20;

/**
 * The files of one class (SPEC §1): a directory searched recursively in sorted
 * order (hidden files and directories skipped), a single file, or `-` for stdin.
 * `label` names the class in error messages.
 */
export async function listInputFiles(spec: string, label: string): Promise<InputFile[]> {
  if (spec === '-') return [{ path: '-', relativePath: '-', gzip: false, size: 0 }];
  let info;
  try {
    info = await stat(spec);
  } catch (err) {
    throw new InputError(`${label} class: cannot read '${spec}': ${describeFsError(err)}`);
  }
  if (info.isFile()) {
    return [{ path: spec, relativePath: basename(spec), gzip: spec.endsWith('.gz'), size: info.size }];
  }
  if (!info.isDirectory()) throw new InputError(`${label} class: '${spec}' is neither a file nor a directory`);
  const files: InputFile[] = [];
  await walk(spec, `${info.dev}:${info.ino}`, files, label);
  if (files.length === 0) {
    throw new InputError(`${label} class: directory '${spec}' holds no log files (hidden files are skipped)`);
  }
  return files;
}

/** Files a listing stats between turns of the event loop (signals, a progress line). */
const STATS_PER_TURN = 1024;

async function walk(root: string, rootId: string, out: InputFile[], label: string): Promise<void> {
  // Iterative: deep trees must not overflow the stack. Each directory carries
  // its ancestors (device:inode → path), so a symbolic link back up the tree
  // is reported instead of being followed until the path is too long.
  // Each directory also carries its path relative to the root, with `/` separators ('' for the root).
  const pending: { dir: string; rel: string; ancestors: Map<string, string> }[] = [{ dir: root, rel: '', ancestors: new Map([[rootId, root]]) }];
  let statted = 0;
  // Each file once: the same file reached twice (a symbolic link to it or to a directory holding it) would be
  // two instances with the same records, counted twice in every test.
  const seenFiles = new Map<string, string>();
  while (pending.length > 0) {
    const { dir: current, rel, ancestors } = pending.pop()!;
    let names: string[];
    try {
      names = await readdir(current);
    } catch (err) {
      throw new InputError(`${label} class: cannot read directory '${current}': ${describeFsError(err)}`);
    }
    if (names.some((n) => n.includes('\uFFFD'))) await refuseUndecodableNames(current, label);
    names.sort(compareCodeUnits);
    const subdirs: { dir: string; rel: string; ancestors: Map<string, string> }[] = [];
    const prefix = childPrefix(current);
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const path = prefix + name;
      const relativePath = rel === '' ? name : `${rel}/${name}`;
      // Synchronously, in name order: a few µs each, against a round trip through libuv's thread pool
      // each (10 000 files: 145 ms with 64 in flight, ~30 ms so); the event loop runs now and then.
      if (++statted % STATS_PER_TURN === 0) await new Promise(setImmediate);
      let info: Stats;
      try {
        info = statSync(path);
      } catch (err) {
        const dangling = (err as NodeJS.ErrnoException).code === 'ENOENT' && (await lstat(path).catch(() => null))?.isSymbolicLink() === true;
        throw new InputError(`${label} class: cannot read '${path}': ${dangling ? 'a symbolic link to a missing file' : describeFsError(err)}`);
      }
      if (info.isDirectory()) {
        const id = `${info.dev}:${info.ino}`;
        const loop = ancestors.get(id);
        if (loop !== undefined) {
          throw new InputError(`${label} class: '${path}' leads back to '${loop}' (a symbolic link cycle)`, undefined, undefined,
            'remove the link, or point distalyze at a directory without it');
        }
        subdirs.push({ dir: path, rel: relativePath, ancestors: new Map(ancestors).set(id, path) });
      } else if (info.isFile()) {
        const id = `${info.dev}:${info.ino}`;
        const first = seenFiles.get(id);
        if (first !== undefined) {
          throw new InputError(`${label} class: '${path}' is the same file as '${first}' (a symbolic or hard link): it would count twice`, undefined, undefined,
            'remove the link, or point distalyze at a directory without it');
        }
        seenFiles.set(id, path);
        out.push({ path, relativePath, gzip: name.endsWith('.gz'), size: info.size });
      } else {
        // Reading a FIFO or a device could block forever or never end; skipping it would lose data silently.
        throw new InputError(`${label} class: '${path}' is ${specialKind(info)}, not a regular file`, undefined, undefined,
          'distalyze reads regular files (and .gz files) only; move it out of the class directory');
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) pending.push(subdirs[i]!);
  }
  out.sort((a, b) => compareCodeUnits(a.relativePath, b.relativePath));
}

/**
 * What `join(dir, name)` starts with for every name readdir gives (no
 * separator, never `.` or `..`; hidden names are skipped before): `dir`
 * normalized once (`./a//b/` → `a/b/`, `.` → ''), the name then appended.
 * join normalized the whole path each time, and `relative` resolved both
 * paths again to give the relative one: 10 000 files listed in 191 ms in the
 * CLI, 100 ms without them (docs/internals.md, "Reading").
 */
function childPrefix(dir: string): string {
  return join(dir, '_').slice(0, -1);
}

/**
 * A file name that is not UTF-8 decodes with U+FFFD: two such names could
 * become one string (and the file could not be opened by it). Refused,
 * unless the U+FFFD is really in the name.
 */
async function refuseUndecodableNames(dir: string, label: string): Promise<void> {
  const raw = await readdir(dir, { encoding: 'buffer' }).catch(() => [] as Buffer[]);
  const bad = raw.find((n) => !isUtf8(n));
  if (bad !== undefined) {
    throw new InputError(`${label} class: a file name in '${dir}' is not valid UTF-8 ('${bad.toString('utf8')}')`, undefined, undefined,
      'rename it; distalyze names instances by their file names');
  }
}

function specialKind(info: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'a special file';
}

/** Plain code-unit order: the same on every machine and locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT': return 'no such file or directory';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'EISDIR': return 'is a directory';
    case 'ENOTDIR': return 'a part of the path is not a directory';
    case 'ELOOP': return 'too many levels of symbolic links';
    case 'ENAMETOOLONG': return 'file name too long';
    case 'ENOSPC': return 'no space left on device';
    case 'EROFS': return 'read-only file system';
    case 'EMFILE': case 'ENFILE': return 'too many open files';
    default: return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Raw bytes of a file, decompressed when it is `.gz` (`onRead`: a compressed
 * file's bytes as they are read). A plain file's come from synchronous reads
 * (chunks.ts), each chunk a copy of its own (a stream reads ahead of its
 * reader), not from `createReadStream`: its open, each read and its close
 * waited for libuv's pool and then for a turn of the event loop (6 000 CSV
 * files of 1.2 KB: the parse stage idle 6.0 s of 11.2).
 */
export function openInputFile(file: InputFile, highWaterMark = 64 * 1024, onRead?: (n: number) => void): Readable {
  if (plainFile(file)) {
    return Readable.from(copies(plainChunks(file.path, 0, file.size, false, Math.min(highWaterMark, READ_SIZE))), { objectMode: false });
  }
  const raw: Readable = file.path === '-' ? process.stdin : createReadStream(file.path, { highWaterMark });
  if (!file.gzip) return raw;
  if (onRead !== undefined) raw.on('data', (chunk: Buffer) => onRead(chunk.length));
  const gunzip = createGunzip({ chunkSize: highWaterMark });
  // Its failures (corrupt or truncated data, a read error) are the file's: an InputError naming it, whichever
  // reader meets it (the sniffs read a file's first lines too). zlib fails a stream through destroy(err).
  const destroy = gunzip.destroy.bind(gunzip);
  gunzip.destroy = (err?: Error) => destroy(err === undefined || err === null || err instanceof InputError ? err : new InputError(readFailure(err, file), file.path));
  raw.on('error', (err) => gunzip.destroy(err));
  return raw.pipe(gunzip);
}

/** The message for a file's stream that failed: truncated or corrupt gzip, or a file-system error. */
export function readFailure(err: unknown, file: InputFile): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (file.gzip && err instanceof Error && /unexpected end of file/i.test(err.message)) {
    return 'truncated gzip data (unexpected end of file)';
  }
  if (file.gzip && typeof code === 'string' && code.startsWith('Z_')) {
    return `corrupt gzip data (${(err as Error).message})`;
  }
  return `cannot read: ${describeFsError(err)}`;
}

/** Each chunk copied (plainChunks reuses its buffer). */
async function* copies(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) yield Buffer.from(chunk);
}
