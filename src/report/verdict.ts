/** The verdict as one plain sentence with numbers (SPEC §6): the same words in text, JSON and HTML. */
import { TOP_CAUSES, type ComponentSummary } from '../attention/components.js';
import { NEGLIGIBLE_SHARE, type Verdict, type VerdictCause } from '../attention/verdict.js';
import { formatP, formatStat, formatValue } from './format.js';

export function verdictSentence(v: Verdict): string {
  const top = v.causes[0] ?? null;
  const component = v.components[0];
  const significant = v.causes.filter((c) => c.source !== 'weak' && !c.negligible).length;
  const line = component !== undefined && top !== null && component.topCause === top.variable ? componentLine(component, significant) : null;
  return sentenceOf(v.metric, top, line, v.timeShares, v.anySignificant);
}

/** The component line: `ts-food-service: 4 of the top 5 causes, 62% of the added time`. */
export function componentLine(c: ComponentSummary, significant: number): string {
  const of = Math.min(TOP_CAUSES, significant);
  const parts = [of <= 1 ? 'the top cause' : `${c.topCauses} of the top ${of} causes`];
  if (c.share !== null && c.share >= 0.005) parts.push(`${Math.round(c.share * 100)}% of the added time`);
  return `${c.component}: ${parts.join(', ')}`;
}

function sentenceOf(metric: Verdict['metric'], top: VerdictCause | null, component: string | null, shares: Verdict['timeShares'], anySignificant: boolean): string {
  const parts: string[] = [];
  const seconds = (x: number): string => `${formatValue(x)} s`;
  if (metric !== null) {
    const isTime = metric.variable === 'duration' || metric.feature === 'last.abs';
    const unit = (x: number): string => (isTime ? seconds(x) : formatValue(x));
    const rel = Number.isFinite(metric.relative) ? ` (${metric.relative >= 0 ? '+' : '−'}${formatValue(Math.abs(metric.relative) * 100)}%)` : '';
    const change = `${metric.variable} ${unit(metric.meanGood)} → ${unit(metric.meanBad)}${rel}, p ${formatP(metric.p, metric.log10p)}`;
    if (metric.significant) {
      parts.push(`Bad instances ${metric.difference > 0 ? 'are worse' : 'are better'}: ${change}.`);
    } else {
      parts.push(`${metric.variable} does not differ significantly (${change}).`);
    }
  }
  if (top !== null && top.source !== 'weak' && !top.negligible) {
    if (component !== null) parts.push(`Top component: ${component}.`);
    parts.push(`Top cause: ${top.variable} (${describeCause(top)}).`);
  } else if (top !== null && top.negligible) {
    parts.push(`Only times that differ by less than ${NEGLIGIBLE_SHARE * 100}% of a run differ significantly, e.g. ${top.variable} (${describeCause(top)}).`);
  } else if (!anySignificant) {
    parts.push('No feature differs significantly between the two classes.');
    if (top !== null) parts.push(`The strongest divergence, not significant: ${top.variable} (${describeCause(top)}).`);
  } else {
    parts.push('Only the metric P itself (or a name for it) differs significantly.');
    if (top !== null) parts.push(`The strongest other divergence, not significant: ${top.variable} (${describeCause(top)}).`);
  }
  if (shares.length > 0 && metric !== null && metric.significant && metric.difference > 0) {
    const items = shares.map((s) => `+${seconds(s.difference)} (${Math.round(s.share * 100)}%) before ${s.event}`);
    parts.push(`Where the time went: ${items.join(', ')}.`);
  }
  return parts.join(' ');
}

function describeCause(c: VerdictCause): string {
  if (c.feature === 'occurrence') {
    const pct = (x: number): string => `${formatValue(x * 100)}%`;
    const how = c.presence === 'new' ? 'new in bad' : c.presence === 'vanished' ? 'vanished from bad' : 'occurs in';
    return `${c.kind}, ${how}: ${pct(c.meanGood)} of good → ${pct(c.meanBad)} of bad instances, z ${formatStat(c.z)}`;
  }
  const where = c.source === 'graph' && c.weight !== null ? `, tied to P with weight ${c.weight.toFixed(2)}` : '';
  return `${c.kind} ${c.feature} ${formatValue(c.meanGood)} → ${formatValue(c.meanBad)}, z ${formatStat(c.z)}${where}`;
}
