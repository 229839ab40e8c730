/**
 * Template mining in time linear in the distinct messages (issue 54, item 9;
 * src/parse/templates/drain-index.ts): the indexed Drain compares each
 * message with the few clusters that can reach the similarity, where the
 * plain scan compared it with every cluster of its leaf; and it finds the
 * same templates, on the raw fixtures and on generated messages of every
 * kind of overlap, with any parameters. Work is counted (clusters compared),
 * not timed.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { listInputFiles } from '../src/parse/files.js';
import { DEFAULT_DRAIN_PARAMETERS, Drain, type DrainParameters } from '../src/parse/templates/drain.js';
import { mineFile } from '../src/parse/templates/index.js';
import { maskToken, tokenize } from '../src/parse/templates/mask.js';
import { makeSandbox } from './helpers/broken-inputs.js';
import { BOUND_MS, cpuSeconds, runThenSignal } from './helpers/signals.js';
import { FIXTURES_DIR } from './helpers/synth.js';

/** xorshift32: the same messages on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

/** Words of 3–8 letters, from `vocabulary` distinct ones (0: any). */
function wordsOf(rand: () => number, vocabulary = 0): () => string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const fresh = (): string => {
    let w = '';
    const len = 3 + Math.floor(rand() * 6);
    for (let i = 0; i < len; i++) w += letters[Math.floor(rand() * 26)];
    return w;
  };
  const known = Array.from({ length: vocabulary }, fresh);
  return vocabulary === 0 ? fresh : () => known[Math.floor(rand() * vocabulary)] as string;
}

/** `n` distinct messages as issue 54 had them: `INFO user-<w>-<w> <1–4 words> did <k>`, in many shapes. */
function distinctLines(n: number, seed = 1): string[] {
  const rand = random(seed);
  const word = wordsOf(rand);
  return Array.from({ length: n }, () => {
    const extra = Array.from({ length: 1 + Math.floor(rand() * 4) }, word).join(' ');
    return `INFO user-${word()}-${word()} ${extra} did ${Math.floor(rand() * 1000)}`;
  });
}

/** The same, masked. */
function distinctMessages(n: number, seed = 1): string[][] {
  return distinctLines(n, seed).map((line) => tokenize(line, false).map(maskToken));
}

/** Messages from a small vocabulary: clusters that join, widen and absorb one another. */
function overlappingMessages(n: number, seed: number, vocabulary: number): string[][] {
  const rand = random(seed);
  const word = wordsOf(rand, vocabulary);
  return Array.from({ length: n }, () => {
    const tokens = Array.from({ length: 2 + Math.floor(rand() * 5) }, () => (rand() < 0.2 ? String(Math.floor(rand() * 100)) : word()));
    return tokenize(tokens.join(' '), false).map(maskToken);
  });
}

/** Clusters compared to learn `messages`, then to match each against the templates learned (as mergeMinings and keyTemplates do). */
function miningWork(messages: readonly string[][], indexed: boolean): number {
  const learner = new Drain(DEFAULT_DRAIN_PARAMETERS, { indexed });
  for (const m of messages) learner.add(m);
  const matcher = new Drain(DEFAULT_DRAIN_PARAMETERS, { indexed });
  for (const c of learner.live()) matcher.restore(c.tokens);
  for (const m of messages) matcher.match(m);
  return learner.compared + matcher.compared;
}

/** Everything a Drain decided: each message's cluster, the templates, what absorbed what, and what each message matches after. */
function decisions(messages: readonly string[][], parameters: DrainParameters, indexed: boolean): unknown {
  const d = new Drain(parameters, { indexed });
  const joined = messages.map((m) => d.add(m).id);
  const matched = messages.map((m) => d.match(m)?.id ?? -1);
  const restored = new Drain(parameters, { indexed });
  for (const c of d.live()) restored.restore(c.tokens);
  const rematched = messages.map((m) => restored.match(m)?.id ?? -1);
  return { joined, clusters: d.clusters.map((c) => [c.tokens.join(' '), c.mergedInto]), matched, rematched };
}

describe('mining work grows linearly with distinct messages', () => {
  it('1k, 2k, 4k, 8k distinct messages: clusters compared ~ proportional (the plain scan: ~quadratic)', () => {
    const sizes = [1000, 2000, 4000, 8000];
    const sets = sizes.map((n) => distinctMessages(n));
    const indexed = sets.map((s) => miningWork(s, true));
    // Each doubling at most ~doubles the work (2.6 allows for the few templates more per message as they grow).
    for (let k = 1; k < sizes.length; k++) expect(indexed[k]! / indexed[k - 1]!).toBeLessThan(2.6);
    expect(indexed[3]! / sizes[3]!).toBeLessThan(50);
    // The plain scan, for the record: each doubling ~quadruples it (what took 197 s of CPU at 16k a class).
    const plain = sets.slice(0, 3).map((s) => miningWork(s, false));
    expect(plain[2]! / plain[1]!).toBeGreaterThan(3);
    expect(plain[2]!).toBeGreaterThan(indexed[2]! * 20);
  });
});

