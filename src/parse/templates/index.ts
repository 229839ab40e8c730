/**
 * Raw logs in, records out, with no translator (issue 14): template mining as
 * a reader stage. A library user calls `rawLogTranslator(files)` (or
 * `looksRaw`, `mineTemplates` and `templateTranslator` one by one) and hands
 * the LineTranslator to `readClass` like any other translator.
 *
 * 1. `looksRaw`: the input is raw text when none of the first lines of the
 *    first file of each class is a record (`I`/`E`/`S` + TAB) and, for CSV/TSV,
 *    the header does not name the record columns (kind, timestamp, name).
 * 2. `mineTemplates`: one sequential pass over all files of both classes, in
 *    input order (good then bad), so templates are comparable across classes
 *    and the same whatever `--jobs`: per file the layout is found first — a
 *    table (CSV/TSV with a header, JSON Lines, a JSON cell: ../layout.ts)
 *    gives each row's time, message, entity, trace and level by its columns;
 *    a text log's timestamp is detected (timestamps.ts) and its header learned
 *    (header.ts) — then each line's message is tokenized and masked (mask.ts)
 *    and fed to Drain (drain.ts). A text line without a timestamp continues
 *    the previous line (a stack trace) and takes its time. A message whose
 *    head names its log statement (`Class#line`) is that template, not mined.
 *    With an entity, variables are named `entity:template`.
 * 3. `templateTranslator`: each line becomes an event named by its template,
 *    and a state `<template> #k` for each numeric parameter (the k-th token
 *    holding `<*>` whose values were all numbers in the mining pass).
 *
 * The model is plain data, so parsing workers rebuild the same translator.
 */
import { InputError } from '../../errors.js';
import type { InputFile } from '../files.js';
import { firstLines, rawLogs } from './raw.js';
import { MAX_LINE_LENGTH, readLines } from '../lines.js';
import type { ClassName, RecordSink } from '../records.js';
import type { LineTranslator } from '../translator.js';
import { makeTimeFormat, type TimeFormat } from '../translators/time-formats.js';
import { compileUserRegex } from '../translators/pattern.js';
import { DEFAULT_DRAIN_PARAMETERS, Drain, skeleton, type DrainParameters, type Skeleton } from './drain.js';
import { IdFieldCounter, ID_SAMPLE_LINES, idColumnOf, type InstanceRule } from './instances.js';
import { keyPlan, numericValue, tokenize, WILDCARD, type KeyPlan } from './mask.js';
import { detectTimestamp, endsField, fieldStart, isTimeOfDay, plausibleTime, SAMPLE_LINES, TIMESTAMP_CANDIDATES } from './timestamps.js';
import { learnLeadingIds, learnPipes, learnTextHeader, patternHeader, readTextHeader, type TextHeader } from './header.js';
import type { FileLayout, FileMining, LineHeads, MiningPass, MiningProgress, TemplateOptions } from './types.js';
import { fileStamp, HeadsRecorder, keepsHeads, keepsNumbers, numberPlan, NumbersRecorder, readsAsNumber, replayOf, runEnds, tokensByKey, type MinedKey, type NumberPlan } from './replay.js';
import { fileState, HEX_LIKE, KeyGuess, maskAll, messageKey, splitLine, splitRow } from './split.js';
import { detectTable } from '../layout.js';
import { CriJoiner, joinPartials } from '../cri-partial.js';
import { isOtlpLogs, otlpRecords, otlpSample, rowText, type OtlpRecord } from '../otlp.js';
import type { MinedTemplate, MinedTranslator, TemplateModel } from './model.js';
import { templateTranslator } from './translate.js';

export type { MinedTemplate, MinedTranslator, TemplateModel } from './model.js';
export { templateTranslator } from './translate.js';

function isCsv(file: InputFile): boolean {
  const name = file.relativePath.replace(/\.gz$/, '');
  return name.endsWith('.csv');
}

export type { LineKeys } from './types.js';
export { untimedNotes } from './describe.js';
export { REPLAY_MAX_BYTES, REPLAY_MAX_KEY_CHARS, type LineReplay } from './replay.js';

/**
 * Each line of a mined file with the template the translator gives it (`distalyze templates --lines`): [line
 * number, template id], −1 for a line no template takes (a header, a row that cannot be read, no match).
 */
