// Generic Chart.js rendering of the report's `chart` items (line, bar, stacked-bar) with axis titles
// and units; `markers` are drawn as dashed reference lines by the small plugin below.
import { Dom } from './dom.js';
import { I18n } from './i18n.js';
import { Chart } from './chart-setup.js';

const { h } = Dom;
// Okabe–Ito palette (colour-blind safe), dark enough on white and in print.
const COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#8C564B'];
const DASHES = [[], [6, 3], [2, 2], [8, 3, 2, 3], [4, 4], [1, 3], [10, 4], [3, 6]];
const POINTS = ['circle', 'rect', 'triangle', 'rectRot', 'crossRot', 'star', 'cross', 'line'];
const MARKER_COLOR = '#B00020';
const FONT = 'system-ui, -apple-system, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans SC", "WenQuanYi Micro Hei", sans-serif';

const live = new Set();

// Marker label on a white box so that it stays readable over bars and lines; `placed` holds the
// boxes already drawn on this chart so that labels do not overlap.
function labelAt(ctx, text, x, y, w, placed, area, step) {
  const hgt = 14;
  let box = { x: x - 2, y: y - 11, w: w + 4, h: hgt };
  for (let i = 0; i < 8 && placed.some((p) => p.x < box.x + box.w && box.x < p.x + p.w && p.y < box.y + box.h && box.y < p.y + p.h); i++) {
    box = Object.assign({}, box, { y: box.y + step });
    if (box.y < area.top || box.y + hgt > area.bottom) box.y = Math.min(Math.max(area.top, box.y), area.bottom - hgt);
  }
  placed.push(box);
  ctx.save();
  ctx.setLineDash([]);
  ctx.fillStyle = 'rgba(255,255,255,0.92)';
  ctx.fillRect(box.x, box.y, box.w, box.h);
  ctx.restore();
  ctx.fillText(text, box.x + 2, box.y + 11);
}

const markerPlugin = {
  id: 'sloMarkers',
  afterDatasetsDraw(chart, args, opts) {
    const markers = (opts && opts.markers) || [];
    if (!markers.length) return;
    const { ctx, chartArea } = chart;
    const { left, right, top, bottom } = chartArea;
    const placed = [];
    const labels = [];
    ctx.save();
    ctx.lineWidth = 1.5;
    ctx.setLineDash([6, 4]);
    ctx.strokeStyle = MARKER_COLOR;
    ctx.fillStyle = MARKER_COLOR;
    ctx.font = '12px ' + FONT;
    for (const m of markers) {
      if (!m || typeof m.value !== 'number' || !Number.isFinite(m.value)) continue;
      const label = typeof m.label === 'string' ? m.label : '';
      if (m.axis === 'x') {
        const sc = chart.scales.x;
        if (!sc) continue;
        const x = sc.getPixelForValue(m.value);
        if (!Number.isFinite(x) || x < left - 1 || x > right + 1) continue;
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, bottom);
        ctx.stroke();
        if (label) {
          const w = ctx.measureText(label).width;
          labels.push([label, x + 4 + w > right ? x - 6 - w : x + 4, top + 14, w]);
        }
      } else {
        const sc = chart.scales.y;
        if (!sc) continue;
        const y = sc.getPixelForValue(m.value);
        if (!Number.isFinite(y) || y < top - 1 || y > bottom + 1) continue;
        ctx.beginPath();
        ctx.moveTo(left, y);
        ctx.lineTo(right, y);
        ctx.stroke();
        if (label) {
          const w = ctx.measureText(label).width;
          labels.push([label, Math.max(left + 2, right - w - 4), y > top + 16 ? y - 5 : y + 14, w]);
        }
      }
    }
    // Labels after every line, so that no line crosses a label.
    for (const [text, x, y, w] of labels) labelAt(ctx, text, x, y, w, placed, chartArea, 16);
    ctx.restore();
  },
};

function axisTitle(label, unit) {
  const l = typeof label === 'string' ? label : '';
  const u = typeof unit === 'string' ? unit : '';
  if (l && u) return l + ' (' + u + ')';
  return l || (u ? '(' + u + ')' : '');
}

function finite(x) {
  return typeof x === 'number' && Number.isFinite(x);
}

