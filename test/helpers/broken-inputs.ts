/**
 * Builders for the robustness tests (test/robust.test.ts, test/property.test.ts):
 * a small valid good/bad set in a temp directory, the ways a log can be broken,
 * and ways to run the real executable that test/helpers/run.ts does not offer
 * (as another user, with its stdout closed early).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, type RunResult } from './run.js';

export const BIN = resolve(ROOT, 'bin/distalyze.js');

/** One instance of the small valid set: Start, Work (n times), End, and a state `queue`. */
export function validInstance(i: number, bad: boolean): string {
  const t0 = 1000 + 10 * i;
  const end = (bad ? 2 : 1) + 0.05 * ((i * 7) % 5);
  const at = (dt: number): string => (t0 + dt).toFixed(3);
  const lines = [
    `# instance ${i} (${bad ? 'bad' : 'good'})`,
    `E\t${at(0)}\tStart`,
    `S\t${at(0.1)}\tqueue\t${(bad ? 9 : 3) + ((i * 3) % 4)}`,
    `E\t${at(end / 4)}\tWork`,
    `E\t${at(end / 2)}\tWork`,
    `S\t${at(end / 2 + 0.01)}\tqueue\t${(bad ? 11 : 4) + ((i * 5) % 3)}`,
    `E\t${at((3 * end) / 4)}\tWork`,
    `E\t${at(end)}\tEnd`,
  ];
  return `${lines.join('\n')}\n`;
}

/** A temp directory with a valid `good/` and `bad/` class (4 instances each) and an `out/` directory for reports. */
export interface Sandbox {
  readonly root: string;
  readonly good: string;
  readonly bad: string;
  /** Where tests send --json/--tsv/--dot/--html; must stay empty after a failed run. */
  readonly out: string;
  /** Absolute path of `rel` below root. */
  path(...rel: string[]): string;
  /** Write a file (creating its directory); returns its absolute path. */
  write(rel: string, content: string | Uint8Array): string;
  /** A copy of the valid class `from` under a new directory `rel`, with files replaced or added. */
  classWith(rel: string, from: 'good' | 'bad', files: Record<string, string | Uint8Array>): string;
  /** --json/--tsv/--dot/--html options pointing into `out/`. */
  outputArgs(): string[];
  /** Everything in `out/`, hidden temp files included. */
  outputs(): string[];
  cleanup(): void;
}

export const INSTANCES = 4;

