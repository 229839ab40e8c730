import { NAMED_TIME_FORMATS } from '../translators/time-formats.js';
import type { MinedTemplate, TemplateModel } from './model.js';
import type { FileLayout } from './types.js';
import { WILDCARD } from './mask.js';
import { numberRegex, parameterRegexes, plainParameters, QUOTED } from './token-regex.js';
import { isRequestLine, QUOTED_FIELD } from './request-line.js';
import { headerItems, LEVEL_WORDS_RE, levelAlternatives, readsLevel } from './header.js';
import { tableRulesYaml, templateRules } from './table-rules.js';
import { podPrefixed } from './describe.js';
import { OTLP_FLATTEN } from '../otlp.js';

/**
 * Why no rules file reads OTLP/JSON logs: a rules file reads a line as one record, and a LogsData line holds many
 * (otlp.ts). `templates -o` writes it as a comment, leaves every template out, and prints it.
 */
export const OTLP_RULES_NOTE = 'note: a rules file reads one record a line, and an OTLP/JSON line holds many log records: no rule can read them; flatten the files to JSON Lines first and write the rules from those';

/**
 * A starter rules file (the rules translator's YAML, examples/README.md) that
 * reproduces mined templates: one event rule per template, named like the
 * event the miner gives it, and one state rule per numeric parameter. Rules
 * are ordered most specific first (fewest parameters), as the miner picks the
 * most specific template that matches, and each regex is anchored at both
 * ends of the line. A text log's timestamp and header are read once per line
 * by the file's `header:` regex (its groups `entity` and `level` name the
 * events), and each rule is the template's message alone: one short regex a
 * person can read and edit. Where fields of the message stand before the
 * timestamp (no learned header holds them), each rule is the whole line.
 *
 * Left out, with a comment: templates of lines that had no timestamp of their
 * own (stack traces: a rules file cannot time them) and names holding `${`.
 */