export async function lineTemplates(model: TemplateModel, file: InputFile): Promise<Array<[number, number]>> {
  const translator = templateTranslator(model);
  const ctx = { file: file.path, relativePath: file.relativePath, className: 'good' as const };
  const none: RecordSink = { instance: () => undefined, event: () => undefined, state: () => undefined };
  translator.beginFile?.(ctx, none);
  const out: Array<[number, number]> = [];
  await readLines(file, {
    line: (text, line) => {
      const mapped = translator.translateLine(text, { ...ctx, line }, none);
      // (One entry per row: an OTLP/JSON line's log records each, a line with none −1.)
      const ids = translator.lastTemplates();
      if (ids.length === 0) out.push([line, -1]);
      for (const id of ids) out.push([line, mapped || ids.length > 1 ? id : -1]);
    },
    tooLong: () => undefined,
  });
  return out;
}

/**
 * The translator for raw input, or undefined when the input is records (dlog
 * or CSV records): the one call the CLI makes when no translator is given.
 */
export async function rawLogTranslator(classes: Readonly<Record<ClassName, readonly InputFile[]>>, options: TemplateOptions & { readonly jobs?: number } = {}, progress: MiningProgress = {}): Promise<MinedTranslator | undefined> {
  const logs = await rawLogs(classes);
  return logs === undefined ? undefined : mineRawLogs(logs, options, progress);
}

/** The translator mined from `logs`, raw log files found by rawLogs (templates/raw.ts). */
export async function mineRawLogs(logs: Readonly<Record<ClassName, readonly InputFile[]>>, options: TemplateOptions & { readonly jobs?: number } = {}, progress: MiningProgress = {}): Promise<MinedTranslator> {
  progress.onMining?.([...logs.good, ...logs.bad].reduce((n, f) => n + f.size, 0), logs.good.length + logs.bad.length);
  return templateTranslator(await mineTemplates(logs, options, progress));
}

// ---------------------------------------------------------------------------
// Mining

interface Tally {
  counts: Record<ClassName, number>;
  example: string;
  timed: boolean;
  /** Per position: a raw value that was not a number was seen. */
  notNumeric: Uint8Array;
  /** Per position: the first value seen, or '' once two values differed. */
  values: Array<string | null>;
}

/**
 * --header-pattern's header for a file, refused when it matches none of the file's sampled messages (the pattern
 * is of another file's lines, or reads the timestamp, which is cut off before the header).
 */
function givenHeader(file: InputFile, pattern: string, messages: readonly string[]): TextHeader {
  const header = patternHeader(pattern);
  const parts = { level: '', entity: '' };
  if (messages.length > 0 && !messages.some((m) => readTextHeader(m, header, parts) !== m)) {
    throw new InputError(`--header-pattern matches none of the first ${messages.length} lines (it is matched after the timestamp): ${JSON.stringify(messages[0]?.trim().slice(0, 60))}`, file.path);
  }
  return header;
}

/**
 * Mine one file: detect its timestamp, then collect its distinct message keys.
 * Throws an InputError naming the file when it has no timestamp format.
 */
