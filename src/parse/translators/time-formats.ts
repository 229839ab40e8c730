/**
 * Timestamp formats a rules translator can name without code (SPEC §1):
 * `iso8601`, `log4j`, `syslog`, `yyMMdd HHmmss`, `epoch-s|ms|us|ns`, or a custom
 * format string such as `dd/MMM/yyyy:HH:mm:ss Z`. All times are UTC unless the
 * text carries a zone.
 *
 * A format parses text at a position, without regexes or slicing on the fast
 * path, and records where the timestamp ended (`end`) so a caller can check that
 * a captured group was consumed whole.
 */
export interface TimeFormat {
  /** The name or format string it was made from, for messages. */
  readonly name: string;
  /** Whether the text has no year, so the year comes from an option (syslog). */
  readonly needsYear: boolean;
  /** Seconds since the epoch of the timestamp starting at `start`, or NaN when the text does not fit. */
  parse(text: string, start: number): number;
  /** Index just after the last successfully parsed timestamp. */
  readonly end: number;
}

export interface TimeFormatOptions {
  /** Year for formats without one (syslog); the caller picks the default. */
  readonly year: number;
}

/** The named formats and what they stand for, for documentation and error messages. */
export const NAMED_TIME_FORMATS: Readonly<Record<string, string>> = {
  iso8601: 'ISO-8601, e.g. 2026-11-20T10:00:01.123Z or 2026-11-20 10:00:01,123+01:00',
  log4j: 'yyyy-MM-dd HH:mm:ss,SSS',
  syslog: 'MMM d HH:mm:ss (the year from --year)',
  'yyMMdd HHmmss': 'Hadoop 1.x style, e.g. 081109 203615',
  'epoch-s': 'seconds since 1970, e.g. 1763632801.123',
  'epoch-ms': 'milliseconds since 1970',
  'epoch-us': 'microseconds since 1970',
  'epoch-ns': 'nanoseconds since 1970',
};

const ALIASES: Readonly<Record<string, string>> = {
  log4j: 'yyyy-MM-dd HH:mm:ss,SSS',
  syslog: 'MMM d HH:mm:ss',
};

/**
 * The TimeFormat for a name or custom format string. Throws an Error with a
 * readable message when it is neither (the caller adds the translator's path).
 */
export function makeTimeFormat(spec: string, options: TimeFormatOptions): TimeFormat {
  if (spec === 'iso8601' || spec === 'iso') return new IsoFormat(spec);
  const epoch = EPOCH_DIGITS[spec];
  if (epoch !== undefined) return new EpochFormat(spec, epoch);
  const pattern = ALIASES[spec] ?? spec;
  let layout = layouts.get(pattern);
  if (layout === undefined) {
    const tokens = tokenize(pattern);
    if (!tokens.some((t) => t.kind === 'hour' || t.kind === 'hour12')) {
      throw new Error(`unknown timestamp format '${spec}': name one of ${Object.keys(NAMED_TIME_FORMATS).join(', ')}, ` +
        `or write a format string with at least HH (e.g. 'yyyy/MM/dd HH:mm:ss.SSS')`);
    }
    layout = layoutOf(tokens);
    layouts.set(pattern, layout);
  }
  return new PatternFormat(spec, layout, options.year);
}

/**
 * A format string's tokens as PatternFormat reads them, made once per string:
 * template mining tries each candidate format on each file's first lines
 * (6 000 raw logs: ~0.2 s of building the same tokens again).
 */
interface PatternLayout {
  readonly needsYear: boolean;
  readonly kinds: Uint8Array;
  readonly mins: Uint8Array;
  readonly maxs: Uint8Array;
  readonly codes: Uint16Array;
  readonly hasFraction: boolean;
  readonly cacheable: boolean;
}

const layouts = new Map<string, PatternLayout>();

function layoutOf(tokens: readonly Token[]): PatternLayout {
  return {
    needsYear: !tokens.some((t) => t.kind === 'year4' || t.kind === 'year2') && tokens.some((t) => t.kind === 'month' || t.kind === 'monthName'),
    kinds: Uint8Array.from(tokens, (t) => KIND_CODES[t.kind]),
    mins: Uint8Array.from(tokens, (t) => t.min),
    maxs: Uint8Array.from(tokens, (t) => Math.min(t.max, 255)),
    codes: Uint16Array.from(tokens, (t) => t.code),
    hasFraction: tokens.some((t) => t.kind === 'fraction'),
    cacheable: prefixCacheable(tokens),
  };
}

