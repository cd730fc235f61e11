// The report's `chart` items drawn with uPlot (npm; 22 KB gzip where Chart.js was 62 KB, issue 11):
// axis titles with units, held-out error bands, markers as dashed reference lines, a legend that
// shows the values under the pointer, and a data table under each chart. chart-model.js says what
// an item draws, chart-draw.js draws what uPlot does not (bars, point shapes, markers).
import uPlot from 'uplot';
import { Dom } from './dom.js';
import { I18n } from './i18n.js';
import { ChartModel } from './chart-model.js';
import { barsPath, drawPoints, drawMarkers, FONT } from './chart-draw.js';

const { h } = Dom;
const { finite, axisTitle } = ChartModel;
const AXIS_FONT = '12px ' + FONT;
const live = new Set();

let measureCtx = null;
function textWidth(s) {
  if (!measureCtx) { measureCtx = document.createElement('canvas').getContext('2d'); measureCtx.font = AXIS_FONT; }
  return measureCtx.measureText(s).width;
}

function numFmt(locale) {
  const f = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  return (v) => (finite(v) ? f.format(v) : '');
}

// y from zero to above the data (stacked: the tallest stack) and the y markers.
function yRange(plot) {
  return (u, dmin, dmax) => {
    const m = plot.m;
    let hi = finite(dmax) ? dmax : 0;
    if (m.stacked) hi = Math.max(0, ...m.xs.map((_, i) => m.series.reduce((a, s) => a + (s.ys[i] || 0), 0)));
    for (const k of m.markers) if (k.axis !== 'x') hi = Math.max(hi, k.value * 1.05);
    const lo = finite(dmin) && dmin < 0 ? dmin : 0;
    if (!(hi > lo)) hi = lo + 1;
    const r = uPlot.rangeNum(lo, hi, 0.05, true);
    return [lo, r[1]];
  };
}

// x over the data and the x markers; categories sit at 0 .. n-1.
function xRange(plot) {
  return (u, dmin, dmax) => {
    const m = plot.m;
    if (m.labels) return [-0.5, m.labels.length - 0.5];
    const xm = m.markers.filter((k) => k.axis === 'x').map((k) => k.value);
    let lo = Math.min(finite(dmin) ? dmin : Infinity, ...xm), hi = Math.max(finite(dmax) ? dmax : -Infinity, ...xm);
    if (!finite(lo) || !finite(hi)) return [0, 1];
    if (lo === hi) { lo -= Math.abs(lo) * 0.1 || 1; hi += Math.abs(hi) * 0.1 || 1; }
    const r = uPlot.rangeNum(lo, hi, 0.05, true);
    return [lo >= 0 && r[0] < 0 ? 0 : r[0], r[1]];
  };
}

function axes(plot) {
  const m = plot.m;
  const fmt = numFmt(m.locale);
  const base = { stroke: '#333', font: AXIS_FONT, labelFont: AXIS_FONT, labelSize: 22, gap: 4,
    grid: { stroke: '#e3e3e3', width: 1 }, ticks: { stroke: '#e3e3e3', width: 1, size: 4 } };
  const x = Object.assign({}, base, { label: m.x, size: 26 });
  if (m.labels) {
    const names = m.labels;
    Object.assign(x, { splits: () => names.map((_, i) => i), values: (u, sp) => sp.map((v) => names[v] || ''), grid: { show: false } });
  } else x.values = (u, sp) => sp.map(fmt);
  const y = Object.assign({}, base, { label: m.y, values: (u, sp) => sp.map(fmt),
    size: (u, vals) => Math.ceil(Math.max(20, ...(vals || []).map((v) => textWidth(String(v))))) + 12 });
  return [x, y];
}

