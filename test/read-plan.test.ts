/**
 * The reading plan (src/read/plan.ts): each decision readClasses takes about how to read, one case or more
 * per decision, on listings made up here (no file is opened: the plan is pure).
 */
import { describe, expect, it } from 'vitest';
import type { InputFile } from '../src/parse/input-file.js';
import { needsSecondPass, PARALLEL_MIN_BYTES, planEnds, planRead, planSeries, SERIES_IN_MEMORY_MAX_BYTES, type ReadPlan } from '../src/read/plan.js';
import type { ReadOptions } from '../src/read-options.js';
import type { Translator } from '../src/parse/translator.js';

const MiB = 1024 * 1024;
const file = (path: string, size: number, gzip = false): InputFile => ({ path, relativePath: path, gzip, size });
/** n files of `size` bytes in each class. */
const classes = (n: number, size: number): { good: InputFile[]; bad: InputFile[] } => ({
  good: Array.from({ length: n }, (_, i) => file(`good/${i}.dlog`, size)),
  bad: Array.from({ length: n }, (_, i) => file(`bad/${i}.dlog`, size)),
});
const TWO_CORES = { cores: 2 };
const translatorObject = { type: 'lines', translate: () => undefined } as unknown as Translator;

describe('planRead: from the listing and the options', () => {
  it('adds up the bytes, and reads twice only what is not standard input', () => {
    const plan = planRead(classes(3, 1000), {}, TWO_CORES);
    expect(plan.totalBytes).toBe(6000);
    expect(plan.rereadable).toBe(true);
    const stdin = planRead({ good: [file('-', 0)], bad: [file('bad/a.dlog', 1000)] }, {}, TWO_CORES);
    expect(stdin.rereadable).toBe(false);
  });

  it('takes jobs as given, else one thread per 32 MiB and two files, up to the cores', () => {
    expect(planRead(classes(2, 1000), { jobs: 3 }, TWO_CORES).jobs).toBe(3); // an explicit number always
    expect(planRead(classes(2, 1000), {}, TWO_CORES).jobs).toBe(1); // 4 KB: one thread
    expect(planRead(classes(64, MiB), {}, TWO_CORES).jobs).toBe(2); // 128 MiB of 1 MiB files: 4 by size, 2 cores
    expect(planRead(classes(64, MiB), {}, { cores: 8 }).jobs).toBe(4); // 128 MiB / 32 MiB
    // One file per class of 32 MiB or more: a thread each (each class's only file).
    expect(planRead(classes(1, 40 * MiB), {}, TWO_CORES).jobs).toBe(2);
    expect(planRead(classes(1, 20 * MiB), {}, TWO_CORES).jobs).toBe(1);
  });

  it('reads in workers with more than one job and file, unless a metric join, a Translator object, stdin or windows by entry', () => {
    const large = classes(64, MiB);
    const parallel = planRead(large, {}, TWO_CORES);
    expect(parallel.parallel).toBe(true);
    expect(parallel.workersAhead).toBe(1);
    expect(planRead(large, { jobs: 4 }, TWO_CORES).workersAhead).toBe(3);
    const not: [string, ReadOptions, ReturnType<typeof classes>][] = [
      ['one job', { jobs: 1 }, large],
      ['metrics', { metrics: ['m/'] }, large],
      ['a Translator object', { translator: translatorObject }, large],
      ['windows by entry', { windowsByEntry: true }, large],
      ['one file', { jobs: 2 }, { good: [file('g.dlog', 100 * MiB)], bad: [] }],
      ['stdin', { jobs: 2 }, { good: [file('-', 0)], bad: large.bad }],
    ];
    for (const [why, options, files] of not) {
      const plan = planRead(files, options, TWO_CORES);
      expect(plan.parallel, why).toBe(false);
      expect(plan.workersAhead, why).toBe(0);
    }
    // A translator file is sent to workers by its path.
    expect(planRead(large, { translator: 'rules.yaml' }, TWO_CORES).parallel).toBe(true);
  });

  it('mines only without a translator, with jobs as given, else every core from 16 MiB', () => {
    expect(planRead(classes(2, 1000), {}, TWO_CORES).mineIfRaw).toBe(true);
    expect(planRead(classes(2, 1000), { translator: 'rules.yaml' }, TWO_CORES).mineIfRaw).toBe(false);
    expect(planRead(classes(2, 1000), { translator: translatorObject }, TWO_CORES).mineIfRaw).toBe(false);
    expect(planRead(classes(2, 1000), {}, { cores: 8 }).miningJobs).toBe(1);
    expect(planRead(classes(1, PARALLEL_MIN_BYTES / 2), {}, { cores: 8 }).miningJobs).toBe(8); // exactly 16 MiB
    expect(planRead(classes(1, PARALLEL_MIN_BYTES / 2 - 1), {}, { cores: 8 }).miningJobs).toBe(1);
    expect(planRead(classes(1, PARALLEL_MIN_BYTES), { jobs: 3 }, { cores: 8 }).miningJobs).toBe(3);
  });

  it('joins metrics when some are given, with the Bonferroni band unless a number is', () => {
    expect(planRead(classes(2, 1000), {}, TWO_CORES)).toMatchObject({ metricJoin: false, metricsBand: 'bonferroni' });
    expect(planRead(classes(2, 1000), { metrics: [] }, TWO_CORES).metricJoin).toBe(false);
    expect(planRead(classes(2, 1000), { metrics: ['m/'], metricsBand: 3 }, TWO_CORES)).toMatchObject({ metricJoin: true, metricsBand: 3 });
    expect(planRead(classes(2, 1000), { metricsBand: 0 }, TWO_CORES).metricsBand).toBe(0);
  });
});

