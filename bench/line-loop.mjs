// The language's floor: a bare Node loop that only splits files into lines.
//
//   node bench/line-loop.mjs LISTFILE        (LISTFILE: one path per line)
//   node bench/line-loop.mjs LISTFILE --sync
//
// Reads each file as a stream of 64 KB chunks, decodes UTF-8, splits on '\n'
// and materialises every line as a string; it counts lines and characters so
// that the work cannot be optimised away. Prints one JSON line: {"ms",
// "bytes", "lines", "chars"}. With --sync, the same 64 KB chunks come from
// synchronous reads into one reused buffer, as distalyze reads plain files
// since the thirty-third pass of issue 17: no stream's round trips through
// libuv's pool, which were half this loop's time on the dlog set and most of
// it on 10 000 small files (docs/internals.md, "Reading"). The targets keep the
// stream loop as their yardstick; the bench prints the other beside it.
import { closeSync, createReadStream, openSync, readFileSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { LineSplitter } from './line-split.mjs';

const files = readFileSync(process.argv[2], 'utf8').split('\n').filter((p) => p.length > 0);
const sync = process.argv.includes('--sync');
const buffer = Buffer.allocUnsafe(64 * 1024);

/** A file's 64 KB chunks: from a stream, or (--sync) read synchronously into `buffer` (each valid until the next). */
async function* chunksOf(path) {
  if (!sync) {
    yield* createReadStream(path, { highWaterMark: 64 * 1024 });
    return;
  }
  const fd = openSync(path, 'r');
  try {
    for (let n = readSync(fd, buffer, 0, buffer.length, null); n > 0; n = readSync(fd, buffer, 0, buffer.length, null)) yield buffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}
const t0 = performance.now();
let bytes = 0;
let lines = 0;
let chars = 0;
for (const path of files) {
  const decoder = new StringDecoder('utf8');
  const split = new LineSplitter();
  for await (const chunk of chunksOf(path)) {
    bytes += chunk.length;
    split.write(decoder.write(chunk));
  }
  split.end(decoder.end());
  lines += split.lines;
  chars += split.chars;
}
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ ms: Math.round(ms), bytes, lines, chars })}\n`);
