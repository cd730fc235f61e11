// The scenario editor: groups and fields built from fields.js, GPU summaries and error slots.
import { $, bindings, clear, F, fieldWraps, h, state, str, t, tl } from './state.js';
import { buildWidget } from './widgets.js';
import { fitCluster, onInput, syncInputs } from './document.js';

// ---------------------------------------------------------------- editor
export function buildEditor() {
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

export const fid = (path) => 'f-' + path.replace(/[^A-Za-z0-9_]/g, '-');

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
  const label = h('label', { for: id, text: tl(labelFor(f)) });
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
  bindings.push({ path: f.path, el: input, field: f, label });
  return wrap;
}

// A field whose meaning follows the GPU: the peer-link override is PCIe on GPUs without NVLink.
export function labelFor(f) {
  const g = f.labelPcie ? currentGpu() : null;
  return g && g.peer_link === 'pcie' ? f.labelPcie : f.label;
}

export function placeholderFor(f) {
  if (!f.nullable) return null;
  if (f.gpuDefault) {
    const g = currentGpu();
    const v = g && typeof g[f.gpuDefault] === 'number' && Number.isFinite(g[f.gpuDefault]) ? g[f.gpuDefault] : null;
    return v !== null ? t('default_value', { v: String(v) }) : t('auto');
  }
  return f.nullText === 'none' ? t('none') : t('auto');
}

export function errorEl(path) {
  return h('p', { class: 'field-error', id: 'e-' + fid(path), hidden: true });
}

export function gpuOptions(withCustom) {
  const gs = (state.catalog && state.catalog.gpus) || [];
  const out = gs.map((g) => ({ value: str(g.id), label: str(g.name) || str(g.id) }));
  if (withCustom) out.push({ value: 'custom', label: t('custom_gpu') });
  return out;
}

export function currentGpu() {
  const id = F.get(state.doc, 'hardware.gpu');
  return ((state.catalog && state.catalog.gpus) || []).find((g) => g.id === id) || null;
}

export function gpuSummary(g) {
  if (!g) return '';
  const parts = [];
  // Spec figures as published (4.917 TB/s, 1307.4 TFLOPS); a GiB-sized memory shown in GB is rounded (256 GiB = 274.9 GB).
  const num = (v) => String(Number(v.toFixed(v < 10 ? 3 : 1)));
  const add = (v, u, pre) => { if (typeof v === 'number' && Number.isFinite(v) && v > 0) parts.push((pre ? pre + ' ' : '') + num(v) + ' ' + u); };
  add(g.memory_gb, 'GB');
  add(g.hbm_tb_s, 'TB/s ' + (g.memory_kind === 'GDDR6' ? 'GDDR6' : 'HBM'));
  add(g.bf16_tflops, 'TFLOPS', 'BF16');
  add(g.fp8_tflops, 'TFLOPS', 'FP8');
  add(g.int8_tops, 'TOPS', 'INT8');
  add(g.fp4_tflops, 'TFLOPS', 'FP4');
  add(g.nvlink_gb_s, 'GB/s', g.peer_link === 'pcie' ? 'PCIe peers' : 'NVLink');  // GPUs without NVLink talk over PCIe
  add(g.nic_gb_s, 'GB/s', 'NIC');
  return parts.join(' · ');
}
