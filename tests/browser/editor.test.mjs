// Editor: presets, config.json upload, errors at the field, live recompute, precision schemes, language.
import assert from 'node:assert/strict';
import path from 'node:path';
import * as H from './helpers.mjs';

const env = H.servedPage();

const T = 60000;
const run = H.timedRunner(T);

async function fresh(hash = '#lang=en') {
  return H.openPage(env.browser.context, env.srv.url + hash);
}

function assertNoBadWords(text) {
  for (const w of ['NaN', 'Infinity', 'undefined', '[object Object]']) assert.ok(!text.includes(w), 'page shows "' + w + '"');
}

run('default scenario renders a report without errors', async () => {
  const page = await fresh();
  assert.equal(await page.locator('#report-panel .report').count(), 1);
  assert.equal(await page.evaluate(() => window.SloEstimator.engine()), 'worker', 'the core runs in a Worker on a served page');
  assert.equal(await page.locator('#error-summary').isHidden(), true);
  const text = await H.visibleText(page);
  assertNoBadWords(text);
  assert.ok(!/\bnull\b/.test(await H.visibleText(page, '#report-panel')), 'report shows "null"');
  // every input, select and textarea has a label
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea')]
    .filter((el) => el.type !== 'hidden' && !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
    .map((el) => el.id || el.name || el.outerHTML.slice(0, 60)));
  assert.deepEqual(unlabelled, []);
  await H.assertClean(page, assert);
  await page.close();
});

