/**
 * Waits within one source (docs/method.md): a log line's `gap`, `gap.after`
 * and `wait` end at log lines, so reading a trace's spans (and metrics)
 * beside the logs leaves the logs' own features exactly as the logs alone
 * give them, through every wrapper between the readers and the collector
 * (the counting sink, the metrics join, the parallel reader, which runs its
 * workers from dist/: `npm run build` first). Measured to the
 * previous record of any source, 4 384 of these values changed on this
 * fixture when the traces were added.
 */
import { mkdtempSync, symlinkSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readClasses } from '../src/read/index.js';
import type { FeatureSet } from '../src/features/types.js';
import { ROOT } from './helpers/run.js';

const FIXTURE = join(ROOT, 'fixtures/trainticket');
const TRANSLATOR = join(ROOT, 'examples/trainticket/trainticket.mjs');

/** Each class of the fixture with its log file only (symlinked). */
function logsOnly(): { good: string; bad: string } {
  const root = mkdtempSync(join(tmpdir(), 'distalyze-own-source-'));
  const dirs = { good: join(root, 'good'), bad: join(root, 'bad') };
  for (const c of ['good', 'bad'] as const) {
    mkdirSync(dirs[c]);
    symlinkSync(join(FIXTURE, c, 'log.csv.gz'), join(dirs[c], 'log.csv.gz'));
  }
  return dirs;
}

/** Every event's gap, gap.after, wait and count per instance, by `class/id/variable/feature` (the built-in duration left out). */
function waits(fs: FeatureSet): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of fs.tables) {
    if (t.kind !== 'event' || !['gap', 'gap.after', 'wait', 'count'].includes(t.feature)) continue;
    t.variables.forEach((v, k) => {
      if (v === 'duration') return;
      fs.instances.forEach((inst, i) => out.set(`${inst.className}/${inst.id}/${v}/${t.feature}`, (t.columns[k] as Float64Array)[i] as number));
    });
  }
  return out;
}

describe('a log line\'s waits with spans read beside the logs', () => {
  it('are the logs\' alone, to the bit, with traces, with traces and metrics, on one thread and two', async () => {
    const only = logsOnly();
    const alone = waits((await readClasses(only.good, only.bad, { translator: TRANSLATOR, jobs: 1 })).features.features);
    expect(alone.size).toBeGreaterThan(50_000);
    const spanEvent = (key: string): boolean => /\.(start|end|reply)\/[^/]+$/.test(key);
    const built = (await import(pathToFileURL(join(ROOT, 'dist/read/index.js')).href)) as { readClasses: typeof readClasses };
    for (const options of [{ jobs: 1 }, { jobs: 2 }, { jobs: 1, metrics: [join(FIXTURE, 'metric')] }]) {
      const read = options.jobs === 2 ? built.readClasses : readClasses;
      const both = waits((await read(join(FIXTURE, 'good'), join(FIXTURE, 'bad'), { translator: TRANSLATOR, ...options })).features.features);
      // The spans' own events are there too (the trace was read), and every log value is the same number.
      expect([...both.keys()].filter(spanEvent).length).toBeGreaterThan(0);
      const differing = [...alone].filter(([key, x]) => !Object.is(both.get(key), x)).map(([key, x]) => `${key}: ${both.get(key)}, alone ${x}`);
      expect(differing.slice(0, 3)).toEqual([]);
    }
  });
});
