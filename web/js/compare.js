// Compare A/B: the pinned scenario (A) beside the one being edited (B), side by side. Both reports
// come from the core; this file lines their verdicts and scenario rows up by id, marks what differs
// and shows B - A where both figures are numbers in the same unit. Text only via textContent.
import { Dom } from './dom.js';
import { Link } from './link.js';
import { Charts } from './charts.js';

const { h, valueText, str } = Dom;
const STATUSES = ['pass', 'fail', 'warn', 'info'];
const fin = (x) => typeof x === 'number' && Number.isFinite(x);

// "B - A" of two values: signed, in their unit, with the relative change; '' when not comparable.
function change(a, b, lang) {
  if (!a || !b || !fin(a.number) || !fin(b.number) || str(a.unit) !== str(b.unit)) return '';
  const d = b.number - a.number;
  if (d === 0) return '';
  const loc = lang === 'zh' ? 'zh-CN' : 'en-US';
  const digits = Math.abs(d) >= 100 ? 0 : Math.abs(d) >= 1 ? 1 : 2;
  let s = (d > 0 ? '+' : '−') + Math.abs(d).toLocaleString(loc, { maximumFractionDigits: digits }) + (str(a.unit) ? ' ' + str(a.unit) : '');
  if (a.number !== 0) s += ' (' + (d > 0 ? '+' : '−') + Math.abs((d / Math.abs(a.number)) * 100).toLocaleString(loc, { maximumFractionDigits: 0 }) + '%)';
  return s;
}

function badge(v, t) {
  const st = STATUSES.includes(v && v.status) ? v.status : 'info';
  return h('span', { class: 'badge st-' + st, text: t('status_' + st) });
}

function cell(v, t, withBadge) {
  if (!v) return h('td', { class: 'missing', text: t('compare_not_set') });
  return h('td', null, withBadge ? badge(v, t) : null, withBadge ? ' ' : null, valueText(v.value));
}

// Rows of the first section (the scenario) and of the cost section, by id.
function scenarioRows(r) {
  const all = Array.isArray(r.sections) ? r.sections : [];
  const out = new Map();
  for (const s of [all[0], all.find((x) => x && x.id === 'cost')])
    if (s) for (const it of s.items || []) if (it && it.kind === 'row' && (it.level || 0) === 0 && str(it.id)) out.set(str(s.id) + '.' + str(it.id), it);
  return out;
}

function ids(a, b) {
  const out = [...a.keys()];
  for (const k of b.keys()) if (!out.includes(k)) out.push(k);
  return out;
}

// Line charts both reports carry (same id and units) as one chart: A's series, then B's, named
// "A: …" and "B: …"; a marker that differs is drawn for each. Bar charts stay in each report.
function lineCharts(r) {
  const out = new Map();
  for (const s of Array.isArray(r.sections) ? r.sections : [])
    for (const it of (s && s.items) || []) if (it && it.kind === 'chart' && it.chart === 'line' && str(it.id)) out.set(str(it.id), it);
  return out;
}

function overlaid(a, b, t) {
  const ca = lineCharts(a.report), cb = lineCharts(b.report);
  const items = [];
  for (const [id, y] of cb) {
    const x = ca.get(id);
    if (!x || str(x.x_unit) !== str(y.x_unit) || str(y.y_unit) !== str(x.y_unit)) continue;
    const named = (c, p) => (Array.isArray(c.series) ? c.series : []).map((s) => ({ name: p + str(s.name), points: s.points }));
    const markers = [];
    for (const m of Array.isArray(y.markers) ? y.markers : []) {
      const same = (x.markers || []).some((n) => n && n.axis === m.axis && n.value === m.value);
      markers.push(same ? m : Object.assign({}, m, { label: 'B: ' + str(m.label) }));
    }
    for (const m of Array.isArray(x.markers) ? x.markers : [])
      if (!(y.markers || []).some((n) => n && n.axis === m.axis && n.value === m.value)) markers.push(Object.assign({}, m, { label: 'A: ' + str(m.label) }));
    items.push({ id: 'compare-' + id, kind: 'chart', chart: 'line', title: str(y.title), x_label: y.x_label, x_unit: y.x_unit, y_label: y.y_label, y_unit: y.y_unit,
      series: named(x, 'A: ').concat(named(y, 'B: ')), markers });
  }
  return items;
}

