import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VariableIndex } from '../src/memory/variable-index.js';
import { variableLimit } from '../src/memory/limits.js';
import { FIXTURES } from './helpers/synth.js';
import { run } from './helpers/run.js';

interface Doc {
  warnings: string[];
  tests: { variable: string }[];
  graphs: { kind: string; nodes: { variable: string }[]; edges: { from: string; to: string; split?: { statistic: number; p: number } }[] }[];
}

/**
 * 8 instances (4 good, 4 bad), each Start, `perInstance` events named by a
 * unique request id, Work, Finish (4 004 event variables with the built-in
 * duration); bad instances are slower. The mistake of
 * issue 11 item 10: a request id in the event name.
 */
function idsInNames(perInstance: number): { good: string; bad: string } {
  const root = mkdtempSync(join(tmpdir(), 'distalyze-vars-'));
  let id = 0;
  for (let i = 0; i < 8; i++) {
    const cls = i < 4 ? 'good' : 'bad';
    mkdirSync(join(root, cls), { recursive: true });
    const step = (cls === 'bad' ? 0.002 : 0.001) * (1 + 0.1 * (i % 4));
    let t = 1_700_000_000 + 100 * i;
    const lines = [`E\t${t.toFixed(6)}\tStart`];
    for (let k = 0; k < perInstance; k++) lines.push(`E\t${(t += step).toFixed(6)}\treq-${String(id++).padStart(6, '0')}`);
    lines.push(`E\t${(t += step).toFixed(6)}\tWork`, `E\t${(t += step).toFixed(6)}\tFinish`);
    writeFileSync(join(root, cls, `node-${i}.dlog`), `${lines.join('\n')}\n`);
  }
  return { good: join(root, 'good'), bad: join(root, 'bad') };
}

describe('many variables (issue 11 item 10: ids in names)', () => {
  it('answers over 4 000 variables and notes that most occur in a single instance, naming a few', async () => {
    const { good, bad } = idsInNames(500);
    const r = await run(good, bad, '--json', '-', '--quiet');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.warnings).toContain(
      "4000 of 4004 event variables occur in a single instance (e.g. 'req-000000', 'req-000001', 'req-000002'): " +
        'names that carry an id (request id, address, timestamp) make one variable per occurrence; keep the id out of the name (in the translator), or name instances by it with I records',
    );
    // The answer: every variable tested, an event graph around the metric.
    expect(doc.tests.some((t) => t.variable === 'req-003999')).toBe(true);
    expect(doc.graphs.find((g) => g.kind === 'event')!.nodes.some((n) => n.variable === 'duration')).toBe(true);
  });

  it('no such note when variables recur across instances (the pipeline fixture)', async () => {
    const r = await run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--json', '-', '--quiet');
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.warnings.some((w) => w.includes('single instance'))).toBe(false);
    // Each graph edge carries its split's rank statistic and adjusted p (issue 12).
    const edges = doc.graphs.flatMap((g) => g.edges);
    expect(edges.length).toBeGreaterThan(0);
    for (const e of edges) {
      expect(e.split!.statistic).toBeGreaterThan(3.84);
      expect(e.split!.p).toBeGreaterThan(0);
      expect(e.split!.p).toBeLessThan(0.05);
    }
  });
});

describe('more variables than the heap holds', () => {
  it('is a one-line InputError naming the first few, with advice, not an out-of-memory abort', () => {
    const index = new VariableIndex();
    index.limit = 3;
    for (const name of ['Start', 'req-1', 'req-2']) index.id(name);
    expect(index.id('req-1')).toBe(1); // a known name is fine at the limit
    expect(() => index.id('req-3')).toThrow("more than 3 distinct variable names (e.g. 'Start', 'req-1', 'req-2'): too many to analyse in this heap");
    try {
      index.id('req-3');
    } catch (err) {
      expect((err as Error).name).toBe('InputError');
      expect((err as { hint: string }).hint).toContain('NODE_OPTIONS=--max-old-space-size=MB');
    }
  });

  it('the limit is the heap size / 11 KB, at least 10 000', () => {
    expect(variableLimit(4_345_298_944)).toBe(395_027);
    expect(variableLimit(1e6)).toBe(10_000);
  });
});
