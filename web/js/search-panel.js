// The "Find best configuration" tab: the core's configuration search (api::search) run in its own
// worker with progress and cancel, its Pareto frontier as a chart (x = tokens/s per user, y = tokens/s
// per GPU), a sortable table of configurations with Apply and launch commands. Every figure comes
// from the core; this file only lays it out. Settings ride in the share link ("find", link.js).
import { Dom } from './dom.js';
import { Charts } from './charts.js';
import { Engine } from './engine.js';

const { h, clear, str } = Dom;

const DEFAULTS = { mode: 'frontier', gpus: 0, max_nodes: 0, colocated: true, disaggregated: true, mtp: true, kv_fp8: true };
const TARGETS = [['memory', 'search_t_memory'], ['concurrency', 'search_t_sessions'], ['throughput', 'search_t_throughput'],
  ['tpot', 'search_t_tpot'], ['ttft_p50', 'search_t_ttft50'], ['ttft_p99', 'search_t_ttft99']];
const COLUMNS = [ // key, label, numeric value of a point (null: not sortable)
  ['label', 'search_col_layout', null],
  ['gpus', 'search_col_gpus', (p) => p.gpus],
  ['tpg', 'search_col_tpg', (p) => p.tokens_per_s_per_gpu],
  ['tpu', 'search_col_tpu', (p) => p.tokens_per_s_per_user],
  ['sessions', 'search_col_sessions', (p) => p.sessions],
  ['ttft', 'search_col_ttft', (p) => (p.ttft_known ? p.ttft_p50_ms : null)],
  ['meets', 'search_col_meets', (p) => metCount(p)],
];

let ctx = null;           // from app.js: {t, lang, scenarioJson, call, apply, settingsChanged, toast}
const st = {
  settings: null,         // the settings of the last run (null: never run; not in the link)
  form: Object.assign({}, DEFAULTS),
  running: null,          // {cancel} of the search in flight
  progress: 0,
  result: null,           // the core's search result (ok = true)
  error: '',
  stale: false,           // the scenario changed since the result
  sort: { key: 'default', dir: -1 },
  launchFor: null,        // the point whose launch commands are shown
  launchEngine: '',
  launch: null,           // the core's launch result for it
  ms: 0,
};
let root = null;
let chart = null;

