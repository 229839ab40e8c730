/**
 * Batch claims (src/parse/claims.ts): the main thread claims batches from the
 * front, the workers from the back, through one SharedArrayBuffer. Every
 * batch must be claimed exactly once, by whichever thread gets there, and
 * `close` must leave nothing to claim and say where the back's claims begin.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BatchClaims } from '../src/parse/claims.js';

describe('BatchClaims', () => {
  it('hands out batches from both ends until they meet, each once', () => {
    const claims = new BatchClaims(5);
    const other = new BatchClaims(claims.buffer); // another thread's view of the same claims
    expect([claims.front(), other.back(), claims.front(), other.back(), claims.front()]).toEqual([0, 4, 1, 3, 2]);
    expect([claims.front(), other.back()]).toEqual([-1, -1]);
    expect(claims.close()).toBe(3);
  });

  it('close leaves nothing to claim and returns where the back began, the unclaimed middle skipped', () => {
    const claims = new BatchClaims(10);
    expect([claims.front(), claims.back(), claims.back()]).toEqual([0, 9, 8]);
    expect(claims.close()).toBe(8);
    expect([claims.front(), claims.back()]).toEqual([-1, -1]);
    expect(claims.close()).toBe(8); // idempotent
  });

  it('the front leaves the rest to the back when `leave` says so, asked only while the back still claims', () => {
    const claims = new BatchClaims(6);
    const other = new BatchClaims(claims.buffer);
    const asked: [number, number][] = [];
    const leaveFrom = (at: number) => (lo: number, hi: number): boolean => {
      asked.push([lo, hi]);
      return lo >= at;
    };
    expect([claims.front(leaveFrom(2)), other.back(), claims.front(leaveFrom(2)), claims.front(leaveFrom(2))]).toEqual([0, 5, 1, -1]);
    expect(asked).toEqual([[0, 6], [1, 5], [2, 5]]);
    // Left: the front claims no more, the back takes the rest, and the back begins where the front stopped.
    expect(claims.frontEnd()).toBe(2);
    expect([other.back(), other.back(), other.back(), other.back()]).toEqual([4, 3, 2, -1]);
    // Once a claim from the back came back empty, the front is not asked to leave (no one would read the rest).
    const ended = new BatchClaims(3);
    expect([ended.back((b) => b !== 0), ended.back((b) => b !== 0), ended.back((b) => b !== 0)]).toEqual([2, 1, -1]);
    asked.length = 0;
    expect(ended.front(leaveFrom(0))).toBe(0);
    expect(asked).toEqual([]);
  });

  it('from the back, the last batch only when takeLast accepts it: declined, it is left to the front', () => {
    const claims = new BatchClaims(3);
    const asked: number[] = [];
    const decline = (b: number): boolean => {
      asked.push(b);
      return false;
    };
    // Two left: the back one is taken without asking; one left: asked, declined, and the front takes it.
    expect([claims.back(decline), claims.front(), claims.back(decline), claims.front(), claims.front()]).toEqual([2, 0, -1, 1, -1]);
    expect(asked).toEqual([1]);
    const accepting = new BatchClaims(1);
    expect([accepting.back(() => true), accepting.front()]).toEqual([0, -1]);
  });

  it('with no batches, nothing is claimed', () => {
    const claims = new BatchClaims(0);
    expect([claims.front(), claims.back(), claims.close()]).toEqual([-1, -1, 0]);
  });

  it('two threads claiming at once from both ends: every batch exactly once', async () => {
    const count = 200_000;
    const claims = new BatchClaims(count);
    // The worker claims from the back as fast as it can (the compiled module, as the parsing workers use it).
    const url = pathToFileURL(join(import.meta.dirname, '..', 'dist', 'parse', 'claims.js')).href;
    const worker = new Worker(`
      const { parentPort, workerData } = require('node:worker_threads');
      import(${JSON.stringify(url)}).then(({ BatchClaims }) => {
        const claims = new BatchClaims(workerData);
        parentPort.postMessage('started');
        const got = [];
        for (let b = claims.back(); b >= 0; b = claims.back()) got.push(b);
        parentPort.postMessage(got);
      });`, { eval: true, workerData: claims.buffer });
    let started!: () => void;
    const starting = new Promise<void>((resolve) => { started = resolve; });
    const theirs = new Promise<number[]>((resolve, reject) => {
      worker.on('message', (m: 'started' | number[]) => (m === 'started' ? started() : resolve(m)));
      worker.on('error', reject);
    });
    // This thread starts once the worker is claiming: both claim at once.
    await starting;
    const ours: number[] = [];
    for (let b = claims.front(); b >= 0; b = claims.front()) ours.push(b);
    const back = await theirs;
    await worker.terminate();
    const seen = new Uint8Array(count);
    for (const b of [...ours, ...back]) seen[b]! += 1;
    expect(seen.every((n) => n === 1)).toBe(true);
    expect(ours.length).toBeGreaterThan(0);
    expect(back.length).toBeGreaterThan(0);
    // Each side's claims are contiguous: the front's from 0, the back's down to where the front stopped.
    expect(ours).toEqual(Array.from({ length: ours.length }, (_, i) => i));
    expect(back).toEqual(Array.from({ length: back.length }, (_, i) => count - 1 - i));
  });
});
