/** Number formatting and escaping shared by the renderers. */

/** A p-value as text; where p underflowed to 0, from its log10 (p = 1e-30 never prints as 0). */
export function formatP(p: number, log10p: number): string {
  if (log10p === -Infinity) return '0 (separated)';
  if (Number.isNaN(p)) return 'n/a';
  if (p >= 1e-3) return p.toFixed(p >= 0.1 ? 2 : 4);
  if (p > 0) return p.toExponential(1);
  let exponent = Math.floor(log10p);
  let mantissa = (10 ** (log10p - exponent)).toFixed(1);
  // 9.96 rounds to 10.0: carry into the exponent (1.0e-2806, not 10.0e-2807).
  if (mantissa === '10.0') {
    mantissa = '1.0';
    exponent += 1;
  }
  return `${mantissa}e${exponent}`;
}

/** A statistic (t, g): signed, 3 significant digits, ±∞ spelt out. */
export function formatStat(x: number, signed = true): string {
  if (Number.isNaN(x)) return 'n/a';
  if (x === Infinity) return signed ? '+∞' : '∞';
  if (x === -Infinity) return '−∞';
  const sign = signed && x > 0 ? '+' : '';
  const a = Math.abs(x);
  // 3 significant digits, trailing zeros after the point dropped: 2.50 → 2.5, 3.00 → 3, 120 stays.
  const text = a !== 0 && (a >= 1e5 || a < 1e-3) ? x.toExponential(2) : x.toPrecision(3).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  return sign + text;
}

/** A measured value (a mean): up to 4 significant digits, no exponent for ordinary magnitudes. */
export function formatValue(x: number): string {
  if (Number.isNaN(x)) return 'n/a';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
  const a = Math.abs(x);
  if (a !== 0 && (a >= 1e7 || a < 1e-3)) return x.toExponential(3);
  return String(Number(x.toPrecision(4)));
}

/**
 * Control characters made visible, so a log's content cannot drive the
 * terminal: C0, DEL and C1 as `\x1b`, line and paragraph separators and the
 * bidirectional embeddings, overrides and isolates (which reorder what is
 * shown around them, "Trojan Source") as `\u202e`.
 */
export function escapeTerminal(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A number for JSON: non-finite values as the strings "Infinity" / "-Infinity", NaN as null. */
export function jsonNumber(x: number): number | string | null {
  if (Number.isNaN(x)) return null;
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return x;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${grouped(n)} ${n === 1 ? word : many}`;
}

/**
 * A number with its thousands grouped, as `toLocaleString('en-US')` writes it
 * ("1,234,567"). A whole number is grouped here: the first toLocaleString of
 * a process loads ICU's number formats, ~20 ms of every run's time.
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${Math.round(n)} B`; // a rate (progress line) is fractional
  const units = ['KB', 'MB', 'GB', 'TB'];
  let x = n / 1024;
  let u = 0;
  while (x >= 1024 && u < units.length - 1) { x /= 1024; u++; }
  return `${x.toFixed(x >= 100 ? 0 : 1)} ${units[u]}`;
}
