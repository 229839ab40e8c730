/** Moved to src/stats/normal-quantile.ts (issue 56: the statistics' ground floor); re-exported for old importers. */
export * from '../stats/normal-quantile.js';
