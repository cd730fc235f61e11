// Issue 12: defects a new user hits (tables, stale name, phones, exports, folded errors, arrows).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as H from './helpers.mjs';
import { parseCsv } from './csv.mjs';

const env = H.servedPage();
const run = H.timedRunner(90000);

async function fresh(hash = '#lang=en', viewport) {
  const page = await H.openPage(env.browser.context, null);
  if (viewport) await page.setViewportSize(viewport);
  await page.goto(env.srv.url + hash);
  await H.waitReady(page);
  return page;
}

// Words of table cells wider than their cell's content box (a word broken across lines).
function brokenWords(page) {
  return page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d');
    const bad = [];
    for (const cell of document.querySelectorAll('#report-panel table th, #report-panel table td')) {
      if (!cell.offsetParent || !cell.innerText.trim()) continue;
      const cs = getComputedStyle(cell);
      ctx.font = [cs.fontStyle, cs.fontWeight, cs.fontSize, cs.fontFamily].join(' ');
      const w = cell.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      for (const word of cell.innerText.split(/\s+|(?<=[-/])/)) {  // a break after a hyphen or slash keeps words whole
        if (!word || /[\u3000-\u9fff]/.test(word)) continue;
        if (ctx.measureText(word).width > w + 2) bad.push(word + ' (' + Math.round(w) + ' px)');
      }
    }
    return bad;
  });
}

for (const vp of [{ width: 1440, height: 900 }, { width: 1000, height: 800 }, { width: 390, height: 844 }]) {
  run('tables keep words whole at ' + vp.width + ' px, and only scroll inside their own box', async () => {
    const page = await fresh('#lang=en', vp);
    if (vp.width <= 900) await page.click('#pane-report');
    assert.deepEqual(await brokenWords(page), []);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, 'the page itself scrolls sideways by ' + overflow + ' px');
    await page.close();
  });
}

run('print: tables keep words whole', async () => {
  const page = await fresh();
  await page.emulateMedia({ media: 'print' });
  await page.setViewportSize({ width: 760, height: 1000 });
  assert.deepEqual(await brokenWords(page), []);
  await page.close();
});

run('the scenario name follows the model and GPU until the user types one', async () => {
  const page = await fresh();
  await H.nextEval(page, () => page.selectOption('#f-model-preset', 'meta-llama/Llama-3.1-70B-Instruct'));
  assert.match(await page.inputValue('#f-name'), /Llama 3\.1 70B/);
  assert.match((await page.evaluate(() => window.SloEstimator.scenario())).name, /^Llama 3\.1 70B Instruct on 32 x H20-96G$/);
  await H.nextEval(page, () => page.selectOption('#f-hardware-gpu', 'h200-141g'));
  assert.match(await page.inputValue('#f-name'), /H200-141G/);
  await H.nextEval(page, () => page.fill('#f-name', 'My plan'));
  await H.nextEval(page, () => page.selectOption('#f-hardware-gpu', 'h100-80g'));
  assert.equal(await page.inputValue('#f-name'), 'My plan');
  await page.close();
});

run('phone: an Edit / Report switch, the report first with failing verdicts on top', async () => {
  const page = await fresh('#lang=en', { width: 390, height: 844 });
  assert.equal(await page.isVisible('#pane-switch'), true);
  assert.equal(await page.isVisible('#editor'), false, 'the report pane first');
  const statuses = await page.$$eval('#report-panel .verdicts-block .verdict', (els) => els.map((e) => e.className.match(/st-(\w+)/)[1]));
  const firstPass = statuses.indexOf('pass'), lastFail = statuses.lastIndexOf('fail');
  assert.ok(lastFail < 0 || firstPass < 0 || lastFail < firstPass, 'failing verdicts before passing ones: ' + statuses.join(','));
  assert.match(await page.textContent('#pane-summary'), /\d+ of \d+ targets met/);
  await page.click('#pane-edit');
  assert.equal(await page.isVisible('#f-hardware-nodes'), true);
  const top = await page.evaluate(() => document.getElementById('editor').getBoundingClientRect().top);
  assert.ok(top < 844, 'the editor starts on the first screen (top ' + top + ')');
  assert.equal(await page.isVisible('#report-panel'), false);
  await H.assertClean(page, assert);
  await page.close();
});

run('the Export menu follows the arrow keys and Escape', async () => {
  const page = await fresh();
  await page.focus('#export-menu > summary');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.getElementById('export-menu').open), true);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'exp-md');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'exp-md-copy');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'exp-csv', 'wraps around');
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => document.getElementById('export-menu').open), false);
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'SUMMARY');
  await page.close();
});

async function downloadCsv(page) {
  await page.click('#export-menu > summary');
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 5000 }), page.click('#exp-csv')]);
  return fs.readFileSync(await dl.path(), 'utf8');
}

run('CSV: verdicts and key figures first, numbers as numbers with the unit in the header', async () => {
  const page = await fresh();
  const rows = parseCsv(await downloadCsv(page));
  assert.deepEqual(rows[0], ['Verdicts']);
  assert.deepEqual(rows[1].slice(0, 2), ['Target', 'Status']);
  assert.ok(rows.some((r) => r[0] === 'Key figures'), 'a key-figures block');
  const unitText = rows.flat().filter((c) => /^-?[\d,.]+\s?(GB|ms|tokens\/s|%|GPUs)$/.test(c) || /^\d{1,3}(,\d{3})+$/.test(c));
  assert.deepEqual(unitText, [], 'numbers with units or thousands separators in cells');
  const figures = rows.findIndex((r) => r[0] === 'Key figures');
  const header = rows[figures + 1];
  const numCol = header.findIndex((c) => /^Value/.test(c));
  assert.ok(rows.slice(figures + 2, figures + 6).some((r) => r[numCol] !== '' && Number.isFinite(Number(r[numCol]))), 'numeric values');
  await page.close();
});

run('CSV on the seed tab is not an empty file', async () => {
  const page = await fresh();
  await H.nextEval(page, () => page.click('#tab-seed')).catch(() => {});
  await page.waitForTimeout(500);
  const text = await downloadCsv(page);
  assert.ok(parseCsv(text).length > 2, 'rows in the seed tab CSV');
  await page.close();
});

run('folded groups show a disclosure arrow', async () => {
  const page = await fresh();
  const marks = await page.$$eval('details.group > summary', (els) => els.map((e) => getComputedStyle(e, '::before').content));
  assert.ok(marks.length > 0);
  for (const m of marks) assert.match(m, /[▸▾]/);
  await page.close();
});

run('an error on a field inside a folded group unfolds the group', async () => {
  const page = await fresh();
  await page.evaluate(() => { document.getElementById('grp-deployment').open = true; });
  await H.nextEval(page, () => page.fill('#f-deployment-colocated-ep', '16'));
  await page.evaluate(() => { document.getElementById('grp-deployment').open = false; });
  await H.nextEval(page, () => page.fill('#f-hardware-nodes', '1'));
  assert.ok((await page.evaluate(() => window.SloEstimator.errors())).some((e) => e.path === 'deployment.colocated.ep'));
  assert.equal(await page.evaluate(() => document.getElementById('grp-deployment').open), true);
  assert.equal(await page.isVisible('#f-deployment-colocated-ep'), true);
  await page.close();
});
