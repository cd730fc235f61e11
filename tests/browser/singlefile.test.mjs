// The self-contained slo-estimator.html: opened from file:// (as a downloaded wiki attachment), with a
// hash-based CSP and no request other than its own file.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as H from './helpers.mjs';

let browser, fileUrl, dir;
before(async () => {
  // A copy alone in its own folder: nothing beside it to load.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slo-single-'));
  fs.copyFileSync(path.join(H.buildPage(), 'slo-estimator.html'), path.join(dir, 'SLO estimator (attachment).html'));
  fileUrl = pathToFileURL(path.join(dir, 'SLO estimator (attachment).html')).href;
  browser = await H.launch();
});
after(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const T = 60000;
const run = H.timedRunner(T);

run('single file: CSP uses sha256 hashes, no unsafe-inline/unsafe-eval, everything inlined', async () => {
  const html = fs.readFileSync(new URL(fileUrl), 'utf8');
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)[1];
  assert.ok(!/unsafe-inline|unsafe-eval'/.test(csp.replace("'wasm-unsafe-eval'", '')), csp);
  assert.match(csp, /script-src ('sha256-[A-Za-z0-9+/=]+' )+'wasm-unsafe-eval'/);
  assert.match(csp, /style-src 'sha256-/);
  assert.match(csp, /worker-src blob:/);
  assert.ok(!/<script\b[^>]*\ssrc=/.test(html), 'no external script');
  assert.ok(!/<link[^>]+stylesheet/.test(html), 'no external stylesheet');
  assert.ok(html.includes('u-legend'), 'uPlot (and its stylesheet) inlined');
});

run('single file opened from file:// renders the report, links round-trip', async () => {
  const requests = [];
  const page = await H.openPage(browser.context, null);
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(fileUrl + '#lang=en');
  await H.waitReady(page);
  assert.equal(await page.locator('#report-panel .report').count(), 1);
  assert.equal(await page.evaluate(() => window.SloEstimator.engine()), 'worker-blob', 'the core runs in a blob: Worker from file://');
  await H.nextEval(page, () => page.fill('#f-hardware-nodes', '2'));
  await page.click('#btn-copy-link');
  const link = await page.inputValue('#link-out');
  assert.ok(link.startsWith(fileUrl.split('#')[0] + '#s=1.'), link);
  const other = await H.openPage(browser.context, link);
  assert.deepEqual(await other.evaluate(() => window.SloEstimator.minimal()), await page.evaluate(() => window.SloEstimator.minimal()));
  const remote = requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(remote, [], 'no network request');
  await H.screenshot(page, 'singlefile.png', { fullPage: false });
  await H.assertClean(page, assert);
  await H.assertClean(other, assert);
});

run('single file: embed view and frozen links work from file://', async () => {
  for (const fx of H.readFixtures()) {
    const page = await H.openPage(browser.context, fileUrl + fx.fragment);
    assert.equal(await page.locator('#link-error').count(), 0, fx.file);
    assert.equal(await page.evaluate(() => window.SloEstimator.view), fx.expect.view);
    await H.assertClean(page, assert);
    await page.close();
  }
});