function uSeries(plot) {
  const m = plot.m;
  const fmt = numFmt(m.locale);
  const unit = m.yUnit ? ' ' + m.yUnit : '';
  const bars = m.kind === 'bar' ? barsPath(m.series.length, m.stacked) : null;
  // Legend values under the pointer, with their own ': ' (no colon when the pointer is away).
  const shown = (s) => (s === '' ? '' : ': ' + s);
  const xs = { label: m.x, value: (u, v) => shown(m.labels ? (m.labels[v] !== undefined ? m.labels[v] : '') : fmt(v)) };
  return [xs].concat(m.series.map((s, i) => {
    if (s.band) return { label: s.label, stroke: 'rgba(0,0,0,0)', width: 1, points: { show: false }, value: () => '', spanGaps: true };
    const o = { label: s.label, stroke: s.color, width: 2, dash: s.dash.length ? s.dash : undefined, points: { show: false }, spanGaps: true,
      value: (u, v) => shown(finite(v) ? fmt(v) + unit : '') };
    if (bars) Object.assign(o, { paths: bars, fill: s.color + 'CC', width: 1 });
    else if (m.scatter) o.paths = () => null;
    return o;
  }));
}

function options(plot, width, height) {
  const m = plot.m;
  const style = (i) => m.series[i - 1] || {};
  return {
    width, height, axes: axes(plot), series: uSeries(plot),
    scales: { x: { time: false, range: xRange(plot) }, y: { range: yRange(plot) } },
    bands: m.bands.map(([hi, lo, c]) => ({ series: [hi, lo], fill: c + '26' })),
    cursor: { drag: { x: false, y: false, setScale: false }, points: { size: 7 } },
    legend: { live: true, markers: { width: 2,
      stroke: (u, i) => (style(i).band ? style(i).color + '26' : style(i).color || '#333'),
      fill: (u, i) => (style(i).band ? style(i).color + '26' : m.kind === 'bar' ? (style(i).color || '#333') + 'CC' : 'transparent'),
      dash: (u, i) => ((style(i).dash || []).length ? 'dashed' : 'solid') } },
    hooks: { draw: [(u) => { if (m.kind !== 'bar') drawPoints(u, plot.m.series, m.scatter); drawMarkers(u, plot.m.markers); }] },
  };
}

function data(m) {
  return [m.xs].concat(m.series.map((s) => s.ys));
}

// One uPlot chart in a `.chart-box`, sized to the box (its legend below the plot); an item of the
// same shape (series, axes, language) updates it in place, another rebuilds it.
class Plot {
  constructor(box, item, lang, opts) {
    this.box = box;
    this.opts = opts || {};
    this.title = typeof item.title === 'string' ? item.title : '';
    this.id = typeof item.id === 'string' ? item.id : '';
    this.build(ChartModel.model(item, lang, this.opts));
    this.width = box.clientWidth;
    if (typeof ResizeObserver === 'function') {
      this.ro = new ResizeObserver(() => { if (!printing && this.box.clientWidth !== this.width) this.fit(); });
      this.ro.observe(box);
    }
  }
  build(m) {
    this.m = m;
    this.u = new uPlot(options(this, Math.max(200, this.box.clientWidth), Math.max(120, this.box.clientHeight - 40)), data(m), this.box);
    this.fit();
    // Rows the legend does not need: a band's lower edge (the upper one names the band), an x axis without a title.
    this.u.series.forEach((s, i) => {
      if ((i === 0 && !m.x) || (m.series[i - 1] && m.series[i - 1].band === 'lo')) this.legendRow(i).style.display = 'none';
    });
    this.tag();
  }
  legendRow(i) { return this.u.root.querySelectorAll('.u-legend .u-series')[i]; }
  tag() {
    const c = this.u.ctx.canvas;
    c.setAttribute('role', 'img');
    c.setAttribute('aria-label', this.title);
    c.dataset.chartId = this.id;
  }
  get canvas() { return this.u.ctx.canvas; }
  // The plot fills the box's width and its height less the legend's (measured at that width: the
  // legend wraps on a phone).
  fit(width, height) {
    const w = width || this.box.clientWidth, hgt = height || this.box.clientHeight;
    this.width = this.box.clientWidth;
    if (!(w > 0 && hgt > 0)) return;
    const legend = this.u.root.querySelector('.u-legend');
    if (legend) legend.style.width = w + 'px';
    const lh = legend ? legend.offsetHeight : 0;
    this.u.setSize({ width: w, height: Math.max(120, hgt - lh - 4) });
  }
  update(item, lang) {
    this.title = typeof item.title === 'string' ? item.title : '';
    const m = ChartModel.model(item, lang, this.opts);
    if (ChartModel.shapeOf(m) !== ChartModel.shapeOf(this.m)) {
      this.u.destroy();
      this.build(m);
      return;
    }
    this.m = m;
    this.u.setData(data(m), true);
    this.tag();
  }
  destroy() {
    if (this.ro) this.ro.disconnect();
    this.u.destroy();
  }
  // What the chart shows, for tests and exports: kind, axes, marker count, series labels and points.
  info() {
    const m = this.m;
    return { type: m.kind, stacked: m.stacked, x: m.x, y: m.y, markers: m.markers.length, datasets: m.series.length,
      labels: m.series.map((s) => s.label),
      series: this.u.data.slice(1).map((ys) => ys.map((y, j) => [m.labels ? j : this.u.data[0][j], y]).filter((p) => p[1] !== null)) };
  }
}

