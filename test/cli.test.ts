import { mkdtempSync, readFileSync, existsSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from './helpers/synth.js';
import { run, runBinary } from './helpers/run.js';

interface JsonDoc {
  classes: { good: { instances: number; skippedLines: number }; bad: { instances: number; skippedLines: number } };
  metric: { event: string; state: string };
  tests: { variable: string; kind: string; feature: string; t: number | null; df: number; p: number; log10p: number | null; significant: boolean; separated: boolean; meanGood: number; meanBad: number; effectSize: number | null }[];
  ranking: { variable: string; kind: string; score: number | null; features: unknown[] }[];
  graphs: { kind: string; feature: string; features: string[]; class: string; score: number; nodes: { variable: string; t: number | null }[]; edges: { from: string; to: string; weight: number; directed: boolean }[] }[];
}

const tmp = () => mkdtempSync(join(tmpdir(), 'distalyze-cli-'));

async function analyzeJson(...args: string[]): Promise<{ doc: JsonDoc; stdout: string; stderr: string; code: number }> {
  const r = await run(...args, '--json', '-', '--quiet');
  return { doc: JSON.parse(r.stdout) as JsonDoc, stdout: r.stdout, stderr: r.stderr, code: r.code };
}

describe('the pipeline fixture: planted lock contention', () => {
  it('puts the cause, not the red herrings, in the top graph of each kind', async () => {
    const { doc, code } = await analyzeJson(FIXTURES.pipelineGood, FIXTURES.pipelineBad);
    expect(code).toBe(0);
    expect(doc.classes.good.instances).toBe(40);
    expect(doc.classes.bad.instances).toBe(40);
    const states = doc.graphs.find((g) => g.kind === 'state')!;
    const events = doc.graphs.find((g) => g.kind === 'event')!;
    const names = (g: JsonDoc['graphs'][number]) => g.nodes.map((n) => n.variable);
    expect(names(states)).toContain('lock_wait_ms');
    expect(names(states)).toContain('duration');
    expect(names(states)).not.toContain('config_version');
    expect(names(states)).not.toContain('heap_mb');
    expect(names(events)).toContain('FlushEnd');
    expect(states.score).toBeGreaterThan(0);
  });

  it('ranks the divergent variables with JSON field names of SPEC §6', async () => {
    const { doc } = await analyzeJson(FIXTURES.pipelineGood, FIXTURES.pipelineBad);
    const top = doc.ranking.map((r) => r.variable);
    expect(top).toContain('lock_wait_ms');
    expect(top).toContain('config_version');
    const t = doc.tests.find((x) => x.variable === 'lock_wait_ms' && x.feature === 'mean')!;
    expect(Object.keys(t)).toEqual(expect.arrayContaining(['variable', 'kind', 'feature', 't', 'df', 'p', 'log10p', 'significant', 'meanGood', 'meanBad', 'effectSize']));
    expect(t.significant).toBe(true);
    expect(t.t as number).toBeGreaterThan(5);
    // config_version is 3 in every good run and 4 in every bad one: perfectly separated.
    const cv = doc.tests.find((x) => x.variable === 'config_version' && x.feature === 'final')!;
    // Numbers stay numbers for jq: an infinite t is null, `separated` says why.
    expect(cv.t).toBeNull();
    expect(cv.separated).toBe(true);
    // Its p is that of a complete separation of 40 against 40 under an exact rank test: 2/C(80, 40).
    expect(cv.p / 1.8603403656036264e-23).toBeCloseTo(1, 9);
  });

  it('prints a readable terminal report', async () => {
    const r = await run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--no-color');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('good: 40 instances from 40 files');
    expect(r.stdout).toContain('What changed, the cause first');
    expect(r.stdout).toContain('lock_wait_ms');
    expect(r.stdout).toContain('Where to look');
    expect(r.stdout).toContain('Divergence alone');
    expect(r.stdout).not.toMatch(/\x1b\[/); // no color codes when not a TTY
  });

  it('is deterministic: the same input gives byte-identical JSON, DOT and TSV', async () => {
    const dir = tmp();
    for (const n of [1, 2]) {
      const r = await run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--json', join(dir, `a${n}.json`), '--dot', join(dir, `a${n}.dot`), '--tsv', join(dir, `a${n}.tsv`), '--quiet');
      expect(r.code).toBe(0);
    }
    for (const ext of ['json', 'dot', 'tsv']) expect(readFileSync(join(dir, `a1.${ext}`), 'utf8')).toBe(readFileSync(join(dir, `a2.${ext}`), 'utf8'));
  });

  it('--fail-on-divergence exits 1 when something diverges', async () => {
    expect((await run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--fail-on-divergence', '--quiet')).code).toBe(1);
  });
});

describe('two sets from one process', () => {
  it('finds no divergent dependency and exits 0 even with --fail-on-divergence', async () => {
    const r = await run(FIXTURES.nullA, FIXTURES.nullB, '--fail-on-divergence', '--json', '-', '--quiet');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as JsonDoc;
    expect(doc.tests.filter((t) => t.significant)).toEqual([]);
    for (const g of doc.graphs) {
      expect(g.score).toBe(0);
      expect(g.nodes.map((n) => n.variable)).toEqual(['duration']);
    }
    const text = await run(FIXTURES.nullA, FIXTURES.nullB, '--no-color');
    expect(text.stdout).toContain('No feature differs significantly between the two classes.');
    expect(text.stdout).toContain('no divergent dependency found');
  });
});

describe('many requests in one file', () => {
  it('finds the delayed database reply: the wait after DbQuery (gap.after), before DbReply (gap)', async () => {
    const { doc } = await analyzeJson(FIXTURES.requestsGood, FIXTURES.requestsBad);
    expect(doc.classes.good.instances).toBe(200);
    const gap = doc.tests.find((t) => t.variable === 'DbReply' && t.feature === 'gap')!;
    expect(gap.significant).toBe(true);
    const events = doc.graphs.find((g) => g.kind === 'event')!;
    expect(events.feature).toBe('gap.after');
    expect(events.nodes.map((n) => n.variable)).toContain('DbQuery');
    expect((doc as unknown as { verdict: { causes: { variable: string }[] } }).verdict.causes[0]!.variable).toBe('DbQuery');
  });
});

describe('errors a user can cause: one line, exit 2, no stack', () => {
  const expectError = async (args: string[], message: string) => {
    const r = await run(...args);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  };

  it('a missing path', () => expectError(['/no/such/dir', FIXTURES.pipelineBad], "distalyze: good class: cannot read '/no/such/dir': no such file or directory"));
  it('a missing argument', () => expectError([FIXTURES.pipelineGood], "distalyze: missing required argument 'bad'"));
  it('an unknown option', () => expectError([FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--bogus'], "distalyze: unknown option '--bogus'"));
  it('a bad option value', () => expectError([FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--alpha', '2'], 'distalyze: --alpha 2: must be between 0 and 1 (exclusive)'));
  it('conflicting options', () => expectError([FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--json', '-', '--dot', '-'], 'distalyze: --dot - and --json - both write to standard output; send one of them to a file'));
  it('a metric named in the wrong case: the near name is suggested', async () => {
    const r = await run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--metric', 'finish');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("distalyze: --metric finish: no event or state variable of that name occurs in any instance\n  hint: did you mean 'Finish'? (names are case-sensitive)\n");
  });
  it('--metric duration names the built-in default', async () => {
    const [a, b] = await Promise.all([run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--json', '-', '--metric', 'duration'), run(FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--json', '-')]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
  });
  it('a metric that never occurs', () => expectError([FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--metric', 'Finsh'], 'distalyze: --metric Finsh: no event or state variable of that name occurs in any instance'));
  it('one instance against a class: each of its features is prediction-tested (SPEC §3 few instances)', async () => {
    const r = await run(FIXTURES.pipelineGood, join(FIXTURES.pipelineBad, 'node-001.dlog'), '--json', '-');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { classes: { bad: { instances: number } }; tests: { method: string }[] };
    expect(doc.classes.bad.instances).toBe(1);
    expect(new Set(doc.tests.filter((t) => t.method !== 'fisher').map((t) => t.method))).toEqual(new Set(['prediction']));
  });
  it('a broken record, naming file and line', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'bad'));
    for (const f of readdirSync(FIXTURES.pipelineBad).slice(0, 3)) writeFileSync(join(dir, 'bad', f), readFileSync(join(FIXTURES.pipelineBad, f)));
    writeFileSync(join(dir, 'bad', 'node-002.dlog'), 'E\t1\tStart\nS\t2\tqueue_len\t12abc\n');
    await expectError([FIXTURES.pipelineGood, join(dir, 'bad')], `distalyze: ${join(dir, 'bad', 'node-002.dlog')}:2: state 'queue_len' has value '12abc', not a finite decimal number`);
  });
  it('leaves no partial output file when the run fails', async () => {
    const dir = tmp();
    const r = await run('/no/such/dir', FIXTURES.pipelineBad, '--json', join(dir, 'out.json'));
    expect(r.code).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('large inputs: q*.abs from a second, streaming pass', () => {
  it('gives byte-identical output to holding the state series, with ties, unordered records and instances across files', async () => {
    let seed = 7;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const dir = tmp();
    for (const c of ['good', 'bad'] as const) {
      mkdirSync(join(dir, c));
      for (let f = 0; f < 4; f++) {
        const lines: string[] = [];
        for (let i = 0; i < 6; i++) {
          const id = `r${(f * 3 + i) % 9}`; // instances continue across files
          lines.push(`I\t${id}`, `E\t${100 + f}\tStart`);
          for (let k = 0; k < 8; k++) {
            // coarse times: many equal timestamps; shuffled order: backwards steps
            const t = 100 + Math.floor(rand() * 20) / 2;
            lines.push(`S\t${t}\tq\t${Math.floor(rand() * 5) + (c === 'bad' ? 2 : 0)}`);
            if (rand() < 0.5) lines.push(`S\t${t}\tw\t${Math.floor(rand() * 3)}`);
          }
          lines.push(`E\t${110 + rand() * 4}\tEnd`);
        }
        writeFileSync(join(dir, c, `f${f}.dlog`), `${lines.join('\n')}\n`);
      }
    }
    const one = await run(join(dir, 'good'), join(dir, 'bad'), '--json', '-', '--quiet');
    const two = await run(join(dir, 'good'), join(dir, 'bad'), '--json', '-', '--quiet', '--two-pass');
    expect(one.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    // Both passes on two threads (the second: second-pass.ts), from the built executable.
    expect(runBinary([join(dir, 'good'), join(dir, 'bad'), '--json', '-', '--quiet', '--two-pass', '--jobs', '2']).stdout).toBe(one.stdout);
    const doc = JSON.parse(one.stdout) as JsonDoc;
    expect(doc.tests.filter((t) => t.feature === 'half.abs').length).toBeGreaterThan(0);
  });
  it('reads states only in the second pass (events skipped unparsed): the same output with CRLF, odd event lines and instances interleaved', async () => {
    // One file per class, CRLF, instances a/b/c interleaved by I records (each comes back), states under
    // several names (one only in the bad class), and event lines of every shape the first pass accepts or skips.
    const dir = tmp();
    let seed = 11;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (const c of ['good', 'bad'] as const) {
      mkdirSync(join(dir, c));
      const lines: string[] = [];
      for (let round = 0; round < 30; round++) {
        for (const id of ['a', 'b', 'c', `${c}-only`]) {
          const base = 1000 + round;
          lines.push(`I\t${id}`, `E\t${base}\tStep`);
          if (round % 7 === 0) lines.push(`E\t2026-11-23T00:00:${String(round % 60).padStart(2, '0')}Z\tIso`, `E\t${base}.5\tTwo\tfields`, `E ${base} spaced`, 'X\tother', '# note');
          lines.push(`S\t${base + Math.floor(rand() * 4) / 2}\tq\t${Math.floor(rand() * 9) + (c === 'bad' ? 3 : 0)}`);
          if (rand() < 0.4) lines.push(`S\t${base + 0.25}\tw\t${Math.floor(rand() * 5)}`);
          if (c === 'bad' && rand() < 0.3) lines.push(`S\t${base + 0.75}\textra\t${Math.floor(rand() * 5)}`);
        }
      }
      writeFileSync(join(dir, c, 'requests.dlog'), `${lines.join('\r\n')}\r\n`);
    }
    const one = await run(join(dir, 'good'), join(dir, 'bad'), '--json', '-', '--quiet');
    const two = await run(join(dir, 'good'), join(dir, 'bad'), '--json', '-', '--quiet', '--two-pass');
    expect(one.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const doc = JSON.parse(one.stdout) as JsonDoc;
    // The q*.abs of every state variable were tested (so the second pass wrote them), and the odd lines were skipped.
    const quartiles = new Set(doc.tests.filter((t) => ['q1.abs', 'half.abs', 'q3.abs'].includes(t.feature)).map((t) => t.variable));
    expect(quartiles.has('q') && quartiles.has('w')).toBe(true);
    expect(doc.classes.good.skippedLines).toBeGreaterThan(0);
  });
});

describe('the built executable', () => {
  it('parses on worker threads with output identical to --jobs 1', () => {
    const one = runBinary([FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--jobs', '1', '--json', '-', '--quiet']);
    const two = runBinary([FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--jobs', '2', '--json', '-', '--quiet']);
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const req1 = runBinary([FIXTURES.requestsGood, FIXTURES.requestsBad, '--jobs', '1', '--json', '-', '--quiet']);
    const req2 = runBinary([FIXTURES.requestsGood, FIXTURES.requestsBad, '--jobs', '2', '--json', '-', '--quiet']);
    expect(req2.stdout).toBe(req1.stdout);
  });

  it('reads a class from stdin', () => {
    const text = readFileSync(FIXTURES.requestsBad, 'utf8');
    const r = runBinary([FIXTURES.requestsGood, '-', '--json', '-', '--quiet'], text);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as JsonDoc).classes.bad.instances).toBe(200);
  });

  it('exits 2 with one line for a user error', () => {
    const r = runBinary(['/no/such/dir', FIXTURES.pipelineBad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("distalyze: good class: cannot read '/no/such/dir': no such file or directory\n");
  });

  it('writes DOT that Graphviz renders', () => {
    const dir = tmp();
    const r = runBinary([FIXTURES.pipelineGood, FIXTURES.pipelineBad, '--dot', join(dir, 'g.dot'), '--quiet']);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'g.dot'))).toBe(true);
  });
});
