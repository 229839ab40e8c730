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
 * A plain decimal number (`12`, `-3.5`, `1.2e-3`, `.5`): no hex, no `Infinity`,
 * no surrounding spaces, nothing after it. Returns NaN otherwise.
 * Number() alone accepts '', ' 1', '0x1f' and 'Infinity'; this does not.
 */
export function parseDecimal(text: string): number {
  const len = text.length;
  if (len === 0 || len > 64) return NaN;
  let i = 0;
  let c = text.charCodeAt(0);
  if (c === 43 /* + */ || c === 45 /* - */) c = text.charCodeAt(++i);
  let digits = 0;
  while (c >= 48 && c <= 57) { digits++; c = text.charCodeAt(++i); }
  if (c === 46 /* . */) {
    c = text.charCodeAt(++i);
    while (c >= 48 && c <= 57) { digits++; c = text.charCodeAt(++i); }
  }
  if (digits === 0) return NaN;
  if (c === 101 || c === 69 /* e E */) {
    c = text.charCodeAt(++i);
    if (c === 43 || c === 45) c = text.charCodeAt(++i);
    let exp = 0;
    while (c >= 48 && c <= 57) { exp++; c = text.charCodeAt(++i); }
    if (exp === 0) return NaN;
  }
  if (i !== len) return NaN;
  const v = Number(text);
  return Number.isFinite(v) ? v : NaN;
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
    const ms = Date.UTC(Number(y), month - 1, date);
    if (new Date(ms).getUTCDate() !== date) return NaN; // 2026-02-31
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
