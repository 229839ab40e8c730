/**
 * Translating with mined templates (issue 14, step 3 of index.ts): each line becomes an event named by its
 * template, and a state `<template> #k` for each numeric parameter; a line the mining pass kept the key and head
 * of is not split or matched again (replay.ts).
 */
import { InputError } from '../../errors.js';
import type { LineContext, RecordSink } from '../records.js';
import { makeTimeFormat, type TimeFormat } from '../translators/time-formats.js';
import { compileUserRegex, type UserRegex } from '../translators/pattern.js';
import { Drain } from './drain.js';
import { keyPlan, readByPlan, tokenize, walkMessage, type KeyPlan } from './mask.js';
import { describeModel } from './describe.js';
import { headsOf, splitByHeads } from './replay.js';
import { fileState, maskAll, messageKey, splitRow, type FileState } from './split.js';
import { CriJoiner } from '../cri-partial.js';
import { otlpRecords, rowText, type OtlpRecord } from '../otlp.js';
import type { MinedTemplate, MinedTranslator, TemplateModel } from './model.js';

/** Most distinct masked messages remembered while translating (past that, each is matched in the tree). */
const TRANSLATE_CACHE_MAX = 200_000;

/**
 * A LineTranslator from mined templates: each line becomes an event named by
 * the template it matches (Drain's match: every literal token equal, the most
 * specific template if several) and its numeric parameters become states.
 */
