/**
 * A text log's header, learned per file from its lines (issue 53): what stands between the timestamp and the
 * message in a way the tokenizer would get wrong. For now one shape: fields joined by `|` instead of spaces
 * (HealthApp: `20171223-22:15:29:606|Step_LSC|30002312|onStandStepChanged 3579`), where the process id would be
 * glued to the message's first word (`|Step_LSC|30002312|onStandStepChanged` is one token, masked whole for its
 * digits). The header's bars are read as spaces, so component and pid are tokens of their own.
 */

import { InputError } from '../../errors.js';
import { serviceOf } from '../layout.js';
import { compileUserRegex } from '../translators/pattern.js';

/** Most header fields joined by `|`. */
const MAX_PIPES = 4;

/**
 * How many `|` open the messages (the lines without their timestamps) of a file's sample: the number of leading
 * `|`-separated fields without spaces that at least 90 % of the messages starting with `|` have, when that is
 * at least 90 % of them; 0 otherwise. Reason: a header field (component, pid, thread) holds no space, a message
 * does; a separator a tenth of the lines lack is not the file's.
 */
export function learnPipes(messages: readonly string[]): number {
  const timed = messages.filter((m) => m.length > 0);
  if (timed.length === 0) return 0;
  const counts = timed.map((m) => {
    if (m.charCodeAt(0) !== 124 /* | */) return 0;
    let n = 0;
    let at = 0;
    while (n < MAX_PIPES && m.charCodeAt(at) === 124) {
      const next = m.indexOf('|', at + 1);
      if (next < 0 || /\s/.test(m.slice(at + 1, next))) { n++; break; }
      n++;
      at = next;
    }
    return n;
  });
  for (let k = MAX_PIPES; k >= 1; k--) {
    if (counts.filter((n) => n >= k).length * 10 >= timed.length * 9) return k;
  }
  return 0;
}

/** The message with its first `pipes` bars read as spaces. */
export function unpipe(message: string, pipes: number): string {
  let out = message;
  let at = 0;
  for (let k = 0; k < pipes; k++) {
    at = out.indexOf('|', at);
    if (at < 0) break;
    out = `${out.slice(0, at)} ${out.slice(at + 1)}`;
  }
  return out;
}

/** Most leading id fields (pid, tid) a header has. */
const MAX_IDS = 3;
const INTEGER = /^\d+$/;

/**
 * How many whitespace-separated integers open the messages of a file's sample (the lines without their
 * timestamps): the most k ≤ 3 such that at least 90 % of them open with k integers. Reason: a process and a
 * thread id after the time (Android `03-17 16:13:38.811  1702  2395 D WindowManager: …`, HDFS
 * `081109 203615 148 INFO …`) are masked to `<*>` anyway, and in front they take the first levels of Drain's
 * tree, so that short messages of one header shape merge; a message opening with a number on nine lines in ten
 * is a header's.
 */
export function learnLeadingIds(messages: readonly string[]): number {
  const timed = messages.filter((m) => m.trim().length > 0);
  if (timed.length === 0) return 0;
  const runs = timed.map((m) => {
    const tokens = m.trim().split(/\s+/, MAX_IDS + 1);
    let n = 0;
    // (At least one token must be left for the message.)
    while (n < MAX_IDS && n < tokens.length - 1 && INTEGER.test(tokens[n] as string)) n++;
    return n;
  });
  for (let k = MAX_IDS; k >= 1; k--) {
    if (runs.filter((n) => n >= k).length * 10 >= timed.length * 9) return k;
  }
  return 0;
}

/** The message without up to `ids` leading integers (and the spaces after them). */
export function dropLeadingIds(message: string, ids: number): string {
  let at = 0;
  const n = message.length;
  for (let k = 0; k < ids; k++) {
    let i = at;
    while (i < n && (message.charCodeAt(i) === 32 || message.charCodeAt(i) === 9)) i++;
    let j = i;
    while (j < n && message.charCodeAt(j) >= 48 && message.charCodeAt(j) <= 57) j++;
    if (j === i || (j < n && message.charCodeAt(j) !== 32 && message.charCodeAt(j) !== 9) || j === n) break;
    at = j;
  }
  return at === 0 ? message : message.slice(at);
}

// ---------------------------------------------------------------------------
// The fields of a text header, learned per file (issue 53)

