// The page: scenario editor, report panel, share links, embed view, exports. Every number shown
// comes from the core (window.SloCore); the page converts typed text to JSON and renders results.
(function (SLO) {
  'use strict';
  const { h, clear, str } = SLO.dom;
  const F = SLO.fields;
  const I = SLO.i18n;
  const LINK = SLO.link;

  const state = {
    lang: 'en',
    view: 'full',
    tab: 'corrected',
    doc: null,           // the full scenario document being edited
    defaults: null,
    explicit: new Set(), // leaf paths the user set (sent to the core; the rest is derived)
    catalog: null,
    result: null,        // last evaluate() result with ok = true
    minimal: null,
    errors: [],
    seed: null,          // {key, report} cache of the seed method's report
    encoded: '',         // "1.xxxx" of the current minimal scenario
    keepHash: false,     // true after a bad link: keep it in the address bar until the first edit
    linkNotice: null,    // {code, vars, errors}
    open: new Set(),     // open <details> groups
    lastEvalMs: 0,
    evalCount: 0,
  };
  let E = null;          // the core, behind SLO.engine (worker or main thread)
  let coreVersion = '';
  let timer = 0;
  let hashSeq = 0;
  let renderedOnce = false;
  const bindings = [];   // {path, el, kind, field}
  const fieldWraps = new Map(); // path -> wrapper element (errors)
  let readyResolve;
  const ready = new Promise((r) => { readyResolve = r; });

  const t = (k, vars) => I.t(state.lang, k, vars);
  const tl = (o) => I.pick(state.lang, o);
  const clone = (x) => (x === undefined ? undefined : JSON.parse(JSON.stringify(x)));
  const $ = (id) => document.getElementById(id);

  // ---------------------------------------------------------------- boot
  async function boot() {
    const frag = LINK.parseFragment(location.hash);
    const lp = frag.params.get('lang');
    state.lang = I.LANGS.includes(lp) ? lp : I.detectLang();
    state.view = frag.params.get('view') === 'embed' ? 'embed' : 'full';
    applyLangAttr();
    buildShell();
    setStatus('loading');
    try {
      E = await SLO.engine.create();
      coreVersion = str(await E.call('version'));
      state.defaults = JSON.parse(await E.call('defaultScenario'));
      state.catalog = JSON.parse(await E.call('catalog', state.lang));
      SLO.compare.init({ t, lang: () => state.lang, call: (fn, ...a) => E.call(fn, ...a), linkChanged: () => { updateHash(); syncPinButton(); },
        showTab: (id) => selectTab(id), current: () => (state.result && !state.errors.length ? { minimal: state.minimal, report: state.result.report, name: str(state.result.scenario && state.result.scenario.name) } : null) });
      SLO.searchPanel.init({ t, lang: () => state.lang, scenarioJson: () => JSON.stringify(sentDoc()), call: (fn, ...a) => E.call(fn, ...a),
        apply: applyConfiguration, settingsChanged: () => updateHash(), toast });
    } catch (e) {
      setStatus('failed', { msg: e && e.message ? e.message : String(e) });
      readyResolve(false);
      return;
    }
    await loadFromFragment(frag);
    // A pasted share link loads; a fragment without a scenario (an in-page anchor) is not a link.
    window.addEventListener('hashchange', () => {
      const f = LINK.parseFragment(location.hash);
      if (f.tooLong || f.params.has('s')) loadFromFragment(f).catch(() => {});
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
    if (frag.params.has('a') && view !== 'embed' && !state.linkNotice) {
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
    if (find) { SLO.searchPanel.setSettings(find); state.tab = 'search'; relayout = true; }
    state.doc = doc;
    state.explicit = explicitPaths(explicitFrom, doc);
    state.seed = null;
    if (relayout) buildShell();
    buildEditor();
    renderNotice();
    if (pinDoc && await SLO.compare.pinDocument(pinDoc)) { state.tab = 'compare'; buildShell(); buildEditor(); renderNotice(); }
    await evaluateNow();
    if (find && state.result) SLO.searchPanel.run();
  }

  async function validate(doc) {
    try {
      return JSON.parse(await E.call('validate', typeof doc === 'string' ? doc : JSON.stringify(doc), state.lang));
    } catch (e) {
      return { ok: false, errors: [{ path: '(internal)', message: String(e && e.message ? e.message : e) }] };
    }
  }

  async function catalog(lang) {
    return JSON.parse(await E.call('catalog', lang));
  }

  function applyLangAttr() {
    document.documentElement.lang = state.lang === 'zh' ? 'zh-CN' : 'en';
    document.title = t('app_title');
  }

  // ---------------------------------------------------------------- shell
  function buildShell() {
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
          h('button', { type: 'button', class: 'btn small', id: 'btn-pin', on: { click: () => (SLO.compare.pinned() ? SLO.compare.unpin() : SLO.compare.pin()) } }),
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
  function syncPinButton() {
    const b = $('btn-pin'), tab = $('tab-compare');
    const on = !!SLO.compare.pinned();
    if (b) b.textContent = on ? t('unpin') : t('pin_a');
    if (b) b.setAttribute('aria-pressed', on ? 'true' : 'false');
    if (tab) tab.hidden = !on;
  }
  function selectTab(id) {
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

  function setStatus(kind, vars) {
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
  function renderNotice() {
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

  // ---------------------------------------------------------------- editor
  function buildEditor() {
    const ed = $('editor');
    if (!ed) return;
    bindings.length = 0;
    fieldWraps.clear();
    clear(ed);
    ed.appendChild(h('div', { id: 'error-summary', class: 'error-summary', hidden: true, role: 'region', 'aria-label': t('errors_title') }));
    const covered = F.coveredPaths();
    for (const g of F.GROUPS) {
      let fields = g.fields;
      if (g.other) {
        fields = otherLeaves(state.defaults, '', covered).map((p) => ({ path: p, type: 'json', label: { en: p, zh: p } }));
        if (!fields.length) continue;
      }
      const body = h('div', { class: 'group-body' }, fields.map((f) => buildField(f)));
      let el;
      if (g.details) {
        el = h('details', { class: 'group', id: 'grp-' + g.id, 'data-group': g.id, open: state.open.has(g.id) },
          h('summary', null, h('span', { text: tl(g.title) }), h('span', { class: 'grp-errors', hidden: true })), body);
        el.addEventListener('toggle', () => { if (el.open) state.open.add(g.id); else state.open.delete(g.id); });
      } else {
        el = h('fieldset', { class: 'group', id: 'grp-' + g.id, 'data-group': g.id }, h('legend', { text: tl(g.title) }), body);
      }
      ed.appendChild(el);
    }
    syncInputs();
  }

  function otherLeaves(obj, base, covered) {
    const out = [];
    if (!obj || typeof obj !== 'object') return out;
    for (const k of Object.keys(obj)) {
      const p = base ? base + '.' + k : k;
      const v = obj[k];
      if (covered.has(p)) continue;
      if (v && typeof v === 'object' && !Array.isArray(v) && ![...covered].some((c) => c.startsWith(p + '.'))) out.push(p);
      else if (v && typeof v === 'object' && !Array.isArray(v)) out.push(...otherLeaves(v, p, covered));
      else out.push(p);
    }
    return out;
  }

  const fid = (path) => 'f-' + path.replace(/[^A-Za-z0-9_]/g, '-');

  function buildField(f) {
    if (f.pool) {
      const wrap = h('fieldset', { class: 'subgroup pool', 'data-when': '1' },
        h('legend', { text: tl(F.POOL_TITLES[f.pool]) }),
        f.fields.map(buildField),
        f.pool === 'colocated' && !f.prefix ? h('button', { type: 'button', class: 'btn small', id: 'btn-fit-cluster', text: t('fit_cluster'), on: { click: fitCluster } }) : null);
      wrap._when = f.when;
      return wrap;
    }
    if (f.group) {
      const wrap = h(f.title ? 'fieldset' : 'div', { class: 'subgroup', 'data-when': f.when ? '1' : null, 'data-path': f.path || null },
        f.title ? h('legend', { text: tl(f.title) }) : null, f.path ? h('p', { class: 'field-error wide', id: 'e-' + fid(f.path), hidden: true }) : null, f.fields.map(buildField));
      if (f.path) fieldWraps.set(f.path, wrap);
      wrap._when = f.when;
      if (f.group === 'custom_gpu') wrap.id = 'custom-gpu';
      return wrap;
    }
    if (f.widget) return buildWidget(f);
    const id = fid(f.path);
    const label = h('label', { for: id, text: tl(f.label) });
    let input;
    if (f.type === 'select' || f.type === 'gpu') {
      const opts = f.type === 'gpu' ? gpuOptions(false) : f.options.map((o) => ({ value: String(o), label: f.optionLabels && f.optionLabels[o] ? tl(f.optionLabels[o]) : String(o) }));
      input = h('select', { id, name: f.path }, opts.map((o) => h('option', { value: o.value, text: o.label })));
      input.addEventListener('change', () => onInput(f, input));
    } else if (f.type === 'bool') {
      input = h('input', { id, name: f.path, type: 'checkbox' });
      input.addEventListener('change', () => onInput(f, input));
      const wrapB = h('div', { class: 'field check wide', 'data-path': f.path }, input, label, errorEl(f.path));
      wrapB._when = f.when;
      fieldWraps.set(f.path, wrapB);
      bindings.push({ path: f.path, el: input, field: f });
      return wrapB;
    } else if (f.type === 'multi') {
      const boxes = f.options.map((o) => {
        const cid = id + '-' + o;
        const cb = h('input', { type: 'checkbox', id: cid, value: o, name: f.path });
        cb.addEventListener('change', () => onInput(f, boxesWrap));
        return h('span', { class: 'chk' }, cb, h('label', { for: cid, text: f.optionLabels ? tl(f.optionLabels[o]) : o }));
      });
      const boxesWrap = h('div', { class: 'checks', role: 'group', 'aria-labelledby': id + '-label', id });
      boxes.forEach((b) => boxesWrap.appendChild(b));
      const wrapM = h('div', { class: 'field wide', 'data-path': f.path }, h('span', { class: 'lbl', id: id + '-label', text: tl(f.label) }), boxesWrap, errorEl(f.path));
      wrapM._when = f.when;
      fieldWraps.set(f.path, wrapM);
      bindings.push({ path: f.path, el: boxesWrap, field: f });
      return wrapM;
    } else if (f.type === 'json') {
      input = h('input', { id, name: f.path, type: 'text', spellcheck: 'false', autocomplete: 'off', class: 'mono', placeholder: t('json_empty') });
      input.addEventListener('input', () => onInput(f, input));
    } else {
      const numeric = f.type === 'int' || f.type === 'number';
      input = h('input', {
        id, name: f.path, type: 'text', autocomplete: 'off', spellcheck: 'false',
        inputmode: numeric ? (f.type === 'int' ? 'numeric' : 'decimal') : null,
        maxlength: null, placeholder: placeholderFor(f),
      });
      input.addEventListener('input', () => onInput(f, input));
    }
    const unit = f.unit ? h('span', { class: 'unit', id: id + '-unit', text: tl(f.unit) }) : null;
    if (unit) input.setAttribute('aria-describedby', id + '-unit ' + 'e-' + id);
    else input.setAttribute('aria-describedby', 'e-' + id);
    const wide = f.wide || f.type === 'text' || f.type === 'json' || f.type === 'gpu' || (f.type === 'select' && f.optionLabels && f.path.endsWith('mode'));
    const wrap = h('div', { class: 'field' + (wide ? ' wide' : ''), 'data-path': f.path }, label, h('div', { class: 'control' }, input, unit), errorEl(f.path));
    wrap._when = f.when;
    fieldWraps.set(f.path, wrap);
    bindings.push({ path: f.path, el: input, field: f });
    return wrap;
  }

  function placeholderFor(f) {
    if (!f.nullable) return null;
    if (f.gpuDefault) {
      const g = currentGpu();
      const v = g && typeof g[f.gpuDefault] === 'number' && Number.isFinite(g[f.gpuDefault]) ? g[f.gpuDefault] : null;
      return v !== null ? t('default_value', { v: String(v) }) : t('auto');
    }
    return f.nullText === 'none' ? t('none') : t('auto');
  }

  function errorEl(path) {
    return h('p', { class: 'field-error', id: 'e-' + fid(path), hidden: true });
  }

  function gpuOptions(withCustom) {
    const gs = (state.catalog && state.catalog.gpus) || [];
    const out = gs.map((g) => ({ value: str(g.id), label: str(g.name) || str(g.id) }));
    if (withCustom) out.push({ value: 'custom', label: t('custom_gpu') });
    return out;
  }

  function currentGpu() {
    const id = F.get(state.doc, 'hardware.gpu');
    return ((state.catalog && state.catalog.gpus) || []).find((g) => g.id === id) || null;
  }

  function gpuSummary(g) {
    if (!g) return '';
    const parts = [];
    const add = (v, u, pre) => { if (typeof v === 'number' && Number.isFinite(v) && v > 0) parts.push((pre ? pre + ' ' : '') + v + ' ' + u); };
    add(g.memory_gb, 'GB');
    add(g.hbm_tb_s, 'TB/s HBM');
    add(g.bf16_tflops, 'TFLOPS', 'BF16');
    add(g.fp8_tflops, 'TFLOPS', 'FP8');
    add(g.int8_tops, 'TOPS', 'INT8');
    add(g.fp4_tflops, 'TFLOPS', 'FP4');
    add(g.nvlink_gb_s, 'GB/s', 'NVLink');
    add(g.nic_gb_s, 'GB/s', 'NIC');
    return parts.join(' · ');
  }

  function buildWidget(f) {
    const w = f.widget;
    if (w === 'scenario-preset') {
      const presets = (state.catalog && state.catalog.scenario_presets && state.catalog.scenario_presets.presets) || [];
      const sel = h('select', { id: 'f-scenario-preset' }, h('option', { value: '', text: t('choose') }),
        presets.map((p) => h('option', { value: str(p.id), text: tl(p.name) || str(p.id) })));
      sel.addEventListener('change', async () => {
        const p = presets.find((x) => x.id === sel.value);
        if (!p) return;
        const v = await validate(p.scenario || { version: 1 });
        if (v && v.ok) replaceDoc(v.scenario, Object.assign({}, p.scenario, { version: 2 }));
      });
      return h('div', { class: 'field wide' }, h('label', { for: 'f-scenario-preset', text: t('scenario_preset') }),
        h('div', { class: 'control' }, sel, h('button', { type: 'button', class: 'btn small', id: 'btn-reset', text: t('reset'), on: { click: () => replaceDoc(clone(state.defaults)) } })));
    }
    if (w === 'model-preset') {
      const models = (state.catalog && state.catalog.models) || [];
      const sel = h('select', { id: fid(f.path), name: f.path },
        models.map((m) => h('option', { value: str(m.id), text: str(m.name) || str(m.id) })),
        h('option', { value: '__config__', text: t('custom_model') }));
      sel.addEventListener('change', () => {
        if (sel.value === '__config__') {
          const ta = $('config-paste');
          if (ta) ta.focus();
          return;
        }
        setDoc('model.preset', sel.value);
        setDoc('model.config', null);
        edited();
      });
      const note = h('p', { class: 'muted small', id: 'model-note' });
      const wrap = h('div', { class: 'field wide', 'data-path': f.path }, h('label', { for: fid(f.path), text: tl(f.label) }), h('div', { class: 'control' }, sel), note, errorEl(f.path));
      fieldWraps.set(f.path, wrap);
      bindings.push({ path: f.path, el: sel, field: { type: 'model-preset' }, sync: syncModelPreset });
      return wrap;
    }
    if (w === 'model-config') {
      const status = h('p', { id: 'config-status', class: 'config-status', hidden: true });
      const clearBtn = h('button', { type: 'button', class: 'btn small', id: 'btn-config-clear', text: t('config_clear'), hidden: true,
        on: { click: () => { setDoc('model.config', null); edited(); } } });
      const local = h('p', { class: 'field-error', id: 'config-local-error', hidden: true, role: 'alert' });
      const ta = h('textarea', { id: 'config-paste', rows: '4', spellcheck: 'false', class: 'mono', placeholder: '{ "architectures": [...], "hidden_size": ... }' });
      const apply = h('button', { type: 'button', class: 'btn small', id: 'btn-config-apply', text: t('config_apply'), on: { click: () => applyConfigText(ta.value) } });
      const file = h('input', { type: 'file', id: 'config-file', accept: '.json,application/json' });
      file.addEventListener('change', async () => {
        const fl = file.files && file.files[0];
        if (!fl) return;
        if (fl.size > 1048576) { showLocal(local, t('config_too_big', { max: 1048576 })); return; }
        applyConfigText(await fl.text());
        file.value = '';
      });
      const wrap = h('details', { class: 'field config wide', 'data-path': f.path, id: 'config-box', open: F.get(state.doc, 'model.config') ? true : null },
        h('summary', { text: tl(f.label) }),
        status, clearBtn, hubRow(local),
        h('label', { for: 'config-paste', text: t('config_paste') }), ta, apply,
        h('div', { class: 'upload' }, h('label', { for: 'config-file', text: t('config_upload') }), file),
        local, errorEl(f.path));
      fieldWraps.set(f.path, wrap);
      bindings.push({ path: f.path, el: wrap, field: { type: 'config' }, sync: syncConfig });
      return wrap;
    }
    if (w === 'gpu-preset') {
      const sel = h('select', { id: fid(f.path), name: f.path }, gpuOptions(true).map((o) => h('option', { value: o.value, text: o.label })));
      sel.addEventListener('change', () => {
        const prev = currentGpu();
        setDoc('hardware.gpu', sel.value);
        if (sel.value === 'custom') {
          if (!F.get(state.doc, 'hardware.custom_gpu')) {
            const b = prev || {};
            const pick = (k, d) => (typeof b[k] === 'number' && Number.isFinite(b[k]) ? b[k] : d);
            setDoc('hardware.custom_gpu', {
              name: 'Custom GPU', memory_gb: pick('memory_gb', 80), hbm_tb_s: pick('hbm_tb_s', 3.35), bf16_tflops: pick('bf16_tflops', 989),
              fp8_tflops: pick('fp8_tflops', 0), int8_tops: pick('int8_tops', 0), fp4_tflops: pick('fp4_tflops', 0),
              nvlink_gb_s: pick('nvlink_gb_s', 450), nic_gb_s: pick('nic_gb_s', 50), nvlink_domain: pick('nvlink_domain', 8),
            });
          }
        } else {
          setDoc('hardware.custom_gpu', null);
        }
        edited(true);
      });
      const sum = h('p', { class: 'muted small', id: 'gpu-summary' });
      const wrap = h('div', { class: 'field wide', 'data-path': f.path }, h('label', { for: fid(f.path), text: tl(f.label) }), h('div', { class: 'control' }, sel), sum, errorEl(f.path));
      fieldWraps.set(f.path, wrap);
      bindings.push({ path: f.path, el: sel, field: { type: 'gpu-preset' }, sync: () => { sel.value = str(F.get(state.doc, 'hardware.gpu')); sum.textContent = gpuSummary(currentGpu()); } });
      return wrap;
    }
    if (w === 'cluster-size') {
      return null;
    }
    if (w === 'scheme') {
      const schemes = Array.isArray(state.catalog && state.catalog.precision_schemes) && state.catalog.precision_schemes.length ? state.catalog.precision_schemes : F.SCHEMES;
      const id = 'f-' + (f.prefix ? 'reference-' : '') + 'scheme';
      const sel = h('select', { id }, schemes.map((s) => h('option', { value: str(s.id), text: tl(s.name) || str(s.id) })), h('option', { value: '', text: t('scheme_custom') }));
      sel.addEventListener('change', () => {
        const s = schemes.find((x) => x.id === sel.value);
        if (!s || !s.precision) return;
        for (const k of ['weights', 'activations', 'kv_cache']) if (typeof s.precision[k] === 'string') setDoc(f.prefix + 'precision.' + k, s.precision[k]);
        if (f.prefix) markRefCustom();
        edited(true);
      });
      bindings.push({ path: f.prefix + 'precision', el: sel, field: { type: 'scheme' }, sync: () => {
        const p = F.get(state.doc, f.prefix + 'precision') || {};
        const m = schemes.find((s) => s.precision && ['weights', 'activations', 'kv_cache'].every((k) => s.precision[k] === p[k]));
        sel.value = m ? m.id : '';
      } });
      return h('div', { class: 'field wide' }, h('label', { for: id, text: t('precision_scheme') }), h('div', { class: 'control' }, sel));
    }
    if (w === 'bench-paste') {
      return SLO.benchPaste.widget({ t, lang: () => state.lang, call: (fn, ...a) => E.call(fn, ...a), scenarioJson: () => JSON.stringify(sentDoc()),
        setReference: (ref) => { setDoc('reference', ref); edited(true); },
        calibrate: () => { setDoc('reference.calibrate', true); edited(true); }, showReport: () => selectTab('corrected') });
    }
    if (w === 'reference-preset') {
      const sel = h('select', { id: fid(f.path), name: f.path });
      const rebuild = () => {
        clear(sel);
        const cur = str(F.get(state.doc, 'reference.preset'));
        const opts = [];
        const refs = Array.isArray(state.catalog && state.catalog.references) ? state.catalog.references : [];
        for (const r of refs) opts.push({ value: str(r.id), label: tl(r.name) || str(r.id) });
        const d = state.defaults && state.defaults.reference;
        if (d && d.preset && !opts.some((o) => o.value === d.preset)) opts.push({ value: d.preset, label: str(d.name) || d.preset });
        if (cur && cur !== 'custom' && cur !== 'none' && !opts.some((o) => o.value === cur)) opts.push({ value: cur, label: str(F.get(state.doc, 'reference.name')) || cur });
        opts.push({ value: 'custom', label: t('custom') });
        opts.push({ value: 'none', label: t('none') });
        for (const o of opts) sel.appendChild(h('option', { value: o.value, text: o.label }));
        sel.value = cur;
      };
      sel.addEventListener('change', () => {
        const v = sel.value;
        const refs = Array.isArray(state.catalog && state.catalog.references) ? state.catalog.references : [];
        const r = refs.find((x) => x.id === v);
        if (r && r.reference && typeof r.reference === 'object') setDoc('reference', Object.assign(clone(state.defaults.reference), clone(r.reference), { preset: v }));
        else if (state.defaults.reference && v === state.defaults.reference.preset) setDoc('reference', clone(state.defaults.reference));
        else setDoc('reference.preset', v);
        edited(true);
      });
      const wrap = h('div', { class: 'field wide', 'data-path': f.path }, h('label', { for: fid(f.path), text: tl(f.label) }), h('div', { class: 'control' }, sel), errorEl(f.path));
      fieldWraps.set(f.path, wrap);
      bindings.push({ path: f.path, el: sel, field: { type: 'reference-preset' }, sync: rebuild });
      return wrap;
    }
    if (w === 'document') {
      const ta = h('textarea', { id: 'doc-json', rows: '8', spellcheck: 'false', class: 'mono', 'aria-describedby': 'doc-note' });
      const local = h('div', { class: 'field-error', id: 'doc-error', hidden: true, role: 'alert' });
      const apply = h('button', { type: 'button', class: 'btn small', id: 'btn-doc-apply', text: t('scenario_json_apply'), on: { click: async () => {
        let d;
        try { d = JSON.parse(ta.value); } catch (e) { showLocal(local, t('config_bad_json', { msg: e.message })); return; }
        const v = await validate(d);
        if (v && v.ok) { local.hidden = true; replaceDoc(v.scenario, JSON.parse(ta.value)); }
        else {
          clear(local);
          local.appendChild(h('ul', null, ((v && v.errors) || []).map((e) => h('li', { text: str(e.message) }))));
          local.hidden = false;
        }
      } } });
      bindings.push({ path: '(document)', el: ta, field: { type: 'document' }, sync: () => { if (document.activeElement !== ta && state.minimal) ta.value = JSON.stringify(state.minimal, null, 2); } });
      return h('div', { class: 'field wide' }, h('label', { for: 'doc-json', text: t('scenario_json') }), ta, h('p', { id: 'doc-note', class: 'muted small', text: t('scenario_json_note') }), apply, local);
    }
    return null;
  }

  // "Qwen/Qwen2.5-7B-Instruct" -> its config.json from the Hub (hub.js), applied like a pasted one.
  function hubRow(local) {
    const input = h('input', { type: 'text', id: 'hf-id', props: { maxLength: 96 }, spellcheck: 'false', autocomplete: 'off', placeholder: 'Qwen/Qwen2.5-7B-Instruct' });
    const go = async () => {
      const id = input.value.trim();
      showLocal(local, '');
      const st = $('config-status');
      if (st) { st.textContent = t('hf_fetching', { id }); st.hidden = false; }
      const r = await SLO.hub.fetchConfig(id);
      if (!r.ok) {
        if (st) st.hidden = true;
        showLocal(local, t('hf_' + r.reason, { id, status: r.status || '' }));
        return;
      }
      if (typeof r.config._name_or_path !== 'string') r.config._name_or_path = id;  // names the model after its repo
      applyConfigText(JSON.stringify(r.config));
    };
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); go(); } });
    return h('div', { class: 'hub' }, h('label', { for: 'hf-id', text: t('hf_id') }),
      h('div', { class: 'hub-row' }, input, h('button', { type: 'button', class: 'btn small', id: 'btn-hf-fetch', text: t('hf_fetch'), on: { click: go } })));
  }

  function showLocal(el, msg) {
    clear(el);
    el.textContent = msg;
    el.hidden = !msg;
  }

  function applyConfigText(text) {
    const local = $('config-local-error');
    let obj;
    try { obj = JSON.parse(text); } catch (e) { showLocal(local, t('config_bad_json', { msg: e.message })); return; }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) { showLocal(local, t('config_not_object')); return; }
    showLocal(local, '');
    setDoc('model.config', obj);
    const ta = $('config-paste');
    if (ta) ta.value = '';
    edited(true);
  }

  function syncModelPreset(b) {
    const cfg = F.get(state.doc, 'model.config');
    b.el.value = cfg ? '__config__' : str(F.get(state.doc, 'model.preset'));
    const m = ((state.catalog && state.catalog.models) || []).find((x) => x.id === F.get(state.doc, 'model.preset'));
    const note = $('model-note');
    if (note) note.textContent = !cfg && m ? str(m.note) : '';
  }

  function syncConfig(b) {
    const cfg = F.get(state.doc, 'model.config');
    const st = $('config-status'), clr = $('btn-config-clear');
    if (cfg && typeof cfg === 'object') {
      st.textContent = t('config_active', { n: Object.keys(cfg).length });
      st.hidden = false;
      clr.hidden = false;
    } else {
      st.hidden = true;
      clr.hidden = true;
    }
  }

  // ---------------------------------------------------------------- input <-> document
  function parseInput(f, el) {
    if (f.type === 'bool') return el.checked;
    if (f.type === 'multi') {
      const out = [];
      for (const cb of el.querySelectorAll('input[type=checkbox]')) if (cb.checked) out.push(cb.value);
      return out;
    }
    if (f.type === 'select' || f.type === 'gpu') return f.number ? Number(el.value) : el.value;
    const raw = el.value;
    if (f.type === 'json') {
      if (raw.trim() === '') return null;
      try { return JSON.parse(raw); } catch (e) { return raw; }
    }
    if (f.type === 'text') {
      if (raw === '' && f.nullable) return null;
      return raw;
    }
    const s = raw.trim().replace(/[,_\s]/g, '');
    if (s === '') return f.nullable ? null : '';
    const n = Number(s);
    return Number.isFinite(n) && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s) ? n : raw;
  }

  function formatValue(f, v) {
    if (v === null || v === undefined) return '';
    if (f.type === 'json') return JSON.stringify(v);
    if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
    return String(v);
  }

  function onInput(f, el) {
    const value = parseInput(f, el);
    setDoc(f.path, value);
    if (f.ref) markRefCustom();
    edited(f.type === 'select' || f.type === 'bool' || f.type === 'multi' || f.type === 'gpu');
  }

  function markRefCustom() {
    const cur = F.get(state.doc, 'reference.preset');
    if (cur !== 'custom' && cur !== 'none') {
      setDoc('reference.preset', 'custom');
      const sel = $(fid('reference.preset'));
      const b = bindings.find((x) => x.path === 'reference.preset');
      if (sel && b && b.sync) b.sync(b);
    }
  }

  // The colocated pool spans the cluster again: its GPUs and EP go back to the core's derivation.
  function fitCluster() {
    for (const k of ['gpus', 'ep', 'redundant_experts']) state.explicit.delete('deployment.colocated.' + k);
    edited(true);
  }

  // Refreshes inputs from the document. The focused input keeps what the user is typing.
  function syncInputs(exceptFocused) {
    for (const b of bindings) {
      if (b.sync) { b.sync(b); continue; }
      const f = b.field;
      const v = F.get(state.doc, b.path);
      if (f.type === 'bool') b.el.checked = v === true;
      else if (f.type === 'multi') {
        const arr = Array.isArray(v) ? v : [];
        for (const cb of b.el.querySelectorAll('input[type=checkbox]')) cb.checked = arr.includes(cb.value);
      } else if (f.type === 'select' || f.type === 'gpu') b.el.value = v === null || v === undefined ? '' : String(v);
      else if (document.activeElement !== b.el || !exceptFocused) {
        if (document.activeElement === b.el && JSON.stringify(parseInput(f, b.el)) === JSON.stringify(v)) continue;
        b.el.value = formatValue(f, v);
      }
      if (f.gpuDefault) b.el.placeholder = placeholderFor(f) || '';
    }
    applyWhen();
  }

  function applyWhen() {
    const ed = $('editor');
    if (!ed) return;
    for (const el of ed.querySelectorAll('[data-when], .field')) if (typeof el._when === 'function') el.hidden = !el._when(state.doc);
  }

  // Scenario version 2: the page sends only the fields the user (or the opened link, preset or
  // document) set; the core derives the rest (pools follow the cluster, EP the pool, precision the
  // GPU) and the editor shows the derived values. A version 1 document is complete: every field set.
  function setDoc(path, value) {
    F.set(state.doc, path, value);
    state.explicit.add(path);
  }

  function leafPaths(obj, prefix, out) {
    for (const k of Object.keys(obj || {})) {
      const p = prefix ? prefix + '.' + k : k;
      const v = obj[k];
      if (v && typeof v === 'object' && !Array.isArray(v) && p !== 'model.config' && p !== 'hardware.custom_gpu') leafPaths(v, p, out);
      else out.add(p);
    }
    return out;
  }

  function explicitPaths(from, full) {
    if (!from) return new Set();
    const set = leafPaths(from.version === 1 ? full : from, '', new Set());
    set.delete('version');
    return set;
  }

  function sentDoc() {
    const out = { version: 2 };
    const all = state.doc.version === 1 ? leafPaths(state.doc, '', new Set()) : state.explicit;
    for (const p of all) if (p !== 'version') {
      const v = F.get(state.doc, p);
      if (v !== undefined) F.set(out, p, clone(v));
    }
    return out;
  }

  function adoptDerived(scenario) {
    if (!scenario) return;
    let changed = false;
    for (const p of leafPaths(scenario, '', new Set())) {
      if (!/^(name$|precision\.|deployment\.)/.test(p) || state.explicit.has(p)) continue;
      const v = F.get(scenario, p);
      if (JSON.stringify(v) !== JSON.stringify(F.get(state.doc, p))) { F.set(state.doc, p, clone(v)); changed = true; }
    }
    if (changed) syncInputs(true);
  }

  function replaceDoc(doc, from) {
    SLO.searchPanel.scenarioChanged();
    state.doc = doc;
    state.explicit = explicitPaths(from || null, doc);
    state.keepHash = false;
    syncInputs(false);
    const cb = $('config-box');
    if (cb && F.get(doc, 'model.config')) cb.open = true;
    schedule(0);
  }

  function edited(immediate) {
    state.keepHash = false;
    SLO.searchPanel.scenarioChanged();
    syncInputs(true);
    schedule(immediate ? 0 : 200);
  }

  // ---------------------------------------------------------------- evaluation
  function schedule(ms) {
    clearTimeout(timer);
    setStatus('computing');
    timer = setTimeout(evaluateNow, ms);
  }

  // Latest wins: one evaluation at a time; edits made meanwhile trigger one more with the newest
  // document, and the older result is dropped.
  let inFlight = false, again = false;
  async function evaluateNow() {
    clearTimeout(timer);
    if (!E || !state.doc) return;
    if (inFlight) { again = true; return; }
    inFlight = true;
    const panel = $('report-panel');
    if (panel) panel.setAttribute('aria-busy', 'true');
    setStatus('computing');
    const lang = state.lang;
    const t0 = performance.now();
    let res;
    try {
      res = JSON.parse(await E.call('evaluate', JSON.stringify(sentDoc()), JSON.stringify({ lang, method: 'corrected', formats: ['json', 'markdown'] })));
    } catch (e) {
      res = { ok: false, errors: [{ path: '(internal)', value: '', expected: '', message: String(e && e.message ? e.message : e) }] };
    }
    inFlight = false;
    if (again || lang !== state.lang) {
      again = false;
      return evaluateNow();
    }
    state.lastEvalMs = performance.now() - t0;
    state.evalCount++;
    if (panel) panel.removeAttribute('aria-busy');
    if (res && res.ok) {
      state.result = res;
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

  // ---------------------------------------------------------------- report
  function currentReport() {
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

  async function seedEval(scenario, lang) {
    try {
      return JSON.parse(await E.call('evaluate', JSON.stringify(scenario), JSON.stringify({ lang, method: 'seed', formats: ['json', 'markdown'] })));
    } catch (e) {
      return null;
    }
  }

  function renderReportArea(override) {
    const panel = $('report-panel');
    if (!panel) return;
    syncPinButton();
    if ((state.tab === 'search' || state.tab === 'compare') && state.view !== 'embed' && !override) {
      SLO.charts.destroyIn(panel);
      clear(panel);
      if (state.tab === 'search') SLO.searchPanel.mount(panel);
      else SLO.compare.mount(panel);
      return;
    }
    const r = override || currentReport();
    const prevH = panel.offsetHeight;
    if (prevH) panel.style.minHeight = prevH + 'px';
    SLO.charts.destroyIn(panel);
    clear(panel);
    if (state.errors.length && state.result) panel.appendChild(h('p', { class: 'notice warn', id: 'stale-note', text: t('stale') }));
    if (r) {
      panel.appendChild(state.view === 'embed' ? SLO.report.renderCompact(r, state.lang) : SLO.report.render(r, state.lang));
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
    SLO.charts.initIn(panel);
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

  // ---------------------------------------------------------------- links
  function baseUrl() {
    return location.href.split('#')[0];
  }

  function fullUrl(view) {
    return baseUrl() + fragmentFor(state.encoded || '1.', view === 'embed' ? 'embed' : 'full');
  }

  // The share fragment of a scenario encoding: language, view, the search's settings and pinned A.
  function fragmentFor(encoded, view) {
    return LINK.buildFragment(encoded, state.lang, view, SLO.searchPanel.settings(), SLO.compare.encoded());
  }

  // A configuration from the search: its fields become the user's (explicit), the rest stays derived;
  // the report shows it.
  function applyConfiguration(doc) {
    const changed = [...leafPaths(doc, '', new Set())].filter((p) => JSON.stringify(F.get(doc, p)) !== JSON.stringify(F.get(state.doc, p)));
    state.doc = clone(doc);
    for (const p of changed) if (p !== 'version') state.explicit.add(p);
    state.keepHash = false;
    syncInputs(false);
    selectTab('corrected');
    schedule(0);
  }

  async function updateHash() {
    if (!state.minimal) return;
    const seq = ++hashSeq;
    const enc = await LINK.encodeScenario(state.minimal);
    if (seq !== hashSeq) return;
    state.encoded = enc;
    const frag = fragmentFor(enc, state.view);
    if (!state.keepHash && location.hash !== frag) history.replaceState(null, '', frag);
    const pl = document.querySelector('.print-link');
    if (pl) pl.textContent = fullUrl();
    const of = $('open-full');
    if (of) of.href = fullUrl();
  }

  async function copyLink() {
    if (!state.minimal) return;
    const seq = ++hashSeq;
    state.encoded = await LINK.encodeScenario(state.minimal);
    if (seq === hashSeq && !state.keepHash) history.replaceState(null, '', fragmentFor(state.encoded, state.view));
    const url = fullUrl();
    const ok = await SLO.exports.copyText(url);
    const box = $('link-box'), out = $('link-out'), note = $('link-note');
    out.value = url;
    box.hidden = false;
    note.textContent = url.length > 2000 ? t('link_too_long_note', { n: url.length }) : '';
    if (!ok) { out.focus(); out.select(); }
    toast(ok ? t('copied') : t('copy_failed'));
  }

  function toast(msg) {
    const el = $('toast');
    if (!el) return;
    el.textContent = msg;
    el.classList.add('show');
    clearTimeout(el._t);
    el._t = setTimeout(() => el.classList.remove('show'), 2500);
  }

  async function switchLang() {
    state.lang = state.lang === 'zh' ? 'en' : 'zh';
    state.catalog = await catalog(state.lang);
    await SLO.compare.relang();
    applyLangAttr();
    const focusId = document.activeElement && document.activeElement.id;
    buildShell();
    buildEditor();
    renderNotice();
    if (state.result) renderReportArea();
    if (focusId && $(focusId)) $(focusId).focus();
    await evaluateNow();
  }

  // ---------------------------------------------------------------- embed
  function escAttr(s) {
    return String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }

  function embedDialog() {
    const base = h('input', { id: 'embed-base', type: 'url', spellcheck: 'false', 'aria-describedby': 'embed-base-note' });
    const height = h('input', { id: 'embed-height', type: 'text', inputmode: 'numeric', value: '560' });
    const snippet = h('textarea', { id: 'embed-snippet', rows: '4', readonly: true, class: 'mono', spellcheck: 'false' });
    const resize = h('textarea', { id: 'embed-resize', rows: '4', readonly: true, class: 'mono', spellcheck: 'false' });
    const preview = h('a', { id: 'embed-open', href: '#', target: '_blank', rel: 'noopener noreferrer', text: t('embed_preview') + ' ↗' });
    const update = () => {
      const hgt = /^\d{2,5}$/.test(height.value.trim()) ? height.value.trim() : '560';
      const src = base.value.trim().split('#')[0] + LINK.buildFragment(state.encoded || '1.', state.lang, 'embed');
      const name = str(state.result && state.result.scenario && state.result.scenario.name);
      snippet.value = '<iframe src="' + escAttr(src) + '" width="100%" height="' + hgt + '" loading="lazy" title="' +
        escAttr(t('app_title') + (name ? ': ' + name : '')) + '" style="border:0"></iframe>';
      preview.href = src;
    };
    resize.value = '<scr' + "ipt>addEventListener('message',function(e){var d=e.data;if(!d||d.type!=='slo-estimator:height')return;" +
      "document.querySelectorAll('iframe').forEach(function(f){if(f.contentWindow===e.source)f.height=Math.ceil(d.height)})})</scr" + 'ipt>';
    base.addEventListener('input', update);
    height.addEventListener('input', update);
    const dlg = h('dialog', { id: 'embed-dialog', class: 'dialog', 'aria-labelledby': 'embed-title' },
      h('h2', { id: 'embed-title', text: t('embed_title') }),
      h('p', { text: t('embed_intro') }),
      h('div', { class: 'field' }, h('label', { for: 'embed-base', text: t('embed_base') }), base, h('p', { id: 'embed-base-note', class: 'muted small', text: t('embed_base_note') })),
      h('div', { class: 'field' }, h('label', { for: 'embed-height', text: t('embed_height') }), h('div', { class: 'control' }, height, h('span', { class: 'unit', text: 'px' }))),
      h('div', { class: 'field' }, h('label', { for: 'embed-snippet', text: t('embed_snippet') }), snippet),
      h('div', { class: 'row-buttons' },
        h('button', { type: 'button', class: 'btn primary', id: 'embed-copy', text: t('embed_copy'), on: { click: async () => { toast((await SLO.exports.copyText(snippet.value)) ? t('embed_copied') : t('copy_failed')); } } }),
        preview),
      h('details', null, h('summary', { text: t('embed_resize') }), h('label', { for: 'embed-resize', class: 'sr-only', text: t('embed_resize') }), resize),
      h('div', { class: 'row-buttons end' }, h('button', { type: 'button', class: 'btn', id: 'embed-close', text: t('close'), on: { click: () => dlg.close() } })));
    dlg._update = update;
    return dlg;
  }

  async function openEmbedDialog() {
    if (state.minimal) state.encoded = await LINK.encodeScenario(state.minimal);
    const dlg = $('embed-dialog');
    const base = $('embed-base');
    if (!base.value) base.value = baseUrl();
    dlg._update();
    dlg.showModal();
    $('embed-snippet').focus();
    $('embed-snippet').select();
  }

  let lastHeight = -1;
  let ro = null;
  function startHeightReporting(el) {
    if (window.parent === window || typeof ResizeObserver !== 'function') return;
    if (ro) ro.disconnect();
    ro = new ResizeObserver(() => {
      const hgt = Math.ceil(el.getBoundingClientRect().height);
      if (hgt !== lastHeight) {
        lastHeight = hgt;
        window.parent.postMessage({ type: 'slo-estimator:height', height: hgt }, '*');
      }
    });
    ro.observe(el);
  }

  function showPane(pane) {
    const l = $('layout');
    if (!l) return;
    l.dataset.pane = pane;
    for (const id of ['edit', 'report']) { const b = $('pane-' + id); if (b) b.setAttribute('aria-pressed', String(id === pane)); }
    window.scrollTo(0, 0);
  }

  // The sticky phone bar's summary: "2 of 5 targets met" (or the error count) beside the switch.
  function paneSummary() {
    const el = $('pane-summary');
    if (!el) return;
    const v = (state.result && state.result.report && state.result.report.verdicts) || [];
    const judged = v.filter((x) => x && (x.status === 'pass' || x.status === 'fail'));
    el.textContent = state.errors.length ? t('pane_errors', { n: state.errors.length })
      : judged.length ? t('pane_met', { n: judged.filter((x) => x.status === 'pass').length, m: judged.length }) : '';
  }

  // ---------------------------------------------------------------- exports
  function closeMenu() {
    const m = $('export-menu');
    if (m) m.open = false;
  }

  function exportBase() {
    return SLO.exports.slug(state.result && state.result.scenario && state.result.scenario.name) + (state.tab === 'seed' ? '-seed' : '');
  }

  async function markdownText() {
    if (!state.result) return '';
    if (state.tab !== 'seed') return typeof state.result.markdown === 'string' ? state.result.markdown : '';
    const s = await seedEval(state.result.scenario, state.lang);
    return s && s.ok && typeof s.markdown === 'string' ? s.markdown : '';
  }

  async function exportMarkdown(copy) {
    closeMenu();
    const md = await markdownText();
    if (!md) return;
    const withLink = md.replace(/\s*$/, '\n') + '\n' + fullUrlSync() + '\n';
    if (copy) toast((await SLO.exports.copyText(withLink)) ? t('md_copied') : t('copy_failed'));
    else SLO.exports.download(exportBase() + '.md', withLink, 'text/markdown');
  }

  function fullUrlSync() {
    return fullUrl();
  }

  function exportJson() {
    closeMenu();
    if (!state.result) return;
    const doc = {
      format: 'slo-estimator-export',
      export_version: 1,
      core_version: coreVersion,
      link: fullUrl(),
      scenario: state.result.scenario,
      minimal: state.result.minimal,
      report: state.result.report,
    };
    SLO.exports.download(exportBase() + '.json', JSON.stringify(doc, null, 2) + '\n', 'application/json');
  }

  function exportCsv() {
    closeMenu();
    const r = currentReport();
    if (!r) { toast(t('csv_empty')); return; }
    const labels = {};
    for (const k of ['verdicts', 'figures', 'target', 'status', 'value', 'limit', 'margin', 'section', 'figure', 'note']) labels[k] = t('csv_' + k);
    const csv = SLO.exports.tablesCsv(r, labels);
    if (csv.length <= 1) { toast(t('csv_empty')); return; }
    SLO.exports.download(exportBase() + '-tables.csv', csv, 'text/csv');
  }

  // The Export menu: arrow keys move between its items, Escape closes it and returns to its button.
  function menuKeys(ev) {
    const m = $('export-menu');
    if (!m) return;
    const items = [...m.querySelectorAll('[role=menuitem]')];
    const i = items.indexOf(document.activeElement);
    if (ev.key === 'Escape' && m.open) {
      m.open = false;
      m.querySelector('summary').focus();
      ev.preventDefault();
    } else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      if (!m.open) m.open = true;
      const n = items.length, next = i < 0 ? (ev.key === 'ArrowDown' ? 0 : n - 1) : (i + (ev.key === 'ArrowDown' ? 1 : n - 1)) % n;
      items[next].focus();
      ev.preventDefault();
    } else if ((ev.key === 'Home' || ev.key === 'End') && i >= 0) {
      items[ev.key === 'Home' ? 0 : items.length - 1].focus();
      ev.preventDefault();
    }
  }

  // ---------------------------------------------------------------- public (tests, console)
  window.SloEstimator = {
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
    evalCount: () => state.evalCount,
    markdown: () => markdownText(),
    engine: () => (E ? E.mode : ''),
    csv: () => SLO.exports.tablesCsv(currentReport() || {}),
    // Renders a given report document (schema 1) as if the core had returned it (renderer tests).
    renderReport: (r) => renderReportArea(r),
    search: () => SLO.searchPanel.result(),
    recommended: () => clone(state.result && state.result.recommended),
    pinned: () => clone(SLO.compare.pinned()),
  };

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot);
  else boot();
})(window.SLO = window.SLO || {});
