// Share links: round trip, frozen fixture links of earlier releases, hostile and broken links.
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import * as H from './helpers.mjs';

const env = H.servedPage({ launchOptions: { permissions: ['clipboard-read', 'clipboard-write'] } });

const T = 60000;
const run = H.timedRunner(T);
const b64u = (buf) => Buffer.from(buf).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const f1 = (text) => '1.' + b64u(zlib.deflateRawSync(Buffer.from(text)));
const f0 = (text) => '0.' + b64u(Buffer.from(text));

function get(obj, path) {
  return path.split('.').reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), obj);
}

run('share link round trip: exact scenario and the same report', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#lang=en');
  await H.nextEval(page, () => page.fill('#f-name', 'Round trip <b>bold</b> & "quotes" · 中文'));
  await H.nextEval(page, () => page.fill('#f-hardware-nodes', '2'));
  await H.nextEval(page, () => page.fill('#f-slo-concurrent_sessions', '96'));
  await H.nextEval(page, () => page.fill('#f-workload-context_length', '16384'));
  await page.click('#grp-precision > summary');
  await H.nextEval(page, () => page.selectOption('#f-scheme', 'w4a8c8'));
  await page.click('#btn-copy-link');
  await page.waitForSelector('#toast.show');
  const toast = await page.textContent('#toast');
  assert.ok(toast === 'Link copied', 'visible confirmation: ' + toast);
  const link = await page.inputValue('#link-out');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link, 'the clipboard holds the link');
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/#s=1\.[A-Za-z0-9_-]+&lang=en$/);
  const fragment = link.slice(link.indexOf('#'));
  assert.ok(fragment.length < 400, 'a typical link stays under 400 characters (' + fragment.length + ')');
  const want = await page.evaluate(() => ({ s: window.SloEstimator.scenario(), m: window.SloEstimator.minimal(), r: window.SloEstimator.report() }));
  const other = await H.openPage(env.browser.context, link);
  const got = await other.evaluate(() => ({ s: window.SloEstimator.scenario(), m: window.SloEstimator.minimal(), r: window.SloEstimator.report() }));
  assert.deepEqual(got.s, want.s, 'the same normalized scenario');
  assert.deepEqual(got.m, want.m, 'the same minimal document');
  assert.deepEqual(got.r, want.r, 'the same report');
  assert.equal(await other.inputValue('#f-name'), 'Round trip <b>bold</b> & "quotes" · 中文');
  assert.equal(await other.locator('#report-panel b').count(), 0, 'the name is text, not HTML');
  assert.equal(await other.isVisible('#link-error'), false);
  await H.assertClean(page, assert);
  await H.assertClean(other, assert);
  await page.close();
  await other.close();
});

for (const fx of H.readFixtures()) {
  run('frozen link ' + fx.file + ': ' + fx.description, async () => {
    const page = await H.openPage(env.browser.context, env.srv.url + fx.fragment);
    assert.equal(await page.locator('#link-error').count(), 0, 'no link error');
    assert.deepEqual(await page.evaluate(() => window.SloEstimator.errors()), []);
    const s = await page.evaluate(() => window.SloEstimator.scenario());
    for (const [p, v] of Object.entries(fx.expect.fields)) assert.deepEqual(get(s, p), v, p);
    assert.equal(await page.evaluate(() => window.SloEstimator.lang), fx.expect.lang);
    assert.equal(await page.evaluate(() => window.SloEstimator.view), fx.expect.view);
    assert.equal(await page.evaluate(() => document.documentElement.lang), fx.expect.lang === 'zh' ? 'zh-CN' : 'en');
    if (fx.expect.tab) assert.equal(await page.getAttribute('#tab-' + fx.expect.tab, 'aria-selected'), 'true', 'opens on the ' + fx.expect.tab + ' tab');
    if (fx.expect.find) assert.deepEqual(await page.evaluate(() => SLO.searchPanel.settings()), fx.expect.find, 'search settings');
    if (fx.expect.pinned) {
      assert.ok(await page.evaluate(() => window.SloEstimator.pinned()), 'A is pinned');
      await page.waitForSelector('#compare-view');
    }
    if (fx.expect.view === 'full') {
      // the editor shows the restored values
      for (const [p, v] of Object.entries(fx.expect.fields)) {
        if (p.startsWith('model.config.')) continue;
        const id = '#f-' + p.replace(/[^A-Za-z0-9_]/g, '-');
        if (await page.locator(id).count()) assert.equal(await page.inputValue(id), String(v), id);
      }
    } else {
      assert.equal(await page.locator('#editor').count(), 0, 'embed view has no editor');
    }
    await H.assertClean(page, assert);
    await page.close();
  });
}

