// The evaluation loop (latest wins, one evaluation at a time) and field errors (marked, revealed, focused).
import { $, bindings, clear, fieldWraps, h, state, str, t } from './state.js';
import { E } from './boot.js';
import { paneSummary, setStatus } from './shell.js';
import { adoptDerived, sentDoc } from './document.js';
import { renderReportArea } from './report-area.js';
import { updateHash } from './links.js';

let timer = 0;

// ---------------------------------------------------------------- evaluation
export function schedule(ms) {
  clearTimeout(timer);
  setStatus('computing');
  timer = setTimeout(evaluateNow, ms);
}

// Latest wins: one evaluation at a time; edits made meanwhile trigger one more with the newest
// document, and the older result is dropped.
let inFlight = false, again = false;
let prefetched = null;  // {key, promise}: an evaluation sent before the page was ready to show it

// The report as JSON only: its Markdown is formatted when an export asks for it (reportMarkdown). The
// Markdown was half of a cold first evaluation (Node 20, Liftoff only: 38-41 ms without it, 74-88 ms
// with it) and a fifth of an edit's (the page: 12.2 -> 9-11 ms median; issue 11).
function options(formats) {
  return JSON.stringify({ lang: state.lang, method: 'corrected', formats });
}
function request(docJson) {
  return [docJson || JSON.stringify(sentDoc()), options(['json'])];
}

// The corrected report's Markdown for the shown result: the same document evaluated once more with
// the Markdown format, kept with the result.
export async function reportMarkdown() {
  const res = state.result;
  if (!res) return '';
  if (typeof res.markdown !== 'string') {
    let md = '';
    try {
      const r = JSON.parse(await E.call('evaluate', state.resultDoc, options(['markdown'])));
      md = r && r.ok && typeof r.markdown === 'string' ? r.markdown : '';
    } catch (e) { md = ''; }
    if (state.result !== res) return reportMarkdown();
    res.markdown = md;
  }
  return res.markdown;
}

// Sends an evaluation ahead of the page (boot: while the catalog arrives and the editor is built);
// the next evaluateNow() takes its answer if it would send the same request. docJson: the document
// as sentDoc() will send it (default: the current one).
export function prefetchEvaluation(docJson) {
  if (!E || (!docJson && !state.doc)) return;
  const args = request(docJson);
  const key = args.join('\n');
  if (prefetched && prefetched.key === key) return;
  prefetched = { key, promise: E.call('evaluate', ...args) };
  prefetched.promise.catch(() => {});
}

export async function evaluateNow() {
  clearTimeout(timer);
  if (!E || !state.doc) return;
  if (inFlight) { again = true; return; }
  inFlight = true;
  const panel = $('report-panel');
  if (panel) panel.setAttribute('aria-busy', 'true');
  setStatus('computing');
  const lang = state.lang;
  const t0 = performance.now();
  let res, args;
  try {
    args = request();
    const ahead = prefetched && prefetched.key === args.join('\n') ? prefetched.promise : null;
    prefetched = null;
    res = JSON.parse(await (ahead || E.call('evaluate', ...args)));
  } catch (e) {
    res = { ok: false, errors: [{ path: '(internal)', value: '', expected: '', message: String(e && e.message ? e.message : e) }] };
  }
  inFlight = false;
  if (again || lang !== state.lang) {
    again = false;
    return evaluateNow();
  }
  state.lastEvalMs = performance.now() - t0;
  const r0 = performance.now();
  state.evalCount++;
  if (panel) panel.removeAttribute('aria-busy');
  if (res && res.ok) {
    state.result = res;
    state.resultDoc = args[0];
    state.minimal = res.minimal;
    adoptDerived(res.scenario);
    state.errors = [];
    state.seed = null;
    renderReportArea();
    updateHash();
    setStatus('ok');
  } else {
    state.errors = (res && Array.isArray(res.errors)) ? res.errors : [];
    renderReportArea();
    setStatus('errors');
  }
  markErrors();
  paneSummary();
  state.lastRenderMs = performance.now() - r0;
  for (const b of bindings) if (b.field.type === 'document' && b.sync) b.sync(b);
  document.dispatchEvent(new CustomEvent('slo:evaluated', { detail: { ok: !!(res && res.ok) } }));
}

