import { jsonRow, logfmtPairs } from '../fields.js';
import { LEADING_TIME, logfmtRoleKeys, namesPods, type TableLayout } from '../layout.js';
import { headerItems, LEVEL_WORDS_RE, levelAlternatives, type TextHeader } from './header.js';
import type { MinedTemplate, TemplateModel } from './model.js';
import { tokenize, WILDCARD } from './mask.js';
import { numberRegex, parameterRegexes, plainParameters, QUOTED } from './token-regex.js';

/**
 * The rules file (examples/README.md, "Rules files") that reproduces what the miner makes of a table
 * (src/parse/layout.ts): the time column as the timestamp, the trace column as the instance, the entity read once
 * per line by the file's `header:` (a lookahead, replica suffixes left out of the capture), and per template one
 * rule whose regex reads the message:
 *  - a log statement the lines name (`Class#line`) is matched by its location in the message's head;
 *  - a mined template of a plain CSV/TSV table (no quotes) or of a JSON Lines field, token by token;
 *  - a mined template of logfmt: its message key's value (a lookahead) and its other pairs in order, the pairs of
 *    keys with a role allowed between them (logfmtRegex);
 *  - inside a cell (docs/input.md, "`templates -o` on an export"), as the line writes it: a JSON record in a JSON
 *    field by its escaped keys (recordRegex, IN_STRING), a logfmt line in one pair by pair (logfmtRegex,
 *    IN_JSON_STRING), a text header of the message's own by the file's `header:` (fieldHeader), the first of two
 *    message fields a rule each (messageColumnsRegexes), a quoted CSV cell to its closing quote (quotedRegex);
 *  - left out, with a comment saying why: an entity from the file's name (CRI: a rules file reads lines only), a
 *    message holding a quote or a backslash inside an escaped cell (its escaping is the exporter's).
 * WARN and ERROR lines give `entity:WARN` / `entity:ERROR` as the miner does (a rule that lets the line go on).
 * With a statement column (go-kit's `caller=`), each mined template's rules come twice: first for lines with a
 * location there, captured into the names (`entity:head.go:1290 template`) as the miner names them, then for lines
 * without one.
 */