// ---------------------------------------------------------------------------
// ISO-8601: yyyy-MM-dd, T or a space, HH:mm, then optionally :ss with a fraction
// of 1–9 digits after . or , (more digits end the timestamp), and Z, ±HH, ±HHMM
// or ±HH:MM. Read by hand: a regex and parseIsoTimestamp cost ~1 µs a line.

/** The characters of "yyyy-MM-ddTHH:mm" (−1: a digit; T or a space at 10). */
const ISO_MINUTE = '####-##-##?##:##';
const ISO_MINUTE_LENGTH = ISO_MINUTE.length;

class IsoFormat implements TimeFormat {
  readonly needsYear = false;
  end = 0;
  /** The last text up to its minute ("2026-11-20T10:00") as character codes, and its seconds (0: none yet). */
  private readonly minute = new Uint16Array(ISO_MINUTE_LENGTH);
  private minuteLength = 0;
  private minuteSeconds = 0;
  /** The last date's ten characters and its seconds at 00:00 UTC. */
  private readonly day = new Uint16Array(10);
  private dayKnown = false;
  private daySeconds = 0;

  constructor(readonly name: string) {}

  parse(text: string, start: number): number {
    if (!this.sameMinute(text, start) && !this.readMinute(text, start)) return NaN;
    let i = start + ISO_MINUTE_LENGTH;
    let second = 0;
    let fraction = -1;
    if (text.charCodeAt(i) === 58 /* : */ && isDigitAt(text, i + 1) && isDigitAt(text, i + 2)) {
      second = (text.charCodeAt(i + 1) - 48) * 10 + (text.charCodeAt(i + 2) - 48);
      i += 3;
      const c = text.charCodeAt(i);
      if ((c === 46 || c === 44) && isDigitAt(text, i + 1)) {
        i++;
        let n = 0;
        let scale = 1;
        for (let d = 0; d < 9 && isDigitAt(text, i); d++, i++) {
          n = n * 10 + (text.charCodeAt(i) - 48);
          scale *= 10;
        }
        fraction = n / scale;
      }
    }
    let zone = 0;
    const z = text.charCodeAt(i);
    if (z === 90 /* Z */) {
      i++;
    } else if ((z === 43 || z === 45) && isDigitAt(text, i + 1) && isDigitAt(text, i + 2)) {
      const hours = (text.charCodeAt(i + 1) - 48) * 10 + (text.charCodeAt(i + 2) - 48);
      i += 3;
      let minutes = 0;
      const colon = text.charCodeAt(i) === 58 ? 1 : 0;
      if (isDigitAt(text, i + colon) && isDigitAt(text, i + colon + 1)) {
        minutes = (text.charCodeAt(i + colon) - 48) * 10 + (text.charCodeAt(i + colon + 1) - 48);
        i += colon + 2;
      }
      zone = (z === 45 ? -1 : 1) * (hours * 3600 + minutes * 60);
    }
    if (second > 60) return NaN;
    // (The sums in parseIsoTimestamp's order: the same number to the last bit.)
    let t = this.minuteSeconds + second;
    if (fraction >= 0) t += fraction;
    if (zone !== 0) t -= zone;
    this.end = i;
    return t;
  }

  /** Whether the text's first 16 characters are the last ones read (readMinute), compared from the minute back. */
  private sameMinute(text: string, start: number): boolean {
    const minute = this.minute;
    if (this.minuteLength === 0) return false;
    for (let k = ISO_MINUTE_LENGTH - 1; k >= 0; k--) if (text.charCodeAt(start + k) !== minute[k]) return false;
    return true;
  }

