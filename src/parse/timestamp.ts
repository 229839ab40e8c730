/**
 * Timestamps of the record format (SPEC §1): a decimal number of seconds, or
 * ISO-8601 (`2026-11-20T10:00:01.123Z`, `2026-11-20 10:00:01,123`; no zone = UTC).
 * Returns seconds as a number, or NaN when the text is neither.
 */
export function parseTimestamp(text: string): number {
  const n = parseDecimal(text);
  if (!Number.isNaN(n)) return n;
  return parseIsoTimestamp(text);
}

/**
 * A plain decimal number (`12`, `-3.5`, `1.2e-3`, `.5`): no hex/binary/octal,
 * no `Infinity`, no surrounding spaces, nothing after it. Returns NaN otherwise.
 * Number() does the parsing; it also accepts '', ' 1', '0x1f' and 'Infinity',
 * so the first and last characters are checked (a digit or sign first, a digit
 * or '.' last, and no letter right after a leading 0). This is the hot path of
 * every record: no per-character loop.
 */
export function parseDecimal(text: string): number {
  const len = text.length;
  if (len === 0 || len > 64) return NaN;
  const fast = fastDecimal(text, len);
  if (fast === fast) return fast; // not NaN

  const first = text.charCodeAt(0);
  if (!(isDigit(first) || first === 45 /* - */ || first === 43 /* + */ || first === 46 /* . */)) return NaN;
  const last = text.charCodeAt(len - 1);
  if (!(isDigit(last) || last === 46)) return NaN;
  if (len > 1) {
    const z = first === 48 ? 1 : (first === 45 || first === 43) && text.charCodeAt(1) === 48 ? 2 : 0;
    if (z > 0 && z < len && isLetter(text.charCodeAt(z)) && !isExponent(text.charCodeAt(z))) return NaN;
  }
  const v = Number(text);
  return Number.isFinite(v) ? v : NaN;
}

/** 10^k, exact for k ≤ 22 (Clinger's fast path): a mantissa of up to 15 digits over it is the nearest double. */
export const POW10: readonly number[] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * Clinger's fast path: `[-+]digits[.digits]` whose digits form an integer M
 * below 2^53 with at most 22 after the point. M and 10^k are exact doubles, so
 * M / 10^k is correctly rounded — the same double Number() returns. NaN means
 * "not this simple shape": the caller falls back to Number().
 */
function fastDecimal(text: string, len: number): number {
  let i = 0;
  let c = text.charCodeAt(0);
  let negative = false;
  if (c === 45 || c === 43) {
    negative = c === 45;
    i = 1;
  }
  let mantissa = 0;
  let digits = 0;
  let fraction = -1; // digits after the point; -1 until a point is seen
  for (; i < len; i++) {
    c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (c === 46 && fraction < 0) {
      fraction = 0;
    } else {
      return NaN;
    }
  }
  if (digits === 0 || mantissa > 9007199254740991 || fraction > 22) return NaN;
  const v = fraction > 0 ? mantissa / (POW10[fraction] as number) : mantissa;
  return negative ? -v : v;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLetter(c: number): boolean {
  return (c | 32) >= 97 && (c | 32) <= 122;
}

function isExponent(c: number): boolean {
  return (c | 32) === 101;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Date part → epoch seconds at 00:00 UTC; logs repeat the same day millions of times. */
let cachedDay = '';
let cachedDayEpoch = 0;

/** ISO-8601 date-time to epoch seconds (fraction kept to the nanosecond digit); NaN when invalid. */
export function parseIsoTimestamp(text: string): number {
  const m = ISO.exec(text);
  if (m === null) return NaN;
  const [, y, mo, d, h, mi, s, frac, zone] = m as unknown as string[];
  const day = text.slice(0, 10);
  let dayEpoch: number;
  if (day === cachedDay) {
    dayEpoch = cachedDayEpoch;
  } else {
    const month = Number(mo);
    const date = Number(d);
    if (month < 1 || month > 12 || date < 1 || date > 31) return NaN;
    // Not Date.UTC: it reads years 0–99 as 1900–1999.
    const at = new Date(0);
    const ms = at.setUTCFullYear(Number(y), month - 1, date);
    if (at.getUTCDate() !== date) return NaN; // 2026-02-31
    dayEpoch = ms / 1000;
    cachedDay = day;
    cachedDayEpoch = dayEpoch;
  }
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (hour > 23 || minute > 59 || second > 60) return NaN;
  let t = dayEpoch + hour * 3600 + minute * 60 + second;
  if (frac !== undefined) t += Number(frac) / 10 ** frac.length;
  if (zone !== undefined && zone !== 'Z') t -= zoneOffsetSeconds(zone);
  return t;
}

function zoneOffsetSeconds(zone: string): number {
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  return sign * (hours * 3600 + minutes * 60);
}
