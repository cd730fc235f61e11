// Bad input returns errors, never a trap or an exception: malformed and hostile JSON, wrong types in
// every field, bad versions, unknown fields, out-of-range numbers, bad options. Each call must return
// parseable JSON with ok == false (or, for options the core tolerates, a well-formed result), and after
// all of them the module still evaluates the default scenario exactly as before.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, cli, cliBatch, diff } from './common.mjs';

let m, defaultDoc, baseline;
const OPTS = JSON.stringify({ method: 'corrected', lang: 'en', formats: ['json', 'text', 'markdown'] });
before(async () => {
  m = await loadModule();
  defaultDoc = JSON.parse(m.defaultScenario());
  baseline = m.evaluate(m.defaultScenario(), OPTS);
});

// Calls the module; a trap (RuntimeError), an escaped C++ exception (a bare number) or an Embind
// error all surface here as a thrown value and fail the test.
function call(fn, ...args) {
  let out;
  assert.doesNotThrow(() => {
    out = m[fn](...args);
  }, `${fn} threw`);
  assert.equal(typeof out, 'string');
  return JSON.parse(out);
}

function rejects(scenarioText, { path, lang = 'en', options } = {}) {
  const opts = options ?? JSON.stringify({ lang, formats: ['json', 'text', 'markdown'] });
  for (const r of [call('evaluate', scenarioText, opts), call('validate', scenarioText, lang)]) {
    assert.equal(r.ok, false, `accepted: ${scenarioText.slice(0, 200)}`);
    assert.ok(Array.isArray(r.errors) && r.errors.length > 0, 'no errors listed');
    for (const e of r.errors) {
      for (const k of ['path', 'value', 'expected', 'message']) assert.equal(typeof e[k], 'string', `error.${k}`);
      assert.ok(e.message.length > 0 && e.message.length < 2000, `message length ${e.message.length}`);
    }
    if (path !== undefined) {
      assert.ok(r.errors.some((e) => at(e, path)), `no error at ${path}: ${JSON.stringify(r.errors).slice(0, 500)}`);
    }
    assert.equal(r.report, undefined);
  }
  return call('validate', scenarioText, lang).errors;
}

// An error at `path` or inside it (an empty model.config reports its missing keys).
const at = (e, path) => e.path === path || e.path.startsWith(`${path}.`) || e.path.startsWith(`${path}[`);
const doc = (patch) => JSON.stringify({ version: 1, ...patch });

test('not JSON, empty, truncated, trailing garbage', () => {
  for (const t of ['', ' ', 'hello', '{version:1}', '{"version":1', '{"version":1}}', '{"version":1} x', "{'version':1}",
    '[', ']', 'null', 'true', '0', '"text"', '[{"version":1}]', '\u0000', '{"version":1,}', 'NaN', 'Infinity'])
    rejects(t, { path: '(document)' });
});

test('hostile nesting and sizes', () => {
  const N = 100000;
  rejects('['.repeat(N) + ']'.repeat(N), { path: '(document)' });
  rejects('{"a":'.repeat(N) + '1' + '}'.repeat(N), { path: '(document)' });
  rejects('['.repeat(N), { path: '(document)' });                       // unbalanced
  let nested = 1;
  for (let i = 0; i < 40; ++i) nested = [nested];
  rejects(doc({ name: { a: { b: nested } } }), { path: '(document)' });  // 43 levels: above the limit of 32
  const mb = 'x'.repeat(1 << 20);
  const errs = rejects(doc({ name: mb }), { path: 'name' });
  assert.ok(errs[0].value.length <= 80, 'offending value is truncated');
  rejects(mb, { path: '(document)' });
  rejects(doc({ name: '\u4e2d'.repeat(1 << 19) }), { path: 'name' });      // 1.5 MB of UTF-8
  rejects(doc({ name: 'x'.repeat(5 << 20) }), { path: '(document)' });    // above the 4 MiB limit
  rejects(JSON.stringify({ version: 1, model: { config: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i])) } }),
    { path: 'model.config' });
  // Brackets inside strings do not count as nesting: a deep-looking string is just a (too long) name.
  rejects(doc({ name: '['.repeat(N) }), { path: 'name' });
});

