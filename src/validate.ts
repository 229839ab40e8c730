/**
 * The library's options checked as the CLI checks its flags: every option of
 * `distalyze()` (and `readClasses()`'s) by type and range, an InputError
 * naming the option as the caller spelled it (`alpha: must be a number
 * between 0 and 1 (exclusive), got 'x'`). A JavaScript caller has no compiler
 * to catch `alpha: '0.01'` or a misspelt option; unchecked, they gave a
 * wrong verdict, or a TypeError from deep inside.
 */
import { InputError } from './errors.js';

export type Check = (value: unknown, name: string) => void;

export function fail(name: string, what: string, value: unknown): never {
  throw new InputError(`${name}: ${what}, got ${shown(value)}`);
}

/** A value as the caller would write it, kept short. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return String(value);
}

export const string: Check = (v, name) => { if (typeof v !== 'string' || v === '') fail(name, 'must be a non-empty string', v); };
export const boolean: Check = (v, name) => { if (typeof v !== 'boolean') fail(name, 'must be true or false', v); };
export const probability: Check = (v, name) => { if (typeof v !== 'number' || !(v > 0 && v < 1)) fail(name, 'must be a number between 0 and 1 (exclusive)', v); };
export const fraction: Check = (v, name) => { if (typeof v !== 'number' || !(v >= 0 && v <= 1)) fail(name, 'must be a number from 0 to 1', v); };
export const wholeFrom = (min: number, max = Number.MAX_SAFE_INTEGER): Check => (v, name) => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    fail(name, max === Number.MAX_SAFE_INTEGER ? `must be a whole number ≥ ${min}` : `must be a whole number from ${min} to ${max}`, v);
  }
};
export const oneOf = (...allowed: readonly string[]): Check => (v, name) => {
  if (typeof v !== 'string' || !allowed.includes(v)) fail(name, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')}`, v);
};

export const translator: Check = (v, name) => {
  if (typeof v === 'string' && v !== '') return;
  const t = v as { type?: unknown; path?: unknown; translateLine?: unknown; command?: unknown } | null;
  const shaped = typeof t === 'object' && t !== null && typeof t.path === 'string'
    && ((t.type === 'lines' && typeof t.translateLine === 'function') || (t.type === 'executable' && typeof t.command === 'function'));
  if (!shaped) fail(name, "must be a path (a string) or a Translator ({ type: 'lines', path, translateLine } or { type: 'executable', path, command })", v);
};

export const weight: Check = (v, name) => {
  const w = v as { mode?: unknown; half?: unknown } | null;
  const ok = typeof w === 'object' && w !== null
    && (w.mode === 'none' || w.mode === 'auto' || (w.mode === 'exp' && typeof w.half === 'number' && w.half > 0 && Number.isFinite(w.half)));
  if (!ok) fail(name, "must be { mode: 'none' }, { mode: 'auto' } or { mode: 'exp', half } with half > 0", v);
};

const HOOKS = ['onFiles', 'onBytes', 'onFileDone', 'onNote', 'onPass', 'onPassDone', 'onSecondPass', 'onEndsPass', 'onEndsPassDone', 'onMiningPass', 'onMiningPassDone', 'onStage'];

export const hooks: Check = (v, name) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(name, `must be an object of callbacks (${HOOKS.join(', ')})`, v);
  for (const [key, f] of Object.entries(v)) {
    if (!HOOKS.includes(key)) fail(`${name}.${key}`, `is not a hook (hooks are ${HOOKS.join(', ')})`, f);
    if (f !== undefined && typeof f !== 'function') fail(`${name}.${key}`, 'must be a function', f);
  }
};

/**
 * Parsing workers at most (--jobs and the library's jobs): each costs a thread and its memory (tens of MB),
 * and parsing stops scaling long before this on any machine we measured.
 */
export const MAX_JOBS = 64;

/** Check each given option (not undefined) with its check. */
export function checkEach(given: Readonly<Record<string, unknown>>, checks: Readonly<Record<string, Check>>, prefix = ''): void {
  for (const [key, check] of Object.entries(checks)) if (given[key] !== undefined) check(given[key], `${prefix}${key}`);
}