export function rulesYaml(model: TemplateModel): string {
  const layout = commonLayout(model);
  const out: string[] = [];
  out.push('# Starter rules file written by `distalyze templates` from the templates mined');
  out.push('# from your logs: rename the events, drop the rules you do not need, and use it');
  out.push('# with --translator. The first matching rule wins (continue: true goes on).');
  if (layout.table?.otlp === true) {
    out.push(`# ${OTLP_RULES_NOTE}, e.g. ${OTLP_FLATTEN}`, 'rules:');
    return `${[...out, ...model.templates.map((t) => `  # left out: ${clipComment(t.name)} (an OTLP/JSON log record)`)].join('\n')}\n`;
  }
  // (A rule reads one record a line: the miner joins a CRI line the runtime cut, cri-partial.ts.)
  if (layout.table?.kind === 'cri') out.push('# note: a line the runtime cut (CRI records tagged P, then F) is read joined by the miner, each part alone by a rule');
  if (layout.table !== undefined) return tableRulesYaml(model, layout.table, out, layout.textHeader);
  const { format, prefix } = timestampOf(layout);
  if (prefix === null) out.push(`timestamp: ${q(format)}`);
  else out.push(`timestamp: { format: ${q(format)}, pattern: ${q(prefix.pattern)} }`);
  const distinct = new Set(Object.values(model.files).map((f) => JSON.stringify(f)));
  if (distinct.size > 1) out.push('# note: files differ in where their timestamps are; this file follows the most common layout');
  const instance = model.instance;
  if (instance !== null) {
    const pattern = instance.kind === 'pattern' ? instance.pattern
      : instance.kind === 'column' ? `^(?:[^,]*,){${instance.column}}(?<id>[^,]+)`
        // (The host: kubectl's `[pod/<pod>/<container>]` prefix, split.ts, else syslog's after its time.)
        : podPrefixed(model) ? '^\\s*\\[pod/(?<id>[^/\\s\\]]+)/' : '^\\w{3} +\\d+ \\d\\d:\\d\\d:\\d\\d (?<id>\\S+) ';
    out.push(`instance: { pattern: ${q(pattern)} }`);
  }
  const text = layout.textHeader;
  // A learned text header (header.ts): its entity names the events.
  const named = text !== undefined && text.entity >= 0 ? '${entity}:' : '';
  const time = prefix?.time ?? '';
  const pipes = layout.pipes !== undefined;
  const items = text === undefined ? [] : headerItems(text, pipes, `(?<level>${levelAlternatives(LEVEL_WORDS_RE, 'VDIWEFA')})`);
  // The timestamp and header, once, up to the message: unless fields of the message stand before the timestamp.
  // (A pattern given by --header-pattern may end with its blanks: the miner skips any, header.ts readPatternHeader.)
  const gap = text?.pattern !== undefined ? '\\s*' : items.length > layout.field ? joiner(layout) : pipes ? '[\\s|]*' : '\\s+';
  const header = !layout.comma && items.length >= layout.field ? `${lineRegex(layout, time, items, '')}${gap}(?=\\S)` : null;
  if (header !== null) out.push(`header: ${q(header)}`);
  out.push('rules:');
  if (layout.header) out.push("  - { match: '^[^0-9]*$', ignore: true }        # the CSV header");
  if (text !== undefined && readsLevel(text)) {
    // A WARN or ERROR line also gives `entity:WARN` / `entity:ERROR`, as the miner's translator does.
    for (const [words, letters, name] of [['WARN|WARNING', 'W', 'WARN'], ['ERROR|ERR|FATAL|CRITICAL|CRIT|SEVERE|ALERT|EMERG', 'EFA', 'ERROR']] as const) {
      if (header !== null) {
        // (A pattern's group may hold the level's brackets or colon, as header.ts levelOf reads it.)
        const level = text.pattern !== undefined ? `^\\[?(?:${levelAlternatives(words, letters)})\\]?:?$` : `^(?:${levelAlternatives(words, letters)})$`;
        out.push(`  - { in: level, match: ${q(level)}, event: ${q(`${named}${name}`)}, continue: true }`);
        continue;
      }
      const match = lineRegex(layout, time, [...headerItems(text, pipes, levelAlternatives(words, letters)), '\\S'], '');
      out.push(`  - { match: ${q(match)}, event: ${q(`${named}${name}`)}, continue: true }`);
    }
  }
  const ordered = [...model.templates].sort((a, b) => wildcards(a) - wildcards(b) || a.id - b.id);
  for (const t of ordered) {
    if (!t.timed) {
      out.push(`  # left out: ${clipComment(t.name)} (lines without a timestamp of their own)`);
      continue;
    }
    if (t.name.includes('${')) {
      out.push(`  # left out: ${clipComment(t.name)} (the name holds \${)`);
      continue;
    }
    const match = templateRegex(t, model, layout, time, header !== null);
    out.push(...templateRules(t, match, named));
  }
  return `${out.join('\n')}\n`;
}

function wildcards(t: MinedTemplate): number {
  return t.tokens.reduce((n, tok) => n + (tok.includes(WILDCARD) ? 1 : 0), 0);
}

/** The layout most files share (ties: the first file's). */
function commonLayout(model: TemplateModel): FileLayout {
  const counts = new Map<string, { layout: FileLayout; n: number }>();
  for (const f of Object.values(model.files)) {
    const key = JSON.stringify(f);
    const c = counts.get(key);
    if (c === undefined) counts.set(key, { layout: f, n: 1 });
    else c.n++;
  }
  let best: { layout: FileLayout; n: number } | undefined;
  for (const c of counts.values()) if (best === undefined || c.n > best.n) best = c;
  return (best as { layout: FileLayout }).layout;
}

/** Fields a timestamp of this format spans (split on spaces). */
function timestampFields(format: string): number {
  if (format === 'iso8601') return 2;
  const spec = format === 'log4j' ? 'yyyy-MM-dd HH:mm:ss,SSS' : format === 'syslog' ? 'MMM d HH:mm:ss' : format;
  return NAMED_TIME_FORMATS[format] !== undefined && format.startsWith('epoch') ? 1 : spec.split(' ').length;
}

/**
 * The timestamp for the rules file: a format, and unless the timestamp opens
 * the line, a pattern capturing it (`ts`). `time` is the regex of the
 * timestamp (and syslog host, leading ids) inside a line.
 */
