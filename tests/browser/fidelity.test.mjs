// Issue 9 on the page: the serving engine and the load kind are editable scenario fields, the
// report answers in the load kind's terms, and predicted figures carry their held-out error band.
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';

const env = H.servedPage();
const run = H.timedRunner(60000);

run('verdicts and the decode chart carry held-out error bands', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#lang=en');
  const band = page.locator('[data-verdict-id="throughput"] .band');
  assert.equal(await band.count(), 1);
  assert.match(await band.textContent(), /^[-+]\d+% … [-+]\d+%, \d+ validated figures$/);
  const zh = await H.openPage(env.browser.context, env.srv.url + '#lang=zh');
  assert.match(await zh.locator('[data-verdict-id="throughput"] .band').textContent(), /留出验证数据/);
  await H.assertClean(page, assert);
  await page.close();
  await zh.close();
});

run('a closed-loop benchmark on another engine: the report says which profile and gives the benchmark figures', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#lang=en');
  await page.click('#grp-deployment > summary');
  await H.nextEval(page, () => page.selectOption('#f-deployment-engine-name', 'vllm'));
  await H.nextEval(page, () => page.selectOption('#f-workload-kind', 'closed_loop'));
  await H.nextEval(page, () => page.fill('#f-workload-concurrency', '16'));
  const doc = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(doc.deployment.engine.name, 'vllm');
  assert.equal(doc.workload.kind, 'closed_loop');
  assert.equal(doc.workload.concurrency, 16);
  const text = await H.visibleText(page, '#report-panel');
  assert.ok(text.includes('Benchmark load: closed loop'), 'the closed-loop section is shown');
  assert.ok(text.includes('Serving engine profile: vLLM'), 'the report names the engine profile');
  assert.ok(await page.locator('[data-row-id="load_tpot"] .band').count() === 1, 'the benchmark TPOT carries a band');
  for (const w of ['NaN', 'Infinity', 'undefined']) assert.ok(!text.includes(w), 'report shows ' + w);
  // A finite run of N = C requests is one wave of prompts sent together: its mean TTFT is longer
  // than the endless loop's steady state.
  const ttft = async () => parseFloat((await page.locator('[data-row-id="load_ttft"]').textContent()).match(/([\d,.]+) ms/)[1].replace(/,/g, ''));
  const endless = await ttft();
  await H.nextEval(page, () => page.fill('#f-workload-requests', '16'));
  assert.equal((await page.evaluate(() => window.SloEstimator.scenario())).workload.requests, 16);
  const oneWave = await ttft();
  assert.ok(oneWave > endless, `one wave ${oneWave} ms vs endless ${endless} ms`);
  await H.assertClean(page, assert);
  await page.close();
});
