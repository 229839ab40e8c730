/**
 * A number with a time unit, read in seconds: the way the template miner reads a token (templates/mask.ts
 * numericValueIn) and a rules file reads a `value:` group (translators/rules.ts), one function for both so that
 * `templates -o` reproduces the miner's values bit for bit.
 *
 * The units are the symbols that duration printers which choose the unit per value write: Go's
 * time.Duration.String (`850ms`, `1.2s`, `123µs`, `2m3.5s`, `1h0m0s`), Rust's Duration Debug, JavaScript's
 * console.time, Android's TimeUtils.formatDuration (`+1s0ms`, `+250ms`). One statement then writes `850ms` on one line and `1.2s` on the next, so its numbers are comparable
 * only in one unit. Words (`msec`, `sec`, `secs`) are written by loggers with one fixed unit, and a bare `5m` or `5h`
 * may be minutes or meters: those stay as written (numericValueIn).
 */
import { POW10 } from './timestamp.js';

/**
 * The seconds `s.slice(from, to)` stands for when it is `[-+]?[Nh][Nm][Ns]N[.N]U` with U one of `ns`, `us`, `µs`
 * (U+00B5 or U+03BC), `ms`, `s` and each N digits (Go's compound form, `2m3.5s` = 123.5, `1h0m0s` = 3600; Android's
 * TimeUtils.formatDuration, `+1s0ms` = 1); else NaN. The last number in its unit is M / 10^k (M its digits as an
 * integer, k the digits after the point plus 3, 6 or 9 for ms, µs, ns): both exact doubles, so the quotient is the
 * double nearest the written value (`397.140ms` = 0.39714); hours, minutes and seconds are then added as
 * 3600 h + 60 m + s.
 */
export function durationIn(s: string, from: number, to: number): number {
  let i = from;
  let c = s.charCodeAt(i);
  const negative = c === 45;
  if (c === 45 || c === 43) c = s.charCodeAt(++i);
  let whole = 0;
  // Hours, minutes, seconds, each an integer followed by its letter, in that order; then the last number.
  let rank = 4;
  for (;;) {
    const start = i;
    let mantissa = 0;
    while (i < to && c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      c = s.charCodeAt(++i);
    }
    if (i === start) return NaN;
    let digits = i - start;
    let fraction = 0;
    if (i < to && c === 46) {
      const f = ++i;
      c = s.charCodeAt(i);
      while (i < to && c >= 48 && c <= 57) {
        mantissa = mantissa * 10 + (c - 48);
        c = s.charCodeAt(++i);
      }
      if (i === f) return NaN;
      fraction = i - f;
      digits += fraction;
    }
    // `2h…`, `2m…`, `2s…` (a digit next: not `2ms`): hours, minutes or seconds before the last number.
    const r = fraction === 0 && i + 1 < to && isDigit(s.charCodeAt(i + 1)) ? (c === 104 ? 3 : c === 109 ? 2 : c === 115 ? 1 : 0) : 0;
    if (r !== 0) {
      if (r >= rank) return NaN;
      rank = r;
      whole += r === 3 ? mantissa * 3600 : r === 2 ? mantissa * 60 : mantissa;
      c = s.charCodeAt(++i);
      continue;
    }
    const shift = unitShift(s, i, to);
    if (shift < 0) return NaN;
    const k = fraction + shift;
    const last = digits <= 15 && k <= 22 ? mantissa / (POW10[k] as number) : Number(`${s.slice(start, i)}e-${shift}`);
    const seconds = whole + last;
    return negative ? -seconds : seconds;
  }
}

/** `durationIn` of a whole text (a rules file's value group). */
export function durationSeconds(text: string): number {
  return text.length === 0 || text.length > 64 ? NaN : durationIn(text, 0, text.length);
}

/** The power of ten that `s.slice(i, to)`, a time unit, divides by (`s` 0, `ms` 3, `us`/`µs` 6, `ns` 9), or −1. */
function unitShift(s: string, i: number, to: number): number {
  if (to - i === 1) return s.charCodeAt(i) === 115 /* s */ ? 0 : -1;
  if (to - i !== 2 || s.charCodeAt(i + 1) !== 115) return -1;
  switch (s.charCodeAt(i)) {
    case 109: return 3; // ms
    case 117: case 0xb5: case 0x3bc: return 6; // us, µs (micro sign), μs (Greek mu)
    case 110: return 9; // ns
    default: return -1;
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