/**
 * A header field, as the file's lines have it after the timestamp (and syslog host, pid/tid, bars):
 * - `any`: one field, whatever it holds (BGL's label, epoch, date and node before its level; OpenStack's file
 *   name and pid);
 * - `level`: a level word (`INFO`, `[notice]`, logcat's one letter `D`);
 * - `bracket`: a `[…]` group, spaces and nested brackets allowed (a thread `[IPC Server handler 5 on 62270]`, a
 *   request context `[req-… - - -]`);
 * - `colon`: a field ending with `:` (a logger or tag `HRegion:`, `WindowManager:`, `sshd[24200]:`);
 * - `close`: a field ending with `]` that did not open with `[` (glog/klog's `file.go:123]`): it ends the header;
 * - `dash`: a lone `-` closing the header (`- INFO [thread] - message`);
 * - `colonMark`: a lone `:` closing the header after a logger (Spring Boot's `[main] c.e.Cart      : message`);
 * - `word`: a logger without a colon, followed by a bracket group or a dash (oslo's `%(name)s [%(request_id)s]`,
 *   logback's `%logger - %msg`), or a component name before the level;
 * - `untilColon` / `untilDash`: a program name of one to three fields, closed by a `:` on its last field (syslog's
 *   `syslogd 1.4.1:`) or by a lone `-` after it (Proxifier's `chrome.exe *64 -`);
 * - `pod`: `kubectl logs --prefix`'s `[pod/<pod>/<container>]`, naming the pod's component (its replica suffix
 *   dropped, layout.ts serviceOf).
 */
export type HeaderSlot = 'any' | 'level' | 'bracket' | 'colon' | 'close' | 'dash' | 'colonMark' | 'word' | 'untilColon' | 'untilDash' | 'pod';

/** A file's text header: its fields in order, and which one (if any) names the component (the entity). */
export interface TextHeader {
  readonly slots: readonly HeaderSlot[];
  /** Index in `slots` of the field that names the component, −1 when none does (a pattern's: 0 with a group `entity`). */
  readonly entity: number;
  /** --header-pattern REGEX: the header is what it matches (groups `level`, `entity`), not learned; no slots. */
  readonly pattern?: string;
}

/**
 * The header a user gave (--header-pattern REGEX): matched where a learned header is read (after the timestamp;
 * a table's message cell), its group `level` the line's level and `entity` its component. Reason: a header this
 * file's learning gets wrong is fixed by saying it, as --message-column fixes a table (docs/input.md).
 */
