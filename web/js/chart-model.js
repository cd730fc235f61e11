// What a report `chart` item draws, from the item alone (no DOM, no drawing): kind, the shared x
// positions, one value array per series, the held-out bands as lower and upper edges, markers and
// axis titles. charts.js turns it into a uPlot chart.
// Okabe–Ito palette (colour-blind safe), dark enough on white and in print.
const COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#8C564B'];
const DASHES = [[], [6, 3], [2, 2], [8, 3, 2, 3], [4, 4], [1, 3], [10, 4], [3, 6]];
const SHAPES = ['circle', 'square', 'triangle', 'diamond', 'cross', 'star', 'plus', 'dash'];

function finite(x) {
  return typeof x === 'number' && Number.isFinite(x);
}

function axisTitle(label, unit) {
  const l = typeof label === 'string' ? label : '';
  const u = typeof unit === 'string' ? unit : '';
  if (l && u) return l + ' (' + u + ')';
  return l || (u ? '(' + u + ')' : '');
}

// The x positions: category indices, or every series' x values merged and sorted (uPlot draws
// series over one shared x array; a series without a point at some x has null there).
function positions(series, useCats, cats) {
  if (useCats && cats.length) return { xs: cats.map((_, i) => i), labels: cats.slice() };
  const xs = [];
  for (const s of series) for (const p of s.points || []) if (Array.isArray(p) && finite(p[0]) && !xs.includes(p[0])) xs.push(p[0]);
  xs.sort((a, b) => a - b);
  // Bars without category names: one category per x value, named by it.
  return useCats ? { xs: xs.map((_, i) => i), labels: xs.map((x) => String(x)), byValue: xs } : { xs, labels: null };
}

function seriesValues(s, pos, cats) {
  const ys = new Array(pos.xs.length).fill(null);
  const pts = (Array.isArray(s.points) ? s.points : []).filter((p) => Array.isArray(p) && finite(p[0]) && finite(p[1]));
  pts.forEach((p, j) => {
    let idx;
    if (pos.byValue) idx = pos.byValue.indexOf(p[0]);
    else if (pos.labels) idx = Number.isInteger(p[0]) && p[0] >= 0 && p[0] < cats.length ? p[0] : j;
    else idx = pos.xs.indexOf(p[0]);
    if (idx >= 0 && idx < ys.length) ys[idx] = p[1];
  });
  return ys;
}

// What a chart item draws, from the item alone: kind, x positions, series (with their held-out
// bands as a lower and an upper edge), markers, axis titles.
function model(item, lang, opts = {}) {
  const kind = item.chart === 'bar' || item.chart === 'stacked-bar' ? 'bar' : 'line';
  const scatter = item.chart === 'scatter';
  const stacked = item.chart === 'stacked-bar';
  const series = Array.isArray(item.series) ? item.series : [];
  const cats = Array.isArray(item.categories) ? item.categories.map((c) => (typeof c === 'string' ? c : '')) : [];
  const useCats = kind === 'bar' || cats.length > 0;
  const pos = positions(series, useCats, cats);
  const out = [];
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const label = typeof s.name === 'string' ? s.name : '';
    out.push({ label, ys: seriesValues(s, pos, cats), color, dash: kind === 'bar' ? [] : DASHES[i % DASHES.length],
      shape: opts.highlight && label === opts.highlight ? 'star' : SHAPES[i % SHAPES.length], big: !!(opts.highlight && label === opts.highlight) });
  });
  // Held-out error band of a predicted line (core: series.band): a shaded range around it.
  const bands = [];
  if (kind === 'line') {
    series.forEach((s, i) => {
      const b = s && typeof s.band === 'object' && s.band ? s.band : null;
      if (!b || !finite(b.lo_pct) || !finite(b.hi_pct)) return;
      const base = out[i].ys;
      const scale = (f) => base.map((y) => (y === null ? null : y * (1 + f / 100)));
      out.push({ label: '', ys: scale(b.lo_pct), color: out[i].color, band: 'lo' });
      out.push({ label: typeof b.text === 'string' ? b.text : '', ys: scale(b.hi_pct), color: out[i].color, band: 'hi' });
      bands.push([out.length, out.length - 1, out[i].color]);  // uPlot indices (0 is x): upper, lower
    });
  }
  const markers = (Array.isArray(item.markers) ? item.markers : []).filter((m) => m && finite(m.value));
  return { kind, scatter, stacked, labels: pos.labels, xs: pos.xs, series: out, bands, markers,
    x: axisTitle(item.x_label, item.x_unit), y: axisTitle(item.y_label, item.y_unit),
    yUnit: typeof item.y_unit === 'string' ? item.y_unit : '', locale: lang === 'zh' ? 'zh-CN' : 'en-US' };
}

// Everything but the data and the markers: two models with the same shape update one uPlot in place.
function shapeOf(m) {
  return JSON.stringify([m.kind, m.scatter, m.stacked, m.labels, m.x, m.y, m.yUnit, m.locale, m.bands.length,
    m.series.map((s) => [s.label, s.band || '', s.shape, s.big])]);
}

export const ChartModel = { model, shapeOf, axisTitle, finite };
