/**
 * Tokenizing and masking a log message before template mining.
 *
 * A message is split into tokens on spaces and tabs (or on commas, for CSV
 * rows), but for a quoted value: a `"` right after `=` (`tag="View Lock",`,
 * `msg="request done"`) opens a value that runs to the next `"` not escaped
 * by a backslash, spaces included, and is part of its token (quotedEnd says
 * why). A token is then masked — replaced by the wildcard `<*>` — when its
 * core (the token without surrounding brackets, quotes and punctuation
 * `[](){}<>,;:"'`) is a variable rather than a word:
 *  - it contains a digit: numbers (`12`, `-3.5`, `850ms`), hex (`0x1f`,
 *    `deadbeef01`), IPs and ports (`10.0.0.1:50010`), UUIDs, ids (`blk_-160`,
 *    `rs-2`, `task_01`), versions and dates;
 *  - it is a hex string of 8 or more hex digits, or a UUID (digit-free ones too);
 *  - it is a path (`/usr/lib/x`, `C:\x`, `s3://bucket/key`): starts with `/`,
 *    `./`, `~/` or a drive letter, or has `://`, and has a second separator;
 *  - it is a host name under a generic or country top-level domain
 *    (`ns.example.com`, `authorMacBook-Pro.local`: capitals allowed but in
 *    the domain): names with digits are masked already, and without this
 *    the few hosts without one would each stay a word;
 *  - it is a month or weekday name (`Jun`, `Fri`): part of a date;
 *  - it is an empty pair (`()`, `''`): a missing value, masked to `(<*>)`;
 *  - it is the value of a key and a language's word for no value (`ws=null,`,
 *    `err=<nil>`, `parent=None`, `x=undefined`): Java prints a missing object
 *    as `null`, Go's fmt as `<nil>`, Python as `None`, so the key holds a
 *    value on other lines of the statement (`ws=WorkSource{10113},`), and the
 *    word tells that one is missing, as an empty pair does; left a word, it
 *    split Android's wakelock `release:` lines by `ws=` (raw grouping 0.840 →
 *    0.901). Only after `=`: elsewhere `null` is prose (`value is null`).
 * A token holding a quoted value with spaces is masked word by word, each
 * word as it would be as a token of its own, spaces kept (`msg="took 12 ms"`
 * → `msg="took <*> ms"`): quotes say that a value holds spaces, not that it
 * varies — logfmt and Go's slog quote the constant message (`msg="request
 * done"`) as they quote a user's input — so the words of a constant text stay
 * in the template and the token count no longer depends on the value.
 * After an access log's request line (requestLineEnd), a `"` that begins a token opens a quoted field to its
 * closing `"`, spaces included (a user agent), one token (request-line.ts masks it whole).
 * In `key=value` tokens only the value is masked (`port=16020,` → `port=<*>,`),
 * so the key stays in the template; the `=` of `>=`, `<=`, `!=`, `==` is an
 * operator, not a key's. The punctuation around a masked core is
 * kept (`[Writer-1]` → `[<*>]`), and so is a word before a bracketed id
 * (`backup[2000]:` → `backup[<*>]:`) or before a run of two or more `.` or
 * `:` and a number (`instruction......0` → `instruction......<*>`: padding,
 * where a single separator may be part of the value, `wpad:80`, `QQ.10018`).
 * A scoped name is masked part by part (`AirPort_Brcm43xx::syncPowerState:`
 * → `<*>::syncPowerState:`), so a method keeps its name when its class holds
 * a digit.
 *
 * This replaces Drain's per-system regular expressions with one rule for all
 * systems: the digit rule alone is the common "Drain without regexes" setting.
 */
import { durationIn } from '../duration.js';

export const WILDCARD = '<*>';

/**
 * The key of a keyed parameter, a template token `key=<*>` (`user=`, the `=` included), else null: the key names
 * the parameter, so a template keeps it where the values vary (drain.ts) and the token stands for any value of that
 * key, never of another's (keyedHolds). A key is a name: a letter or `_`, then letters, digits, `_`, `.`, `-`.
 */
export function parameterKey(token: string): string | null {
  return KEYED.exec(token)?.[1] ?? null;
}

const KEYED = /^([A-Za-z_][\w.-]*=)<\*>$/;

