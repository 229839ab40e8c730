/**
 * Issue 54, item 13: the library checks its options as the CLI checks its
 * flags. Every option of the wrong type or range, a misspelt one, a missing
 * options object, and a translator of the wrong shape are an InputError
 * naming the option, before anything is read.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { distalyze, InputError, readClasses } from '../src/index.js';

let good = '';
let bad = '';

beforeAll(() => {
  const root = mkdtempSync(join(tmpdir(), 'distalyze-trust-library-'));
  good = join(root, 'g');
  bad = join(root, 'b');
  for (const [dir, shift] of [[good, 0], [bad, 1]] as const) {
    mkdirSync(dir);
    for (let k = 1; k <= 4; k++) writeFileSync(join(dir, `i${k}.dlog`), `E\t0\tStart\nS\t0.1\tq\t${k + shift}\nE\t${1 + shift}.${k}\tEnd\n`);
  }
});

/** distalyze(options) rejects with exactly this InputError. */
async function rejects(options: unknown, message: string): Promise<void> {
  const err = await (distalyze as (o: unknown) => Promise<unknown>)(options).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(InputError);
  expect((err as InputError).message).toBe(message);
}

describe('distalyze() without its options', () => {
  it('no options, null, an array', async () => {
    await rejects(undefined, "distalyze(options): needs an object such as { good: 'good/', bad: 'bad/' }, got undefined");
    await rejects(null, "distalyze(options): needs an object such as { good: 'good/', bad: 'bad/' }, got null");
    await rejects([good, bad], "distalyze(options): needs an object such as { good: 'good/', bad: 'bad/' }, got an array");
  });

  it('good or bad missing, or not a path', async () => {
    await rejects({ good }, 'bad: is required: a directory or a file of logs, got undefined');
    await rejects({ good: 1, bad }, 'good: must be a non-empty string, got 1');
  });

  it('a misspelt option', async () => {
    await rejects({ good, bad, alhpa: 0.01 }, "unknown option 'alhpa'");
  });
});

describe('each option by type and range', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ alpha: 'x' }, "alpha: must be a number between 0 and 1 (exclusive), got 'x'"],
    [{ alpha: 2 }, 'alpha: must be a number between 0 and 1 (exclusive), got 2'],
    [{ alpha: Number.NaN }, 'alpha: must be a number between 0 and 1 (exclusive), got NaN'],
    [{ correction: 'nope' }, "correction: must be one of 'bonferroni', 'holm', 'bh', 'none', got 'nope'"],
    [{ kinds: true }, "kinds: must be one of 'on', 'combine', 'off', got true"],
    [{ inflation: 'on' }, "inflation: must be one of 'auto', 'off', got 'on'"],
    [{ balance: 1.5 }, 'balance: must be a number from 0 to 1, got 1.5'],
    [{ top: 0 }, 'top: must be a whole number ≥ 1, got 0'],
    [{ maxNodes: 2.5 }, 'maxNodes: must be a whole number ≥ 1, got 2.5'],
    [{ dnClass: 'worse' }, "dnClass: must be one of 'good', 'bad', 'both', got 'worse'"],
    [{ minSplit: 1 }, 'minSplit: must be a whole number ≥ 2, got 1'],
    [{ splitAlpha: 0 }, 'splitAlpha: must be a number between 0 and 1 (exclusive), got 0'],
    [{ splitTest: 'f' }, "splitTest: must be one of 'rank', 'f-splits', 'f-predictors', got 'f'"],
    [{ dnSample: '100' }, "dnSample: must be a whole number ≥ 2, got '100'"],
    [{ seed: -1 }, 'seed: must be a whole number ≥ 0, got -1'],
    [{ distributions: 'yes' }, "distributions: must be true or false, got 'yes'"],
    [{ jobs: 200 }, 'jobs: must be a whole number from 1 to 64, got 200'],
    [{ jobs: 0 }, 'jobs: must be a whole number from 1 to 64, got 0'],
    [{ year: 26 }, 'year: must be a whole number from 1970 to 9999, got 26'],
    [{ strict: 1 }, 'strict: must be true or false, got 1'],
    [{ twoPass: 'no' }, "twoPass: must be true or false, got 'no'"],
    [{ compressedEnds: null }, 'compressedEnds: must be true or false, got null'],
    [{ performance: 2 }, 'performance: must be an object { jobs?, twoPass?, compressedEnds? }, got 2'],
    [{ performance: { jobs: 200 } }, 'performance.jobs: must be a whole number from 1 to 64, got 200'],
    [{ performance: { twoPass: 'no' } }, "performance.twoPass: must be true or false, got 'no'"],
    [{ performance: { threads: 2 } }, 'performance.threads: is not a performance option (jobs, twoPass, compressedEnds), got 2'],
    // The deprecated name and the new one together: which one counts would be a guess.
    [{ jobs: 1, performance: { jobs: 1 } }, 'jobs is given twice: give performance.jobs alone (jobs is its deprecated name)'],
    [{ metrics: 'm/' }, "metrics: must be an array of paths, got 'm/'"],
    [{ metrics: ['m/', 3] }, 'metrics[1]: must be a non-empty string, got 3'],
    [{ metricsBand: -1 }, "metricsBand: must be 'auto' or a number ≥ 0, got -1"],
    [{ metricsAlign: 'middle' }, "metricsAlign: must be one of 'end', 'start', got 'middle'"],
    [{ metric: '' }, "metric: must be a non-empty string, got ''"],
    [{ weight: 'auto' }, "weight: must be { mode: 'none' }, { mode: 'auto' } or { mode: 'exp', half } with half > 0, got 'auto'"],
    [{ weight: { mode: 'exp', half: 0 } }, "weight: must be { mode: 'none' }, { mode: 'auto' } or { mode: 'exp', half } with half > 0, got an object"],
    [{ hooks: { onByte: () => undefined } }, 'hooks.onByte: is not a hook (hooks are onFiles, onBytes, onFileDone, onNote, onPass, onPassDone, onSecondPass, onEndsPass, onEndsPassDone, onMiningPass, onMiningPassDone, onStage), got a function'],
    [{ hooks: { onBytes: 1 } }, 'hooks.onBytes: must be a function, got 1'],
  ];
  for (const [option, message] of cases) {
    it(`${JSON.stringify(option)}`, async () => {
      await rejects({ good, bad, ...option }, message);
    });
  }

  it('a translator of the wrong shape is refused, not ignored', async () => {
    const shape = "must be a path (a string) or a Translator ({ type: 'lines', path, translateLine } or { type: 'executable', path, command })";
    await rejects({ good, bad, translator: { translate: () => true } }, `translator: ${shape}, got an object`);
    await rejects({ good, bad, translator: { type: 'lines', path: 'x', translate: () => true } }, `translator: ${shape}, got an object`);
    await rejects({ good, bad, translator: () => true }, `translator: ${shape}, got a function`);
  });

  it('readClasses checks its options too', async () => {
    const err = await readClasses(good, bad, { jobs: 200 }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toBe('jobs: must be a whole number from 1 to 64, got 200');
  });

  it('options given as undefined are not given; good options still run', async () => {
    const analysis = await distalyze({ good, bad, alpha: undefined, correction: 'holm', jobs: 1, weight: { mode: 'none' }, hooks: {} });
    expect(analysis.tests.some((t) => t.significant)).toBe(true);
  });
});