// An empty memory fraction is the engine's automatic choice: the report names the value it used,
// the field shows "auto", and nothing else in the scenario changes.
run('clearing the memory fraction takes the engine\'s automatic choice', async () => {
  const page = await fresh();
  await page.click('#grp-deployment > summary');
  await H.nextEval(page, () => page.fill('#f-deployment-memory_fraction', ''));
  assert.equal(await page.inputValue('#f-deployment-memory_fraction'), '');
  assert.equal(await page.getAttribute('#f-deployment-memory_fraction', 'placeholder'), 'auto');
  assert.equal(await page.locator('#error-summary').isHidden(), true);
  const text = await H.visibleText(page, '#report-panel');
  assert.match(text, /Memory fraction not set: SGLang's automatic choice 0\.\d{3}/);
  assertNoBadWords(text);
  assert.ok(!/\bnull\b/.test(text), 'report shows "null"');
  await H.assertClean(page, assert);
  await page.close();
});

// Navigation (issue 11): js/preload.js starts the core's worker before the page's script runs and
// the page adopts it; the first report costs one evaluation, sent before the editor is built; the
// search's worker starts once the report is shown.
run('boot adopts the early worker, evaluates once and starts the search worker after the report', async () => {
  const p = await H.openPage(env.browser.context, null);
  await p.addInitScript(() => {
    window.__workers = [];
    window.__posts = [];
    const W = window.Worker;
    window.Worker = class extends W {
      constructor(url, o) { super(url, o); window.__workers.push({ url: String(url), at: performance.now() }); }
      postMessage(m, t) { if (m && m.fn) window.__posts.push({ fn: m.fn, args: m.args, at: performance.now(), workers: window.__workers.length }); return super.postMessage(m, t); }
    };
  });
  await p.goto(env.srv.url + '#lang=en');
  await H.waitReady(p);
  const seen = await p.evaluate(() => ({ workers: window.__workers.slice(), posts: window.__posts.slice() }));
  assert.equal(await p.evaluate(() => window.SloEstimator.engine()), 'worker');
  assert.equal(seen.workers.length >= 1 && seen.workers[0].url, 'js/engine-worker.js', 'the first worker is the preload script\'s');
  assert.deepEqual(seen.posts.filter((x) => x.fn === 'evaluate').length, 1, 'the first report costs one evaluation');
  assert.equal(seen.posts.find((x) => x.fn === 'evaluate').workers, 1, 'the page adopted the early worker instead of making one');
  assert.deepEqual(JSON.parse(seen.posts.find((x) => x.fn === 'evaluate').args[1]).formats, ['json'], 'the report\'s Markdown waits for an export that asks for it');
  assert.equal(await p.evaluate(() => window.SloEstimator.speculated()), 1, 'the first evaluation is the one the worker ran ahead (js/preload.js)');
  const evalAt = seen.posts.find((x) => x.fn === 'evaluate').at;
  const catalogAt = seen.posts.find((x) => x.fn === 'catalog').at;
  assert.ok(evalAt - catalogAt < 50, 'the evaluation is sent with the first requests, not after the editor is built');
  await p.waitForFunction(() => window.__workers.length === 2, null, { timeout: 10000 });
  await H.assertClean(p, assert);
  await p.close();
});

// The worker's speculative first evaluation (js/preload.js) matches the page's request in either
// language, and a link's scenario is never answered from it.
run('the early worker evaluates the defaults ahead in the page language, never for a link', async () => {
  const zh = await fresh('#lang=zh');
  assert.equal(await zh.evaluate(() => window.SloEstimator.speculated()), 1);
  assert.match(await zh.locator('#report-panel .report-title').first().innerText(), /评估报告/);
  await H.assertClean(zh, assert);
  await zh.close();
  const doc = { version: 2, hardware: { gpu: 'h200-141g', nodes: 4 } };
  const link = await fresh('#s=0.' + Buffer.from(JSON.stringify(doc)).toString('base64url') + '&lang=en');
  assert.equal(await link.evaluate(() => window.SloEstimator.speculated()), 0);
  assert.equal(await link.evaluate(() => window.SloEstimator.scenario().hardware.gpu), 'h200-141g');
  await H.assertClean(link, assert);
  await link.close();
});

// A preload worker whose script fails is dropped, whether its error comes before the page adopts it
// (the flag: a worker of the page's own) or after (the engine's handler: the main thread), without
// waiting for the 30 s timeout.
run('a failed early worker is replaced without waiting for a timeout', async () => {
  const p = await H.openPage(env.browser.context, null);
  await p.addInitScript(() => {
    window.__made = 0;
    const W = window.Worker;
    window.Worker = class extends W {
      constructor(url, o) { super(window.__made++ === 0 ? 'js/missing-worker.js' : url, o); }
    };
  });
  const t0 = Date.now();
  await p.goto(env.srv.url + '#lang=en');
  await H.waitReady(p);
  assert.ok(Date.now() - t0 < 20000, 'no 30 s timeout');
  assert.match(await p.evaluate(() => window.SloEstimator.engine()), /^(worker|main)$/);
  assert.equal(await p.locator('#report-panel .report').count(), 1);
  await p.close();
});

run('without Worker support the core runs on the main thread and the page still works', async () => {
  const p = await H.openPage(env.browser.context, null);
  await p.addInitScript(() => { window.Worker = undefined; });
  await p.goto(env.srv.url + '#lang=en');
  await H.waitReady(p);
  assert.equal(await p.evaluate(() => window.SloEstimator.engine()), 'main');
  await H.nextEval(p, () => p.fill('#f-slo-tpot_ms', '44'));
  assert.equal((await p.evaluate(() => window.SloEstimator.scenario())).slo.tpot_ms, 44);
  assert.equal(await p.locator('#report-panel .report').count(), 1);
  await H.assertClean(p, assert);
  await p.close();
});

run('every field of the scenario document has an input (field table or "Other fields")', async () => {
  const page = await fresh();
  const missing = await page.evaluate(() => {
    const out = [];
    const walk = (o, base) => {
      for (const [k, v] of Object.entries(o)) {
        const p = base ? base + '.' + k : k;
        if (p === 'version') continue;
        if (p === 'hardware.custom_gpu') { if (!document.querySelector('[data-path="hardware.custom_gpu"]')) out.push(p); continue; }
        if (v && typeof v === 'object' && !Array.isArray(v) && p !== 'model.config') walk(v, p);
        else if (!document.querySelector('[data-path="' + p + '"]')) out.push(p);
      }
    };
    walk(window.SloEstimator.defaults(), '');
    for (const k of ['name', 'memory_gb', 'hbm_tb_s', 'bf16_tflops', 'fp8_tflops', 'int8_tops', 'fp4_tflops', 'nvlink_gb_s', 'nic_gb_s', 'nvlink_domain'])
      if (!document.querySelector('[data-path="hardware.custom_gpu.' + k + '"]')) out.push('hardware.custom_gpu.' + k);
    return out;
  });
  assert.deepEqual(missing, []);
  await H.assertClean(page, assert);
  await page.close();
});

run('model and GPU preset switch updates the scenario and the report', async () => {
  const page = await fresh();
  const before = await page.evaluate(() => JSON.stringify(window.SloEstimator.report()));
  await H.nextEval(page, () => page.selectOption('#f-model-preset', 'Qwen/Qwen3-235B-A22B'));
  let s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.model.preset, 'Qwen/Qwen3-235B-A22B');
  assert.equal(s.model.config, null);
  await H.nextEval(page, () => page.selectOption('#f-hardware-gpu', 'h200-141g'));
  s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.hardware.gpu, 'h200-141g');
  assert.match(await page.textContent('#gpu-summary'), /141 GB/);
  // A preset sized in GiB (MI325X: 256 GiB) shows its GB rounded, not 274.877906944.
  await H.nextEval(page, () => page.selectOption('#f-hardware-gpu', 'mi325x'));
  assert.match(await page.textContent('#gpu-summary'), /^274\.9 GB · 6 TB\/s HBM · BF16 1307\.4 TFLOPS/);
  // A GPU without NVLink (H100 PCIe) names the PCIe link its peers talk over, not NVLink.
  await H.nextEval(page, () => page.selectOption('#f-hardware-gpu', 'h100-pcie-80g'));
  assert.match(await page.textContent('#gpu-summary'), /PCIe peers 64 GB\/s/);
  assert.doesNotMatch(await page.textContent('#gpu-summary'), /NVLink/);
  // ... and so does the peer-link override's label (it sets the PCIe link there), back to NVLink after.
  const linkLabel = () => page.textContent('label[for="f-hardware-nvlink_gb_s"]');
  assert.equal(await linkLabel(), 'GPU-to-GPU (PCIe) bandwidth override');
  // A GDDR6 card (L4) names its memory so.
  await H.nextEval(page, () => page.selectOption('#f-hardware-gpu', 'l4'));
  assert.match(await page.textContent('#gpu-summary'), /^24 GB · 0\.3 TB\/s GDDR6 · BF16 121 TFLOPS/);
  await H.nextEval(page, () => page.selectOption('#f-hardware-gpu', 'h200-141g'));
  assert.equal(await linkLabel(), 'NVLink bandwidth override');
  const minimal = await page.evaluate(() => window.SloEstimator.minimal());
  assert.deepEqual(minimal.model, { preset: 'Qwen/Qwen3-235B-A22B' });
  const after = await page.evaluate(() => JSON.stringify(window.SloEstimator.report()));
  const r = JSON.parse(after);
  if ((r.sections || []).length || (r.verdicts || []).length) assert.notEqual(after, before, 'the report changed with the model');
  // the URL follows the scenario (written once edits pause)
  await page.waitForFunction(() => /^#s=1\.[A-Za-z0-9_-]+&lang=en$/.test(location.hash));
  assert.match(await page.evaluate(() => location.hash), /^#s=1\.[A-Za-z0-9_-]+&lang=en$/);
  await H.assertClean(page, assert);
  await page.close();
});

run('custom GPU: starts from the selected preset, every spec editable, errors at the field', async () => {
  const page = await fresh();
  await H.nextEval(page, () => page.selectOption('#f-hardware-gpu', 'custom'));
  assert.equal(await page.isVisible('#custom-gpu'), true);
  let s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.hardware.gpu, 'custom');
  assert.equal(s.hardware.custom_gpu.memory_gb, 96, 'copied from the H20 preset');
  await H.nextEval(page, () => page.fill('#f-hardware-custom_gpu-memory_gb', '141'));
  s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.hardware.custom_gpu.memory_gb, 141);
  await H.nextEval(page, () => page.fill('#f-hardware-custom_gpu-hbm_tb_s', '0'));
  assert.ok((await page.evaluate(() => window.SloEstimator.errors())).some((e) => e.path === 'hardware.custom_gpu.hbm_tb_s'));
  assert.equal(await page.isVisible('#e-f-hardware-custom_gpu-hbm_tb_s'), true);
  await H.nextEval(page, () => page.selectOption('#f-hardware-gpu', 'h100-80g'));
  s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.hardware.custom_gpu, null);
  assert.equal(await page.isVisible('#custom-gpu'), false);
  await H.assertClean(page, assert);
  await page.close();
});

