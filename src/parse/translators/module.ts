import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { threadId } from 'node:worker_threads';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { registerTemporaryFile, releaseTemporaryFile } from '../../cleanup.js';
import { InputError, thrownMessage } from '../../errors.js';
import { parseDecimal, parseTimestamp } from '../timestamp.js';
import type { LineContext, RecordSink } from '../records.js';
import type { LineTranslator } from '../translator.js';
import { userCodeRuns, userCodeRunsAsync } from './console.js';

/**
 * The code translator (SPEC §1, form 2): a JavaScript module whose default
 * export (or `translate` export) is called once per raw line:
 *
 *   export default function (line, ctx) {
 *     const m = /Writer (\d+) started/.exec(line);
 *     if (m) ctx.event(line.slice(0, 23), `Writer_${m[1]}_run`);
 *   }
 *
 * `ctx` holds the line's context (file, relativePath, line, className) and the
 * paper's calls: instance(id) (setInstance), event(t, name) (logEventTime),
 * state(t, name, value) (logStateValue). Times are seconds or strings in the
 * record format (decimal seconds, ISO-8601). A line counts as translated when
 * the function called one of them or returned true. Optional exports
 * `beginFile(ctx)` and `endFile(ctx)` run around each raw file.
 */
export type TranslateFunction = (line: string, ctx: TranslateContext) => unknown;

export interface TranslateContext extends LineContext, RecordSink {}

interface ModuleShape {
  translate: TranslateFunction;
  beginFile?: (ctx: TranslateContext) => unknown;
  endFile?: (ctx: TranslateContext) => unknown;
}

export async function loadModuleTranslator(path: string): Promise<LineTranslator> {
  // Its top-level code runs on import: its console output goes to stderr too.
  const mod = await userCodeRunsAsync(() => importTranslatorModule(path));
  const shape = moduleShape(mod);
  if (shape === null) {
    throw new InputError('a translator module must export a function: `export default function (line, ctx) { … }` or `export function translate(line, ctx)`', path);
  }
  return new ModuleTranslator(path, shape, pathToFileURL(resolve(path)).href);
}

/** The module translator that last ran (for errors it throws outside a call: timers). */
let lastActive: { readonly path: string; readonly url: string; file: string } | null = null;

/**
 * An error that escaped to the process ('uncaughtException' from a timer,
 * 'unhandledRejection') as an InputError naming the translator and the file
 * it was translating, when the error comes from the translator module's code
 * (its stack names the module); null otherwise (then it is distalyze's bug).
 */
export function translatorFailureOf(err: unknown): InputError | null {
  if (lastActive === null) return null;
  // A thrown value that is no Error (a string, an object) has no stack to tell: distalyze throws only Errors.
  if (!(err instanceof Error)) return new InputError(`translator ${lastActive.path} failed: ${thrownMessage(err)}`, lastActive.file);
  const stack = err.stack ?? '';
  const compiledTs = /\.m?ts$/.test(lastActive.path) ? `${lastActive.url.replace(/\/[^/]*$/, '/.')}` : null;
  if (!stack.includes(lastActive.url) && !(compiledTs !== null && stack.includes(compiledTs))) return null;
  return new InputError(`translator ${lastActive.path} failed: ${thrownMessage(err)}`, lastActive.file);
}

/** The module translator that last ran and the file it read, or null. */
export function translatorInCharge(): { readonly path: string; readonly file: string } | null {
  return lastActive;
}

/** What process.exit does while a translator runs: throws, so the reader reports it as the translator's failure at its line. */
function exitFromTranslator(code?: number | string | null): never {
  throw new Error(`it called process.exit(${code ?? ''})`);
}

class ModuleTranslator implements LineTranslator {
  readonly type = 'lines';
  /** The sink of the line being translated, and whether the module called it. */
  private sink: RecordSink | null = null;
  private called = false;
  /** One context object, updated per line: no allocation per line. */
  private readonly ctx: { -readonly [K in keyof LineContext]: LineContext[K] } & RecordSink;

  /** The first rejection of a promise the module returned, with where it came from: thrown at the next call. */
  private rejected: { readonly message: string; readonly file: string; readonly line: number } | null = null;