test('numbers outside double range and odd encodings', () => {
  for (const t of ['{"version":1e400}', '{"version":1,"slo":{"tpot_ms":1e400}}', '{"version":1,"slo":{"tpot_ms":-1e400}}',
    '{"version":1,"workload":{"input_tokens":NaN}}', '{"version":1,"workload":{"input_tokens":Infinity}}',
    '{"version":1,"name":"\\ud800"}', '{"version":1,"name":"\\u00"}', '{"version":1,"name":"a\u0001b"}'])
    rejects(t);
  // Lone surrogates in the JS string: Emscripten 3.1.6's UTF-8 encoder pairs a surrogate with whatever
  // code unit follows (even a quote), so the text the core sees may or may not be valid JSON. Either
  // way the answer is a well-formed result, never a trap.
  for (const t of ['{"version":1,"name":"\ud800"}', '{"version":1,"name":"\udfff\ud800"}', '\udc00', '{"version":1}\ud800']) {
    const r = call('evaluate', t, OPTS);
    assert.equal(typeof r.ok, 'boolean');
    if (!r.ok) assert.ok(r.errors.length > 0);
  }
  for (const [path, v] of [['slo.tpot_ms', 1e308], ['slo.tpot_ms', -1e308], ['hardware.nodes', 1e20], ['hardware.nodes', -1e20],
    ['hardware.nodes', 2.5], ['hardware.nodes', 18446744073709551615], ['workload.context_length', 1e300],
    ['deployment.colocated.gpus', 4294967297], ['deployment.colocated.ep', -0.5], ['deployment.mtp.draft_tokens', 9],
    ['deployment.mtp.acceptance', 1.0000001], ['deployment.memory_fraction', 0], ['slo.ttft_p50_ms', 0],
    ['workload.arrival_qpm', 0], ['precision.group_size', 100], ['precision.group_size', 1e10]]) {
    const d = structuredClone(defaultDoc);
    const keys = path.split('.');
    keys.slice(0, -1).reduce((o, k) => o[k], d)[keys.at(-1)] = v;
    rejects(JSON.stringify(d), { path });
  }
});

test('huge and fractional numbers inside model.config', () => {
  for (const v of [1e300, -1e300, 1e19, 9.3e18, -9.3e18, 1.5, '4096', true, null, [], {}]) {
    const cfg = JSON.parse(JSON.stringify({ model_type: 'llama', hidden_size: v, num_hidden_layers: 4, vocab_size: 32000,
      num_attention_heads: 32, intermediate_size: 11008 }));
    rejects(JSON.stringify({ version: 1, model: { config: cfg }, reference: { preset: 'none' } }), { path: 'model.config.hidden_size' });
  }
  for (const cfg of ['llama', 7, [], true])
    rejects(JSON.stringify({ version: 1, model: { config: cfg } }), { path: 'model.config' });
});

test('version: missing, 0, 3, "1", 1.5, -1, null, huge', () => {
  rejects('{}', { path: 'version' });
  rejects('{"name":"x"}', { path: 'version' });
  for (const v of ['0', '3', '"1"', '1.5', '1.0', '-1', 'null', 'true', '[1]', '{"v":1}', '99999999999999999999', '18446744073709551615'])
    rejects(`{"version":${v}}`, { path: 'version' });
  const future = rejects('{"version":3}', { path: 'version' });
  assert.match(future[0].message, /newer/);
});

test('unknown fields at every level', () => {
  rejects(doc({ colour: 'blue' }), { path: 'colour' });
  rejects(doc({ hardware: { gpus: 8 } }), { path: 'hardware.gpus' });
  rejects(doc({ deployment: { colocated: { tp: 8 } } }), { path: 'deployment.colocated.tp' });
  rejects(doc({ deployment: { mtp: { drafts: 2 } } }), { path: 'deployment.mtp.drafts' });
  rejects(doc({ reference: { measured: { latency: 1 } } }), { path: 'reference.measured.latency' });
  rejects('{"version":1,"__proto__":{"version":2}}', { path: '__proto__' });
  rejects('{"version":1,"constructor":1}', { path: 'constructor' });
  rejects(doc({ hardware: { gpu: 'custom', custom_gpu: { name: 'X', memory_gb: 80, hbm_tb_s: 3, bf16_tflops: 900, nvlink_gb_s: 900, nic_gb_s: 50, watts: 700 } } }),
    { path: 'hardware.custom_gpu.watts' });
});

