import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../src/report/html.js';
import { box, buildPageData, chooseSample, quantileOfSorted } from '../src/report/html/data.js';
import { embedJson, escapeHtml } from '../src/report/html/escape.js';
import { inlineSvg } from '../src/report/html/graphs.js';
import { HOSTILE, HOSTILE_INSTANCE, makeAnalysis } from './browser/analysis-fixture.js';
import { verdictSentence } from '../src/report/verdict.js';
import type { ComponentSummary } from '../src/attention/components.js';

const h = escapeHtml;

const BLOB = /<script type="application\/json" id="distalyze-data">([\s\S]*?)<\/script>/;

function blobOf(html: string): string {
  const m = BLOB.exec(html);
  expect(m).not.toBeNull();
  return m![1]!;
}

/** The page with the JSON blob's content removed: what an HTML parser reads as markup and text. */
function outsideBlob(html: string): string {
  return html.replace(BLOB, '<script type="application/json" id="distalyze-data"></script>');
}

describe('renderHtml', () => {
  it('is one self-contained file: no external src/href, no fetching, a CSP that forbids the network', async () => {
    const html = await renderHtml(makeAnalysis());
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/\s(?:src|href|xlink:href|action)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<link\b|<iframe\b|<img\b|@import|url\(/i);
    expect(html).not.toMatch(/\bfetch\(|XMLHttpRequest|WebSocket|EventSource|import\(|sendBeacon/);
    expect(html).not.toMatch(/<script[^>]*\ssrc=/i);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    expect(csp?.[1]).toContain("default-src 'none'");
    // The only script allowed to run is ours, by hash.
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = createHash('sha256').update(script).digest('base64');
    expect(csp?.[1]).toContain(`script-src 'sha256-${hash}'`);
    expect(csp?.[1]).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('escapes every name from a log outside the JSON blob, and the blob cannot end its script element', async () => {
    const a = makeAnalysis({ heavyTail: true });
    const html = await renderHtml(a);
    const outside = outsideBlob(html);
    expect(outside).not.toContain(HOSTILE);
    expect(outside).not.toContain('<script>alert');
    expect(outside).not.toContain(HOSTILE_INSTANCE);
    expect(outside).not.toMatch(/<img|onerror=/i);
    // It is shown, as text: in the verdict, the graph (Graphviz's SVG) and the notes.
    expect(outside).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const svg = /<div class="graph" data-graph="0"[^>]*>([\s\S]*?)<\/div>/.exec(html)![1]!;
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // Exactly two script elements: the data and ours.
    expect(html.match(/<script\b/gi)).toHaveLength(2);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    const blob = blobOf(html);
    expect(blob).not.toMatch(/[<>&\u2028\u2029]/);
    const data = JSON.parse(blob);
    expect(data.names).toContain(HOSTILE);
    expect(data.instances.ids).toContain(HOSTILE_INSTANCE);
  });

  it('keeps a name with </script>, <!--, & and U+2028 inside the blob', async () => {
    const nasty = 'x</script><script>alert(3)</script><!--&amp;\u2028\u2029';
    const base = makeAnalysis();
    const a = { ...base, tests: base.tests.map((t, i) => (i === 5 ? { ...t, variable: nasty } : t)) };
    const html = await renderHtml(a);
    expect(html).not.toContain(nasty);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(blobOf(html)).names).toContain(nasty);
  });

  it('is deterministic: the same Analysis gives the same bytes', async () => {
    const one = await renderHtml(makeAnalysis({ heavyTail: true }));
    const two = await renderHtml(makeAnalysis({ heavyTail: true }));
    expect(two).toBe(one);
    expect(await renderHtml(makeAnalysis({ nothing: true }))).toBe(await renderHtml(makeAnalysis({ nothing: true })));
  });

  it('puts the verdict first: the causes found next to P, each top graph drawn', async () => {
    const html = await renderHtml(makeAnalysis());
    const headline = /<p class="headline" id="verdict-headline">([\s\S]*?)<\/p>/.exec(html)![1]!;
    // The same sentence as the terminal and JSON (src/report/verdict.ts).
    const a = makeAnalysis();
    expect(headline).toBe(h(verdictSentence(a.verdict, a)));
    expect(headline).toContain('Top cause: lock_wait_ms');
    // The causes in the verdict's order, each with its standing in the terminal's words (issue 57).
    const causes = /<ol id="verdict-causes">([\s\S]*?)<\/ol>/.exec(html)![1]!;
    expect(causes).toContain('cause: tied to the slowdown');
    expect(causes).toContain('lock_wait_ms');
    expect(causes).toContain('FlushEnd');
    expect(causes).not.toContain('heap_mb');
    expect(html.indexOf('id="verdict"')).toBeLessThan(html.indexOf('id="ranking"'));
    // The answer (the analysis's first graph, here the state graph) is drawn first.
    expect(html.indexOf('<article class="card" data-kind="state"')).toBeLessThan(html.indexOf('<article class="card" data-kind="event"'));
    expect(html.indexOf('<article class="card" data-kind="state"')).toBeGreaterThan(0);
    expect(html.indexOf('id="ranking"')).toBeLessThan(html.indexOf('id="tests"'));
    expect(html.match(/<div class="graph" data-graph="\d+"[^>]*><svg /g)).toHaveLength(2);
    expect(html).not.toContain('No divergence found');
    expect(html).not.toContain('id="heavy-tail"');
  });

  it('shows the heavy-tail banner when a heavy tail is detected', async () => {
    const html = await renderHtml(makeAnalysis({ heavyTail: true }));
    const banner = /<div class="banner heavy"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1];
    expect(banner).toContain('Heavy tail');
    expect(banner).toContain('5.0% of instances');
    expect(banner).toContain('--weight auto');
    expect(html.indexOf('id="heavy-tail"')).toBeLessThan(html.indexOf('id="verdict"'));
  });

  it('says "no divergence found" when nothing is significant', async () => {
    const html = await renderHtml(makeAnalysis({ nothing: true }));
    expect(html).toMatch(/<p class="headline none" id="verdict-headline">duration does not differ significantly [^<]*No feature differs significantly between the two classes\.<\/p>/);
    expect(html).not.toContain('Where to look');
    expect(html).not.toMatch(/<div class="graph"/);
    expect(html).toContain('<title>distalyze: no divergence found</title>');
  });

  it('says "no divergence found" when the graphs are P alone', async () => {
    const html = await renderHtml(makeAnalysis({ metricOnly: true }));
    expect(html).toMatch(/id="verdict-headline">Bad instances are worse: [^<]*Only the metric P itself \(or a name for it\) differs significantly\./);
    expect(html.match(/No divergence found: P has no significant neighbour/g)).toHaveLength(2);
    expect(html).not.toContain('Where to look');
  });

  it('embeds tests as rows with the report formats, and no distributions when the Analysis has none', async () => {
    const data = buildPageData(makeAnalysis({ distributions: false }));
    expect(data.dists).toEqual([]);
    expect(data.tests.every((r) => r[14] === -1)).toBe(true);
    const flush = data.tests.find((r) => data.names[r[0]] === 'FlushEnd')!;
    expect(flush[10]).toBe('3.2e-341'); // p from log10p where p underflows to 0
    const config = data.tests.find((r) => data.names[r[0]] === 'config_version')!;
    expect(config[3]).toBe('Infinity');
    expect(config[9]).toBe('+∞');
    const html = await renderHtml(makeAnalysis({ distributions: false }));
    expect(html).toContain('id="tests-table"');
  });

  it('stays compact with 5 000 tests', async () => {
    const a = makeAnalysis({ padTests: 5_000 });
    const html = await renderHtml(a);
    expect(a.tests.length).toBeGreaterThan(5_000);
    // Rows are built by the page's script from the blob, not pre-rendered.
    expect(html.match(/<tr/g)?.length ?? 0).toBeLessThan(5);
    expect(html.length).toBeLessThan(6_000_000);
  });
});

describe('page data', () => {
  it('Tukey box: type-7 quartiles, whiskers within 1.5 IQR, missing counted', () => {
    const v = Float64Array.from([1, 2, 3, 4, 5, NaN, 100]);
    // Sorted 1 2 3 4 5 100: q1 = 2.25, median 3.5, q3 = 4.75; IQR 2.5, fences −1.5 and 8.5.
    expect(box(v, [0, 1, 2, 3, 4, 5, 6])).toEqual([2.25, 3.5, 4.75, 1, 5, 6, 1]);
    expect(box(v, [5])).toEqual([null, null, null, null, null, 0, 1]);
    expect(quantileOfSorted([10], 0.25)).toBe(10);
  });

  it('samples the same evenly spaced instances of each class when the values would not fit', () => {
    const instances = [
      ...Array.from({ length: 10_000 }, (_, i) => ({ id: `g${i}`, className: 'good' as const })),
      ...Array.from({ length: 30 }, (_, i) => ({ id: `b${i}`, className: 'bad' as const })),
    ];
    const s = chooseSample({ instances, values: new Map() }, 5_000, { values: 600_000, minPerClass: 50, maxPerClass: 2_000 });
    expect(s.good).toHaveLength(60);
    expect(s.good[0]).toBe(83);
    expect(s.good.every((x, i) => i === 0 || x > s.good[i - 1]!)).toBe(true);
    expect(s.bad).toHaveLength(30);
    expect(s.totalGood).toBe(10_000);
  });
});

describe('escaping helpers', () => {
  it('lists the components under the verdict, as the terminal does, when variables name more than one', async () => {
    const a = makeAnalysis();
    const component = (name: string, topCauses: number, share: number | null): ComponentSummary =>
      ({ component: name, topCauses, causes: topCauses, addedTime: share, share, topCause: `${name}:x` });
    const two = { ...a, verdict: { ...a.verdict, components: [component('db', 2, 0.8), component('report', 1, null)] } };
    const html = outsideBlob(await renderHtml(two));
    const significant = a.verdict.causes.filter((x) => x.source !== 'weak' && !x.negligible).length;
    expect(significant).toBeGreaterThan(1);
    expect(html).toContain(`<p class="hint" id="verdict-components">components: db: 2 of the top ${Math.min(5, significant)} causes, 80% of the added time; report: 1 of the top ${Math.min(5, significant)} causes</p>`);
    expect(outsideBlob(await renderHtml(a))).not.toContain('verdict-components');
  });

  it('escapeHtml escapes the five characters that matter', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('embedJson round-trips and leaves no <, >, & or line separators', () => {
    const value = { s: '</script><!-- & \u2028 \u2029 "q"', n: [1, null, 'Infinity'] };
    const text = embedJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('inlineSvg drops prolog, comments, namespaces and links, prefixes ids, refuses scripts', () => {
    const doc = '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<!-- Generated by graphviz -->\n' +
      '<svg width="10pt" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">\n' +
      '<!-- a&#45;&#45;&gt;b -->\n<g id="node1" class="node" onclick="x()"><a xlink:href="javascript:x()" xlink:title="t"><text>&lt;b&gt;</text></a></g>\n</svg>\n';
    expect(inlineSvg(doc, 'g1-')).toBe('<svg width="10pt">\n<g id="g1-node1" class="node"><a xlink:title="t"><text>&lt;b&gt;</text></a></g>\n</svg>');
    expect(() => inlineSvg('<svg><script>alert(1)</script></svg>')).toThrow(/script/);
    expect(() => inlineSvg('<svg><foreignObject></foreignObject></svg>')).toThrow(/foreignObject/);
  });
});
