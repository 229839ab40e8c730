/** Read one class through the real reader, a translator and the metric join; records per instance as text. */
import { MetricJoin } from '../../src/features/metric-join.js';
import { listInputFiles } from '../../src/parse/files.js';
import { readMetrics } from '../../src/parse/metrics.js';
import { readClass, type ClassSink } from '../../src/parse/reader.js';
import { loadTranslator } from '../../src/parse/translators/load.js';

/** A sink that writes each instance's records as text (`E t name`, `S t name value`), values through `value`. */
export function recorder(value: (v: number) => number = (v) => v): { sink: ClassSink; byInstance: Record<string, string[]> } {
  const byInstance: Record<string, string[]> = {};
  let current = '';
  const sink: ClassSink = {
    beginFile: (f) => { current = f.relativePath; },
    endFile: () => undefined,
    instance: (id) => { current = id; },
    event: (t, n) => { (byInstance[current] ??= []).push(`E ${t} ${n}`); },
    state: (t, n, v) => { (byInstance[current] ??= []).push(`S ${t} ${n} ${value(v)}`); },
  };
  return { sink, byInstance };
}

export async function recordsOfClass(dir: string, translator: string, metricsDir: string): Promise<Record<string, string[]>> {
  const { sink, byInstance } = recorder();
  const join = new MetricJoin(await readMetrics([metricsDir]), sink, { band: 0, window: 1800, align: 'end' });
  await readClass(await listInputFiles(dir, 'bad'), 'bad', join, { translator: await loadTranslator(translator), strict: false });
  join.finishClass();
  return byInstance;
}