// Hostile or broken links: a clear error, the default scenario (an invalid scenario: the sender's,
// its errors marked), nothing executed or injected.
const DEFAULT_MIN = { version: 2 };
const hostile = [
  ['script in the scenario name (format 1)', () => '#s=' + f1(JSON.stringify({ version: 1, name: '<img src=x onerror=alert(1)><script>alert(2)</script>' })), 'loads'],
  ['script in the scenario name (format 0)', () => '#s=' + f0(JSON.stringify({ version: 1, name: '"><svg onload=alert(3)>' })), 'loads'],
  ['broken base64', () => '#s=1.@@@***not-base64', 'link_err_base64'],
  ['impossible base64 length', () => '#s=1.A', 'link_err_base64'],
  ['not deflate data', () => '#s=1.' + b64u(Buffer.from('this is not deflate data at all, just text')), 'link_err_inflate'],
  ['truncated deflate', () => { const s = f1(JSON.stringify({ version: 1, name: 'x'.repeat(300), slo: { tpot_ms: 40 } })); return '#s=' + s.slice(0, Math.floor(s.length / 2)); }, 'link_err_inflate'],
  ['not JSON', () => '#s=' + f1('alert(1)//'), 'link_err_json'],
  ['JSON array', () => '#s=' + f0('[1,2,3]'), 'link_err_json'],
  ['a newer link format', () => '#s=7.' + b64u(Buffer.from('{}')), 'link_err_newer'],
  ['no format prefix', () => '#s=eyJ2ZXJzaW9uIjoxfQ', 'link_err_format'],
  ['a valid link with an invalid scenario', () => '#s=' + f1(JSON.stringify({ version: 1, hardware: { nodes: -3 }, evil: '<script>' })), 'link_err_invalid'],
  ['a 1 MB fragment', () => '#s=0.' + 'A'.repeat(1024 * 1024), 'link_err_too_long'],
  ['a deflate bomb (2 MB of spaces in 2 KB)', () => '#s=' + f1('{"version":1,"name":"' + ' '.repeat(2 * 1024 * 1024) + '"}'), 'link_err_big'],
];

for (const [name, make, expect] of hostile) {
  run('hostile link: ' + name, async () => {
    const frag = make();
    const page = await H.openPage(env.browser.context, env.srv.url + frag + '&lang=en');
    await page.waitForTimeout(200);
    assert.deepEqual(page.dialogs, [], 'no dialog fired');
    const injected = await page.evaluate(() => ({
      img: document.querySelectorAll('img').length,
      svg: document.querySelectorAll('svg').length,
      scripts: [...document.scripts].filter((s) => !s.src && !s.dataset.src).length,
      handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).length,
    }));
    assert.deepEqual(injected, { img: 0, svg: 0, scripts: 0, handlers: 0 }, 'no injected element');
    if (expect === 'loads') {
      assert.equal(await page.locator('#link-error').count(), 0);
      const name = (await page.evaluate(() => window.SloEstimator.scenario())).name;
      assert.match(name, /alert|svg/);
      assert.ok((await page.textContent('.report-title')).includes(name), 'shown as text');
    } else if (expect === 'link_err_invalid') {
      // The sender's scenario opens with every error listed and its fields marked (issue 12, defect 11).
      assert.equal(await page.isVisible('#link-error'), true, 'a clear error is shown');
      const listed = await page.locator('#link-error li').allTextContents();
      assert.ok(listed.some((x) => /hardware.nodes/.test(x)) && listed.some((x) => /evil/.test(x)), 'every error listed: ' + listed.join(' / '));
      assert.match(await page.textContent('#link-error'), /sender's scenario is open/);
      assert.equal(await page.inputValue('#f-hardware-nodes'), '-3', 'the sender\'s value, not the default');
      assert.equal(await page.getAttribute('#f-hardware-nodes', 'aria-invalid'), 'true');
      assert.ok((await page.evaluate(() => window.SloEstimator.errors())).length >= 2);
      assert.equal(await page.locator('#report-panel .report').count(), 0, 'no report for an invalid scenario');
    } else {
      assert.equal(await page.isVisible('#link-error'), true, 'a clear error is shown');
      const msg = await page.textContent('#link-error');
      assert.ok(msg.length > 20);
      assert.deepEqual(await page.evaluate(() => window.SloEstimator.minimal()), DEFAULT_MIN, 'falls back to the default scenario');
      assert.equal(await page.locator('#report-panel .report').count(), 1, 'the default report is shown');
      // the broken link stays in the address bar until the user edits
      assert.equal(await page.evaluate(() => location.hash.length > 3), true);
    }
    await H.assertClean(page, assert);
    await page.close();
  });
}

