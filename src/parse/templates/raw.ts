/**
 * Whether the input is raw logs, to mine templates from, rather than records:
 * the sniff alone, without the miner (templates/index.ts and what it loads,
 * whose loading took 5–8 ms of every run's start on a dlog set of 200 files,
 * before the first line was read; docs/internals.md, "Template mining").
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { openInputFile, SPAN_OR_TABLE_NAME, type InputFile } from '../files.js';
import type { ClassName } from '../records.js';

const SNIFF_LINES = 20;
const RECORD = /^[IES]\t/;

/**
 * Each class's log files, when the input is raw logs (no dlog records): the
 * files to mine, span files left out (they are read natively beside the
 * logs, src/parse/spans.ts). Undefined when there is nothing to mine or a
 * class holds records.
 */
export async function rawLogs(classes: Readonly<Record<ClassName, readonly InputFile[]>>): Promise<Record<ClassName, InputFile[]> | undefined> {
  const logs = { good: await withoutSpanFiles(classes.good), bad: await withoutSpanFiles(classes.bad) };
  if (logs.good.length + logs.bad.length === 0) return undefined;
  for (const c of ['good', 'bad'] as const) if (logs[c].length > 0 && !(await looksRaw(logs[c]))) return undefined;
  return logs;
}

/** The files that are not span files. Only a name a span file may have is looked into (spans.ts loaded then). */
async function withoutSpanFiles(files: readonly InputFile[]): Promise<InputFile[]> {
  const out: InputFile[] = [];
  for (const f of files) {
    if (f.path === '-' || !SPAN_OR_TABLE_NAME.test(f.relativePath)) out.push(f);
    else if ((await (await import('../spans.js')).detectSpanFormat(f)) === null) out.push(f);
  }
  return out;
}

/**
 * Whether a class's files are raw text rather than records: none of the first
 * lines of its first file with any content is a dlog record, and a CSV/TSV
 * header does not name `kind`, `timestamp` and `name`. Files that hold only
 * blank or comment lines tell nothing and are passed over (an empty file first
 * in a class of raw logs must not switch the run to records). Standard input
 * is never sniffed (it cannot be read twice): it is read as records.
 */
export async function looksRaw(files: readonly InputFile[]): Promise<boolean> {
  let first: InputFile | undefined;
  let lines: string[] = [];
  for (const f of files) {
    if (f.path === '-') return false;
    lines = (await firstLines(f, SNIFF_LINES * 4)).filter((l) => l.trim() !== '' && !l.startsWith('#')).slice(0, SNIFF_LINES);
    if (lines.length > 0) {
      first = f;
      break;
    }
  }
  if (first === undefined) return false;
  const name = first.relativePath.replace(/\.gz$/, '');
  if (name.endsWith('.csv') || name.endsWith('.tsv')) {
    const header = (lines[0] as string).toLowerCase().split(name.endsWith('.csv') ? ',' : '\t').map((s) => s.trim().replace(/^"(.*)"$/, '$1'));
    return !(header.includes('kind') && header.includes('timestamp') && header.includes('name'));
  }
  return !lines.some((l) => RECORD.test(l));
}

/**
 * The first `n` lines of a file (reads at most `maxChars`, 256 KB unless told), in 64 KiB chunks
 * (openInputFile's), each decoded on its own. A plain file is read
 * synchronously: the same chunks, without a stream's round trips.
 */
export async function firstLines(file: InputFile, n: number, maxChars = 256 * 1024): Promise<string[]> {
  let text = '';
  const enough = (): boolean => text.split('\n').length > n || text.length > maxChars;
  if (file.path === '-' || file.gzip) {
    const stream = openInputFile(file, CHUNK);
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        text += chunk.toString('utf8');
        if (enough()) break;
      }
    } finally {
      stream.destroy();
    }
  } else {
    const fd = openSync(file.path, 'r');
    try {
      const chunk = Buffer.allocUnsafe(CHUNK);
      for (let got = readSync(fd, chunk, 0, CHUNK, null); got > 0; got = readSync(fd, chunk, 0, CHUNK, null)) {
        text += chunk.toString('utf8', 0, got);
        if (enough()) break;
      }
    } finally {
      closeSync(fd);
    }
  }
  return text.replace(/^\uFEFF/, '').split('\n').slice(0, n).map((l) => l.replace(/\r$/, ''));
}

const CHUNK = 64 * 1024;
