/** Moved to src/stats/gamma.ts (issue 56: the statistics' ground floor); re-exported for old importers. */
export * from '../stats/gamma.js';