run('scenario preset and reset to defaults', async () => {
  const page = await fresh();
  await H.nextEval(page, () => page.fill('#f-hardware-nodes', '2'));
  assert.equal((await page.evaluate(() => window.SloEstimator.scenario())).hardware.nodes, 2);
  const first = await page.evaluate(() => document.querySelector('#f-scenario-preset option:nth-child(2)').value);
  await H.nextEval(page, () => page.selectOption('#f-scenario-preset', first));
  assert.equal((await page.evaluate(() => window.SloEstimator.scenario())).hardware.nodes, 4);
  assert.equal(await page.inputValue('#f-hardware-nodes'), '4');
  await H.nextEval(page, () => page.fill('#f-slo-tpot_ms', '30'));
  await H.nextEval(page, () => page.click('#btn-reset'));
  assert.deepEqual(await page.evaluate(() => window.SloEstimator.minimal()), { version: 2 });
  await H.assertClean(page, assert);
  await page.close();
});

run('config.json upload sets model.config and the core accepts it', async () => {
  const page = await fresh();
  await page.click('#config-box > summary');
  await H.nextEval(page, () => page.setInputFiles('#config-file', path.join(H.repo, 'core/data/models/Qwen--Qwen3-30B-A3B.json')));
  const s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.model.config.model_type, 'qwen3_moe');
  assert.equal(await page.isVisible('#config-status'), true);
  assert.match(await page.textContent('#config-status'), /config\.json/);
  assert.equal(await page.inputValue('#f-model-preset'), '__config__');
  assert.deepEqual(await page.evaluate(() => window.SloEstimator.errors()), []);
  // paste a broken config: a local JSON error, nothing sent
  await page.fill('#config-paste', '{"hidden_size": ');
  await page.click('#btn-config-apply');
  assert.equal(await page.isVisible('#config-local-error'), true);
  // back to the preset
  await H.nextEval(page, () => page.click('#btn-config-clear'));
  assert.equal((await page.evaluate(() => window.SloEstimator.scenario())).model.config, null);
  await H.assertClean(page, assert);
  await page.close();
});

