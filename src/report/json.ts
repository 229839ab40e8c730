import type { Analysis } from '../analysis.js';
import type { VerdictMetric } from '../attention/verdict.js';
import { metricTest, metricTestWords, verdictSentence } from './verdict.js';

/**
 * A number for JSON, safe for jq: every number stays a number; what is not a
 * finite number (±∞, NaN) is null. For a test, `separated: true` says that t,
 * log10p and effectSize are null because the classes are perfectly separated
 * (|t| = ∞, p = 0; the direction is meanBad − meanGood's sign).
 */
export function jsonNumber(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/**
 * Everything, machine-readable, with the stable field names of SPEC §6
 * (schema/analysis.schema.json).
 */
export function renderJson(a: Analysis): string {
  return `${JSON.stringify(renderJsonValue(a), null, 2)}\n`;
}

/** The JSON document of renderJson as a value, for outputs that embed an analysis (history). */
export function renderJsonValue(a: Analysis): unknown {
  const test = (t: Analysis['tests'][number]) => ({
    variable: t.variable,
    kind: t.kind,
    feature: t.feature,
    method: t.method,
    t: jsonNumber(t.t),
    df: jsonNumber(t.df),
    p: jsonNumber(t.p),
    log10p: jsonNumber(t.log10p),
    z: jsonNumber(t.z),
    significant: t.significant,
    separated: t.separated,
    meanGood: jsonNumber(t.meanGood),
    meanBad: jsonNumber(t.meanBad),
    nGood: t.nGood,
    nBad: t.nBad,
    effectSize: jsonNumber(t.effectSize),
    presence: t.presence,
    ...(t.inflation !== undefined ? { inflation: jsonNumber(t.inflation) } : {}),
    ...(t.strata !== undefined ? {
      kinds: t.strata.map((s) => ({ kind: s.kind, nGood: s.nGood, nBad: s.nBad, meanGood: jsonNumber(s.meanGood), meanBad: jsonNumber(s.meanBad), t: jsonNumber(s.t) })),
    } : {}),
  });
  const doc = {
    tool: a.tool,
    classes: a.classes,
    metric: a.metric,
    heavyTail: a.heavyTail === null ? null : {
      ...a.heavyTail,
      mean: jsonNumber(a.heavyTail.mean),
      sd: jsonNumber(a.heavyTail.sd),
    },
    weighting: a.weighting,
    verdict: verdictJson(a),
    kinds: a.kinds,
    inflation: a.inflation.map((f) => ({ ...f, lambda: jsonNumber(f.lambda) })),
    ...(a.windows !== undefined && a.windows !== null ? { windows: a.windows } : {}),
    alpha: a.alpha,
    correction: a.correction,
    testsPerformed: a.performed,
    hypotheses: a.hypotheses,
    ...(a.families !== undefined ? { families: a.families } : {}),
    tests: a.tests.map(test),
    ranking: a.ranking.map((r) => ({
      variable: r.variable,
      kind: r.kind,
      score: jsonNumber(r.score),
      presence: r.presence,
      features: r.features.map(test),
    })),
    graphs: a.graphs.map((g) => ({
      kind: g.kind,
      feature: g.feature,
      features: g.features,
      class: g.className,
      score: jsonNumber(g.score),
      nodes: g.nodes.map((n) => ({ variable: n.variable, t: jsonNumber(n.t), significant: n.significant, metric: n.metric })),
      edges: g.edges.map((e) => ({ from: e.from, to: e.to, weight: jsonNumber(e.weight), directed: e.directed, ...(e.split ? { split: { statistic: jsonNumber(e.split.statistic), p: jsonNumber(e.split.p) } } : {}) })),
      omitted: g.omitted,
      aliases: g.aliases,
    })),
    warnings: a.warnings,
  };
  return doc;
}

/** The verdict (SPEC §6): its sentence, and the numbers behind it. */
function verdictJson(a: Analysis) {
  const v = a.verdict;
  const m = v.metric;
  return {
    sentence: verdictSentence(v, a),
    metric: m === null ? null : metricJson(m, a.tests),
    causes: v.causes.map((c) => ({
      variable: c.variable, kind: c.kind, feature: c.feature, method: c.method, z: jsonNumber(c.z), t: jsonNumber(c.t),
      meanGood: jsonNumber(c.meanGood), meanBad: jsonNumber(c.meanBad), presence: c.presence, source: c.source,
      weight: c.weight === null ? null : jsonNumber(c.weight), negligible: c.negligible, addsNoTime: c.addsNoTime === true, mode: c.mode ?? null,
    })),
    components: v.components.map((c) => ({
      component: c.component, topCauses: c.topCauses, causes: c.causes,
      addedTime: c.addedTime === null ? null : jsonNumber(c.addedTime), share: c.share === null ? null : jsonNumber(c.share), topCause: c.topCause,
      // Only where every instance holds one component's lines: the ranking key (components.ts timeGrowth).
      ...(c.growth === undefined ? {} : { growth: jsonNumber(c.growth) }),
    })),
    timeShares: v.timeShares.map((s) => ({
      event: s.event, meanGood: jsonNumber(s.meanGood), meanBad: jsonNumber(s.meanBad), difference: jsonNumber(s.difference), share: jsonNumber(s.share),
    })),
    eventSpan: v.eventSpan === null ? null : { meanGood: jsonNumber(v.eventSpan.meanGood), meanBad: jsonNumber(v.eventSpan.meanBad) },
    aliases: v.aliases,
    // Bad's two modes of P (issue 52), each with its top cause against good; empty with one mode.
    modes: v.modes.map((m) => ({ instances: m.instances, meanP: jsonNumber(m.meanP), cause: m.cause === null ? null : m.cause.variable, feature: m.cause?.feature ?? null })),
  };
}

/** P in the verdict: its means and test, and which test and instance kind decided it (issue 57). */
function metricJson(m: VerdictMetric, tests: Analysis['tests']) {
  const decided = metricTest(m, tests);
  return {
    variable: m.variable, kind: m.kind, feature: m.feature, meanGood: jsonNumber(m.meanGood), meanBad: jsonNumber(m.meanBad),
    difference: jsonNumber(m.difference), relative: jsonNumber(m.relative), p: jsonNumber(m.p), log10p: jsonNumber(m.log10p), significant: m.significant,
    // Which instances and which test (issue 57): the sentence's words, and the kind P was decided in (null: pooled).
    method: decided.test?.method ?? null, instanceKind: decided.instanceKind, test: metricTestWords(decided),
    // Where the means do not differ: P's spread (Brown–Forsythe, issue 52), else null.
    spread: m.spread === null ? null : {
      meanGood: jsonNumber(m.spread.meanGood), meanBad: jsonNumber(m.spread.meanBad), p: jsonNumber(m.spread.p), log10p: jsonNumber(m.spread.log10p), significant: m.spread.significant,
    },
  };
}
