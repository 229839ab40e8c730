import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { InputError } from '../errors.js';

/** One input file of a class. */
export interface InputFile {
  /** Path to open, or `-` for standard input. */
  readonly path: string;
  /** Path relative to the class root, with `/` separators: the default instance id. */
  readonly relativePath: string;
  readonly gzip: boolean;
  /** Size on disk in bytes (0 for stdin). */
  readonly size: number;
}

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
  await walk(spec, spec, files);
  if (files.length === 0) {
    throw new InputError(`${label} class: directory '${spec}' holds no log files (hidden files are skipped)`);
  }
  return files;
}

async function walk(root: string, dir: string, out: InputFile[]): Promise<void> {
  // Iterative: deep trees must not overflow the stack.
  const pending: string[] = [dir];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    let names: string[];
    try {
      names = await readdir(current);
    } catch (err) {
      throw new InputError(`cannot read directory '${current}': ${describeFsError(err)}`);
    }
    names.sort(compareCodeUnits);
    const subdirs: string[] = [];
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const path = join(current, name);
      let info;
      try {
        info = await stat(path);
      } catch (err) {
        throw new InputError(`cannot read '${path}': ${describeFsError(err)}`);
      }
      if (info.isDirectory()) subdirs.push(path);
      else if (info.isFile()) {
        out.push({ path, relativePath: relative(root, path).split(sep).join('/'), gzip: name.endsWith('.gz'), size: info.size });
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) pending.push(subdirs[i] as string);
  }
  out.sort((a, b) => compareCodeUnits(a.relativePath, b.relativePath));
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
    default: return err instanceof Error ? err.message : String(err);
  }
}

/** Raw bytes of a file, decompressed when it is `.gz`. */
export function openInputFile(file: InputFile, highWaterMark = 64 * 1024): Readable {
  const raw: Readable = file.path === '-' ? process.stdin : createReadStream(file.path, { highWaterMark });
  if (!file.gzip) return raw;
  const gunzip = createGunzip({ chunkSize: highWaterMark });
  raw.on('error', (err) => gunzip.destroy(err));
  return raw.pipe(gunzip);
}
