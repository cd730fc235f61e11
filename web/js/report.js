// Renders a report (schema 1, docs/DESIGN.md) generically: verdicts with margins and bottlenecks
// first, then every section's items, then warnings. Text only via textContent.
import { Dom } from './dom.js';
import { I18n } from './i18n.js';
import { Charts } from './charts.js';

const { h, valueText, str } = Dom;
const STATUSES = ['pass', 'fail', 'warn', 'info'];

function status(s) {
  return STATUSES.includes(s) ? s : 'info';
}

// The held-out error band of a predicted figure (core: Value.band), validated or extrapolated.
function bandEl(val) {
  const b = val && typeof val === 'object' ? val.band : null;
  if (!b || typeof b !== 'object' || !str(b.text)) return null;
  const ok = b.status === 'validated';
  return h('span', { class: 'band ' + (ok ? 'validated' : 'extrapolated'), text: str(b.text), title: str(b.reason) || null });
}

function verdictCard(v, lang) {
  const t = (k) => I18n.t(lang, k);
  const st = status(v.status);
  // A comparison's verdict (the seed appendix) is what that method claims, styled as information.
  const claimed = v.claimed === 'pass' || v.claimed === 'fail' ? v.claimed : null;
  const badge = claimed ? t('claims_' + claimed) : t('status_' + st);
  const value = valueText(v.value), target = valueText(v.target), margin = valueText(v.margin);
  const marginNum = v.margin && typeof v.margin.number === 'number' ? v.margin.number : null;
  return h('div', { class: 'verdict st-' + st, role: 'group', 'aria-label': str(v.label) + ': ' + badge, 'data-verdict-id': str(v.id) },
    h('div', { class: 'v-head' },
      h('span', { class: 'badge st-' + st, text: badge }),
      h('span', { class: 'v-label', text: str(v.label) })),
    value ? h('div', { class: 'v-value', text: value }) : null,
    bandEl(v.value) ? h('div', { class: 'v-band' }, bandEl(v.value)) : null,
    h('div', { class: 'v-meta' },
      target ? h('span', { class: 'v-target' }, h('span', { class: 'k', text: t('target') + ' ' }), target) : null,
      margin ? h('span', { class: 'v-margin' + (marginNum !== null && marginNum < 0 ? ' neg' : '') }, h('span', { class: 'k', text: t('margin') + ' ' }), margin) : null),
    str(v.detail) ? h('p', { class: 'v-detail', text: str(v.detail) }) : null);
}

function rowsTable(rows) {
  return h('div', { class: 'table-wrap' }, h('table', { class: 'rows' }, h('tbody', null, rows.map((r) => {
    const lvl = Math.max(0, Math.min(4, Number.isInteger(r.level) ? r.level : 0));
    const value = valueText(r.value);
    return h('tr', { class: 'lvl-' + lvl + (!value && lvl === 0 ? ' heading' : ''), 'data-row-id': str(r.id) },
      h('th', { scope: 'row', text: str(r.label) }),
      h('td', { class: 'val' }, value, bandEl(r.value) ? [' ', bandEl(r.value)] : null),
      h('td', { class: 'note', text: str(r.note) }));
  }))));
}

function table(tb) {
  const cols = Array.isArray(tb.columns) ? tb.columns : [];
  const rows = Array.isArray(tb.rows) ? tb.rows : [];
  return h('div', { class: 'table-block', 'data-table-id': str(tb.id) },
    h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': str(tb.title) || 'table' },
      h('table', { class: 'data' },
        str(tb.title) ? h('caption', { text: str(tb.title) }) : null,
        h('thead', null, h('tr', null, cols.map((c) => h('th', { scope: 'col', text: str(c) })))),
        h('tbody', null, rows.map((r) => h('tr', null, (Array.isArray(r) ? r : []).map((c, i) => {
          const num = c && typeof c === 'object' && typeof c.number === 'number';
          return h(i === 0 ? 'th' : 'td', { class: num && i > 0 ? 'num' : null, scope: i === 0 ? 'row' : null }, valueText(c), bandEl(c) ? [' ', bandEl(c)] : null);
        })))))),
    str(tb.note) ? h('p', { class: 'note', text: str(tb.note) }) : null);
}

// Items, with consecutive rows grouped into one table and consecutive bullets into one list.
function items(list, lang, opts) {
  const out = [];
  let rows = null, bullets = null;
  const flush = () => {
    if (rows) out.push(rowsTable(rows));
    if (bullets) out.push(h('ul', { class: 'bullets' }, bullets.map((b) => h('li', { text: b }))));
    rows = bullets = null;
  };
  for (const it of Array.isArray(list) ? list : []) {
    if (!it || typeof it !== 'object') continue;
    const kind = it.kind;
    if (kind !== 'row') { if (rows) { out.push(rowsTable(rows)); rows = null; } }
    if (kind !== 'bullet') { if (bullets) { out.push(h('ul', { class: 'bullets' }, bullets.map((b) => h('li', { text: b })))); bullets = null; } }
    if (kind === 'row') (rows = rows || []).push(it);
    else if (kind === 'bullet') (bullets = bullets || []).push(str(it.text));
    else if (kind === 'text') out.push(h('p', { class: 'text', text: str(it.text) }));
    else if (kind === 'table') out.push(table(it));
    else if (kind === 'verdict') out.push(h('div', { class: 'verdicts inline' }, verdictCard(it, lang)));
    else if (kind === 'chart') { if (!opts || opts.charts !== false) out.push(Charts.render(it, lang)); }
  }
  flush();
  return out;
}