function timestampOf(layout: FileLayout): { format: string; prefix: { pattern: string; time: string } | null } {
  const n = timestampFields(layout.format);
  if (layout.comma) {
    const before = `^(?:[^,]*,){${layout.field}}`;
    return { format: layout.format, prefix: { pattern: `${before}(?<ts>[^,]+)`, time: '' } };
  }
  // (A header joined by `|` ends the timestamp at its first bar.)
  const word = layout.pipes !== undefined ? '[^\\s|]+' : '\\S+';
  // (ISO-8601 spelled out: the time ends where the format's reading does, before a `,` as Windows CBS writes.)
  const iso = '\\d{4}-\\d\\d-\\d\\d(?:[T ]\\d\\d:\\d\\d(?::\\d\\d(?:[.,]\\d+)?)?(?:Z|[+-]\\d\\d:?\\d\\d)?)?';
  const ts = layout.format === 'iso8601' ? iso : `${word}${n > 1 ? `(?:\\s+${word}){${n - 1}}` : ''}`;
  const before = layout.field > 0 ? `(?:\\S+\\s+){${layout.field}}` : '';
  // A rule's part for the timestamp (maybe in brackets) and the syslog host, which stand between the message's
  // fields (lineRegex). (A header's leading id fields, header.ts: up to `ids` integers after the timestamp, left
  // out of the message.)
  const ids = layout.ids !== undefined ? `(?:\\s+\\d+){0,${layout.ids}}` : '';
  const time = `\\[?${ts}\\]?${layout.host ? '\\s+\\S+' : ''}${ids}`;
  // The captured time stops before a closing bracket (`[Tue Mar 03 08:00:01 2026]`, `[10.30 16:49:06]`).
  const bracket = layout.pipes !== undefined ? '[^\\s\\]|]+' : '[^\\s\\]]+';
  const captured = layout.format === 'iso8601' ? iso : n > 1 ? `${word}(?:\\s+${word}){${n - 2}}\\s+${bracket}` : bracket;
  return { format: layout.format, prefix: { pattern: `^\\s*${before}\\[?(?<ts>${captured})`, time } };
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

/**
 * A whole line's regex from its message's fields (`items`: the header's, then the template's): the fields that
 * stood before the timestamp (the file's timestamp field: BGL's label, epoch, date and node; glog's level), the
 * timestamp, then the others, and `end`.
 */
function lineRegex(layout: FileLayout, time: string, items: readonly string[], end: string): string {
  const pipes = layout.pipes !== undefined;
  const k = Math.min(layout.field, items.length);
  const before = items.slice(0, k).map((x) => `${x}\\s+`).join('');
  const after = items.slice(k);
  return `^\\s*${before}${time}${after.length > 0 ? `${pipes ? '[\\s|]*' : '\\s+'}${after.join(joiner(layout))}` : ''}${end}`;
}

/** Between two fields after the timestamp: blanks (and the bars of a `|`-joined header, header.ts). */
function joiner(layout: FileLayout): string {
  return layout.pipes !== undefined ? '[\\s|]+' : '\\s+';
}

/** A template's regex: of the whole line, or with `messageOnly` of its message (what the file's header: leaves). */
function templateRegex(t: MinedTemplate, model: TemplateModel, layout: FileLayout, time: string, messageOnly: boolean): string {
  // (An access log's quoted field, request-line.ts: a quoted value whole, spaces included, as mask.ts tokenize reads it.)
  const access = !layout.comma && isRequestLine(t.tokens);
  const parts = t.tokens.map((tok, i) => {
    if (access && i >= 3 && tok === QUOTED_FIELD) return QUOTED;
    const numeric = t.states[i] !== '';
    const pieces = tok.split(WILDCARD).map((p) => p.replace(REGEX_SPECIAL, '\\$&'));
    const value = numberRegex(i);
    const any = layout.comma || numeric ? [] : model.quoted === true ? parameterRegexes(tok) : plainParameters(tok);
    return pieces.reduce((regex, piece, k) => regex + (layout.comma ? '[^,]*' : numeric ? value : any[k - 1]) + piece);
  });
  if (layout.comma) {
    // The timestamp's column is not in the template: put it back.
    const fields = [...parts];
    fields.splice(layout.field, 0, '[^,]*');
    return `^${fields.join(',')}$`;
  }
  if (messageOnly) return `^${parts.join(joiner(layout))}\\s*$`;
  // (A header joined by `|`, header.ts: its bars are read as spaces.)
  const header = layout.textHeader === undefined ? [] : headerItems(layout.textHeader, layout.pipes !== undefined);
  return lineRegex(layout, time, [...header, ...parts], '\\s*$');
}

function q(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

function clipComment(text: string): string {
  return text.replace(/[\r\n]/g, ' ').slice(0, 70);
}
