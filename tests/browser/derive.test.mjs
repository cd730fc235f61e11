// Issue 12: one edit of the default scenario gives a report on the page, because the core derives
// the fields the user did not set (scenario version 2): pools follow the cluster, EP the pool and
// the model, precision the GPU; a reference that does not fit the model is noted, not an error.
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';

const env = H.servedPage();
const run = H.timedRunner(90000);

async function fresh() {
  return H.openPage(env.browser.context, env.srv.url + '#lang=en');
}

// Opens the folded groups around a field, as a user would.
function unfold(page, sel) {
  return page.evaluate((s) => {
    for (let d = document.querySelector(s).closest('details'); d; d = d.parentElement.closest('details')) d.open = true;
  }, sel);
}

async function reportShown(page, what) {
  assert.deepEqual(await page.evaluate(() => window.SloEstimator.errors()), [], what + ': no field error');
  assert.equal(await page.locator('#report-panel .report').count(), 1, what + ': a report');
}

const SEVEN = [
  ['Llama 3.1 70B', [['select', '#f-model-preset', 'meta-llama/Llama-3.1-70B-Instruct']]],
  ['Qwen3-235B', [['select', '#f-model-preset', 'Qwen/Qwen3-235B-A22B']]],
  ['Qwen3-235B on H200 disaggregated', [['select', '#f-model-preset', 'Qwen/Qwen3-235B-A22B'], ['select', '#f-hardware-gpu', 'h200-141g'],
    ['select', '#f-deployment-mode', 'disaggregated']]],
  ['default disaggregated', [['select', '#f-deployment-mode', 'disaggregated']]],
  ['Mixtral on A100', [['select', '#f-model-preset', 'mistralai/Mixtral-8x7B-v0.1'], ['select', '#f-hardware-gpu', 'a100-80g']]],
  ['nodes 2', [['fill', '#f-hardware-nodes', '2']]],
  ['gpt-oss-120b on one node', [['select', '#f-model-preset', 'openai/gpt-oss-120b'], ['fill', '#f-hardware-nodes', '1']]],
];

for (const [name, edits] of SEVEN) {
  run('one edit gives a report: ' + name, async () => {
    const page = await fresh();
    for (const [kind, sel, value] of edits) {
      await unfold(page, sel);
      await H.nextEval(page, () => (kind === 'select' ? page.selectOption(sel, value) : page.fill(sel, value)));
      await reportShown(page, name + ' after ' + sel + ' = ' + value);
    }
    await H.assertClean(page, assert);
    await page.close();
  });
}

run('a longer mean prompt raises the untouched maximum: a report, and the editor shows the maximum used', async () => {
  const page = await fresh();
  await H.nextEval(page, () => page.fill('#f-workload-input_tokens', '2000'));
  await reportShown(page, 'input mean 2000');
  assert.equal(await page.inputValue('#f-workload-input_tokens_max'), '2000');
  assert.equal((await page.evaluate(() => window.SloEstimator.minimal())).workload.input_tokens_max, undefined, 'derived, not set');
  await H.nextEval(page, () => page.fill('#f-workload-input_tokens', '300'));
  assert.equal(await page.inputValue('#f-workload-input_tokens_max'), '512', 'back to the default maximum');
  await H.assertClean(page, assert);
  await page.close();
});

run('a dense model: EP shows 1, the reference is noted as not applied', async () => {
  const page = await fresh();
  await H.nextEval(page, () => page.selectOption('#f-model-preset', 'meta-llama/Llama-3.1-70B-Instruct'));
  assert.equal(await page.inputValue('#f-deployment-colocated-ep'), '1');
  assert.match(await H.visibleText(page, '#report-panel'), /does not fit .* not applied/);
  await page.close();
});

run('FP8 weight scales follow the model until the user sets them; the link keeps a set value', async () => {
  const page = await fresh();
  await unfold(page, '#f-precision-fp8_scales');
  assert.equal(await page.inputValue('#f-precision-fp8_scales'), 'block', 'DeepSeek ships 128 x 128 block scales');
  await H.nextEval(page, () => page.selectOption('#f-model-preset', 'meta-llama/Llama-3.1-70B-Instruct'));
  assert.equal(await page.inputValue('#f-precision-fp8_scales'), 'tensor', 'Llama: per tensor / channel');
  await H.nextEval(page, () => page.selectOption('#f-precision-fp8_scales', 'block'));
  assert.equal((await page.evaluate(() => window.SloEstimator.minimal())).precision.fp8_scales, 'block');
  await H.nextEval(page, () => page.selectOption('#f-model-preset', 'Qwen/Qwen3-235B-A22B'));
  assert.equal(await page.inputValue('#f-precision-fp8_scales'), 'block', 'the set value stays');
  await H.nextEval(page, () => page.selectOption('#f-precision-weights', 'bf16'));
  assert.equal(await page.isHidden('#f-precision-fp8_scales'), true, 'hidden for BF16 weights');
  await H.assertClean(page, assert);
  await page.close();
});

run('typing into Nodes (select all, Backspace, 8) leaves the pool spanning the cluster', async () => {
  const page = await fresh();
  await page.click('#f-hardware-nodes');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await H.nextEval(page, () => page.keyboard.type('8'));
  await page.waitForTimeout(400);
  const s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.deployment.colocated.gpus, 64);
  assert.deepEqual(await page.evaluate(() => window.SloEstimator.errors()), []);
  await H.nextEval(page, () => page.fill('#f-hardware-nodes', '1e308'));
  assert.ok(!/Infinity/.test(await page.inputValue('#f-deployment-colocated-gpus')), 'no Infinity in the pool');
  await page.close();
});
