// Wiki embedding: the embed view, height reporting to the parent, the iframe snippet dialog.
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';

const HOST = (src) => `<!doctype html><html><head><meta charset="utf-8"><title>wiki host</title><link rel="icon" href="data:,"></head><body>
<h1>Capacity plan</h1>
<iframe id="f" src="${src}" width="100%" height="200" loading="lazy" style="border:1px solid #ccc"></iframe>
<script>
window.heights = [];
addEventListener('message', function (e) {
  var d = e.data;
  if (!d || d.type !== 'slo-estimator:height') return;
  window.heights.push(d.height);
  var f = document.getElementById('f');
  if (f.contentWindow === e.source) f.height = Math.ceil(d.height);
});
</script></body></html>`;

const env = H.servedPage({
  extra: { '/host.html': HOST('/index.html#s=1.q1YqSy0qzszPU7IyrAUA&lang=en&view=embed') },
  launchOptions: { permissions: ['clipboard-read', 'clipboard-write'] },
});

const T = 60000;
const run = H.timedRunner(T);

run('embed view: compact report, no editor, link back to the full page with the same scenario', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#s=1.q1YqSy0qzszPU7IyrAUA&lang=zh&view=embed');
  assert.equal(await page.locator('#editor').count(), 0);
  assert.equal(await page.locator('.topbar').count(), 0);
  assert.equal(await page.locator('#report-panel .report.compact').count(), 1);
  // Leads with the headline and the verdicts (failing first); no chart; fits a wiki frame (issue 12,
  // defect 11: it was 1,480 px tall and led with the memory chart).
  assert.deepEqual(await page.evaluate(() => [...document.querySelector('#report-panel .report').children].slice(0, 3).map((e) => e.className)),
    ['report-title', 'headline', 'verdicts-block']);
  assert.equal(await page.locator('#report-panel canvas').count(), 0);
  await page.setViewportSize({ width: 800, height: 600 });
  assert.ok(await page.evaluate(() => document.getElementById('embed-root').getBoundingClientRect().height) < 1250, 'compact at 800 px');
  const href = await page.getAttribute('#open-full', 'href');
  assert.match(href, /^http:\/\/127\.0\.0\.1:\d+\/#s=1\.[A-Za-z0-9_-]+&lang=zh$/, 'full page, same scenario, no view=embed');
  assert.equal(await page.getAttribute('#open-full', 'target'), '_blank');
  assert.match(await page.getAttribute('#open-full', 'rel'), /noopener/);
  assert.equal(await page.textContent('#open-full'), '在 SLO 估算器中打开 ↗');
  const full = await H.openPage(env.browser.context, href);
  assert.deepEqual(await full.evaluate(() => window.SloEstimator.minimal()), await page.evaluate(() => window.SloEstimator.minimal()));
  assert.equal(await full.locator('#editor').count(), 1);
  await H.assertClean(page, assert);
  await H.assertClean(full, assert);
  await page.close();
  await full.close();
});

run('embed view reports its height to the parent with postMessage', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + 'host.html', { wait: false });
  await page.waitForFunction(() => window.heights.length > 0, null, { timeout: 30000 });
  const frame = page.frame({ url: /view=embed/ });
  await frame.waitForFunction(() => window.SloEstimator && window.SloEstimator.evalCount() > 0);
  await page.waitForFunction(() => Number(document.getElementById('f').height) > 100);
  const reported = await page.evaluate(() => window.heights[window.heights.length - 1]);
  const actual = await frame.evaluate(() => Math.ceil(document.getElementById('embed-root').getBoundingClientRect().height));
  assert.ok(Math.abs(reported - actual) <= 1, 'reported ' + reported + ' vs ' + actual);
  // a size change is reported again
  const n = await page.evaluate(() => window.heights.length);
  await frame.evaluate(() => { document.getElementById('report-panel').appendChild(document.createElement('div')).className = 'test-grow'; document.querySelector('.test-grow').textContent = 'x'; document.querySelector('.test-grow').style.height = '300px'; });
  await page.waitForFunction((k) => window.heights.length > k, n);
  const grown = await page.evaluate(() => window.heights[window.heights.length - 1]);
  assert.ok(grown >= reported + 150, 'grew from ' + reported + ' to ' + grown);
  assert.equal(Number(await page.getAttribute('#f', 'height')), grown, 'the host resized the iframe');
  const frameProblems = page.problems.filter((p) => !/test-grow/.test(p));
  assert.deepEqual(frameProblems, []);
  await H.assertClean(page, assert);
  await page.close();
});

run('embed dialog produces a working iframe snippet', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#lang=en');
  await H.nextEval(page, () => page.fill('#f-slo-tpot_ms', '45'));
  await page.click('#btn-embed');
  assert.equal(await page.isVisible('#embed-dialog'), true);
  const snippet = await page.inputValue('#embed-snippet');
  const m = /^<iframe src="([^"]+)" width="100%" height="(\d+)" loading="lazy" title="([^"]*)" style="border:0"><\/iframe>$/.exec(snippet);
  assert.ok(m, 'snippet shape: ' + snippet);
  const src = m[1].replace(/&amp;/g, '&');
  assert.match(src, /^http:\/\/127\.0\.0\.1:\d+\/#s=1\.[A-Za-z0-9_-]+&lang=en&view=embed$/);
  // height and base address are editable
  await page.fill('#embed-height', '720');
  assert.match(await page.inputValue('#embed-snippet'), /height="720"/);
  await page.click('#embed-copy');
  await page.waitForFunction(() => document.getElementById('toast').textContent === 'Snippet copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await page.inputValue('#embed-snippet'));
  // Escape closes the dialog (keyboard)
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#embed-dialog'), false);
  // the snippet works in a host page
  const host = await env.browser.context.newPage();
  const problems = [];
  host.on('pageerror', (e) => problems.push(String(e)));
  await host.goto(env.srv.url + 'host.html');
  await host.setContent('<!doctype html><body>' + (await page.inputValue('#embed-snippet')) + '</body>');
  const frame = await (await host.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => window.SloEstimator && window.SloEstimator.evalCount() > 0);
  assert.equal(await frame.evaluate(() => window.SloEstimator.scenario().slo.tpot_ms), 45);
  assert.equal(await frame.evaluate(() => window.SloEstimator.view), 'embed');
  assert.deepEqual(problems, []);
  await host.close();
  await H.assertClean(page, assert);
  await page.close();
});

run('the snippet escapes a hostile scenario name', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#lang=en');
  await H.nextEval(page, () => page.fill('#f-name', '"><script>alert(1)</script>'));
  await page.click('#btn-embed');
  const snippet = await page.inputValue('#embed-snippet');
  assert.ok(!snippet.includes('<script>'), snippet);
  assert.match(snippet, /&quot;&gt;&lt;script&gt;/);
  await H.assertClean(page, assert);
  await page.close();
});
