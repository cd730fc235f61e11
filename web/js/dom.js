// DOM helpers. Everything the page shows is built with createElement + textContent: no data
// (from a link, a file, the core's report or the catalog) is ever parsed as HTML.
// Attributes the helper may set; event handlers ("on*"), "style" and "srcdoc" are refused so that
// no code path can turn data into script or inline style (the CSP forbids both anyway).
const SAFE_ATTR = /^(id|class|for|type|name|value|placeholder|title|role|tabindex|href|target|rel|download|lang|dir|colspan|rowspan|scope|min|max|step|inputmode|autocomplete|spellcheck|rows|cols|accept|width|height|hidden|open|checked|disabled|readonly|selected|multiple|list|form|aria-[a-z]+|data-[a-z0-9-]+)$/;

// h('div', {class: 'x', text: 'hello'}, child1, 'text child', [more, children])
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') el.textContent = String(v);
      else if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
      else if (k === 'props') Object.assign(el, v);
      else if (SAFE_ATTR.test(k)) {
        if (k === 'href' && !safeHref(String(v))) continue;
        el.setAttribute(k, v === true ? '' : String(v));
      } else throw new Error('dom.h: refused attribute ' + k);
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
  return el;
}

// Only links the page builds itself: same-document fragments, http(s), file and blob URLs.
function safeHref(u) {
  return /^(#|https?:|file:|blob:|\.\/|[a-z0-9_.-]+\.html)/i.test(u) && !/^\s*javascript:/i.test(u);
}

function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// Text of a report Value ({number, unit, text}) or a plain string; never "undefined"/"null"/"NaN".
function valueText(v) {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'object' && typeof v.text === 'string') return v.text;
  return '';
}

function str(v) {
  return typeof v === 'string' ? v : (typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
}

export const Dom = { h, append, clear, valueText, str };