// Chart.js config from a report chart item; data only from the item.
function config(item, lang) {
  const kind = item.chart === 'bar' || item.chart === 'stacked-bar' ? item.chart : 'line';
  const scatter = item.chart === 'scatter';  // points without connecting lines (the search's frontier)
  const series = Array.isArray(item.series) ? item.series : [];
  const cats = Array.isArray(item.categories) ? item.categories.map((c) => (typeof c === 'string' ? c : '')) : [];
  const markers = (Array.isArray(item.markers) ? item.markers : []).filter((m) => m && finite(m.value));
  const yUnit = typeof item.y_unit === 'string' ? item.y_unit : '';
  const xUnit = typeof item.x_unit === 'string' ? item.x_unit : '';
  const isBar = kind !== 'line';
  const useCats = isBar || cats.length > 0;
  let labels = cats.slice();
  if (useCats && !labels.length) {
    // Bars without category names: label positions by their x values.
    const xs = [];
    for (const s of series) for (const p of s.points || []) if (Array.isArray(p) && finite(p[0]) && !xs.includes(p[0])) xs.push(p[0]);
    xs.sort((a, b) => a - b);
    labels = xs.map((x) => String(x));
  }
  const datasets = series.map((s, i) => {
    const pts = (Array.isArray(s.points) ? s.points : []).filter((p) => Array.isArray(p) && finite(p[0]) && finite(p[1]));
    let data;
    if (useCats) {
      data = new Array(labels.length).fill(null);
      pts.forEach((p, j) => {
        let idx;
        if (cats.length) idx = Number.isInteger(p[0]) && p[0] >= 0 && p[0] < labels.length ? p[0] : j;
        else idx = labels.indexOf(String(p[0]));
        if (idx >= 0 && idx < data.length) data[idx] = p[1];
      });
    } else {
      data = pts.map((p) => ({ x: p[0], y: p[1] }));
    }
    const c = COLORS[i % COLORS.length];
    return {
      label: typeof s.name === 'string' ? s.name : '',
      data,
      borderColor: c,
      backgroundColor: isBar ? c + 'CC' : c,
      borderWidth: isBar ? 1 : 2,
      maxBarThickness: 160,
      borderDash: isBar ? [] : DASHES[i % DASHES.length],
      pointStyle: POINTS[i % POINTS.length],
      pointRadius: isBar ? 0 : scatter ? 5 : 3,
      showLine: !scatter,
      pointHoverRadius: 5,
      tension: 0,
      spanGaps: true,
    };
  });
  // Held-out error band of a predicted line (core: series.band): a shaded range around it.
  if (!isBar) {
    series.forEach((s, i) => {
      const b = s && typeof s.band === 'object' && s.band ? s.band : null;
      if (!b || !finite(b.lo_pct) || !finite(b.hi_pct) || !datasets[i]) return;
      const c = COLORS[i % COLORS.length];
      const scale = (f) => datasets[i].data.map((p) => ({ x: p.x, y: p.y * (1 + f / 100) }));
      const base = { borderWidth: 0, pointRadius: 0, pointHoverRadius: 0, tension: 0, borderColor: c, band: true };
      datasets.push(Object.assign({ label: '', data: scale(b.lo_pct), fill: false }, base));
      datasets.push(Object.assign({ label: typeof b.text === 'string' ? b.text : '', data: scale(b.hi_pct), fill: '-1', backgroundColor: c + '26' }, base));
    });
  }
  const stacked = kind === 'stacked-bar';
  const yMarks = markers.filter((m) => m.axis !== 'x').map((m) => m.value);
  const xMarks = markers.filter((m) => m.axis === 'x').map((m) => m.value);
  const scaleX = {
    type: useCats ? 'category' : 'linear',
    stacked,
    title: { display: true, text: axisTitle(item.x_label, xUnit), color: '#222', font: { size: 12 } },
    ticks: { color: '#333', maxRotation: 45, autoSkip: true },
    grid: { color: '#e3e3e3' },
  };
  if (!useCats && xMarks.length) {
    scaleX.suggestedMin = Math.min(...xMarks);
    scaleX.suggestedMax = Math.max(...xMarks);
  }
  const scaleY = {
    type: 'linear',
    stacked,
    beginAtZero: true,
    title: { display: true, text: axisTitle(item.y_label, yUnit), color: '#222', font: { size: 12 } },
    ticks: { color: '#333' },
    grid: { color: '#e3e3e3' },
  };
  if (yMarks.length) scaleY.suggestedMax = Math.max(...yMarks) * 1.05;
  const locale = lang === 'zh' ? 'zh-CN' : 'en-US';
  return {
    type: isBar ? 'bar' : 'line',
    data: useCats ? { labels, datasets } : { datasets },
    plugins: [markerPlugin],
    options: {
      locale,
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      devicePixelRatio: Math.max(2, window.devicePixelRatio || 1),
      interaction: { mode: useCats ? 'index' : 'nearest', intersect: false },
      parsing: useCats ? undefined : false,
      scales: { x: scaleX, y: scaleY },
      plugins: {
        legend: { display: datasets.length > 1 || stacked, position: 'bottom',
          labels: { color: '#222', usePointStyle: !isBar, boxWidth: isBar ? 14 : 8, boxHeight: isBar ? 12 : 8, filter: (it) => !!it.text } },
        title: { display: false },
        tooltip: {
          callbacks: {
            label(ctx) {
              const v = ctx.parsed && finite(ctx.parsed.y) ? ctx.parsed.y : null;
              if (v === null) return '';
              const num = v.toLocaleString(locale, { maximumFractionDigits: 3 });
              return (ctx.dataset.label ? ctx.dataset.label + ': ' : '') + num + (yUnit ? ' ' + yUnit : '');
            },
          },
        },
        sloMarkers: { markers },
      },
    },
  };
}

