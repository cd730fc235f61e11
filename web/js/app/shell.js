// The page shell: header, tabs, status line, link notices, and the phone's Edit/Report switch.
import { Compare } from '../compare.js';
import { $, clear, h, state, str, t } from './state.js';
import { coreVersion } from './boot.js';
import { renderReportArea } from './report-area.js';
import { copyLink, switchLang, toast } from './links.js';
import { embedDialog, openEmbedDialog, startHeightReporting } from './embed.js';
import { exportCsv, exportJson, exportMarkdown, menuKeys } from './export-menu.js';

// ---------------------------------------------------------------- shell
export function buildShell() {
  const root = $('app');
  clear(root);
  document.body.classList.toggle('embed', state.view === 'embed');
  if (state.view === 'embed') {
    root.appendChild(h('div', { id: 'embed-root', class: 'embed-root' },
      h('div', { id: 'notice', class: 'notice-area' }),
      h('div', { id: 'status', class: 'status', role: 'status', 'aria-live': 'polite' }),
      h('main', { id: 'report-panel', class: 'report-panel' }),
      h('footer', { class: 'embed-footer' },
        h('a', { id: 'open-full', href: '#', target: '_blank', rel: 'noopener noreferrer', text: t('open_full') + ' ↗' }),
        h('span', { class: 'muted', text: ' · ' + t('embed_footer') }))));
    startHeightReporting($('embed-root'));
    return;
  }
  const header = h('header', { class: 'topbar' },
    h('a', { class: 'skip', href: '#report-panel', text: t('skip_link'), on: { click: (e) => { e.preventDefault(); const p = $('report-panel'); if (p) { p.focus(); p.scrollIntoView(); } } } }),
    h('div', { class: 'brand' }, h('h1', { text: t('app_title') }), h('span', { class: 'tagline', text: t('app_tagline') })),
    h('nav', { class: 'actions', 'aria-label': t('app_title') },
      h('button', { type: 'button', id: 'btn-copy-link', class: 'btn primary', text: t('copy_link'), on: { click: copyLink } }),
      h('button', { type: 'button', id: 'btn-embed', class: 'btn', text: t('embed'), on: { click: openEmbedDialog } }),
      h('details', { class: 'menu', id: 'export-menu', on: { keydown: menuKeys } },
        h('summary', { class: 'btn', text: t('export') }),
        h('div', { class: 'menu-list', role: 'menu' },
          h('button', { type: 'button', role: 'menuitem', id: 'exp-md', text: t('export_md'), on: { click: () => exportMarkdown(false) } }),
          h('button', { type: 'button', role: 'menuitem', id: 'exp-md-copy', text: t('export_md_copy'), on: { click: () => exportMarkdown(true) } }),
          h('button', { type: 'button', role: 'menuitem', id: 'exp-json', text: t('export_json'), on: { click: exportJson } }),
          h('button', { type: 'button', role: 'menuitem', id: 'exp-csv', text: t('export_csv'), on: { click: exportCsv } }))),
      h('button', { type: 'button', id: 'btn-print', class: 'btn', text: t('print'), on: { click: () => window.print() } }),
      h('button', { type: 'button', id: 'btn-lang', class: 'btn', lang: state.lang === 'zh' ? 'en' : 'zh-CN', 'aria-label': t('lang_switch_label'), text: t('lang_switch'), on: { click: switchLang } })));
  const toast = h('div', { id: 'toast', class: 'toast', role: 'status', 'aria-live': 'polite' });
  const linkBox = h('div', { id: 'link-box', class: 'link-box', hidden: true },
    h('label', { for: 'link-out', class: 'sr-only', text: t('copy_link') }),
    h('div', { class: 'control' },
      h('input', { id: 'link-out', type: 'text', readonly: true, spellcheck: 'false' }),
      h('button', { type: 'button', class: 'btn small', id: 'link-close', 'aria-label': t('close'), text: '×', on: { click: () => { $('link-box').hidden = true; } } })),
    h('p', { id: 'link-note', class: 'muted small' }));
  // Phones: one pane at a time (the report first, failing verdicts on top), switched here.
  const paneSwitch = h('div', { class: 'pane-switch', id: 'pane-switch', role: 'group', 'aria-label': t('pane_switch') },
    h('button', { type: 'button', class: 'btn', id: 'pane-edit', 'aria-pressed': 'false', text: t('pane_edit'), on: { click: () => showPane('edit') } }),
    h('button', { type: 'button', class: 'btn', id: 'pane-report', 'aria-pressed': 'true', text: t('pane_report'), on: { click: () => showPane('report') } }),
    h('span', { id: 'pane-summary', class: 'pane-summary' }));
  const layout = h('div', { class: 'layout', id: 'layout', 'data-pane': 'report' },
    paneSwitch,
    h('aside', { id: 'editor', class: 'editor', 'aria-label': t('editor') }),
    h('main', { class: 'main' },
      h('div', { id: 'notice', class: 'notice-area' }),
      h('div', { class: 'report-head' },
        h('div', { class: 'tabs', role: 'tablist', 'aria-label': t('tabs_label') },
          tabButton('corrected', t('tab_corrected')), tabButton('seed', t('tab_seed')), tabButton('search', t('tab_search')), tabButton('compare', t('tab_compare'))),
        h('button', { type: 'button', class: 'btn small', id: 'btn-pin', on: { click: () => (Compare.pinned() ? Compare.unpin() : Compare.pin()) } }),
        h('div', { id: 'status', class: 'status', role: 'status', 'aria-live': 'polite' })),
      h('div', { id: 'report-panel', class: 'report-panel', role: 'tabpanel', tabindex: '-1', 'aria-labelledby': 'tab-' + state.tab })));
  const footer = h('footer', { class: 'footer' }, h('p', { class: 'muted small' }, t('footer'), ' ', h('span', { id: 'core-version' })));
  root.append(header, linkBox, toast, layout, footer, embedDialog());
  startHeightReporting(document.body);
}