export function patternHeader(source: string): TextHeader {
  let names: ReadonlySet<string>;
  try {
    names = compileUserRegex(source).names;
    patternRegex(source);
  } catch (err) {
    throw new InputError(`--header-pattern: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { slots: [], entity: names.has('entity') ? 0 : -1, pattern: source };
}

/** Whether a header reads a level (a `level` field, a pattern's group `level`). */
export function readsLevel(header: TextHeader): boolean {
  return header.pattern !== undefined ? /\(\?<level>/.test(header.pattern) : header.slots.includes('level');
}

/** A pattern without its leading `^`: it is matched where the header starts (sticky), not at the line's start. */
export function patternBody(source: string): string {
  return source.startsWith('^') ? source.slice(1) : source;
}

const PATTERNS = new Map<string, RegExp>();

function patternRegex(source: string): RegExp {
  let re = PATTERNS.get(source);
  if (re === undefined) {
    const { re: user } = compileUserRegex(source);
    re = new RegExp(patternBody(user.source), `${user.flags}y`);
    PATTERNS.set(source, re);
  }
  return re;
}

/** readTextHeader for a pattern: the message after its match and the blanks after it (the whole, unmatched). */
function readPatternHeader(message: string, pattern: string, parts: HeaderParts): string {
  const re = patternRegex(pattern);
  re.lastIndex = blanks(message, 0);
  const m = re.exec(message);
  if (m === null) return message;
  const i = blanks(message, re.lastIndex);
  // (A field must be left for the message, as a learned header leaves one.)
  if (i >= message.length) return message;
  const level = m.groups?.level?.trim() ?? '';
  parts.level = level === '' ? '' : levelOf(level) || level.toUpperCase();
  parts.entity = m.groups?.entity ?? '';
  return message.slice(i);
}

/**
 * Level words, any case, optionally in brackets, or in capitals closed by `:` (PostgreSQL's `LOG:`, `ERROR:`,
 * `PANIC:`, and the `STATEMENT:`, `DETAIL:`, `HINT:`, `CONTEXT:` lines that follow an error; they end the header);
 * logcat's one capital letter.
 */
const LEVEL_FIELD = /^\[?(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL|CRIT|SEVERE|ALERT|EMERG|FINE|FINER|FINEST|CONFIG|LOG|PANIC)\]?$/i;
const LEVEL_COLON = /^(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL|CRIT|SEVERE|ALERT|EMERG|LOG|PANIC|STATEMENT|DETAIL|HINT|CONTEXT):$/;
const GLOG_LEVEL = /^[IWEF](?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])$/;
const LETTER_LEVELS: Readonly<Record<string, string>> = { V: 'TRACE', D: 'DEBUG', I: 'INFO', W: 'WARN', E: 'ERROR', F: 'FATAL', A: 'FATAL' };

/** The level a field names ('' when none), upper case: `[notice]` → NOTICE, `W` → WARN. */
export function levelOf(field: string): string {
  const m = LEVEL_FIELD.exec(field) ?? LEVEL_COLON.exec(field);
  if (m !== null) return (m[1] as string).toUpperCase();
  // glog/klog glue the level's letter to the month and day: `I1207`, `E0102`.
  if (GLOG_LEVEL.test(field)) return LETTER_LEVELS[field.charAt(0)] as string;
  return field.length === 1 ? LETTER_LEVELS[field] ?? '' : '';
}

/** Most fields before a level (BGL has seven: label, epoch, date, node, node, type, component). */
const MAX_LEAD = 8;
/** Most header fields after the level (thread id, logger, separator), bracket groups aside. */
const MAX_AFTER_LEVEL = 3;
/**
 * Most bracket groups after the level, besides those fields (Spring Boot 3's `[app] [thread] [trace-span]`). Reason: a
 * `[…]` group on nine lines in ten at one place is a header's (thread, context), never a message's first word.
 */
const MAX_BRACKETS_AFTER_LEVEL = 3;
/** Most fields of a program name closed by `:` or ` - `. */
const MAX_PROGRAM_FIELDS = 3;
/** A header field's shape must hold on this share of the sampled lines (a tenth may be continuation-like noise). */
const SHARE = 0.9;

/**
 * The fields of a message, up to `max`: runs of non-blank characters, except that a field opening with `[` runs to
 * its matching `]` (nested brackets counted; spaces inside kept), when that closes before the line ends. Each as
 * [start, end) offsets.
 */
export function headerFields(message: string, max: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const n = message.length;
  let i = 0;
  while (out.length < max) {
    while (i < n && (message.charCodeAt(i) === 32 || message.charCodeAt(i) === 9)) i++;
    if (i >= n) break;
    const start = i;
    i = fieldEnd(message, i);
    out.push([start, i]);
  }
  return out;
}

type Shape = 'bracket' | 'colon' | 'close' | 'dash' | 'word';

function shapeOf(field: string): Shape {
  return shapeAt(field, 0, field.length);
}

/** Where a program name closes in `fields` (the index of the first message field), or −1, and how. */
function programEnd(message: string, fields: ReadonlyArray<[number, number]>): { end: number; kind: 'untilColon' | 'untilDash' } | null {
  for (let k = 0; k < Math.min(MAX_PROGRAM_FIELDS, fields.length - 1); k++) {
    const f = message.slice(...(fields[k] as [number, number]));
    if (f === '-') return k === 0 ? null : { end: k + 1, kind: 'untilDash' };
    if (shapeOf(f) === 'colon') return { end: k + 1, kind: 'untilColon' };
  }
  const f = fields.length > MAX_PROGRAM_FIELDS ? message.slice(...(fields[MAX_PROGRAM_FIELDS] as [number, number])) : '';
  return f === '-' && fields.length > MAX_PROGRAM_FIELDS + 1 ? { end: MAX_PROGRAM_FIELDS + 1, kind: 'untilDash' } : null;
}

/**
 * The header a file's sampled messages (the lines without their timestamps, hosts, pid/tid and bars) share, or
 * undefined when they share none. The message is what follows it, and only the message is mined: header fields
 * repeat on every line, so left in they would count as matching words between unrelated short messages
 * (`RAS KERNEL INFO generating core.2275` and `RAS KERNEL INFO program interrupt` are 3 words in 5 alike) and
 * take the first levels of the template tree; and a field of varying width (a thread `[IPC Server handler 5 on
 * 62270]`, a program `chrome.exe *64`) would split one statement by its number of tokens. In order:
 * 1. `|`-joined fields (`pipes` bars, header.ts learnPipes): the fields before the last bar, the first naming the
 *    component. Reason: a message holds spaces, the fields joined by bars do not.
 * 2. A level word at the same field (at most the 9th) on 90 % of the lines: the fields up to it, then after it
 *    each field that has the same shape on 90 % of them — a bracket group (thread, request context), a field
 *    ending with `:` (logger or tag: it ends the header), a field ending with `]` alone (glog's `file.go:12]`:
 *    it ends the header), a lone `-` (ends it), an integer (a thread id), or a word followed by a bracket group
 *    or a lone `-` whose values repeat (a logger without colon: oslo's `name [req-…]`, logback's `logger - msg`),
 *    or a name padded with two blanks or more whose values repeat (a component in a column: Windows CBS's
 *    `Info                  CBS    Loaded …`; it ends the header: a message's first word is not padded), or a
 *    name followed by a lone `:` (Spring Boot's `logger : msg`; the colon ends the header as a lone `-` does).
 *    Up to three such fields, and up to three bracket groups besides (Spring Boot 3's `[app] [thread] [trace]`).
 *    A field without a letter (Spring Boot's `---`) is read as a field, never as the entity: a separator names
 *    no writer.
 *    With no logger after the level, the nearest name before it that repeats (BGL's `KERNEL`, Python's
 *    `%(name)s - %(levelname)s`) names the component. Reason: log4j/logback, Python logging, klog/glog-style, Android logcat,
 *    Zookeeper, Spark, OpenStack and BGL all put the level after the time, the thread and logger after it; a
 *    message does not open with a level on nine lines in ten.
 * 3. Else a program name of one to three fields closed by `:` (syslog's `sshd[24200]:`, `syslogd 1.4.1:`) or by
 *    a lone `-` (`chrome.exe *64 - `) on 90 % of the lines, the names repeating (repeats). Reason: syslog-style programs and proxies name the writer before the message; a
 *    message's own words before a colon vary with the message.
 * The logger, tag or program names the entity (as a translator would make it `entity:template`); the level is
 * read as the line's level, never part of the template.
 */
export function learnTextHeader(messages: readonly string[], pipes = 0, lead = 0): TextHeader | undefined {
  const lines = messages.filter((m) => m.trim().length > 0);
  if (lines.length === 0) return undefined;
  if (pipes >= 2) return { slots: ['word', ...new Array<HeaderSlot>(pipes - 2).fill('any')], entity: 0 };
  // 0. `kubectl logs --prefix`'s `[pod/<pod>/<container>]` opening 90 % of the lines (before their time): the pod
  // names the entity, the rest has its own header. Reason: the pod is where the line was written, as a pod column
  // of a table, whose entity wins over a logger in its message (split.ts); a logger is named in many services.
  const firsts = lines.map((m) => headerFields(m, 1)[0] as [number, number]);
  if (firsts.filter(([a, b], i) => isPod(lines[i] as string, a, b)).length >= SHARE * lines.length) {
    const rest = learnTextHeader(lines.flatMap((m, i) => (isPod(m, ...(firsts[i] as [number, number])) ? [m.slice((firsts[i] as [number, number])[1])] : [])),
      0, Math.max(0, lead - 1));
    return { slots: ['pod', ...(rest?.slots ?? [])], entity: 0 };
  }
  const offsets = lines.map((m) => headerFields(m, MAX_LEAD + MAX_AFTER_LEVEL + MAX_BRACKETS_AFTER_LEVEL + 2));
  const fields = offsets.map((o, i) => o.map(([a, b]) => (lines[i] as string).slice(a, b)));
  const enough = (n: number): boolean => n >= SHARE * lines.length;
  // Whether field j of line i is padded: two blanks or more before the next field.
  const padded = (i: number, j: number): boolean => {
    const o = offsets[i] as Array<[number, number]>;
    return o.length > j + 1 && (o[j + 1] as [number, number])[0] - (o[j] as [number, number])[1] >= 2;
  };
  // 2. A level at one field.
  for (let p = 0; p <= MAX_LEAD; p++) {
    // (A field must be left for the message.)
    if (!enough(fields.filter((f) => f.length > p + 1 && levelOf(f[p] as string) !== '').length)) continue;
    const slots: HeaderSlot[] = [...new Array<HeaderSlot>(p).fill('any'), 'level'];
    let entity = -1;
    // A level closed by `:` (PostgreSQL's `LOG:  duration: …`) ends the header: the message follows it.
    const closed = enough(fields.filter((f) => (f[p] as string | undefined)?.endsWith(':') === true).length);
    // (Names with a letter on 90 % of the lines: a field without one, Spring Boot's `---`, never names the entity.)
    const named = (j: number): boolean => enough(fields.filter((f) => LETTER.test(f[j] ?? '')).length);
    for (let j = p + 1, plain = 0, brackets = 0; !closed && plain < MAX_AFTER_LEVEL; j++) {
      const shapes = fields.map((f) => (f.length > j + 1 ? shapeOf(f[j] as string) : null));
      const count = (s: Shape): number => shapes.filter((x) => x === s).length;
      if (enough(count('bracket'))) {
        if (++brackets > MAX_BRACKETS_AFTER_LEVEL) break;
        slots.push('bracket');
        continue;
      }
      plain++;
      if (enough(count('colon'))) {
        // (A colon field without a letter is an id, nginx's `1234#0:`, not a component.)
        if (entity < 0 && named(j)) entity = slots.length;
        slots.push('colon');
        break;
      }
      if (enough(count('close'))) {
        slots.push('close');
        break;
      }
      if (enough(fields.filter((f) => f.length > j + 1 && INTEGER.test(f[j] as string)).length)) {
        // A thread or process id (glog's `12345` after its level).
        slots.push('any');
        continue;
      }
      if (enough(count('dash'))) {
        slots.push('dash');
        break;
      }
      if (enough(fields.filter((f) => f.length > j + 1 && f[j] === ':').length)) {
        // A lone `:` closing the header with no logger before it (Ruby's Logger: `INFO -- : msg`, its progname empty).
        slots.push('colonMark');
        break;
      }
      if (!named(j) && enough(fields.filter((f) => f.length > j + 2 && f[j] === (fields[0] as string[])[j]).length)) {
        // A separator without a letter, the same on the lines (Ruby's Logger's `--` before `progname:`, Spring Boot's
        // `---` before its thread): a field of the header, which goes on; it names no writer.
        slots.push('any');
        continue;
      }
      if (enough(count('word')) && enough(fields.filter((f) => f.length > j + 2 && f[j + 1] === ':').length) && named(j) && repeats(fields.map((f) => f[j] ?? ''))) {
        // A logger closed by a lone `:` (Spring Boot's `%-40.40logger{39} : %m`): the entity, and the colon ends
        // the header as logback's lone `-` does.
        if (entity < 0) entity = slots.length;
        slots.push('word', 'colonMark');
        break;
      }
      if (enough(count('word')) && enough(fields.filter((f, i) => LETTER.test(f[j] ?? '') && padded(i, j)).length) && repeats(fields.map((f) => f[j] ?? ''))) {
        // A name padded to a column after the level (Windows CBS's `Info                  CBS    Loaded …`): the
        // component, and the message starts after its padding.
        if (entity < 0) entity = slots.length;
        slots.push('word');
        break;
      }
      const next = fields.map((f) => (f.length > j + 2 ? shapeOf(f[j + 1] as string) : null));
      if (enough(count('word')) && enough(next.filter((x) => x === 'bracket' || x === 'dash').length) && repeats(fields.map((f) => f[j] ?? ''))) {
        // (Without a letter, a separator: Spring Boot's `--- [thread]`.)
        if (!named(j)) {
          slots.push('any');
          continue;
        }
        if (entity < 0) entity = slots.length;
        slots.push('word');
        continue;
      }
      break;
    }
    if (entity < 0) {
      // No logger after the level: the nearest field before it (a dash aside) that is a name repeating over the
      // lines names the component (BGL's `KERNEL`, Python's `%(name)s - %(levelname)s`).
      for (let q = p - 1; q >= Math.max(0, p - 2); q--) {
        const values = fields.map((f) => f[q] as string);
        if (values.every((v) => v === '-')) continue;
        if (enough(values.filter((v) => shapeOf(v) === 'word' && LETTER.test(v)).length) && repeats(values)) {
          slots[q] = 'word';
          entity = q;
        }
        break;
      }
    }
    return { slots, entity };
  }
  // (No level: the fields before a time in mid-line are a header of their own.)
  if (lead > 0) return withLead(lines, lead);
  // 3. A program name.
  const ends = lines.map((m) => programEnd(m, headerFields(m, MAX_PROGRAM_FIELDS + 2)));
  for (const kind of ['untilColon', 'untilDash'] as const) {
    const closed = ends.flatMap((e, i) => (e !== null && e.kind === kind ? [(fields[i] as string[]).slice(0, e.end).join(' ')] : []));
    // (A name without a letter is an address or a number, as an access log's client `10.0.0.1 - -`: no program.)
    if (enough(closed.filter((c) => LETTER.test(c)).length) && repeats(closed)) return { slots: [kind], entity: 0 };
  }
  return undefined;
}

