import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { InputError } from '../errors.js';
import { clip } from './dlog.js';
import { compareCodeUnits, describeFsError, openInputFile, type InputFile } from './files.js';
import { MAX_LINE_LENGTH } from './lines.js';
import { serviceOfPod } from './spans.js';
import { parseDecimal, parseTimestamp } from './timestamp.js';

/**
 * Resource metrics: a time series per entity (pod, host, container), read from
 * CSV files (`.csv`, `.csv.gz`) in the `--metrics` directories, e.g. the
 * TrainTicket dataset's `TimeStamp,PodName,CpuUsageRate(%),MemoryUsageRate(%),…`.
 *
 * Columns: the entity is the first column named (case-insensitively) PodName,
 * Pod, ServiceName, Service, Container, Host, Node or Entity, unless
 * `--metrics-entity` names one; the time is the first named TimeStamp,
 * Timestamp or Time whose values parse, unless `--metrics-time` names one.
 * Times are epoch seconds, milliseconds, microseconds or nanoseconds (told
 * apart by magnitude), or ISO-8601. Every other column whose values are
 * decimal numbers is a metric (empty cells are missing samples). A cell that
 * says a value is missing or out of range (`NaN`, `N/A`, `-`, `null`, `inf`,
 * `1e999`) is a missing sample too, counted and reported (one such cell of a
 * Prometheus export must not drop the metric for every pod); a column with any
 * other text is left out, reported when it also holds numbers. A row with more
 * fields than the header is an error (a comma inside a name shifts its cells).
 */
export interface MetricOptions {
  readonly entityColumn?: string;
  readonly timeColumn?: string;
}

/** One entity's samples, sorted by time: values[m][k] is metric m at times[k] (NaN = missing). */
export interface EntitySeries {
  readonly entity: string;
  readonly times: Float64Array;
  readonly values: Float64Array[];
}

/** All metric series, by service (the entity with any Kubernetes replica suffix removed). */
export interface MetricSeries {
  readonly metricNames: readonly string[];
  readonly byService: ReadonlyMap<string, readonly EntitySeries[]>;
  readonly files: number;
  readonly samples: number;
  /** Cells skipped and columns left out, counted, one line each (for the run's notes). */
  readonly notes: readonly string[];
}

/** Cells that say a value is missing or not finite: a missing sample, counted. */
const MISSING_CELL = /^[+-]?(nan|inf|infinity)$|^(n\/?a|-|null|none|undefined)$/i;

/** Whether a cell that is no finite number says it is missing (MISSING_CELL), or is a number out of double range (1e999). */
export function missingCell(text: string): boolean {
  return MISSING_CELL.test(text) || (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) && !Number.isFinite(Number(text)));
}

const ENTITY_COLUMNS = ['podname', 'pod', 'servicename', 'service', 'container', 'host', 'node', 'entity'];
const TIME_COLUMNS = ['timestamp', 'time'];

/** Epoch time of any common unit → seconds, by magnitude; text that is not a number is tried as ISO-8601. */
export function epochSeconds(text: string): number {
  const x = parseDecimal(text);
  if (Number.isNaN(x)) return parseTimestamp(text);
  const a = Math.abs(x);
  return a >= 1e17 ? x / 1e9 : a >= 1e14 ? x / 1e6 : a >= 1e11 ? x / 1e3 : x;
}

