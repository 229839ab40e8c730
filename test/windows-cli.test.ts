import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './helpers/run.js';
import { mulberry32, normal } from '../fixtures/generate.mjs';

// Issue 52: requests of one window share its load. Here every window (a minute)
// has its own `db:Query` time (window effect sd 4 ms, request noise 0.5 ms):
// over requests, any two windows differ at p ≈ 1e-40. The planted cause: in the
// bad window `cache:Get` takes 30 ms instead of 5 (window effect 0.5 ms).
// One good window against the bad one: both are significant; with --windows
// (four good windows, one bad) only the cache step stands.

type Rng = () => number;

function windowFile(rng: Rng, bad: boolean, dbLevel: number, cacheLevel: number, prefix: string): string {
  let text = '';
  for (let r = 0; r < 40; r++) {
    const ms = (mean: number, sd: number): number => Math.max(0.1, mean + sd * normal(rng));
    let t = r * 1.5;
    const lines = [`I\t${prefix}-${r}`, `E\t${t.toFixed(6)}\tapi:Recv`];
    t += ms(dbLevel, 0.5) / 1000;
    lines.push(`E\t${t.toFixed(6)}\tdb:Query`);
    t += ms(bad ? cacheLevel + 25 : cacheLevel, 0.5) / 1000;
    lines.push(`E\t${t.toFixed(6)}\tcache:Get`);
    t += ms(2, 0.2) / 1000;
    lines.push(`E\t${t.toFixed(6)}\tapi:Send`);
    text += lines.join('\n') + '\n';
  }
  return text;
}

function windowedSet(): string {
  const root = mkdtempSync(join(tmpdir(), 'distalyze-windows-'));
  const rng = mulberry32(5201);
  const windows: [cls: string, name: string, bad: boolean][] = [
    ['good', 'w1', false], ['good', 'w2', false], ['good', 'w3', false], ['good', 'w4', false], ['bad', 'w5', true],
  ];
  for (const [cls, name, bad] of windows) {
    const dir = join(root, cls, name);
    mkdirSync(dir, { recursive: true });
    const db = 20 + 4 * normal(rng);
    const cache = 5 + 0.5 * normal(rng);
    writeFileSync(join(dir, 'requests.dlog'), windowFile(rng, bad, db, cache, name));
  }
  return root;
}

interface Json {
  verdict: { causes: Array<{ variable: string; source: string }> };
  tests: Array<{ variable: string; feature: string; method: string; significant: boolean }>;
  windows?: { good: number; bad: number; calibrated: boolean };
  warnings: string[];
}

describe('--windows: tests calibrated against the spread between good windows (issue 52)', () => {
  const root = windowedSet();
  const analyse = async (good: string, ...extra: string[]): Promise<Json> => {
    const r = await run(join(root, good), join(root, 'bad'), '--json', '-', '--quiet', ...extra);
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout) as Json;
  };
  const significant = (j: Json, variable: string): boolean => j.tests.some((t) => t.variable === variable && t.feature === 'gap' && t.significant);

  it('one good window against the bad one: the drift between minutes is as significant as the cause, and the output says it cannot tell them apart', async () => {
    const j = await analyse('good/w1');
    expect(significant(j, 'db:Query')).toBe(true);
    expect(significant(j, 'cache:Get')).toBe(true);
    expect(j.warnings.some((w) => w.startsWith('one good window of requests'))).toBe(true);
  });

  it('with --windows, only the cache step stands, and it is the top cause', async () => {
    const j = await analyse('good', '--windows');
    expect(j.windows).toEqual({ good: 4, bad: 1, calibrated: true });
    expect(significant(j, 'db:Query')).toBe(false);
    expect(significant(j, 'cache:Get')).toBe(true);
    expect(j.verdict.causes[0]?.variable).toBe('cache:Get');
    expect(j.warnings.some((w) => w.includes('good window'))).toBe(false);
  });

  it('the same bytes twice', async () => {
    const a = await run(join(root, 'good'), join(root, 'bad'), '--json', '-', '--quiet', '--windows');
    const b = await run(join(root, 'good'), join(root, 'bad'), '--json', '-', '--quiet', '--windows');
    expect(a.stdout).toBe(b.stdout);
  });
});
