import type { Analysis } from '../analysis.js';

const COLUMNS = ['variable', 'kind', 'feature', 'method', 't', 'df', 'p', 'log10p', 'z', 'significant', 'separated', 'meanGood', 'meanBad', 'nGood', 'nBad', 'effectSize', 'presence'] as const;

/** Every test as one TAB-separated row; names escaped so a TAB or newline in a name cannot shift columns. */
export function renderTsv(a: Analysis): string {
  const rows = [COLUMNS.join('\t')];
  for (const t of a.tests) {
    rows.push([
      escapeTsv(t.variable), t.kind, t.feature, t.method, num(t.t), num(t.df), num(t.p), num(t.log10p), num(t.z),
      String(t.significant), String(t.separated), num(t.meanGood), num(t.meanBad), num(t.nGood), num(t.nBad), num(t.effectSize), t.presence,
    ].join('\t'));
  }
  return `${rows.join('\n')}\n`;
}

function num(x: number): string {
  return Number.isNaN(x) ? 'NA' : String(x);
}

/** Backslash escapes for TAB, CR, LF and backslash (the convention of PostgreSQL's COPY text format). */
export function escapeTsv(text: string): string {
  return text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}
