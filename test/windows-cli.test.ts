import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
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

function windowFile(rng: Rng, bad: boolean, dbLevel: number, cacheLevel: number, prefix: string, offset = 0): string {
  let text = '';
  for (let r = 0; r < 40; r++) {
    const ms = (mean: number, sd: number): number => Math.max(0.1, mean + sd * normal(rng));
    let t = offset + r * 1.5;
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

const WINDOWS: [cls: string, name: string, bad: boolean][] = [
  ['good', 'w1', false], ['good', 'w2', false], ['good', 'w3', false], ['good', 'w4', false], ['bad', 'w5', true],
];

/** good/w1..w4/requests.dlog, bad/w5/requests.dlog (each from 0 s); and timed/good.dlog: w1..w4 100 s apart in one file. */
function windowedSet(): string {
  const root = mkdtempSync(join(tmpdir(), 'distalyze-windows-'));
  const rng = mulberry32(5201);
  let timed = '';
  WINDOWS.forEach(([cls, name, bad], j) => {
    const dir = join(root, cls, name);
    mkdirSync(dir, { recursive: true });
    const db = 20 + 4 * normal(rng);
    const cache = 5 + 0.5 * normal(rng);
    const state = rng();
    writeFileSync(join(dir, 'requests.dlog'), windowFile(mulberry32(Math.floor(state * 2 ** 32)), bad, db, cache, name));
    if (!bad) timed += windowFile(mulberry32(Math.floor(state * 2 ** 32)), bad, db, cache, name, 100 * j);
  });
  mkdirSync(join(root, 'timed'), { recursive: true });
  writeFileSync(join(root, 'timed', 'good.dlog'), timed);
  return root;
}

interface Json {
  verdict: { causes: Array<{ variable: string; feature: string; source: string }> };
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
  // The cache step by either end: cache:Get's gap, or db:Query's gap.after (the same interval: SPEC §2).
  const cacheStep = (j: Json): boolean => {
    const top = j.verdict.causes[0];
    return top !== undefined && (top.variable === 'cache:Get' || (top.variable === 'db:Query' && top.feature === 'gap.after'));
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
    expect(cacheStep(j)).toBe(true);
    expect(j.warnings.some((w) => w.includes('good window'))).toBe(false);
  });

  it('--window 100s over one time-stamped file: the same four windows, the same answer', async () => {
    const j = await analyse('timed', '--window', '100s');
    expect(j.windows).toEqual({ good: 4, bad: 1, calibrated: true });
    expect(significant(j, 'db:Query')).toBe(false);
    expect(cacheStep(j)).toBe(true);
  });

  it('the report validates against schema/analysis.schema.json (methods `windows`, the `windows` field)', async () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'schema', 'analysis.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ allErrors: true, strict: true, strictTypes: false }).compile(schema);
    const j = await analyse('good', '--windows');
    expect(j.tests.some((t) => t.method === 'windows')).toBe(true);
    expect(validate(j), JSON.stringify(validate.errors)).toBe(true);
  });

  it('the same bytes twice', async () => {
    const a = await run(join(root, 'good'), join(root, 'bad'), '--json', '-', '--quiet', '--windows');
    const b = await run(join(root, 'good'), join(root, 'bad'), '--json', '-', '--quiet', '--windows');
    expect(a.stdout).toBe(b.stdout);
  });
});
