/** Moved to src/stats/ (issue 56: the statistics' ground floor, one statistic per file); re-exported for old importers. */
export { correlation, correlationOver } from '../stats/correlation.js';
export { median, medianOfSorted, midpoint } from '../stats/median.js';
export { finiteMean, sumOver } from '../stats/sum.js';
