import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { run } from './helpers/run.js';
import { FIXTURES } from './helpers/synth.js';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'schema', 'analysis.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, strictTypes: false }).compile(schema);

async function analysisJson(good: string, bad: string): Promise<Record<string, unknown>> {
  const r = await run(good, bad, '--json', '-', '--quiet');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('schema/analysis.schema.json against real output', () => {
  it.each([
    ['pipeline (perfectly separated config_version)', FIXTURES.pipelineGood, FIXTURES.pipelineBad],
    ['requests (I-named instances, kinds)', FIXTURES.requestsGood, FIXTURES.requestsBad],
    ['null (no difference)', FIXTURES.nullA, FIXTURES.nullB],
  ])('%s validates', async (_name, good, bad) => {
    const doc = await analysisJson(good, bad);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
  });

  it('every number is a number or null (safe for jq), and separated tests have t = null', async () => {
    const text = (await run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--json', '-', '--quiet')).stdout;
    expect(text).not.toMatch(/"-?Infinity"|NaN/);
    const doc = JSON.parse(text) as { tests: { variable: string; feature: string; t: number | null; separated: boolean; log10p: number | null; effectSize: number | null }[] };
    const cv = doc.tests.find((t) => t.variable === 'config_version' && t.feature === 'final')!;
    // p of a complete separation of 40 against 40 (exact rank test): 2/C(80, 40) = 1.8603403656036264e-23 (Python math.comb).
    expect(cv).toMatchObject({ t: null, separated: true, effectSize: null });
    expect(cv.log10p!).toBeCloseTo(Math.log10(1.8603403656036264e-23), 10);
    expect(doc.tests.filter((t) => t.t === null).every((t) => t.separated)).toBe(true);
  });

  it('allows fields added later, describes the verdict, and rejects a string where a number belongs', async () => {
    const doc = await analysisJson(FIXTURES.pipelineGood, FIXTURES.pipelineBad) as { tests: Record<string, unknown>[] } & Record<string, unknown>;
    const extended = { ...doc, later: 'x', tests: doc.tests.map((t) => ({ ...t, later: null })) };
    expect(validate(extended)).toBe(true);
    expect(validate({ ...doc, verdict: 'x' })).toBe(false);
    expect(validate({ ...doc, tests: doc.tests.map((t, i) => (i === 0 ? { ...t, method: 'anova' } : t)) })).toBe(false);
    const broken = { ...doc, tests: doc.tests.map((t, i) => (i === 0 ? { ...t, t: 'Infinity' } : t)) };
    expect(validate(broken)).toBe(false);
  });
});