// Every leaf of the default scenario (and every object), replaced by a value of the wrong type.
// null is the right type for nullable fields, so a null replacement only has to give the same answer
// natively and in wasm; every other replacement must be rejected with an error at that field.
function wrongValues(v) {
  if (v === null) return [[], {}, true];
  if (Array.isArray(v)) return [{}, 'x', 7, null];
  if (typeof v === 'object') return ['x', 7, [], true, null];
  if (typeof v === 'string') return [7, true, [], {}, null];
  if (typeof v === 'number') return [String(v), true, [v], {}, null];
  if (typeof v === 'boolean') return ['true', 1, null];
  return [];
}
function paths(v, p = '', out = []) {
  if (p) out.push(p);
  if (v && typeof v === 'object' && !Array.isArray(v)) for (const k of Object.keys(v)) paths(v[k], p ? `${p}.${k}` : k, out);
  return out;
}
function setAt(d, path, value) {
  const keys = path.split('.');
  keys.slice(0, -1).reduce((o, k) => o[k], d)[keys.at(-1)] = value;
}

test('wrong types everywhere: each field of the default scenario, in both languages', () => {
  const requests = [];
  let rejected = 0;
  for (const path of paths(defaultDoc)) {
    if (path === 'version') continue;  // its own test above
    const original = path.split('.').reduce((o, k) => o[k], defaultDoc);
    for (const wrong of wrongValues(original)) {
      const d = structuredClone(defaultDoc);
      setAt(d, path, wrong);
      const lang = requests.length % 2 ? 'zh' : 'en';
      requests.push({ scenario: d, options: { lang, formats: ['json'] } });
      if (wrong === null) continue;
      const errs = rejects(JSON.stringify(d), { path, lang });
      const e = errs.find((x) => at(x, path));
      assert.ok(e.message.startsWith(e.path), `message names the path: ${e.message}`);
      assert.ok(e.message.includes(e.value), `message names the value: ${e.message}`);
      assert.ok(e.message.includes(e.expected), `message names what is allowed: ${e.message}`);
      ++rejected;
    }
  }
  assert.ok(rejected > 150, `only ${rejected} cases`);
  // The native core gives exactly the same answers (errors, or results for accepted nulls).
  const native = cliBatch(requests);
  requests.forEach((req, i) => {
    const wasm = call('evaluate', JSON.stringify(req.scenario), JSON.stringify(req.options));
    assert.deepStrictEqual(diff(native[i], wasm), [], `case ${i}: ${JSON.stringify(req.scenario).slice(0, 300)}`);
  });
});

test('cross-field rules: EP, attention TP, pool sizes, precision on GPU, workload max', () => {
  rejects(doc({ deployment: { colocated: { gpus: 24, ep: 24 } } }), { path: 'deployment.colocated.ep' });
  rejects(doc({ deployment: { colocated: { attention_tp: 256, gpus: 32 } } }), { path: 'deployment.colocated.attention_tp' });
  rejects(doc({ deployment: { colocated: { gpus: 64 } } }), { path: 'deployment.colocated.gpus' });
  rejects(doc({ deployment: { mode: 'disaggregated', prefill: { gpus: 16, ep: 16 }, decode: { gpus: 24, ep: 24, redundant_experts: 32 } } }),
    { path: 'deployment.decode.gpus' });
  rejects(doc({ hardware: { gpu: 'a100-80g' } }), { path: 'precision.activations' });
  rejects(doc({ workload: { input_tokens_max: 100 } }), { path: 'workload.input_tokens_max' });
  rejects(doc({ hardware: { gpus_per_node: 16 } }), { path: 'hardware.gpus_per_node' });
  rejects(doc({ hardware: { gpu: 'custom' } }), { path: 'hardware.custom_gpu' });
  rejects(doc({ hardware: { custom_gpu: { name: 'X' } } }), { path: 'hardware.custom_gpu' });
  rejects(doc({ model: { preset: 'gpt-5' } }), { path: 'model.preset' });
  rejects(doc({ hardware: { gpu: 'h30' } }), { path: 'hardware.gpu' });
  rejects(doc({ precision: { weights: 'fp3' } }), { path: 'precision.weights' });
  rejects(doc({ precision: { high_precision: ['router', 'router'] } }), { path: 'precision.high_precision[1]' });
  rejects(doc({ deployment: { mode: 'split' } }), { path: 'deployment.mode' });
});

