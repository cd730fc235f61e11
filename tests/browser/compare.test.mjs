// Compare A/B: pin the current scenario as A, edit B; the Compare tab shows both side by side with
// differing rows highlighted and B - A; the link carries both ("a" = A) and reopens the comparison.
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';

const env = H.servedPage();
const run = H.timedRunner(60000);

run('compare: pin A, edit B, both side by side; the link carries both', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#s=1.q1YqSy0qzszPU7IyrAUA&lang=en');
  assert.equal(await page.isHidden('#tab-compare'), true, 'no Compare tab before a pin');
  await page.click('#btn-pin');
  await page.waitForSelector('#compare-view');
  assert.equal(await page.getAttribute('#tab-compare', 'aria-selected'), 'true');
  assert.match(await page.textContent('#compare-count'), /^0 rows differ/);
  await page.click('#tab-corrected');
  await H.nextEval(page, () => page.click('#btn-apply-recommended'));
  await page.click('#tab-compare');
  await page.waitForSelector('#compare-view tr.differs');
  const text = await page.textContent('#compare-view');
  assert.match(text, /A: Meets 2 of 5 targets/);
  assert.match(text, /B: Meets every target/);
  const cluster = await page.locator('#compare-view tr.differs', { hasText: 'Cluster' }).textContent();
  assert.match(cluster, /4 x 8 = 32 GPUs.*9 x 8 = 72 GPUs/);
  assert.match(await page.locator("#compare-view tr.differs", { hasText: "Throughput" }).textContent(), /\+\d[\d,]* tokens\/s \(\+\d[\d,]*%\)/, "B - A of a number");
  const link = await page.evaluate(() => window.SloEstimator.link());
  assert.match(link, /&a=1\.[A-Za-z0-9_-]+$/);
  // The line charts both reports carry, overlaid: A's series and B's in one chart.
  await page.waitForFunction(() => document.querySelectorAll('#compare-view .compare-chart canvas').length === 2);
  const labels = await page.evaluate(() => [...SLO.charts.live].filter((c) => c.canvas.closest('#compare-view'))
    .map((c) => c.info().labels));
  assert.deepEqual(labels.map((l) => l.filter((x) => /^[AB]: /.test(x)).length > 0), [true, true]);
  assert.ok(labels.flat().includes('A: decode pool') && labels.flat().includes('B: decode pool'), labels.flat().join(', '));
  await H.screenshot(page, 'compare-1440-en.png', { fullPage: false });
  await page.locator('#compare-view .compare-chart').first().scrollIntoViewIfNeeded();
  await H.screenshot(page, 'compare-charts-1440-en.png', { fullPage: false });
  // The embed view of the same link: the comparison, compact (no charts, only the rows that differ).
  const embed = await H.openPage(env.browser.context, link.replace('&lang=en', '&lang=en&view=embed'));
  await embed.waitForSelector('#compare-view');
  assert.equal(await embed.locator('#compare-view canvas').count(), 0);
  assert.match(await embed.textContent('#compare-view'), /A: Meets 2 of 5 targets[\s\S]*B: Meets every target/);
  assert.equal(await embed.locator('#compare-view tbody tr:not(.differs)').count() <= 5, true, 'scenario rows only where they differ');
  await H.screenshot(embed, 'compare-embed-800.png', { fullPage: true });
  await H.assertClean(embed, assert);
  await embed.close();
  // The link reopens the comparison in another page (zh, phone width).
  const other = await H.openPage(env.browser.context, null);
  await other.setViewportSize({ width: 390, height: 844 });
  await other.goto(link.replace('lang=en', 'lang=zh'), { waitUntil: 'load' });
  await H.waitReady(other);
  await other.waitForSelector('#compare-view tr.differs');
  assert.equal(await other.getAttribute('#tab-compare', 'aria-selected'), 'true');
  assert.match(await other.textContent('#compare-view'), /9 x 8 = 72/);
  assert.ok(await other.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways page scroll');
  await H.screenshot(other, 'compare-390-zh.png', { fullPage: false });
  // Unpin: the tab goes away and the link no longer carries A.
  await other.click('#btn-unpin');
  assert.equal(await other.isHidden('#tab-compare'), true);
  await other.waitForFunction(() => !/&a=/.test(window.SloEstimator.link()));
  await H.assertClean(page, assert);
  await H.assertClean(other, assert);
  await page.close();
  await other.close();
});

run('compare: a link whose pinned scenario is invalid names it and opens B alone', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#s=1.q1YqSy0qzszPU7IyrAUA&lang=en&a=1.@@@');
  assert.match(await page.textContent('#link-error'), /pinned scenario \(A\)/);
  assert.equal(await page.evaluate(() => window.SloEstimator.pinned()), null);
  assert.equal(await page.locator('#report-panel .report').count(), 1, "B's report is shown");
  await H.assertClean(page, assert);
  await page.close();
});

run('cost: a price per GPU-hour gives USD per million tokens in the report and in the comparison', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#lang=en');
  assert.equal(await page.locator('#sec-cost').count(), 0, 'no price, no cost');
  await page.click('#btn-pin');
  await page.click('#tab-corrected');
  await H.nextEval(page, () => page.fill('#f-hardware-gpu_hour_usd', '2.5'));
  const cost = await page.textContent('#sec-cost');
  assert.match(cost, /80\.00 USD\/h/);
  assert.match(cost, /Per million output tokens\s*[\d.]+ USD\/M tokens/);
  await page.click('#tab-compare');
  const row = await page.locator('#compare-view tr.differs', { hasText: 'Per million output tokens' }).textContent();
  assert.match(row, /not set.*USD\/M tokens/, 'A has no price, B has one');
  await H.assertClean(page, assert);
  await page.close();
});
