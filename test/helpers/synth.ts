/**
 * Synthetic dlog for tests: the same simulation that writes fixtures/ (it lives
 * in fixtures/generate.mjs, the single source), plus helpers to build class
 * directories in a temp dir. See fixtures/README.md for what is planted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  generatePipelineRun,
  seedStream,
  writeClassDir,
  type ClassDirOptions,
  type PipelineRunOptions,
} from '../../fixtures/generate.mjs';

export {
  FIXTURE_SEEDS,
  PIPELINE_CLASSES,
  formatCsv,
  formatDlog,
  formatTimestamp,
  generatePipelineRun,
  generateRequestsFile,
  gzipDeterministic,
  instanceFileName,
  mulberry32,
  normal,
  randInt,
  seedStream,
  simulatePipelineRun,
  simulateRequest,
  uniform,
  writeClassDir,
} from '../../fixtures/generate.mjs';
export type {
  ClassDirOptions,
  PipelineRunOptions,
  RequestOptions,
  RequestsFileOptions,
  Rng,
  SynthRecord,
} from '../../fixtures/generate.mjs';

/** Absolute paths of the checked-in fixture sets. */
export const FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures');
export const FIXTURES = {
  pipelineGood: join(FIXTURES_DIR, 'pipeline', 'good'),
  pipelineBad: join(FIXTURES_DIR, 'pipeline', 'bad'),
  nullA: join(FIXTURES_DIR, 'null', 'a'),
  nullB: join(FIXTURES_DIR, 'null', 'b'),
  requestsGood: join(FIXTURES_DIR, 'pipeline-requests.dlog'),
  requestsBad: join(FIXTURES_DIR, 'pipeline-requests-bad.dlog'),
  csvGood: join(FIXTURES_DIR, 'csv', 'good'),
  csvBad: join(FIXTURES_DIR, 'csv', 'bad'),
  gzGood: join(FIXTURES_DIR, 'gz', 'good'),
  gzBad: join(FIXTURES_DIR, 'gz', 'bad'),
} as const;

/**
 * `n` pipeline runs of one class as dlog texts. Instance seeds come from one
 * stream started at `seed`, so two calls with different seeds are independent
 * draws and the same call always gives the same texts. Other options (e.g.
 * `lockWaitMean`) apply to every run.
 */
export function generatePipelineClass(
  n: number,
  opts: PipelineRunOptions,
): string[] {
  return seedStream(opts.seed, n).map((seed) => generatePipelineRun({ ...opts, seed }));
}

/** A temp directory holding `good/` and `bad/` class directories. */
export interface ClassDirs {
  readonly root: string;
  readonly good: string;
  readonly bad: string;
  /** Removes `root` and everything in it. */
  cleanup(): void;
}

/** Writes `good` and `bad` instance texts into a fresh temp directory. */
export function makeClassDirs(
  good: readonly (string | Uint8Array)[],
  bad: readonly (string | Uint8Array)[],
  opts?: ClassDirOptions,
): ClassDirs {
  const root = mkdtempSync(join(tmpdir(), 'distalyze-synth-'));
  const dirs = { root, good: join(root, 'good'), bad: join(root, 'bad') };
  writeClassDir(dirs.good, good, opts);
  writeClassDir(dirs.bad, bad, opts);
  return { ...dirs, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