/** Whether template token `t`, a keyed parameter (`user=<*>`), holds message token `m`: any value of its key (`user=ann`, `user=<*>`). */
export function keyedHolds(t: string, m: string): boolean {
  // (Cheap tests first: called on every token that differs while mining. A key holds no `=`, so `m`'s first is there.)
  const eq = t.length - WILDCARD.length - 1;
  return eq >= 1 && m.length > eq && m.charCodeAt(eq) === 61 && t.charCodeAt(eq) === 61 && t.endsWith(WILDCARD) &&
    m.startsWith(t.slice(0, eq)) && KEYED.test(t);
}

/** The keyed parameter two differing tokens of one key generalize to (`user=ann`, `user=bob` → `user=<*>`), else `<*>`. */
export function generalized(a: string, b: string): string {
  const key = tokenKey(a);
  if (key === '' || key !== tokenKey(b)) return WILDCARD;
  return KEYED.test(key + WILDCARD) ? key + WILDCARD : WILDCARD;
}

/** The key of a message token (`user=ann` → `user=`: up to its first `=`, at least one character before it), else ''. */
export function tokenKey(token: string): string {
  const eq = token.indexOf('=');
  return eq < 1 ? '' : token.slice(0, eq + 1);
}

/** Split a message into raw tokens: runs of characters between separators, a quoted value (quotedEnd) whole. */
export function tokenize(message: string, commaSeparated: boolean): string[] {
  if (commaSeparated) return message.split(',');
  const tokens: string[] = [];
  let start = -1;
  const n = message.length;
  const fields = requestLineEnd(message);
  for (let i = 0; i < n; i++) {
    const c = message.charCodeAt(i);
    if (c === 32 || c === 9) {
      if (start !== -1) { tokens.push(message.slice(start, i)); start = -1; }
    } else {
      if (start === -1) start = i;
      if (c === 34) i = quoteEnd(message, i, n, start, fields);
    }
  }
  if (start !== -1) tokens.push(message.slice(start));
  return tokens;
}

/**
 * For the `"` at `at` of a message: where its quoted value ends (the closing
 * `"`), when it opens one; else `at`. A `"` right after `=` opens a value, as
 * logfmt, Go's slog text handler, Android (`tag="View Lock"`) and most
 * `key=value` loggers write a value that holds a space: it runs to the next
 * `"` not escaped by a backslash (`\"`, as they escape one), and the value
 * is one token, so a value with spaces does not change the number of tokens
 * of its log statement (which Drain groups by first). A `"` that no later
 * `"` closes is a character like any other (a cut line). Only after `=`:
 * elsewhere quotes are not a format's (prose quotes one word, `5" screen`).
 * (No quadratic case: when no `"` closes a value, no later `"` can open one.)
 * The rules' regexes read a token the same way (token-regex.ts QUOTED).
 */
export function quotedEnd(message: string, at: number, n: number): number {
  if (at === 0 || message.charCodeAt(at - 1) !== 61 /* = */) return at;
  return closingQuote(message, at, n);
}

/**
 * For a tokenizer at the `"` at `at`, in a token that began at `start`: where its quoted value ends, a quoted field
 * after a request line that ends at `fields` (requestLineEnd; −1: none) when the `"` begins the token, else as
 * quotedEnd reads it.
 */
function quoteEnd(message: string, at: number, n: number, start: number, fields: number): number {
  return fields !== -1 && at > fields && start === at ? closingQuote(message, at, n) : quotedEnd(message, at, n);
}

/** The `"` closing the one at `at` (the next not escaped by a backslash), else `at`. */
function closingQuote(message: string, at: number, n: number): number {
  for (let i = at + 1; i < n; i++) {
    const c = message.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 34) return i;
  }
  return at;
}

/**
 * Where the quoted HTTP request line a message begins with ends (its closing `"`), else -1: an access log's line
 * (request-line.ts). After it, a `"` that begins a token opens a quoted field, to its closing `"`, spaces included:
 * nginx's `"$http_referer" "$http_user_agent"`, Apache's `\"%{User-agent}i\"`, Envoy's `"%REQ(USER-AGENT)%"` quote
 * exactly the fields whose values (headers a client sends) may hold spaces, so a user agent's words would make an
 * endpoint's lines as many templates as there are agents' word counts. (The request line's own quotes are its
 * tokens': `"GET`, `HTTP/1.1"`. A key, its digit runs as `0`, reads the same.)
 */