/** Read every metric file of the directories (recursively, sorted; hidden files skipped). */
export async function readMetrics(dirs: readonly string[], options: MetricOptions = {}): Promise<MetricSeries> {
  const files: string[] = [];
  for (const dir of dirs) {
    const found = await listCsv(dir);
    if (found.length === 0) throw new InputError(`--metrics '${dir}' holds no .csv or .csv.gz file`);
    files.push(...found);
  }
  const metricIndex = new Map<string, number>();
  const metricNames: string[] = [];
  const raw = new Map<string, { t: number[]; v: Map<number, number>[] }>();
  let samples = 0;
  let missing = 0;
  let missingExample = '';
  const notes: string[] = [];
  for (const path of files) {
    const rows = await readTable(path);
    if (rows.length === 0) continue;
    const header = rows[0]!.record.map((h) => h.trim());
    const lower = header.map((h) => h.toLowerCase());
    const pick = (given: string | undefined, defaults: string[], option: string): number => {
      if (given !== undefined) {
        const i = lower.indexOf(given.toLowerCase());
        if (i < 0) throw new InputError(`${option} ${given}: no such column (the header has ${header.join(', ')})`, path, rows[0]!.line);
        return i;
      }
      for (const d of defaults) {
        const i = lower.indexOf(d);
        if (i >= 0 && (option !== '--metrics-time' || rows.length < 2 || !Number.isNaN(epochSeconds((rows[1]!.record[i] ?? '').trim())))) return i;
      }
      throw new InputError(`no ${option === '--metrics-time' ? 'time' : 'entity'} column (looked for ${defaults.join(', ')}); name it with ${option}`, path, rows[0]!.line);
    };
    const entityCol = pick(options.entityColumn, ENTITY_COLUMNS, '--metrics-entity');
    const timeCol = pick(options.timeColumn, TIME_COLUMNS, '--metrics-time');
    // A metric column holds decimal numbers (or nothing) in every row, and one at least: parsed once here (NaN: empty).
    const metricCols: { index: number; values: Float64Array }[] = [];
    for (let k = 1; k < rows.length; k++) {
      const { record, line } = rows[k]!;
      if (record.length > header.length && record.slice(header.length).some((c) => c.trim() !== '')) {
        throw new InputError(`row has ${record.length} fields, the header ${header.length} (a comma inside a value?)`, path, line);
      }
    }
    for (let i = 0; i < header.length; i++) {
      if (i === entityCol || i === timeCol || /^node/i.test(header[i]!)) continue;
      const values = new Float64Array(rows.length - 1);
      let text = -1;
      let any = false;
      let skipped = 0;
      let example = '';
      for (let k = 1; k < rows.length && text < 0; k++) {
        const c = (rows[k]!.record[i] ?? '').trim();
        values[k - 1] = c === '' ? Number.NaN : parseDecimal(c);
        if (c === '' || !Number.isNaN(values[k - 1]!)) {
          any ||= c !== '';
        } else if (missingCell(c)) {
          if (skipped++ === 0) example = `${path}:${rows[k]!.line} column ${header[i]!}: '${clip(c)}'`;
        } else {
          text = k;
        }
      }
      if (text >= 0 && any) notes.push(`${path}: column ${header[i]!} left out of the metrics: '${clip((rows[text]!.record[i] ?? '').trim())}' on line ${rows[text]!.line} is not a number`);
      if (text >= 0 || !any) continue;
      if (skipped > 0 && missing === 0) missingExample = example;
      missing += skipped;
      let index = metricIndex.get(header[i]!);
      if (index === undefined) {
        metricIndex.set(header[i]!, (index = metricNames.length));
        metricNames.push(header[i]!);
      }
      metricCols.push({ index, values });
    }
    for (let k = 1; k < rows.length; k++) {
      const { record, line } = rows[k]!;
      const entity = (record[entityCol] ?? '').trim();
      if (entity === '') throw new InputError('empty entity name', path, line);
      const tText = (record[timeCol] ?? '').trim();
      const t = epochSeconds(tText);
      if (Number.isNaN(t)) throw new InputError(`metric time '${clip(tText)}' is neither an epoch number nor ISO-8601`, path, line);
      let series = raw.get(entity);
      if (series === undefined) raw.set(entity, (series = { t: [], v: [] }));
      const values = new Map<number, number>();
      for (const col of metricCols) {
        const x = col.values[k - 1]!;
        if (!Number.isNaN(x)) values.set(col.index, x);
      }
      series.t.push(t);
      series.v.push(values);
      samples++;
    }
  }
  const byService = new Map<string, EntitySeries[]>();
  for (const entity of [...raw.keys()].sort(compareCodeUnits)) {
    const s = raw.get(entity)!;
    // Samples of one entity at one time given twice (two directories holding the same day) count once: the first read.
    const order = s.t.map((_, k) => k).sort((a, b) => s.t[a]! - s.t[b]! || a - b).filter((k, i, all) => i === 0 || s.t[all[i - 1]!] !== s.t[k]);
    const times = Float64Array.from(order, (k) => s.t[k]!);
    const values = metricNames.map((_, m) => Float64Array.from(order, (k) => s.v[k]!.get(m) ?? Number.NaN));
    const service = serviceOfPod(entity);
    let list = byService.get(service);
    if (list === undefined) byService.set(service, (list = []));
    list.push({ entity, times, values });
  }
  if (missing > 0) {
    notes.unshift(`--metrics: ${missing.toLocaleString('en-US')} cell${missing === 1 ? '' : 's'} said the value is missing or out of range (NaN, N/A, -, inf, 1e999…) and ${missing === 1 ? 'was' : 'were'} skipped as missing samples, e.g. ${missingExample}`);
  }
  return { metricNames, byService, files: files.length, samples, notes };
}