export function tableRulesYaml(model: TemplateModel, layout: TableLayout, header: string[], textHeader?: TextHeader): string {
  const out = [...header];
  const col = (i: number): string => layout.columns[i] as string;
  const kind = layout.kind === 'jsonl' ? 'JSON Lines' : layout.kind === 'logfmt' ? 'logfmt' : layout.kind.toUpperCase();
  // The JSON record in the message cell (Docker's `log` holding slog's JSON), read where the row has no such role
  // (layout.ts RowReader), as the line writes it: inside a JSON Lines row's string its quotes escaped (`\"msg\":`).
  const cell = layout.messageField !== '' && layout.cell?.kind === 'jsonl' && (layout.kind === 'jsonl' || layout.kind === 'cri') ? layout.cell : undefined;
  const inner = layout.kind === 'jsonl' ? IN_STRING : IN_ROW;
  // A logfmt line in a JSON Lines row's string (Loki's `line`), its quotes escaped as the row's: its message key's
  // value and pairs with no role (layout.ts RowReader, logfmtMessage), and its level and trace where the row has none.
  const lcell = layout.kind === 'jsonl' && layout.messageField === '' && layout.message >= 0 && layout.cell?.kind === 'logfmt' ? layout.cell : undefined;
  const rec = cell ?? lcell;
  const inCell = (i: number): string => `${col(layout.message)}.${rec?.columns[i] as string}`;
  const cellEntity = layout.entity < 0 && layout.fileEntity === undefined && rec !== undefined && rec.entity >= 0;
  const cellTrace = layout.trace < 0 && rec !== undefined && rec.trace >= 0;
  const cellLevel = layout.level < 0 && rec !== undefined && rec.level >= 0;
  /** A role's field of the cell's record (captured as `group`, or matched by `value`): a JSON key, or a logfmt key in the row's string. */
  const cellRole = (c: number, group: string, value?: string): string => (lcell !== undefined
    ? `[\\s"]${escape(lcell.columns[c] as string)}=(?:\\\\")?${value ?? `(?<${group}>[^\\s"\\\\]*)`}`
    : recordPattern(cell?.columns[c] as string, inner, group, value));
  // A CSV/TSV whose cells are quoted (Kibana's reports quote every one: `"Dec 7, 2026 @ 10:00:00.834","payment-…"`),
  // its message in a column of its own: each cell read to its closing quote (RFC 4180), not to the next delimiter.
  const sep = layout.kind === 'csv' ? ',' : '\t';
  const quoted = (layout.kind === 'csv' || layout.kind === 'tsv') && layout.message >= 0 && layout.messageField === '' && layout.cell === undefined &&
    model.templates.some((t) => t.example.startsWith('"') || t.example.includes(`${sep}"`));
  out.push(`# a ${kind} table: time ${col(layout.time)}` +
    `${layout.entity >= 0 ? `, entity ${col(layout.entity)}` : cellEntity ? `, entity ${inCell(rec.entity)}` : ''}` +
    `${layout.trace >= 0 ? `, instances ${col(layout.trace)}` : cellTrace ? `, instances ${inCell(rec.trace)}` : ''}` +
    `${cell !== undefined ? `, messages from the record in ${col(layout.message)} (its ${layout.messageField})` : ''}` +
    `${lcell !== undefined ? `, messages from the logfmt line in ${col(layout.message)}` : ''}`);
  out.push(`timestamp: { format: ${q(layout.timeFormat)}, pattern: ${q(cellPattern(layout, layout.time, 'ts', undefined, quoted))} }`);
  if (model.instance !== null && layout.trace >= 0) out.push(`instance: { pattern: ${q(cellPattern(layout, layout.trace, 'id', undefined, quoted))} }`);
  else if (model.instance?.kind === 'column' && cellTrace) out.push(`instance: { pattern: ${q(cellRole(rec.trace, 'id'))} }`);
  // (A request id in the line's text, as a text log's: index.ts IdFieldCounter.)
  else if (model.instance?.kind === 'pattern') out.push(`instance: { pattern: ${q(model.instance.pattern)} }`);
  // The statement fields that may follow a message, of any file's layout (files differ in theirs: a gateway's and a
  // payment's statements).
  const pairKeys = new Set(Object.values(model.files).flatMap((f) => {
    const l = cell !== undefined ? f.table?.cell : f.table;
    return (l?.pairs ?? []).map((c) => l?.columns[c] as string);
  }));
  // A text header of the message's own in a JSON Lines field (CloudWatch's `INFO …`, logback's line in Docker's
  // `log`), read as the miner reads it (split.ts): a leading time, then the header learned, then the message.
  const headed = textHeader !== undefined && layout.kind === 'jsonl' && layout.message >= 0 && cell === undefined && layout.messageField === '' &&
    layout.messageAlt.length === 0 && layout.fileEntity === undefined && pairKeys.size === 0 ? textHeader : undefined;
  const headerEntity = headed !== undefined && layout.entity < 0 && headed.entity >= 0;
  const prefix = layout.entity < 0 && !cellEntity && !headerEntity ? '' : '${entity}:';
  // (The header matches nothing but reads the entity: every rule reads the whole line, anywhere unless anchored.)
  if (headed !== undefined) out.push(`header: ${q(fieldHeader(layout, headed))}`);
  else if (layout.entity >= 0) out.push(`header: ${q(entityLookahead(layout, quoted))}`);
  else if (cellEntity) {
    out.push(`header: ${q(lcell !== undefined ? `^(?=.*${cellRole(rec.entity, '', `(?<entity>[^\\s"\\\\]*?)${suffixOf(rec)}(?=[\\s"\\\\])`)})`
      : `^(?=.*${jsonKey(rec.columns[rec.entity] as string, inner)}${inner.quote}(?<entity>${inner.chars}*?)${suffixOf(rec)}${inner.quote})`)}`);
  }
  // (The location as codeLocation reads it, layout.ts: brackets and a trailing `:` left out.)
  const located = layout.statement === undefined ? ''
    : `^(?=[\\s\\S]*?${cellPattern(layout, layout.statement, '', '[[(]?(?<loc>[^\\s",}\\[\\]()]+?)[\\])]?:?(?=[",}\\s]|$)')})`;
  out.push('rules:');
  if (layout.kind === 'csv' || layout.kind === 'tsv') out.push(`  - { match: ${q(`^${layout.columns.map((c) => (quoted ? `"?${escape(c)}"?` : escape(c))).join(layout.kind === 'csv' ? ',' : '\t')}$`)}, ignore: true }   # the header`);
  if (headed !== undefined && layout.level < 0 && headed.slots.includes('level')) {
    // (The level read by the header's group, as a text log's rules file reads it: rules.ts.)
    for (const [words, letters, name] of [['WARN|WARNING', 'W', 'WARN'], ['ERROR|ERR|FATAL|CRITICAL|CRIT|SEVERE|ALERT|EMERG', 'EFA', 'ERROR']] as const) {
      out.push(`  - { in: level, match: ${q(`^(?:${levelAlternatives(words, letters)})$`)}, event: ${q(`${prefix}${name}`)}, continue: true }`);
    }
  } else if (layout.level >= 0 || cellLevel || model.templates.some((t) => t.statement === true)) {
    // (The level read from its column, or from the message's head as the miner reads it.)
    // (A syslog severity number is its word: layout.ts levelWord; 4 a warning, 0–3 errors.)
    // (pino's and bunyan's numbers where the layout reads them: layout.ts columnLevel; 40 a warning, 50 and 60 errors.)
    const numbers = (cellLevel ? rec : layout).numericLevels === true ? ['40', '[56]0'] : ['4', '[0-3]'];
    for (const [words, name, number] of [['WARN|WARNING', 'WARN', numbers[0]], ['ERROR|ERR|FATAL|CRITICAL|CRIT|SEVERE|ALERT|EMERG', 'ERROR', numbers[1]]] as const) {
      const re = layout.level >= 0 ? cellPattern(layout, layout.level, '', `(?:${anyCase(words)}|${number})(?=[",}\\s]|$)`, quoted)
        : cellLevel ? cellRole(rec.level, '', `(?:${anyCase(words)}|${number})(?=[\\\\",}\\s]|$)`)
          : `\\d\\d:\\d\\d:\\d\\d[.,]\\d+\\s+\\[?(?:${words})\\]?\\s`;
      out.push(`  - { match: ${q(re)}, event: ${q(`${prefix}${name}`)}, continue: true }`);
    }
  }
  const ordered = [...model.templates].sort((a, b) => wildcards(a) - wildcards(b) || a.id - b.id);
  for (const t of ordered) {
    // (A message with a text header of its own, or inside a record in a cell, is read by the miner in ways a rule
    // over the whole row does not repeat: left out.)
    const nested = layout.fileEntity !== undefined ? 'the entity is the file\'s name, which a rules file does not read'
      : (textHeader !== undefined && headed === undefined) || (layout.cell !== undefined && rec === undefined) || (layout.messageField !== '' && cell === undefined) ||
        (layout.messageAlt.length > 0 && (layout.kind !== 'jsonl' || cell !== undefined)) ? 'a header or record inside the message cell' : '';
    const matches = t.statement === true ? [`(?:^|[\\s"\\[(])${escape(t.tokens[0] as string)}[\\])]?:?(?:\\s|\\\\n|"|$)`]
      : nested !== '' ? null : headed !== undefined ? nullable(headedRegex(t))
        : cell !== undefined ? nullable(recordRegex(t, layout.messageField, inner, pairKeys))
          : lcell !== undefined ? nullable(logfmtRegex(t, lcell, model, IN_JSON_STRING(layout.columns[layout.message] as string), jsonRow(t.example, layout.columns)?.[layout.message]))
          : layout.kind === 'logfmt' ? nullable(logfmtRegex(t, layout, model))
            : layout.messageAlt.length > 0 ? messageColumnsRegexes(t, layout, pairKeys) : nullable(quoted ? quotedRegex(t, layout) : messageRegex(t, layout, pairKeys));
    if (matches === null) {
      out.push(`  # left out: ${clip(t.name)} (${nested !== '' ? nested : layout.kind === 'logfmt' ? 'its lines differ in their message key\'s words' : fieldPairs(t, pairKeys) > 0 ? 'fields of the record after its message' : 'inside a quoted or JSON cell'}: write its rule by hand)`);
      continue;
    }
    for (const match of matches) {
      // A line naming its location: the template's rules with the location in the names, before those without.
      if (located !== '' && t.statement !== true) out.push(...templateRules(t, `${located}${match.startsWith('^') ? '' : '[\\s\\S]*?'}${match}`, `${prefix}\${loc} `));
      out.push(...templateRules(t, match, prefix));
    }
  }
  return `${out.join('\n')}\n`;
}

const nullable = (match: string | null): string[] | null => (match === null ? null : [match]);

/**
 * The `header:` of a JSON Lines row whose message field opens with a text header of its own: the row's entity (a
 * lookahead), then up to the field's value, its leading time (layout.ts readHead) and the header's items (header.ts
 * headerItems: its level and entity as groups, the row's entity first where it has one), up to the message.
 */
function fieldHeader(layout: TableLayout, text: TextHeader): string {
  let items = headerItems(text, false, `(?<level>${levelAlternatives(LEVEL_WORDS_RE, 'VDIWEFA')})`);
  if (layout.entity >= 0) items = items.map((x) => x.replace('(?<entity>', '(?:'));
  const time = LEADING_TIME.source.slice(1);
  return `${layout.entity >= 0 ? entityLookahead(layout) : '^'}[\\s\\S]*?${jsonKey(layout.columns[layout.message] as string, IN_ROW)}"\\s*(?:${time})?${items.join('\\s+')}\\s+(?=\\S)`;
}

/** The message after a field's text header (fieldHeader): its tokens up to the field's closing quote (a `\n` of the line's end escaped). */
function headedRegex(t: MinedTemplate): string | null {
  if (t.tokens.some((tok) => /["\\]/.test(tok))) return null;
  return `^${t.tokens.map((tok, i) => tokenRegex(tok, t.states[i] !== '', i)).join('\\s+')}(?:\\s|\\\\[nrt])*"`;
}

/**
 * A message in the first of its fields that holds one (layout.ts RowReader, messageAlt: Cloud Logging's
 * `textPayload` or `jsonPayload.message`): a rule per field, each with the fields before it absent or empty.
 */
function messageColumnsRegexes(t: MinedTemplate, layout: TableLayout, pairKeys: ReadonlySet<string>): string[] | null {
  const columns = [layout.message, ...layout.messageAlt].map((c) => layout.columns[c] as string);
  const out: string[] = [];
  for (let j = 0; j < columns.length; j++) {
    const re = recordRegex(t, columns[j] as string, IN_ROW, pairKeys);
    if (re === null) return null;
    const before = columns.slice(0, j).map((c) => `(?![\\s\\S]*?${jsonKey(c, IN_ROW)}(?!""|null))`).join('');
    out.push(before === '' ? re : re.startsWith('^') ? `^${before}${re.slice(1)}` : `^${before}[\\s\\S]*?${re}`);
  }
  return out;
}

/**
 * The rules of a template matched by `match`, its names behind `prefix`: one rule giving its event and its first
 * state (a rule may give both), and one more per further state.
 */
export function templateRules(t: MinedTemplate, match: string, prefix: string): string[] {
  const states = t.states.map((name, i) => ({ name, i })).filter((s) => s.name !== '');
  if (states.length === 0) return [`  - { match: ${q(match)}, event: ${q(`${prefix}${t.name}`)} }`];
  return states.flatMap((s, k) => [
    `  - match: ${q(match)}`,
    ...(k === 0 ? [`    event: ${q(`${prefix}${t.name}`)}`] : []),
    `    state: ${q(`${prefix}${s.name}`)}`,
    `    value: p${s.i}`,
    ...(k < states.length - 1 ? ['    continue: true'] : []),
  ]);
}

/**
 * A regex capturing column `c` of a row as group `group` (CSV/TSV: by position, unquoted, or each cell `quoted` or
 * not; JSON Lines: by key), or with `value` (a regex) matching it there instead.
 */
function cellPattern(layout: TableLayout, c: number, group: string, value?: string, quoted = false): string {
  if (layout.kind === 'jsonl') return recordPattern(layout.columns[c] as string, IN_ROW, group, value);
  if (layout.kind === 'cri') return `^(?:\\S+ ){${c}}${value ?? `(?<${group}>\\S+)`}`;
  // (logfmt: a quoted value runs to its quote, a bare one to a blank.)
  if (layout.kind === 'logfmt') return `(?:^|\\s)${escape(layout.columns[c] as string)}="?${value ?? `(?<${group}>(?<=")[^"]*|[^\\s"]*)`}`;
  const d = layout.kind === 'csv' ? ',' : '\\t';
  // (Quoted: a cell up to its closing quote, `""` inside it; the group the text inside the quotes.)
  if (quoted) return `^(?:${quotedCell(d)}${d}){${c}}"?${value ?? `(?<${group}>(?<=")(?:[^"]|"")*(?=")|(?<!")[^${d}"]*)`}`;
  return `^(?:[^${d}]*${d}){${c}}${value ?? `(?<${group}>[^${d}]*)`}`;
}

/** A CSV/TSV cell, quoted (RFC 4180: `""` a quote inside) or not. */
const quotedCell = (d: string): string => `(?:"(?:[^"]|"")*"|[^${d}"]*)`;

/**
 * The regex of a mined template's message in a quoted CSV/TSV cell of its own (layout.ts splitDelimited): its
 * tokens inside the cell's quotes; null where the message holds a quote (doubled in the line).
 */
function quotedRegex(t: MinedTemplate, layout: TableLayout): string | null {
  if (t.tokens.some((tok) => tok.includes('"'))) return null;
  const d = layout.kind === 'csv' ? ',' : '\\t';
  const tokens = t.tokens.map((tok, i) => tokenRegex(tok, t.states[i] !== '', i));
  return `^(?:${quotedCell(d)}${d}){${layout.message}}"?\\s*${tokens.join('\\s+')}\\s*"?(?:${d}|$)`;
}

/** A field of a JSON record by its key (as `escaping` writes it), captured as group `group`, or matched by `value`. */
function recordPattern(column: string, escaping: Escaping, group: string, value?: string): string {
  return `${jsonKey(column, escaping)}${optional(escaping.quote)}${value ?? `(?<${group}>${escaping.chars}*)`}`;
}

/** A replica suffix as serviceOf leaves it out (layout.ts): a pod column's StatefulSet ordinal too. */
const suffixOf = (layout: TableLayout): string =>
  namesPods(layout) ? '(?:-[a-z0-9]{6,10}-[a-z0-9]{5}|-\\d+|\\/[0-9a-f]{8,})?' : '(?:-[a-z0-9]{6,10}-[a-z0-9]{5}|\\/[0-9a-f]{8,})?';

/** A lookahead capturing the entity, its replica suffix left out as serviceOf leaves it out (layout.ts). */
function entityLookahead(layout: TableLayout, quoted = false): string {
  const suffix = suffixOf(layout);
  if (layout.kind === 'jsonl') return `^(?=.*${jsonKey(layout.columns[layout.entity] as string, IN_ROW)}"(?<entity>[^"]*?)${suffix}")`;
  // (logfmt: a quoted value, `component="scrape manager"`, runs to its quote, a bare one to a blank.)
  if (layout.kind === 'logfmt') return `^(?=(?:.*\\s)?${escape(layout.columns[layout.entity] as string)}="?(?<entity>(?<=")[^"]*?(?=${suffix}")|(?<==)[^\\s"]*?(?=${suffix}(?:\\s|$))))`;
  const d = layout.kind === 'csv' ? ',' : '\\t';
  if (quoted) return `^(?=(?:${quotedCell(d)}${d}){${layout.entity}}"?(?<entity>[^${d}"]*?)${suffix}"?(?:${d}|$))`;
  return `^(?=(?:[^${d}]*${d}){${layout.entity}}(?<entity>[^${d}]*?)${suffix}(?:${d}|$))`;
}

/**
 * The regex of a mined template's message: JSON Lines, inside its field (tokens without quotes or backslashes);
 * a plain table, over the message's columns (a column without a value gives no token); null where the message
 * sits in a quoted or JSON cell.
 */
function messageRegex(t: MinedTemplate, layout: TableLayout, pairKeys: ReadonlySet<string>): string | null {
  const tokens = t.tokens.map((tok, i) => tokenRegex(tok, t.states[i] !== '', i));
  if (layout.kind === 'jsonl') return layout.message < 0 ? null : recordRegex(t, layout.columns[layout.message] as string, IN_ROW, pairKeys);
  if (layout.kind === 'cri') return `^\\S+ \\S+ \\S+ \\s*${tokens.join('\\s+')}\\s*$`;
  if (layout.message >= 0 || t.example.includes('"')) return null;
  // The message's columns, in order: each as many tokens as its value in the template's first line has.
  const d = layout.kind === 'csv' ? ',' : '\t';
  const cells = t.example.split(d);
  const parts: string[] = [];
  let k = 0;
  for (let c = 0; c < layout.columns.length; c++) {
    if (!layout.rest.includes(c)) {
      parts.push(`[^${d === '\t' ? '\\t' : d}]*`);
      continue;
    }
    const n = (cells[c] ?? '').split(/\s+/).filter((x) => x !== '').length;
    parts.push(`\\s*${tokens.slice(k, k + n).join('\\s+')}\\s*`);
    k += n;
  }
  if (k !== tokens.length) return null;
  return `^${parts.join(d === '\t' ? '\\t' : d)}$`;
}

/**
 * The regex of a JSON record of a mined template (the row's, or the one in its message cell: `escaping`): its
 * message field `key` holding the template's words, then the record's statement fields after it (fields.ts
 * jsonMessage): each read by its key wherever it stands (a lookahead), the fields the template has not absent
 * (`pairKeys`: the sampled ones). Null where the message holds a quote or a backslash (its escaping is the line's).
 */
function recordRegex(t: MinedTemplate, key: string, escaping: Escaping, pairKeys: ReadonlySet<string>): string | null {
  const tokens = t.tokens.map((tok, i) => tokenRegex(tok, t.states[i] !== '', i));
  const n = fieldPairs(t, pairKeys);
  if (t.tokens.slice(0, t.tokens.length - n).some((tok) => /["\\]/.test(tok))) return null;
  const Q = escaping.quote;
  const message = `${jsonKey(key, escaping)}${Q}\\s*${tokens.slice(0, tokens.length - n).join('\\s+')}\\s*${Q}`;
  if (n === 0) return message;
  if (n === tokens.length) return null;
  const first = t.tokens.length - n;
  const keys = t.tokens.slice(first).map((tok) => tok.slice(0, tok.indexOf('=')));
  const fields = t.tokens.slice(first).map((tok, j) => {
    const i = first + j;
    const text = tok.slice(tok.indexOf('=') + 1);
    // (A string jsonMessage quoted is the line's JSON string as written: its parameters run to its closing quote.)
    const quoted = text.startsWith('"');
    const value = text.split(WILDCARD).map((p) => escape(escaping.text(p))).join(t.states[i] !== '' ? numberRegex(i) : quoted ? escaping.inString : '[^\\s,"]+?');
    return `(?=[\\s\\S]*?[{,]\\s*${jsonKey(keys[j] as string, escaping)}${quoted ? value : `${optional(Q)}${value}${optional(Q)}`}\\s*[,}])`;
  });
  const absent = [...pairKeys].filter((k) => !keys.includes(k)).map((k) => `(?![\\s\\S]*?[{,]\\s*${jsonKey(k, escaping)})`);
  return `^${fields.join('')}${absent.join('')}[\\s\\S]*?${message}`;
}

/**
 * The regex of a logfmt line of a mined template: the message key's value as the template's first tokens (as many
 * as its value in the template's first line has; a lookahead, wherever the pair stands), then the template's other
 * tokens, each one pair (`key=value`, a quoted value whole: mask.ts tokenize), in order, with only pairs of keys
 * with a role (time, level, entity, ids) between them, as logfmtMessage (fields.ts) leaves those out.
 * Null when the template's tokens are not its first line's value and pairs.
 */
function logfmtRegex(t: MinedTemplate, layout: TableLayout, model: TemplateModel, text = LOGFMT_LINE, example: string | undefined = t.example): string | null {
  const pairs = example === undefined ? null : logfmtPairs(example);
  if (pairs === null) return null;
  const roles = logfmtRoleKeys(layout);
  const key = layout.message >= 0 ? layout.columns[layout.message] as string : '';
  const value = pairs.find((p) => p.key === key)?.value.trim() ?? '';
  const m = value === '' ? 0 : tokenize(value, false).length;
  if (m + pairs.filter((p) => !roles.has(p.key)).length !== t.tokens.length) return null;
  // The value's words as the line writes them (quoted: `\"`, `\\`, `\n` escaped, as slog and logrus escape).
  const words = t.tokens.slice(0, m).map((tok, i) => tok.split(WILDCARD).map((p) => escape(text.text(lineEscape(p))))
    .reduce((re, piece) => re + (t.states[i] !== '' ? numberRegex(i) : `${text.inQuotes}${tok === WILDCARD ? '+' : '*'}?`) + piece));
  const k = escape(key);
  const Q = text.quote;
  const lookahead = key === '' ? '' : m === 0 ? `(?!(?:${text.char}*\\s)?${k}=(?:${Q}\\s*)?${text.bare})`
    : `(?=(?:${text.char}*\\s)?${k}=${optional(Q)}\\s*${words.join(' +')}\\s*${optional(Q)}(?:\\s|${text.end}))`;
  // (Inside a row's string, a pair's quote is escaped: its tokens are read only where they hold none.)
  if (text !== LOGFMT_LINE && (model.quoted === true || t.tokens.slice(m).some((tok) => /["\\]/.test(tok)))) return null;
  const others = t.tokens.slice(m).map((tok, j) => {
    const i = m + j;
    const pieces = tok.split(WILDCARD).map((p) => escape(text.text(p)));
    const any = t.states[i] !== '' ? [] : model.quoted === true ? parameterRegexes(tok) : plainParameters(tok);
    return pieces.reduce((re, piece, n) => re + (t.states[i] !== '' ? numberRegex(i) : any[n - 1]) + piece);
  });
  const skip = `(?:${[...roles].map(escape).join('|')})=(?:${text.quoted}|${text.bare}*)`;
  const body = others.length === 0 ? `${skip}(?:\\s+${skip})*`
    : `(?:${skip}\\s+)*${others.join(`\\s+(?:${skip}\\s+)*`)}(?:\\s+${skip})*`;
  return `${text.start}${lookahead}\\s*${body}\\s*${text.end}`;
}

/**
 * How a logfmt line stands in the line read: a line of its own, or the string of a JSON Lines row's field (Loki's
 * `line`), its quotes and backslashes escaped (`msg=\"charge ok\"`). Each a regex: `start` and `end` of the
 * logfmt line, a `quote`, any `char` of it, a `quoted` value, a `bare` value's character, a character `inQuotes`;
 * `text` writes a piece of the logfmt line as the line holds it.
 */
interface LogfmtText {
  readonly start: string;
  readonly end: string;
  readonly quote: string;
  readonly char: string;
  readonly quoted: string;
  readonly bare: string;
  readonly inQuotes: string;
  readonly text: (s: string) => string;
}
const LOGFMT_LINE: LogfmtText = { start: '^', end: '$', quote: '"', char: '.', quoted: QUOTED, bare: '[^\\s"]', inQuotes: '(?:[^\\s"\\\\]|\\\\.)', text: (x) => x };
/** (A logfmt `"` is `\"` in the row's string, a logfmt `\` is `\\`.) */
const IN_JSON_STRING = (column: string): LogfmtText => ({
  start: `${jsonKey(column, IN_ROW)}"`, end: '"', quote: '\\\\"', char: '(?:[^"\\\\]|\\\\.)',
  quoted: '\\\\"(?:[^"\\\\]|\\\\\\\\(?:[^"\\\\]|\\\\\\\\|\\\\"))*?\\\\"', bare: '[^\\s"\\\\]',
  inQuotes: '(?:[^\\s"\\\\]|\\\\\\\\(?:[^"\\\\]|\\\\\\\\|\\\\"))', text: (x) => jsonEscape(x),
});

/** A value's text as a logfmt line quotes it. */
const lineEscape = (text: string): string => text.replace(/[\\"]/g, '\\$&').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');

function tokenRegex(token: string, numeric: boolean, i: number): string {
  const pieces = token.split(WILDCARD).map(escape);
  return pieces.join(numeric ? numberRegex(i) : '[^\\s,"]+?');
}

/** How many of a JSON Lines template's last tokens are sampled fields' `key=value` (fields.ts jsonMessage, TableLayout.pairs). */
function fieldPairs(t: MinedTemplate, keys: ReadonlySet<string>): number {
  let n = 0;
  while (n < t.tokens.length && keys.has(/^([^=\s]+)=/.exec(t.tokens[t.tokens.length - 1 - n] as string)?.[1] ?? '')) n++;
  return n;
}

function wildcards(t: MinedTemplate): number {
  return t.tokens.reduce((n, tok) => n + (tok.includes(WILDCARD) ? 1 : 0), 0);
}

/** `WARN|ERR` in upper, lower and capitalized case (the miner reads a level column in any case). */
const anyCase = (words: string): string =>
  words.split('|').flatMap((w) => [w, w.toLowerCase(), w.charAt(0) + w.slice(1).toLowerCase()]).join('|');
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const jsonEscape = (text: string): string => JSON.stringify(text).slice(1, -1);
/**
 * How a JSON record's text stands in the line: a row's own (JSON Lines; a CRI line's), or a record inside a JSON
 * Lines row's string (Docker's `log`), where its quotes and backslashes are escaped once more (`\"msg\":`).
 * `quote`: a quote, as a regex; `chars`: a character of a string's value up to its closing quote; `inString`: a
 * parameter of a quoted value; `text`: the record's text as the line writes it.
 */
interface Escaping {
  readonly quote: string;
  readonly chars: string;
  readonly inString: string;
  readonly text: (s: string) => string;
}
/** A quote that may stand there (a JSON value a string or not). */
const optional = (quote: string): string => (quote.length === 1 ? `${quote}?` : `(?:${quote})?`);
const IN_ROW: Escaping = { quote: '"', chars: '[^",}]', inString: '(?:[^"\\\\]|\\\\.)*?', text: (x) => x };
const IN_STRING: Escaping = { quote: '\\\\"', chars: '[^"\\\\,}]', inString: '[^"]*?', text: (x) => jsonEscape(x) };

/**
 * A JSON key and its colon: a dotted column of a nested object (fields.ts flatObject: `kubernetes.pod.name`) as
 * its keys in order, each opening an object that holds the next (`"kubernetes":{…"pod":{…"name":`).
 */
const jsonKey = (column: string, escaping: Escaping): string =>
  column.split('.').map((k) => `${escaping.quote}${escape(escaping.text(jsonEscape(k)))}${escaping.quote}:\\s*`).join('\\{[\\s\\S]*?');
const q = (text: string): string => `'${text.replace(/'/g, "''")}'`;
const clip = (text: string): string => text.replace(/[\r\n]/g, ' ').slice(0, 70);