export function requestLineEnd(message: string): number {
  if (message.charCodeAt(0) !== 34) return -1;
  const m = REQUEST_LINE.exec(message);
  return m === null ? -1 : m[0].length - 1;
}

const REQUEST_LINE = /^"[A-Z][A-Z-]{1,15} [^\s"]+ HTTP\/\d+(?:\.\d+)?"(?=[ \t]|$)/;

/** Punctuation that may surround a variable and stays in the template. */
export function isEdgePunct(c: number): boolean {
  // [ ] ( ) { } < > , ; : " ' .
  return c === 91 || c === 93 || c === 40 || c === 41 || c === 123 || c === 125 || c === 60 || c === 62 ||
    c === 44 || c === 59 || c === 58 || c === 34 || c === 39 || c === 46;
}

/**
 * The masked form of one token: the token itself when it is a word, else the
 * token with its variable core replaced by `<*>`.
 */
export function maskToken(token: string): string {
  const n = token.length;
  let hasDigit = false;
  let eq = -1;
  for (let i = 0; i < n; i++) {
    const c = token.charCodeAt(i);
    if (c >= 48 && c <= 57) hasDigit = true;
    else if (c === 61 /* = */ && eq === -1 && !isComparison(token, i)) eq = i;
    // A quoted value with spaces (tokenize): word by word, spaces kept.
    else if (c === 32 || c === 9) return token.replace(/[^ \t]+/g, maskToken);
  }
  // Cheap exit for the most common case: a plain word.
  if (!hasDigit && n < 8 && eq === -1 && token.indexOf('/') === -1 && token.indexOf('\\') === -1 && token.indexOf('.') === -1 &&
    !DATE_WORDS.has(token) && !EMPTY_PAIRS.has(token)) return token;
  let from = eq === -1 ? 0 : eq + 1;
  let to = n;
  while (from < to && isEdgePunct(token.charCodeAt(from))) from++;
  while (to > from && isEdgePunct(token.charCodeAt(to - 1))) to--;
  if (from >= to) return EMPTY_PAIRS.has(token) ? token.charAt(0) + WILDCARD + token.charAt(1) : token;
  // The scope and padding rules below are for a name holding a digit (a number starts with one).
  const named = hasDigit && isLetter(token.charCodeAt(from));
  // `AirPort_Brcm43xx::syncPowerState:`: a scoped name is masked part by part, so the method stays.
  if (named && eq === -1) {
    const scope = token.indexOf('::', from);
    if (scope !== -1 && scope + 2 < n) return maskToken(token.slice(0, scope)) + '::' + maskToken(token.slice(scope + 2));
  }
  // `backup[2000]:`, `pool(12)`: a word with a bracketed id keeps the word.
  const open = Math.max(token.lastIndexOf('[', to - 1), token.lastIndexOf('(', to - 1));
  if (open > from && !digitIn(token, from, open) && digitIn(token, open + 1, to)) from = open + 1;
  // `instruction......0`, `onTouchEvent::1`: a word padded to its number keeps the word.
  else if (named) from = gluedNumberStart(token, from, to);
  if (eq !== -1 && NO_VALUE.has(token.slice(from, to))) {
    // (Go's `<nil>` whole: its brackets are the word's, not punctuation around a value.)
    if (token.charCodeAt(from - 1) === 60 && token.charCodeAt(to) === 62) { from--; to++; }
  } else if (!isVariable(token, from, to, hasDigit && digitIn(token, from, to))) return token;
  return token.slice(0, from) + WILDCARD + token.slice(to);
}

/**
 * Where the number starts in a core made of a word (letters and `_`), a run of
 * two or more `.` or `:` and a number (digits, optionally signed, with a
 * fraction and a unit: `instruction......0`, `depth....-2.5ms`); else `from`
 * itself. One separator is not enough: `wpad:80` (host:port) and `QQ.10018`
 * (name.pid) are values whole.
 */