// Charts kept from the previous render of a panel, by chart id (keepIn): a re-render gives a kept
// chart its new data (Plot.update) instead of a new canvas and chart (issue 11).
const kept = new Map();

function keepIn(root) {
  for (const c of Array.from(live)) {
    if (!c.canvas || !root.contains(c.canvas)) continue;
    const fig = c.box.closest('figure.chart');
    if (c.id && fig && !kept.has(c.id)) kept.set(c.id, { fig, chart: c });
    else { c.destroy(); live.delete(c); }
  }
}

// Destroys the kept charts the new render did not reuse.
function releaseKept() {
  for (const { chart } of kept.values()) {
    chart.destroy();
    live.delete(chart);
  }
  kept.clear();
}

// A kept chart of the same id takes the item: its figure, with a new caption and data table.
function reuse(item, lang, id, title) {
  const k = kept.get(id);
  if (!k) return null;
  kept.delete(id);
  const { fig, chart } = k;
  fig.querySelector('figcaption').textContent = title;
  fig.setAttribute('data-kind', typeof item.chart === 'string' ? item.chart : 'line');
  const old = fig.querySelector('details.chart-data');
  const table = dataTable(item, lang);
  if (old) { table.open = old.open; old.replaceWith(table); } else fig.appendChild(table);
  fig._sloInit = () => chart.update(item, lang);
  return fig;
}

// Draws `item` in the figure's box now (the figure in the document); the chart is not one of the
// report's (not in `live`): the search's frontier. Returns it, or null when it cannot be drawn.
function draw(fig, item, lang, opts) {
  const box = fig && fig.querySelector('.chart-box');
  if (!box || !box.isConnected || !(item.series || []).some((s) => Array.isArray(s.points) && s.points.length)) return null;
  try { return new Plot(box, item, lang, opts); } catch (e) { return null; }
}

// Returns a <figure> holding the chart's box (fixed height: no layout jump) and a data table; the
// chart is drawn by initIn once the figure is in the document (uPlot sizes to its box).
function render(item, lang) {
  const t = (k) => I18n.t(lang, k);
  const title = typeof item.title === 'string' ? item.title : '';
  const box = h('div', { class: 'chart-box' });
  const fig = h('figure', { class: 'chart', 'data-kind': typeof item.chart === 'string' ? item.chart : 'line' },
    h('figcaption', { text: title }), box, dataTable(item, lang));
  const hasPoints = (item.series || []).some((s) => Array.isArray(s.points) && s.points.length);
  if (!hasPoints) {
    box.appendChild(h('p', { class: 'chart-empty', text: t('chart_no_data') }));
    return fig;
  }
  const again = reuse(item, lang, typeof item.id === 'string' ? item.id : '', title);
  if (again) return again;
  fig._sloInit = () => {
    try {
      live.add(new Plot(box, item, lang));
    } catch (e) {
      box.appendChild(h('p', { class: 'chart-empty', text: String(e && e.message ? e.message : e) }));
    }
  };
  return fig;
}