// a, b: {name, report}; opts.compact (the embed view): verdicts and the differing scenario rows only,
// no charts. Returns the comparison's DOM.
function render(a, b, lang, t, opts) {
  const compact = !!(opts && opts.compact);
  const byId = (r) => new Map((Array.isArray(r.verdicts) ? r.verdicts : []).map((v) => [str(v.id), v]));
  const va = byId(a.report), vb = byId(b.report);
  const sa = scenarioRows(a.report), sb = scenarioRows(b.report);
  let differing = 0;
  const row = (label, x, y, withBadge) => {
    const same = x && y && valueText(x.value) === valueText(y.value) && (!withBadge || x.status === y.status);
    if (!same) differing++;
    return h('tr', { class: same ? '' : 'differs' }, h('th', { scope: 'row', text: label }), cell(x, t, withBadge), cell(y, t, withBadge),
      h('td', { class: 'num', text: x && y ? change(x.value, y.value, lang) : '' }));
  };
  const verdictRows = ids(va, vb).map((k) => row(str((va.get(k) || vb.get(k)).label), va.get(k), vb.get(k), true));
  let scenario = ids(sa, sb).map((k) => row(str((sa.get(k) || sb.get(k)).label), sa.get(k), sb.get(k), false));
  if (compact) scenario = scenario.filter((tr) => tr.classList.contains('differs'));
  // Short column heads (the scenario rows below say what each one is): "A (pinned)", "B (edited)".
  const head = h('tr', null, h('th', { scope: 'col', text: '' }), h('th', { scope: 'col', text: t('compare_a') }),
    h('th', { scope: 'col', text: t('compare_b') }), h('th', { scope: 'col', text: t('compare_change') }));
  const table = (caption, rows) => h('div', { class: 'table-wrap' }, h('table', { class: 'data compare' },
    h('caption', { text: caption }), h('thead', null, head.cloneNode(true)), h('tbody', null, rows)));
  return h('section', { class: 'compare-view', id: 'compare-view', 'aria-labelledby': 'compare-title' },
    h('h2', { id: 'compare-title', text: t(compact ? 'compare_title_embed' : 'compare_title') }),
    h('p', { class: 'headline', text: 'A: ' + str(a.report.headline) }),
    h('p', { class: 'headline', text: 'B: ' + str(b.report.headline) }),
    table(t('compare_verdicts'), verdictRows),
    scenario.length ? table(t('compare_scenario'), scenario) : null,
    h('p', { class: 'muted small', id: 'compare-count', text: t('compare_count', { n: differing }) }),
    compact ? null : overlaid(a, b, t).map((item) => h('div', { class: 'compare-chart' }, Charts.render(item, lang))));
}

// ------------------------------------------------------------------ controller
// ctx (app.js): {t, lang(), call(fn, ...args), current() -> {minimal, report, name} | null,
// linkChanged(), showTab(id)}. A is a minimal scenario document evaluated by the core.
let ctx = null;
let pinned = null;   // {minimal, report, name, encoded}

function init(c) { ctx = c; }

async function evaluate(minimal) {
  const r = JSON.parse(await ctx.call('evaluate', JSON.stringify(minimal), JSON.stringify({ lang: ctx.lang(), method: 'corrected', formats: ['json'] })));
  return r && r.ok ? r : null;
}

// Pins the current scenario as A (its report as computed now).
async function pin() {
  const cur = ctx.current();
  if (!cur) return;
  pinned = { minimal: JSON.parse(JSON.stringify(cur.minimal)), report: cur.report, name: cur.name, encoded: await Link.encodeScenario(cur.minimal) };
  ctx.linkChanged();
  ctx.showTab('compare');
}

function unpin() {
  pinned = null;
  ctx.linkChanged();
  ctx.showTab('corrected');
}

// A from a link ("a" parameter, already validated by the caller); false when the core rejects it.
async function pinDocument(doc) {
  const r = await evaluate(doc);
  if (!r) return false;
  pinned = { minimal: r.minimal, report: r.report, name: str(r.scenario && r.scenario.name), encoded: await Link.encodeScenario(r.minimal) };
  return true;
}

// The language changed: A's report is asked for again in the new language.
async function relang() {
  if (!pinned) return;
  const r = await evaluate(pinned.minimal);
  if (r && pinned) pinned.report = r.report;
}

function mount(panel, opts) {
  const t = ctx.t;
  const compact = !!(opts && opts.compact);
  const cur = ctx.current();
  if (!pinned) {
    panel.appendChild(h('p', { class: 'muted', id: 'compare-empty', text: t('compare_none') }));
    return;
  }
  const unpinBtn = h('button', { type: 'button', class: 'btn small', id: 'btn-unpin', text: t('unpin'), on: { click: unpin } });
  if (!cur) {
    panel.append(h('p', { class: 'muted', text: t('compare_b_invalid') }), unpinBtn);
    return;
  }
  const view = render({ name: pinned.name, report: pinned.report }, { name: cur.name, report: cur.report }, ctx.lang(), t, { compact });
  if (compact) panel.append(view);
  else panel.append(view, unpinBtn);
}

export const Compare = { render, change, init, pin, unpin, pinDocument, relang, mount, pinned: () => pinned, encoded: () => (pinned ? pinned.encoded : '') };