const LETTER = /[A-Za-z]/;
/** A name: letters and no digit. */
const NAME = /^[^0-9]*[A-Za-z][^0-9]*$/;

/**
 * The header of messages whose first `lead` fields stood before the timestamp (the time in mid-line: HPC's
 * `134681 node-246 unix.hw state_change.unavailable 1077804742 1 Component State Change: …`, BGL's label, epoch,
 * date and node, OpenStack's file name), when no level word is found among the fields (learnTextHeader's step 2
 * reads those headers whole): those fields, then the header the rest of the messages share (learned as for a time
 * opening the line). Reason: a line's message follows its time, never precedes it; left in, the fields before it
 * are the first words of every message (a node name in first place takes the template tree's first level, and
 * unrelated short messages of one component merge: HPC's `boot`, `wait` and `halt` commands were one template).
 * The entity is the rest's (a logger, a program), else the field before the time that is a name without digits
 * on 90 % of the lines and repeats, with the fewest distinct values (ties to the earlier): HPC's component
 * `unix.hw`, `action`. Reason: hosts, nodes and ids carry numbers (`node-246`); a state or kind field is a word
 * too but takes more values than the writer's name.
 */
function withLead(lines: readonly string[], lead: number): TextHeader {
  const fields = lines.map((m) => headerFields(m, lead).map(([a, b]) => m.slice(a, b)));
  const rests = lines.flatMap((m) => {
    const f = headerFields(m, lead + 1);
    return f.length > lead ? [m.slice((f[lead] as [number, number])[0])] : [];
  });
  const rest = learnTextHeader(rests);
  const slots: HeaderSlot[] = [...new Array<HeaderSlot>(lead).fill('any'), ...(rest?.slots ?? [])];
  if (rest !== undefined && rest.entity >= 0) return { slots, entity: lead + rest.entity };
  let entity = -1;
  let fewest = Infinity;
  for (let q = 0; q < lead; q++) {
    const values = fields.map((f) => f[q] ?? '');
    if (values.filter((v) => NAME.test(v)).length < SHARE * lines.length) continue;
    const distinct = new Set(values).size;
    if (distinct * 2 <= values.length + 1 && distinct < fewest) [entity, fewest] = [q, distinct];
  }
  if (entity >= 0) slots[entity] = 'word';
  return { slots, entity };
}

