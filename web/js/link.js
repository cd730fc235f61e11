// Share links: "#s=<format>.<payload>&lang=zh&view=embed&find=<search>".
//   a (optional, since 2026-12-04): the pinned scenario A of "Compare A/B", encoded as s is; the
//     page opens the comparison of A with s (B).
//   find (optional, the configuration search's settings; the page opens its search and runs it):
//     "<mode>.<n>.<flags>": mode frontier (n = GPU budget, 0 = the scenario's cluster) or fewest
//     (n = largest cluster in nodes, 0 = automatic); flags from "cdmk": colocated, disaggregated,
//     MTP, FP8 KV. Example: "frontier.32.cdmk".
//   format 1: payload = base64url(deflate-raw(UTF-8 JSON of the minimal scenario)), no padding
//   format 0: payload = base64url(UTF-8 JSON)
// Decoding is bounded (fragment length, decompressed size) and never evaluates anything: the result
// is a plain JSON value that still has to pass the core's validation. See docs/PAGE.md.
const MAX_FRAGMENT = 32768;      // characters of location.hash
const MAX_JSON = 262144;         // bytes after decompression
const CURRENT_FORMAT = 1;

class LinkError extends Error {
  constructor(code, vars) {
    super(code);
    this.code = code;
    this.vars = vars || {};
  }
}

function b64urlEncode(bytes) {
  let bin = '';
  const CH = 0x8000;
  for (let i = 0; i < bytes.length; i += CH) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + CH));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function b64urlDecode(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) throw new LinkError('link_err_base64');
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
  let bin;
  try {
    bin = atob(b64);
  } catch (e) {
    throw new LinkError('link_err_base64');
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes, stream, limit) {
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const chunks = [];
  let total = 0;
  const w = (async () => {
    await writer.write(bytes);
    await writer.close();
  })();
  w.catch(() => {});
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      total += value.length;
      if (limit && total > limit) {
        reader.cancel().catch(() => {});
        throw new LinkError('link_err_big', { max: limit });
      }
      chunks.push(value);
    }
    await w;
  } catch (e) {
    if (e instanceof LinkError) throw e;
    throw new LinkError('link_err_inflate');
  }
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

function canCompress() {
  return typeof CompressionStream === 'function' && typeof DecompressionStream === 'function';
}

async function encodeScenario(minimal) {
  const bytes = new TextEncoder().encode(JSON.stringify(minimal));
  if (!canCompress()) return '0.' + b64urlEncode(bytes);
  const packed = await pipe(bytes, new CompressionStream('deflate-raw'), 0);
  return CURRENT_FORMAT + '.' + b64urlEncode(packed);
}

// Returns {params: Map, s: string|null}.
function parseFragment(hash) {
  const raw = String(hash || '').replace(/^#/, '');
  const params = new Map();
  if (raw.length > MAX_FRAGMENT) return { params, tooLong: raw.length };
  for (const part of raw.split('&')) {
    if (!part) continue;
    const i = part.indexOf('=');
    const k = i < 0 ? part : part.slice(0, i);
    const v = i < 0 ? '' : part.slice(i + 1);
    if (!params.has(k)) params.set(k, v);
  }
  return { params };
}

// Decodes the "s" parameter to a JSON value. Throws LinkError.
async function decodeScenario(s) {
  const m = /^(\d{1,3})\.(.*)$/s.exec(s);
  if (!m) throw new LinkError('link_err_format');
  const format = Number(m[1]);
  let bytes = b64urlDecode(m[2]);
  if (format === 1) {
    if (!canCompress()) throw new LinkError('link_err_inflate');
    bytes = await pipe(bytes, new DecompressionStream('deflate-raw'), MAX_JSON);
  } else if (format === 0) {
    if (bytes.length > MAX_JSON) throw new LinkError('link_err_big', { max: MAX_JSON });
  } else if (format > CURRENT_FORMAT) {
    throw new LinkError('link_err_newer', { v: format });
  } else {
    throw new LinkError('link_err_format');
  }
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (e) {
    throw new LinkError('link_err_json');
  }
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new LinkError('link_err_json');
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new LinkError('link_err_json');
  return { doc, format };
}

function buildFragment(encoded, lang, view, find, pinned) {
  let f = '#s=' + encoded;
  if (lang) f += '&lang=' + lang;
  if (view === 'embed') f += '&view=embed';
  if (find && view !== 'embed') f += '&find=' + encodeFind(find);
  if (pinned) f += '&a=' + pinned;
  return f;
}

const FIND_FLAGS = [['c', 'colocated'], ['d', 'disaggregated'], ['m', 'mtp'], ['k', 'kv_fp8']];
const FIND_MAX = { frontier: 4096, fewest: 64 };

function encodeFind(o) {
  const n = o.mode === 'fewest' ? o.max_nodes : o.gpus;
  return o.mode + '.' + (Number.isInteger(n) ? n : 0) + '.' + FIND_FLAGS.filter(([, k]) => o[k]).map(([c]) => c).join('');
}

// The search settings of a "find" parameter. Throws LinkError('link_err_find').
function decodeFind(s) {
  const m = /^(frontier|fewest)\.(\d{1,4})\.([cdmk]{0,4})$/.exec(String(s));
  const n = m ? Number(m[2]) : -1;
  if (!m || n > FIND_MAX[m[1]] || !/[cd]/.test(m[3]) || new Set(m[3]).size !== m[3].length) throw new LinkError('link_err_find', { v: String(s).slice(0, 40) });
  const o = { mode: m[1], gpus: m[1] === 'frontier' ? n : 0, max_nodes: m[1] === 'fewest' ? n : 0 };
  for (const [c, k] of FIND_FLAGS) o[k] = m[3].includes(c);
  return o;
}

export const Link = { encodeScenario, decodeScenario, parseFragment, buildFragment, encodeFind, decodeFind, LinkError, MAX_FRAGMENT, MAX_JSON, CURRENT_FORMAT, b64urlEncode, b64urlDecode };
