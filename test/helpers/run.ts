/** Run the CLI in-process (main) or as the built binary, capturing its output. */
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function sink(): Writable & { text: string } {
  const w = new Writable({
    write(chunk, _enc, done) {
      w.text += String(chunk);
      done();
    },
  }) as Writable & { text: string };
  w.text = '';
  return w;
}

export async function run(...args: string[]): Promise<RunResult> {
  const stdout = sink();
  const stderr = sink();
  const code = await main(args, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The built executable (npm test builds first), for what needs a real process: workers, stdin, exit codes. */
export function runBinary(args: readonly string[], input?: string): RunResult {
  const r = spawnSync(process.execPath, [resolve(ROOT, 'bin/distalyze.js'), ...args], {
    cwd: ROOT, encoding: 'utf8', input, env: { ...process.env, CI: 'true' }, maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
