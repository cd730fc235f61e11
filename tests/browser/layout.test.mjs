// Layout: 360 px phones (no horizontal scroll), a large monitor, screenshots of the full page, the
// embed view and the mobile width (tests/output/, gitignored; look at them), no layout jump.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as H from './helpers.mjs';
import { sampleReport } from './sample-report.mjs';

let srv;
before(async () => { srv = await H.serve(H.buildPage()); });
after(async () => { await srv?.close(); });

const T = 90000;
const run = H.timedRunner(T);

async function withBrowser(viewport, fn, locale) {
  const b = await H.launch({ viewport, locale });
  try { return await fn(b); } finally { await b.close(); }
}

const noHScroll = (page) => page.evaluate(() => ({ sw: document.documentElement.scrollWidth, w: window.innerWidth }));

run('360 px: no horizontal scroll (full page, all groups open, sample report, errors, dialog)', () => withBrowser({ width: 360, height: 740 }, async (b) => {
  const page = await H.openPage(b.context, srv.url + '#lang=zh');
  await page.click('#pane-edit');  // phones show one pane at a time
  for (const d of await page.locator('#editor details').all()) await d.evaluate((el) => { el.open = true; });
  let m = await noHScroll(page);
  assert.ok(m.sw <= m.w, 'scrollWidth ' + m.sw + ' > ' + m.w);
  await H.nextEval(page, () => page.fill('#f-deployment-colocated-ep', '7'));
  m = await noHScroll(page);
  assert.ok(m.sw <= m.w, 'with errors: scrollWidth ' + m.sw);
  await H.nextEval(page, () => page.fill('#f-deployment-colocated-ep', '32'));
  await page.click('#pane-report');
  m = await noHScroll(page);
  assert.ok(m.sw <= m.w, 'with the core report: scrollWidth ' + m.sw);
  await page.evaluate(() => document.querySelector('.report-panel').scrollIntoView());
  await H.screenshot(page, 'mobile-360-core-zh.png', { fullPage: false });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate((r) => window.SloEstimator.renderReport(r), sampleReport);
  m = await noHScroll(page);
  assert.ok(m.sw <= m.w, 'with the sample report: scrollWidth ' + m.sw);
  await H.screenshot(page, 'mobile-360-zh.png', { fullPage: false });
  await page.evaluate(() => document.querySelector('.report-panel').scrollIntoView());
  await H.screenshot(page, 'mobile-360-report.png', { fullPage: false });
  await page.click('#btn-embed');
  m = await noHScroll(page);
  assert.ok(m.sw <= m.w, 'with the embed dialog: scrollWidth ' + m.sw);
  await H.screenshot(page, 'mobile-360-embed-dialog.png', { fullPage: false });
  await H.assertClean(page, assert);
}));

run('360 px embed view: no horizontal scroll', () => withBrowser({ width: 360, height: 640 }, async (b) => {
  const page = await H.openPage(b.context, srv.url + '#s=1.q1YqSy0qzszPU7IyrAUA&lang=en&view=embed');
  await page.evaluate((r) => window.SloEstimator.renderReport(r), sampleReport);
  const m = await noHScroll(page);
  assert.ok(m.sw <= m.w, 'scrollWidth ' + m.sw);
  await H.assertClean(page, assert);
}));

run('screenshots: full page (core report and sample report), embed view, large monitor', () => withBrowser({ width: 1440, height: 900 }, async (b) => {
  const page = await H.openPage(b.context, srv.url + '#lang=en');
  await H.screenshot(page, 'full-core.png', { fullPage: false });
  await page.evaluate((r) => window.SloEstimator.renderReport(r), sampleReport);
  await H.screenshot(page, 'full-sample.png');
  const embed = await H.openPage(b.context, srv.url + '#s=1.q1YqSy0qzszPU7IyrAUA&lang=en&view=embed');
  await embed.setViewportSize({ width: 760, height: 600 });
  await H.screenshot(embed, 'embed-core.png');
  await embed.evaluate((r) => window.SloEstimator.renderReport(r), sampleReport);
  await H.screenshot(embed, 'embed-sample.png');
  await H.assertClean(page, assert);
  await H.assertClean(embed, assert);
  const big = await H.launch({ viewport: { width: 2560, height: 1440 } });
  try {
    const p = await H.openPage(big.context, srv.url + '#lang=zh');
    await p.evaluate((r) => window.SloEstimator.renderReport(r), sampleReport);
    const w = await p.evaluate(() => document.querySelector('.layout').getBoundingClientRect().width);
    assert.ok(w <= 1880, 'content width is capped on a large monitor (' + w + ')');
    await H.screenshot(p, 'large-2560-zh.png', { fullPage: false });
    await H.assertClean(p, assert);
  } finally {
    await big.close();
  }
}));

run('no layout jump while recomputing: the report keeps its place and the status line its height', () => withBrowser({ width: 1366, height: 900 }, async (b) => {
  const page = await H.openPage(b.context, srv.url + '#lang=en');
  const before = await page.evaluate(() => ({ top: document.getElementById('report-panel').getBoundingClientRect().top, status: document.getElementById('status').getBoundingClientRect().height }));
  await page.fill('#f-slo-tpot_ms', '45');
  const during = await page.evaluate(() => ({ top: document.getElementById('report-panel').getBoundingClientRect().top, status: document.getElementById('status').getBoundingClientRect().height, text: document.getElementById('status').textContent }));
  await page.waitForFunction(() => document.getElementById('status').dataset.state === 'ok');
  const after = await page.evaluate(() => ({ top: document.getElementById('report-panel').getBoundingClientRect().top, status: document.getElementById('status').getBoundingClientRect().height }));
  assert.equal(during.text, 'Computing…');
  assert.equal(during.top, before.top);
  assert.equal(after.top, before.top);
  assert.equal(during.status, before.status);
  assert.equal(after.status, before.status);
  await H.assertClean(page, assert);
}));

run('keyboard: every control is reachable with Tab and focus is visible', () => withBrowser({ width: 1366, height: 900 }, async (b) => {
  const page = await H.openPage(b.context, srv.url + '#lang=en');
  const seen = new Set();
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => { const a = document.activeElement; return a ? (a.id || a.tagName + ':' + (a.textContent || '').slice(0, 20)) : ''; });
    seen.add(id);
  }
  for (const id of ['btn-copy-link', 'btn-embed', 'btn-print', 'btn-lang', 'f-name', 'f-model-preset', 'f-hardware-nodes']) assert.ok(seen.has(id), id + ' reachable by Tab');
  const outline = await page.evaluate(() => { document.getElementById('f-hardware-nodes').focus(); return getComputedStyle(document.activeElement).outlineStyle; });
  assert.notEqual(outline, 'none');
  await H.assertClean(page, assert);
}));
