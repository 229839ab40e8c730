import { escapeTerminal, formatP, formatStat, formatValue, plural } from '../report/format.js';
import { jsonNumber } from '../report/json.js';
import type { VerdictCause } from '../attention/verdict.js';
import { causeStanding, featureChange } from '../report/verdict.js';
import type { CheckResult, FeatureCheck } from './index.js';
import { skippedJson, skippedText } from './skipped.js';

/** The one line on stderr: why the gate passed or failed. */
export function gateLine(r: CheckResult): string {
  return `distalyze check: ${r.gate.reason}\n${leftOutLine(r).map((l) => `distalyze check: ${escapeTerminal(l)}\n`).join('')}`;
}

/** Baseline runs left out (records lost): said where CI shows the gate. */
function leftOutLine(r: CheckResult): string[] {
  const n = r.leftOut.reduce((k, s) => k + s.lost, 0);
  return n === 0 ? [] : [`note: baseline run${r.leftOut.length === 1 ? '' : 's'} ${r.leftOut.map((s) => s.run).join(', ')} left out: ` +
    `${plural(n, 'line')} that should be records could not be read, e.g. ${r.leftOut[0]!.firstLost}`];
}

/**
 * The text report: what was compared, the gate's line, then the verdict's
 * causes in its order (the cause first, herrings named as herrings), then how
 * many features differ from the baseline run by run (all in --json).
 */
export function renderCheckText(r: CheckResult, limit = 10): string {
  const out: string[] = [];
  out.push(`check: ${plural(r.new.runs.length, 'new run')} (${r.new.runs.map(escapeTerminal).join(', ')}; ${plural(r.new.instances, 'instance')}) ` +
    `against ${plural(r.baseline.runs.length, 'baseline run')} (${plural(r.baseline.instances, 'instance')}); P = ${escapeTerminal(r.metric.variable)}`);
  out.push(escapeTerminal(r.gate.reason));
  out.push(...skippedText([...r.skipped.baseline, ...r.skipped.new], [{ label: 'baseline', runs: r.skipped.baseline }, { label: 'new', runs: r.skipped.new }]));
  out.push(...leftOutLine(r));
  if (r.ignored.length > 0) out.push(`ignored (--ignore): ${r.ignored.map(escapeTerminal).join(', ')}`);
  const lines = causeLines(r);
  if (lines.length > 0) {
    out.push('what changed, the cause first (the verdict\'s order; each also differs from the baseline run by run):');
    lines.slice(0, limit).forEach((line, i) => out.push(`  ${String(i + 1).padStart(2)}. ${escapeTerminal(line)}`));
    if (lines.length > limit) out.push(`  … and ${lines.length - limit} more (see --json)`);
  }
  const sig = significantOthers(r);
  out.push(`${plural(sig.length, 'other feature')} differ${sig.length === 1 ? 's' : ''} significantly from the baseline run by run (Bonferroni over ${r.tests.length} tests)${sig.length > 0 ? '; each with its numbers in --json' : ''}`);
  // Without the verdict (a library call without CheckOptions.analysis), the features themselves, strongest first.
  if (r.analysis === null) {
    for (const t of sig.slice(0, limit)) out.push(`  ${escapeTerminal(featureLine(t))}`);
    if (sig.length > limit) out.push(`  … and ${sig.length - limit} more (see --json)`);
  }
  return `${out.join('\n')}\n`;
}

function significantOthers(r: CheckResult): FeatureCheck[] {
  return r.tests.filter((t) => t.significant && !t.metric).sort((a, b) => a.log10p - b.log10p || Math.abs(b.t) - Math.abs(a.t));
}

/** One line per cause of the verdict, in its order: its change in its own units, z, and its standing. */
function causeLines(r: CheckResult): string[] {
  if (r.analysis === null) return [];
  const v = r.analysis.verdict;
  return r.causes.map((c) => `${c.variable} (${c.kind} ${c.feature}): ${featureChange(c.kind, c.feature, c.meanGood, c.meanBad)}, z ${formatStat(c.z)}; ${standingText(r, c)}`);
  function standingText(res: CheckResult, c: VerdictCause): string {
    const s = causeStanding(c, v, res.analysis!);
    return s.role === 'cause' || s.role === 'herring' ? `${s.role}: ${s.words}` : s.words;
  }
}

function featureLine(t: FeatureCheck): string {
  return `${t.variable} ${t.feature} (${t.kind}): ${formatValue(t.meanGood)} → ${formatValue(t.meanBad)}, t ${formatStat(t.t)}, p ${formatP(t.p, t.log10p)} (${t.method})`;
}

