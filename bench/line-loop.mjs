// The language's floor: a bare Node loop that only splits files into lines.
//
//   node bench/line-loop.mjs LISTFILE        (LISTFILE: one path per line)
//
// Reads each file as a stream of 64 KB chunks (as distalyze does), decodes
// UTF-8, splits on '\n' and materialises every line as a string; it counts
// lines and characters so that the work cannot be optimised away. Prints one
// JSON line: {"ms", "bytes", "lines", "chars"}.
import { createReadStream, readFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { LineSplitter } from './line-split.mjs';

const files = readFileSync(process.argv[2], 'utf8').split('\n').filter((p) => p.length > 0);
const t0 = performance.now();
let bytes = 0;
let lines = 0;
let chars = 0;
for (const path of files) {
  const decoder = new StringDecoder('utf8');
  const split = new LineSplitter();
  for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) {
    bytes += chunk.length;
    split.write(decoder.write(chunk));
  }
  split.end(decoder.end());
  lines += split.lines;
  chars += split.chars;
}
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ ms: Math.round(ms), bytes, lines, chars })}\n`);