  constructor(readonly path: string, private readonly shape: ModuleShape, private readonly url: string) {
    const self = this;
    this.ctx = {
      file: '', relativePath: '', line: 0, className: 'good',
      instance(id: string, kind?: string): void {
        if (typeof id !== 'string' || id.length === 0) throw new Error(`instance(id) needs a non-empty string id, got ${show(id)}`);
        if (kind !== undefined && (typeof kind !== 'string' || kind.length === 0)) throw new Error(`instance(id, kind) needs a non-empty string kind, got ${show(kind)}`);
        if (kind === undefined) self.target().instance(id);
        else self.target().instance(id, kind);
      },
      event(t: number | string, name: string): void {
        const time = seconds(t, 'event');
        checkName(name, 'event');
        self.target().event(time, name);
      },
      state(t: number | string, name: string, value: number | string): void {
        const time = seconds(t, 'state');
        checkName(name, 'state');
        self.target().state(time, name, numeric(value, name));
      },
    };
  }

  beginFile(ctx: Omit<LineContext, 'line'>, sink: RecordSink): void {
    lastActive = { path: this.path, url: this.url, file: ctx.file };
    this.throwRejected();
    if (this.shape.beginFile === undefined) return;
    this.enter({ ...ctx, line: 0 }, sink);
    this.run(() => this.guarded(() => this.shape.beginFile?.(this.ctx)), 'beginFile', ctx.file);
  }

  translateLine(line: string, ctx: LineContext, sink: RecordSink): boolean {
    if (this.rejected !== null) this.throwRejected();
    this.enter(ctx, sink);
    const result = this.guarded(() => this.shape.translate(line, this.ctx));
    if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') this.watch(result as PromiseLike<unknown>, ctx.file, ctx.line);
    return this.called || result === true;
  }

  endFile(ctx: Omit<LineContext, 'line'>, sink: RecordSink): void {
    this.throwRejected();
    if (this.shape.endFile === undefined) return;
    this.enter({ ...ctx, line: 0 }, sink);
    this.run(() => this.guarded(() => this.shape.endFile?.(this.ctx)), 'endFile', ctx.file);
  }

  /** Run the module's code with process.exit turned into an error (see exitFromTranslator), its console output on stderr (console.ts). */
  private guarded<T>(fn: () => T): T {
    const exit = process.exit;
    process.exit = exitFromTranslator;
    try {
      return userCodeRuns(fn);
    } finally {
      process.exit = exit;
    }
  }

  /**
   * An async translator (a promise returned): its rejection is this line's
   * failure, reported at the next line or the end of the file, never an
   * unhandled rejection. (Records it gives after an `await` land wherever the
   * reader is by then: translators should be synchronous.)
   */
  private watch(result: PromiseLike<unknown>, file: string, line: number): void {
    result.then(undefined, (err: unknown) => {
      this.rejected ??= { message: thrownMessage(err), file, line };
    });
  }

  private throwRejected(): void {
    const r = this.rejected;
    if (r === null) return;
    this.rejected = null;
    throw new InputError(`translator ${this.path} failed: ${r.message}`, r.file, r.line);
  }

  private enter(ctx: LineContext, sink: RecordSink): void {
    this.ctx.file = ctx.file;
    this.ctx.relativePath = ctx.relativePath;
    this.ctx.line = ctx.line;
    this.ctx.className = ctx.className;
    this.sink = sink;
    this.called = false;
  }

  private target(): RecordSink {
    this.called = true;
    return this.sink as RecordSink;
  }

  /** beginFile/endFile run outside the reader's per-line wrapping: place their errors here. */
  private run(fn: () => unknown, what: string, file: string): void {
    try {
      fn();
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new InputError(`translator ${this.path} failed in ${what}: ${thrownMessage(err)}`, file);
    }
  }
}

function seconds(t: unknown, what: string): number {
  if (typeof t === 'number' && Number.isFinite(t)) return t;
  if (typeof t === 'string') {
    const s = parseTimestamp(t);
    if (!Number.isNaN(s)) return s;
  }
  throw new Error(`${what} time ${show(t)} is neither seconds (a finite number) nor a timestamp string (decimal seconds or ISO-8601)`);
}

function checkName(name: unknown, what: string): void {
  if (typeof name !== 'string' || name.length === 0) throw new Error(`${what} name must be a non-empty string, got ${show(name)}`);
}

function numeric(value: unknown, name: string): number {
  const v = typeof value === 'number' ? value : typeof value === 'string' ? parseDecimal(value) : NaN;
  if (!Number.isFinite(v)) throw new Error(`state '${name}' value ${show(value)} is not a finite number`);
  return v;
}

function show(x: unknown): string {
  if (typeof x === 'string') return `'${x.length > 40 ? `${x.slice(0, 40)}…` : x}'`;
  return typeof x === 'object' && x !== null ? Object.prototype.toString.call(x) : String(x);
}