/**
 * Whether values repeat as a header field's do: at most half as many distinct ones (digits aside) as values,
 * rounded up. Reason: a field naming the writer (logger, program, component) names many lines; a message's own
 * words vary with the message.
 */
function repeats(values: readonly string[]): boolean {
  return new Set(values.map((v) => v.replace(/[0-9]+/g, '0'))).size * 2 <= values.length + 1;
}

/** What readTextHeader read off a line: its level and entity ('' each when none). */
export interface HeaderParts {
  level: string;
  entity: string;
  /** The last level and entity fields read and what they gave: consecutive lines mostly repeat them (no slicing). */
  lastLevelField?: string;
  lastLevel?: string;
  lastEntityField?: string;
  lastEntity?: string;
}

/** Whether message[a, b) is `text`. */
function isAt(message: string, a: number, b: number, text: string | undefined): text is string {
  return text !== undefined && b - a === text.length && message.startsWith(text, a);
}

/**
 * The message after a line's header, its level and entity into `parts`; the whole message (and '' each) when the
 * line's fields do not have the header's shapes (a line another writer wrote).
 */
export function readTextHeader(message: string, header: TextHeader, parts: HeaderParts): string {
  // (Every line of a file goes through here: fields are scanned in place, not split.)
  parts.level = '';
  parts.entity = '';
  if (header.pattern !== undefined) return readPatternHeader(message, header.pattern, parts);
  const slots = header.slots;
  const n = message.length;
  let i = blanks(message, 0);
  let level = '';
  let entity = '';
  for (let s = 0; s < slots.length; s++) {
    const slot = slots[s] as HeaderSlot;
    if (i >= n) return message;
    if (slot === 'untilColon' || slot === 'untilDash') {
      // As programEnd: a colon field among the first three closes the name, or a dash after one to three fields.
      let kind: HeaderSlot | null = null;
      let nameEnd = -1;
      let next = -1;
      let prevEnd = -1;
      for (let k = 0, j = i; k <= MAX_PROGRAM_FIELDS && j < n; k++) {
        const e = fieldEnd(message, j);
        const shape = shapeAt(message, j, e);
        if (shape === 'dash') {
          if (k > 0) [kind, nameEnd, next] = ['untilDash', prevEnd, e];
          break;
        }
        if (k === MAX_PROGRAM_FIELDS) break;
        if (shape === 'colon') {
          [kind, nameEnd, next] = ['untilColon', e, e];
          break;
        }
        prevEnd = e;
        j = blanks(message, e);
      }
      if (kind !== slot) return message;
      // (A program name of several fields is kept whole: `syslogd 1.4.1`, `chrome.exe *64`.)
      if (s === header.entity) entity = entityAt(message, i, nameEnd, false, parts);
      i = blanks(message, next);
      continue;
    }
    const end = fieldEnd(message, i);
    if (slot === 'pod') {
      if (!isPod(message, i, end)) return message;
      if (s === header.entity) entity = podAt(message, i, end, parts);
      i = blanks(message, end);
      continue;
    }
    if (slot === 'level') {
      if (isAt(message, i, end, parts.lastLevelField)) {
        level = parts.lastLevel as string;
      } else {
        parts.lastLevelField = message.slice(i, end);
        parts.lastLevel = level = levelOf(parts.lastLevelField);
      }
      if (level === '') return message;
    } else if (slot === 'colonMark') {
      if (end - i !== 1 || message.charCodeAt(i) !== 58 /* : */) return message;
    } else if (slot !== 'any' && slot !== shapeAt(message, i, end)) {
      return message;
    }
    if (s === header.entity) entity = entityAt(message, i, end, true, parts);
    i = blanks(message, end);
  }
  // (A field must be left for the message.)
  if (i >= n) return message;
  parts.level = level;
  parts.entity = entity;
  return message.slice(i);
}

