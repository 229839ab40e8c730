/** Moved to src/stats/prng.ts (issue 56: the statistics' ground floor); re-exported for old importers. */
export * from '../stats/prng.js';
