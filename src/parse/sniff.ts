import { open } from 'node:fs/promises';
import type { InputFile } from './files.js';

/** Bytes read from the head of a file to see how it names instances. */
const HEAD_BYTES = 64 * 1024;

/**
 * Whether a plain dlog file names its instances by `I` records, many of them
 * (at least two in its first 64 KiB: a log of requests, not one run's log,
 * which names at most itself). Compressed files, tables and standard input
 * are not looked at (false); nor is what a translator would make of a file.
 * The CLI asks this of a large input before relaunching it (cli/relaunch.ts):
 * memory grows with instances, not bytes.
 */
export async function namesManyInstances(file: InputFile): Promise<boolean> {
  if (file.path === '-' || file.gzip || /\.(csv|tsv)$/i.test(file.relativePath)) return false;
  const handle = await open(file.path, 'r');
  try {
    const head = Buffer.alloc(Math.min(HEAD_BYTES, file.size));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const text = head.toString('latin1', 0, bytesRead);
    let named = 0;
    for (let at = text.indexOf('I\t'); at >= 0 && named < 2; at = text.indexOf('I\t', at + 2)) {
      if (at === 0 || text.charCodeAt(at - 1) === 10) named++;
    }
    return named >= 2;
  } finally {
    await handle.close();
  }
}
