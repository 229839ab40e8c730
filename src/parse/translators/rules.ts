import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { InputError } from '../../errors.js';
import { clip } from '../dlog.js';
import { durationSeconds } from '../duration.js';
import { parseDecimal } from '../timestamp.js';
import type { LineContext, RecordSink } from '../records.js';
import type { LineTranslator } from '../translator.js';
import { compileUserRegex, groupRef, groupValue, Template, type UserRegex } from './pattern.js';
import { makeTimeFormat, type TimeFormat } from './time-formats.js';

/**
 * The declarative translator (SPEC §1, form 1): a YAML or JSON file with a
 * timestamp format, an optional instance rule and a list of regex rules. The
 * schema is documented in examples/README.md ("Rules files").
 *
 * Per line, rules are tried in file order and the first that matches wins (a
 * rule with `continue: true` lets the following rules try the line too). With
 * a `header:` regex, it is matched once per line first: the rules then read
 * the rest of the line (the message; a rule with `in: NAME` reads the header's
 * group NAME instead), their names may use the header's named groups, and a
 * line the header does not match is one no rule matches. Work
 * is done lazily: a line no rule matches costs one `includes` (the rule's
 * literal prefilter) or one regex test per rule, and its timestamp and
 * instance id are never parsed.
 */
export interface RulesOptions {
  /** Year for timestamps without one (syslog); overrides the file's `year`. */
  readonly year?: number;
}

type RuleKind = 'event' | 'state' | 'ignore';

interface Rule {
  readonly label: string;
  readonly kind: RuleKind;
  readonly regex: UserRegex;
  /** `includes` prefilter; '' = none. */
  readonly literal: string;
  /** Whether the match's groups are needed (else `test` suffices, which allocates nothing). */
  readonly needsGroups: boolean;
  /** The header's named group the rule reads instead of the message (`in:`); null: the message. */
  readonly in: string | null;
  readonly name: Template | null;
  /** State value: the group holding it (a name or number), or null for `constantValue`. */
  readonly valueGroup: string | number | null;
  readonly constantValue: number;
  readonly scale: number;
  /** 1/scale when that is a whole number (scale 0.001 → divide by 1000: exact, where × 0.001 is not), else 1. */
  readonly divisor: number;
  readonly continue: boolean;
  /** Lines this rule translated. */
  count: number;
  /** Lines it matched but could not use (a value that is not a number, an empty name). */
  rejected: number;
}

interface InstanceRule {
  readonly regex: UserRegex;
  readonly literal: string;
  readonly id: Template;
  readonly sticky: boolean;
}

/** Lines a rule matched but that still produced nothing, with a few examples. */
export interface TranslatorProblem {
  readonly reason: string;
  count: number;
  readonly examples: string[];
}

const MAX_PROBLEM_EXAMPLES = 3;

export class RulesTranslator implements LineTranslator {
  readonly type = 'lines';
  /** The year used for timestamps without one when neither --year nor the file gave it (else undefined). */
  readonly assumedYear: number | undefined;

  private currentInstance: string | null = null;
  private readonly noTime: TranslatorProblem;
  private readonly noInstance: TranslatorProblem;
  private readonly rejectedExamples = new Map<Rule, TranslatorProblem>();
  /** The problem noted on the line translated last, if any (whyUnmapped). */
  private lastProblem: TranslatorProblem | null = null;

  constructor(
    readonly path: string,
    private readonly rules: readonly Rule[],
    private readonly time: TimeFormat,
    /** Where the timestamp is; null: it starts the line. */
    private readonly timeRegex: UserRegex | null,
    private readonly timeGroup: string | number,
    private readonly instanceRule: InstanceRule | null,
    assumedYear: number | undefined,
    /** The `header:` regex: matched once per line, the rules read what follows it. */
    private readonly header: UserRegex | null = null,
  ) {
    this.assumedYear = assumedYear;
    this.noTime = { reason: `matched a rule but had no timestamp in the format '${time.name}'`, count: 0, examples: [] };
    this.noInstance = { reason: 'matched a rule but had no instance id', count: 0, examples: [] };
  }

  beginFile(): void {
    this.currentInstance = null;
  }