function errorTarget(path) {
  let p = String(path || '');
  while (p) {
    if (fieldWraps.has(p)) return fieldWraps.get(p);
    const q = p.replace(/\[\d+\]$/, '');
    if (q !== p) { p = q; continue; }
    const i = p.lastIndexOf('.');
    if (i < 0) break;
    p = p.slice(0, i);
  }
  return null;
}

function stripPath(msg, path) {
  const m = str(msg);
  for (const sep of [': ', '：']) if (path && m.startsWith(path + sep)) return m.slice(path.length + sep.length);
  return m;
}

function markErrors() {
  const ed = $('editor');
  if (!ed) return;
  for (const w of ed.querySelectorAll('.field.invalid')) w.classList.remove('invalid');
  for (const e of ed.querySelectorAll('.field-error')) if (e.id !== 'config-local-error' && e.id !== 'doc-error') { e.hidden = true; e.textContent = ''; }
  for (const i of ed.querySelectorAll('[aria-invalid]')) i.removeAttribute('aria-invalid');
  for (const s of ed.querySelectorAll('.grp-errors')) { s.hidden = true; s.textContent = ''; }
  const summary = $('error-summary');
  clear(summary);
  summary.hidden = !state.errors.length;
  if (!state.errors.length) return;
  const perGroup = new Map();
  const list = h('ul');
  for (const e of state.errors) {
    const wrap = errorTarget(e.path);
    if (wrap) {
      wrap.classList.add('invalid');
      const el = wrap.querySelector(':scope > .field-error:not(#config-local-error)') || wrap.querySelector('.field-error:not(#config-local-error)');
      if (el) {
        el.textContent = (el.textContent ? el.textContent + ' · ' : '') + stripPath(e.message, e.path);
        el.hidden = false;
      }
      const input = wrap.querySelector('input, select, textarea');
      if (input) input.setAttribute('aria-invalid', 'true');
      const g = wrap.closest('details.group');
      if (g) perGroup.set(g, (perGroup.get(g) || 0) + 1);
    }
    list.appendChild(h('li', null, h('span', { text: str(e.message) }), wrap ? ' ' : null,
      wrap ? h('button', { type: 'button', class: 'linklike', text: t('go_to_field'), on: { click: () => focusField(wrap) } }) : null));
  }
  for (const [g, n] of perGroup) {
    const s = g.querySelector('.grp-errors');
    if (s) { s.textContent = String(n) + ' ⚠'; s.hidden = false; }
  }
  summary.append(h('h2', { text: t('errors_title') }), list);
  revealHiddenError();
}

// An error on a field the user cannot see (inside a folded group) unfolds the group; when the
// user is not typing in a text field, focus moves to it. Once per new set of errors.
function revealHiddenError() {
  const key = JSON.stringify(state.errors.map((e) => e.path));
  if (key === state.revealedErrors) return;
  state.revealedErrors = key;
  for (const e of state.errors) {
    const wrap = errorTarget(e.path);
    if (!wrap) continue;
    let folded = false;
    for (let d = wrap.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) if (!d.open) { d.open = true; folded = true; }
    const a = document.activeElement;
    const typing = a && (a.tagName === 'TEXTAREA' || (a.tagName === 'INPUT' && !/^(checkbox|radio|button)$/.test(a.type)));
    const input = wrap.querySelector('input, select, textarea');
    if (folded && input && !typing) input.focus();
    return;
  }
}

function focusField(wrap) {
  let d = wrap.closest('details');
  while (d) { d.open = true; d = d.parentElement && d.parentElement.closest('details'); }
  const input = wrap.querySelector('input, select, textarea, summary');
  if (input) { input.focus(); input.scrollIntoView({ block: 'center' }); }
}