  /** Read "yyyy-MM-ddTHH:mm" at `start` into minuteSeconds (and the cache); false when it is not one, or not a date. */
  private readMinute(text: string, start: number): boolean {
    for (let k = 0; k < ISO_MINUTE_LENGTH; k++) {
      const c = text.charCodeAt(start + k);
      const want = ISO_MINUTE.charCodeAt(k);
      if (want === 35 /* # */ ? !(c >= 48 && c <= 57) : want === 63 /* ? */ ? c !== 84 && c !== 32 : c !== want) return false;
    }
    const two = (at: number): number => (text.charCodeAt(start + at) - 48) * 10 + (text.charCodeAt(start + at + 1) - 48);
    let sameDay = this.dayKnown;
    for (let k = 0; k < 10 && sameDay; k++) sameDay = text.charCodeAt(start + k) === this.day[k];
    if (!sameDay) {
      const month = two(5);
      const date = two(8);
      if (month < 1 || month > 12 || date < 1 || date > 31) return false;
      // Not Date.UTC: it reads years 0–99 as 1900–1999.
      const at = new Date(0);
      const ms = at.setUTCFullYear(two(0) * 100 + two(2), month - 1, date);
      if (at.getUTCDate() !== date) return false; // 2026-02-31
      for (let k = 0; k < 10; k++) this.day[k] = text.charCodeAt(start + k);
      this.dayKnown = true;
      this.daySeconds = ms / 1000;
    }
    const hour = two(11);
    const minute = two(14);
    if (hour > 23 || minute > 59) return false;
    for (let k = 0; k < ISO_MINUTE_LENGTH; k++) this.minute[k] = text.charCodeAt(start + k);
    this.minuteLength = ISO_MINUTE_LENGTH;
    this.minuteSeconds = this.daySeconds + hour * 3600 + minute * 60;
    return true;
  }
}

function isDigitAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
}

// ---------------------------------------------------------------------------
// Epoch numbers: integer digits with an optional fraction, scaled to seconds.

/** How many digits of the unit lie below one second. */
const EPOCH_DIGITS: Readonly<Record<string, number>> = { 'epoch-s': 0, 'epoch-ms': 3, 'epoch-us': 6, 'epoch-ns': 9 };

class EpochFormat implements TimeFormat {
  readonly needsYear = false;
  end = 0;
  constructor(readonly name: string, private readonly subSecondDigits: number) {}

  parse(text: string, start: number): number {
    let i = start;
    let c = text.charCodeAt(i);
    while (c >= 48 && c <= 57) c = text.charCodeAt(++i);
    const intEnd = i;
    if (intEnd === start) return NaN;
    let fracEnd = intEnd;
    if (c === 46 /* . */) {
      c = text.charCodeAt(++i);
      while (c >= 48 && c <= 57) c = text.charCodeAt(++i);
      if (i > intEnd + 1) fracEnd = i;
    }
    this.end = fracEnd;
    const scale = 10 ** this.subSecondDigits;
    // Up to 15 digits the number is exact, and one division is correctly rounded;
    // beyond (19-digit nanosecond counts) split off the sub-second digits first.
    if (intEnd - start <= 15) return Number(text.slice(start, fracEnd)) / scale;
    const split = intEnd - this.subSecondDigits;
    return Number(text.slice(start, split)) + Number(text.slice(split, fracEnd)) / scale;
  }
}

// ---------------------------------------------------------------------------
// Format strings: yyyy yy MM M MMM dd d HH H hh h mm ss S… a EEE X/Z, and
// literal text ('quoted' for letters). A space matches one or more spaces.

type TokenKind = 'year4' | 'year2' | 'month' | 'monthName' | 'day' | 'hour' | 'hour12' | 'minute' | 'second'
  | 'fraction' | 'millis' | 'ampm' | 'dayName' | 'zone' | 'space' | 'literal';

interface Token {
  readonly kind: TokenKind;
  /** Digits required: exactly `min` when min === max (fixed width), else between. */
  readonly min: number;
  readonly max: number;
  /** For literals: the character code to match. */
  readonly code: number;
}

