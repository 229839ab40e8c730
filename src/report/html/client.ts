/**
 * The report page's script, as text (it runs in the browser, not here). It reads
 * the embedded JSON blob (see data.ts for the row layouts) and builds the
 * ranking, the tests table and the distribution plot with createElement and
 * textContent only: no name from a log ever goes through an HTML parser.
 * Written without template literals so it can live in this String.raw.
 */
export const CLIENT_JS = String.raw`(function () {
'use strict';
var SVG = 'http:' + '//www.w3.org/2000/svg';
var D = JSON.parse(document.getElementById('distalyze-data').textContent);
var KINDS = ['event', 'state'];
var PAGE = 250;

function num(x) { return x === null ? NaN : Number(x); }
function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
function svg(tag, attrs, parent) {
  var e = document.createElementNS(SVG, tag);
  for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, String(attrs[k]));
  if (parent) parent.appendChild(e);
  return e;
}
function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }

// Tests, decoded once: one object per row of the blob.
var tests = D.tests.map(function (r, i) {
  return {
    i: i, variable: D.names[r[0]], kind: KINDS[r[1]], feature: D.features[r[2]],
    t: num(r[3]), log10p: num(r[4]), meanGood: num(r[5]), meanBad: num(r[6]), g: num(r[7]), sig: r[8] === 1,
    tText: r[9], pText: r[10], mgText: r[11], mbText: r[12], gText: r[13], dist: r[14],
    lower: D.names[r[0]].toLowerCase(),
    hay: (D.names[r[0]] + ' ' + KINDS[r[1]] + ' ' + D.features[r[2]]).toLowerCase()
  };
});
var byKey = new Map();
tests.forEach(function (t) { byKey.set(t.kind + '\t' + t.variable + '\t' + t.feature, t.i); });
function isMetric(kind, variable) { return D.metric[kind] === variable; }

// ---- selection -------------------------------------------------------------
var selected = -1;
function select(i, scroll) {
  if (i < 0 || i >= tests.length) return;
  selected = i;
  var f = document.getElementById('filter');
  var visible = view.indexOf(i);
  if (visible < 0) {
    // Make the row reachable: clear filters that hide it.
    f.value = ''; document.getElementById('sig-only').checked = false;
    refilter();
    visible = view.indexOf(i);
  }
  if (visible >= shown) { shown = Math.ceil((visible + 1) / PAGE) * PAGE; renderRows(); }
  else markSelected();
  renderDetail();
  if (scroll) {
    document.getElementById('tests').scrollIntoView({ block: 'start' });
    var row = document.querySelector('#tests-table tr[data-i="' + i + '"]');
    if (row) { row.scrollIntoView({ block: 'nearest' }); row.focus({ preventScroll: true }); }
  }
}

// ---- ranking ---------------------------------------------------------------
var rankingAll = false;
function renderRanking() {
  var box = document.getElementById('ranking-list');
  clear(box);
  if (D.ranking.length === 0) { box.appendChild(el('p', 'empty', 'No variable has a significant feature.')); return; }
  var maxScore = 0;
  D.ranking.forEach(function (r) { var s = num(r[2]); if (isFinite(s) && s > maxScore) maxScore = s; });
  var table = el('table', 'ranking');
  var head = el('tr');
  ['#', 'Variable', 'Kind', 'Σ|z|', 'Strongest significant features'].forEach(function (h, k) {
    head.appendChild(el('th', k === 0 || k === 3 ? 'num' : '', h));
  });
  table.appendChild(el('thead')).appendChild(head);
  var body = table.appendChild(el('tbody'));
  var rows = rankingAll ? D.ranking : D.ranking.slice(0, 15);
  rows.forEach(function (r, k) {
    var variable = D.names[r[0]], kind = KINDS[r[1]];
    var tr = el('tr');
    tr.tabIndex = 0;
    tr.appendChild(el('td', 'num muted', String(k + 1)));
    var name = el('td', 'name');
    name.title = variable;
    name.appendChild(el('span', 'var', variable));
    if (isMetric(kind, variable)) name.appendChild(el('span', 'badge p', 'P'));
    tr.appendChild(name);
    tr.appendChild(el('td', 'kind', kind));
    var score = el('td', 'num score');
    var bar = el('span', 'bar');
    var s = num(r[2]);
    bar.style.width = (maxScore > 0 ? Math.max(2, Math.min(100, 100 * (isFinite(s) ? s : maxScore) / maxScore)) : 0) + '%';
    score.appendChild(bar);
    score.appendChild(el('span', 'v', r[3]));
    tr.appendChild(score);
    var chips = el('td', 'chips');
    r[4].slice(0, 4).forEach(function (ti) {
      var t = tests[ti];
      var c = el('button', 'chip', t.feature + ' ');
      c.type = 'button';
      c.appendChild(el('b', '', t.tText));
      c.title = 'show the distributions of ' + t.feature;
      c.addEventListener('click', function (ev) { ev.stopPropagation(); select(ti, true); });
      chips.appendChild(c);
    });
    if (r[4].length > 4) chips.appendChild(el('span', 'muted', '+' + (r[4].length - 4)));
    tr.appendChild(chips);
    var first = r[4][0];
    function go() { if (first !== undefined) select(first, true); }
    tr.addEventListener('click', go);
    tr.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') go(); });
    body.appendChild(tr);
  });
  box.appendChild(table);
  if (D.ranking.length > 15) {
    var more = el('button', 'more', rankingAll ? 'Show the top 15 only' : 'Show all ' + D.ranking.length.toLocaleString('en-US') + ' ranked variables');
    more.type = 'button';
    more.addEventListener('click', function () { rankingAll = !rankingAll; renderRanking(); });
    box.appendChild(more);
  }
}

// ---- tests table -----------------------------------------------------------
var COLUMNS = {
  variable: { text: true, get: function (t) { return t.lower; } },
  kind: { text: true, get: function (t) { return t.kind; } },
  feature: { text: true, get: function (t) { return t.feature; } },
  t: { get: function (t) { return t.t; } },
  p: { asc: true, get: function (t) { return t.log10p; } },
  meanGood: { get: function (t) { return t.meanGood; } },
  meanBad: { get: function (t) { return t.meanBad; } },
  g: { get: function (t) { return t.g; } },
  sig: { get: function (t) { return t.sig ? 1 : 0; } },
  // Not a column: the order the table opens in, the verdict's causes first (in its order), then by p.
  cause: { asc: true, get: function (t) { return causeRank[t.i]; } }
};
var causeRank = tests.map(function () { return Infinity; });
(D.causes || []).forEach(function (i, k) { if (i >= 0 && i < causeRank.length) causeRank[i] = k; });
var sortKey = 'cause', sortDir = 1;
var order = [];
var view = [];
var shown = PAGE;

function cmpDefault(a, b) {
  // Most significant first: p, then larger |t|, then table order.
  var x = a.log10p, y = b.log10p;
  if (x !== y) { if (isNaN(x)) return 1; if (isNaN(y)) return -1; return x < y ? -1 : 1; }
  var ax = Math.abs(a.t), ay = Math.abs(b.t);
  if (ax !== ay) { if (isNaN(ax)) return 1; if (isNaN(ay)) return -1; return ax > ay ? -1 : 1; }
  return a.i - b.i;
}
function resort() {
  var col = COLUMNS[sortKey];
  order = tests.slice().sort(function (a, b) {
    var x = col.get(a), y = col.get(b), c = 0;
    if (col.text) c = x < y ? -1 : x > y ? 1 : 0;
    else if (x !== y) {
      if (isNaN(x)) return 1; if (isNaN(y)) return -1; // missing last either way
      c = x < y ? -1 : 1;
    }
    return c !== 0 ? c * sortDir : cmpDefault(a, b);
  }).map(function (t) { return t.i; });
  document.querySelectorAll('#tests-table thead th[data-key]').forEach(function (th) {
    var k = th.getAttribute('data-key');
    th.setAttribute('aria-sort', k === sortKey ? (sortDir > 0 ? 'ascending' : 'descending') : 'none');
  });
  refilter();
}
function refilter() {
  var q = document.getElementById('filter').value.toLowerCase().split(/\s+/).filter(Boolean);
  var sigOnly = document.getElementById('sig-only').checked;
  view = order.filter(function (i) {
    var t = tests[i];
    if (sigOnly && !t.sig) return false;
    for (var k = 0; k < q.length; k++) if (t.hay.indexOf(q[k]) < 0) return false;
    return true;
  });
  shown = PAGE;
  renderRows();
}
function renderRows() {
  var body = document.querySelector('#tests-table tbody');
  var frag = document.createDocumentFragment();
  var n = Math.min(shown, view.length);
  for (var k = 0; k < n; k++) {
    var t = tests[view[k]];
    var tr = document.createElement('tr');
    tr.setAttribute('data-i', String(t.i));
    tr.tabIndex = -1;
    if (!t.sig) tr.className = 'ns';
    if (t.i === selected) { tr.className += ' sel'; tr.setAttribute('aria-selected', 'true'); tr.tabIndex = 0; }
    var name = el('td', 'name');
    name.title = t.variable;
    name.appendChild(el('span', 'var', t.variable));
    if (isMetric(t.kind, t.variable)) name.appendChild(el('span', 'badge p', 'P'));
    tr.appendChild(name);
    tr.appendChild(el('td', 'kind', t.kind));
    tr.appendChild(el('td', 'feature', t.feature));
    tr.appendChild(el('td', 'num', t.tText));
    tr.appendChild(el('td', 'num', t.pText));
    tr.appendChild(el('td', 'num good', t.mgText));
    tr.appendChild(el('td', 'num bad', t.mbText));
    tr.appendChild(el('td', 'num', t.gText));
    tr.appendChild(el('td', 'sig', t.sig ? 'yes' : 'no'));
    frag.appendChild(tr);
  }
  clear(body);
  body.appendChild(frag);
  if (selected < 0 || view.indexOf(selected) < 0 || view.indexOf(selected) >= n) {
    var firstRow = body.querySelector('tr');
    if (firstRow) firstRow.tabIndex = 0;
  }
  document.getElementById('count').textContent = view.length === tests.length
    ? tests.length.toLocaleString('en-US') + ' tests'
    : view.length.toLocaleString('en-US') + ' of ' + tests.length.toLocaleString('en-US') + ' tests';
  var more = document.getElementById('more');
  clear(more);
  if (view.length > n) {
    var b = el('button', 'more', 'Show ' + Math.min(PAGE, view.length - n) + ' more (' + (view.length - n).toLocaleString('en-US') + ' not shown)');
    b.type = 'button';
    b.addEventListener('click', function () { shown += PAGE; renderRows(); });
    more.appendChild(b);
  }
  if (view.length === 0) more.appendChild(el('p', 'empty', 'No test matches the filter.'));
}
function markSelected() {
  document.querySelectorAll('#tests-table tbody tr').forEach(function (tr) {
    var on = Number(tr.getAttribute('data-i')) === selected;
    tr.classList.toggle('sel', on);
    tr.tabIndex = on ? 0 : -1;
    if (on) tr.setAttribute('aria-selected', 'true'); else tr.removeAttribute('aria-selected');
  });
}
function rowIndex(target) {
  var tr = target.closest ? target.closest('tr[data-i]') : null;
  return tr ? Number(tr.getAttribute('data-i')) : -1;
}

// ---- distribution plot -----------------------------------------------------
var logScale = null; // null: automatic
function fmt(x) {
  if (!isFinite(x)) return isNaN(x) ? 'n/a' : (x > 0 ? '∞' : '−∞');
  var a = Math.abs(x);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) return x.toExponential(2);
  return String(Number(x.toPrecision(4)));
}
function niceTicks(lo, hi, count) {
  var span = hi - lo;
  var step = Math.pow(10, Math.floor(Math.log10(span / count)));
  var err = span / count / step;
  if (err >= 7.5) step *= 10; else if (err >= 3.5) step *= 5; else if (err >= 1.5) step *= 2;
  var out = [];
  for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : Number(v.toPrecision(12)));
  return out;
}
function renderDetail() {
  var panel = document.getElementById('detail');
  clear(panel);
  var t = tests[selected];
  var head = el('div', 'detail-head');
  var h = el('h3', 'var', t.variable);
  if (isMetric(t.kind, t.variable)) h.appendChild(el('span', 'badge p', 'P'));
  head.appendChild(h);
  head.appendChild(el('div', 'muted', t.kind + ' · ' + t.feature + (t.sig ? ' · significant' : ' · not significant')));
  panel.appendChild(head);
  var stats = el('dl', 'stats');
  [['t', t.tText], ['p', t.pText], ['mean good', t.mgText], ['mean bad', t.mbText], ['effect size g', t.gText]].forEach(function (kv, k) {
    var d = el('div', k === 2 ? 'good' : k === 3 ? 'bad' : '');
    d.appendChild(el('dt', '', kv[0]));
    d.appendChild(el('dd', '', kv[1]));
    stats.appendChild(d);
  });
  panel.appendChild(stats);
  if (t.dist < 0) {
    panel.appendChild(el('p', 'empty', D.dists.length === 0
      ? 'This report was written without per-instance values.'
      : 'No per-instance values for this feature.'));
    return;
  }
  var dist = D.dists[t.dist];
  var values = dist.v.map(num);
  var boxes = dist.box.map(function (b) { return b.map(num); });
  var finite = values.filter(function (x) { return isFinite(x); });
  boxes.forEach(function (b) { for (var k = 0; k < 5; k++) if (isFinite(b[k])) finite.push(b[k]); });
  var positive = finite.length > 0 && finite.every(function (x) { return x > 0; });
  var lo = Math.min.apply(null, finite), hi = Math.max.apply(null, finite);
  var useLog = positive && (logScale === null ? hi / lo >= 50 : logScale);
  var tools = el('div', 'plot-tools');
  if (positive) {
    var lab = el('label');
    var cb = el('input');
    cb.type = 'checkbox'; cb.checked = useLog; cb.id = 'log-scale';
    cb.addEventListener('change', function () { logScale = cb.checked; renderDetail(); });
    lab.appendChild(cb);
    lab.appendChild(document.createTextNode(' log scale'));
    tools.appendChild(lab);
  }
  panel.appendChild(tools);
  panel.appendChild(plot(values, boxes, useLog));
  var nGood = D.instances.good, nBad = D.instances.ids.length - nGood;
  var note = 'Each point is one instance (hover for its name); boxes show quartiles and 1.5 IQR whiskers of all values.';
  if (nGood < D.instances.totalGood || nBad < D.instances.totalBad) {
    note += ' Points: ' + nGood + ' of ' + D.instances.totalGood.toLocaleString('en-US') + ' good and ' + nBad + ' of ' +
      D.instances.totalBad.toLocaleString('en-US') + ' bad instances, evenly spaced.';
  }
  panel.appendChild(el('p', 'note', note));
}
function plot(values, boxes, useLog) {
  var W = 460, H = 300, L = 58, R = 10, T = 14, B = 40;
  var f = useLog ? function (x) { return Math.log10(x); } : function (x) { return x; };
  var all = [];
  values.forEach(function (x) { if (isFinite(x)) all.push(f(x)); });
  boxes.forEach(function (b) { for (var k = 0; k < 5; k++) if (isFinite(b[k])) all.push(f(b[k])); });
  var root = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'plot', role: 'img' });
  var lo = all.length ? Math.min.apply(null, all) : 0, hi = all.length ? Math.max.apply(null, all) : 1;
  if (hi === lo) { var pad = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1; lo -= pad; hi += pad; }
  var margin = (hi - lo) * 0.06; lo -= margin; hi += margin;
  function y(v) { return T + (H - T - B) * (1 - (v - lo) / (hi - lo)); }
  // Axis and grid.
  var ticks = niceTicks(lo, hi, 5);
  if (useLog) {
    // Powers of ten where the range spans enough of them, else nice steps of log10.
    var decades = niceTicks(Math.floor(lo), Math.ceil(hi), Math.max(1, Math.min(6, Math.ceil(hi) - Math.floor(lo))))
      .filter(function (v) { return v >= lo && v <= hi && Number.isInteger(v); });
    if (decades.length >= 2) ticks = decades;
  }
  ticks.forEach(function (v) {
    var yy = y(v).toFixed(1);
    svg('line', { x1: L, x2: W - R, y1: yy, y2: yy, class: 'grid' }, root);
    svg('text', { x: L - 6, y: yy, class: 'tick', 'text-anchor': 'end', 'dominant-baseline': 'middle' }, root).textContent = useLog ? fmt(Math.pow(10, v)) : fmt(v);
  });
  svg('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'axis' }, root);
  var colW = (W - L - R) / 2;
  var nGood = D.instances.good;
  [0, 1].forEach(function (c) {
    var cls = c === 0 ? 'good' : 'bad';
    var cx = L + colW * (c + 0.5);
    var b = boxes[c];
    var g = svg('g', { class: cls }, root);
    var first = c === 0 ? 0 : nGood, last = c === 0 ? nGood : values.length;
    var label = svg('text', { x: cx, y: H - B + 18, class: 'col', 'text-anchor': 'middle' }, root);
    label.textContent = cls + ' (n = ' + b[5].toLocaleString('en-US') + (b[6] > 0 ? ', ' + b[6] + ' missing' : '') + ')';
    label.setAttribute('class', 'col ' + cls);
    if (isFinite(b[0])) {
      var bw = Math.min(70, colW * 0.34);
      svg('line', { x1: cx, x2: cx, y1: y(f(b[3])), y2: y(f(b[0])), class: 'whisker' }, g);
      svg('line', { x1: cx, x2: cx, y1: y(f(b[2])), y2: y(f(b[4])), class: 'whisker' }, g);
      [3, 4].forEach(function (k) { svg('line', { x1: cx - bw / 4, x2: cx + bw / 4, y1: y(f(b[k])), y2: y(f(b[k])), class: 'whisker' }, g); });
      svg('rect', { x: cx - bw / 2, y: y(f(b[2])), width: bw, height: Math.max(1, y(f(b[0])) - y(f(b[2]))), class: 'box' }, g);
      svg('line', { x1: cx - bw / 2, x2: cx + bw / 2, y1: y(f(b[1])), y2: y(f(b[1])), class: 'median' }, g);
    }
    var n = last - first;
    var r = n > 400 ? 1.8 : n > 100 ? 2.4 : 3.2;
    var band = colW * 0.62;
    for (var k = first; k < last; k++) {
      var v = values[k];
      if (!isFinite(v) || (useLog && v <= 0)) continue;
      // Deterministic jitter: golden-ratio sequence over the band.
      var j = ((k - first) * 0.6180339887) % 1;
      var pt = svg('circle', { cx: (cx + (j - 0.5) * band).toFixed(1), cy: y(f(v)).toFixed(1), r: r, class: 'pt' }, g);
      svg('title', {}, pt).textContent = D.instances.ids[k] + ' (' + cls + '): ' + fmt(v);
    }
  });
  return root;
}

// ---- wiring ----------------------------------------------------------------
document.querySelectorAll('#tests-table thead th[data-key] button').forEach(function (b) {
  b.addEventListener('click', function () {
    var k = b.parentNode.getAttribute('data-key');
    if (k === sortKey) sortDir = -sortDir;
    else { sortKey = k; sortDir = COLUMNS[k].text || COLUMNS[k].asc ? 1 : -1; }
    resort();
  });
});
document.getElementById('filter').addEventListener('input', refilter);
document.getElementById('sig-only').addEventListener('change', refilter);
var tbody = document.querySelector('#tests-table tbody');
tbody.addEventListener('click', function (ev) { var i = rowIndex(ev.target); if (i >= 0) select(i, false); });
tbody.addEventListener('keydown', function (ev) {
  var i = rowIndex(ev.target);
  if (i < 0) return;
  var at = view.indexOf(i);
  if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); select(i, false); }
  else if ((ev.key === 'ArrowDown' || ev.key === 'ArrowUp') && at >= 0) {
    ev.preventDefault();
    var next = view[at + (ev.key === 'ArrowDown' ? 1 : -1)];
    if (next !== undefined) {
      select(next, false);
      var row = tbody.querySelector('tr[data-i="' + next + '"]');
      if (row) { row.focus(); row.scrollIntoView({ block: 'nearest' }); }
    }
  }
});
document.querySelectorAll('[data-test]').forEach(function (b) {
  b.addEventListener('click', function () {
    select(Number(b.getAttribute('data-test')), true);
  });
});
// Graph nodes: clicking one shows that variable's feature of the graph.
document.querySelectorAll('.graph[data-graph]').forEach(function (box) {
  var gr = D.graphs[Number(box.getAttribute('data-graph'))];
  if (!gr) return;
  var kind = KINDS[gr.kind], feature = D.features[gr.feature];
  box.querySelectorAll('g.node').forEach(function (node) {
    // Node ids in the DOT are generated (g0_n3: the graph's node 3), never names.
    var title = node.querySelector('title');
    var m = /_n(\d+)$/.exec(title ? title.textContent : '');
    var name = m ? D.names[gr.nodes[Number(m[1])]] : undefined;
    var i = name === undefined ? undefined : byKey.get(kind + '\t' + name + '\t' + feature);
    if (i === undefined) return;
    node.classList.add('link');
    node.addEventListener('click', function () { select(i, true); });
  });
});
// A graph wider than its card starts scrolled to the middle, where the tree's root usually is.
function centre(box) { box.scrollLeft = Math.max(0, (box.scrollWidth - box.clientWidth) / 2); }
document.querySelectorAll('.graph svg').forEach(function (s) {
  var box = s.parentNode;
  centre(box);
  s.addEventListener('dblclick', function () { box.classList.toggle('natural'); centre(box); });
});
renderRanking();
resort();
})();
`;
