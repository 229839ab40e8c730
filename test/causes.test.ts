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
// planted cause must come out first: the top cause of the verdict (the first of
// `verdict.causes`, which never holds P or its aliases), and, where the answer
// graph (the first) scored above 0, a node of it.
//
// A cause is a step between two log lines; where the answer may name either
// end of the step, both are listed.

interface Json {
  metric?: { event?: string | null; state?: string | null };
  verdict: {
    sentence: string;
    causes: Array<{ variable: string; feature: string; source: string; method: string; addsNoTime?: boolean }>;
    aliases: Array<{ variable: string }>;
    timeShares: Array<{ event: string; difference: number; share: number }>;
    components: Array<{ component: string; share: number | null }>;
    metric: { significant: boolean; difference: number; spread: { significant: boolean; meanGood: number; meanBad: number } | null } | null;
    modes: Array<{ instances: number; meanP: number; cause: string | null }>;
  };
  graphs: Array<{ score: number; nodes: Array<{ variable: string; metric?: boolean }> }>;
}

async function analyse(name: string): Promise<Json> {
  const r = await run(`fixtures/causes/${name}/good`, `fixtures/causes/${name}/bad`, '--json', '-');
  expect(r.stderr.split('\n').find((l) => l.startsWith('distalyze:')) ?? '').toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Json;
}

/** The verdict's top cause. */
const firstCause = (json: Json): string | undefined => json.verdict.causes[0]?.variable;

/** The non-P nodes of the answer graph (the first), or none when it scored 0 (P alone). */
function topGraphNodes(json: Json): string[] {
  const top = json.graphs[0];
  if (top === undefined || !(top.score > 0)) return [];
  const aliases = new Set(json.verdict.aliases.map((a) => a.variable));
  return top.nodes.filter((n) => n.metric !== true && !aliases.has(n.variable)).map((n) => n.variable);
}

/** The planted cause is first in the ranking and in the top graph. */
async function expectCause(name: string, cause: readonly string[]): Promise<Json> {
  const json = await analyse(name);
  expect(cause).toContain(firstCause(json));
  const nodes = topGraphNodes(json);
  expect(nodes.length === 0 || nodes.some((v) => cause.includes(v))).toBe(true);
  expect(json.verdict.sentence).toContain(`Top cause: ${firstCause(json)}`);
  return json;
}

describe('planted causes (fixtures/causes, issue 10)', () => {
  // The same wait is the caller's next event's gap and the callee's last
  // event's gap.after: the earlier event is named (SPEC §2, gap.after).
  it('a. delayed callee: the callee\'s last event before the wait (its gap.after), not the caller\'s next event', async () => {
    const json = await expectCause('delayed-callee', ['inventory:Reserve']);
    expect(topGraphNodes(json)).toEqual(['inventory:Reserve']);
  });

  // Found by its occurrence test (Fisher's exact: new in bad). Duration does not
  // diverge, so no graph can hold the ERROR: the top graph must then be P
  // alone, not a herring.
  it('b. path change in 10% of requests: the ERROR that appears in 15 of 150 bad requests and in no good one', async () => {
    const json = await analyse('path-change');
    expect(firstCause(json)).toBe('payment:ERROR');
    expect(topGraphNodes(json)).toEqual([]);
    expect(json.verdict.sentence).toContain('new in bad: 0% of good → 10% of bad instances');
  });

  // Compared within kinds, the kind mix does not diverge (the counts and
  // occurrences of kind-specific events are explained by the kinds).
  it('c. two request kinds: the database step slowed in book requests only, not the kind mix', async () => {
    await expectCause('two-kinds', ['db:Query', 'db:Done']);
  });

  // The prediction test of SPEC §3 (1–2 values against the other class).
  it('d. one bad request: its slow store read, against the 40 good requests', async () => {
    await expectCause('one-bad-request', ['store:Read', 'store:ReadDone']);
  });

  // report:Flush reaches |t| ≈ 1200 from six instances; its z is capped, and
  // the answer is the graph tied to P.
  it('e. near-constant feature: the moderately slower db step over 120 requests, not the rare report\'s near-constant flush', async () => {
    await expectCause('near-constant', ['db:Query', 'db:Done']);
  });

  // Finish and runtime_sec correlate with the duration at |r| ≥ 0.999 in each class.
  it('f. alias of P: the lock wait, not Finish or runtime_sec', async () => {
    const json = await expectCause('alias-of-p', ['LockRequest', 'LockAcquired']);
    // Release, the last event before Finish, has P's time too (last.abs, r ≥ 0.999): an alias as well.
    expect(json.verdict.aliases.map((a) => a.variable).sort()).toEqual(['Finish', 'Release', 'runtime_sec']);
    for (const g of json.graphs) for (const n of g.nodes) expect(['Finish', 'runtime_sec']).not.toContain(n.variable);
  });

  // Issue 52: one unit far outside its peers (unitOutlierTest). Over 8 against 8 nodes Welch's t on the
  // duration is 1.55 (p 0.16): before, the verdict said the duration "does not differ" though the one slow
  // node took ~230 s longer, and named no cause. With 8 runs a regression-tree split can hardly be
  // significant, so the graph is not checked (the text report says so).
  it('g. one slow node among eight: the duration differs, and the slow spill is the top cause', async () => {
    const json = await analyse('one-slow-node');
    expect(json.verdict.sentence).toMatch(/^Bad instances are worse: duration /);
    expect(json.verdict.sentence).not.toContain('does not differ');
    expect(['SpillDone', 'SpillStart']).toContain(firstCause(json));
  });
});