export async function mineFile(file: InputFile, options: MiningPass = {}, onBytes?: (n: number) => void): Promise<FileMining> {
  if (file.path === '-') throw new InputError('raw logs cannot be read from standard input (templates are mined in a first pass over the files); give a file or directory');
  const year = options.year ?? new Date().getUTCFullYear();
  // (Before the first read: a file changed since then is not the one whose heads are kept.)
  const stamp = options.heads === true ? fileStamp(file.path) : null;
  let sample = await firstLines(file, SAMPLE_LINES + 1);
  // (An OTLP/JSON line may be longer than the 256 KB read: read up to the longest line read, 1 MiB.)
  if (sample.length === 1 && isOtlpLogs(sample[0] as string)) sample = await firstLines(file, SAMPLE_LINES + 1, MAX_LINE_LENGTH + 1);
  const table = detectTable(file.path, file.relativePath, sample, options.columns);
  let layout: FileLayout;
  let empty = false;
  if (table !== null) {
    if (table.time < 0) throw new InputError(`no ${table.kind === 'logfmt' ? 'key' : 'column'} of times found among ${table.columns.join(', ')}`, file.path, undefined, 'name it with --time-column NAME');
    layout = { format: table.timeFormat, field: table.time, comma: false, header: table.kind === 'csv' || table.kind === 'tsv', host: false, table };
    // A message cell that is a text line with a header of its own (Docker's `log` of a logback app): learned as a
    // text file's is (split.ts reads it off the message; its logger or program is the entity where the row has none).
    const probe = fileState(layout, makeTimeFormat(layout.format, { year }));
    const rows: ReadonlyArray<string | OtlpRecord> = table.kind === 'cri' ? joinPartials(sample) : table.otlp === true ? otlpSample(sample) : sample;
    const messages = rows.flatMap((l, i) => (splitRow(l, i + 1, probe) ? [probe.message] : []));
    const textHeader = options.headerPattern !== undefined ? givenHeader(file, options.headerPattern, messages) : learnTextHeader(messages);
    if (textHeader !== undefined) layout = { ...layout, textHeader };
  } else {
    const csv = isCsv(file);
    const header = csv && sample.length > 0;
    // A file of blank and `#` lines only (an empty log) has no timestamp to find: no instance, counted (TemplateModel.empty).
    empty = sample.slice(header ? 1 : 0).every((l) => l.trim() === '' || l.startsWith('#'));
    const detected = empty ? { format: TIMESTAMP_CANDIDATES[0] as string, field: 0, comma: csv } : detectTimestamp(file.path, header ? sample.slice(1) : sample, csv, year, options.timestamp);
    layout = { ...detected, header, host: detected.format === 'syslog' && detected.field === 0 };
    if (!csv && !empty) {
      // (The messages of the sample's lines with a time of their own, as the layout so far splits them.)
      const messages = (l: FileLayout): string[] => {
        const probe = fileState(l, makeTimeFormat(l.format, { year }));
        return sample.flatMap((line, i) => (splitLine(line, i + 1, probe) && probe.timed ? [probe.message] : []));
      };
      if (options.headerPattern !== undefined) {
        // (A header the user gives is all that stands after the timestamp: no bars or ids are learned either.)
        layout = { ...layout, textHeader: givenHeader(file, options.headerPattern, messages(layout)) };
      } else {
        const pipes = learnPipes(messages(layout));
        if (pipes > 0) layout = { ...layout, pipes };
        // (Ids after a time opening the line; a time in mid-line has header fields before it: header.ts withLead.)
        const ids = layout.field > 0 ? 0 : learnLeadingIds(messages(layout));
        if (ids > 0) layout = { ...layout, ids };
        const textHeader = learnTextHeader(messages(layout), pipes, layout.host ? 0 : layout.field);
        if (textHeader !== undefined) layout = { ...layout, textHeader };
      }
    }
  }
  const comma = layout.comma;
  const header = layout.header;
  const column = table !== null ? null : header ? idColumnOf(sample[0] as string) : null;
  const traceColumn = table === null ? null : table.trace >= 0 ? { column: table.trace, name: table.columns[table.trace] as string }
    // (A trace in the message cell's own record: layout.ts cellLayout.)
    : table.cell !== undefined && table.cell.trace >= 0 ? { column: table.message, name: `${table.columns[table.message] as string}.${table.cell.columns[table.cell.trace] as string}` } : null;
  const statements: FileMining['statements'] = [];
  const byStatement = new Map<string, FileMining['statements'][number]>();
  const state = fileState(layout, makeTimeFormat(layout.format, { year }));
  const keys: FileMining['keys'] = [];
  type KeyEntry = FileMining['keys'][number] & { variable: number[]; index: number; hexLike: boolean; segments: string[]; settled: boolean; plan?: KeyPlan; numberPlan?: NumberPlan };
  let shifts = new Int32Array(64);
  const tokens: string[] = [];
  const byKey = new Map<string, KeyEntry>();
  const guess = new KeyGuess<KeyEntry>();
  let lineKeys = new Int32Array(4096);
  const ids = new IdFieldCounter();
  const hosts = new Set<string>();
  let lines = 0;
  let untimed = 0;
  let continued = 0;
  let foreign = 0;
  let foreignLine = 0;
  let foreignText = '';
  const other = foreignTimestamps(layout.format, year);
  // A text log whose messages are its lines' ends keeps its lines' heads (replay.ts).
  const heads = stamp !== null && stamp.size >= 0 && table === null && !empty && !comma && !layout.host && layout.pipes === undefined
    ? new HeadsRecorder(stamp.size, stamp.mtimeMs) : null;
  // And its lines' numbers, for the translating pass not to read it again (translateFile).
  // (Not a compressed file's: the reader reads those, its bytes being what is decompressed.)
  const numbers = heads !== null && options.numbers === true && layout.field === 0 && !file.gzip ? new NumbersRecorder(file.size) : null;
  // (Where a message's digit runs are, found with its key: KeyGuess.find. As long as any key's segments.)
  let numberShifts = numbers === null ? null : new Int32Array(64);
  /** The entry of a message's key, made at its first line (`text`, at time `t`). (Out of the line loop: rare.) */
  const keyOf = (message: string, text: string, timed: boolean, t: number): KeyEntry => {
    const key = messageKey(message);
    let entry = byKey.get(key);
    if (entry !== undefined) return entry;
    const raw = tokenize(message, comma);
    const masked = maskAll(raw);
    const variable: number[] = [];
    const numbered: number[] = [];
    // A literal word is never a number.
    const notNumeric = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) {
      if (masked[i] !== raw[i]) variable.push(i);
      else notNumeric[i] = 1;
      if (options.numbers === true && readsAsNumber(messageKey(raw[i] as string))) numbered.push(i);
    }
    entry = {
      key, masked, count: 0, example: text, timed, notNumeric, variable, numbered, values: new Array<string | null | undefined>(raw.length),
      first: t, last: t, index: keys.length, hexLike: HEX_LIKE.test(key), segments: key.split('0'), settled: false,
    };
    byKey.set(key, entry);
    keys.push(entry);
    if (numberShifts !== null && entry.segments.length > numberShifts.length) numberShifts = new Int32Array(2 * entry.segments.length);
    return entry;
  };
  // CRI records a runtime cut from one line are joined back (cri-partial.ts); a line cut at the file's end is counted.
  const cri = table?.kind === 'cri' ? new CriJoiner() : null;
  // (`row`: a line, or an OTLP/JSON log record as its flat record (otlp.ts), whose JSON text is made only where
  // its text is kept, as a key's example; the record splits as its text does: splitRecord.)
  const mineLine = (row: string | OtlpRecord, lineNo: number): void => {
    if (table === null && lineNo <= ID_SAMPLE_LINES && !(header && lineNo === 1)) {
      const text = rowText(row);
      if (column !== null || text.includes('=') || text.includes(':')) ids.add(text, column);
      else ids.addSampled(1);
    }
    if (!splitRow(row, lineNo, state)) {
      if (!(header && lineNo === 1) && (typeof row !== 'string' || row.length > 0)) untimed++;
      return;
    }
    const split = state;
    if (!split.timed) {
      continued++;
      const text = rowText(row);
      if (other(text, layout)) {
        if (foreign++ === 0) {
          foreignLine = lineNo;
          foreignText = text.length > 80 ? `${text.slice(0, 80)}…` : text;
        }
      }
    }
    if (table !== null && lineNo <= ID_SAMPLE_LINES) {
      if (traceColumn !== null) ids.addValue(split.row.trace, traceColumn);
      // No trace column: a request id the line's text names (`trace_id=…` in a Docker or Loki line), as in a text log.
      else ids.add(rowText(row), null);
    }
    const location = split.head.location;
    if (location !== '') {
      // The line names its log statement: that is its template (not mined; layout.ts LOCATION says why).
      let st = byStatement.get(location);
      if (st === undefined) {
        byStatement.set(location, st = { location, count: 0, example: rowText(row), first: split.t, last: split.t });
        statements.push(st);
      }
      st.count++;
      if (split.t < st.first) st.first = split.t;
      else if (split.t > st.last) st.last = split.t;
      return;
    }
    // (kubectl without --follow writes pod after pod: a second pod may begin past the sample.)
    if (split.host !== '' && (lineNo <= ID_SAMPLE_LINES || (state.pods && hosts.size < 2))) hosts.add(split.host);
    let entry = guess.find(split.message, numberShifts);
    let shifted = numberShifts !== null;
    if (entry === undefined) {
      shifted = false;
      entry = keyOf(split.message, rowText(row), split.timed, split.t);
      guess.add(split.message, entry);
    }
    entry.count++;
    if (split.t < entry.first) entry.first = split.t;
    else if (split.t > entry.last) entry.last = split.t;
    if (lineNo > lineKeys.length) {
      const grown = new Int32Array(Math.max(lineKeys.length * 2, lineNo));
      grown.set(lineKeys);
      lineKeys = grown;
    }
    lineKeys[lineNo - 1] = entry.index + 1;
    heads?.record(lineNo, split);
    if (numbers !== null && entry.numbered.length > 0) numbers.record(split.message, entry.numberPlan ??= numberPlan(entry.key, comma, Int32Array.from(entry.numbered)), shifted ? numberShifts : null);
    // A masked token is a number if it reads as one and is not a bracketed id. Lines of one key differ only in
    // their digit runs, which decide neither (HEX_LIKE aside): once a position's values differed, later lines of
    // the key tell nothing more about it, and are not tokenized again.
    // (Both only move one way — notNumeric 0 → 1, a value to null — so once no position needs a look, none ever
    // will again: the key is settled.)
    const notNumeric = entry.notNumeric;
    const values = entry.values;
    let check = false;
    if (!entry.settled) {
      for (const i of entry.variable) if (notNumeric[i] === 0 && (values[i] !== null || entry.hexLike)) { check = true; break; }
      if (!check) entry.settled = true;
    }
    if (check) {
      // (The tokens at the key's variable positions, cut by the key's plan: replay.ts tokensByKey.)
      const plan = entry.plan ??= keyPlan(entry.key, comma, Int32Array.from(entry.variable));
      if (plan.segments.length > shifts.length) shifts = new Int32Array(plan.segments.length);
      const raw = tokensByKey(split.message, plan, shifts, tokens) ? tokens : tokenize(split.message, comma);
      for (let p = 0; p < entry.variable.length; p++) {
        const i = entry.variable[p] as number;
        if (notNumeric[i] !== 0) continue;
        const value = (raw === tokens ? raw[p] : raw[i]) as string;
        if (isBracketed(value) || Number.isNaN(numericValue(value))) notNumeric[i] = 1;
        else if (entry.values[i] === undefined) entry.values[i] = value;
        else if (entry.values[i] !== null && entry.values[i] !== value) entry.values[i] = null;
      }
    }
  };
  await readLines(file, {
    line: (text, lineNo) => {
      // (OTLP/JSON: each of a line's log records is a row, mined as a line of its own; a line that is no LogsData is
      // a row that cannot be read, counted.)
      if (table?.otlp === true) {
        for (const r of otlpRecords(text) ?? [text]) {
          lines++;
          mineLine(r, lineNo);
        }
        return;
      }
      lines++;
      const whole = cri === null ? text : cri.push(text, lineNo);
      if (whole !== null) mineLine(whole, lineNo);
    },
    tooLong: () => { lines++; },
  }, onBytes);
  const cut = cri?.flush() ?? [];
  for (const h of cut) mineLine(h.line, h.lineNo);
  return {
    path: file.path, layout,
    keys: keys.map(({ key, masked, numbered, count, example, timed, notNumeric, values, first, last }) => ({ key, masked, numbered, count, example, timed, notNumeric, values, first, last })),
    ids: ids.counts(), hosts: [...hosts], lines, untimed, continued, ...(cut.length > 0 ? { partial: cut.length } : {}), foreign, foreignLine, foreignText, empty, lineKeys: lineKeys.slice(0, lines), statements,
    ...(heads !== null ? { heads: withNumbers(heads.finish(lines), numbers?.finish()) } : {}),
  };
}

