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
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
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

describe('which variables are a span\'s: the span reader\'s marks, not the names', () => {
  it('with traces, every `.start`/`.end`/`.reply` event and its `self`/`wait` state is a span\'s, the same at -j1 and -j2', async () => {
    const built = (await import(pathToFileURL(join(ROOT, 'dist/read/index.js')).href)) as { readClasses: typeof readClasses };
    const bySource = async (read: typeof readClasses, jobs: number): Promise<string[]> => {
      const fs = (await read(join(FIXTURE, 'good'), join(FIXTURE, 'bad'), { translator: TRANSLATOR, jobs })).features.features;
      return [...(fs.sources ?? new Map())].map(([k, s]) => `${k.replace('\u0000', ' ')} ${s}`).sort();
    };
    const one = await bySource(readClasses, 1);
    expect(one.length).toBeGreaterThan(30);
    // The translator's log events are named `service:template` and none ends so: every marked variable is a span's.
    expect(one.filter((k) => !/^(event .*\.(start|end|reply)|state .* (self|wait)) span$/.test(k))).toEqual([]);
    expect(await bySource(built.readClasses, 2)).toEqual(one);
  });

  it('a log whose records are named as a span\'s would be (`job.start`, `job.end`, `job self`) is a log\'s', async () => {
    const root = mkdtempSync(join(tmpdir(), 'distalyze-span-names-'));
    for (const [c, self] of [['good', 1], ['bad', 9]] as const) {
      mkdirSync(join(root, c));
      for (let run = 0; run < 4; run++) {
        const t = 1_700_000_000 + run;
        writeFileSync(join(root, c, `run-${run}.dlog`), `E\t${t}\tjob.start\nE\t${t + 0.5}\tjob.end\nS\t${t + 0.5}\tjob self\t${self + run / 10}\n`);
      }
    }
    const fs = (await readClasses(join(root, 'good'), join(root, 'bad'), { jobs: 1 })).features.features;
    expect(fs.tables.some((t) => t.variables.includes('job self'))).toBe(true);
    expect(fs.sources).toBeUndefined();
  });
});