describe('planEnds: where the files\' ends come from', () => {
  const plain = planRead(classes(2, 1000), {}, TWO_CORES);
  it('from the miner, a translator file, or the records themselves', () => {
    expect(planEnds(plain, {}, true)).toEqual({ source: 'mined', compressed: 'if large', countInstancesEarly: true });
    expect(planEnds(plain, {}, false)).toEqual({ source: 'records', compressed: 'if large', countInstancesEarly: false });
    expect(planEnds(plain, { translator: 'rules.yaml' }, false).source).toBe('rules');
  });

  it('none from standard input, with a metric join, or with a Translator object', () => {
    const stdin = planRead({ good: [file('-', 0)], bad: [file('b.dlog', 10)] }, {}, TWO_CORES);
    expect(planEnds(stdin, {}, false).source).toBe('none');
    expect(planEnds(stdin, {}, true)).toMatchObject({ source: 'none', countInstancesEarly: false });
    const metrics = planRead(classes(2, 1000), { metrics: ['m/'] }, TWO_CORES);
    expect(planEnds(metrics, { metrics: ['m/'] }, false).source).toBe('none');
    expect(planEnds(plain, { translator: translatorObject }, false).source).toBe('none');
  });

  it('decompresses compressed files for their ends as compressedEnds says, else when large', () => {
    expect(planEnds(plain, { compressedEnds: true }, false).compressed).toBe('always');
    expect(planEnds(plain, { compressedEnds: false }, false).compressed).toBe('never');
  });
});

describe('planSeries: Dref ahead, series held or a second pass', () => {
  const small = planRead(classes(2, 1000), {}, TWO_CORES);
  const huge: ReadPlan = { ...small, totalBytes: SERIES_IN_MEMORY_MAX_BYTES + 1 };
  const records = planEnds(small, {}, false);
  const mined = planEnds(small, {}, true);

  it('guesses Dref from every file\'s ends, not with twoPass', () => {
    expect(planSeries(small, {}, records, 'all')).toEqual({ guessDref: true, keepSeries: true, endsCarried: 'all' });
    expect(planSeries(small, {}, mined, 'some').guessDref).toBe(false);
    expect(planSeries(small, {}, records, 'none').guessDref).toBe(false);
    expect(planSeries(small, { twoPass: true }, records, 'all')).toEqual({ guessDref: false, keepSeries: false, endsCarried: 'all' });
  });

  it('holds series up to 1 GiB, above it reads twice unless Dref is guessed, with a metric join always', () => {
    expect(planSeries(small, {}, records, 'none').keepSeries).toBe(true);
    expect(planSeries(huge, {}, records, 'none').keepSeries).toBe(false);
    expect(planSeries(huge, {}, records, 'all').keepSeries).toBe(true);
    const joined: ReadPlan = { ...huge, metricJoin: true };
    expect(planSeries(joined, { twoPass: true }, planEnds(joined, {}, false), 'none').keepSeries).toBe(true);
    // Standard input cannot be read twice: held, whatever its size or twoPass.
    const stdin: ReadPlan = { ...huge, rereadable: false };
    expect(planSeries(stdin, { twoPass: true }, planEnds(stdin, {}, false), 'none').keepSeries).toBe(true);
  });

  it('with a second pass, carries the ends found, or a large run\'s own', () => {
    expect(planSeries(huge, {}, mined, 'some').endsCarried).toBe('found');
    expect(planSeries(huge, {}, planEnds(huge, { translator: 'r.yaml' }, false), 'some').endsCarried).toBe('found');
    expect(planSeries(huge, {}, records, 'none').endsCarried).toBe('large runs');
    expect(planSeries(huge, {}, planEnds(huge, { translator: 'r.yaml' }, false), 'none').endsCarried).toBe('none');
    // Series held: only every file's ends are carried (q*.abs written as summarized).
    expect(planSeries(small, {}, mined, 'some').endsCarried).toBe('none');
    expect(planSeries(small, {}, records, 'none').endsCarried).toBe('none');
  });

  it('makes the second pass when series were not held or the guess was wrong, and there are states', () => {
    const held = planSeries(small, {}, records, 'all');
    const twice = planSeries(huge, {}, records, 'none');
    expect(needsSecondPass(held, false, 3)).toBe(false);
    expect(needsSecondPass(held, true, 3)).toBe(true);
    expect(needsSecondPass(twice, false, 3)).toBe(true);
    expect(needsSecondPass(twice, false, 0)).toBe(false);
  });
});

describe('the performance object (ReadOptions.performance) and its deprecated names', () => {
  it('decide alike: jobs, twoPass, compressedEnds', () => {
    const large = classes(64, MiB);
    for (const [now, old] of [[{ performance: { jobs: 3 } }, { jobs: 3 }], [{ performance: { jobs: 1 } }, { jobs: 1 }]] as [ReadOptions, ReadOptions][]) {
      expect(planRead(large, now, TWO_CORES)).toEqual(planRead(large, old, TWO_CORES));
    }
    expect(planRead(large, { performance: { jobs: 1 } }, TWO_CORES).parallel).toBe(false);
    const plan = planRead(classes(2, 1000), {}, TWO_CORES);
    expect(planEnds(plan, { performance: { compressedEnds: true } }, false).compressed).toBe('always');
    expect(planEnds(plan, { performance: { compressedEnds: false } }, false).compressed).toBe('never');
    const ends = planEnds(plan, {}, false);
    expect(planSeries(plan, { performance: { twoPass: true } }, ends, 'all')).toEqual(planSeries(plan, { twoPass: true }, ends, 'all'));
    expect(planSeries(plan, { performance: { twoPass: true } }, ends, 'all').keepSeries).toBe(false);
  });
});