function moduleShape(mod: Record<string, unknown>): ModuleShape | null {
  // ESM default export; a CommonJS module's exports arrive as `default`.
  const def = mod.default as Record<string, unknown> | ((...a: unknown[]) => unknown) | undefined;
  const holder: Record<string, unknown> = typeof def === 'object' && def !== null ? { ...def, ...mod } : mod;
  const translate = typeof def === 'function' ? def : holder.translate;
  if (typeof translate !== 'function') return null;
  const hook = (name: string): ((ctx: TranslateContext) => unknown) | undefined =>
    typeof holder[name] === 'function' ? (holder[name] as (ctx: TranslateContext) => unknown) : undefined;
  return { translate: translate as TranslateFunction, beginFile: hook('beginFile'), endFile: hook('endFile') };
}

/**
 * Import a translator module. TypeScript (`.ts`, `.mts`) is transpiled with
 * the `typescript` package found next to the translator (the user's project) or
 * next to distalyze, into a hidden `.mjs` beside the source (so its relative
 * imports still resolve) that is removed right after loading. Types are only
 * stripped, never checked. Without the package, Node's own type stripping is
 * tried (Node ≥ 22.6), else the error says to compile the module to `.mjs`.
 */
async function importTranslatorModule(path: string): Promise<Record<string, unknown>> {
  const absolute = resolve(path);
  if (/\.m?ts$/.test(path)) return importTypeScript(path, absolute);
  try {
    return (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
  } catch (err) {
    throw new InputError(`cannot load translator module: ${loadFailure(err)}`, path);
  }
}

interface TypeScriptApi {
  transpileModule(input: string, options: { compilerOptions: Record<string, unknown>; fileName: string; reportDiagnostics?: boolean }): { outputText: string; diagnostics?: Array<{ messageText: unknown; start?: number }> };
  ModuleKind: { ESNext: number };
  ScriptTarget: { ES2022: number };
}

async function importTypeScript(path: string, absolute: string): Promise<Record<string, unknown>> {
  let source: string;
  try {
    source = await readFile(absolute, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read translator module: ${loadFailure(err)}`, path);
  }
  const ts = await findTypeScript(absolute);
  if (ts === null) {
    try {
      return (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
    } catch {
      throw new InputError('cannot load a TypeScript translator: the `typescript` package was not found', path,
        undefined, 'install it next to the translator (npm i -D typescript), or compile the translator to .mjs');
    }
  }
  const out = ts.transpileModule(source, {
    fileName: basename(absolute),
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  });
  const syntax = out.diagnostics?.[0];
  if (syntax !== undefined) {
    const line = syntax.start === undefined ? undefined : source.slice(0, syntax.start).split('\n').length;
    const text = typeof syntax.messageText === 'string' ? syntax.messageText : String((syntax.messageText as { messageText?: unknown }).messageText);
    throw new InputError(`TypeScript syntax error: ${text}`, path, line);
  }
  // One name per process, thread and load: parsing workers compile at the same time, and one must not import or delete another's file.
  const compiled = join(dirname(absolute), `.${basename(absolute).replace(/\.m?ts$/, '')}.distalyze-${process.pid}-${threadId}-${randomBytes(4).toString('hex')}.mjs`);
  // (Registered: a module whose top level never returns is killed with the file there; cli/supervise.ts removes it.)
  registerTemporaryFile(compiled);
  try {
    await writeFile(compiled, out.outputText);
  } catch (err) {
    releaseTemporaryFile(compiled);
    throw new InputError(`cannot write the compiled translator next to it: ${loadFailure(err)}`, path, undefined, 'compile the translator to .mjs yourself');
  }
  try {
    return (await import(pathToFileURL(compiled).href)) as Record<string, unknown>;
  } catch (err) {
    throw new InputError(`cannot load translator module: ${loadFailure(err)}`, path);
  } finally {
    await rm(compiled, { force: true });
    releaseTemporaryFile(compiled);
  }
}

async function findTypeScript(absolute: string): Promise<TypeScriptApi | null> {
  for (const from of [absolute, import.meta.url]) {
    try {
      const resolved = createRequire(from).resolve('typescript');
      const mod = (await import(pathToFileURL(resolved).href)) as { default?: TypeScriptApi } & TypeScriptApi;
      return mod.default ?? mod;
    } catch {
      // not installed there
    }
  }
  return null;
}

function loadFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ERR_MODULE_NOT_FOUND') return (err as Error).message.split('\n')[0] ?? 'not found';
  if (err instanceof SyntaxError) return `syntax error: ${err.message}`;
  return err instanceof Error ? err.message.split('\n')[0] ?? String(err) : String(err);
}