  translateLine(line: string, ctx: LineContext, sink: RecordSink): boolean {
    this.lastProblem = null;
    let mapped = false;
    const instanceRule = this.instanceRule;
    if (instanceRule?.sticky === true) {
      // The id may be on a line no rule maps (a header): look at every line.
      const id = this.instanceId(line, instanceRule);
      if (id !== null && id !== this.currentInstance) {
        this.currentInstance = id;
        sink.instance(id);
        mapped = true;
      }
    }
    let t = NaN;
    let timeChecked = false;
    let h: RegExpExecArray | null = null;
    let message = line;
    if (this.header !== null) {
      h = this.header.re.exec(line);
      if (h === null) return mapped;
      message = line.slice(h.index + h[0].length);
    }
    const rules = this.rules;
    for (let r = 0; r < rules.length; r++) {
      const rule = rules[r] as Rule;
      const text = rule.in === null ? message : h?.groups?.[rule.in] ?? '';
      if (rule.literal !== '' && !text.includes(rule.literal)) continue;
      let m: RegExpExecArray | null = null;
      if (rule.needsGroups) {
        m = rule.regex.re.exec(text);
        if (m === null) continue;
      } else if (!rule.regex.re.test(text)) {
        continue;
      }
      if (rule.kind === 'ignore') {
        rule.count++;
        mapped = true;
        if (rule.continue) continue;
        break;
      }
      const name = rule.name === null ? '' : rule.name.render(m, h);
      let value = rule.constantValue;
      if (rule.valueGroup !== null) {
        value = valueOf(groupValue(m as RegExpExecArray, rule.valueGroup) ?? '');
        value = rule.divisor !== 1 ? value / rule.divisor : value * rule.scale;
      }
      if (name.length === 0 || !Number.isFinite(value)) {
        rule.rejected++;
        this.note(this.rejectedProblem(rule, name), ctx, line);
        continue;
      }
      if (!timeChecked) {
        timeChecked = true;
        t = this.timeOf(line);
        if (Number.isNaN(t)) {
          this.note(this.noTime, ctx, line);
          return mapped;
        }
        if (instanceRule !== null && !instanceRule.sticky) {
          const id = this.instanceId(line, instanceRule);
          if (id === null) {
            this.note(this.noInstance, ctx, line);
            return mapped;
          }
          if (id !== this.currentInstance) {
            this.currentInstance = id;
            sink.instance(id);
          }
        }
      }
      if (rule.kind === 'event') sink.event(t, name);
      else sink.state(t, name, value);
      rule.count++;
      mapped = true;
      if (!rule.continue) break;
    }
    return mapped;
  }

  /** Lines translated per rule, in file order. */
  ruleCounts(): ReadonlyMap<string, number> {
    return new Map(this.rules.map((r) => [r.label, r.count]));
  }

  /** Lines some rule matched that produced nothing, and why: for the translate summary. */
  problems(): readonly TranslatorProblem[] {
    return [this.noTime, this.noInstance, ...this.rejectedExamples.values()].filter((p) => p.count > 0);
  }

  private timeOf(line: string): number {
    const format = this.time;
    if (this.timeRegex === null) return format.parse(line, 0);
    const m = this.timeRegex.re.exec(line);
    if (m === null) return NaN;
    const text = groupValue(m, this.timeGroup);
    if (text === undefined) return NaN;
    const t = format.parse(text, 0);
    return format.end === text.length ? t : NaN;
  }

  private instanceId(line: string, rule: InstanceRule): string | null {
    if (rule.literal !== '' && !line.includes(rule.literal)) return null;
    const m = rule.regex.re.exec(line);
    if (m === null) return null;
    const id = rule.id.render(m);
    return id.length === 0 ? null : id;
  }

  private rejectedProblem(rule: Rule, name: string): TranslatorProblem {
    let p = this.rejectedExamples.get(rule);
    if (p === undefined) {
      const why = name.length === 0 ? 'an empty name' : `a value that is not a number (group '${String(rule.valueGroup)}')`;
      p = { reason: `matched ${rule.label} but gave ${why}`, count: 0, examples: [] };
      this.rejectedExamples.set(rule, p);
    }
    return p;
  }

  whyUnmapped(): string | null {
    return this.lastProblem?.reason ?? null;
  }