function tokenize(format: string): Token[] {
  const tokens: Token[] = [];
  const digits = (kind: TokenKind, min: number, max: number): Token => ({ kind, min, max, code: 0 });
  let i = 0;
  while (i < format.length) {
    const ch = format[i] as string;
    let run = 1;
    while (format[i + run] === ch) run++;
    switch (ch) {
      case 'y':
        if (run !== 2 && run !== 4) throw new Error(`format '${format}': year is yyyy or yy, not ${ch.repeat(run)}`);
        tokens.push(run === 4 ? digits('year4', 4, 4) : digits('year2', 2, 2));
        break;
      case 'M':
        if (run > 3) throw new Error(`format '${format}': month is MM, M or MMM, not ${ch.repeat(run)}`);
        tokens.push(run === 3 ? digits('monthName', 3, 3) : digits('month', run, 2));
        break;
      case 'd': tokens.push(digits('day', Math.min(run, 2), 2)); break;
      case 'H': tokens.push(digits('hour', Math.min(run, 2), 2)); break;
      case 'h': tokens.push(digits('hour12', Math.min(run, 2), 2)); break;
      // One letter reads one or two digits, as SimpleDateFormat does (HealthApp writes `20171223-22:16:0:150`).
      case 'm': tokens.push(digits('minute', Math.min(run, 2), 2)); break;
      case 's': tokens.push(digits('second', Math.min(run, 2), 2)); break;
      // After `.` or `,` the digits are a decimal fraction; after `:` a count of milliseconds, as SimpleDateFormat
      // reads S (HealthApp writes `22:15:35:11` for 11 ms, unpadded).
      case 'S': tokens.push(tokens.at(-1)?.kind === 'literal' && tokens.at(-1)?.code === 58 ? digits('millis', 1, 3) : digits('fraction', 1, 9)); break;
      case 'a': tokens.push(digits('ampm', 2, 2)); break;
      case 'E': tokens.push(digits('dayName', 3, 9)); break;
      case 'X': case 'Z': tokens.push(digits('zone', 1, 6)); break;
      case ' ': tokens.push(digits('space', 1, Infinity)); break;
      case "'": {
        // 'text' is literal; '' is a quote, inside or outside quoted text.
        if (format[i + 1] === "'") {
          tokens.push({ kind: 'literal', min: 1, max: 1, code: 39 });
          i += 2;
          continue;
        }
        let k = i + 1;
        for (;;) {
          if (k >= format.length) throw new Error(`format '${format}': unclosed quote`);
          if (format[k] === "'") {
            if (format[k + 1] !== "'") break;
            k++;
          }
          tokens.push({ kind: 'literal', min: 1, max: 1, code: format.charCodeAt(k) });
          k++;
        }
        i = k + 1;
        continue;
      }
      default:
        for (let k = 0; k < run; k++) tokens.push({ kind: 'literal', min: 1, max: 1, code: ch.charCodeAt(0) });
    }
    i += run;
  }
  return tokens;
}

/** Token kinds as small integers; the numeric fields come first (kind <= K.second). */
const K = {
  year4: 0, year2: 1, month: 2, day: 3, hour: 4, minute: 5, second: 6,
  literal: 7, space: 8, fraction: 9, monthName: 10, dayName: 11, ampm: 12, zone: 13, millis: 14,
} as const;
const KIND_CODES: Readonly<Record<TokenKind, number>> = { ...K, hour12: K.hour };

