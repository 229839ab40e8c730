/** Moved to src/stats/normal.ts (issue 56: the statistics' ground floor); re-exported for old importers. */
export * from '../stats/normal.js';
