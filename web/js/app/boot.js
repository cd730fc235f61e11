// Boot: the core, the catalog and the first scenario (from the link or the defaults); the public
// test/console API (window.SloEstimator).
import { Exports } from '../exports.js';
import { SearchPanel } from '../search-panel.js';
import { Compare } from '../compare.js';
import { Engine } from '../engine.js';
import { clone, F, I, LINK, state, str, t } from './state.js';
import { buildShell, renderNotice, selectTab, setStatus, syncPinButton } from './shell.js';
import { buildEditor } from './editor.js';
import { explicitPaths, leafPaths, sentDoc } from './document.js';
import { evaluateNow, prefetchEvaluation } from './evaluate.js';
import { currentReport, renderReportArea } from './report-area.js';
import { applyConfiguration, dropPendingHash, fullUrl, hashPending, toast, updateHash } from './links.js';
import { markdownText } from './export-menu.js';

export let E = null;          // the core, behind Engine (worker or main thread)
export let coreVersion = '';
let readyResolve;
const ready = new Promise((r) => { readyResolve = r; });

// ---------------------------------------------------------------- boot
export async function boot() {
  const frag = LINK.parseFragment(location.hash);
  const lp = frag.params.get('lang');
  state.lang = I.LANGS.includes(lp) ? lp : I.detectLang();
  state.view = frag.params.get('view') === 'embed' ? 'embed' : 'full';
  applyLangAttr();
  buildShell();
  setStatus('loading');
  try {
    E = await Engine.create();
    // Three requests in flight at once: the worker answers them in turn without a round trip each.
    const first = Promise.all([E.call('version'), E.call('defaultScenario'), E.call('catalog', state.lang)]);
    // Without a scenario in the link the page shows the defaults, which sentDoc() sends as {version: 2}.
    if (!frag.tooLong && !frag.params.has('s')) prefetchEvaluation(JSON.stringify({ version: 2 }));
    const [version, defaults, cat] = await first;
    coreVersion = str(version);
    state.defaults = JSON.parse(defaults);
    state.catalog = JSON.parse(cat);
    Compare.init({ t, lang: () => state.lang, call: (fn, ...a) => E.call(fn, ...a), linkChanged: () => { updateHash(); syncPinButton(); },
      showTab: (id) => selectTab(id), current: () => (state.result && !state.errors.length ? { minimal: state.minimal, report: state.result.report, name: str(state.result.scenario && state.result.scenario.name) } : null) });
    SearchPanel.init({ t, lang: () => state.lang, scenarioJson: () => JSON.stringify(sentDoc()), call: (fn, ...a) => E.call(fn, ...a),
      apply: applyConfiguration, settingsChanged: () => updateHash(), toast });
  } catch (e) {
    setStatus('failed', { msg: e && e.message ? e.message : String(e) });
    readyResolve(false);
    return;
  }
  await loadFromFragment(frag);
  // The search's worker loads while the user reads the report (E.mode: not when workers are refused).
  if (E.mode !== 'main') setTimeout(Engine.prewarmSearch, 0);
  // A pasted share link loads; a fragment without a scenario (an in-page anchor) is not a link.
  window.addEventListener('hashchange', () => {
    const f = LINK.parseFragment(location.hash);
    if (!f.tooLong && !f.params.has('s')) return;
    dropPendingHash();
    loadFromFragment(f).catch(() => {});
  });
  readyResolve(true);
}