function withNumbers(heads: LineHeads, numbers: Float64Array | undefined): LineHeads {
  return numbers === undefined ? heads : { ...heads, numbers };
}

/**
 * Above this share of a file's lines, lines with a timestamp in another format than the file's are an error,
 * not a note: such a line is no continuation (a stack trace's lines carry no time) but a line whose own time
 * is lost (it takes the previous line's), so a second writer or a format change part way through would make
 * the file's times, and its duration, those of its first part alone. A stray line or two (under 1%) moves
 * nothing a comparison can see, and is counted in the summary.
 */
export const FOREIGN_TIMESTAMP_MAX_SHARE = 0.01;

/**
 * Whether a line the file's format could not time begins with a timestamp of another candidate format, at the
 * file's timestamp field or at the line's start: a line whose own time would be lost.
 */
function foreignTimestamps(own: string, year: number): (line: string, layout: FileLayout) => boolean {
  let formats: TimeFormat[] | undefined;
  return (line, layout) => {
    const c = line.charCodeAt(0);
    // A continuation (stack trace) begins with white space; a timestamp with a digit, a bracket or a capital (a month, a day).
    if (!((c >= 48 && c <= 57) || c === 91 || (c >= 65 && c <= 90))) return false;
    formats ??= TIMESTAMP_CANDIDATES.filter((n) => n !== own).map((n) => makeTimeFormat(n, { year }));
    for (const field of layout.field === 0 ? [0] : [0, layout.field]) {
      const start = fieldStart(line, field, layout.comma);
      if (start < 0) continue;
      for (const f of formats) if (plausibleTime(f.parse(line, start), isTimeOfDay(f)) && endsField(line, f.end, layout.comma)) return true;
    }
    return false;
  };
}