  private note(problem: TranslatorProblem, ctx: LineContext, line: string): void {
    this.lastProblem = problem;
    problem.count++;
    if (problem.examples.length < MAX_PROBLEM_EXAMPLES) problem.examples.push(InputError.format(`'${clip(line)}'`, ctx.file, ctx.line));
  }
}

// ---------------------------------------------------------------------------
// Loading and checking a rules file

const TOP_KEYS = ['timestamp', 'year', 'instance', 'header', 'rules'];
const TIMESTAMP_KEYS = ['format', 'pattern'];
const INSTANCE_KEYS = ['pattern', 'id', 'sticky'];
/**
 * A value group's number: a decimal number, or one with a time unit read in seconds (`850ms` 0.85, Go's `2m3.5s`
 * 123.5: duration.ts), as the template miner reads a token, so the rules `templates -o` writes give its values.
 */
function valueOf(text: string): number {
  const v = parseDecimal(text);
  return v === v ? v : durationSeconds(text);
}

const RULE_KEYS = ['match', 'in', 'event', 'state', 'value', 'scale', 'ignore', 'continue', 'name', 'contains'];

/** Parse and compile a rules file (YAML, or JSON which is YAML too). Throws InputError naming the file and line. */
export function parseRulesTranslator(path: string, text: string, options: RulesOptions = {}): RulesTranslator {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const lineAt = (offset: number | undefined): number | undefined => (offset === undefined ? undefined : lineCounter.linePos(offset).line);
  const first = doc.errors[0];
  if (first !== undefined) {
    throw new InputError(`bad ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${first.message.split('\n')[0]}`, path, lineAt(first.pos[0]));
  }
  const spec: unknown = doc.toJS();
  const lineOf = (...keys: Array<string | number>): number | undefined => lineAt(nodeRange(doc, keys));
  const fail = (message: string, keys: Array<string | number>, hint?: string): never => {
    throw new InputError(message, path, lineOf(...keys), hint);
  };
  if (!isObject(spec)) fail('a rules file is a mapping with timestamp:, rules: and optionally instance:', []);
  const top = spec as Record<string, unknown>;
  checkKeys(top, TOP_KEYS, 'the rules file', [], fail);

  // timestamp: a format name, or { format, pattern }
  const ts = top.timestamp;
  if (ts === undefined) fail("missing 'timestamp:' (a format such as log4j, iso8601, syslog, epoch-ms, or { format:, pattern: })", []);
  const tsSpec = typeof ts === 'string' ? { format: ts } : ts;
  if (!isObject(tsSpec)) fail("'timestamp:' is a format name or { format:, pattern: }", ['timestamp']);
  const tsObj = tsSpec as Record<string, unknown>;
  if (typeof ts !== 'string') checkKeys(tsObj, TIMESTAMP_KEYS, 'timestamp', ['timestamp'], fail);
  const formatName = tsObj.format;
  if (typeof formatName !== 'string') fail("'timestamp.format' must be a format name or format string", ['timestamp']);
  let year = options.year;
  if (year === undefined && top.year !== undefined) {
    if (!Number.isInteger(top.year)) fail("'year' must be a whole number such as 2026", ['year']);
    year = top.year as number;
  }
  const fallbackYear = new Date().getUTCFullYear();
  let time: TimeFormat;
  try {
    time = makeTimeFormat(formatName as string, { year: year ?? fallbackYear });
  } catch (err) {
    return fail(errorMessage(err), typeof ts === 'string' ? ['timestamp'] : ['timestamp', 'format']);
  }
  let timeRegex: UserRegex | null = null;
  let timeGroup: string | number = 0;
  if (tsObj.pattern !== undefined) {
    timeRegex = regexAt(tsObj.pattern, 'timestamp.pattern', ['timestamp', 'pattern'], fail);
    timeGroup = timeRegex.names.has('ts') ? 'ts' : timeRegex.count >= 1 ? 1 : 0;
  }

  // instance: { pattern, id?, sticky? }
  let instanceRule: InstanceRule | null = null;
  if (top.instance !== undefined) {
    const inst = top.instance;
    if (!isObject(inst)) fail("'instance:' is { pattern:, id:, sticky: }", ['instance']);
    const io = inst as Record<string, unknown>;
    checkKeys(io, INSTANCE_KEYS, 'instance', ['instance'], fail);
    const regex = regexAt(io.pattern, 'instance.pattern', ['instance', 'pattern'], fail);
    const idText = io.id ?? (regex.names.has('id') ? '${id}' : regex.count >= 1 ? '${1}' : null);
    if (idText === null) fail("'instance.pattern' needs a group for the id, e.g. 'req=(?<id>\\w+)'", ['instance', 'pattern']);
    if (typeof idText !== 'string') fail("'instance.id' must be a template such as 'req-${id}'", ['instance', 'id']);
    if (io.sticky !== undefined && typeof io.sticky !== 'boolean') fail("'instance.sticky' must be true or false", ['instance', 'sticky']);
    let id: Template;
    try {
      id = new Template(idText as string, regex);
    } catch (err) {
      return fail(`instance.id ${errorMessage(err)}`, ['instance', 'id']);
    }
    instanceRule = { regex, literal: regex.literal, id, sticky: io.sticky === true };
  }

  // header: a regex matched once per line; the rules read what follows it
  const header = top.header === undefined ? null : regexAt(top.header, 'header', ['header'], fail);

  // rules: [...]
  const list = top.rules;
  if (!Array.isArray(list) || list.length === 0) {
    fail("missing 'rules:' (a list of { match:, event: } or { match:, state:, value: })", Array.isArray(list) ? ['rules'] : []);
  }
  const rules = (list as unknown[]).flatMap((item, i) => compileRules(item, i, header, fail));
  return new RulesTranslator(path, rules, time, timeRegex, timeGroup, instanceRule,
    time.needsYear && year === undefined ? fallbackYear : undefined, header);
}

