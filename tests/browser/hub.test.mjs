// A Hugging Face id fetches the model's config.json from the Hub in the browser (CSP connect-src
// allows https://huggingface.co only). The Hub is intercepted: a fixture config.json (Qwen2.5-7B-
// Instruct's, as published), a gated model (401), a missing one (404) and no network.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as H from './helpers.mjs';

const env = H.servedPage();
const run = H.timedRunner(60000);
const QWEN = readFileSync(new URL('../fixtures/hub/Qwen--Qwen2.5-7B-Instruct.config.json', import.meta.url), 'utf8');
const CORS = { 'access-control-allow-origin': '*', 'content-type': 'application/json' };

async function hub(page, seen) {
  await page.route('https://huggingface.co/**', (route) => {
    const url = route.request().url();
    seen.push(url);
    if (url === 'https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/resolve/main/config.json') return route.fulfill({ status: 200, headers: CORS, body: QWEN });
    if (url.includes('/meta-llama/')) return route.fulfill({ status: 401, headers: CORS, body: '{"error":"Access to model meta-llama/Llama-3.1-8B is restricted."}' });
    if (url.includes('/nobody/')) return route.fulfill({ status: 404, headers: CORS, body: '{"error":"Repository not found"}' });
    return route.abort('internetdisconnected');
  });
}

async function fetchId(page, id) {
  await page.evaluate(() => { document.getElementById('grp-model') && (document.getElementById('grp-model').open = true); document.getElementById('config-box').open = true; });
  await page.fill('#hf-id', id);
  await page.click('#btn-hf-fetch');
}

run('hub: an id fetches config.json; the model is named after its repo and evaluated', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#lang=en');
  const seen = [];
  await hub(page, seen);
  await H.nextEval(page, () => fetchId(page, 'Qwen/Qwen2.5-7B-Instruct'));
  await page.waitForFunction(() => /Qwen2\.5-7B-Instruct/.test(document.querySelector('#report-panel h2, #report-panel h1').textContent));
  assert.deepEqual(seen, ['https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/resolve/main/config.json']);
  const text = await page.textContent('#report-panel');
  assert.match(text, /total7,615,616,512/, 'Qwen2.5-7B: 7,615,616,512 parameters (the Hub model card: 7.61B)');
  await H.screenshot(page, 'hub-1440-en.png', { fullPage: false });
  await H.assertClean(page, assert);
  await page.close();
});

run('hub: gated, missing, offline and a malformed id are each one clear message; nothing else changes', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#lang=zh');
  const seen = [];
  await hub(page, seen);
  const before = await page.evaluate(() => window.SloEstimator.link());
  const cases = [['meta-llama/Llama-3.1-8B', /拒绝访问（401）.*需授权或为私有/], ['nobody/none', /没有 nobody\/none 的 config\.json（404）/],
    ['Qwen/Offline-Model', /无法连接 huggingface\.co/], ['not an id', /不是 Hugging Face 模型 ID/], ['../../etc/passwd', /不是 Hugging Face 模型 ID/]];
  for (const [id, msg] of cases) {
    await fetchId(page, id);
    await page.waitForFunction((m) => { const e = document.getElementById('config-local-error'); return e && !e.hidden && new RegExp(m).test(e.textContent); }, msg.source);
  }
  assert.equal(seen.length, 3, 'a malformed id is never requested');
  assert.equal(await page.evaluate(() => window.SloEstimator.link()), before, 'the scenario is untouched');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('#pane-edit');
  await page.evaluate(() => document.getElementById('config-box').scrollIntoView());
  await H.screenshot(page, 'hub-390-zh.png', { fullPage: false });
  // Chromium reports the refused and failed requests; they are this test's own.
  page.problems = page.problems.filter((p) => !/huggingface\.co|status of 40[14]|ERR_INTERNET_DISCONNECTED/.test(p));
  await H.assertClean(page, assert);
  await page.close();
});
