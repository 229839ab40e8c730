import { parse } from 'csv-parse';
import { InputError } from '../errors.js';
import { clip } from './dlog.js';
import { openInputFile, type InputFile } from './files.js';
import { MAX_LINE_LENGTH } from './lines.js';
import { invalidUtf8Message, lineAt, Utf8Check, UTF8_HINT } from './utf8-check.js';
import type { RecordSink } from './records.js';
import { parseDecimal, parseTimestamp } from './timestamp.js';

const COLUMNS = ['kind', 'timestamp', 'name', 'value', 'instance'] as const;
type Column = (typeof COLUMNS)[number];

/** CSV or TSV input is chosen by the file name (after any `.gz`). */
export function tableFormatOf(relativePath: string): ',' | '\t' | null {
  const name = relativePath.endsWith('.gz') ? relativePath.slice(0, -3) : relativePath;
  if (name.endsWith('.csv')) return ',';
  if (name.endsWith('.tsv')) return '\t';
  return null;
}

/**
 * Records from CSV/TSV with a header row naming the columns
 * `kind,timestamp,name,value[,instance]` in any order (SPEC §1), parsed with
 * csv-parse. kind is E/event or S/state (or I/instance with the id in `name`);
 * an `instance` column sets the instance of each row.
 * Returns the number of rows that were records.
 */
export async function readCsv(file: InputFile, delimiter: string, sink: RecordSink, onBytes?: (n: number) => void): Promise<{ bytes: number; records: number }> {
  // (A compressed file's progress: its compressed bytes, told as they are read.)
  const source = openInputFile(file, undefined, onBytes);
  // max_record_size: one record (an unclosed quote runs to the end of the file) must not exhaust memory.
  const parser = parse({ delimiter, bom: true, info: true, skip_empty_lines: true, relax_column_count: true, trim: true, max_record_size: MAX_LINE_LENGTH });
  let bytes = 0;
  let newlines = 0;
  const utf8 = new Utf8Check();
  source.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (!file.gzip) onBytes?.(chunk.length);
    // Binary input is an error, as for dlog (readLines), not a table of odd names.
    const nul = chunk.indexOf(0);
    let line = newlines + 1;
    for (let i = chunk.indexOf(10); i !== -1 && (nul === -1 || i < nul); i = chunk.indexOf(10, i + 1)) line++;
    const bad = nul === -1 ? utf8.check(chunk) : null;
    if (nul === -1 && bad === null) {
      newlines = line - 1;
      return;
    }
    if (bad !== null) {
      parser.destroy(new InputError(invalidUtf8Message(bad.byte, bytes - chunk.length + bad.at), file.path, lineAt(chunk, bad.at, newlines), UTF8_HINT));
      source.unpipe(parser);
      source.pause();
      return;
    }
    parser.destroy(new InputError(`binary data (a NUL byte near byte ${bytes - chunk.length + nul}); not a text table`, file.path, line,
      file.gzip ? undefined : 'if it is compressed, name it *.gz'));
    source.unpipe(parser);
    source.pause();
  });
  source.pipe(parser);
  source.on('error', (err) => parser.destroy(err));
  let index: Record<Column, number> | null = null;
  let columns = 0;
  let records = 0;
  let currentInstance: string | null = null;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines;
      if (index === null) {
        index = headerIndex(record, file.path, line);
        columns = record.length;
        continue;
      }
      // More fields than the header: usually an unquoted delimiter inside a name, which would shift the fields silently.
      // (Fewer are fine: a trailing empty value may be left out.)
      if (record.length > columns) {
        throw new InputError(`row has ${record.length} fields, the header ${columns}`, file.path, line,
          `a field holding ${delimiter === ',' ? 'a comma' : 'a TAB'} must be quoted: "${delimiter === ',' ? 'a,b' : 'a<TAB>b'}"`);
      }
      const field = (c: Column): string => (index![c] >= 0 ? record[index![c]] ?? '' : '');
      if (index.instance >= 0) {
        const id = field('instance');
        if (id.length === 0) throw new InputError('empty instance id', file.path, line);
        if (id !== currentInstance) {
          sink.instance(id);
          currentInstance = id;
        }
      }
      const kind = field('kind').toLowerCase();
      const name = field('name');
      if (kind === 'i' || kind === 'instance') {
        if (name.length === 0) throw new InputError('instance row has an empty id in the name column', file.path, line);
        sink.instance(name);
        records++;
        continue;
      }
      if (kind !== 'e' && kind !== 'event' && kind !== 's' && kind !== 'state') {
        throw new InputError(`kind '${clip(field('kind'))}' is not E, S or I`, file.path, line);
      }
      const tText = field('timestamp');
      const t = parseTimestamp(tText);
      if (Number.isNaN(t)) throw new InputError(`timestamp '${clip(tText)}' is neither decimal seconds nor ISO-8601`, file.path, line);
      if (name.length === 0) throw new InputError('empty name', file.path, line);
      if (kind === 'e' || kind === 'event') {
        sink.event(t, name);
      } else {
        const vText = field('value');
        const value = parseDecimal(vText);
        if (Number.isNaN(value)) throw new InputError(`state '${clip(name)}' has value '${clip(vText)}', not a finite decimal number`, file.path, line);
        sink.state(t, name, value);
      }
      records++;
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    const e = err as { message?: string; lines?: number; code?: string };
    if (e.code === 'CSV_MAX_RECORD_SIZE') {
      throw new InputError('a CSV record grows over the 1 MiB limit by this line', file.path, e.lines, 'an unclosed quote (\") makes the rest of the file one field');
    }
    if (e.code?.startsWith('Z_') || /unexpected end of file/i.test(e.message ?? '')) {
      throw new InputError(`corrupt or truncated gzip data (${e.message})`, file.path);
    }
    throw new InputError(`not valid CSV: ${e.message ?? String(err)}`, file.path, e.lines);
  } finally {
    if (file.path !== '-') source.destroy();
  }
  if (utf8.end()) throw new InputError(invalidUtf8Message(undefined, bytes), file.path, newlines + 1, UTF8_HINT);
  if (index === null) throw new InputError('empty CSV file: expected a header row kind,timestamp,name,value[,instance]', file.path);
  return { bytes, records };
}

function headerIndex(header: string[], file: string, line: number): Record<Column, number> {
  const lower = header.map((h) => h.trim().toLowerCase());
  const index = Object.fromEntries(COLUMNS.map((c) => [c, lower.indexOf(c)])) as Record<Column, number>;
  const missing = (['kind', 'timestamp', 'name'] as const).filter((c) => index[c] < 0);
  if (missing.length > 0) {
    throw new InputError(`CSV header lacks column(s) ${missing.join(', ')}; expected kind,timestamp,name,value[,instance]`, file, line);
  }
  return index;
}
