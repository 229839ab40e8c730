import { describe, expect, it } from 'vitest';
import { parseIsoTimestamp } from '../src/parse/timestamp.js';
import { daysFromCivil, makeTimeFormat } from '../src/parse/translators/time-formats.js';

// Hand-computed epoch seconds: 2026-11-20 00:00 UTC is 56 years after 1970
// (14 leap days) plus 304 + 19 days into 2026 → 20 777 days = 1 795 132 800 s.
const NOV_20_2026 = 1_795_132_800;
const AT_10_00_01 = NOV_20_2026 + 10 * 3600 + 1; // 1 795 168 801

const parse = (format: string, text: string, year = 2026): number => makeTimeFormat(format, { year }).parse(text, 0);

describe('named timestamp formats', () => {
  it('iso8601, with and without zone and fraction', () => {
    expect(parse('iso8601', '2026-11-20T10:00:01Z')).toBe(AT_10_00_01);
    expect(parse('iso8601', '2026-11-20T10:00:01.123Z')).toBeCloseTo(AT_10_00_01 + 0.123, 6);
    expect(parse('iso8601', '2026-11-20 10:00:01,5')).toBe(AT_10_00_01 + 0.5);
    expect(parse('iso8601', '2026-11-20T11:00:01+01:00')).toBe(AT_10_00_01);
    expect(parse('iso8601', 'Nov 20 10:00:01')).toBeNaN();
  });

  it('log4j: yyyy-MM-dd HH:mm:ss,SSS', () => {
    const f = makeTimeFormat('log4j', { year: 1999 });
    expect(f.parse('2026-11-20 10:00:01,123 INFO [main] x', 0)).toBeCloseTo(AT_10_00_01 + 0.123, 6);
    expect(f.end).toBe(23);
    expect(f.needsYear).toBe(false);
    expect(f.parse('1999-12-31 23:59:59,000', 0)).toBe(946_684_799);
    expect(f.parse('2026-11-20 10:00:01', 0)).toBeNaN(); // no ,SSS
  });

  it('syslog: MMM d HH:mm:ss with the year from the option, space-padded days', () => {
    const f = makeTimeFormat('syslog', { year: 2026 });
    expect(f.needsYear).toBe(true);
    expect(f.parse('Nov 20 10:00:01 host sshd[1]: x', 0)).toBe(AT_10_00_01);
    expect(f.parse('Nov  9 23:59:58 host kernel: x', 0)).toBe(1_794_268_798);
    expect(f.parse('nov 20 10:00:01', 0)).toBe(AT_10_00_01);
    expect(f.parse('Nvember 20 10:00:01', 0)).toBeNaN();
    expect(makeTimeFormat('syslog', { year: 2025 }).parse('Nov 20 10:00:01', 0)).toBe(AT_10_00_01 - 365 * 86400);
  });

  it('yyMMdd HHmmss (Hadoop 1.x): two-digit years below 70 are 20xx', () => {
    expect(parse('yyMMdd HHmmss', '081109 203615 148 INFO dfs.DataNode')).toBe(1_226_262_975);
    expect(parse('yyMMdd HHmmss', '991231 235959')).toBe(946_684_799);
  });

  it('epoch seconds, milliseconds, microseconds, nanoseconds', () => {
    expect(parse('epoch-s', '1795168801')).toBe(AT_10_00_01);
    expect(parse('epoch-s', '1795168801.25,x')).toBe(AT_10_00_01 + 0.25);
    expect(parse('epoch-ms', '1795168801123')).toBe(1795168801.123);
    expect(parse('epoch-ms', '1795168801250.5')).toBe(1795168801.2505);
    expect(parse('epoch-us', '1795168801123456')).toBe(1795168801.123456);
    // 19 digits do not fit a double exactly: seconds and nanoseconds are split first.
    expect(parse('epoch-ns', '1795168801123456789')).toBeCloseTo(1795168801.123456789, 6);
    expect(parse('epoch-ns', '1795168801000000000')).toBe(AT_10_00_01);
    expect(parse('epoch-ms', 'abc')).toBeNaN();
  });
});

