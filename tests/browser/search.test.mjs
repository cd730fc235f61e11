// The "Find best configuration" tab: the core's search in its own worker (progress, cancel, edits
// cancel it), the frontier chart and the sortable table, Apply, launch commands, and the search
// settings in the share link (a link with "find" opens the tab and runs the search).
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';

const env = H.servedPage();
const run = H.timedRunner(120000);

async function searched(page, timeout = 90000) {
  await page.waitForFunction(() => window.SloEstimator.search() && !SLO.searchPanel.isRunning(), null, { timeout });
}

run('search: frontier chart and table from the core, sortable, Apply, launch commands, link', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url, { viewport: { width: 1440, height: 900 } });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.click('#tab-search');
  await page.click('#search-run');
  assert.ok(await page.locator('#search-progress').count() + await page.locator('#search-stats').count() > 0, 'progress or a result shows');
  await searched(page);
  const r = await page.evaluate(() => window.SloEstimator.search());
  assert.ok(r.frontier.length >= 3, 'a frontier of several configurations');
  assert.equal(r.gpus, 32);
  // Chart: one canvas with ink, x = tokens/s per user, y = tokens/s per GPU, the TPOT limit at 1000 / TPOT.
  assert.ok(await H.canvasInk(page, '#search-chart canvas') > 2000, 'the frontier chart is drawn');
  assert.match(await page.textContent('#search-chart figcaption'), /32 GPUs/);
  // Table: every frontier configuration once; sorting by tokens/s per user orders the rows.
  const rows = await page.locator('#search-table tbody tr').count();
  assert.ok(rows >= r.frontier.length, rows + ' rows for ' + r.frontier.length + ' frontier points');
  await page.click('button.sort[data-sort="tpu"]');
  const col = async () => (await page.locator('#search-table tbody tr td:nth-child(3)').allTextContents()).map((s) => Number(s.replace(/,/g, '')));
  const desc = await col();
  assert.deepEqual(desc, [...desc].sort((a, b) => b - a), 'descending by tokens/s per user');
  await page.click('button.sort[data-sort="tpu"]');
  const asc = await col();
  assert.deepEqual(asc, [...asc].sort((a, b) => a - b), 'ascending after a second click');
  assert.equal(await page.getAttribute('#search-table th[aria-sort="ascending"] button', 'data-sort'), 'tpu');
  // The link carries the search settings.
  assert.match(await page.evaluate(() => window.SloEstimator.link()), /&find=frontier\.0\.cdmk$/);
  // Launch commands of the first row, per engine.
  await page.click('#search-table tbody tr:first-child button[data-launch]');
  await page.waitForSelector('#search-launch pre.launch-cmd');
  assert.match(await page.textContent('#search-launch'), /sglang\.launch_server/);
  await page.selectOption('#search-engine', 'vllm');
  await page.waitForFunction(() => /vllm serve/.test(document.querySelector('#search-launch').textContent));
  await H.screenshot(page, 'search-1440-en.png');
  // Apply: the report shows that configuration.
  const want = await page.evaluate(() => {
    const rr = window.SloEstimator.search();
    const firstRowLabel = document.querySelector('#search-table tbody tr:first-child td.cfg').textContent;
    return rr.top.concat(rr.frontier).find((p) => firstRowLabel.endsWith(p.label)).scenario.deployment;
  });
  await H.nextEval(page, () => page.click('#search-table tbody tr:first-child button[data-apply]'));
  assert.equal(await page.getAttribute('#tab-corrected', 'aria-selected'), 'true');
  const got = (await page.evaluate(() => window.SloEstimator.scenario())).deployment;
  assert.equal(got.mode, want.mode);
  assert.deepEqual(got[want.mode === 'colocated' ? 'colocated' : 'decode'], want[want.mode === 'colocated' ? 'colocated' : 'decode']);
  assert.deepEqual(await page.evaluate(() => window.SloEstimator.errors()), []);
  await H.assertClean(page, assert);
  await page.close();
});