// Charts kept from the previous render of a panel, by chart id (keepIn): a re-render gives a
// kept chart its new data and options (chart.update) instead of a new canvas and Chart, which was
// most of the main-thread time of a re-render (issue 11).
const kept = new Map();

function keepIn(root) {
  for (const c of Array.from(live)) {
    if (!c.canvas || !root.contains(c.canvas)) continue;
    const id = c.canvas.dataset.chartId;
    const fig = c.canvas.closest('figure.chart');
    if (id && fig && !kept.has(id)) kept.set(id, { fig, chart: c });
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

// A kept chart of the same id and type takes the item: its figure, with a new caption and data table.
function reuse(item, lang, id, title) {
  const k = kept.get(id);
  if (!k) return null;
  const cfg = config(item, lang);
  if (k.chart.config.type !== cfg.type) return null;
  kept.delete(id);
  const { fig, chart } = k;
  fig.querySelector('figcaption').textContent = title;
  chart.canvas.setAttribute('aria-label', title);
  fig.setAttribute('data-kind', typeof item.chart === 'string' ? item.chart : 'line');
  const old = fig.querySelector('details.chart-data');
  const table = dataTable(item, lang);
  if (old) { table.open = old.open; old.replaceWith(table); } else fig.appendChild(table);
  fig._sloInit = () => {
    chart.data = cfg.data;
    chart.options = cfg.options;
    chart.update('none');
  };
  return fig;
}

// Returns a <figure> holding the canvas (fixed-height box: no layout jump) and a data table.
function render(item, lang) {
  const t = (k) => I18n.t(lang, k);
  const title = typeof item.title === 'string' ? item.title : '';
  const canvas = h('canvas', { role: 'img', 'aria-label': title, 'data-chart-id': typeof item.id === 'string' ? item.id : '' });
  const box = h('div', { class: 'chart-box' }, canvas);
  const fig = h('figure', { class: 'chart', 'data-kind': typeof item.chart === 'string' ? item.chart : 'line' },
    h('figcaption', { text: title }), box, dataTable(item, lang));
  const hasPoints = (item.series || []).some((s) => Array.isArray(s.points) && s.points.length);
  if (!hasPoints) {
    box.appendChild(h('p', { class: 'chart-empty', text: t('chart_no_data') }));
    return fig;
  }
  if (typeof Chart !== 'function') return fig;
  const again = reuse(item, lang, typeof item.id === 'string' ? item.id : '', title);
  if (again) return again;
  // Chart.js needs the canvas in the document to size it: create once attached.
  fig._sloInit = () => {
    try {
      const c = new Chart(canvas, config(item, lang));
      live.add(c);
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
  const rows = xs.map((x, xi) => {
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
  for (const c of live) c.resize();
}

// Print: redraw every chart at the printable width (A4/Letter minus margins at 96 dpi) so that
// labels keep their size instead of a screen-wide bitmap being scaled down.
let printing = false;
function printMode(on) {
  if (on) flush();
  if (on === printing) return;
  printing = on;
  for (const c of live) {
    if (on) c.resize(680, 280);
    else c.resize();
  }
}

if (typeof Chart === 'function') {
  Chart.defaults.font.family = FONT;
  Chart.defaults.color = '#222';
}
window.addEventListener('beforeprint', () => printMode(true));
window.addEventListener('afterprint', () => printMode(false));
if (window.matchMedia) {
  const mq = window.matchMedia('print');
  const onChange = (e) => printMode(e.matches);
  if (mq.addEventListener) mq.addEventListener('change', onChange);
}

export const Charts = { render, initIn, destroyIn, keepIn, releaseKept, resizeAll, printMode, config, live, settled, flush };