async function listCsv(dir: string): Promise<string[]> {
  let info;
  try {
    info = await stat(dir);
  } catch (err) {
    throw new InputError(`--metrics: cannot read '${dir}': ${describeFsError(err)}`);
  }
  if (info.isFile()) return [dir];
  const out: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const names = (await readdir(current, { withFileTypes: true })).sort((a, b) => compareCodeUnits(a.name, b.name));
    for (const d of names) {
      if (d.name.startsWith('.')) continue;
      const path = join(current, d.name);
      if (d.isDirectory()) pending.push(path);
      else if (/\.csv(\.gz)?$/i.test(d.name)) out.push(path);
    }
  }
  return out.sort(compareCodeUnits);
}

async function readTable(path: string): Promise<TableRow[]> {
  const file: InputFile = { path, relativePath: path, gzip: path.endsWith('.gz'), size: 0 };
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of openInputFile(file)) {
      chunks.push(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
  } catch (err) {
    throw readError(err, path);
  }
  const plain = bytes <= PLAIN_TABLE_MAX_BYTES ? plainTable(Buffer.concat(chunks).toString('utf8')) : null;
  if (plain !== null) return plain;
  const parser = parse({ bom: true, info: true, skip_empty_lines: true, relax_column_count: true, max_record_size: MAX_LINE_LENGTH });
  for (const chunk of chunks) parser.write(chunk);
  parser.end();
  const rows: TableRow[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) rows.push({ record, line: info.lines });
  } catch (err) {
    throw readError(err, path);
  }
  return rows;
}

/** Largest file read as one string by plainTable (V8's strings end near 512 MiB). */
const PLAIN_TABLE_MAX_BYTES = 256 << 20;

/** A table's row: its cells, and the line it ends on. */
interface TableRow {
  readonly record: string[];
  readonly line: number;
}

function readError(err: unknown, path: string): InputError {
  const e = err as { message?: string; lines?: number; code?: string };
  if (e.code?.startsWith('Z_') || /unexpected end of file/i.test(e.message ?? '')) return new InputError(`corrupt or truncated gzip data (${e.message})`, path);
  return new InputError(`not valid CSV: ${e.message ?? String(err)}`, path, e.lines);
}

/**
 * The rows of a CSV text with no quote and no carriage return, as csv-parse
 * reads it with readTable's options (a leading BOM dropped, empty lines
 * skipped, rows of any length): each line split at its commas, ~10× faster.
 * Null for any other text (csv-parse reads it), or one with a line longer
 * than MAX_LINE_LENGTH (csv-parse reports it). Metric exports (the
 * TrainTicket dataset's, Prometheus's) are such texts.
 */
export function plainTable(text: string): TableRow[] | null {
  if (text.includes('"') || text.includes('\r')) return null;
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n');
  const rows: TableRow[] = [];
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k] as string;
    if (line.length > MAX_LINE_LENGTH) return null;
    if (line !== '') rows.push({ record: line.split(','), line: k + 1 });
  }
  return rows;
}