type Fail = (message: string, keys: Array<string | number>, hint?: string) => never;

/**
 * One rule of the file as the rules it stands for: a rule with both `event:`
 * and `state:` is an event rule that lets the line go on (`continue`) followed
 * by the state rule with the same regex and the rule's own `continue` — one
 * match, both records, each counted under its own label.
 */
function compileRules(item: unknown, i: number, header: UserRegex | null, fail: Fail): Rule[] {
  if (!isObject(item)) return [compileRule(item, i, header, fail)];
  const spec = item as Record<string, unknown>;
  if (spec.event === undefined || spec.event === false || spec.state === undefined || spec.state === false) return [compileRule(item, i, header, fail)];
  if (spec.ignore !== undefined && spec.ignore !== false) compileRule(item, i, header, fail); // the one-kind error
  const { state: _s, value: _v, scale: _k, ...eventSpec } = spec;
  const { event: _e, ...stateSpec } = spec;
  const label = typeof spec.name === 'string' ? spec.name : undefined;
  return [
    compileRule({ ...eventSpec, continue: true, ...(label !== undefined ? { name: `${label} (event)` } : {}) }, i, header, fail),
    compileRule({ ...stateSpec, ...(label !== undefined ? { name: `${label} (state)` } : {}) }, i, header, fail),
  ];
}