/**
 * Mine templates over both classes together, in input order (good files, then
 * bad). Files are read on `jobs` worker threads when given (mine-worker.ts);
 * either way their contributions are merged in file order, and a key reaches
 * Drain at its first occurrence in that order — exactly what one sequential
 * pass over every line does, since a repeated key never reaches Drain. So the
 * templates do not depend on `jobs`. Throws an InputError naming the first
 * file (in input order) that has no timestamp format.
 */
export async function mineTemplates(classes: Readonly<Record<ClassName, readonly InputFile[]>>, options: TemplateOptions & { readonly jobs?: number } = {}, progress: MiningProgress = {}): Promise<TemplateModel> {
  const inputs = (['good', 'bad'] as const).flatMap((className) => classes[className].map((file) => ({ file, className })));
  const jobs = Math.min(options.jobs ?? 1, inputs.length);
  const pass: MiningPass = { ...options, heads: keepsHeads(inputs.map((i) => i.file)), numbers: keepsNumbers(inputs.map((i) => i.file)) };
  let minings: FileMining[];
  if (jobs > 1) {
    const { mineParallel } = await import('./mine-parallel.js');
    minings = await mineParallel(inputs.map((i) => i.file), jobs, pass, mineFile, progress);
  } else {
    minings = [];
    for (const { file } of inputs) {
      minings.push(await mineFile(file, pass, progress.onBytes));
      progress.onFileDone?.();
    }
  }
  return mergeMinings(minings, inputs.map((i) => i.className), options);
}

