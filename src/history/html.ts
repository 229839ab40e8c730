import type { History } from './index.js';
export function renderHistoryHtml(h: History): string {
  return `<!doctype html><title>history</title><p>${h.runs.length}</p>\n`;
}