/** Everything as JSON: numbers stay numbers (non-finite → null, `separated` says why). */
export function renderCheckJson(r: CheckResult): string {
  const test = (t: FeatureCheck) => ({
    variable: t.variable, kind: t.kind, feature: t.feature, method: t.method, metric: t.metric,
    t: jsonNumber(t.t), df: jsonNumber(t.df), p: jsonNumber(t.p), log10p: jsonNumber(t.log10p),
    significant: t.significant, separated: t.separated,
    meanBaseline: jsonNumber(t.meanGood), meanNew: jsonNumber(t.meanBad), effectSize: jsonNumber(t.effectSize),
  });
  const doc = {
    passed: r.gate.passed,
    reason: r.gate.reason,
    gate: { slowdown: jsonNumber(r.gate.slowdown), maxSlowdown: r.gate.maxSlowdown, minEffect: r.gate.minEffect, alpha: r.gate.alpha },
    metric: { ...r.metric, ...test(r.p) },
    baseline: r.baseline,
    new: r.new,
    ignored: r.ignored,
    leftOut: r.leftOut.map((s) => s.run),
    skippedLines: { baseline: r.skipped.baseline.reduce((n, s) => n + s.lines, 0), new: r.skipped.new.reduce((n, s) => n + s.lines, 0), runs: skippedJson([...r.skipped.baseline, ...r.skipped.new]) },
    testsPerformed: r.tests.length,
    untestable: r.untestable,
    causes: r.causes.map((c) => ({
      variable: c.variable, kind: c.kind, feature: c.feature, z: jsonNumber(c.z), meanBaseline: jsonNumber(c.meanGood), meanNew: jsonNumber(c.meanBad),
      source: c.source, role: causeStanding(c, r.analysis!.verdict, r.analysis!).role,
    })),
    tests: r.tests.map(test),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

const XML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for XML content or a quoted attribute; characters XML 1.0 forbids become U+FFFD. */
export function escapeXml(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c] as string).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/**
 * JUnit XML: one suite, one test case for the gate on P (a failure when it
 * fails) and one per other feature that differs significantly (passed, its
 * numbers in system-out: they explain, they do not fail the build).
 */
export function renderJunit(r: CheckResult): string {
  const sig = r.tests.filter((t) => t.significant && !t.metric);
  const cases: string[] = [];
  const gateCase = `    <testcase classname="distalyze.check" name="${escapeXml(`P ${r.metric.variable} (--max-slowdown ${+(r.gate.maxSlowdown * 100).toFixed(4)}%)`)}">`;
  cases.push(r.gate.passed
    ? `${gateCase}\n      <system-out>${escapeXml(r.gate.reason)}</system-out>\n    </testcase>`
    : `${gateCase}\n      <failure message="${escapeXml(r.gate.reason)}" type="regression">${escapeXml(r.gate.reason)}</failure>\n    </testcase>`);
  for (const t of sig) {
    cases.push(`    <testcase classname="distalyze.check.features" name="${escapeXml(`${t.variable} ${t.feature} (${t.kind})`)}">\n      <system-out>${escapeXml(featureLine(t))}</system-out>\n    </testcase>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="distalyze check" tests="${cases.length}" failures="${r.gate.passed ? 0 : 1}" errors="0" skipped="0">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

/**
 * GitHub Actions workflow commands: the gate's line (an error when it fails),
 * then one annotation per cause in the verdict's order — a warning for a cause
 * tied to P, a notice for the rest (herrings, events that only moved). Each is
 * attached to `file` (a log file of the new run, relative to the workspace)
 * where there is one, else to the workflow. Data escaped (% CR LF),
 * properties also (: ,).
 */
export function renderGithub(r: CheckResult, file: string | null): string {
  const data = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string): string => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const at = file === null ? '' : `file=${prop(file)},`;
  const lines = [`::${r.gate.passed ? 'notice' : 'error'} ${at}title=${prop('distalyze check')}::${data(r.gate.reason)}`];
  if (r.analysis !== null) {
    const v = r.analysis.verdict;
    const text = causeLines(r);
    r.causes.slice(0, 10).forEach((c, i) => {
      const role = causeStanding(c, v, r.analysis!).role;
      const level = role === 'cause' || role === 'untied' ? 'warning' : 'notice';
      lines.push(`::${level} ${at}title=${prop(`distalyze: ${i + 1}. ${c.variable} (${role})`)}::${data(text[i]!)}`);
    });
  } else {
    for (const t of significantOthers(r).slice(0, 10)) {
      lines.push(`::warning ${at}title=${prop(`distalyze: ${t.variable} ${t.feature}`)}::${data(featureLine(t))}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
