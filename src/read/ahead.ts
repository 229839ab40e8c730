/**
 * What the reading starts before it is called, for a caller that loads it
 * later (the CLI: workers start while this thread loads the stages). Only
 * read/ starts parsing workers; this module is small so that importing it
 * costs nothing before the workers are asked for.
 */
import { prestartFor, stopPrestarted } from './parallel/threads.js';
import { performanceOf, type ReadOptions } from '../read-options.js';

/**
 * Parsing workers for a reading that will use them, started now (read/parallel/threads.ts prestartFor: with `jobs`
 * given, or both classes large files). None with metrics (joined on this thread) or from ClickHouse.
 */
export function startWorkersAhead(goodSpec: string, badSpec: string, options: ReadOptions): void {
  if ((options.metrics ?? []).length === 0 && options.clickhouse === undefined) prestartFor(goodSpec, badSpec, performanceOf(options).jobs);
}

/** Workers started ahead that no reading took (the run starts again elsewhere): stopped. Returns how many. */
export function stopWorkersAhead(): number {
  return stopPrestarted();
}
