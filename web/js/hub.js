// A model's config.json from the Hugging Face Hub, fetched in the user's browser by its id
// ("Qwen/Qwen2.5-7B-Instruct"). The CSP's connect-src allows https://huggingface.co and nothing
// else; no credentials or referrer are sent. The text goes to the core like a pasted config.json:
// nothing here interprets it beyond JSON.parse. Failures come back as a reason the page words.
const HOST = 'https://huggingface.co';
const MAX = 1048576;
// The Hub's repo id rule: owner and name of letters, digits, "-", "_", "."; at most 96 characters.
const ID = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94})\/[A-Za-z0-9._-]{1,96}$/;

function validId(id) {
  return typeof id === 'string' && id.length <= 96 && ID.test(id) && !id.includes('..') && !/\.(?:git|json)$/i.test(id);
}

function configUrl(id) {
  const [owner, name] = id.split('/');
  return HOST + '/' + encodeURIComponent(owner) + '/' + encodeURIComponent(name) + '/resolve/main/config.json';
}

// -> {ok: true, config: object} | {ok: false, reason: 'id_bad' | 'gated' | 'missing' | 'http' | 'offline'
//    | 'timeout' | 'json' | 'size', status?}
async function fetchConfig(id, timeoutMs = 15000) {
  if (!validId(id)) return { ok: false, reason: 'id_bad' };
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  let res;
  try {
    res = await fetch(configUrl(id), { credentials: 'omit', referrerPolicy: 'no-referrer', signal: ctl.signal, cache: 'no-cache' });
  } catch (e) {
    clearTimeout(timer);
    return { ok: false, reason: e && e.name === 'AbortError' ? 'timeout' : 'offline' };
  }
  try {
    if (res.status === 401 || res.status === 403) return { ok: false, reason: 'gated', status: res.status };
    if (res.status === 404) return { ok: false, reason: 'missing', status: 404 };
    if (!res.ok) return { ok: false, reason: 'http', status: res.status };
    const len = Number(res.headers.get('content-length'));
    if (Number.isFinite(len) && len > MAX) return { ok: false, reason: 'size' };
    const text = await res.text();
    if (text.length > MAX) return { ok: false, reason: 'size' };
    let config;
    try { config = JSON.parse(text); } catch (e) { return { ok: false, reason: 'json' }; }
    if (!config || typeof config !== 'object' || Array.isArray(config)) return { ok: false, reason: 'json' };
    return { ok: true, config };
  } catch (e) {
    return { ok: false, reason: e && e.name === 'AbortError' ? 'timeout' : 'offline' };
  } finally {
    clearTimeout(timer);
  }
}

export const Hub = { fetchConfig, validId, configUrl, HOST };