/** Merge per-file minings in file order into templates (see mineTemplates). */
export function mergeMinings(minings: readonly FileMining[], classOf: readonly ClassName[], options: TemplateOptions = {}): TemplateModel {
  const parameters = options.drain ?? DEFAULT_DRAIN_PARAMETERS;
  const year = options.year ?? new Date().getUTCFullYear();
  const drain = new Drain(parameters);
  const tallies: Tally[] = [];
  const files: Record<string, FileLayout> = {};
  const ids = new IdFieldCounter();
  const cache = new Map<string, number>();
  let lines = 0;
  let untimed = 0;
  let continued = 0;
  let partial = 0;
  let foreign = 0;
  let foreignExample = '';
  const empty: string[] = [];
  const hosts = new Set<string>();
  let quoted = false;
  minings.forEach((m, f) => {
    const className = classOf[f] as ClassName;
    files[m.path] = m.layout;
    lines += m.lines;
    untimed += m.untimed;
    continued += m.continued;
    partial += m.partial ?? 0;
    if (m.foreign > 0 && foreign === 0) foreignExample = `${m.path}:${m.foreignLine}: '${m.foreignText}'`;
    foreign += m.foreign;
    if (m.empty) empty.push(m.path);
    // Past the share, a file's times are not its own (FOREIGN_TIMESTAMP_MAX_SHARE): an error naming its first such line.
    if (m.foreign > FOREIGN_TIMESTAMP_MAX_SHARE * m.lines) {
      throw new InputError(`${m.foreign.toLocaleString('en-US')} of ${m.lines.toLocaleString('en-US')} lines (${(100 * m.foreign / m.lines).toFixed(m.foreign * 1000 < m.lines * 10 ? 1 : 0)}%) ` +
        `begin with a timestamp in another format than the file's ${m.layout.format} (found in its first lines), as this one does: '${m.foreignText}'; their times would be lost`,
      m.path, m.foreignLine, 'give each format its own file, name the format with --timestamp FORMAT, or write a translator (--translator)');
    }
    for (const h of m.hosts) hosts.add(h);
    ids.merge(m.ids);
    for (const k of m.keys) {
      let id = cache.get(k.key);
      if (id === undefined) {
        id = drain.add(k.masked).id;
        cache.set(k.key, id);
        if (!quoted) quoted = k.masked.some((t) => t.includes(' ') || t.includes('\t'));
      }
      let tally = tallies[id];
      if (tally === undefined) tallies[id] = tally = { counts: { good: 0, bad: 0 }, example: k.example, timed: k.timed, notNumeric: new Uint8Array(k.masked.length), values: [] };
      tally.counts[className] += k.count;
      for (let i = 0; i < k.notNumeric.length; i++) {
        if (k.notNumeric[i] === 1) tally.notNumeric[i] = 1;
        const v = k.values[i];
        if (v === undefined) continue;
        const before = tally.values[i];
        if (before === undefined) tally.values[i] = v;
        else if (before !== null && before !== v) tally.values[i] = null;
      }
    }
  });
  // Syslog collects many hosts in one file: with no id field, the host names instances.
  let instance: InstanceRule | null = ids.rule() ?? (hosts.size >= 2 ? { kind: 'host' } : null);
  // --trace-column names instances whether or not its values recur.
  const traced = options.columns?.traceColumn === undefined ? undefined : Object.values(files).find((f) => f.table !== undefined && f.table.trace >= 0)?.table;
  if (traced !== undefined) instance = { kind: 'column', column: traced.trace, name: traced.columns[traced.trace] as string };
  if (options.instancePattern !== undefined) {
    try {
      compileUserRegex(options.instancePattern);
    } catch (err) {
      throw new InputError(`--instance-pattern: ${err instanceof Error ? err.message : String(err)}`);
    }
    instance = { kind: 'pattern', pattern: options.instancePattern };
  }
  // Absorbed clusters (drain.ts) hand their lines to the cluster that absorbed them.
  for (const c of drain.clusters) {
    const root = drain.resolve(c.id);
    if (root !== c.id && tallies[c.id] !== undefined) tallies[root] = mergeTally(tallies[root], tallies[c.id] as Tally, root < c.id);
  }
  const names = new Set<string>();
  // Templates with the same skeleton (drain.ts: a variable spanning more tokens, an annotation that comes and
  // goes) are one event: the later ones keep their tokens (the translator matches by them) but take the first's
  // name, and their variables take its state names, aligned between the same words.
  const firstBySkeleton = new Map<string, { skeleton: Skeleton; name: string; states: string[] }>();
  const templates: MinedTemplate[] = drain.live().map((c, index) => {
    const tally = tallies[c.id] as Tally;
    const sk = skeleton(c.tokens);
    const first = sk.key === null ? undefined : firstBySkeleton.get(sk.key);
    if (first !== undefined) {
      const states = c.tokens.map(() => '');
      sk.gaps.forEach((positions, g) => positions.forEach((pos, j) => {
        const at = first.skeleton.gaps[g]?.[j];
        if (at !== undefined) states[pos] = first.states[at] as string;
      }));
      sk.words.forEach((pos, w) => { states[pos] = first.states[first.skeleton.words[w] as number] as string; });
      return { id: index, tokens: c.tokens, name: first.name, states, counts: tally.counts, example: tally.example, timed: tally.timed };
    }
    let name = templateName(c.tokens, files[Object.keys(files)[0] as string]?.comma ?? false);
    if (names.has(name)) name = `${name} [${index + 1}]`;
    names.add(name);
    let k = 0;
    const states = c.tokens.map((tok, i) => {
      if (!tok.includes(WILDCARD)) return '';
      k++;
      // A number that never changed (`handlers=30` on every line) tells nothing: no state.
      return tally.notNumeric[i] === 0 && tally.values[i] === null ? `${name} #${k}` : '';
    });
    if (sk.key !== null) firstBySkeleton.set(sk.key, { skeleton: sk, name, states });
    return { id: index, tokens: c.tokens, name, states, counts: tally.counts, example: tally.example, timed: tally.timed };
  });
  // Log statements the lines name (not mined) follow the mined templates, in order of first occurrence.
  const byLocation = new Map<string, { id: number; counts: Record<ClassName, number>; example: string }>();
  minings.forEach((m, f) => {
    for (const st of m.statements) {
      let t = byLocation.get(st.location);
      if (t === undefined) byLocation.set(st.location, t = { id: templates.length + byLocation.size, counts: { good: 0, bad: 0 }, example: st.example });
      t.counts[classOf[f] as ClassName] += st.count;
    }
  });
  for (const [location, t] of byLocation) {
    templates.push({ id: t.id, tokens: [location], name: location, states: [''], counts: t.counts, example: t.example, timed: true, statement: true });
  }
  const model: TemplateModel = { parameters, year, files, instance, templates, lines, untimed, continued, foreign, ...(foreign > 0 ? { foreignExample } : {}), ...(partial > 0 ? { partial } : {}), empty,
    ...(quoted ? { quoted } : {}) };
  const templateOf = keyTemplates(model);
  return { ...model, replay: replayOf(minings, templateOf), ...(instance === null ? { ends: runEnds(minings, templateOf) } : {}) };
}

