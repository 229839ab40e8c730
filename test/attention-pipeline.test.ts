import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { focusAttention } from '../src/attention/index.js';
import type { AttentionOptions } from '../src/attention/types.js';
import type { DependencyNetworkOptions } from '../src/dependency-network/types.js';
import { welchTests } from './dn-fixtures.js';
import { featuresOf, ROOT_FIXTURES } from './attention-fixtures.js';

const options: AttentionOptions & DependencyNetworkOptions = { balance: 0.5, top: 1, maxNodes: 10, dnClass: 'bad', splitAlpha: 0.05, sample: 100_000, seed: 1 };
const texts = (dir: string): string[] => readdirSync(dir).sort().map((f) => readFileSync(join(dir, f), 'utf8'));

describe('the pipeline fixture (planted lock contention, fixtures/README.md)', () => {
  const fs = featuresOf({ good: texts(join(ROOT_FIXTURES, 'pipeline/good')), bad: texts(join(ROOT_FIXTURES, 'pipeline/bad')) });
  const tests = welchTests(fs);
  const names = (kind: string, o = options): string[] => focusAttention(fs, tests, o).find((g) => g.kind === kind)!.nodes.map((n) => n.variable);

  it('focuses the state graph on duration — lock_wait_ms, without the red herrings', () => {
    expect(names('state').sort()).toEqual(['duration', 'lock_wait_ms']);
  });

  it('links duration to FlushEnd in the event graph', () => {
    expect(names('event')).toContain('FlushEnd');
  });

  it('lets the red herring heap_mb in with SPEC §4’s literal gate divisor (why the default divides by splits)', () => {
    const literal = { ...options, splitTest: 'f-predictors' as const, top: 10 };
    expect(focusAttention(fs, tests, literal).filter((g) => g.kind === 'state').some((g) => g.nodes.some((n) => n.variable === 'heap_mb'))).toBe(true);
  });
});