export function makeSandbox(prefix = 'distalyze-robust-'): Sandbox {
  const root = mkdtempSync(join(tmpdir(), prefix));
  // World-readable, so the executable can be run as an unprivileged user.
  chmodSync(root, 0o755);
  const path = (...rel: string[]): string => join(root, ...rel);
  const write = (rel: string, content: string | Uint8Array): string => {
    const p = path(rel);
    mkdirSync(dirname(p), { recursive: true, mode: 0o755 });
    writeFileSync(p, content, { mode: 0o644 });
    return p;
  };
  const files = (bad: boolean): Record<string, string> =>
    Object.fromEntries(Array.from({ length: INSTANCES }, (_, i) => [`run-${i + 1}.dlog`, validInstance(i + 1, bad)]));
  for (const [name, text] of Object.entries(files(false))) write(`good/${name}`, text);
  for (const [name, text] of Object.entries(files(true))) write(`bad/${name}`, text);
  mkdirSync(path('out'));
  chmodSync(path('out'), 0o777); // writable by the unprivileged user too
  return {
    root,
    good: path('good'),
    bad: path('bad'),
    out: path('out'),
    path,
    write,
    classWith(rel, from, replaced) {
      for (const [name, text] of Object.entries({ ...files(from === 'bad'), ...replaced })) write(`${rel}/${name}`, text);
      return path(rel);
    },
    outputArgs: () => ['--json', path('out', 'r.json'), '--tsv', path('out', 'r.tsv'), '--dot', path('out', 'r.dot'), '--html', path('out', 'r.html')],
    outputs: () => readdirSync(path('out')).sort(),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

// --- Ways to break a log -------------------------------------------------

export const gzip = (text: string): Uint8Array => gzipSync(text);

/** A gzip stream cut off in the middle (the header is intact). */
export function truncatedGzip(text: string): Uint8Array {
  const full = gzipSync(text);
  return full.subarray(0, Math.floor(full.length / 2));
}

/** A gzip header followed by bytes that are no deflate stream. */
export function corruptGzip(text: string): Uint8Array {
  const full = Buffer.from(gzipSync(text));
  full.fill(0xff, 10, full.length - 8);
  return full;
}

/** Bytes with a UTF-8 byte order mark in front. */
export const withBom = (text: string): string => `\uFEFF${text}`;

/** Every line ending as CRLF. */
export const withCrlf = (text: string): string => text.replace(/\n/g, '\r\n');

/** `text` with a comment line of `length` characters inserted after its second line. */
export function withLongLine(text: string, length: number): string {
  const lines = text.split('\n');
  lines.splice(2, 0, `# ${'x'.repeat(length - 2)}`);
  return lines.join('\n');
}

/** `text` with record `line` (1-based) replaced. */
export function replaceLine(text: string, line: number, replacement: string): string {
  const lines = text.split('\n');
  lines[line - 1] = replacement;
  return lines.join('\n');
}

/** Control characters and markup that a log may carry in a name. */
export const HOSTILE_NAMES = {
  tab: 'Tab\there',
  esc: 'Esc\u001b[31mred\u0007bell\rcr',
  c1: 'Csi\u009b2J\u0085next\u2028line',
  script: '<script>alert(1)</script>',
  quotes: 'quo"te\\n \\l {x} -> y; }',
  bidi: 'bidi \u202eevil\u202c \u2066iso\u2069',
} as const;

/**
 * Characters that must never reach a terminal from a log: C0 but LF, DEL, C1,
 * U+2028/9 (line breaks to some terminals) and the bidirectional overrides.
 */
// eslint-disable-next-line no-control-regex
export const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Control characters that an output file's own syntax never needs (C0 but TAB and LF, DEL, C1). */
// eslint-disable-next-line no-control-regex
export const CONTROL_IN_FILES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

// --- Ways to run the executable --------------------------------------------

/** The unprivileged user to drop to when the tests run as root (root reads a chmod-000 file). */
export const NOBODY = 65534;

/** The built executable as another user (only root can do this); null when the system refuses. */
export function runBinaryAs(uid: number, args: readonly string[]): RunResult | null {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT, encoding: 'utf8', uid, gid: uid, env: { ...process.env, CI: 'true' }, maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error !== undefined) return null;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The built executable with its standard output closed before it writes
 * anything, as `distalyze … | head -0` would: every write fails with EPIPE.
 */
export function runBinaryStdoutClosed(args: readonly string[]): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout: '', stderr }));
  });
}

/** A shell pipeline `distalyze ARGS | head -N`: distalyze's stderr and exit code (bash's PIPESTATUS). */
export function runBinaryIntoHead(args: readonly string[], lines = 1, mergeStderr = false): RunResult {
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const script = mergeStderr
    ? `"${process.execPath}" "${BIN}" ${quoted} 2>&1 | head -${lines}; echo "exit=\${PIPESTATUS[0]}" >&2`
    : `"${process.execPath}" "${BIN}" ${quoted} | head -${lines}; echo "exit=\${PIPESTATUS[0]}" >&2`;
  const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  const m = /exit=(\d+)\n$/.exec(r.stderr);
  return { code: m === null ? -1 : Number(m[1]), stdout: r.stdout, stderr: r.stderr.replace(/exit=\d+\n$/, '') };
}

/** A bash command line running the built executable with ARGS, then `tail`: e.g. `>> log.txt`. */
export function runBinaryShell(args: readonly string[], tail: string): RunResult {
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const r = spawnSync('bash', ['-c', `"${process.execPath}" "${BIN}" ${quoted} ${tail}`], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The built executable, sent `signal` once `ready()` holds (polled every 20 ms,
 * for at most 20 s), and its stderr. `code` is the status a shell sees (`$?`):
 * the exit code, or 128 + the number of the signal that ended it.
 */
export function runBinaryThenSignal(args: readonly string[], ready: () => boolean, signal: NodeJS.Signals, env: Readonly<Record<string, string>> = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, CI: 'true', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    const started = Date.now();
    const poll = setInterval(() => {
      if (ready() || Date.now() - started > 20_000) {
        clearInterval(poll);
        child.kill(signal);
      }
    }, 20);
    child.on('error', reject);
    child.on('close', (code, sig) => {
      clearInterval(poll);
      resolvePromise({ code: code ?? (sig === null ? -1 : 128 + osConstants.signals[sig]), stdout, stderr });
    });
  });
}

/** Whether a process with this id exists (and is no zombie). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const r = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
  return r.status === 0 && !r.stdout.trim().startsWith('Z');
}
