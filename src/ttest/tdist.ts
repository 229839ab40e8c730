/** Moved to src/stats/student-t.ts (issue 56: the statistics' ground floor); re-exported for old importers. */
export * from '../stats/student-t.js';
