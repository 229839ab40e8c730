import type { Analysis } from '../analysis.js';

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
    t: jsonNumber(t.t),
    df: jsonNumber(t.df),
    p: jsonNumber(t.p),
    log10p: jsonNumber(t.log10p),
    significant: t.significant,
    separated: t.separated,
    meanGood: jsonNumber(t.meanGood),
    meanBad: jsonNumber(t.meanBad),
    nGood: t.nGood,
    nBad: t.nBad,
    effectSize: jsonNumber(t.effectSize),
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
    alpha: a.alpha,
    correction: a.correction,
    testsPerformed: a.performed,
    tests: a.tests.map(test),
    ranking: a.ranking.map((r) => ({
      variable: r.variable,
      kind: r.kind,
      score: jsonNumber(r.score),
      features: r.features.map(test),
    })),
    graphs: a.graphs.map((g) => ({
      kind: g.kind,
      feature: g.feature,
      features: g.features,
      class: g.className,
      score: jsonNumber(g.score),
      nodes: g.nodes.map((n) => ({ variable: n.variable, t: jsonNumber(n.t), significant: n.significant, metric: n.metric })),
      edges: g.edges.map((e) => ({ from: e.from, to: e.to, weight: jsonNumber(e.weight), directed: e.directed })),
      omitted: g.omitted,
    })),
    warnings: a.warnings,
  };
  return doc;
}