run('a field error is shown at the field with the core message', async () => {
  const page = await fresh();
  await page.click('#grp-deployment > summary');
  await H.nextEval(page, () => page.fill('#f-deployment-colocated-ep', '7'));
  const errs = await page.evaluate(() => window.SloEstimator.errors());
  assert.ok(errs.length >= 1);
  assert.equal(errs[0].path, 'deployment.colocated.ep');
  const wrap = page.locator('.field[data-path="deployment.colocated.ep"]');
  assert.match(await wrap.getAttribute('class'), /invalid/);
  const msg = await page.textContent('#e-f-deployment-colocated-ep');
  assert.ok(msg && msg.length > 5, 'message at the field');
  assert.ok(errs[0].message.includes(msg.split(' · ')[0]), 'the core message is shown');
  assert.equal(await page.getAttribute('#f-deployment-colocated-ep', 'aria-invalid'), 'true');
  assert.equal(await page.isVisible('#error-summary'), true);
  assert.equal(await page.isVisible('#stale-note'), true);
  // a typed non-number goes to the core as typed and comes back as an error at the field
  await H.nextEval(page, () => page.fill('#f-slo-tpot_ms', 'fast'));
  assert.ok((await page.evaluate(() => window.SloEstimator.errors())).some((e) => e.path === 'slo.tpot_ms'));
  assert.equal(await page.isVisible('#e-f-slo-tpot_ms'), true);
  // fixing both clears the errors
  await H.nextEval(page, () => page.fill('#f-slo-tpot_ms', '50'));
  await H.nextEval(page, () => page.fill('#f-deployment-colocated-ep', '32'));
  assert.deepEqual(await page.evaluate(() => window.SloEstimator.errors()), []);
  assert.equal(await page.isHidden('#error-summary'), true);
  assert.equal(await page.locator('.field.invalid').count(), 0);
  // an error inside a folded group is counted on the group and reachable from the summary
  await page.click('#grp-deployment > summary');
  assert.equal(await page.evaluate(() => document.getElementById('grp-deployment').open), false);
  await H.nextEval(page, () => page.fill('#f-hardware-nodes', '3'));
  const e2 = await page.evaluate(() => window.SloEstimator.errors());
  assert.ok(e2.some((e) => e.path.startsWith('deployment.colocated.')), '24 GPUs: EP 24 does not divide 256 + 0 experts');
  assert.equal(await page.isVisible('#grp-deployment .grp-errors'), true);
  await page.click('#error-summary button.linklike');
  assert.equal(await page.evaluate(() => document.getElementById('grp-deployment').open), true);
  assert.match(await page.evaluate(() => document.activeElement.id), /^f-deployment-colocated-/);
  await H.assertClean(page, assert);
  await page.close();
});