function dataTable(item, lang) {
  const series = Array.isArray(item.series) ? item.series : [];
  const cats = Array.isArray(item.categories) ? item.categories : [];
  const xs = [];
  for (const s of series) for (const p of s.points || []) if (Array.isArray(p) && finite(p[0]) && !xs.includes(p[0])) xs.push(p[0]);
  if (!cats.length) xs.sort((a, b) => a - b);
  const head = h('tr', null, h('th', { scope: 'col', text: axisTitle(item.x_label, item.x_unit) || 'x' }),
    series.map((s) => h('th', { scope: 'col', text: (typeof s.name === 'string' ? s.name : '') + (item.y_unit ? ' (' + item.y_unit + ')' : '') })));
  const rows = xs.map((x) => {
    const label = cats.length && Number.isInteger(x) && x >= 0 && x < cats.length ? String(cats[x]) : String(x);
    return h('tr', null, h('th', { scope: 'row', text: label }), series.map((s) => {
      const p = (s.points || []).find((q) => Array.isArray(q) && q[0] === x);
      return h('td', { class: 'num', text: p && finite(p[1]) ? String(p[1]) : '' });
    }));
  });
  return h('details', { class: 'chart-data' }, h('summary', { text: lang === 'zh' ? '数据' : 'Data' }),
    h('div', { class: 'table-wrap' }, h('table', null, h('thead', null, head), h('tbody', null, rows))));
}

function runInit(fig) {
  if (!fig._sloInit || !fig.isConnected) return;
  const f = fig._sloInit;
  fig._sloInit = null;
  f();
}

// Creates or updates the charts of a rendered panel. `defer`: one chart per task (a re-render after
// an edit), so that the report's own task stays short and no chart update joins it in one long task
// (issue 11); the first render draws them at once. A figure re-rendered before its turn runs its
// newest init; a removed one is skipped.
const queue = [];
const waiting = [];  // settled() callers
let draining = false;
function drain() {
  const fig = queue.shift();
  if (fig) runInit(fig);
  if (queue.length) setTimeout(drain, 0);
  else { draining = false; for (const r of waiting.splice(0)) r(); }
}
function initIn(root, opts = {}) {
  for (const fig of root.querySelectorAll('figure.chart')) {
    if (!fig._sloInit) continue;
    if (!opts.defer) { runInit(fig); continue; }
    if (!queue.includes(fig)) queue.push(fig);
  }
  if (queue.length && !draining) { draining = true; setTimeout(drain, 0); }
}

// Resolves once every deferred chart is drawn (tests, print, exports).
function settled() {
  return queue.length || draining ? new Promise((r) => waiting.push(r)) : Promise.resolve();
}

// Draws every deferred chart now.
function flush() {
  while (queue.length) runInit(queue.shift());
}

function destroyIn(root) {
  for (const c of Array.from(live)) {
    if (!c.canvas || !c.canvas.isConnected || (root && root.contains(c.canvas))) {
      c.destroy();
      live.delete(c);
    }
  }
}

function resizeAll() {
  for (const c of live) c.fit();
}

// Print: redraw every chart at the printable width (A4/Letter minus margins at 96 dpi) so that
// labels keep their size instead of a screen-wide bitmap being scaled down.
let printing = false;
function printMode(on) {
  if (on) flush();
  if (on === printing) return;
  printing = on;
  for (const c of live) {
    if (on) c.fit(680, 280);
    else c.fit();
  }
}

window.addEventListener('beforeprint', () => printMode(true));
window.addEventListener('afterprint', () => printMode(false));
if (window.matchMedia) {
  const mq = window.matchMedia('print');
  const onChange = (e) => printMode(e.matches);
  if (mq.addEventListener) mq.addEventListener('change', onChange);
}

export const Charts = { render, draw, initIn, destroyIn, keepIn, releaseKept, resizeAll, printMode, live, settled, flush };