describe('custom format strings', () => {
  it('Apache access log with a zone: dd/MMM/yyyy:HH:mm:ss Z', () => {
    expect(parse('dd/MMM/yyyy:HH:mm:ss Z', '20/Nov/2026:11:00:01 +0100')).toBe(AT_10_00_01);
    expect(parse('dd/MMM/yyyy:HH:mm:ss Z', '20/Nov/2026:05:00:01 -05:00')).toBe(AT_10_00_01);
    expect(parse('dd/MMM/yyyy:HH:mm:ss XXX', '20/Nov/2026:10:00:01 Z')).toBe(AT_10_00_01);
  });

  it('quoted literals and fractions of any length', () => {
    const f = "yyyy-MM-dd'T'HH:mm:ss.SSS";
    expect(parse(f, '2026-11-20T10:00:01.5')).toBe(AT_10_00_01 + 0.5);
    expect(parse(f, '2026-11-20T10:00:01.123456')).toBeCloseTo(AT_10_00_01 + 0.123456, 6);
    expect(parse("HH 'o''clock'", "10 o'clock")).toBe(36000); // no date: seconds since midnight
  });

  it('12-hour clock with AM/PM and a day name', () => {
    expect(parse('EEE MM/dd/yyyy hh:mm:ss a', 'Fri 11/20/2026 01:00:01 PM')).toBe(1_795_179_601);
    expect(parse('MM/dd/yyyy h:mm:ss a', '11/20/2026 12:00:01 AM')).toBe(NOV_20_2026 + 1);
    expect(parse('MM/dd/yyyy h:mm:ss a', '11/20/2026 13:00:01 PM')).toBeNaN();
  });

  it('rejects impossible dates and times, and keeps the date cache honest', () => {
    const f = makeTimeFormat('yyyy-MM-dd HH:mm:ss', { year: 2026 });
    expect(f.parse('2024-02-29 00:00:00', 0)).toBe(1_709_164_800);
    expect(f.parse('2026-02-29 00:00:00', 0)).toBeNaN();
    expect(f.parse('2026-13-01 00:00:00', 0)).toBeNaN();
    expect(f.parse('2026-11-20 24:00:00', 0)).toBeNaN();
    expect(f.parse('2026-11-20 10:00:01', 0)).toBe(AT_10_00_01);
    expect(f.parse('2026-11-21 10:00:01', 0)).toBe(AT_10_00_01 + 86400);
    expect(f.parse('2026-11-20 10:00:01', 0)).toBe(AT_10_00_01);
  });

  it('the cached prefix (same text up to the fraction) never stands in for different text', () => {
    const f = makeTimeFormat('log4j', { year: 2026 });
    expect(f.parse('2026-11-20 10:00:01,100 a', 0)).toBeCloseTo(AT_10_00_01 + 0.1, 6);
    expect(f.parse('2026-11-20 10:00:01,25 b', 0)).toBe(AT_10_00_01 + 0.25); // a hit: only the fraction read
    expect(f.end).toBe(22);
    expect(f.parse('2026-11-20 10:00:01,x', 0)).toBeNaN();
    expect(f.parse('2026-11-20 10:00:02,000', 0)).toBe(AT_10_00_01 + 1);
    expect(f.parse('2026-11-21 10:00:02,000', 0)).toBe(AT_10_00_01 + 1 + 86400);
    const s = makeTimeFormat('syslog', { year: 2026 });
    expect(s.parse('Nov  9 23:59:58 a', 0)).toBe(1_794_268_798);
    expect(s.parse('Nov  9 23:59:58 b', 0)).toBe(1_794_268_798);
    expect(s.parse('Nov 19 23:59:58 c', 0)).toBe(1_794_268_798 + 10 * 86400);
    expect(s.parse('xNov 19 23:59:58', 1)).toBe(1_794_268_798 + 10 * 86400);
    expect(s.end).toBe(16);
  });

  it('a prefix equal but for its seconds reads only them; other text is parsed whole', () => {
    const f = makeTimeFormat('log4j', { year: 2026 });
    expect(f.parse('2026-11-20 10:00:01,100 a', 0)).toBeCloseTo(AT_10_00_01 + 0.1, 6);
    expect(f.parse('2026-11-20 10:00:07,5 b', 0)).toBe(AT_10_00_01 + 6.5);
    expect(f.end).toBe(21);
    expect(f.parse('2026-11-20 10:00:07,25', 0)).toBe(AT_10_00_01 + 6.25); // the seconds taken into the prefix
    expect(f.parse('2026-11-20 10:00:60,000', 0)).toBe(AT_10_00_01 + 59); // a leap second, as parsed whole
    expect(f.parse('2026-11-20 10:00:61,000', 0)).toBeNaN();
    expect(f.parse('2026-11-20 10:00:7x,000', 0)).toBeNaN();
    expect(f.parse('2026-11-20 10:00:08.000', 0)).toBeNaN(); // the literal after the seconds differs
    expect(f.parse('2026-11-20 10:01:08,000', 0)).toBe(AT_10_00_01 + 67);
    expect(f.parse('2026-11-21 10:01:09,000', 0)).toBe(AT_10_00_01 + 68 + 86400);
    expect(f.parse('x2026-11-21 10:01:03,5', 1)).toBe(AT_10_00_01 + 62.5 + 86400);
    expect(f.parse('3026-11-21 10:01:04,5', 0)).toBe(AT_10_00_01 + 63.5 + 86400 + (daysFromCivil(3026, 11, 21) - daysFromCivil(2026, 11, 21)) * 86400);
    const s = makeTimeFormat('syslog', { year: 2026 });
    expect(s.parse('Nov  9 23:59:58 a', 0)).toBe(1_794_268_798);
    expect(s.parse('Nov  9 23:59:03 b', 0)).toBe(1_794_268_743);
    expect(s.end).toBe(15);
    expect(s.parse('Nov  9 23:59:041', 0)).toBe(1_794_268_744); // two digits of seconds
    expect(s.end).toBe(15);
    expect(s.parse('Nov 19 23:59:04 c', 0)).toBe(1_794_268_744 + 10 * 86400);
    // Seconds before the date: the date read too.
    const d = makeTimeFormat('HH:mm:ss dd/MM/yyyy', { year: 2026 });
    expect(d.parse('10:00:01 20/11/2026', 0)).toBe(AT_10_00_01);
    expect(d.parse('10:00:02 20/11/2026', 0)).toBe(AT_10_00_01 + 1);
    expect(d.parse('10:00:03 21/11/2026', 0)).toBe(AT_10_00_01 + 2 + 86400);
  });

  it('iso8601 read by hand gives what the ISO regex and parseIsoTimestamp (tested against Date.parse) give, and ends where the regex does', () => {
    // The reference: the regex for the timestamp's extent, then parseIsoTimestamp over it (test/property.test.ts).
    const EXTENT = /\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d{1,9})?)?(?:Z|[+-]\d\d(?::?\d\d)?)?/y;
    const reference = (text: string, start: number): { t: number; end: number | null } => {
      EXTENT.lastIndex = start;
      const m = EXTENT.exec(text);
      const t = m === null ? NaN : parseIsoTimestamp(m[0]);
      return { t, end: Number.isNaN(t) ? null : start + m![0].length };
    };
    // mulberry32 (as fixtures/generate.mjs)
    let seed = 7;
    const random = (): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
    };
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const digits = (n: number): string => Array.from({ length: n }, () => String(Math.floor(random() * 10))).join('');
    const f = makeTimeFormat('iso8601', { year: 2026 });
    // A text that differs from the last one in the first character or the tenth (the dates cached) only.
    for (const text of ['2026-11-20T10:00:01Z', '1026-11-20T10:00:01Z', '1026-11-21T10:00:01Z', '1026-11-21 10:00:01Z', '2026-11-21 10:00:01Z']) {
      expect({ text, t: f.parse(text, 0) }).toEqual({ text, t: reference(text, 0).t });
    }
    let valid = 0;
    // Runs of lines a few seconds apart (the caches hit), and lines of every shape.
    let base = Date.UTC(2026, 10, 20, 23, 58);
    for (let n = 0; n < 30_000; n++) {
      let text: string;
      if (random() < 0.5) {
        base += Math.floor(random() * 4000);
        const iso = new Date(base).toISOString();
        text = `${iso.slice(0, 10)}${pick(['T', ' '])}${iso.slice(11, 19)}${pick(['', `.${iso.slice(20, 23)}`, `,${digits(1 + Math.floor(random() * 11))}`])}${pick(['', 'Z', '+01:00', '-0530', '+02'])}`;
      } else {
        const year = pick(['2026', '0099', '2024', '1969', '20x6']);
        const month = pick(['01', '02', '11', '12', '13', '00', '1']);
        const day = pick(['01', '28', '29', '30', '31', '32', '00']);
        const hour = pick(['00', '09', '23', '24', '7']);
        const minute = pick(['00', '59', '60', '5']);
        const second = pick(['', ':00', ':59', ':60', ':61', ':5', ':5x', ':']);
        const frac = second.length === 3 ? pick(['', '.', ',', '.5', ',123456789', '.1234567891', '.x']) : '';
        const zone = pick(['', 'Z', '+00:00', '-00:00', '+01:30', '+0130', '+01', '+1', '+01:', '+01:3', '-12:00', 'z']);
        text = `${year}-${month}-${day}${pick(['T', ' ', 't', '_'])}${hour}:${minute}${second}${frac}${zone}`;
      }
      const lead = pick(['', 'x', '[']);
      const line = `${lead}${text}${pick(['', ' INFO started', '0', ']'])}`;
      const want = reference(line, lead.length);
      const t = f.parse(line, lead.length);
      expect({ line, t }).toEqual({ line, t: want.t });
      if (want.end !== null) {
        valid++;
        expect({ line, end: f.end }).toEqual({ line, end: want.end });
      }
    }
    expect(valid).toBeGreaterThan(14_000);
  });

  it('an unknown name is an error that lists the named formats', () => {
    expect(() => makeTimeFormat('log4', { year: 2026 })).toThrow(
      "unknown timestamp format 'log4': name one of iso8601, log4j, syslog, yyMMdd HHmmss, epoch-s, epoch-ms, epoch-us, epoch-ns, or write a format string with at least HH (e.g. 'yyyy/MM/dd HH:mm:ss.SSS')");
    expect(() => makeTimeFormat('yyy-MM-dd HH', { year: 2026 })).toThrow("format 'yyy-MM-dd HH': year is yyyy or yy, not yyy");
  });

  it('daysFromCivil agrees with Date.UTC', () => {
    for (const [y, m, d] of [[1970, 1, 1], [2000, 2, 29], [2026, 11, 20], [1969, 12, 31], [2100, 3, 1]] as const) {
      expect(daysFromCivil(y, m, d) * 86400_000).toBe(Date.UTC(y, m - 1, d));
    }
  });
});
