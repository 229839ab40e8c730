import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './helpers/run.js';

// Where the time went (SPEC §6) when bad has a line good never had (verdict.ts creditedWaits): the wait
// before a new line is billed to it, so a line inserted into a step takes that step's time. Each case
// here is 30 requests a class, A → … → B, with exact times (1 ms of jitter per request, the same in both
// classes), so the credited seconds can be written down by hand.

/** A class directory of one dlog file: request i's events at the given offsets (seconds) plus i·1e-4 s of jitter on the last step. */
function classDir(root: string, name: string, steps: ReadonlyArray<readonly [string, number]>): string {
  const dir = join(root, name);
  mkdirSync(dir);
  let text = '';
  for (let i = 0; i < 30; i++) {
    text += `I\treq-${i}\n`;
    const start = 10 * i;
    steps.forEach(([event, at], k) => {
      text += `E\t${(start + at + (k === steps.length - 1 ? i * 1e-4 : 0)).toFixed(6)}\t${event}\n`;
    });
  }
  writeFileSync(join(dir, 'requests.dlog'), text);
  return dir;
}

async function shares(bad: ReadonlyArray<readonly [string, number]>): Promise<{ sentence: string; shares: Map<string, number> }> {
  const root = mkdtempSync(join(tmpdir(), 'distalyze-shares-'));
  const good = classDir(root, 'good', [['A', 0], ['B', 0.1], ['C', 0.2]]);
  const r = await run(good, classDir(root, 'bad', bad), '--json', '-');
  expect(r.code).toBe(0);
  const v = JSON.parse(r.stdout).verdict as { sentence: string; timeShares: Array<{ event: string; difference: number }> };
  return { sentence: v.sentence, shares: new Map(v.timeShares.map((s) => [s.event, s.difference])) };
}

describe('time shares with a line new in bad (issue 52)', () => {
  it('a free line inside a step: the time it took from the step is not added time; the step that grew has it all', async () => {
    // A new line X halfway through A → B (raw: X +0.04 s, B −0.04 s); C's step grew 0.1 → 0.2 s.
    const v = await shares([['A', 0], ['X', 0.04], ['B', 0.1], ['C', 0.3]]);
    expect(v.shares.get('C')).toBeCloseTo(0.1, 3);
    expect(v.shares.has('X')).toBe(false);
    expect(v.sentence).toMatch(/Where the time went: \+0\.1\d* s before C \(100% of the added time\)\.$/);
  });

  it('a new step that took time of its own (a retry) keeps it: nothing it interrupted shrank', async () => {
    // A retry before B: A → 0.1 s → RETRY → 0.1 s → B: RETRY +0.1 s, B's wait unchanged.
    const v = await shares([['A', 0], ['RETRY', 0.1], ['B', 0.2], ['C', 0.3]]);
    expect(v.shares.get('RETRY')).toBeCloseTo(0.1, 9);
    expect(v.sentence).toMatch(/\+0\.1 s before RETRY \(100% of the added time\)/);
  });
});