function blanks(message: string, i: number): number {
  while (i < message.length && (message.charCodeAt(i) === 32 || message.charCodeAt(i) === 9)) i++;
  return i;
}

/** Where the field starting at `i` ends, as headerFields reads it. */
function fieldEnd(message: string, i: number): number {
  const n = message.length;
  if (message.charCodeAt(i) === 91 /* [ */) {
    let depth = 0;
    let j = i;
    for (; j < n; j++) {
      const c = message.charCodeAt(j);
      if (c === 91) depth++;
      else if (c === 93 && --depth === 0) break;
    }
    if (j < n && (j + 1 === n || message.charCodeAt(j + 1) === 32 || message.charCodeAt(j + 1) === 9)) return j + 1;
  }
  let j = i;
  while (j < n && message.charCodeAt(j) !== 32 && message.charCodeAt(j) !== 9) j++;
  return j;
}

/** shapeOf of message.slice(a, b), without the slice. */
function shapeAt(message: string, a: number, b: number): Shape {
  const len = b - a;
  if (len === 1 && message.charCodeAt(a) === 45) return 'dash';
  if (len >= 2) {
    const first = message.charCodeAt(a);
    const last = message.charCodeAt(b - 1);
    if (first === 91 && last === 93) return 'bracket';
    if (last === 58) return 'colon';
    if (last === 93) {
      const open = message.indexOf('[', a);
      if (open < 0 || open >= b) return 'close';
    }
  }
  return 'word';
}

