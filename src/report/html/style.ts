/** The report page's stylesheet: compact, legible, good contrast, light only (Graphviz draws on white). */
export const STYLE_CSS = String.raw`
:root {
  --fg: #1b1f24; --muted: #59636e; --faint: #8c959f; --line: #d8dee4; --soft: #f3f5f7; --bg: #fff;
  --accent: #0b6e99; --good: #1f5fbf; --bad: #c4500c; --sel: #e4eefb;
  --warn-bg: #fff4e0; --warn: #9a3b00; --ok-bg: #eaf6ee; --ok: #1d6b38;
  --mono: ui-monospace, "SF Mono", "Cascadia Mono", "Roboto Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
  color-scheme: light;
}
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); font: 14px/1.45 var(--sans); }
body { margin: 0; }
.wrap { max-width: 1320px; margin: 0 auto; padding: 0 24px; }
header.top { border-bottom: 1px solid var(--line); background: var(--soft); }
header.top .wrap { padding-top: 14px; padding-bottom: 12px; }
h1 { font-size: 18px; margin: 0 0 6px; font-weight: 650; letter-spacing: -0.01em; }
h1 .ver { font-weight: 400; color: var(--muted); font-size: 13px; margin-left: 4px; }
h2 { font-size: 15px; margin: 0 0 4px; font-weight: 650; text-transform: uppercase; letter-spacing: 0.04em; color: #33393f; }
h3 { font-size: 14px; margin: 0; font-weight: 650; }
section { padding: 20px 0 8px; }
section + section { border-top: 1px solid var(--line); }
.facts { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 0; color: var(--muted); font-size: 13px; }
.facts div { display: flex; gap: 6px; }
.facts dt { font-weight: 600; color: var(--fg); }
.facts dd { margin: 0; }
.hint, .note { color: var(--muted); font-size: 13px; margin: 2px 0 10px; max-width: 80ch; }
.muted { color: var(--muted); }
#verdict-causes { margin: 4px 0 14px; padding-left: 24px; }
#verdict-causes li { margin: 2px 0; }
#verdict-causes li.cause { font-weight: 600; }
#verdict-causes li.weak, #verdict-causes li.negligible, #verdict-causes li.consequence { color: var(--muted); }
.empty { color: var(--muted); font-style: italic; }
.var { font-family: var(--mono); font-size: 13px; overflow-wrap: anywhere; }
button.var { all: unset; font-family: var(--mono); font-size: 13px; color: var(--accent); cursor: pointer; border-bottom: 1px dotted currentColor; overflow-wrap: anywhere; }
button.var:hover, button.var:focus-visible { color: #064a68; border-bottom-style: solid; outline: none; }
.badge { display: inline-block; font: 600 10px/1 var(--sans); padding: 2px 4px; border-radius: 3px; margin-left: 6px; vertical-align: 1px; }
.badge.p { background: var(--accent); color: #fff; }
.banner { margin: 16px 0 0; padding: 10px 14px; border-radius: 4px; border-left: 4px solid; }
.banner strong { display: block; margin-bottom: 2px; }
.banner.heavy { background: var(--warn-bg); border-color: #d9730d; color: var(--warn); }
.banner.notes { background: var(--soft); border-color: var(--faint); color: var(--muted); }
.banner.notes ul { margin: 4px 0 0; padding-left: 18px; }
.headline { font-size: 17px; margin: 6px 0 14px; font-weight: 500; }
.headline.none { color: var(--ok); }
.headline .var, .headline button.var { font-size: 16px; font-weight: 600; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 14px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; min-width: 0; }
.card .sub { color: var(--muted); font-size: 12.5px; margin: 2px 0 8px; }
.card ol { margin: 0 0 8px; padding-left: 20px; }
.card li { margin: 1px 0; }
.card li .muted { font-size: 12.5px; }
.card .none { color: var(--ok); font-weight: 600; margin: 4px 0; }
.graph { overflow: auto; border-top: 1px solid var(--soft); padding-top: 8px; text-align: center; }
.card.wide { grid-column: 1 / -1; }
.graph { max-height: 85vh; }
/* Fit the card, but never shrink below 40% of natural size (scroll instead) nor grow past it. */
.graph svg { width: 100%; max-width: var(--w, 100%); min-width: calc(var(--w, 0px) * 0.4); height: auto; }
.graph.natural svg { width: var(--w); max-width: none; }
.graph .node.link { cursor: pointer; }
.graph .node.link:hover polygon, .graph .node.link:hover ellipse { stroke-width: 2.5; }
.graph-error { color: var(--warn); font-size: 13px; }
details.more-graphs { margin-top: 12px; }
details.more-graphs summary { cursor: pointer; color: var(--accent); }
details.more-graphs .cards { margin-top: 10px; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 3px 6px; text-align: left; vertical-align: baseline; white-space: nowrap; }
td.name { max-width: 36ch; overflow: hidden; text-overflow: ellipsis; }
td.name .var { overflow-wrap: normal; }
th { font-weight: 600; font-size: 12px; color: var(--muted); border-bottom: 1px solid var(--line); background: var(--bg); }
td { border-bottom: 1px solid #eef1f3; }
.num { text-align: right; font-variant-numeric: tabular-nums; font-family: var(--mono); font-size: 12.5px; }
th.num { font-family: var(--sans); }
td.good { color: var(--good); }
td.bad { color: var(--bad); }
td.kind, td.feature { font-size: 12.5px; }
td.feature { font-family: var(--mono); }
tbody tr { cursor: pointer; }
tbody tr:hover { background: var(--soft); }
tbody tr:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
tr.ns td { color: var(--muted); }
tr.ns td.good, tr.ns td.bad { opacity: 0.75; }
tr.sel, tr.sel:hover { background: var(--sel); }
td.sig { font-size: 12px; }
tr:not(.ns) td.sig { color: var(--ok); font-weight: 600; }
table.ranking { width: auto; min-width: 60%; }
table.ranking td.score { position: relative; min-width: 110px; }
table.ranking .bar { position: absolute; left: 8px; top: 6px; bottom: 6px; background: #dbe7f3; border-radius: 2px; max-width: calc(100% - 16px); }
table.ranking .v { position: relative; }
.chips { white-space: normal; }
.chip { font: 12px var(--mono); border: 1px solid var(--line); background: var(--bg); border-radius: 3px; padding: 1px 6px; margin: 1px 4px 1px 0; cursor: pointer; color: var(--fg); }
.chip:hover { border-color: var(--accent); }
.chip b { font-weight: 600; }
button.more { margin: 8px 0; font: 13px var(--sans); border: 1px solid var(--line); background: var(--soft); border-radius: 4px; padding: 4px 10px; cursor: pointer; color: var(--fg); }
button.more:hover { border-color: var(--accent); }
.toolbar { display: flex; align-items: center; gap: 16px; margin: 6px 0 10px; flex-wrap: wrap; }
.toolbar input[type=search] { font: 13px var(--sans); padding: 5px 8px; border: 1px solid #b8c1ca; border-radius: 4px; width: 320px; max-width: 100%; }
.toolbar input[type=search]:focus { outline: 2px solid var(--accent); outline-offset: -1px; }
.toolbar label { color: var(--muted); font-size: 13px; }
.split { display: grid; grid-template-columns: minmax(0, 1fr) 420px; gap: 18px; align-items: start; }
.table-wrap { max-height: 72vh; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
.table-wrap thead th { position: sticky; top: 0; z-index: 1; }
.table-wrap th button { all: unset; cursor: pointer; display: inline-flex; gap: 3px; align-items: center; }
.table-wrap th button:focus-visible { outline: 2px solid var(--accent); }
.table-wrap th button::after { content: "↕"; color: #c2c9d0; font-size: 11px; }
.table-wrap th[aria-sort=ascending] button::after { content: "▲"; color: var(--accent); font-size: 9px; }
.table-wrap th[aria-sort=descending] button::after { content: "▼"; color: var(--accent); font-size: 9px; }
.table-wrap th[aria-sort=ascending], .table-wrap th[aria-sort=descending] { color: var(--fg); }
#more { padding: 0 8px; }
.detail { position: sticky; top: 12px; border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; min-height: 120px; }
.detail-head h3 { font-size: 14px; }
.stats { display: grid; grid-template-columns: repeat(5, auto); gap: 2px 14px; margin: 10px 0 6px; justify-content: start; }
.stats dt { font-size: 11.5px; color: var(--muted); }
.stats dd { margin: 0; font: 13px var(--mono); font-variant-numeric: tabular-nums; }
.stats .good dd { color: var(--good); }
.stats .bad dd { color: var(--bad); }
.plot-tools { text-align: right; font-size: 12.5px; color: var(--muted); min-height: 18px; }
svg.plot { width: 100%; max-width: 520px; height: auto; display: block; margin: 0 auto; font-family: var(--sans); }
svg.plot .grid { stroke: #edf0f2; }
svg.plot .axis { stroke: #9aa4ae; }
svg.plot .tick { font: 11px var(--mono); fill: var(--muted); }
svg.plot .col { font-size: 12px; font-weight: 600; }
svg.plot .col.good { fill: var(--good); }
svg.plot .col.bad { fill: var(--bad); }
svg.plot .box { fill-opacity: 0.08; stroke-width: 1.4; }
svg.plot .whisker { stroke-width: 1.2; }
svg.plot .median { stroke-width: 2.4; }
svg.plot .good .box, svg.plot .good .whisker, svg.plot .good .median { stroke: var(--good); fill: var(--good); }
svg.plot .bad .box, svg.plot .bad .whisker, svg.plot .bad .median { stroke: var(--bad); fill: var(--bad); }
svg.plot .pt { fill-opacity: 0.55; stroke: #fff; stroke-width: 0.6; }
svg.plot .good .pt { fill: var(--good); }
svg.plot .bad .pt { fill: var(--bad); }
svg.plot .pt:hover { fill-opacity: 1; stroke: var(--fg); stroke-width: 1.2; }
/* Narrow windows: the plot goes under the table. */
@media (max-width: 1100px) { .split { grid-template-columns: 1fr; } .detail { position: static; } }
footer { border-top: 1px solid var(--line); margin-top: 24px; padding: 12px 0 24px; color: var(--faint); font-size: 12px; }
`;