export function templateTranslator(model: TemplateModel, path = '(mined templates)'): MinedTranslator {
  const drain = new Drain(model.parameters);
  for (const t of model.templates) if (t.statement !== true) drain.restore(t.tokens);
  const templates = model.templates;
  /** Statements by location (layout.ts readHead). */
  const statementIds = new Map<string, number>();
  for (const t of templates) if (t.statement === true) statementIds.set(t.tokens[0] as string, t.id);
  /** Per entity (and statement column's location): its event and state names per template (`entity:location name`), made on first use. */
  const entityNames = new Map<string, { events: Array<string | undefined>; states: Array<string[] | undefined> }>();
  const namesOf = (prefix: string): { events: Array<string | undefined>; states: Array<string[] | undefined> } => {
    let n = entityNames.get(prefix);
    if (n === undefined) entityNames.set(prefix, n = { events: [], states: [] });
    return n;
  };
  /** A template and the token positions of its states. */
  interface Entry { readonly id: number; readonly states: Int32Array }
  const statesOf = (id: number): Int32Array =>
    Int32Array.from(id === -1 ? [] : (templates[id] as MinedTemplate).states.flatMap((name, i) => (name === '' ? [] : [i])));
  const cache = new Map<string, Entry>();
  const byTemplate: Entry[] = templates.map((_, id) => ({ id, states: statesOf(id) }));
  const unmatched: Entry = { id: -1, states: new Int32Array(0) };
  const replay = model.replay;
  const replayKeys = replay?.keys ?? [];
  const replayEntries: Entry[] = Array.from(replay?.templates ?? [], (id) => (id === -1 ? unmatched : byTemplate[id] as Entry));
  /** Per replayed key and layout (space- or comma-separated): how to check it and read its states (made on first use). */
  const plans: Array<Array<KeyPlan | undefined>> = [[], []];
  /** The numbers at a line's state positions (readByPlan, walkMessage), and readByPlan's scratch. */
  const values = new Float64Array(byTemplate.reduce((n, e) => Math.max(n, e.states.length), 0));
  let shifts = new Int32Array(64);
  /** Per replayed key: fastStates, made on first use. */
  const fastMaps: Array<Int32Array | null | undefined> = [];
  let state: FileState | null = null;
  let cri: CriJoiner | null = null;
  const instanceRule = model.instance;
  const idRegex: UserRegex | null = instanceRule?.kind === 'pattern' ? compileUserRegex(instanceRule.pattern) : null;
  const idGroup = idRegex === null ? 0 : idRegex.names.has('id') ? 'id' : 1;
  let currentInstance: string | null = null;
  const formats = new Map<string, TimeFormat>();
  let last = -1;
  /** An OTLP/JSON line's rows' template ids (lastTemplates). */
  const lastRows: number[] = [];
  const translator: MinedTranslator & { translateLine(line: string, ctx: LineContext, sink: RecordSink, hinted?: boolean): boolean } = {
    type: 'lines',
    path,
    model,
    summary: () => describeModel(model),
    lastTemplate: () => last,
    lastTemplates: () => ((state as FileState | null)?.rows?.layout.otlp === true ? [...lastRows] : [last]),
    beginFile(ctx: Omit<LineContext, 'line'>): void {
      const layout = model.files[ctx.file];
      if (layout === undefined) throw new InputError('file was not in the template mining pass', ctx.file);
      let format = formats.get(layout.format);
      if (format === undefined) formats.set(layout.format, format = makeTimeFormat(layout.format, { year: model.year }));
      state = fileState(layout, format, replay?.lines[ctx.file], headsOf(replay, ctx.file));
      currentInstance = null;
      cri = layout.table?.kind === 'cri' ? new CriJoiner() : null;
    },
    endFile(ctx: Omit<LineContext, 'line'>, sink: RecordSink): void {
      // (A CRI line cut at the file's end, kept as it is: as the mining pass did, cri-partial.ts.)
      for (const h of cri?.flush() ?? []) translateWhole(h.line, { ...ctx, line: h.lineNo }, sink, true);
    },
    translateFile(_ctx: Omit<LineContext, 'line'>, sink: RecordSink): { lines: number; bytes: number } | null {
      const s = state as FileState;
      const keys = s.replay;
      const heads = s.heads;
      const numbers = heads?.numbers;
      const numbered = replay?.numbered;
      if (keys === undefined || heads === undefined || numbers === undefined || numbered === undefined || instanceRule !== null || s.layout.header) return null;
      const n = heads.t.length;
      if (keys.length !== n) return null;
      // Only a file whose every line becomes records: a line that does not is reported with its text, which is not kept.
      for (let i = 0; i < n; i++) {
        const k = (keys[i] as number) - 1;
        if (k < 0 || (heads.start[i] as number) <= 0 || fastStates(k, numbered) === null) return null;
      }
      let at = 0;
      for (let i = 0; i < n; i++) {
        const k = (keys[i] as number) - 1;
        const entry = replayEntries[k] as Entry;
        const map = fastStates(k, numbered) as Int32Array;
        for (let p = 0; p < map.length; p++) {
          const j = map[p] as number;
          values[p] = j === -1 ? NaN : numbers[at + j] as number;
        }
        at += (numbered[k] as Int32Array).length;
        const pair = (heads.head[i] as number) >> 1;
        s.t = heads.t[i] as number;
        s.parts.level = heads.parts[2 * pair] as string;
        s.parts.entity = heads.parts[2 * pair + 1] as string;
        s.head.level = s.parts.level;
        emit(entry.id, s, sink, map.length);
      }
      return at === numbers.length ? { lines: n, bytes: heads.size } : null;
    },
    translateLine(line: string, ctx: LineContext, sink: RecordSink, hinted: boolean = true): boolean {
      // (OTLP/JSON: a line's log records, each a row: translateRecords.)
      if (hinted && (state as FileState).rows?.layout.otlp === true) return translateRecords(line, ctx, sink);
      // (A CRI record that is part of a line a later record completes: read with it, cri-partial.ts.)
      const whole = cri === null ? line : cri.push(line, ctx.line);
      if (whole === null) {
        last = -1;
        return true;
      }
      return translateWhole(whole, ctx, sink, hinted);
    },
  };
  return translator;

  /**
   * An OTLP/JSON line: its log records, each a row (as mineFile mines them, each split from its flat record:
   * splitRecord), without the mining pass's key; mapped when every one is.
   */
  function translateRecords(line: string, ctx: LineContext, sink: RecordSink): boolean {
    const records = otlpRecords(line) ?? [line];
    lastRows.length = 0;
    let mapped = records.length > 0;
    for (const record of records) {
      if (!translateWhole(record, ctx, sink, false)) mapped = false;
      lastRows.push(last);
    }
    return mapped;
  }

  /**
   * translateLine of a whole line (`hinted`: by the mining pass's key and head of its line number, if kept), or of
   * an OTLP/JSON log record (never hinted).
   */
  function translateWhole(line: string | OtlpRecord, ctx: LineContext, sink: RecordSink, hinted: boolean): boolean {
    last = -1;
    const s = state as FileState;
    if (s.layout.header && ctx.line === 1) return true;
    // The key the mining pass saw on this line (checked below), and its head as that pass split it, if kept.
    const r = s.replay;
    const k = hinted && r !== undefined && ctx.line <= r.length ? (r[ctx.line - 1] as number) - 1 : -1;
    const heads = k >= 0 ? s.heads : undefined;
    const headed = heads !== undefined && typeof line === 'string' && splitByHeads(line, ctx.line, heads, s);
    if (!headed && !splitRow(line, ctx.line, s)) return false;
    const split = s;
    const comma = s.layout.comma;
    const location = s.head.location;
    if (location !== '') {
      const sid = statementIds.get(location);
      if (sid === undefined) return false;
      if (!enterInstance(line, s, sink)) return false;
      emit(sid, s, sink, -1);
      return true;
    }
    // The key's template, if the message still has that key (checked by its plan, which also reads the state
    // numbers into `values`).
    let entry: Entry | undefined;
    let walked = false;
    if (k >= 0) {
      entry = replayEntries[k] as Entry;
      const byLayout = plans[comma ? 1 : 0] as Array<KeyPlan | undefined>;
      let plan = byLayout[k];
      if (plan === undefined) {
        byLayout[k] = plan = keyPlan(replayKeys[k] as string, comma, entry.states);
        if (plan.segments.length > shifts.length) shifts = new Int32Array(plan.segments.length);
      }
      // (A line whose head was kept is the line mined: it has the key.)
      walked = headed ? entry.states.length === 0 || readByPlan(split.message, plan, values, shifts, true) : readByPlan(split.message, plan, values, shifts);
    }
    if (!walked) {
      const key = messageKey(split.message);
      entry = cache.get(key);
      if (entry === undefined) {
        const id = drain.match(maskAll(tokenize(split.message, comma)))?.id ?? -1;
        entry = id === -1 ? unmatched : byTemplate[id] as Entry;
        if (cache.size < TRANSLATE_CACHE_MAX) cache.set(key, entry);
      }
    }
    entry = entry as Entry;
    const id = entry.id;
    if (id === -1) return false;
    if (!enterInstance(line, split, sink)) return false;
    const states = entry.states;
    if (states.length > 0 && !walked) walkMessage(split.message, comma, states, values);
    emit(id, split, sink, states.length);
    return true;
  }

  /**
   * Per replayed key: where its template's state positions are among the key's numbered positions (whose numbers the
   * mining pass kept: LineHeads.numbers), −1 for one that is not (it reads as NaN: replay.ts readsAsNumber); null
   * when the key has no template (its lines are reported, so read).
   */
  function fastStates(k: number, numbered: readonly Int32Array[]): Int32Array | null {
    let map = fastMaps[k];
    if (map === undefined) {
      const entry = replayEntries[k] as Entry;
      const positions = Array.from(numbered[k] as Int32Array);
      fastMaps[k] = map = entry.id === -1 ? null : Int32Array.from(entry.states, (pos) => positions.indexOf(pos));
    }
    return map;
  }

  /** Switch to the line's instance, if instances are named (false: the line names none). */
  function enterInstance(line: string | OtlpRecord, split: FileState, sink: RecordSink): boolean {
    if (instanceRule === null) return true;
    let instanceId: string | undefined;
    if (instanceRule.kind === 'host') {
      instanceId = split.host;
    } else if (instanceRule.kind === 'column') {
      instanceId = split.rows !== null ? split.row.trace : rowText(line).split(',')[instanceRule.column]?.trim();
    } else {
      // (A log record's pattern is matched on its JSON Lines text, as in a file of them.)
      const m = (idRegex as UserRegex).re.exec(rowText(line));
      instanceId = m === null ? undefined : (typeof idGroup === 'string' ? m.groups?.[idGroup] : m[idGroup]);
    }
    if (instanceId === undefined || instanceId === '') return false;
    if (instanceId !== currentInstance) {
      currentInstance = instanceId;
      sink.instance(instanceId);
    }
    return true;
  }

  /**
   * The line's records: the event of template `id` and its first `nStates` states (values in `values`), named
   * `entity:name` when the line has an entity (a table's), and for a WARN or ERROR line the event `entity:ERROR`
   * (or `WARN`): a statement's level is fixed, so it tells nothing per statement, but it adds up a component's
   * errors spread over statements each too rare to be significant alone.
   */
  function emit(id: number, split: FileState, sink: RecordSink, nStates: number): void {
    last = id;
    const template = templates[id] as MinedTemplate;
    const entity = split.rows !== null ? split.row.entity : split.parts.entity;
    // A line naming its statement in a column of its own (layout.ts, `caller=head.go:1290`): the statement qualifies
    // its template's names, so two statements writing one message are two events, and the pairs' numbers stay states.
    const location = split.rows !== null ? split.row.location : '';
    let event = template.name;
    let stateNames = template.states;
    if (entity !== '' || location !== '') {
      // (Keyed by the entity alone where there is no location: no string made per line.)
      const n = namesOf(location === '' ? entity : `${entity}\n${location}`);
      event = n.events[id] ?? (n.events[id] = `${namePrefix(entity, location)}${template.name}`);
      stateNames = n.states[id] ?? (n.states[id] = template.states.map((x) => (x === '' ? '' : `${namePrefix(entity, location)}${x}`)));
    }
    sink.event(split.t, event);
    if (nStates > 0) {
      const states = (byTemplate[id] as Entry).states;
      for (let p = 0; p < nStates; p++) {
        const v = values[p] as number;
        if (Number.isFinite(v)) sink.state(split.t, stateNames[states[p] as number] as string, v);
      }
    }
    const level = split.rows !== null || split.layout.textHeader !== undefined ? errorLevel(split.head.level) : '';
    if (level !== '') sink.event(split.t, entity === '' ? level : `${entity}:${level}`);
  }
}

/** What a variable's name starts with: `entity:`, then a statement column's `location ` (each where the line has one). */
function namePrefix(entity: string, location: string): string {
  return `${entity === '' ? '' : `${entity}:`}${location === '' ? '' : `${location} `}`;
}

/** WARN or ERROR for a level word of that severity or worse, else ''. */
function errorLevel(level: string): string {
  switch (level) {
    case 'WARN': case 'WARNING': return 'WARN';
    case 'ERROR': case 'ERR': case 'FATAL': case 'CRITICAL': case 'CRIT': case 'SEVERE': case 'ALERT': case 'EMERG': case 'PANIC': return 'ERROR';
    default: return '';
  }
}