const t = (k, v) => ctx.t(k, v);
const fin = (x) => typeof x === 'number' && Number.isFinite(x);
function num(x, digits) {
  if (!fin(x)) return '—';
  return x.toLocaleString(ctx.lang() === 'zh' ? 'zh-CN' : 'en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
function metCount(p) {
  const m = p.meets || {};
  return TARGETS.filter(([k]) => m[k]).length;
}

function init(c) { ctx = c; }

// ------------------------------------------------------------------ running
function run() {
  cancel(true);
  st.settings = Object.assign({}, st.form);
  st.error = '';
  st.progress = 0;
  st.launchFor = null;
  st.launch = null;
  const o = st.settings;
  const opts = { mode: o.mode, colocated: o.colocated, disaggregated: o.disaggregated, mtp: o.mtp, kv_fp8: o.kv_fp8, lang: ctx.lang() };
  if (o.mode === 'frontier' && o.gpus > 0) opts.gpus = o.gpus;
  if (o.mode === 'fewest' && o.max_nodes > 0) opts.max_nodes = o.max_nodes;
  const t0 = performance.now();
  const handle = Engine.search(ctx.scenarioJson(), JSON.stringify(opts), (f) => {
    st.progress = f;
    const bar = root && root.querySelector('#search-progress');
    if (bar) { bar.value = f; bar.textContent = Math.round(f * 100) + '%'; }
    const pct = root && root.querySelector('#search-pct');
    if (pct) pct.textContent = t('search_running', { p: Math.round(f * 100) });
  });
  st.running = handle;
  ctx.settingsChanged();
  render();
  handle.promise.then((out) => {
    if (st.running !== handle) return;
    st.running = null;
    st.ms = performance.now() - t0;
    const r = JSON.parse(out);
    if (r && r.ok) { st.result = r; st.stale = false; } else st.error = ((r && r.errors) || []).map((e) => str(e.message)).join(' · ') || t('search_failed');
    render();
    document.dispatchEvent(new CustomEvent('slo:searched', { detail: { ok: !!(r && r.ok), ms: st.ms } }));
  }, (e) => {
    if (st.running !== handle) return;
    st.running = null;
    st.error = String(e && e.message ? e.message : e);
    render();
  });
}

// Cancels a running search (quiet: no re-render, a new one starts).
function cancel(quiet) {
  if (!st.running) return;
  const r = st.running;
  st.running = null;
  r.cancel();
  if (!quiet) render();
}

// Editing the scenario cancels a running search and marks the shown result as stale.
function scenarioChanged() {
  const was = !!st.running;
  cancel(true);
  if (st.result || was) { st.stale = true; render(); }
}

// From a link: the settings, then a run once the scenario is evaluated.
function setSettings(o) {
  st.form = Object.assign({}, DEFAULTS, o);
  st.settings = Object.assign({}, st.form);
}
function settings() { return st.settings; }

// ------------------------------------------------------------------ rendering
function mount(panel) {
  if (!root) root = h('section', { id: 'search-panel', class: 'search-panel', 'aria-labelledby': 'search-title' });
  panel.appendChild(root);
  render();
}

function render() {
  if (!root || !ctx) return;
  if (chart) { chart.destroy(); chart = null; }
  clear(root);
  root.append(h('h2', { id: 'search-title', text: t('search_title') }), h('p', { class: 'muted small', text: t('search_intro') }), form(), status());
  if (st.result && !st.running) {
    const item = chartItem(st.result);
    root.append(summary(st.result), chartFigure(item), table(st.result));
    if (st.launchFor) root.append(launchBox());
    // The scenario itself as a large star (the data table below stays if the chart cannot be drawn).
    chart = Charts.draw(root.querySelector('#search-chart'), item, ctx.lang(), { highlight: t('search_s_current') });
  }
}

function form() {
  const f = st.form;
  const busy = !!st.running;
  const mode = h('select', { id: 'search-mode', disabled: busy, on: { change: (e) => { f.mode = e.target.value; render(); } } },
    h('option', { value: 'frontier', text: t('search_mode_frontier'), selected: f.mode === 'frontier' }),
    h('option', { value: 'fewest', text: t('search_mode_fewest'), selected: f.mode === 'fewest' }));
  const isFrontier = f.mode === 'frontier';
  const key = isFrontier ? 'gpus' : 'max_nodes';
  const nErr = h('p', { class: 'field-error', id: 'search-n-error', hidden: true });
  const n = h('input', { id: 'search-n', type: 'text', inputmode: 'numeric', disabled: busy, value: f[key] > 0 ? String(f[key]) : '',
    placeholder: isFrontier ? t('search_gpus_auto') : t('search_nodes_auto'), 'aria-describedby': 'search-n-error',
    on: { input: (e) => readN(e.target, key, nErr) } });
  const box = (k, label) => h('label', { class: 'check' },
    h('input', { type: 'checkbox', id: 'search-' + k, checked: f[k], disabled: busy, on: { change: (e) => { f[k] = e.target.checked; checkModes(); } } }), ' ' + t(label));
  const go = h('button', { type: 'button', class: 'btn primary', id: 'search-run', disabled: busy, text: t('search_run'), on: { click: () => { if (validForm()) run(); } } });
  const stop = h('button', { type: 'button', class: 'btn', id: 'search-cancel', hidden: !busy, text: t('search_cancel'), on: { click: () => cancel(false) } });
  return h('div', { class: 'search-form' },
    h('div', { class: 'field' }, h('label', { for: 'search-mode', text: t('search_mode') }), mode),
    h('div', { class: 'field' }, h('label', { for: 'search-n', text: isFrontier ? t('search_gpus') : t('search_nodes') }), n, nErr),
    h('fieldset', { class: 'search-space' }, h('legend', { text: t('search_space') }),
      box('colocated', 'search_colocated'), box('disaggregated', 'search_disaggregated'), box('mtp', 'search_mtp'), box('kv_fp8', 'search_kv_fp8')),
    h('p', { class: 'field-error', id: 'search-modes-error', hidden: true, text: t('search_need_mode') }),
    h('div', { class: 'search-buttons' }, go, stop));
}

// The budget field: empty = automatic; otherwise a whole number in the allowed range.
function readN(el, key, errEl) {
  const max = key === 'gpus' ? 4096 : 64;
  const v = el.value.trim();
  const ok = v === '' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= max);
  errEl.hidden = ok;
  errEl.textContent = ok ? '' : t('search_n_invalid', { v: v.slice(0, 20), max });
  if (ok) el.removeAttribute('aria-invalid'); else el.setAttribute('aria-invalid', 'true');
  if (ok) st.form[key] = v === '' ? 0 : Number(v);
  return ok;
}
function checkModes() {
  const e = root.querySelector('#search-modes-error');
  const ok = st.form.colocated || st.form.disaggregated;
  if (e) e.hidden = ok;
  return ok;
}
function validForm() {
  const n = root.querySelector('#search-n');
  const ok1 = readN(n, st.form.mode === 'frontier' ? 'gpus' : 'max_nodes', root.querySelector('#search-n-error'));
  return checkModes() && ok1;
}

function status() {
  const el = h('div', { class: 'search-status', role: 'status', 'aria-live': 'polite' });
  if (st.running) {
    const p = Math.round(st.progress * 100);
    el.append(h('progress', { id: 'search-progress', max: '1', value: String(st.progress), text: p + '%' }),
      h('span', { id: 'search-pct', text: ' ' + t('search_running', { p }) }));
  } else if (st.error) {
    el.append(h('p', { class: 'notice error', id: 'search-error', text: st.error }));
  } else if (st.stale && st.result) {
    el.append(h('p', { class: 'notice warn', id: 'search-stale', text: t('search_stale') }));
  } else if (!st.result) {
    el.append(h('p', { class: 'muted', text: t('search_not_run') }));
  }
  return el;
}

function summary(r) {
  const best = r.top && r.top[0];
  const stats = t('search_stats', { c: num(r.considered, 0), e: num(r.evaluated, 0), p: num(r.pruned, 0), s: num(st.ms / 1000, 1) });
  const lines = [];
  if (r.mode === 'fewest') {
    lines.push(h('p', { class: 'search-answer', text: r.gpus > 0 ? t('search_fewest_found', { n: num(r.gpus, 0) }) : t('search_fewest_none') }));
  } else {
    lines.push(h('p', { class: 'search-answer', text: t('search_frontier_of', { n: num(r.gpus, 0), f: num(r.frontier.length, 0) }) }));
  }
  if (best) {
    lines.push(h('p', null, t('search_best', { g: num(best.tokens_per_s_per_gpu, 1), u: num(best.tokens_per_s_per_user, 1) }), ' ',
      h('span', { class: 'search-label', text: str(best.label) }), ' ',
      h('button', { type: 'button', class: 'btn small primary', id: 'search-apply-best', text: t('search_apply'), on: { click: () => apply(best) } })));
  } else if (r.mode !== 'fewest') {
    lines.push(h('p', { class: 'notice warn', text: t('search_none_meets') }));
  }
  const c = r.current;
  if (c && c.feasible) lines.push(h('p', { class: 'muted small', text: t('search_current', { g: num(c.tokens_per_s_per_gpu, 1), u: num(c.tokens_per_s_per_user, 1) }) }));
  lines.push(h('p', { class: 'muted small', id: 'search-stats', text: stats }));
  return h('div', { class: 'search-summary' }, lines);
}

// The chart as a report chart item (charts.js renders report items): frontier by mode, the
// configurations meeting every target, the scenario itself; the TPOT limit as a vertical line.
function chartItem(r) {
  const pt = (p) => [p.tokens_per_s_per_user, p.tokens_per_s_per_gpu];
  const series = [
    { name: t('search_s_colocated'), points: r.frontier.filter((p) => p.mode === 'colocated').map(pt) },
    { name: t('search_s_disaggregated'), points: r.frontier.filter((p) => p.mode === 'disaggregated').map(pt) },
    { name: t('search_s_meets'), points: (r.top || []).map(pt) },
    { name: t('search_s_current'), points: r.current && r.current.feasible ? [pt(r.current)] : [] },
  ].filter((s) => s.points.length);
  const kind = t('search_kind_' + str(r.throughput_kind));
  const markers = fin(r.tpot_limit_ms) && r.tpot_limit_ms > 0 ? [{ axis: 'x', value: 1000 / r.tpot_limit_ms, label: t('search_tpot_line', { ms: num(r.tpot_limit_ms, 0) }) }] : [];
  return { id: 'search-frontier', title: t('search_chart_title', { n: num(r.gpus, 0) }), chart: 'scatter', series,
    x_label: t('search_x'), x_unit: '', y_label: t('search_y', { k: kind }), y_unit: '', markers };
}

function chartFigure(item) {
  const fig = Charts.render(item, ctx.lang());
  fig.id = 'search-chart';
  fig._sloInit = null; // created by render() (this chart is not one of the report's)
  return fig;
}

// ------------------------------------------------------------------ table
function rows(r) {
  const seen = new Set();
  const out = [];
  for (const p of (r.top || []).concat(r.frontier || [])) {
    const k = JSON.stringify(p.scenario);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(p);
  }
  const col = COLUMNS.find((c) => c[0] === st.sort.key);
  const val = col && col[2];
  const all = (p) => (p.meets && p.meets.all ? 1 : 0);
  out.sort((a, b) => {
    if (!val) return all(b) - all(a) || b.tokens_per_s_per_gpu - a.tokens_per_s_per_gpu;
    const x = val(a), y = val(b);
    if (x === null || y === null) return (x === null) - (y === null);
    return st.sort.dir * (x - y);
  });
  return out;
}

function header(c) {
  const [key, label, val] = c;
  if (!val) return h('th', { scope: 'col', text: t(label) });
  const active = st.sort.key === key;
  const dir = active ? (st.sort.dir > 0 ? 'ascending' : 'descending') : 'none';
  return h('th', { scope: 'col', 'aria-sort': dir },
    h('button', { type: 'button', class: 'sort', 'data-sort': key, text: t(label) + (active ? (st.sort.dir > 0 ? ' ▲' : ' ▼') : ''), on: { click: () => {
      st.sort = active ? { key, dir: -st.sort.dir } : { key, dir: -1 };
      render();
      const b = root.querySelector('button.sort[data-sort="' + key + '"]');
      if (b) b.focus();
    } } }));
}

function meetsText(p) {
  const m = p.meets || {};
  if (m.all) return t('search_meets_all');
  return t('search_misses', { list: TARGETS.filter(([k]) => m[k] === false).map(([, l]) => t(l)).join(', ') });
}

function table(r) {
  const list = rows(r);
  if (!list.length) return h('p', { class: 'muted', text: t('search_no_rows') });
  const oneBudget = list.every((p) => p.gpus === list[0].gpus);  // the caption names it
  const cols = COLUMNS.filter((c) => !(oneBudget && c[0] === 'gpus'));
  const body = list.map((p, i) => h('tr', { class: p.meets && p.meets.all ? 'meets' : '' },
    h('td', { class: 'cfg' }, h('span', { class: 'mode-tag', text: t('search_s_' + p.mode) }), ' ', str(p.label)),
    oneBudget ? null : h('td', { class: 'num', text: num(p.gpus, 0) }),
    h('td', { class: 'num', text: num(p.tokens_per_s_per_gpu, 1) }),
    h('td', { class: 'num', text: num(p.tokens_per_s_per_user, 1) }),
    h('td', { class: 'num', text: num(p.sessions, 0) }),
    h('td', { class: 'num', text: p.ttft_known ? num(p.ttft_p50_ms, 0) + ' / ' + num(p.ttft_p90_ms, 0) : t('search_ttft_unstable') }),
    h('td', { class: p.meets && p.meets.all ? 'pass' : 'fail', text: meetsText(p) }),
    h('td', { class: 'actions' },
      h('button', { type: 'button', class: 'btn small', 'data-apply': String(i), text: t('search_apply'), on: { click: () => apply(p) } }),
      h('button', { type: 'button', class: 'btn small', 'data-launch': String(i), text: t('search_commands'), on: { click: () => showLaunch(p) } }))));
  return h('div', { class: 'table-wrap search-table' }, h('table', { id: 'search-table', class: 'data' },
    h('caption', { text: t('search_table_caption', { n: num(list[0].gpus, 0) }) }),
    h('thead', null, h('tr', null, cols.map(header), h('th', { scope: 'col', text: t('search_col_actions') }))),
    h('tbody', null, body)));
}

function apply(p) {
  ctx.apply(p.scenario);
  ctx.toast(t('search_applied'));
}

// ------------------------------------------------------------------ launch commands
async function showLaunch(p) {
  st.launchFor = p;
  st.launch = null;
  if (!st.launchEngine) st.launchEngine = str(p.scenario && p.scenario.deployment && p.scenario.deployment.engine && p.scenario.deployment.engine.name) || 'sglang';
  if (!['sglang', 'vllm', 'trtllm'].includes(st.launchEngine)) st.launchEngine = 'sglang';
  await loadLaunch();
  const b = root.querySelector('#search-launch');
  if (b) b.scrollIntoView({ block: 'nearest' });
}
async function loadLaunch() {
  const p = st.launchFor;
  let r;
  try { r = JSON.parse(await ctx.call('launch', JSON.stringify(p.scenario), JSON.stringify({ engine: st.launchEngine, lang: ctx.lang() }))); } catch (e) { r = { ok: false, errors: [{ message: String(e && e.message ? e.message : e) }] }; }
  if (st.launchFor !== p) return;
  st.launch = r;
  render();
}

function launchBox() {
  const r = st.launch;
  const eng = h('select', { id: 'search-engine', on: { change: (e) => { st.launchEngine = e.target.value; loadLaunch(); } } },
    [['sglang', 'SGLang'], ['vllm', 'vLLM'], ['trtllm', 'TensorRT-LLM']].map(([v, l]) => h('option', { value: v, text: l, selected: st.launchEngine === v })));
  const body = [];
  if (!r) body.push(h('p', { class: 'muted', text: t('computing') }));
  else if (!r.ok) body.push(h('p', { class: 'notice error', text: (r.errors || []).map((e) => str(e.message)).join(' · ') }));
  else {
    for (const c of r.commands || []) {
      body.push(h('h4', { text: t('search_role', { role: t('search_role_' + str(c.role)), r: num(c.replicas, 0), n: num(c.nodes, 0) }) }));
      if (c.command) body.push(h('pre', { class: 'mono launch-cmd', text: str(c.command) }));
      if (c.yaml) body.push(h('pre', { class: 'mono launch-cmd', text: str(c.yaml) }));
    }
    for (const w of r.cannot || []) body.push(h('p', { class: 'notice warn', text: str(w) }));
  }
  return h('section', { id: 'search-launch', class: 'search-launch', 'aria-labelledby': 'search-launch-title' },
    h('h3', { id: 'search-launch-title', text: t('search_launch_title') }),
    h('p', { class: 'search-label', text: str(st.launchFor.label) }),
    h('div', { class: 'field' }, h('label', { for: 'search-engine', text: t('search_engine') }), eng), body);
}

export const SearchPanel = { init, mount, run, cancel, scenarioChanged, setSettings, settings, isRunning: () => !!st.running, result: () => st.result };