/**
 * Each message key's template as the translator would match it (templateTranslator: Drain's match over the model's
 * templates, by the key's masked tokens), −1 for none; matched once per key.
 */
function keyTemplates(model: TemplateModel): (key: MinedKey) => number {
  const drain = new Drain(model.parameters);
  for (const t of model.templates) if (t.statement !== true) drain.restore(t.tokens);
  const matched = new Map<string, number>();
  return (k) => {
    let id = matched.get(k.key);
    if (id === undefined) matched.set(k.key, id = drain.match(k.masked)?.id ?? -1);
    return id;
  };
}

/** The tally of two clusters' lines together; the example is the older cluster's (its first line came first). */
function mergeTally(a: Tally | undefined, b: Tally, aIsOlder: boolean): Tally {
  if (a === undefined) return b;
  const first = aIsOlder ? a : b;
  const notNumeric = new Uint8Array(Math.max(a.notNumeric.length, b.notNumeric.length));
  for (let i = 0; i < notNumeric.length; i++) notNumeric[i] = (a.notNumeric[i] ?? 0) | (b.notNumeric[i] ?? 0);
  const values: Array<string | null> = [];
  for (let i = 0; i < Math.max(a.values.length, b.values.length); i++) {
    const x = a.values[i];
    const y = b.values[i];
    values[i] = x === undefined ? (y as string | null) : y === undefined ? x : x !== null && x === y ? x : null;
  }
  return { counts: { good: a.counts.good + b.counts.good, bad: a.counts.bad + b.counts.bad }, example: first.example, timed: first.timed, notNumeric, values };
}

