/**
 * The library's options checked as the CLI checks its flags: every option of
 * `distalyze()` (and `readClasses()`'s) by type and range, an InputError
 * naming the option as the caller spelled it (`alpha: must be a number
 * between 0 and 1 (exclusive), got 'x'`). A JavaScript caller has no compiler
 * to catch `alpha: '0.01'` or a misspelt option; unchecked, they gave a
 * wrong verdict, or a TypeError from deep inside.
 */
import { MAX_JOBS } from './cli/options.js';
import { InputError } from './errors.js';
import type { DistalyzeOptions } from './index.js';
import type { ReadOptions } from './read.js';

type Check = (value: unknown, name: string) => void;

function fail(name: string, what: string, value: unknown): never {
  throw new InputError(`${name}: ${what}, got ${shown(value)}`);
}

/** A value as the caller would write it, kept short. */
function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return String(value);
}

const string: Check = (v, name) => { if (typeof v !== 'string' || v === '') fail(name, 'must be a non-empty string', v); };
const boolean: Check = (v, name) => { if (typeof v !== 'boolean') fail(name, 'must be true or false', v); };
const probability: Check = (v, name) => { if (typeof v !== 'number' || !(v > 0 && v < 1)) fail(name, 'must be a number between 0 and 1 (exclusive)', v); };
const fraction: Check = (v, name) => { if (typeof v !== 'number' || !(v >= 0 && v <= 1)) fail(name, 'must be a number from 0 to 1', v); };
const wholeFrom = (min: number, max = Number.MAX_SAFE_INTEGER): Check => (v, name) => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    fail(name, max === Number.MAX_SAFE_INTEGER ? `must be a whole number ≥ ${min}` : `must be a whole number from ${min} to ${max}`, v);
  }
};
const oneOf = (...allowed: readonly string[]): Check => (v, name) => {
  if (typeof v !== 'string' || !allowed.includes(v)) fail(name, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')}`, v);
};

const translator: Check = (v, name) => {
  if (typeof v === 'string' && v !== '') return;
  const t = v as { type?: unknown; path?: unknown; translateLine?: unknown; command?: unknown } | null;
  const shaped = typeof t === 'object' && t !== null && typeof t.path === 'string'
    && ((t.type === 'lines' && typeof t.translateLine === 'function') || (t.type === 'executable' && typeof t.command === 'function'));
  if (!shaped) fail(name, "must be a path (a string) or a Translator ({ type: 'lines', path, translateLine } or { type: 'executable', path, command })", v);
};

const weight: Check = (v, name) => {
  const w = v as { mode?: unknown; half?: unknown } | null;
  const ok = typeof w === 'object' && w !== null
    && (w.mode === 'none' || w.mode === 'auto' || (w.mode === 'exp' && typeof w.half === 'number' && w.half > 0 && Number.isFinite(w.half)));
  if (!ok) fail(name, "must be { mode: 'none' }, { mode: 'auto' } or { mode: 'exp', half } with half > 0", v);
};

const HOOKS = ['onFiles', 'onBytes', 'onFileDone', 'onNote', 'onSecondPass', 'onEndsPass', 'onEndsPassDone', 'onMiningPass', 'onMiningPassDone', 'onStage'];

const hooks: Check = (v, name) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(name, `must be an object of callbacks (${HOOKS.join(', ')})`, v);
  for (const [key, f] of Object.entries(v)) {
    if (!HOOKS.includes(key)) fail(`${name}.${key}`, `is not a hook (hooks are ${HOOKS.join(', ')})`, f);
    if (f !== undefined && typeof f !== 'function') fail(`${name}.${key}`, 'must be a function', f);
  }
};

/** Every option readClasses takes: a new option without a check here does not compile. */
const READ_CHECKS: Readonly<Record<keyof ReadOptions, Check>> = {
  translator,
  timestamp: string,
  instancePattern: string,
  year: wholeFrom(1970, 9999),
  strict: boolean,
  // More threads than this cost memory (tens of MB each) and gain nothing: as --jobs.
  jobs: wholeFrom(1, MAX_JOBS),
  twoPass: boolean,
  compressedEnds: boolean,
  metrics: (v, name) => {
    if (!Array.isArray(v)) fail(name, 'must be an array of paths', v);
    v.forEach((p, i) => string(p, `${name}[${i}]`));
  },
  metricsEntity: string,
  metricsTime: string,
  metricsBand: (v, name) => { if (v !== 'auto' && (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v))) fail(name, "must be 'auto' or a number ≥ 0", v); },
  metricsAlign: oneOf('end', 'start'),
  alpha: probability,
  metric: string,
  eventMetric: string,
  stateMetric: string,
  weight,
  clickhouse: (v, name) => {
    const c = v as { url?: unknown; table?: unknown; mapping?: unknown; columns?: unknown } | null;
    if (typeof c !== 'object' || c === null || Array.isArray(c)) fail(name, 'must be an object { url, table, mapping?, columns? }', v);
    string(c.url, `${name}.url`);
    string(c.table, `${name}.table`);
    if (c.mapping !== undefined) oneOf('records', 'otel_traces', 'otel_logs')(c.mapping, `${name}.mapping`);
    if (c.columns !== undefined) string(c.columns, `${name}.columns`);
  },
};

/** Every option distalyze() takes. */
const CHECKS: Readonly<Record<keyof DistalyzeOptions, Check>> = {
  ...READ_CHECKS,
  good: string,
  bad: string,
  correction: oneOf('bonferroni', 'holm', 'bh', 'none'),
  kinds: oneOf('on', 'combine', 'off'),
  inflation: oneOf('auto', 'off'),
  balance: fraction,
  top: wholeFrom(1),
  maxNodes: wholeFrom(1),
  dnClass: oneOf('good', 'bad', 'both'),
  minSplit: wholeFrom(2),
  splitAlpha: probability,
  splitTest: oneOf('rank', 'f-splits', 'f-predictors'),
  dnSample: wholeFrom(2),
  seed: wholeFrom(0),
  distributions: boolean,
  hooks,
};

/** readClasses's options (those it knows; the CLI passes its own besides). An option given as undefined is not given. */
export function checkReadOptions(options: unknown): asserts options is ReadOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) fail('options', 'must be an object', options);
  const given = options as Record<string, unknown>;
  for (const [key, check] of Object.entries(READ_CHECKS)) if (given[key] !== undefined) check(given[key], key);
  if (given.metric !== undefined && (given.eventMetric !== undefined || given.stateMetric !== undefined)) {
    throw new InputError('metric sets both kinds; give it alone, or eventMetric / stateMetric instead');
  }
}

/** distalyze()'s options: an object with good and bad, every option known and of its type and range. */
export function checkDistalyzeOptions(options: unknown): asserts options is DistalyzeOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail('distalyze(options)', 'needs an object such as { good: \'good/\', bad: \'bad/\' }', options);
  }
  const given = options as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(CHECKS, key)) throw new InputError(`unknown option '${key}'`);
  }
  for (const required of ['good', 'bad'] as const) if (given[required] === undefined) fail(required, 'is required: a directory or a file of logs', undefined);
  for (const [key, check] of Object.entries(CHECKS)) if (given[key] !== undefined) check(given[key], key);
}
