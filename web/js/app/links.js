// Share links: the fragment of the current scenario, copy, language switch, applying a configuration.
import { Exports } from '../exports.js';
import { SearchPanel } from '../search-panel.js';
import { Compare } from '../compare.js';
import { $, clone, F, LINK, state, t } from './state.js';
import { applyLangAttr, catalog } from './boot.js';
import { buildShell, renderNotice, selectTab } from './shell.js';
import { buildEditor } from './editor.js';
import { leafPaths, syncInputs } from './document.js';
import { evaluateNow, schedule } from './evaluate.js';
import { renderReportArea } from './report-area.js';

let hashSeq = 0;
// The address bar follows the scenario once edits pause: history.replaceState costs 20-40 ms of
// main-thread time per call in Chromium (measured, tests/browser/measure.mjs), so a drag over a
// field writes the URL once, in a task of its own, not once per evaluation. The share link, the
// print link and "open full page" use the encoding at once; leaving the page writes what is pending.
const HASH_DELAY_MS = 300;
let hashTimer = 0;
let pendingFrag = null;

function replaceHashSoon(frag) {
  pendingFrag = frag;
  clearTimeout(hashTimer);
  hashTimer = setTimeout(flushHash, HASH_DELAY_MS);
}

// Writes the pending fragment now (leaving the page, or the delay over); a no-op when none is pending.
function flushHash() {
  const frag = pendingFrag;
  dropPendingHash();
  if (frag !== null && !state.keepHash && location.hash !== frag) history.replaceState(null, '', frag);
}

// True while an address-bar write waits for edits to pause (tests).
export function hashPending() {
  return pendingFrag !== null;
}

// A link opened in the address bar replaces whatever was pending.
export function dropPendingHash() {
  clearTimeout(hashTimer);
  hashTimer = 0;
  pendingFrag = null;
}

window.addEventListener('pagehide', flushHash);

// ---------------------------------------------------------------- links
export function baseUrl() {
  return location.href.split('#')[0];
}

export function fullUrl(view) {
  return baseUrl() + fragmentFor(state.encoded || '1.', view === 'embed' ? 'embed' : 'full');
}

// The share fragment of a scenario encoding: language, view, the search's settings and pinned A.
function fragmentFor(encoded, view) {
  return LINK.buildFragment(encoded, state.lang, view, SearchPanel.settings(), Compare.encoded());
}

// A configuration from the search: its fields become the user's (explicit), the rest stays derived;
// the report shows it.
export function applyConfiguration(doc) {
  const changed = [...leafPaths(doc, '', new Set())].filter((p) => JSON.stringify(F.get(doc, p)) !== JSON.stringify(F.get(state.doc, p)));
  state.doc = clone(doc);
  for (const p of changed) if (p !== 'version') state.explicit.add(p);
  state.keepHash = false;
  syncInputs(false);
  selectTab('corrected');
  schedule(0);
}

export async function updateHash() {
  if (!state.minimal) return;
  const seq = ++hashSeq;
  const enc = await LINK.encodeScenario(state.minimal);
  if (seq !== hashSeq) return;
  state.encoded = enc;
  const frag = fragmentFor(enc, state.view);
  if (!state.keepHash) replaceHashSoon(frag);  // also when equal: it supersedes an older pending write
  const pl = document.querySelector('.print-link');
  if (pl) pl.textContent = fullUrl();
  const of = $('open-full');
  if (of) of.href = fullUrl();
}

export async function copyLink() {
  if (!state.minimal) return;
  const seq = ++hashSeq;
  state.encoded = await LINK.encodeScenario(state.minimal);
  if (seq === hashSeq && !state.keepHash) {
    dropPendingHash();
    history.replaceState(null, '', fragmentFor(state.encoded, state.view));
  }
  const url = fullUrl();
  const ok = await Exports.copyText(url);
  const box = $('link-box'), out = $('link-out'), note = $('link-note');
  out.value = url;
  box.hidden = false;
  note.textContent = url.length > 2000 ? t('link_too_long_note', { n: url.length }) : '';
  if (!ok) { out.focus(); out.select(); }
  toast(ok ? t('copied') : t('copy_failed'));
}

export function toast(msg) {
  const el = $('toast');
  if (!el) return;
  el.textContent = msg;
  el.classList.add('show');
  clearTimeout(el._t);
  el._t = setTimeout(() => el.classList.remove('show'), 2500);
}

export async function switchLang() {
  state.lang = state.lang === 'zh' ? 'en' : 'zh';
  state.catalog = await catalog(state.lang);
  await Compare.relang();
  applyLangAttr();
  const focusId = document.activeElement && document.activeElement.id;
  buildShell();
  buildEditor();
  renderNotice();
  if (state.result) renderReportArea();
  if (focusId && $(focusId)) $(focusId).focus();
  await evaluateNow();
}