/** Numbers in brackets name threads and processes (`[RpcServer.handler=5]`, `backup[2000]:`): ids, not measurements. */
function isBracketed(token: string): boolean {
  return token.includes('[') || token.includes(']');
}

/** Longest event name kept whole; longer templates keep their start and end. */
export const MAX_NAME_LENGTH = 80;

/**
 * A readable, short name for a template: its tokens joined by spaces (commas
 * for CSV), Java-style qualified names cut to their last part
 * (`org.apache.hadoop.hbase.regionserver.HRegion:` → `HRegion:`), and over
 * MAX_NAME_LENGTH characters the middle elided with `…`.
 */
export function templateName(tokens: readonly string[], comma: boolean): string {
  const short = tokens.map((t) => t.replace(/^([[(]?)(?:[a-z_$][\w$]*\.){2,}([A-Za-z_$][\w$]*)/, '$1$2'));
  const sep = comma ? ',' : ' ';
  const name = short.join(sep);
  if (name.length <= MAX_NAME_LENGTH) return name;
  // Cut between tokens, not inside a word (`addStoredBlock … to`, not `addStoredBlock…dded to`); a token longer than the room is cut.
  const head = wholeTokens(short, MAX_NAME_LENGTH - 21, sep);
  const tail = wholeTokens([...short].reverse(), 20, sep, true);
  return `${head ?? name.slice(0, MAX_NAME_LENGTH - 21)}…${tail ?? name.slice(-20)}`;
}

/** The longest run of whole tokens from the start (or, reversed, from the end) that fits `room` characters; null when not even one does. */
function wholeTokens(tokens: readonly string[], room: number, sep: string, reversed = false): string | null {
  let length = -sep.length;
  let n = 0;
  while (n < tokens.length && length + sep.length + (tokens[n] as string).length <= room) length += sep.length + (tokens[n++] as string).length;
  if (n === 0) return null;
  const kept = tokens.slice(0, n);
  return (reversed ? kept.reverse() : kept).join(sep);
}

// ---------------------------------------------------------------------------
// Translating

/**
 * Group bare messages (no timestamps) with the miner: the template id of each
 * message in mining order. The same masking, message keys and Drain as
 * `mineTemplates`; used by bench/templates.mjs to score grouping accuracy.
 */
export function groupMessages(messages: readonly string[], parameters: DrainParameters = DEFAULT_DRAIN_PARAMETERS): { ids: Int32Array; templates: string[][] } {
  const drain = new Drain(parameters);
  const cache = new Map<string, number>();
  const ids = new Int32Array(messages.length);
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as string;
    const key = messageKey(message);
    let id = cache.get(key);
    if (id === undefined) {
      id = drain.add(maskAll(tokenize(message, false))).id;
      cache.set(key, id);
    }
    ids[i] = id;
  }
  // As mergeMinings: templates with the same skeleton are one event (the first's).
  const firstBySkeleton = new Map<string, number>();
  const eventOf = new Map<number, number>();
  for (const c of drain.live()) {
    const key = skeleton(c.tokens).key;
    let first = key === null ? undefined : firstBySkeleton.get(key);
    if (first === undefined) {
      first = c.id;
      if (key !== null) firstBySkeleton.set(key, first);
    }
    eventOf.set(c.id, first);
  }
  for (let i = 0; i < ids.length; i++) ids[i] = eventOf.get(drain.resolve(ids[i] as number)) as number;
  return { ids, templates: drain.clusters.map((c) => c.tokens) };
}