run('the colocated pool follows the cluster size when it spanned it', async () => {
  const page = await fresh();
  await H.nextEval(page, () => page.fill('#f-hardware-nodes', '2'));
  const s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.deployment.colocated.gpus, 16);
  assert.equal(s.deployment.colocated.ep, 16);
  assert.deepEqual(await page.evaluate(() => window.SloEstimator.errors()), []);
  await H.assertClean(page, assert);
  await page.close();
});

run('changing a field recomputes the report (debounced, typing not blocked)', async () => {
  const page = await fresh();
  const n0 = await page.evaluate(() => window.SloEstimator.evalCount());
  await page.click('#f-name');
  await page.fill('#f-name', '');
  await page.keyboard.type('Capacity review Q3', { delay: 20 });
  await page.waitForFunction(() => window.SloEstimator.scenario().name === 'Capacity review Q3');
  const n1 = await page.evaluate(() => window.SloEstimator.evalCount());
  assert.ok(n1 - n0 <= 4, 'evaluations are debounced while typing (' + (n1 - n0) + ')');
  assert.ok((await page.textContent('.report-title')).includes('Capacity review Q3'), 'the report title carries the name');
  assert.equal(await page.inputValue('#f-name'), 'Capacity review Q3', 'the typed text is kept');
  await H.nextEval(page, () => page.fill('#f-workload-input_tokens', '4096'));
  await H.nextEval(page, () => page.fill('#f-workload-input_tokens_max', '8192'));
  const s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.workload.input_tokens, 4096);
  assert.equal(s.workload.input_tokens_max, 8192);
  // nullable fields: empty means null
  await H.nextEval(page, () => page.fill('#f-slo-ttft_p50_ms', ''));
  assert.equal((await page.evaluate(() => window.SloEstimator.scenario())).slo.ttft_p50_ms, null);
  await H.assertClean(page, assert);
  await page.close();
});

run('precision quick scheme w4a8c8 sets weights int4, activations int8, kv int8', async () => {
  const page = await fresh();
  await page.click('#grp-precision > summary');
  await H.nextEval(page, () => page.selectOption('#f-scheme', 'w4a8c8'));
  const p = (await page.evaluate(() => window.SloEstimator.scenario())).precision;
  assert.deepEqual([p.weights, p.activations, p.kv_cache], ['int4', 'int8', 'int8']);
  assert.equal(await page.inputValue('#f-precision-weights'), 'int4');
  await H.nextEval(page, () => page.selectOption('#f-precision-kv_cache', 'fp8'));
  assert.equal(await page.inputValue('#f-scheme'), '', 'a mix that is no scheme shows "custom mix"');
  await H.nextEval(page, () => page.click('#f-precision-high_precision-attention'));
  assert.ok((await page.evaluate(() => window.SloEstimator.scenario())).precision.high_precision.includes('attention'));
  await H.assertClean(page, assert);
  await page.close();
});

run('disaggregated mode shows the prefill and decode pools', async () => {
  const page = await fresh();
  await page.click('#grp-deployment > summary');
  assert.equal(await page.isVisible('#f-deployment-prefill-gpus'), false);
  await H.nextEval(page, () => page.selectOption('#f-deployment-mode', 'disaggregated'));
  assert.equal(await page.isVisible('#f-deployment-prefill-gpus'), true);
  assert.equal(await page.isVisible('#f-deployment-colocated-gpus'), false);
  // an unset EP follows the pool (scenario version 2): no error on a field the user did not touch
  await H.nextEval(page, () => page.fill('#f-deployment-decode-gpus', '16'));
  assert.deepEqual(await page.evaluate(() => window.SloEstimator.errors()), []);
  assert.equal(await page.inputValue('#f-deployment-decode-ep'), '16');
  await H.nextEval(page, () => page.fill('#f-deployment-decode-ep', '16'));
  await H.nextEval(page, () => page.fill('#f-deployment-decode-redundant_experts', '0'));
  assert.deepEqual(await page.evaluate(() => window.SloEstimator.errors()), []);
  const s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.deployment.mode, 'disaggregated');
  assert.deepEqual([s.deployment.decode.gpus, s.deployment.decode.ep, s.deployment.decode.redundant_experts], [16, 16, 0]);
  await H.assertClean(page, assert);
  await page.close();
});

