// The embed dialog (iframe snippet) and the embed view's height reports to its host page.
import { Exports } from '../exports.js';
import { $, h, LINK, state, str, t } from './state.js';
import { baseUrl, toast } from './links.js';

// ---------------------------------------------------------------- embed
function escAttr(s) {
  return String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function embedDialog() {
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
      h('button', { type: 'button', class: 'btn primary', id: 'embed-copy', text: t('embed_copy'), on: { click: async () => { toast((await Exports.copyText(snippet.value)) ? t('embed_copied') : t('copy_failed')); } } }),
      preview),
    h('details', null, h('summary', { text: t('embed_resize') }), h('label', { for: 'embed-resize', class: 'sr-only', text: t('embed_resize') }), resize),
    h('div', { class: 'row-buttons end' }, h('button', { type: 'button', class: 'btn', id: 'embed-close', text: t('close'), on: { click: () => dlg.close() } })));
  dlg._update = update;
  return dlg;
}

export async function openEmbedDialog() {
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
export function startHeightReporting(el) {
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