test('invalid options never trap', () => {
  const s = m.defaultScenario();
  for (const o of ['{', '[]', '"en"', '7', 'null', '{"method":"fast"}', '{"method":7}', '{"lang":5}', '{"lang":null}',
    '{"x":1e400}', '['.repeat(100000), '[{"a":'.repeat(50000) + '1' + '}]'.repeat(50000), '\ud800'])
    assert.equal(call('evaluate', s, o).ok, false, `options ${o.slice(0, 40)} accepted`);
  // Tolerated: empty options (defaults), unknown keys and formats (ignored: no rendering is returned),
  // an unknown language (English).
  for (const o of ['', '{}', '{"formats":[]}', '{"formats":["pdf",1,null]}', '{"formats":"json"}', '{"formats":7}', '{"lang":"fr"}', '{"extra":true}',
    '{"a":'.repeat(100000) + '1' + '}'.repeat(100000)]) {
    const r = call('evaluate', s, o);
    assert.equal(r.ok, true, `options ${o.slice(0, 40)}: ${JSON.stringify(r.errors)}`);
  }
  for (const lang of ['', 'xx', '\ud800', 'zh'.repeat(100000)]) assert.equal(call('validate', s, lang).ok, true);
});

test('non-string arguments are refused by the binding, not by a trap', () => {
  for (const bad of [undefined, null, 7, {}, []]) {
    assert.throws(() => m.evaluate(bad, '{}'), (e) => e instanceof Error && !(e instanceof WebAssembly.RuntimeError));
  }
  // The object helpers of api.js turn objects into text first.
  assert.equal(m.evaluateObject({ version: 3 }, {}).ok, false);
  assert.equal(m.validateObject('not json').ok, false);
});

test('pasted benchmark outputs: hostile text is one error, a real one the same document as the CLI', async () => {
  const s = m.defaultScenario();
  for (const t of ['', 'hello', '{"a":1}', '\ud800', '\0'.repeat(1000), 'x'.repeat(2 << 20), '['.repeat(100000),
    '{"mean_ttft_ms": 1e400, "completed": -5}', 'Successful requests: 1e308\nTotal input tokens: nan\n']) {
    const r = call('pasteBenchmark', s, t, 'en');
    assert.equal(r.ok, false, `accepted ${t.slice(0, 30)}`);
    assert.equal(r.errors[0].path, 'benchmark');
  }
  assert.equal(call('pasteBenchmark', '{"version": 9}', 'x', 'zh').ok, false);
  const { readFileSync, writeFileSync } = await import('node:fs');
  const out = readFileSync(new URL('../fixtures/bench/sglang.txt', import.meta.url), 'utf8');
  const r = call('pasteBenchmark', s, out, 'en');
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  writeFileSync('/tmp/slo-wasm-bench.txt', out);
  const native = JSON.parse(cli(['reference', '--bench', '/tmp/slo-wasm-bench.txt']));
  assert.deepEqual(r.scenario, native, 'wasm and CLI make the same document');
});

test('after all of the above the module still evaluates the default scenario, unchanged', () => {
  assert.equal(m.evaluate(m.defaultScenario(), OPTS), baseline);
  const r = JSON.parse(baseline);
  assert.equal(r.ok, true);
  assert.equal(r.report.format, 'slo-estimator-report');
});