/** entityName of message[a, b), the last one's reused when the line repeats its field. */
function entityAt(message: string, a: number, b: number, qualified: boolean, parts: HeaderParts): string {
  if (isAt(message, a, b, parts.lastEntityField)) return parts.lastEntity as string;
  const field = message.slice(a, b);
  const key = qualified ? field : `\u0000${field}`;
  let name = ENTITIES.get(key);
  if (name === undefined) {
    if (ENTITIES.size >= ENTITIES_MAX) ENTITIES.clear();
    ENTITIES.set(key, name = entityName(field, qualified));
  }
  parts.lastEntityField = field;
  return parts.lastEntity = name;
}

/** Whether message[a, b) is kubectl's prefix `[pod/<pod>/<container>]`. */
function isPod(message: string, a: number, b: number): boolean {
  return message.startsWith('[pod/', a) && POD_PREFIX.test(message.slice(a, b));
}
const POD_PREFIX = /^\[pod\/[^/\s\]]+\/[^/\s\]]+\]$/;

/**
 * The pod of a line opening with kubectl's `[pod/<pod>/<container>]` (after blanks), whole (its replica suffix kept),
 * or '' for a line without it. Reason: the pod is where the line was written, as a table's pod column is (layout.ts
 * TableLayout.source): with no request id, it names instances (split.ts, index.ts).
 */
export function podOfLine(line: string): string {
  const a = blanks(line, 0);
  if (!line.startsWith('[pod/', a)) return '';
  const b = fieldEnd(line, a);
  return isPod(line, a, b) ? line.slice(a + 5, line.indexOf('/', a + 5)) : '';
}

/** The component a `[pod/<pod>/<container>]` field names (serviceOf the pod), the last one's reused. */
function podAt(message: string, a: number, b: number, parts: HeaderParts): string {
  if (isAt(message, a, b, parts.lastEntityField)) return parts.lastEntity as string;
  const field = message.slice(a, b);
  parts.lastEntityField = field;
  return parts.lastEntity = serviceOf(field.slice(5, field.indexOf('/', 5)));
}

/** Entity names by field (`\u0000` before a program's, whose name is not cut), as a file's few loggers alternate. */
const ENTITIES = new Map<string, string>();
const ENTITIES_MAX = 4096;

/**
 * The component a header field names: without its closing `:` and process id (`sshd[24200]:` → `sshd`), and when
 * `qualified` (one field) a qualified class name cut to the class (`org.apache.hadoop.hbase.regionserver.HRegion` → `HRegion`, as template
 * names cut them; a lower-case module path such as `nova.compute.manager` is kept whole).
 */
export function entityName(field: string, qualified = true): string {
  let name = field.endsWith(':') ? field.slice(0, -1) : field;
  name = name.replace(/\[\d+\]$/, '');
  const dot = name.lastIndexOf('.');
  if (qualified && dot >= 0 && /^[A-Z][^.\s]*$/.test(name.slice(dot + 1))) name = name.slice(dot + 1);
  return name;
}