function tabButton(id, label) {
  return h('button', {
    type: 'button', role: 'tab', id: 'tab-' + id, class: 'tab', 'aria-selected': state.tab === id ? 'true' : 'false',
    'aria-controls': 'report-panel', tabindex: state.tab === id ? '0' : '-1', text: label,
    on: {
      click: () => selectTab(id),
      keydown: (e) => {
        if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
          e.preventDefault();
          const shown = TABS.filter((k) => $('tab-' + k) && !$('tab-' + k).hidden);
          const i = shown.indexOf(state.tab);
          const next = shown[(i + (e.key === 'ArrowRight' ? 1 : shown.length - 1)) % shown.length];
          selectTab(next);
          $('tab-' + next).focus();
        }
      },
    },
  });
}

const TABS = ['corrected', 'seed', 'search', 'compare'];

// The Pin button and the Compare tab follow whether a scenario is pinned as A.
export function syncPinButton() {
  const b = $('btn-pin'), tab = $('tab-compare');
  const on = !!Compare.pinned();
  if (b) b.textContent = on ? t('unpin') : t('pin_a');
  if (b) b.setAttribute('aria-pressed', on ? 'true' : 'false');
  if (tab) tab.hidden = !on;
}
export function selectTab(id) {
  state.tab = id;
  for (const k of TABS) {
    const b = $('tab-' + k);
    if (!b) continue;
    b.setAttribute('aria-selected', k === id ? 'true' : 'false');
    b.tabIndex = k === id ? 0 : -1;
  }
  const p = $('report-panel');
  if (p) p.setAttribute('aria-labelledby', 'tab-' + id);
  renderReportArea();
}

export function setStatus(kind, vars) {
  const el = $('status');
  if (!el) return;
  el.dataset.state = kind;
  let text = '';
  if (kind === 'loading') text = t('loading');
  else if (kind === 'computing') text = t('computing');
  else if (kind === 'ok') text = t('up_to_date');
  else if (kind === 'errors') text = t('error_count', { n: state.errors.length });
  else if (kind === 'failed') text = t('load_failed', vars);
  el.textContent = text;
  const cv = $('core-version');
  if (cv && coreVersion) cv.textContent = '· ' + t('version', { v: coreVersion });
}

// ---------------------------------------------------------------- notices
export function renderNotice() {
  const area = $('notice');
  if (!area) return;
  clear(area);
  const n = state.linkNotice;
  if (!n) return;
  const msgs = [];
  if (n.code === 'link_err_invalid' || n.code === 'link_err_pinned') {
    msgs.push(h('p', { text: t(n.code) }));
    msgs.push(h('ul', null, (n.errors || []).map((e) => h('li', { text: str(e.message) }))));
  } else {
    msgs.push(h('p', { text: t(n.code, n.vars) }));
  }
  const fallback = n.code === 'link_err_invalid' ? 'link_error_marked' : n.code === 'link_err_find' || n.code === 'link_err_pinned' ? null : 'link_error_fallback';
  area.appendChild(h('div', { class: 'notice error', role: 'alert', id: 'link-error' },
    h('strong', { text: t(n.code === 'link_err_invalid' ? 'link_error_title_invalid' : 'link_error_title') }), msgs, fallback ? h('p', { text: t(fallback) }) : null,
    h('button', { type: 'button', class: 'btn small', text: t('dismiss'), on: { click: () => { state.linkNotice = null; clear(area); } } })));
}

function showPane(pane) {
  const l = $('layout');
  if (!l) return;
  l.dataset.pane = pane;
  for (const id of ['edit', 'report']) { const b = $('pane-' + id); if (b) b.setAttribute('aria-pressed', String(id === pane)); }
  window.scrollTo(0, 0);
}

// The sticky phone bar's summary: "2 of 5 targets met" (or the error count) beside the switch.
export function paneSummary() {
  const el = $('pane-summary');
  if (!el) return;
  const v = (state.result && state.result.report && state.result.report.verdicts) || [];
  const judged = v.filter((x) => x && (x.status === 'pass' || x.status === 'fail'));
  el.textContent = state.errors.length ? t('pane_errors', { n: state.errors.length })
    : judged.length ? t('pane_met', { n: judged.filter((x) => x.status === 'pass').length, m: judged.length }) : '';
}
