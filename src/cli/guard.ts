import { stat, realpath } from 'node:fs/promises';
import { statSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { InputError } from '../errors.js';
import type { InputFile } from '../parse/files.js';
import { checkOutputPath, destinationOf } from './output.js';

/** One report a command may write: the option as typed, and its path (undefined: not asked for; `-`: stdout). */
export type ReportPath = readonly [option: string, path: string | undefined];

/** A directory whose every file the command reads (a class, a baseline, a run), and what it is to the user. */
export type ReadDirectory = readonly [label: string, path: string];

/**
 * The one output guard of every command (main, check, history, templates;
 * translate's output directory uses `isInside`): a report must never destroy
 * what the user has, nor be lost, nor spoil the next run.
 *
 * `before` runs before anything is read: each path is writable, and no two
 * reports (nor a report and output that always goes to stdout, such as
 * `check --github`) lead to the same place. `against` runs once the inputs
 * are listed: a report is none of the input files (by device and inode, so
 * through symbolic and hard links), and no new report lands inside a
 * directory the command reads, where the next run would read it as a log.
 */
export class OutputGuard {
  private constructor(private readonly reports: readonly (readonly [option: string, path: string, where: string | null])[]) {}

  /**
   * `stdoutOnly`: options that always write to standard output (`--github`). Returns the guard for `against`.
   */
  static async before(reports: readonly ReportPath[], stdoutOnly: readonly string[] = []): Promise<OutputGuard> {
    const named = reports.filter((r): r is readonly [string, string] => r[1] !== undefined);
    // Two on standard output as given (`-`, or always there): one stream, two documents that no parser separates.
    const onStdout = [...named.filter((r) => r[1] === '-').map(([o]) => `${o} -`), ...stdoutOnly].sort();
    if (onStdout.length > 1) throw new InputError(`${onStdout[0]} and ${onStdout[1]} both write to standard output; send one of them to a file`);
    for (const [option, path] of named) await checkOutputPath(path, option);
    const seen = new Map<string, readonly [string, string]>(stdoutOnly.length > 0 ? [['fd:1', [stdoutOnly[0]!, '/dev/stdout']]] : []);
    const checked: (readonly [string, string, string | null])[] = [];
    for (const [option, path] of named) {
      const dest = path === '-' ? { fd: 1 } : await destinationOf(path).catch(() => null);
      if (dest === null) {
        checked.push([option, path, null]);
        continue;
      }
      const key = 'fd' in dest ? `fd:${dest.fd}` : dest.path;
      const first = seen.get(key);
      if (first !== undefined) {
        const shown = first[1] === '-' ? path : first[1];
        throw new InputError(`${first[0]} and ${option} both write to '${shown}'; give each report its own file`);
      }
      seen.set(key, [option, path]);
      checked.push([option, path, 'fd' in dest ? null : dest.path]);
    }
    return new OutputGuard(checked);
  }

  /** Refuse a report that is one of `inputs`, or a new file inside one of `directories` (in the order given). */
  async against(inputs: readonly InputFile[], directories: readonly ReadDirectory[] = []): Promise<void> {
    const files = this.reports.filter((r): r is readonly [string, string, string] => r[2] !== null);
    if (files.length === 0) return;
    const existing = new Map<string, readonly [string, string]>(); // device:inode → [option, path]
    for (const [option, path, where] of files) {
      const info = await stat(where).catch(() => null);
      // Inputs are regular files (the listing refuses anything else): only a regular file can be one (not /dev/null).
      if (info?.isFile() === true) existing.set(`${info.dev}:${info.ino}`, [option, path]);
    }
    // Only when a report would replace an existing file: stat the inputs (in input order, so the first match is named).
    // Synchronously: a few µs each instead of a turn of the thread pool each (200 files: ~2.5 → ~0.5 ms).
    if (existing.size > 0) {
      for (const f of inputs) {
        if (f.path === '-') continue;
        const info = statOrNull(f.path);
        const hit = info === null ? undefined : existing.get(`${info.dev}:${info.ino}`);
        if (hit !== undefined) throw new InputError(`${hit[0]} ${hit[1]}: cannot write: it is the input file ${f.path}`);
      }
    }
    const roots = await Promise.all(directories.map(async ([label, dir]) => [label, dir, await realpath(dir).catch(() => resolve(dir))] as const));
    for (const [option, path, where] of files) {
      for (const [label, dir, real] of roots) {
        if (where !== real && isInside(where, real)) {
          throw new InputError(`${option} ${path}: cannot write: it is inside the ${label} ${dir}, whose every file is read as a log`);
        }
      }
    }
  }
}

/** Whether `inner` is `outer` or below it (both absolute). */
export function isInside(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
