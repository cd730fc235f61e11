// The report panel: the corrected report, the seed comparison, search and compare tabs, the headline's fix.
import { Charts } from '../charts.js';
import { Report } from '../report.js';
import { SearchPanel } from '../search-panel.js';
import { Compare } from '../compare.js';
import { $, clear, h, state, str, t } from './state.js';
import { E } from './boot.js';
import { syncPinButton } from './shell.js';
import { applyConfiguration, fullUrl, toast } from './links.js';

let renderedOnce = false;

// ---------------------------------------------------------------- report
export function currentReport() {
  if (!state.result) return null;
  const r = state.result.report;
  if (state.view === 'embed' || state.tab === 'corrected') return r;
  if (r && Array.isArray(r.appendices) && r.appendices.length && r.appendices.find((a) => a && a.method === 'seed')) return r.appendices.find((a) => a.method === 'seed');
  if (r && Array.isArray(r.appendices) && r.appendices[0]) return r.appendices[0];
  const key = JSON.stringify(state.result.minimal) + state.lang;
  if (!state.seed || state.seed.key !== key) {
    // No appendix: ask the core for the seed method's report, then show it.
    state.seed = { key, report: null, pending: true };
    seedEval(state.result.scenario, state.lang).then((s) => {
      if (!state.seed || state.seed.key !== key) return;
      state.seed = { key, report: s && s.ok ? s.report : null, markdown: s && s.ok ? s.markdown : '' };
      if (state.tab === 'seed') renderReportArea();
    });
  }
  return state.seed.report;
}

export async function seedEval(scenario, lang) {
  try {
    return JSON.parse(await E.call('evaluate', JSON.stringify(scenario), JSON.stringify({ lang, method: 'seed', formats: ['json', 'markdown'] })));
  } catch (e) {
    return null;
  }
}

export function renderReportArea(override) {
  const panel = $('report-panel');
  if (!panel) return;
  syncPinButton();
  if ((state.tab === 'search' || state.tab === 'compare') && state.view !== 'embed' && !override) {
    Charts.destroyIn(panel);
    clear(panel);
    if (state.tab === 'search') SearchPanel.mount(panel);
    else Compare.mount(panel);
    Charts.initIn(panel);
    return;
  }
  // The embed view of a link carrying A: the comparison, compact (verdicts and what differs).
  if (state.view === 'embed' && !override && Compare.pinned() && currentReport()) {
    Charts.destroyIn(panel);
    clear(panel);
    Compare.mount(panel, { compact: true });
    const of = $('open-full');
    if (of) of.href = fullUrl();
    return;
  }
  const r = override || currentReport();
  const prevH = panel.offsetHeight;
  if (prevH) panel.style.minHeight = prevH + 'px';
  Charts.keepIn(panel);  // charts of the same id are updated in place, not rebuilt
  clear(panel);
  if (state.errors.length && state.result) panel.appendChild(h('p', { class: 'notice warn', id: 'stale-note', text: t('stale') }));
  if (r) {
    panel.appendChild(state.view === 'embed' ? Report.renderCompact(r, state.lang) : Report.render(r, state.lang));
    addApplyRecommended(panel, r);
    if (state.view !== 'embed') panel.appendChild(h('p', { class: 'print-only print-link', text: fullUrl() }));
    const nm = str(state.result && state.result.scenario && state.result.scenario.name);
    document.title = (nm ? nm + ' — ' : '') + t('app_title');
  } else if (!state.result && state.errors.length) {
    panel.appendChild(h('p', { class: 'muted', id: 'no-report', text: t('no_report_errors', { n: state.errors.length }) }));
  } else if (state.tab === 'seed' && state.result) {
    panel.appendChild(h('p', { class: 'muted', text: state.seed && state.seed.pending ? t('computing') : t('seed_unavailable') }));
  }
  panel.classList.toggle('stale', !!(state.errors.length && state.result));
  Charts.initIn(panel, { defer: renderedOnce });
  Charts.releaseKept();
  if (r && !renderedOnce && performance.mark) { renderedOnce = true; performance.mark('slo:report-rendered'); }
  requestAnimationFrame(() => { panel.style.minHeight = ''; });
  const of = $('open-full');
  if (of) of.href = fullUrl();
}

// The headline's fix: the smallest cluster meeting every target (the core's document), one click.
function addApplyRecommended(panel, r) {
  const rec = state.result && state.result.recommended;
  const hl = panel.querySelector('#headline');
  if (!hl || !rec || !rec.scenario || state.view === 'embed' || r !== state.result.report) return;
  hl.append(' ', h('button', { type: 'button', class: 'btn small primary', id: 'btn-apply-recommended', title: str(rec.label),
    text: t('apply_recommended', { n: Number.isFinite(rec.gpus) ? rec.gpus.toLocaleString(state.lang === 'zh' ? 'zh-CN' : 'en-US') : '' }),
    on: { click: () => { applyConfiguration(rec.scenario); toast(t('search_applied')); } } }));
}
