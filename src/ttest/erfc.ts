/** Moved to src/stats/erfc.ts (issue 56: the statistics' ground floor); re-exported for old importers. */
export * from '../stats/erfc.js';
