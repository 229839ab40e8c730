/**
 * The top graphs drawn at analysis time: the `--dot` renderer's DOT, laid out
 * by Graphviz compiled to WebAssembly (no system Graphviz), inlined as SVG.
 */
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import type { Analysis } from '../../analysis.js';
import { renderDot } from '../dot.js';

export type GraphDrawing = { readonly svg: string } | { readonly error: string };

let graphviz: Promise<Graphviz> | undefined;

/** Each graph on its own (the DOT of an Analysis holding just that graph), so the page can place them apart. */
export async function drawGraphs(a: Analysis): Promise<GraphDrawing[]> {
  if (a.graphs.length === 0) return [];
  graphviz ??= Graphviz.load();
  const gv = await graphviz;
  return a.graphs.map((_g, i) => drawOne(gv, a, i, `g${i + 1}-`));
}

function drawOne(gv: Graphviz, a: Analysis, index: number, idPrefix: string): GraphDrawing {
  try {
    // One graph, on the font scale of all of them; the page has one legend for all (GRAPH_LEGEND).
    return { svg: inlineSvg(gv.dot(renderDot(a, { only: index, legend: false }), 'svg'), idPrefix) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Graphviz's SVG document made fit to sit inside HTML: no XML prolog, doctype or
 * comments (they repeat node names and carry a version), no namespace URLs
 * (the HTML parser puts <svg> in its namespace), no links. Graphviz has already
 * escaped every label, title and tooltip as XML text, so every `<` left starts
 * one of its own tags; a last check refuses any tag that could run script
 * should that ever change. Ids get `idPrefix`, unique per drawing on the page.
 */
export function inlineSvg(svg: string, idPrefix = ''): string {
  const start = svg.indexOf('<svg');
  if (start < 0) throw new Error('Graphviz returned no <svg> element');
  return svg
    .slice(start)
    .replace(/<!--[\s\S]*?-->\n?/g, '')
    .replace(/<([a-zA-Z][\w:-]*)([^>]*)>/g, (_tag, name: string, attrs: string) => {
      if (/^(?:script|foreignobject|iframe|object|embed|use|image|style)$/i.test(name)) throw new Error(`Graphviz SVG holds a <${name}> element; not inlined`);
      const kept = attrs.replace(/\s+(?:xmlns(?::\w+)?|(?:xlink:)?href|on\w+)\s*=\s*(?:"[^"]*"|'[^']*')/gi, '');
      return `<${name}${kept.replace(/(\sid=")/, `$1${idPrefix}`)}>`;
    })
    .trimEnd();
}