function header(r, lang) {
  const t = (k) => I18n.t(lang, k);
  // Failing verdicts first (then warnings), so the first screen of a phone shows what fails.
  const rank = (v) => ({ fail: 0, warn: 1 }[status(v.status)] ?? 2);
  const verdicts = (Array.isArray(r.verdicts) ? r.verdicts : []).map((v, i) => [v, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map((x) => x[0]);
  const bn = (Array.isArray(r.bottlenecks) ? r.bottlenecks : []).map(str).filter(Boolean);
  return [
    str(r.title) ? h('h2', { class: 'report-title', text: str(r.title) }) : null,
    str(r.headline) ? h('p', { class: 'headline', id: 'headline', text: str(r.headline) }) : null,
    str(r.notice) ? h('p', { class: 'notice warn report-notice', role: 'note', text: str(r.notice) }) : null,
    verdicts.length ? h('section', { class: 'verdicts-block', 'aria-label': t('verdicts') },
      h('div', { class: 'verdicts' }, verdicts.map((v) => verdictCard(v, lang)))) : null,
    bn.length ? h('section', { class: 'bottlenecks', 'aria-label': t('bottlenecks') },
      h('h3', { text: t('bottlenecks') }), h('ol', null, bn.map((b) => h('li', { text: b })))) : null,
  ];
}

function warnings(r, lang) {
  const w = (Array.isArray(r.warnings) ? r.warnings : []).map(str).filter(Boolean);
  if (!w.length) return null;
  return h('section', { class: 'warnings', role: 'note', 'aria-label': I18n.t(lang, 'warnings') },
    h('h3', { text: I18n.t(lang, 'warnings') }), h('ul', null, w.map((x) => h('li', { text: x }))));
}

// Contents: buttons (not #anchors: the fragment is the share link) that scroll to a section.
function toc(sections, lang) {
  const named = sections.filter((el) => el.querySelector(':scope > h3'));
  if (named.length < 4) return null;
  return h('nav', { class: 'toc', 'aria-label': I18n.t(lang, 'contents') },
    h('span', { class: 'toc-k', text: I18n.t(lang, 'contents') + ':' }),
    named.map((el) => h('button', { type: 'button', class: 'linklike', text: el.querySelector(':scope > h3').textContent,
      on: { click: () => { el.scrollIntoView({ block: 'start' }); const hd = el.querySelector('h3'); hd.tabIndex = -1; hd.focus({ preventScroll: true }); } } })));
}

// The full report.
function render(r, lang) {
  const sections = Array.isArray(r.sections) ? r.sections : [];
  const body = sections.map((s) => h('section', { class: 'rsec', id: 'sec-' + String(str(s.id)).replace(/[^A-Za-z0-9_-]/g, '_'), 'data-section-id': str(s.id) },
    str(s.title) ? h('h3', { text: str(s.title) }) : null,
    items(s.items, lang)));
  const empty = !sections.length && !(r.verdicts || []).length;
  return h('div', { class: 'report', lang: r.lang === 'zh' ? 'zh-CN' : 'en', 'data-method': str(r.method) },
    header(r, lang),
    warnings(r, lang),
    toc(body, lang),
    body,
    empty ? h('p', { class: 'muted empty-report', text: I18n.t(lang, 'empty_report') }) : null);
}

// The embed view: verdicts, bottlenecks, the first section's top-level rows and the first chart.
// The embed view (a wiki frame): the headline, the verdicts (failing first, without their detail
// lines), the two most binding bottlenecks, the scenario's key rows and the warnings; the charts
// and every other section are one click away ("Open in SLO Estimator").
function renderCompact(r, lang) {
  const sections = Array.isArray(r.sections) ? r.sections : [];
  const keyRows = [];
  const first = sections.find((s) => (s.items || []).some((it) => it && it.kind === 'row' && valueText(it.value)));
  if (first) for (const it of first.items) if (it.kind === 'row' && (it.level || 0) === 0 && valueText(it.value) && keyRows.length < 10) keyRows.push(it);
  const short = Object.assign({}, r, { bottlenecks: (Array.isArray(r.bottlenecks) ? r.bottlenecks : []).slice(0, 2) });
  return h('div', { class: 'report compact', lang: r.lang === 'zh' ? 'zh-CN' : 'en', 'data-method': str(r.method) },
    header(short, lang),
    keyRows.length ? h('section', { class: 'rsec key-rows' }, str(first.title) ? h('h3', { text: str(first.title) }) : null, rowsTable(keyRows)) : null,
    warnings(r, lang),
    !sections.length && !(r.verdicts || []).length ? h('p', { class: 'muted empty-report', text: I18n.t(lang, 'empty_report') }) : null);
}

export const Report = { render, renderCompact, verdictCard };