/** Month names keyed by their three lower-cased character codes (no slicing per line). */
const MONTHS = new Map(['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
  .map((name, i) => [(name.charCodeAt(0) << 16) | (name.charCodeAt(1) << 8) | name.charCodeAt(2), i + 1] as const));

class PatternFormat implements TimeFormat {
  readonly needsYear: boolean;
  end = 0;
  /** One-entry cache of the date part: logs repeat the same day millions of times. */
  private cachedYear = -1;
  private cachedMonth = -1;
  private cachedDay = -1;
  private cachedDaySeconds = 0;

  /**
   * Consecutive lines mostly share their timestamp up to the fraction of a
   * second ("2026-11-20 10:00:01,"): when the text starts with the last parsed
   * prefix, only the fraction is read. Only for layouts where that is exact
   * (see `prefixCacheable`).
   */
  private readonly cacheable: boolean;
  private readonly hasFraction: boolean;
  /** The cached prefix as character codes (compared in a loop: `startsWith` is far slower here). */
  private readonly prefix = new Uint16Array(64);
  private prefixLength = 0;
  private prefixSeconds = 0;
  /**
   * Lines a second or more apart share less: up to the seconds ("2026-11-20 10:00:"). The seconds' place in the
   * cached prefix (−1: none), and the seconds up to the minute: a text equal to the prefix but for those two digits
   * needs only them read. (The fields before them read the same characters and stop where they did: the one just
   * before them stopped at their first digit, which ends a word or a run of spaces, or at its own most digits.)
   */
  private secondsAt = -1;
  private minuteSeconds = 0;

  /** The tokens as parallel typed arrays: the hot loop reads small integers, not objects. */
  private readonly kinds: Uint8Array;
  private readonly mins: Uint8Array;
  private readonly maxs: Uint8Array;
  private readonly codes: Uint16Array;

  constructor(readonly name: string, layout: PatternLayout, private readonly defaultYear: number) {
    // (The layout's arrays are only read: shared by every format made from the same string.)
    this.needsYear = layout.needsYear;
    this.kinds = layout.kinds;
    this.mins = layout.mins;
    this.maxs = layout.maxs;
    this.codes = layout.codes;
    this.hasFraction = layout.hasFraction;
    this.cacheable = layout.cacheable;
  }

  parse(text: string, start: number): number {
    if (this.prefixLength > 0 && (this.hasPrefix(text, start) || this.otherSecond(text, start))) {
      let i = start + this.prefixLength;
      if (!this.hasFraction) {
        this.end = i;
        return this.prefixSeconds;
      }
      let n = 0;
      let scale = 1;
      let c = text.charCodeAt(i);
      while (c >= 48 && c <= 57 && scale < 1e9) { n = n * 10 + (c - 48); scale *= 10; c = text.charCodeAt(++i); }
      if (scale === 1) return NaN;
      while (c >= 48 && c <= 57) c = text.charCodeAt(++i);
      this.end = i;
      return this.prefixSeconds + n / scale;
    }
    let year = this.defaultYear;
    let month = 1;
    let day = 1;
    let hour = 0;
    let minute = 0;
    let second = 0;
    let fraction = 0;
    let pm = -1; // -1: no AM/PM marker, 0: AM, 1: PM
    let zoneSeconds = 0;
    let hasDate = false;
    let fractionStart = -1;
    let secondsStart = -1;
    let i = start;
    const kinds = this.kinds;
    const codes = this.codes;
    const mins = this.mins;
    const maxs = this.maxs;
    const n = kinds.length;
    for (let k = 0; k < n; k++) {
      const kind = kinds[k] as number;
      if (kind === K.literal) {
        if (text.charCodeAt(i) !== codes[k]) return NaN;
        i++;
      } else if (kind <= K.second) {
        // A numeric field of min..max digits.
        const max = maxs[k] as number;
        if (kind === K.second) secondsStart = i;
        let v = 0;
        let digits = 0;
        let c = text.charCodeAt(i);
        while (digits < max && c >= 48 && c <= 57) { v = v * 10 + (c - 48); digits++; c = text.charCodeAt(++i); }
        if (digits < (mins[k] as number)) return NaN;
        switch (kind) {
          case K.year4: year = v; hasDate = true; break;
          case K.year2: year = v < 70 ? 2000 + v : 1900 + v; hasDate = true; break;
          case K.month: month = v; hasDate = true; break;
          case K.day: day = v; hasDate = true; break;
          case K.hour: hour = v; break;
          case K.minute: minute = v; break;
          default: second = v;
        }
      } else if (kind === K.space) {
        if (text.charCodeAt(i) !== 32) return NaN;
        while (text.charCodeAt(i) === 32) i++;
      } else if (kind === K.fraction) {
        fractionStart = i;
        let n = 0;
        let scale = 1;
        let c = text.charCodeAt(i);
        while (c >= 48 && c <= 57 && scale < 1e9) { n = n * 10 + (c - 48); scale *= 10; c = text.charCodeAt(++i); }
        if (scale === 1) return NaN;
        while (c >= 48 && c <= 57) c = text.charCodeAt(++i); // digits past ns
        fraction = n / scale;
      } else if (kind === K.millis) {
        fractionStart = i;
        let n = 0;
        let c = text.charCodeAt(i);
        const from = i;
        while (c >= 48 && c <= 57 && i - from < 3) { n = n * 10 + (c - 48); c = text.charCodeAt(++i); }
        if (i === from) return NaN;
        fraction = n / 1000;
      } else if (kind === K.monthName) {
        const m = MONTHS.get(((text.charCodeAt(i) | 32) << 16) | ((text.charCodeAt(i + 1) | 32) << 8) | (text.charCodeAt(i + 2) | 32));
        if (m === undefined) return NaN;
        month = m;
        hasDate = true;
        i += 3;
      } else if (kind === K.dayName) {
        const from = i;
        let c = text.charCodeAt(i) | 32;
        while (c >= 97 && c <= 122) c = text.charCodeAt(++i) | 32;
        if (i - from < 3) return NaN;
      } else if (kind === K.ampm) {
        const a = text.charCodeAt(i) | 32;
        if ((a !== 97 && a !== 112) || (text.charCodeAt(i + 1) | 32) !== 109) return NaN;
        pm = a === 112 ? 1 : 0;
        i += 2;
      } else {
        // zone: Z, ±HH, ±HHMM or ±HH:MM
        const c = text.charCodeAt(i);
        if (c === 90 /* Z */) { i++; continue; }
        if (c !== 43 && c !== 45) return NaN;
        const hh = twoDigits(text, i + 1);
        if (hh < 0) return NaN;
        i += 3;
        let mm = 0;
        if (text.charCodeAt(i) === 58 /* : */ && twoDigits(text, i + 1) >= 0) { mm = twoDigits(text, i + 1); i += 3; }
        else if (twoDigits(text, i) >= 0) { mm = twoDigits(text, i); i += 2; }
        zoneSeconds = (c === 45 ? -1 : 1) * (hh * 3600 + mm * 60);
      }
    }
    if (pm !== -1) {
      if (hour < 1 || hour > 12) return NaN;
      hour = (hour % 12) + pm * 12;
    }
    if (hour > 23 || minute > 59 || second > 60) return NaN;
    const daySeconds = hasDate ? this.daySeconds(year, month, day) : 0;
    if (Number.isNaN(daySeconds)) return NaN;
    this.end = i;
    const upToMinute = daySeconds + hour * 3600 + minute * 60;
    const seconds = upToMinute + second - zoneSeconds;
    if (this.cacheable) {
      const cut = fractionStart === -1 ? i : fractionStart;
      if (cut - start <= this.prefix.length) {
        for (let k = start; k < cut; k++) this.prefix[k - start] = text.charCodeAt(k);
        this.prefixLength = cut - start;
        this.prefixSeconds = seconds;
        // (Cacheable: no zone, so the seconds are upToMinute + second.)
        this.secondsAt = secondsStart < 0 ? -1 : secondsStart - start;
        this.minuteSeconds = upToMinute;
      }
    }
    return seconds + fraction;
  }

  /**
   * Whether the text has the cached prefix but for its two digits of seconds (secondsAt), which then take their place
   * in it (and in prefixSeconds).
   */
  private otherSecond(text: string, start: number): boolean {
    const at = this.secondsAt;
    if (at < 0) return false;
    const prefix = this.prefix;
    for (let k = this.prefixLength - 1; k >= at + 2; k--) if (text.charCodeAt(start + k) !== prefix[k]) return false;
    const a = text.charCodeAt(start + at);
    const b = text.charCodeAt(start + at + 1);
    if (a < 48 || a > 54 || b < 48 || b > 57 || (a === 54 && b !== 48)) return false; // 00–60
    for (let k = at - 1; k >= 0; k--) if (text.charCodeAt(start + k) !== prefix[k]) return false;
    prefix[at] = a;
    prefix[at + 1] = b;
    this.prefixSeconds = this.minuteSeconds + ((a - 48) * 10 + (b - 48));
    return true;
  }

  private hasPrefix(text: string, start: number): boolean {
    const prefix = this.prefix;
    const n = this.prefixLength;
    // From the end: seconds change first, the date last.
    for (let k = n - 1; k >= 0; k--) if (text.charCodeAt(start + k) !== prefix[k]) return false;
    return true;
  }

  private daySeconds(year: number, month: number, day: number): number {
    if (year === this.cachedYear && month === this.cachedMonth && day === this.cachedDay) return this.cachedDaySeconds;
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NaN;
    this.cachedYear = year;
    this.cachedMonth = month;
    this.cachedDay = day;
    this.cachedDaySeconds = daysFromCivil(year, month, day) * 86400;
    return this.cachedDaySeconds;
  }
}

/**
 * Whether "same text up to the fraction ⇒ same seconds" holds for a layout: no
 * AM/PM or zone (they would come after the cached part), the fraction (if any)
 * last, and the token before the cut of fixed width, so a longer field in the
 * next line cannot pass for the cached one.
 */
function prefixCacheable(tokens: readonly Token[]): boolean {
  if (tokens.some((t) => t.kind === 'ampm' || t.kind === 'zone')) return false;
  // Minutes or seconds of one or two digits: the same text up to the fraction may be another time (`0:1` `:15`).
  if (tokens.some((t) => ((t.kind === 'minute' || t.kind === 'second') && t.min !== t.max) || t.kind === 'millis')) return false;
  const f = tokens.findIndex((t) => t.kind === 'fraction');
  if (f !== -1 && f !== tokens.length - 1) return false;
  const last = tokens[f === -1 ? tokens.length - 1 : f - 1];
  return last !== undefined && last.kind !== 'space' && last.kind !== 'dayName' && last.min === last.max;
}

function twoDigits(text: string, i: number): number {
  const a = text.charCodeAt(i) - 48;
  const b = text.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
