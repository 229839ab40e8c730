/**
 * The HTML report (SPEC §6, `--html FILE`): one self-contained page, no network
 * at view time. The verdict (the top graph per log kind, drawn by Graphviz at
 * analysis time), the ranking, every t-test in a sortable, filterable table and,
 * for the row clicked, both classes' distributions of that feature.
 * Same Analysis, same bytes: nothing here reads a clock or a random source.
 */
import type { Analysis } from '../analysis.js';
import { buildPageData } from './html/data.js';
import { drawGraphs } from './html/graphs.js';
import { renderPage } from './html/page.js';

export async function renderHtml(analysis: Analysis): Promise<string> {
  return renderPage(analysis, buildPageData(analysis), await drawGraphs(analysis));
}
