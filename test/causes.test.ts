import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './helpers/run.js';
// @ts-expect-error: the plain .mjs generator has no type declarations
import { generateCauses } from '../fixtures/causes/generate.mjs';

// The six causes of issue 10, each a generated good/bad pair in
// fixtures/causes/ (node fixtures/causes/generate.mjs; what is planted and why
// the answer is what it is: fixtures/causes/README.md). The analysis runs
// through the CLI (`--json -`) with default options, as a user would, and the
// planted cause must come out first: the first variable of `ranking` once P and
// its aliases are left out, and a node of the top-scoring graph.
//
// A cause is a step between two log lines; where the answer may name either
// end of the step, both are listed. `it.fails` marks what this build does not
// find yet, with the part of issue 10 it waits for.

interface Json {
  metric?: { event?: string | null; state?: string | null; aliases?: unknown[] };
  aliases?: unknown[];
  ranking: Array<{ variable: string; alias?: boolean }>;
  graphs: Array<{ score: number; nodes: Array<{ variable: string; metric?: boolean }> }>;
}

async function analyse(name: string): Promise<Json> {
  const r = await run(`fixtures/causes/${name}/good`, `fixtures/causes/${name}/bad`, '--json', '-');
  expect(r.stderr.split('\n').find((l) => l.startsWith('distalyze:')) ?? '').toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Json;
}

/** P (every kind's) and its aliases, under whichever field the JSON lists them. */
function metricNames(json: Json): Set<string> {
  const names = new Set<string>(['duration']);
  for (const m of [json.metric?.event, json.metric?.state]) if (typeof m === 'string') names.add(m);
  for (const a of [...(json.metric?.aliases ?? []), ...(json.aliases ?? [])]) {
    if (typeof a === 'string') names.add(a);
    else if (typeof a === 'object' && a !== null && typeof (a as { variable?: unknown }).variable === 'string') names.add((a as { variable: string }).variable);
  }
  for (const r of json.ranking) if (r.alias === true) names.add(r.variable);
  return names;
}

/** The first ranked variable that is a candidate cause. */
const firstCause = (json: Json): string | undefined => {
  const skip = metricNames(json);
  return json.ranking.find((r) => !skip.has(r.variable))?.variable;
};

/** The non-P nodes of the graph with the highest score (the first of equals). */
function topGraphNodes(json: Json): string[] {
  const top = json.graphs.reduce<Json['graphs'][number] | undefined>((best, g) => (best === undefined || g.score > best.score ? g : best), undefined);
  const skip = metricNames(json);
  return (top?.nodes ?? []).filter((n) => n.metric !== true && !skip.has(n.variable)).map((n) => n.variable);
}

/** The planted cause is first in the ranking and in the top graph. */
async function expectCause(name: string, cause: readonly string[]): Promise<void> {
  const json = await analyse(name);
  expect(cause).toContain(firstCause(json));
  expect(topGraphNodes(json).some((v) => cause.includes(v))).toBe(true);
}

describe('planted causes (fixtures/causes, issue 10)', () => {
  // Waits for issue 10's ranking by Σ|z| and graphs ranked on one scale: the
  // caller's next event (caller:GotReply: gap, wait and every absolute time)
  // outranks the callee's last event before the wait (gap.after alone), and
  // the top graph (first.abs) holds only the caller's events.
  it.fails('a. delayed callee: the callee\'s last event before the wait (its gap.after), not the caller\'s next event', async () => {
    await expectCause('delayed-callee', ['inventory:Reserve']);
  });

  // Passes today through the count t-test (0 in every good request: Welch's
  // t = 4.07, p 7.6e-5 of 59 tests). Duration does not diverge, so no graph can
  // hold the ERROR: the top graph must then be P alone, not a herring.
  it('b. path change in 10% of requests: the ERROR that appears in 15 of 150 bad requests and in no good one', async () => {
    const json = await analyse('path-change');
    expect(firstCause(json)).toBe('payment:ERROR');
    const nodes = topGraphNodes(json);
    expect(nodes.length === 0 || nodes.includes('payment:ERROR')).toBe(true);
  });

  // Waits for issue 10's instance kinds and one answer: the db step is ranked
  // first today, but the top graph is the count graph of the kind mix
  // (gateway:book, gateway:search, booking:*), which holds no db event.
  it.fails('c. two request kinds: the database step slowed in book requests only, not the kind mix', async () => {
    await expectCause('two-kinds', ['db:Query', 'db:Done']);
  });

  // Waits for issue 10's few-instance tests (prediction test for 1–2 values):
  // today a class of one instance is an input error.
  it.fails('d. one bad request: its slow store read, against the 40 good requests', async () => {
    await expectCause('one-bad-request', ['store:Read', 'store:ReadDone']);
  });

  // Waits for issue 10's ranking by Σ|z| (and kinds: the report kind has 2 good
  // and 4 bad instances): report:Flush reaches |t| ≈ 1200 from six instances
  // and leads the Σ|t| ranking, the real cause (t ≈ 5) comes fourth.
  it.fails('e. near-constant feature: the moderately slower db step over 120 requests, not the rare report\'s near-constant flush', async () => {
    await expectCause('near-constant', ['db:Query', 'db:Done']);
  });

  // Waits for issue 10's aliases of P: runtime_sec (= the duration) leads the
  // ranking today, and Finish (its time = the duration) is in the top graph.
  it.fails('f. alias of P: the lock wait, not Finish or runtime_sec', async () => {
    const json = await analyse('alias-of-p');
    await expectCause('alias-of-p', ['LockRequest', 'LockAcquired']);
    expect(topGraphNodes(json)).not.toContain('Finish');
    expect(topGraphNodes(json)).not.toContain('runtime_sec');
  });
});

describe('fixtures/causes/generate.mjs', () => {
  it('rewrites the committed files byte for byte (seeded, no hand edits)', () => {
    const out = mkdtempSync(join(tmpdir(), 'distalyze-causes-'));
    (generateCauses as (root: string) => void)(out);
    const files = (root: string): string[] => readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && d.name.endsWith('.dlog'))
      .map((d) => join(d.parentPath, d.name).slice(root.length + 1))
      .sort();
    const committed = files('fixtures/causes');
    expect(committed).toHaveLength(2 + 2 + 2 + 2 + 2 + 40);
    expect(files(out)).toEqual(committed);
    for (const f of committed) expect(readFileSync(join(out, f), 'utf8')).toBe(readFileSync(join('fixtures/causes', f), 'utf8'));
  });
});
