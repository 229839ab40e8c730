import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './helpers/run.js';

const RAW = 'fixtures/raw';

/** The analysis part of the JSON report: what must not depend on how the records were produced. */
function verdict(json: string): unknown {
  const doc = JSON.parse(json) as { tests: unknown; ranking: unknown; graphs: unknown; metric: unknown; classes: { good: { instances: number }; bad: { instances: number } } };
  return { tests: doc.tests, ranking: doc.ranking, graphs: doc.graphs, metric: doc.metric, instances: [doc.classes.good.instances, doc.classes.bad.instances] };
}

describe('analysing through a translator = analysing the records it writes', () => {
  for (const [name, translator, extra] of [
    ['log4j', 'examples/log4j/log4j.yaml', []],
    ['trace-csv', 'examples/trace-csv/trace.yaml', []],
    ['syslog', 'examples/syslog/syslog.yaml', ['--year', '2026']],
  ] as const) {
    it(name, async () => {
      const out = mkdtempSync(join(tmpdir(), `distalyze-pretranslated-${name}-`));
      for (const c of ['good', 'bad']) {
        const t = await run('translate', '--translator', translator, ...extra, `${RAW}/${name}/${c}`, '-o', join(out, c));
        expect(t.code, t.stderr).toBe(0);
      }
      const direct = await run('--translator', translator, ...extra, `${RAW}/${name}/good`, `${RAW}/${name}/bad`, '--json', '-', '--quiet');
      const pre = await run(join(out, 'good'), join(out, 'bad'), '--json', '-', '--quiet');
      expect(direct.code, direct.stderr).toBe(0);
      expect(pre.code, pre.stderr).toBe(0);
      expect(verdict(pre.stdout)).toEqual(verdict(direct.stdout));
      expect((JSON.parse(direct.stdout) as { tests: { significant: boolean }[] }).tests.some((x) => x.significant)).toBe(true);
    });
  }
});