function gluedNumberStart(token: string, from: number, to: number): number {
  let i = from;
  let c = token.charCodeAt(i);
  while (i < to && ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) c = token.charCodeAt(++i);
  if (i === from) return from;
  const sep = i;
  while (i < to && (c === 46 || c === 58)) c = token.charCodeAt(++i);
  if (i - sep < 2) return from;
  const start = i;
  if (c === 45 || c === 43) c = token.charCodeAt(++i);
  const digits = i;
  while (i < to && c >= 48 && c <= 57) c = token.charCodeAt(++i);
  if (i === digits) return from;
  if (c === 46 && i + 1 < to) {
    const f = ++i;
    c = token.charCodeAt(i);
    while (i < to && c >= 48 && c <= 57) c = token.charCodeAt(++i);
    if (i === f) return from;
  }
  while (i < to && ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 37)) c = token.charCodeAt(++i);
  return i === to ? start : from;
}

/** The `=` at `i` is part of `<=`, `>=`, `!=` or `==` (`-(>=NSSpace(8))-`): an operator, not a key's. */
function isComparison(token: string, i: number): boolean {
  const p = token.charCodeAt(i - 1);
  return p === 60 || p === 62 || p === 33 || p === 61 || token.charCodeAt(i + 1) === 61;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function digitIn(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

const HEX = /^(?:0x)?[0-9a-fA-F]{8,}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const PATH = /^(?:\/|\.{1,2}\/|~\/|[A-Za-z]:\\|[A-Za-z][\w+.-]*:\/\/)[^/\\]*[/\\]/;

/** A DNS host name under a generic or a country top-level domain (`ns.example.com`, `www.wsi.edu.pl`): a value, like an IP. */
const HOST = /^(?:[A-Za-z][A-Za-z0-9-]*\.)+(?:[a-z]{2}|com|net|org|edu|gov|mil|int|info|biz|local|internal|lan|arpa)$/;

/** Month and weekday names (`at Fri Jun 17 07:07:00 2005`): parts of a date, like its numbers. */
const DATE_WORDS = new Set(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec',
  'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);

/** An empty pair (`()`, `[]`, `''`): a value that is missing, where others have one (`(host.example.com)`). */
const EMPTY_PAIRS = new Set(['()', '[]', '{}', "''", '""', '<>']);

/** A language's word for no value (Java and JavaScript `null`, SQL `NULL`, Go `<nil>`, Python `None`, JavaScript `undefined`), masked as a key's value. */
const NO_VALUE = new Set(['null', 'NULL', 'nil', 'None', 'undefined']);

function isVariable(token: string, from: number, to: number, hasDigit: boolean): boolean {
  if (hasDigit) return true;
  const core = token.slice(from, to);
  return HEX.test(core) || UUID.test(core) || PATH.test(core) || HOST.test(core) || DATE_WORDS.has(core);
}

/**
 * The number a raw parameter stands for, or NaN: a decimal number, optionally
 * signed, optionally followed by a unit of letters or `%` (`123MB`, `42%`),
 * after stripping `key=` and edge punctuation; a time unit reads in seconds
 * (`850ms` 0.85, `123µs`, Go's `2m3.5s` 123.5: duration.ts). Ids such as
 * `rs-2` or `0x1f` are not numbers.
 */
export function numericValue(token: string): number {
  return numericValueIn(token, 0, token.length);
}

/**
 * numericValue of `s.slice(start, end)` without making the substring: a
 * token of a message, as `tokenize` would cut it. Reads stop at `end` as they
 * stop at a token's end (a character there is never a digit, `.`, `=` or a
 * unit letter read: reads past `to` go through `end` checks below).
 */
export function numericValueIn(s: string, start: number, end: number): number {
  let eq = -1;
  for (let k = start; k < end; k++) {
    if (s.charCodeAt(k) === 61 /* = */) { eq = k; break; }
  }
  let from = eq === -1 ? start : eq + 1;
  let to = end;
  while (from < to && isEdgePunct(s.charCodeAt(from))) from++;
  while (to > from && isEdgePunct(s.charCodeAt(to - 1))) to--;
  let i = from;
  let c = i < end ? s.charCodeAt(i) : -1;
  let negative = false;
  if (c === 45 || c === 43) {
    negative = c === 45;
    c = ++i < end ? s.charCodeAt(i) : -1;
  }
  const digitsStart = i;
  // Up to 15 digits, the integer is exact in a double: summed here (Number() of the same text gives the same value).
  let value = 0;
  while (c >= 48 && c <= 57) {
    value = value * 10 + (c - 48);
    c = ++i < end ? s.charCodeAt(i) : -1;
  }
  if (i === digitsStart) return NaN;
  const integerDigits = i - digitsStart;
  let fraction = false;
  // (Past `to`, a `.` is edge punctuation the token still holds: `12.` reads as an empty fraction, NaN, as before.)
  if (c === 46) {
    fraction = true;
    const f = ++i;
    c = i < end ? s.charCodeAt(i) : -1;
    while (c >= 48 && c <= 57) c = ++i < end ? s.charCodeAt(i) : -1;
    if (i === f) return NaN;
  }
  const numberEnd = i;
  // A time unit, or Go's compound duration (`2m3.5s`): read in seconds (duration.ts).
  if (i < to) {
    const seconds = durationIn(s, from, to);
    if (seconds === seconds) return seconds; // not NaN
  }
  // Another unit: letters or %, and nothing after it.
  while (i < to && ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 37)) c = ++i < end ? s.charCodeAt(i) : -1;
  if (i !== to) return NaN;
  if (s.charCodeAt(digitsStart) === 48 && digitsStart + 1 < end && (s.charCodeAt(digitsStart + 1) | 32) === 120) return NaN; // 0x…
  if (!fraction && integerDigits <= 15) return negative ? -value : value;
  return Number(s.slice(from, numberEnd));
}

/**
 * One walk over a message, cutting it into tokenize's tokens without making
 * them: the numericValue of the tokens at `positions` (ascending) go to `out`
 * (NaN past the last token). Stops after the last position.
 */
export function walkMessage(message: string, commaSeparated: boolean, positions: Int32Array, out: Float64Array): void {
  const n = message.length;
  const np = positions.length;
  if (np === 0) return;
  let p = 0;
  let want = positions[0] as number;
  let token = commaSeparated ? 0 : -1;
  let start = commaSeparated ? 0 : -1;
  const fields = commaSeparated ? -1 : requestLineEnd(message);
  for (let i = 0; i < n; i++) {
    const c = message.charCodeAt(i);
    if (commaSeparated) {
      if (c === 44) {
        if (token === want) {
          out[p] = numericValueIn(message, start, i);
          if (++p === np) return;
          want = positions[p] as number;
        }
        token++;
        start = i + 1;
      }
    } else if (c === 32 || c === 9) {
      if (start !== -1) {
        if (token === want) {
          out[p] = numericValueIn(message, start, i);
          if (++p === np) return;
          want = positions[p] as number;
        }
        start = -1;
      }
    } else {
      if (start === -1) {
        start = i;
        token++;
      }
      if (c === 34) i = quoteEnd(message, i, n, start, fields);
    }
  }
  if (start !== -1 && token === want) {
    out[p] = numericValueIn(message, start, n);
    p++;
  }
  for (; p < np; p++) out[p] = NaN;
}

/**
 * How to read a message whose cache key (its digit runs collapsed to one `0`,
 * index.ts) is known, without walking it character by character: the key's
 * digit-free segments (`key.split('0')`: a message has the key iff it is
 * those segments with a run of digits between each two), and for each wanted
 * token position, the token's start and end in the key and the number of digit
 * runs before each (a token never starts or ends inside a run, so its place in
 * the message is its place in the key shifted by the lengths of those runs).
 */
export interface KeyPlan {
  readonly segments: readonly string[];
  /** Per position: the token's start in the key (−1 past the last token), end, and digit runs before each. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly runsBeforeStart: Int32Array;
  readonly runsBeforeEnd: Int32Array;
}

export function keyPlan(key: string, commaSeparated: boolean, positions: Int32Array): KeyPlan {
  const spans: Array<[number, number]> = [];
  if (commaSeparated) {
    let start = 0;
    for (let i = 0; i <= key.length; i++) {
      if (i === key.length || key.charCodeAt(i) === 44) {
        spans.push([start, i]);
        start = i + 1;
      }
    }
  } else {
    let start = -1;
    const fields = requestLineEnd(key);
    for (let i = 0; i <= key.length; i++) {
      const c = i === key.length ? 32 : key.charCodeAt(i);
      if (c === 32 || c === 9) {
        if (start !== -1) spans.push([start, i]);
        start = -1;
      } else {
        if (start === -1) start = i;
        // (A key is its message with digit runs as `0`: its quotes, `=` and `\` are the message's.)
        if (c === 34) i = quoteEnd(key, i, key.length, start, fields);
      }
    }
  }
  // zeros[x]: the digit runs (the key's `0`s) before offset x.
  const zeros = new Int32Array(key.length + 1);
  for (let i = 0; i < key.length; i++) zeros[i + 1] = (zeros[i] as number) + (key.charCodeAt(i) === 48 ? 1 : 0);
  const np = positions.length;
  const plan = {
    segments: key.split('0'), starts: new Int32Array(np), ends: new Int32Array(np), runsBeforeStart: new Int32Array(np), runsBeforeEnd: new Int32Array(np),
  };
  for (let p = 0; p < np; p++) {
    const span = spans[positions[p] as number];
    if (span === undefined) {
      plan.starts[p] = -1;
      continue;
    }
    plan.starts[p] = span[0];
    plan.ends[p] = span[1];
    plan.runsBeforeStart[p] = zeros[span[0]] as number;
    plan.runsBeforeEnd[p] = zeros[span[1]] as number;
  }
  return plan;
}

/**
 * Whether `message` has the key whose digit-free segments (`key.split('0')`)
 * are `segments`: it is those segments with a run of digits between each two.
 * (readByPlan, without reading numbers; with `shifts`, where its digit runs are, as readByPlan's.)
 */
export function hasKey(message: string, segments: readonly string[], shifts: Int32Array | null = null): boolean {
  return matchSegments(message, segments, shifts);
}

/**
 * The scan of hasKey and readByPlan: each segment compared natively (a
 * substring and `===`: 2.3× faster than startsWith(segment, at) here, measured
 * on the bench set's lines), and only the digit runs between them read one by
 * one. With `shifts`, shifts[s] is how much longer than one digit the digit
 * runs before segment s were, summed (where the key's positions move to in
 * `message`). With `compare` false the segments are skipped by their length,
 * not compared: for a message known to have the key (its line's head was kept
 * from the mining pass, replay.ts), only the digit runs are read.
 */
function matchSegments(message: string, segments: readonly string[], shifts: Int32Array | null, compare = true): boolean {
  const last = segments.length - 1;
  const n = message.length;
  let at = 0;
  let shift = 0;
  if (shifts !== null) shifts[0] = 0;
  for (let s = 0; s <= last; s++) {
    const segment = segments[s] as string;
    const length = segment.length;
    if (compare && length > 0 && message.substring(at, at + length) !== segment) return false;
    at += length;
    if (s === last) break;
    let q = at;
    while (q < n) {
      const c = message.charCodeAt(q);
      if (c < 48 || c > 57) break;
      q++;
    }
    if (q === at) return false;
    if (shifts !== null) {
      shift += q - at - 1;
      shifts[s + 1] = shift;
    }
    at = q;
  }
  return at === n;
}

/**
 * Where the digit runs of a message known to have the key whose digit-free
 * segments are `segments` are (matchSegments' shifts, the segments skipped,
 * not compared); false when the message does not fit the key's shape.
 */
export function knownKeyShifts(message: string, segments: readonly string[], shifts: Int32Array): boolean {
  return matchSegments(message, segments, shifts, false);
}

/**
 * Whether `message` has the key of `plan`, and if so the numericValue of the
 * plan's tokens into `out` (NaN past the last token). `shifts` is scratch space
 * of at least `plan.segments.length` numbers (see matchSegments). With
 * `keyKnown` (the message is known to have the key: replay.ts) its segments
 * are not compared again, only its shape checked.
 */
export function readByPlan(message: string, plan: KeyPlan, out: Float64Array, shifts: Int32Array, keyKnown = false): boolean {
  if (!matchSegments(message, plan.segments, shifts, !keyKnown)) return false;
  const starts = plan.starts;
  for (let p = 0; p < starts.length; p++) {
    const start = starts[p] as number;
    if (start === -1) {
      out[p] = NaN;
      continue;
    }
    const from = start + (shifts[plan.runsBeforeStart[p] as number] as number);
    const to = (plan.ends[p] as number) + (shifts[plan.runsBeforeEnd[p] as number] as number);
    out[p] = numericValueIn(message, from, to);
  }
  return true;
}