function compileRule(item: unknown, i: number, header: UserRegex | null, fail: Fail): Rule {
  const where = `rule ${i + 1}`;
  const keys = ['rules', i];
  if (!isObject(item)) fail(`${where}: a rule is { match:, event: } or { match:, state:, value: } or { match:, ignore: true }`, keys);
  const spec = item as Record<string, unknown>;
  checkKeys(spec, RULE_KEYS, where, keys, fail);
  const kinds = (['event', 'state', 'ignore'] as const).filter((k) => spec[k] !== undefined && spec[k] !== false);
  if (kinds.length !== 1) fail(`${where}: give event:, state: (or both), or ignore: true`, keys);
  const kind = kinds[0] as RuleKind;
  const regex = regexAt(spec.match, `${where}: match`, [...keys, 'match'], fail);
  if (spec.contains !== undefined && typeof spec.contains !== 'string') fail(`${where}: 'contains' must be text`, [...keys, 'contains']);
  const literal = typeof spec.contains === 'string' ? spec.contains : regex.literal;
  let into: string | null = null;
  if (spec.in !== undefined) {
    if (header === null) fail(`${where}: 'in' names a group of the header: regex, and the file has no header:`, [...keys, 'in']);
    if (typeof spec.in !== 'string' || !(header as UserRegex).names.has(spec.in)) {
      const known = [...(header as UserRegex).names].map((n) => `'${n}'`).join(', ');
      fail(`${where}: 'in' must name a group of the header: regex (${known === '' ? 'it has no named groups' : `it has ${known}`})`, [...keys, 'in']);
    }
    into = spec.in as string;
  }

  let name: Template | null = null;
  if (kind !== 'ignore') {
    const text = spec[kind];
    if (typeof text !== 'string' || text.length === 0) fail(`${where}: '${kind}' must be a name (template), e.g. 'Writer_\${worker}_run'`, [...keys, kind]);
    try {
      name = new Template(text as string, regex, header);
    } catch (err) {
      return fail(`${where}: ${kind} '${text as string}' ${errorMessage(err)}`, [...keys, kind]);
    }
  } else if (spec.ignore !== true) {
    fail(`${where}: 'ignore' must be true`, [...keys, 'ignore']);
  }

  let valueGroup: string | number | null = null;
  let constantValue = 0;
  if (kind === 'state') {
    const v = spec.value ?? (regex.names.has('value') ? 'value' : undefined);
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) fail(`${where}: 'value' must be finite`, [...keys, 'value']);
      constantValue = v;
    } else if (typeof v === 'string') {
      try {
        valueGroup = groupRef(v.replace(/^\$\{(.*)\}$/, '$1'), regex);
      } catch (err) {
        return fail(`${where}: value ${errorMessage(err)}`, [...keys, 'value']);
      }
    } else {
      fail(`${where}: a state needs 'value:', the group holding the number (e.g. value: q for (?<q>\\d+)) or a constant`, keys);
    }
  } else if (spec.value !== undefined) {
    fail(`${where}: 'value' belongs to state rules`, [...keys, 'value']);
  }
  let scale = 1;
  if (spec.scale !== undefined) {
    if (kind !== 'state' || typeof spec.scale !== 'number' || !Number.isFinite(spec.scale)) fail(`${where}: 'scale' is a number, for state rules`, [...keys, 'scale']);
    scale = spec.scale as number;
  }
  const inverse = Math.round(1 / scale);
  const divisor = scale < 1 && scale > 0 && Math.abs(1 / inverse - scale) <= Number.EPSILON * scale ? inverse : 1;
  if (valueGroup === null) constantValue = divisor !== 1 ? constantValue / divisor : constantValue * scale;
  if (spec.continue !== undefined && typeof spec.continue !== 'boolean') fail(`${where}: 'continue' must be true or false`, [...keys, 'continue']);
  if (spec.name !== undefined && typeof spec.name !== 'string') fail(`${where}: 'name' must be text`, [...keys, 'name']);

  const label = typeof spec.name === 'string' ? spec.name
    : kind === 'ignore' ? `${where} (ignore /${clip(regex.re.source, 40)}/)` : `${where} (${kind} ${(name as Template).text})`;
  const needsGroups = (name?.usesGroups ?? false) || valueGroup !== null;
  return {
    label, kind, regex, literal, needsGroups, in: into, name, valueGroup, constantValue, scale, divisor,
    continue: spec.continue === true, count: 0, rejected: 0,
  };
}

function regexAt(source: unknown, what: string, keys: Array<string | number>, fail: Fail): UserRegex {
  if (typeof source !== 'string' || source.length === 0) {
    return fail(`${what}: a regex is required (write it in single quotes: '...')`, keys);
  }
  try {
    return compileUserRegex(source);
  } catch (err) {
    return fail(`${what}: ${errorMessage(err)}`, keys);
  }
}

function checkKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string, keys: Array<string | number>, fail: Fail): void {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) fail(`${where}: unknown key '${k}' (expected ${allowed.join(', ')})`, [...keys, k]);
  }
}

/** Start offset of the node at `keys` (the closest existing ancestor), for line numbers. */
function nodeRange(doc: Document, keys: Array<string | number>): number | undefined {
  let node: unknown = doc.contents;
  let offset = (doc.contents as { range?: [number, number, number] } | null)?.range?.[0];
  for (const key of keys) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
      if (pair === undefined) break;
      offset = (pair.key as { range?: [number, number, number] } | null)?.range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof key === 'number') {
      node = node.items[key];
      offset = (node as { range?: [number, number, number] } | null)?.range?.[0] ?? offset;
    } else {
      break;
    }
  }
  return offset;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