run('weight offload: a pool\'s host-memory GB shows the transfer mode and the memory row', async () => {
  const page = await fresh();
  await page.click('#grp-deployment > summary');
  assert.equal(await page.isVisible('#f-deployment-offload_mode'), false);
  await H.nextEval(page, () => page.fill('#f-deployment-colocated-cpu_offload_gb', '10'));
  assert.deepEqual(await page.evaluate(() => window.SloEstimator.errors()), []);
  assert.equal(await page.isVisible('#f-deployment-offload_mode'), true);
  await H.nextEval(page, () => page.selectOption('#f-deployment-offload_mode', 'prefetch'));
  const s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.deepEqual([s.deployment.colocated.cpu_offload_gb, s.deployment.offload_mode], [10, 'prefetch']);
  const text = await H.visibleText(page, '#report-panel');
  assert.ok(text.includes('of which in host memory (offloaded)'), 'memory plan lists the offloaded weights');
  assertNoBadWords(text);
  // a negative amount is an error at the field, naming the range
  await H.nextEval(page, () => page.fill('#f-deployment-colocated-cpu_offload_gb', '-1'));
  const errs = await page.evaluate(() => window.SloEstimator.errors());
  assert.equal(errs[0].path, 'deployment.colocated.cpu_offload_gb');
  await H.assertClean(page, assert);
  await page.close();
});

run('reference measurement: editing makes it custom, calibrate toggles', async () => {
  const page = await fresh();
  await page.click('#grp-reference > summary');
  await H.nextEval(page, () => page.fill('#f-reference-measured-throughput_tokens_per_s', '16000'));
  let s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.reference.preset, 'custom');
  assert.equal(s.reference.measured.throughput_tokens_per_s, 16000);
  await H.nextEval(page, () => page.check('#f-reference-calibrate'));
  s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.reference.calibrate, true);
  await H.nextEval(page, () => page.selectOption('#f-reference-preset', 'none'));
  assert.equal(await page.isVisible('#f-reference-calibrate'), false);
  await H.assertClean(page, assert);
  await page.close();
});

run('language switch: every label, the report and the link follow', async () => {
  const page = await fresh();
  await H.nextEval(page, () => page.click('#btn-lang'));
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.equal(await page.textContent('#btn-copy-link'), '复制链接');
  assert.equal(await page.textContent('label[for="f-hardware-nodes"]'), '节点数');
  assert.equal((await page.evaluate(() => window.SloEstimator.report())).lang, 'zh');
  await page.waitForFunction(() => /&lang=zh$/.test(location.hash));
  // core errors arrive in Chinese
  await H.nextEval(page, () => page.fill('#f-slo-tpot_ms', 'x'));
  assert.match(await page.textContent('#e-f-slo-tpot_ms'), /允许/);
  await H.nextEval(page, () => page.click('#btn-lang'));
  assert.equal(await page.textContent('#btn-copy-link'), 'Copy link');
  assert.match(await page.textContent('#e-f-slo-tpot_ms'), /allowed/);
  await H.assertClean(page, assert);
  await page.close();
});

run('language comes from navigator.language when the link has none', async () => {
  const zh = await H.launch({ locale: 'zh-CN' });
  try {
    const page = await H.openPage(zh.context, env.srv.url);
    assert.equal(await page.evaluate(() => window.SloEstimator.lang), 'zh');
    assert.equal(await page.textContent('h1'), 'SLO 估算器');
    await H.assertClean(page, assert);
  } finally {
    await zh.close();
  }
});

run('keyboard: tabs switch with the arrow keys and the seed report is one click away', async () => {
  const page = await fresh();
  await page.focus('#tab-corrected');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#tab-seed', 'aria-selected'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-seed');
  const method = await page.getAttribute('#report-panel .report', 'data-method');
  assert.equal(method, 'seed');
  // The seed tab is a labelled comparison (issue 12, defect 5): a notice, claims instead of verdicts.
  assert.match(await page.textContent('#report-panel .report-notice'), /Not a verdict/);
  assert.equal(await page.locator('#report-panel .verdict.st-fail, #report-panel .verdict.st-pass').count(), 0);
  assert.deepEqual(await page.locator('#report-panel .verdict .badge').allTextContents(), ['CLAIMS PASS', 'CLAIMS FAIL', 'CLAIMS FAIL', 'CLAIMS PASS']);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getAttribute('#report-panel .report', 'data-method'), 'corrected');
  await H.assertClean(page, assert);
  await page.close();
});
