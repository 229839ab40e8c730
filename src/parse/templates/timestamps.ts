import { InputError } from '../../errors.js';
import { makeTimeFormat, type TimeFormat } from '../translators/time-formats.js';

/**
 * Per-file timestamp detection for raw logs (no translator).
 *
 * The first `SAMPLE_LINES` non-empty lines of a file are tried against every
 * candidate format, starting at each of the first `MAX_FIELD` + 1 fields of the
 * line (fields split on spaces and tabs, or commas for CSV; a leading `[` is
 * skipped). The (format, field) that parses the most sample lines to a
 * plausible time wins, ties going to the earlier candidate and field; it must
 * parse at least half of them. `--timestamp FORMAT` forces the format (any
 * name or format string a rules file accepts); its field is still detected.
 *
 * Plausible: a date between 1990 and 2100, or for time-of-day formats a time
 * under a day, so a process id is not read as epoch seconds.
 */
export const SAMPLE_LINES = 50;
export const MAX_FIELD = 5;

/** Candidates, most specific first (a format string, or a name of time-formats.ts). */
export const TIMESTAMP_CANDIDATES: readonly string[] = [
  // log4j's layouts first: the same times as ISO-8601, parsed faster (a cached prefix).
  'yyyy-MM-dd HH:mm:ss,SSS',
  'yyyy-MM-dd HH:mm:ss.SSS',
  "yyyy-MM-dd'T'HH:mm:ss.SSS",
  'iso8601',
  'yyyy/MM/dd HH:mm:ss.SSS',
  'yyyy/MM/dd HH:mm:ss',
  'yyyy-MM-dd-HH.mm.ss.SSS',
  'yy/MM/dd HH:mm:ss',
  'yyyyMMdd-H:m:s:SSS',
  'dd/MMM/yyyy:HH:mm:ss Z',
  'EEE MMM d HH:mm:ss yyyy',
  'syslog',
  'MM-dd HH:mm:ss.SSS',
  'yyMMdd HHmmss',
  'epoch-ms',
  'epoch-s',
  // A month and day without a year before a time of day (Proxifier's `[10.30 16:49:06]`): else the time of day
  // alone would be read, and the date left in the message.
  'MM.dd HH:mm:ss',
  'HH:mm:ss.SSS',
  'HH:mm:ss',
];

/** Human names for the error message. */
const DESCRIBED = 'ISO-8601 and log4j (yyyy-MM-dd HH:mm:ss,SSS), yyyy/MM/dd HH:mm:ss, yy/MM/dd HH:mm:ss, dd/MMM/yyyy:HH:mm:ss Z, ' +
  'EEE MMM d HH:mm:ss yyyy, syslog (MMM d HH:mm:ss), MM-dd HH:mm:ss.SSS, yyMMdd HHmmss, epoch seconds or milliseconds, MM.dd HH:mm:ss, HH:mm:ss.SSS';

export interface FileTimestamp {
  /** The format's name or format string (for makeTimeFormat). */
  readonly format: string;
  /** The field (0-based) the timestamp starts at. */
  readonly field: number;
  /** Whether the file is comma-separated (CSV). */
  readonly comma: boolean;
}

const MIN_TIME = 631152000; // 1990-01-01
const MAX_TIME = 4102444800; // 2100-01-01

/**
 * Where a timestamp of `format` starts in `line` at `field`: the offset of the
 * field (after a `[`), or -1 when the line has fewer fields.
 */
export function fieldStart(line: string, field: number, comma: boolean): number {
  let i = 0;
  const n = line.length;
  if (comma) {
    for (let f = 0; f < field; f++) {
      const k = line.indexOf(',', i);
      if (k === -1) return -1;
      i = k + 1;
    }
  } else {
    while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    for (let f = 0; f < field; f++) {
      while (i < n && line.charCodeAt(i) !== 32 && line.charCodeAt(i) !== 9) i++;
      while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
      if (i >= n) return -1;
    }
  }
  if (line.charCodeAt(i) === 91 /* [ */) i++;
  return i;
}

export function plausible(t: number, format: TimeFormat): boolean {
  return plausibleTime(t, isTimeOfDay(format));
}

/** Whether a format reads a time of day only (`HH:mm:ss…`), whose times are plausible under a day. */
export function isTimeOfDay(format: TimeFormat): boolean {
  return format.name.startsWith('HH');
}

/** plausible, with isTimeOfDay of the format computed once per file. */
export function plausibleTime(t: number, timeOfDay: boolean): boolean {
  if (Number.isNaN(t)) return false;
  return timeOfDay ? t >= 0 && t < 86401 : t >= MIN_TIME && t < MAX_TIME;
}

/**
 * Detect the timestamp of a file from its sample lines. `forced` limits the
 * candidates to one format. Throws an InputError naming the file when none fits.
 */
export function detectTimestamp(file: string, sample: readonly string[], comma: boolean, year: number, forced?: string): FileTimestamp {
  const lines = sample.filter((l) => l.trim().length > 0).slice(0, SAMPLE_LINES);
  const candidates = forced !== undefined ? [forced] : TIMESTAMP_CANDIDATES;
  let best: FileTimestamp | null = null;
  let bestCount = 0;
  for (const name of candidates) {
    let format: TimeFormat;
    try {
      format = makeTimeFormat(name, { year });
    } catch (err) {
      throw new InputError(`--timestamp: ${err instanceof Error ? err.message : String(err)}`);
    }
    for (let field = 0; field <= MAX_FIELD; field++) {
      let count = 0;
      for (let i = 0; i < lines.length; i++) {
        // Only more lines than the best so far can win: stop once the lines left cannot get there.
        if (count + (lines.length - i) <= bestCount) break;
        const line = lines[i] as string;
        const start = fieldStart(line, field, comma);
        if (start >= 0 && plausible(format.parse(line, start), format) && endsField(line, format.end, comma)) count++;
      }
      if (count > bestCount) {
        bestCount = count;
        best = { format: name, field, comma };
        // Every sample line parsed: no later candidate can do better (ties go to the earlier), so stop here.
        if (count === lines.length) return best;
      }
    }
  }
  if (best === null || bestCount * 2 < lines.length || lines.length === 0) {
    const what = forced !== undefined ? `no timestamp in the format '${forced}'` : 'no timestamp format found';
    const tried = forced !== undefined ? '' : ` (tried ${DESCRIBED})`;
    throw new InputError(`${what} in the first ${lines.length} lines${tried}`, file, undefined,
      forced !== undefined ? 'check the format, or write a translator (--translator)' : 'name it with --timestamp FORMAT (e.g. --timestamp "dd.MM.yyyy HH:mm:ss"), or write a translator (--translator)');
  }
  return best;
}

/** A timestamp must end where its field ends (or at a bracket or punctuation), so `12:00:01abc` is no time. */
export function endsField(line: string, end: number, comma: boolean): boolean {
  if (end >= line.length) return true;
  const c = line.charCodeAt(end);
  if (comma) return c === 44;
  return c === 32 || c === 9 || c === 93 /* ] */ || c === 44 || c === 58 /* : */ || c === 124 /* | */ || c === 45 /* - */;
}
