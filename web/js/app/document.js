// Inputs <-> the scenario document: parsing typed text, the fields the user set (sent to the core),
// adopting what the core derived, and replacing the document.
import { SearchPanel } from '../search-panel.js';
import { $, bindings, clone, F, state, tl } from './state.js';
import { fid, labelFor, placeholderFor } from './editor.js';
import { schedule } from './evaluate.js';

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

export function onInput(f, el) {
  const value = parseInput(f, el);
  setDoc(f.path, value);
  if (f.ref) markRefCustom();
  edited(f.type === 'select' || f.type === 'bool' || f.type === 'multi' || f.type === 'gpu');
}

export function markRefCustom() {
  const cur = F.get(state.doc, 'reference.preset');
  if (cur !== 'custom' && cur !== 'none') {
    setDoc('reference.preset', 'custom');
    const sel = $(fid('reference.preset'));
    const b = bindings.find((x) => x.path === 'reference.preset');
    if (sel && b && b.sync) b.sync(b);
  }
}

// The colocated pool spans the cluster again: its GPUs and EP go back to the core's derivation.
export function fitCluster() {
  for (const k of ['gpus', 'ep', 'redundant_experts']) state.explicit.delete('deployment.colocated.' + k);
  edited(true);
}

// Refreshes inputs from the document. The focused input keeps what the user is typing.
export function syncInputs(exceptFocused) {
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
    if (f.labelPcie && b.label) b.label.textContent = tl(labelFor(f));
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
export function setDoc(path, value) {
  F.set(state.doc, path, value);
  state.explicit.add(path);
}

export function leafPaths(obj, prefix, out) {
  for (const k of Object.keys(obj || {})) {
    const p = prefix ? prefix + '.' + k : k;
    const v = obj[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && p !== 'model.config' && p !== 'hardware.custom_gpu') leafPaths(v, p, out);
    else out.add(p);
  }
  return out;
}

export function explicitPaths(from, full) {
  if (!from) return new Set();
  const set = leafPaths(from.version === 1 ? full : from, '', new Set());
  set.delete('version');
  return set;
}

export function sentDoc() {
  const out = { version: 2 };
  const all = state.doc.version === 1 ? leafPaths(state.doc, '', new Set()) : state.explicit;
  for (const p of all) if (p !== 'version') {
    const v = F.get(state.doc, p);
    if (v !== undefined) F.set(out, p, clone(v));
  }
  return out;
}

export function adoptDerived(scenario) {
  if (!scenario) return;
  let changed = false;
  for (const p of leafPaths(scenario, '', new Set())) {
    if (!/^(name$|precision\.|deployment\.|workload\.(input|output)_tokens_max$)/.test(p) || state.explicit.has(p)) continue;
    const v = F.get(scenario, p);
    if (JSON.stringify(v) !== JSON.stringify(F.get(state.doc, p))) { F.set(state.doc, p, clone(v)); changed = true; }
  }
  if (changed) syncInputs(true);
}

export function replaceDoc(doc, from) {
  SearchPanel.scenarioChanged();
  state.doc = doc;
  state.explicit = explicitPaths(from || null, doc);
  state.keepHash = false;
  syncInputs(false);
  const cb = $('config-box');
  if (cb && F.get(doc, 'model.config')) cb.open = true;
  schedule(0);
}

export function edited(immediate) {
  state.keepHash = false;
  SearchPanel.scenarioChanged();
  syncInputs(true);
  schedule(immediate ? 0 : 200);
}
