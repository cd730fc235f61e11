// The editor's composite widgets: model and GPU presets, config.json (paste, upload, Hugging Face id),
// precision schemes, the reference preset, the pasted benchmark and the scenario document.
import { BenchPaste } from '../bench-paste.js';
import { Hub } from '../hub.js';
import { $, bindings, clear, clone, F, fieldWraps, h, state, str, t, tl } from './state.js';
import { E, validate } from './boot.js';
import { selectTab } from './shell.js';
import { currentGpu, errorEl, fid, gpuOptions, gpuSummary } from './editor.js';
import { edited, markRefCustom, replaceDoc, sentDoc, setDoc } from './document.js';

export function buildWidget(f) {
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
    return BenchPaste.widget({ t, lang: () => state.lang, call: (fn, ...a) => E.call(fn, ...a), scenarioJson: () => JSON.stringify(sentDoc()),
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
    const r = await Hub.fetchConfig(id);
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
