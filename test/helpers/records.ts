/** Read a class through the real reader and collect its records per instance, as text. */
import { listInputFiles } from '../../src/parse/files.js';
import { readClass, type ClassSink, type ReadStats } from '../../src/parse/reader.js';
import type { RecordSink } from '../../src/parse/records.js';
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

/** Numbers as text that tells every double apart, -0 included. */
function num(x: number): string {
  return Object.is(x, -0) ? '-0' : String(x);
}

/** Every record a reader gives, as text, into `calls`. */
export function recording(calls: string[]): RecordSink {
  return {
    instance: (id, kind) => { calls.push(`I ${JSON.stringify(id)}${kind === undefined ? '' : ` ${JSON.stringify(kind)}`}`); },
    event: (t, name) => { calls.push(`E ${num(t)} ${JSON.stringify(name)}`); },
    state: (t, name, value) => { calls.push(`S ${num(t)} ${JSON.stringify(name)} ${num(value)}`); },
  };
}

/**
 * As `recording`, plus a fast lane (RecordIntake) that numbers names in order
 * of first appearance and records its records as the same text by name;
 * `given` counts the records it was given.
 */
export function recordingWithIntake(calls: string[], given: { n: number }): RecordSink {
  const base = recording(calls);
  const number = (names: string[], name: string): number => {
    const v = names.indexOf(name);
    return v >= 0 ? v : names.push(name) - 1;
  };
  const events: string[] = [];
  const states: string[] = [];
  return {
    ...base,
    intake: {
      eventVariable: (name) => number(events, name),
      stateVariable: (name) => number(states, name),
      records: (code, t, v, n) => {
        given.n += n;
        for (let i = 0; i < n; i++) {
          const c = code[i] as number;
          if (c >= 0) base.event(t[i] as number, events[c] as string);
          else base.state(t[i] as number, states[-1 - c] as string, v[i] as number);
        }
      },
    },
  };
}

/** A sink writing each record as text into `out`: `I id`, `E t name`, `S t name value`. */
export function textSink(out: string[]): RecordSink {
  return {
    instance: (id) => out.push(`I ${id}`),
    event: (t, name) => out.push(`E ${t} ${name}`),
    state: (t, name, v) => out.push(`S ${t} ${name} ${v}`),
  };
}
