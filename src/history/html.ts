/**
 * `history --html FILE`: one self-contained page, no script. Each changed
 * variable's trend as inline SVG (one point per run), the change marked and
 * linked to its before/after comparison. Every text from the logs goes
 * through escapeHtml; the Content-Security-Policy allows nothing but inline
 * style (as src/report/html/page.ts, minus the script).
 */
import { escapeHtml as h } from '../report/html/escape.js';
import { formatP, formatStat, formatValue, plural } from '../report/format.js';
import type { Comparison, DetectedChange, History } from './index.js';
import { changeLine, comparisonVerdict } from './render.js';
import type { RunSeries } from './series.js';

const CSP = ["default-src 'none'", "style-src 'unsafe-inline'", "img-src data:", "base-uri 'none'", "form-action 'none'"].join('; ');
/** Plots per variable: its most significant changed series. */
const PLOTS_PER_VARIABLE = 3;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1d2330}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}h3{font-size:1rem;margin-bottom:.2rem}
.muted{color:#667}.verdict{font-weight:600}table{border-collapse:collapse;margin:.5rem 0}
td,th{padding:.15rem .6rem;border-bottom:1px solid #eee;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
svg{display:block;margin:.3rem 0 1rem}.line{fill:none;stroke:#3465a4;stroke-width:1.5}.pt{fill:#3465a4}
.chg{stroke:#c00;stroke-width:1.5;stroke-dasharray:4 3}.chg-label{fill:#c00;font-size:11px}.axis{fill:#667;font-size:10px}
a{color:#1f5fbf}`;

export function renderHistoryHtml(hist: History): string {
  const instances = hist.runs.reduce((s, r) => s + r.instances, 0);
  const parts: string[] = [];
  parts.push(`<h1>distalyze history: ${h(plural(hist.runs.length, 'run'))}, P = ${h(hist.metric.variable)}</h1>`);
  parts.push(`<p class="muted">${h(`${hist.runs[0]?.name ?? ''} … ${hist.runs[hist.runs.length - 1]?.name ?? ''}, ${plural(instances, 'instance')}. ` +
    `${hist.seriesTested} distinct series searched (each feature's mean, variance and correlation with P, run by run); a change needs a permutation p < ${hist.alpha}/${hist.metricSeries} in P's own series, p < ${hist.alpha}/${Math.max(1, hist.seriesTested - hist.metricSeries)} in the others.`)}` +
    `${hist.ignored.length > 0 ? ` Ignored: ${h(hist.ignored.join(', '))}.` : ''}</p>`);
  if (hist.comparisons.length === 0) parts.push('<p class="verdict">No change found.</p>');
  else {
    parts.push('<h2>Changes</h2><ul>');
    hist.comparisons.forEach((c, i) => {
      parts.push(`<li><a href="#cmp-${i}">run ${h(hist.runs[c.run]!.name)} (#${c.run + 1})</a>: ${h(comparisonVerdict(hist, c))}</li>`);
    });
    parts.push('</ul>');
  }
  const byVariable = new Map<string, DetectedChange[]>();
  for (const c of hist.changes) {
    const key = `${c.kind}\t${c.variable}`;
    byVariable.set(key, [...(byVariable.get(key) ?? []), c]);
  }
  if (byVariable.size > 0) parts.push('<h2>Trends of the changed variables</h2>');
  for (const changes of byVariable.values()) {
    const first = changes[0]!;
    parts.push(`<h3>${h(first.metric ? `P = ${first.variable}` : first.variable)} <span class="muted">(${h(first.kind)})</span></h3>`);
    const bySeries = new Map<number, DetectedChange[]>();
    for (const c of changes) bySeries.set(c.series, [...(bySeries.get(c.series) ?? []), c]);
    const ranked = [...bySeries].sort((a, b) => Math.min(...a[1].map((c) => c.p)) - Math.min(...b[1].map((c) => c.p)) || a[0] - b[0]);
    for (const [s, cs] of ranked.slice(0, PLOTS_PER_VARIABLE)) {
      const series = hist.series[s]!;
      parts.push(`<p>${h(`${series.metric ? series.variable : series.feature}: ${series.statistic === 'sd' ? 'standard deviation' : series.statistic === 'correlation' ? 'correlation with P' : 'mean'} per run`)}</p>`);
      parts.push(plot(hist, series, cs.map((c) => ({ run: c.run, event: c.event }))));
    }
    if (bySeries.size > PLOTS_PER_VARIABLE) parts.push(`<p class="muted">${h(`… and ${bySeries.size - PLOTS_PER_VARIABLE} more changed series of this variable (see --json).`)}</p>`);
  }
  if (hist.comparisons.length > 0) parts.push('<h2>Before against after</h2>');
  hist.comparisons.forEach((c, i) => parts.push(comparison(hist, c, i)));
  if (hist.drifts.length > 0) {
    parts.push(`<h2>Changing in every run</h2><p>${h(`${[...new Set(hist.drifts.map((d) => d.variable))].join(', ')}: a counter or a steady trend, not a change point; left out of the comparisons.`)}</p>`);
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>distalyze history: ${h(hist.metric.variable)}</title>
<style>${STYLE}</style>
</head>
<body>
${parts.join('\n')}
</body>
</html>
`;
}

function comparison(hist: History, c: Comparison, i: number): string {
  const name = (r: number): string => hist.runs[r]!.name;
  const rows = c.analysis.ranking.slice(0, 8).map((r) => {
    const f = r.features[0]!;
    return `<tr><td>${h(r.variable)}</td><td>${h(f.feature)}</td><td class="n">${h(formatValue(f.meanGood))}</td><td class="n">${h(formatValue(f.meanBad))}</td><td class="n">${h(formatStat(f.t))}</td><td class="n">${h(formatP(f.p, f.log10p))}</td></tr>`;
  });
  const changed = hist.changes.filter((x) => hist.events[x.event]!.run === c.run).slice(0, 12).map((x) => `<li>${h(changeLine(hist, x))}${x.run !== c.run ? h(` (at #${x.run + 1})`) : ''}</li>`);
  return `<section id="cmp-${i}"><h3>Change at run ${h(name(c.run))} (#${c.run + 1})</h3>
<p>Runs ${h(`${name(c.before[0])} … ${name(c.before[1] - 1)}`)} (before) against ${h(`${name(c.after[0])} … ${name(c.after[1] - 1)}`)} (after).</p>
<p class="verdict">${h(comparisonVerdict(hist, c))}</p>
<ul>${changed.join('')}</ul>
${rows.length > 0 ? `<table><thead><tr><th>variable</th><th>feature</th><th>before</th><th>after</th><th>t</th><th>p</th></tr></thead><tbody>${rows.join('')}</tbody></table>` : '<p class="muted">No variable differs significantly between the two sets of runs.</p>'}
</section>`;
}

/** One series as an SVG line chart, with a dashed line at each change linked to its comparison (#cmp-E: comparisons are in event order). */
function plot(hist: History, s: RunSeries, marks: readonly { run: number; event: number }[]): string {
  const W = 640;
  const H = 150;
  const L = 56;
  const R = 12;
  const T = 14;
  const B = 22;
  const n = s.values.length;
  const finite = [...s.values].filter(Number.isFinite);
  if (finite.length === 0) return '';
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  if (hi === lo) {
    lo -= 1;
    hi += 1;
  }
  const x = (i: number): number => L + (n === 1 ? 0 : (i * (W - L - R)) / (n - 1));
  const y = (v: number): number => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const pts: string[] = [];
  const dots: string[] = [];
  s.values.forEach((v, i) => {
    if (!Number.isFinite(v)) return;
    pts.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`);
    dots.push(`<circle class="pt" cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="2"><title>${h(`${hist.runs[i]!.name}: ${formatValue(v)}`)}</title></circle>`);
  });
  const lines = marks.map((m) => {
    // The change lies between the last run before it and its first run.
    const cx = (x(m.run) + x(m.run - 1)) / 2;
    const label = `change at #${m.run + 1}`;
    const line = `<line class="chg" x1="${cx.toFixed(1)}" x2="${cx.toFixed(1)}" y1="${T}" y2="${H - B}"/><text class="chg-label" x="${(cx + 3).toFixed(1)}" y="${T + 8}">${h(label)}</text>`;
    return m.event >= 0 ? `<a href="#cmp-${m.event}">${line}</a>` : line;
  });
  const axis = `<text class="axis" x="${L - 4}" y="${T + 4}" text-anchor="end">${h(formatValue(hi))}</text>` +
    `<text class="axis" x="${L - 4}" y="${H - B}" text-anchor="end">${h(formatValue(lo))}</text>` +
    `<text class="axis" x="${L}" y="${H - 6}">${h(hist.runs[0]!.name)}</text>` +
    `<text class="axis" x="${W - R}" y="${H - 6}" text-anchor="end">${h(hist.runs[n - 1]!.name)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${h(`${s.variable} ${s.feature} ${s.statistic} per run`)}">` +
    `${axis}<polyline class="line" points="${pts.join(' ')}"/>${dots.join('')}${lines.join('')}</svg>`;
}