// ---------------------------------------------------------------------------
// The header as a regex (templates -o: rules.ts)

const BRACKET_RE = '\\[(?:[^\\[\\]\\n]|\\[[^\\[\\]\\n]*\\])*\\](?=\\s|$)';
export const LEVEL_WORDS_RE = 'TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL|CRIT|SEVERE|ALERT|EMERG|FINE|FINER|FINEST|CONFIG|LOG|PANIC|STATEMENT|DETAIL|HINT|CONTEXT';
/** Level words in upper, lower and capitalized case, as alternatives; `letters`: logcat's letters too, and glog's glued to a date. */
export function levelAlternatives(words: string, letters: string): string {
  const cased = words.split('|').flatMap((w) => [w, w.toLowerCase(), w.charAt(0) + w.slice(1).toLowerCase()]);
  const glog = [...letters].filter((c) => 'IWEF'.includes(c)).join('');
  return [...new Set(cased)].sort((a, b) => b.length - a.length).join('|') +
    (glog === '' ? '' : `|[${glog}](?:0[1-9]|1[0-2])(?:0[1-9]|[12]\\d|3[01])`) + (letters === '' ? '' : `|[${letters}]`);
}

/**
 * The regexes of a header's fields, one per slot, matching them as readTextHeader reads them; the entity's
 * field captured as `entity` (its id and `:` left out, a qualified class cut to the class, as entityName does).
 * `level` is the regex of the level words it accepts (all of them by default: a WARN rule narrows it). With
 * `pipes`, a bar separates fields as a space does.
 */
export function headerItems(header: TextHeader, pipes: boolean, level = levelAlternatives(LEVEL_WORDS_RE, 'VDIWEFA')): string[] {
  // (With `|`-joined fields a bar separates as a space does: header.ts unpipe.)
  const sp = pipes ? '[\\s|]' : '\\s';
  const w = pipes ? '[^\\s|]' : '\\S';
  const ns = (extra: string): string => `[^\\s${pipes ? '|' : ''}${extra}]`;
  const sep = `${sp}+`;
  if (header.pattern !== undefined) return [`(?:${patternBody(header.pattern)})`];
  return header.slots.map((slot, s) => {
    const named = (re: string): string => (s === header.entity ? `(?<entity>${re})` : re);
    const qualified = (end: string): string => `(?:${w}*\\.(?=[A-Z]${ns('.')}*?(?:\\[\\d+\\])?${end}))?`;
    switch (slot) {
      case 'any': return `(?:${BRACKET_RE}|${w}+)`;
      case 'level': return `\\[?(?:${level})\\]?:?(?=${sp})`;
      case 'bracket': return BRACKET_RE;
      case 'dash': return '-';
      // (The replica suffix left out as serviceOf leaves it out, layout.ts REPLICA_SUFFIX.)
      case 'pod': return `\\[pod/${named('[^/\\s\\]]+?')}(?:-[a-z0-9]{6,10}-[a-z0-9]{5}|-\\d+)?/[^/\\s\\]]+\\](?=\\s|$)`;
      case 'colonMark': return `:(?=${sp})`;
      case 'close': return `${w}*\\](?=${sp})`;
      case 'colon': return `${qualified(`:${sp}`)}${named(`${w}+?`)}(?:\\[\\d+\\])?:`;
      case 'word': return `${qualified(sp)}${named(`${w}+?`)}(?:\\[\\d+\\])?(?=${sp})`;
      case 'untilColon': return `${named(`(?:${w}*${ns(':')}${sep}){0,${MAX_PROGRAM_FIELDS - 1}}?${w}*?`)}(?:\\[\\d+\\])?:`;
      case 'untilDash': return `${named(`${w}*${ns(':')}(?:${sep}(?!-${sp})${w}*${ns(':')}){0,${MAX_PROGRAM_FIELDS - 1}}?`)}${sep}-`;
      default: return '';
    }
  });
}

const SLOT_WORDS: Readonly<Record<HeaderSlot, string>> = {
  any: 'field', level: 'level', bracket: '[…]', colon: 'name:', close: 'file:line]', dash: '-', colonMark: ':', pod: '[pod/…]', word: 'name', untilColon: 'program:', untilDash: 'program -',
};

/**
 * For the run's summary: `header learned: field field level name (the entity) [...]`, or the pattern given; `where`
 * says where the header stands (` in the messages`).
 */
export function describeHeader(header: TextHeader, where = ''): string {
  if (header.pattern !== undefined) return `header${where} by --header-pattern /${header.pattern}/`;
  return `header learned${where}: ` + header.slots.map((s, i) => (i === header.entity ? `${SLOT_WORDS[s]} (the entity)` : SLOT_WORDS[s])).join(' ');
}