run('search: cancel, and an edit cancels a running search; a new search then runs', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url);
  await page.click('#tab-search');
  await page.selectOption('#search-mode', 'fewest');
  await page.click('#search-run');
  await page.waitForSelector('#search-progress');
  await page.click('#search-cancel');
  assert.equal(await page.locator('#search-progress').count(), 0, 'no progress bar after cancel');
  assert.equal(await page.evaluate(() => SLO.searchPanel.isRunning()), false);
  // A running search is cancelled by an edit of the scenario.
  await page.click('#search-run');
  await page.waitForSelector('#search-progress');
  await H.nextEval(page, async () => { await page.fill('#f-workload-output_tokens', '900'); });
  assert.equal(await page.evaluate(() => SLO.searchPanel.isRunning()), false, 'the edit cancelled the search');
  // The replacement worker runs the next search.
  await page.selectOption('#search-mode', 'frontier');
  await page.click('#search-run');
  await searched(page);
  assert.equal(await page.locator('#search-stale').count(), 0);
  await page.fill('#f-workload-output_tokens', '1000');
  await page.waitForSelector('#search-stale');
  await H.assertClean(page, assert);
  await page.close();
});

run('search: a link with find opens the tab in its language and runs the search (phone width)', async () => {
  const { context } = env.browser;
  const page = await H.openPage(context, null);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(env.srv.url + '#s=1.q1YqSy0qzszPU7IyrAUA&lang=zh&find=frontier.16.cdk', { waitUntil: 'load' });
  await H.waitReady(page);
  await searched(page);
  assert.equal(await page.locator('#link-error').count(), 0, 'no link error');
  assert.equal(await page.getAttribute('#tab-search', 'aria-selected'), 'true');
  const r = await page.evaluate(() => window.SloEstimator.search());
  assert.equal(r.gpus, 16);
  assert.ok(r.frontier.every((p) => p.scenario.deployment.mtp.draft_tokens === 0), 'MTP left out by the link');
  assert.equal(await page.isChecked('#search-mtp'), false);
  assert.match(await page.textContent('#search-panel'), /寻找最佳配置/);
  // The table scrolls inside its own box; the page does not scroll sideways.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways page scroll');
  await H.screenshot(page, 'search-390-zh.png');
  await H.assertClean(page, assert);
  await page.close();
});

run('search: a bad find parameter is named in the link notice; the scenario still opens', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#s=1.q1YqSy0qzszPU7IyrAUA&find=frontier.99999.cd<script>');
  assert.equal(await page.locator('#link-error').count(), 1);
  assert.match(await page.textContent('#link-error'), /search settings/);
  assert.equal(await page.evaluate(() => window.SloEstimator.search()), null);
  assert.deepEqual(await page.evaluate(() => window.SloEstimator.errors()), []);
  await H.assertClean(page, assert);
  await page.close();
});

run('headline: targets met, the largest miss, and one click applies the smallest cluster meeting every target', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#s=1.q1YqSy0qzszPU7IyrAUA&lang=en');
  const text = await page.textContent('#headline');
  assert.match(text, /^Meets 2 of 5 targets\. Throughput \(input \+ output tokens\/s\): short by \d+%/);
  const rec = await page.evaluate(() => window.SloEstimator.recommended());
  assert.ok(rec && rec.gpus > 32, 'a larger cluster is recommended');
  await H.screenshot(page, 'headline-1440-en.png', { fullPage: false });
  await H.nextEval(page, () => page.click('#btn-apply-recommended'));
  const s = await page.evaluate(() => window.SloEstimator.scenario());
  assert.equal(s.hardware.nodes * s.hardware.gpus_per_node, rec.gpus);
  assert.deepEqual(await page.evaluate(() => window.SloEstimator.errors()), []);
  assert.match(await page.textContent('#headline'), /^Meets every target/);
  assert.equal(await page.locator('#btn-apply-recommended').count(), 0, 'nothing left to apply');
  await H.assertClean(page, assert);
  await page.close();
});
