/** Read a class through the real reader and collect its records per instance, as text. */
import { listInputFiles } from '../../src/parse/files.js';
import { readClass, type ClassSink, type ReadStats } from '../../src/parse/reader.js';
import type { Translator } from '../../src/parse/translator.js';

/** Records per instance (`E t name`, `S t name value`), following the reader's instance rules. */
export async function recordsByInstance(
  input: string,
  options: { translator?: Translator; strict?: boolean; examples?: number } = {},
): Promise<{ byInstance: Record<string, string[]>; stats: ReadStats }> {
  const byInstance: Record<string, string[]> = {};
  let current = '';
  const push = (r: string): void => { (byInstance[current] ??= []).push(r); };
  const sink: ClassSink = {
    beginFile: (file) => { current = file.relativePath; },
    endFile: () => undefined,
    instance: (id) => { current = id; },
    event: (t, name) => push(`E ${t} ${name}`),
    state: (t, name, value) => push(`S ${t} ${name} ${value}`),
  };
  const stats = await readClass(await listInputFiles(input, 'good'), 'good', sink, {
    ...(options.translator !== undefined ? { translator: options.translator } : {}),
    strict: options.strict ?? false,
    ...(options.examples !== undefined ? { examples: options.examples } : {}),
  });
  return { byInstance, stats };
}
