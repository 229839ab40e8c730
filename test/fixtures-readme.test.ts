/**
 * The figures fixtures/README.md states, checked against the tool: a change
 * that moves them fails here until the README says the new figures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { distalyze } from '../src/index.js';
import { ROOT } from './helpers/run.js';

const README = readFileSync(join(ROOT, 'fixtures/README.md'), 'utf8');
const section = (heading: string): string => README.split(`\n## ${heading}`)[1]!.split('\n## ')[0]!.replace(/\s+/g, ' ');
const at = (dir: string): string => join(ROOT, 'fixtures', dir);

describe('fixtures/README.md states what the tool prints', () => {
  it('pipeline/: m tests, how many significant, the verdict and the ranking', async () => {
    const text = section('`pipeline/`');
    const [, m, significant] = /the tool today performs m = (\d+) tests, (\d+) significant/.exec(text)!;
    const a = await distalyze({ good: at('pipeline/good'), bad: at('pipeline/bad') });
    expect(a.performed).toBe(Number(m));
    expect(a.tests.filter((t) => t.significant).length).toBe(Number(significant));
    expect(text).toContain("The verdict's top cause is `lock_wait_ms`");
    expect(a.verdict.causes[0]!.variable).toBe('lock_wait_ms');
    const rank = (v: string): number => a.ranking.findIndex((r) => r.variable === v);
    expect(rank('config_version')).toBeLessThan(rank('lock_wait_ms'));
    expect(rank('heap_mb')).toBeLessThan(rank('lock_wait_ms'));
    const states = a.graphs.find((g) => g.kind === 'state')!.nodes.map((n) => n.variable);
    expect(states).toContain('lock_wait_ms');
    expect(states).not.toContain('heap_mb');
    expect(states).not.toContain('config_version');
    expect(a.graphs.find((g) => g.kind === 'event')!.nodes.map((n) => n.variable)).toContain('FlushEnd');
  });

  it('null/: nothing significant, with the stated number of tests and smallest p', async () => {
    const text = section('`null/a`');
    const [, m, smallest] = /the tool today tests (\d+) features, 0 significant \(smallest p = ([\d.]+),/.exec(text)!;
    const a = await distalyze({ good: at('null/a'), bad: at('null/b') });
    expect(a.performed).toBe(Number(m));
    expect(a.tests.filter((t) => t.significant)).toEqual([]);
    expect(Math.min(...a.tests.map((t) => t.p)).toPrecision(2)).toBe(Number(smallest).toPrecision(2));
    expect(text).toContain('"no divergent dependency found" for both log types');
    const { renderText } = await import('../src/report/text.js');
    expect(renderText(a, { color: false, limit: 10 }).match(/no divergent dependency found/g)).toHaveLength(2);
  });

  it('pipeline-requests: the event graph links duration to DbQuery gap.after', async () => {
    expect(section('`pipeline-requests.dlog`')).toContain('event log type, `duration` — `DbQuery` (feature `gap.after`');
    const a = await distalyze({ good: at('pipeline-requests.dlog'), bad: at('pipeline-requests-bad.dlog') });
    const events = a.graphs.find((g) => g.kind === 'event')!;
    expect(events.feature).toBe('gap.after');
    expect(events.nodes.map((n) => n.variable)).toEqual(['duration', 'DbQuery']);
  });
});
