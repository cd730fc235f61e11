// The page's shared state: the scenario being edited, the last result, the editor's bindings, and
// the helpers every part uses (translation, cloning, element lookup).
import { Dom } from '../dom.js';
import { Fields } from '../fields.js';
import { I18n } from '../i18n.js';
import { Link } from '../link.js';

export const { h, clear, str } = Dom;
export const F = Fields;
export const I = I18n;
export const LINK = Link;

export const state = {
  lang: 'en',
  view: 'full',
  tab: 'corrected',
  doc: null,           // the full scenario document being edited
  defaults: null,
  explicit: new Set(), // leaf paths the user set (sent to the core; the rest is derived)
  catalog: null,
  result: null,        // last evaluate() result with ok = true
  resultDoc: '',       // the document (JSON) that result was evaluated from (its Markdown is asked for on export)
  minimal: null,
  errors: [],
  seed: null,          // {key, report} cache of the seed method's report
  encoded: '',         // "1.xxxx" of the current minimal scenario
  keepHash: false,     // true after a bad link: keep it in the address bar until the first edit
  linkNotice: null,    // {code, vars, errors}
  open: new Set(),     // open <details> groups
  lastEvalMs: 0,
  lastRenderMs: 0,    // main-thread time from the core's answer to the rendered report
  evalCount: 0,
};
export const bindings = [];   // {path, el, kind, field}
export const fieldWraps = new Map(); // path -> wrapper element (errors)
export const t = (k, vars) => I.t(state.lang, k, vars);
export const tl = (o) => I.pick(state.lang, o);
export const clone = (x) => (x === undefined ? undefined : JSON.parse(JSON.stringify(x)));
export const $ = (id) => document.getElementById(id);