describe('the index changes no template', () => {
  const variants: Array<[string, DrainParameters]> = [
    ['defaults', DEFAULT_DRAIN_PARAMETERS],
    ['plain Drain (minWordVariants 1, any differences)', { ...DEFAULT_DRAIN_PARAMETERS, minWordVariants: 1, maxTokenDifferences: Infinity }],
    ['similarity 0', { ...DEFAULT_DRAIN_PARAMETERS, similarity: 0 }],
    ['similarity 0.7, depth 3', { ...DEFAULT_DRAIN_PARAMETERS, similarity: 0.7, depth: 3 }],
    ['similarity 1, 4 children', { ...DEFAULT_DRAIN_PARAMETERS, similarity: 1, maxChildren: 4 }],
    ['similarity 0.5, depth 6, 2 differences', { ...DEFAULT_DRAIN_PARAMETERS, similarity: 0.5, depth: 6, maxTokenDifferences: 2 }],
  ];
  for (const [name, parameters] of variants) {
    it(`generated messages, ${name}: the same clusters, absorptions and matches as the plain scan`, () => {
      for (const [seed, vocabulary] of [[1, 5], [2, 12], [3, 40], [4, 400]] as const) {
        const messages = overlappingMessages(1500, seed, vocabulary);
        expect(decisions(messages, parameters, true)).toEqual(decisions(messages, parameters, false));
      }
      const distinct = distinctMessages(800, 7);
      expect(decisions(distinct, parameters, true)).toEqual(decisions(distinct, parameters, false));
    });
  }

  it('the raw fixtures (log4j, syslog, trace CSV, TrainTicket), keys in mining order: the same clusters and matches', async () => {
    // (fixtures/raw/exports holds one set per export format.)
    const dirs = (at: string): string[] => readdirSync(join(FIXTURES_DIR, 'raw', at), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const sets = dirs('').filter((d) => d !== 'translators').flatMap((d) => (d === 'exports' ? dirs('exports').map((x) => `exports/${x}`) : [d]));
    expect(sets.length).toBeGreaterThanOrEqual(4);
    let compared = 0;
    for (const set of sets) {
      // (fixtures/raw/headers holds one log per header family, no classes: each file is mined.)
      const files = set === 'headers' ? await listInputFiles(join(FIXTURES_DIR, 'raw', set), 'good')
        : [...await listInputFiles(join(FIXTURES_DIR, 'raw', set, 'good'), 'good'), ...await listInputFiles(join(FIXTURES_DIR, 'raw', set, 'bad'), 'bad')];
      const seen = new Set<string>();
      const messages: string[][] = [];
      for (const file of files) {
        for (const k of (await mineFile(file)).keys) {
          if (seen.has(k.key)) continue;
          seen.add(k.key);
          messages.push(k.masked);
        }
      }
      // A set whose lines name their log statements (TrainTicket's Class#line) leaves few messages to mine.
      compared += messages.length;
      expect(decisions(messages, DEFAULT_DRAIN_PARAMETERS, true)).toEqual(decisions(messages, DEFAULT_DRAIN_PARAMETERS, false));
    }
    expect(compared).toBeGreaterThan(30);
  });
});

describe('SIGINT while templates are mined', () => {
  it('16 000 distinct lines a class: the run ends within the bound, exit 130, one line', async () => {
    const sb = makeSandbox('distalyze-mining-signal-');
    onTestFinished(() => sb.cleanup());
    let seed = 1;
    for (const c of ['good', 'bad']) {
      for (let f = 0; f < 4; f++) {
        const lines = distinctLines(4000, seed++).map((m, i) => `2026-11-20 10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},000 ${m}`);
        sb.write(`distinct/${c}/run-${f}.log`, `${lines.join('\n')}\n`);
      }
    }
    // Past the start-up (~0.4 s of CPU): mining. (Before the index, its merge took 81 s of CPU at this size, deaf to signals.)
    const r = await runThenSignal(['templates', sb.path('distinct', 'good'), sb.path('distinct', 'bad')], (pid) => cpuSeconds(pid) >= 0.7, 'SIGINT');
    expect(r.status).toBe(130);
    expect(r.stderr).toBe('distalyze: interrupted by SIGINT\n');
    expect(r.ms).toBeLessThan(BOUND_MS);
  });
});