run('the address bar follows the scenario once edits pause: one write for a burst of edits', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#lang=en');
  await page.waitForFunction(() => !window.SloEstimator.hashPending() && /^#s=/.test(location.hash));
  await page.evaluate(() => {
    window.__writes = 0;
    const orig = history.replaceState.bind(history);
    history.replaceState = (...a) => { window.__writes++; return orig(...a); };
  });
  // eight edits as fast as the page evaluates them (typing, or dragging a value)
  await page.evaluate(async () => {
    const el = document.getElementById('f-slo-tpot_ms');
    for (let i = 0; i < 8; i++) {
      const done = new Promise((r) => document.addEventListener('slo:evaluated', r, { once: true }));
      el.value = String(41 + i);
      el.dispatchEvent(new Event('input'));
      await done;
    }
  });
  await H.chartsSettled(page);
  // written once the edits pause, in a task of its own: not once per evaluation
  await page.waitForFunction(() => !window.SloEstimator.hashPending());
  const writes = await page.evaluate(() => window.__writes);
  assert.ok(writes >= 1 && writes <= 3, 'address-bar writes for 8 edits: ' + writes);
  const link = await page.evaluate(() => window.SloEstimator.link());
  assert.equal(await page.evaluate(() => location.hash), link.slice(link.indexOf('#')));
  const other = await H.openPage(env.browser.context, await page.evaluate(() => location.href));
  assert.equal((await other.evaluate(() => window.SloEstimator.scenario())).slo.tpot_ms, 48);
  // an edit undone before the write: the address bar keeps the scenario shown, not the undone one
  await H.nextEval(page, () => page.fill('#f-slo-tpot_ms', '49'));
  await H.nextEval(page, () => page.fill('#f-slo-tpot_ms', '48'));
  await page.waitForFunction(() => !window.SloEstimator.hashPending());
  assert.equal(await page.evaluate(() => location.hash), link.slice(link.indexOf('#')));
  await H.assertClean(page, assert);
  await page.close();
  await other.close();
});

run('pasting another link into the address bar loads it (hashchange)', async () => {
  const page = await H.openPage(env.browser.context, env.srv.url + '#lang=en');
  const n = await page.evaluate(() => window.SloEstimator.evalCount());
  await page.evaluate((f) => { location.hash = f; }, '#s=' + f1(JSON.stringify({ version: 1, slo: { tpot_ms: 33 } })) + '&lang=en');
  await page.waitForFunction((k) => window.SloEstimator.evalCount() > k, n);
  assert.equal((await page.evaluate(() => window.SloEstimator.scenario())).slo.tpot_ms, 33);
  assert.equal(await page.inputValue('#f-slo-tpot_ms'), '33');
  // an in-page fragment without a scenario is not a link: nothing is reset
  await page.evaluate(() => { location.hash = '#report-panel'; });
  await page.waitForTimeout(300);
  assert.equal((await page.evaluate(() => window.SloEstimator.scenario())).slo.tpot_ms, 33);
  await page.focus('.skip');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'report-panel');
  assert.equal((await page.evaluate(() => window.SloEstimator.scenario())).slo.tpot_ms, 33);
  await H.assertClean(page, assert);
  await page.close();
});