async function loadFromFragment(frag) {
  const lp = frag.params.get('lang');
  const view = frag.params.get('view') === 'embed' ? 'embed' : 'full';
  let relayout = false;
  if (I.LANGS.includes(lp) && lp !== state.lang) { state.lang = lp; state.catalog = await catalog(state.lang); applyLangAttr(); relayout = true; }
  if (view !== state.view) { state.view = view; relayout = true; }
  let doc = clone(state.defaults);
  let explicitFrom = null;
  state.linkNotice = null;
  state.keepHash = false;
  if (frag.tooLong) {
    state.linkNotice = { code: 'link_err_too_long', vars: { n: frag.tooLong, max: LINK.MAX_FRAGMENT } };
  } else if (frag.params.has('s')) {
    try {
      const dec = await LINK.decodeScenario(frag.params.get('s'));
      const v = await validate(dec.doc);
      if (v && v.ok) { doc = v.scenario; explicitFrom = dec.doc; }
      else {
        // The sender's scenario opens with its errors marked (issue 12, defect 11), not the default.
        state.linkNotice = { code: 'link_err_invalid', errors: (v && v.errors) || [] };
        for (const p of leafPaths(dec.doc, '', new Set())) if (p !== 'version') F.set(doc, p, clone(F.get(dec.doc, p)));
        explicitFrom = Object.assign({}, dec.doc, { version: 2 });
      }
    } catch (e) {
      state.linkNotice = { code: e && e.code ? e.code : 'link_err_format', vars: e && e.vars };
    }
  }
  let pinDoc = null;
  if (frag.params.has('a') && !state.linkNotice) {
    try {
      const dec = await LINK.decodeScenario(frag.params.get('a'));
      const v = await validate(dec.doc);
      if (v && v.ok) pinDoc = dec.doc;
      else state.linkNotice = { code: 'link_err_pinned', errors: (v && v.errors) || [] };
    } catch (e) {
      state.linkNotice = { code: 'link_err_pinned', errors: [] };
    }
  }
  let find = null;
  if (frag.params.has('find') && view !== 'embed') {
    try { find = LINK.decodeFind(frag.params.get('find')); } catch (e) { if (!state.linkNotice) state.linkNotice = { code: e.code || 'link_err_find', vars: e.vars }; }
  }
  if (state.linkNotice) state.keepHash = true;
  if (find) { SearchPanel.setSettings(find); state.tab = 'search'; relayout = true; }
  state.doc = doc;
  state.explicit = explicitPaths(explicitFrom, doc);
  state.seed = null;
  // The core evaluates while the editor is built (evaluateNow below takes that answer if the
  // request is still the same).
  prefetchEvaluation();
  if (relayout) buildShell();
  buildEditor();
  renderNotice();
  if (pinDoc && await Compare.pinDocument(pinDoc)) { state.tab = 'compare'; buildShell(); buildEditor(); renderNotice(); }
  await evaluateNow();
  if (find && state.result) SearchPanel.run();
}

export async function validate(doc) {
  try {
    return JSON.parse(await E.call('validate', typeof doc === 'string' ? doc : JSON.stringify(doc), state.lang));
  } catch (e) {
    return { ok: false, errors: [{ path: '(internal)', message: String(e && e.message ? e.message : e) }] };
  }
}

export async function catalog(lang) {
  return JSON.parse(await E.call('catalog', lang));
}

export function applyLangAttr() {
  document.documentElement.lang = state.lang === 'zh' ? 'zh-CN' : 'en';
  document.title = t('app_title');
}

// ---------------------------------------------------------------- public (tests, console)
export const publicApi = {
  ready,
  get lang() { return state.lang; },
  get view() { return state.view; },
  scenario: () => clone(state.result && state.result.scenario),
  defaults: () => clone(state.defaults),
  minimal: () => clone(state.minimal),
  report: () => clone(state.result && state.result.report),
  errors: () => clone(state.errors),
  link: () => fullUrl(),
  lastEvalMs: () => state.lastEvalMs,
  lastRenderMs: () => state.lastRenderMs,
  evalCount: () => state.evalCount,
  hashPending: () => hashPending(),
  markdown: () => markdownText(),
  engine: () => (E ? E.mode : ''),
  speculated: () => (E && E.speculated) || 0,  // core answers the worker had computed ahead (js/preload.js)
  csv: () => Exports.tablesCsv(currentReport() || {}),
  // Renders a given report document (schema 1) as if the core had returned it (renderer tests).
  renderReport: (r) => renderReportArea(r),
  search: () => SearchPanel.result(),
  recommended: () => clone(state.result && state.result.recommended),
  pinned: () => clone(Compare.pinned()),
};