describe('generated cases of kinds not seen before (fixtures/causes, issue 52)', () => {
  // Before: render:Start (the lock, 30% of bad) first, the payload's size shift second, the cache miss
  // (70% of bad) fourth. Bad's duration has two modes and good's one: each mode against good names its
  // own cause (attention/modes.ts), pinned first.
  it('h. two slow paths inside the bad set: both named, one per mode of the duration, before the size shift', async () => {
    const json = await analyse('two-slow-paths');
    const modes = json.verdict.modes;
    expect(modes.map((m) => m.instances)).toEqual([36, 84]); // the lock path adds more time: first
    const lock = ['render:Start', 'render:Done'];
    const miss = ['catalog:Lookup', 'catalog:Found'];
    expect(lock).toContain(modes[0]!.cause);
    expect(miss).toContain(modes[1]!.cause);
    const causes = json.verdict.causes.map((c) => c.variable);
    expect(causes.slice(0, 2)).toEqual([modes[0]!.cause, modes[1]!.cause]);
    expect(causes.indexOf('render:payload_kb')).toBeGreaterThan(1);
    expect(json.verdict.sentence).toMatch(/Bad's duration has two modes, each compared with good: 36 instances at 0\.45\d* s, top cause render:(Start|Done) \(.*\); 84 at 0\.2\d* s, top cause catalog:(Lookup|Found) \(/);
    // Search and book requests are compared within their kinds, which already split them: no modes there.
    expect((await analyse('two-kinds')).verdict.modes).toEqual([]);
  });

  // A reporter's line that falls inside a 2 s compute takes the wait before it from the compute's end
  // (Write): before, it was billed 141% of the added time (17.8 s of 12.7) and, tied to P in the count
  // graph (a line a second counts the run's length), named top cause. Its credit is now set against the
  // time the interrupted steps lost (verdict.ts creditedWaits), and a new line credited none of the added
  // time comes after the causes.
  it('i. a global config change: the flushes it multiplied, not the free metrics_push lines it added', async () => {
    const json = await analyse('config-change');
    expect(['FlushStart', 'FlushDone', 'config:flush_records']).toContain(firstCause(json));
    const shares = json.verdict.timeShares;
    expect(shares[0]?.event).toBe('FlushDone');
    expect(shares.map((x) => x.event)).not.toContain('metrics_push');
    for (const x of shares) expect(x.share).toBeLessThanOrEqual(1);
    const push = json.verdict.causes.find((c) => c.variable === 'metrics_push');
    expect(push?.addsNoTime).toBe(true);
    expect(json.verdict.sentence).not.toMatch(/before metrics_push/);
  });

  // api:elapsed_ms's final value is the latency (an alias of P in `final`); before, its mean was listed
  // as a cause tied to the slowdown beside its listing as P under another name.
  it('j. a downstream symptom: the slow query, and the stopwatch that measures P never a cause', async () => {
    const json = await expectCause('downstream-symptom', ['db:Query', 'db:Done']);
    expect(json.verdict.aliases.map((a) => a.variable)).toContain('api:elapsed_ms');
    expect(json.verdict.causes.map((c) => c.variable)).not.toContain('api:elapsed_ms');
    for (const g of json.graphs) for (const n of g.nodes) expect(n.variable).not.toBe('api:elapsed_ms');
  });

  // Before: "duration does not differ significantly", and the auth step's shift in mean led.
  it('k. a variance-only change: the spread of the duration differs, and the variable whose spread grew leads', async () => {
    const json = await analyse('variance-only');
    const m = json.verdict.metric!;
    expect(m.significant).toBe(false);
    expect(m.spread?.significant).toBe(true);
    expect(m.spread!.meanBad).toBeGreaterThan(3 * m.spread!.meanGood);
    expect(json.verdict.sentence).toMatch(/does not differ significantly in mean .*, but its spread does: bad instances vary more/);
    const top = json.verdict.causes[0]!;
    expect(top.method).toBe('brown-forsythe');
    expect([['index:segments', 'min'], ['index:Search', 'gap.after'], ['index:Done', 'gap'], ['index:Done', 'wait']].map((x) => x.join(' '))).toContain(`${top.variable} ${top.feature}`);
    expect(json.verdict.sentence).toContain(`Top cause: ${top.variable} (`);
  });

  // Each event's waits end at records of its own source (docs/method.md, "Waits within one source"). Measured to
  // the previous record of any source (before), the polls cut the pricing step into pieces the same in both
  // classes: the top cause was the polls' count and the top component web, a service that did nothing wrong.
  it('l. a log line\'s wait among spans: the pricing step between two log lines, not the status polls that interleave', async () => {
    const json = await analyse('log-wait-among-spans');
    const top = json.verdict.causes[0]!;
    expect([['shop:Validate', 'gap.after'], ['shop:Priced', 'gap'], ['shop:Priced', 'wait']].map((x) => x.join(' '))).toContain(`${top.variable} ${top.feature}`);
    expect(top.source).not.toBe('weak');
    expect(json.verdict.sentence).toContain('Top component: shop');
    // The polls' spans were read (their variables are tested), and their waits are their own: none grew.
    const polls = json.verdict.causes.filter((c) => c.variable.startsWith('web:'));
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.filter((c) => c.feature === 'gap' || c.feature === 'gap.after')).toEqual([]);
    // Where the time went is told on one timeline (the log lines', the longest): the step has all the added time.
    // Summed over both sources' waits, each source covering the request once, it had about half (49%).
    const shop = json.verdict.components.find((c) => c.component === 'shop')!;
    expect(shop.share!).toBeGreaterThan(0.95);
    expect(shop.share!).toBeLessThan(1.05);
    expect(json.verdict.timeShares[0]!.event).toBe('shop:Priced');
  });
});

describe('fixtures/causes/generate.mjs', () => {
  it('rewrites the committed files byte for byte (seeded, no hand edits)', () => {
    const out = mkdtempSync(join(tmpdir(), 'distalyze-causes-'));
    (generateCauses as (root: string) => void)(out);
    const files = (root: string): string[] => readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && (d.name.endsWith('.dlog') || d.name.endsWith('.csv')))
      .map((d) => join(d.parentPath, d.name).slice(root.length + 1))
      .sort();
    const committed = files('fixtures/causes');
    expect(committed).toHaveLength(2 + 2 + 2 + 2 + 2 + 40 + 16 + 2 + 40 + 2 + 2 + 4);
    expect(files(out)).toEqual(committed);
    for (const f of committed) expect(readFileSync(join(out, f), 'utf8')).toBe(readFileSync(join('fixtures/causes', f), 'utf8'));
  });
});
