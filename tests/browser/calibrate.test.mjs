// Calibrate from a pasted benchmark: the output of sglang.bench_serving / vllm bench serve /
// genai-perf becomes the reference measurement; the report shows measured vs predicted per figure,
// "Calibrate to it" projects the targets with the implied efficiency, and the link carries it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as H from './helpers.mjs';

const env = H.servedPage();
const run = H.timedRunner(60000);
const fixture = (name) => readFileSync(new URL('../fixtures/bench/' + name, import.meta.url), 'utf8');

async function paste(page, text) {
  await page.evaluate(() => { document.getElementById('grp-reference').open = true; });
  await page.fill('#bench-paste', text);
  await page.click('#btn-bench-use');
}

run('calibrate: a pasted vllm output becomes the reference, compared per figure, and calibrates on request', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#lang=en');
  await H.nextEval(page, () => paste(page, fixture('vllm.txt')));
  assert.match(await page.textContent('#bench-paste-status'), /^Read vllm text output: 500 requests, 2,048 input \/ 128 output tokens, closed loop of 32 clients/);
  const sec = page.locator('#sec-calibration');
  assert.match(await sec.textContent(), /vllm benchmark \(pasted\)/);
  const rows = sec.locator('[data-table-id="reference_figures"] tbody tr');
  assert.equal(await rows.count(), 3, 'TTFT, TPOT and throughput');
  assert.match(await rows.nth(1).textContent(), /TPOT \(mean\)\s*27\.6 ms/);
  assert.match(await sec.textContent(), /Target projected with it\s*no/);
  assert.equal(await page.isChecked('#f-reference-measured-observed'), true, 'the editor says the figures were observed at the run\'s load');
  await H.screenshot(page, 'calibrate-1440-en.png', { fullPage: false });
  await H.nextEval(page, () => page.click('#btn-bench-calibrate'));
  assert.match(await page.locator('#sec-calibration').textContent(), /Target projected with it\s*yes/);
  // The link carries the pasted reference and its calibration.
  const link = await page.evaluate(() => window.SloEstimator.link());
  const other = await H.openPage(env.browser.context, null);
  await other.setViewportSize({ width: 390, height: 844 });
  await other.goto(link.replace('lang=en', 'lang=zh'), { waitUntil: 'load' });
  await H.waitReady(other);
  const zh = await other.locator('#sec-calibration').textContent();
  assert.match(zh, /vllm benchmark \(pasted\)/);
  assert.match(zh, /按此效率投射目标\s*是/);
  assert.ok(await other.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways page scroll');
  await other.evaluate(() => document.getElementById('sec-calibration').scrollIntoView());
  await H.screenshot(other, 'calibrate-390-zh.png', { fullPage: false });
  await H.assertClean(page, assert);
  await H.assertClean(other, assert);
  await page.close();
  await other.close();
});

run('calibrate: anything else is one clear message and the scenario is untouched', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#lang=en');
  const before = await page.evaluate(() => window.SloEstimator.link());
  await paste(page, 'Successful requests: 10\nhello');
  await page.waitForSelector('#bench-paste-status.field-error');
  assert.match(await page.textContent('#bench-paste-status'), /benchmark: .*sglang\.bench_serving, vllm bench serve or genai-perf/);
  assert.equal(await page.isHidden('#btn-bench-calibrate'), true);
  assert.equal(await page.evaluate(() => window.SloEstimator.link()), before);
  // genai-perf's console table: the load from Little's law, said so.
  await H.nextEval(page, () => paste(page, fixture('genai-perf.txt')));
  assert.match(await page.textContent('#bench-paste-status'), /closed loop of 16 clients \(by Little's law/);
  await H.assertClean(page, assert);
  await page.close();
});
