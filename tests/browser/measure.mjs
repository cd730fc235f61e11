#!/usr/bin/env node
// Prints the page's bundle size (every file the page loads, raw and gzip) and the time from
// navigation to a rendered report in headless Chromium, for the served page and the single file,
// and the default configuration search's wall time in the page (its Worker, click to result).
//   node tests/browser/measure.mjs [--runs N]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import * as H from './helpers.mjs';

const runs = Number((process.argv.find((a, i) => process.argv[i - 1] === '--runs')) || 5);
const root = H.buildPage();
const srv = await H.serve(root);
const kb = (n) => (n / 1024).toFixed(1) + ' KiB';
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };

async function once(browser, url, collect) {
  const page = await browser.context.newPage();
  const files = [];
  if (collect) page.on('response', async (r) => {
    if (!r.url().startsWith('http://127.0.0.1')) return;
    try { files.push({ url: r.url(), body: await r.body() }); } catch { /* navigation away */ }
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => performance.getEntriesByName('slo:report-rendered').length > 0, null, { timeout: 30000 });
  const t = await page.evaluate(() => ({
    report: performance.getEntriesByName('slo:report-rendered')[0].startTime,
    dcl: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
    evalMs: window.SloEstimator.lastEvalMs(),
  }));
  // one evaluation, measured over 20 edits
  const evals = await page.evaluate(async () => {
    const out = [];
    for (let i = 0; i < 20; i++) {
      const el = document.getElementById('f-slo-tpot_ms');
      if (!el) break;
      el.value = String(40 + (i % 10));
      el.dispatchEvent(new Event('input'));
      await new Promise((r) => document.addEventListener('slo:evaluated', r, { once: true }));
      out.push(window.SloEstimator.lastEvalMs());
    }
    return out;
  });
  await page.close();
  return { t, files, evals };
}

const b = await H.launch();
try {
  const first = await once(b, srv.url + '#lang=en', true);
  let raw = 0, gz = 0;
  console.log('Files loaded by index.html:');
  // Each URL once: the search's worker, started after the first report, fetches the core again
  // (this server says no-store; a static host's cache would serve it).
  const seenUrls = new Set();
  for (const f of first.files) {
    if (seenUrls.has(f.url)) continue;
    seenUrls.add(f.url);
    const g = zlib.gzipSync(f.body, { level: 9 }).length;
    raw += f.body.length;
    gz += g;
    console.log('  ' + f.url.replace(/^http:\/\/127\.0\.0\.1:\d+/, '').padEnd(24) + kb(f.body.length).padStart(12) + '  gzip ' + kb(g).padStart(10));
  }
  console.log('  total'.padEnd(26) + kb(raw).padStart(12) + '  gzip ' + kb(gz).padStart(10));
  const single = fs.readFileSync(path.join(root, 'slo-estimator.html'));
  console.log('slo-estimator.html (single file): ' + kb(single.length) + ', gzip ' + kb(zlib.gzipSync(single, { level: 9 }).length));
  const served = [first.t], file = [];
  for (let i = 1; i < runs; i++) served.push((await once(b, srv.url + '#lang=en', false)).t);
  const fileUrl = pathToFileURL(path.join(root, 'slo-estimator.html')).href + '#lang=en';
  let evals = first.evals;
  for (let i = 0; i < runs; i++) { const r = await once(b, fileUrl, false); file.push(r.t); if (i === 0) evals = evals.concat(r.evals); }
  const fmt = (a, k) => median(a.map((x) => x[k])).toFixed(0) + ' ms';
  console.log('Navigation to rendered report, median of ' + runs + ' (127.0.0.1, no cache): ' + fmt(served, 'report') + ' (DOMContentLoaded ' + fmt(served, 'dcl') + ')');
  console.log('Navigation to rendered report, median of ' + runs + ' (single file, file://): ' + fmt(file, 'report'));
  const searches = [];
  for (let i = 0; i < runs; i++) {
    const page = await b.context.newPage();
    await page.goto(srv.url + '#lang=en', { waitUntil: 'load' });
    await H.waitReady(page);
    await page.click('#tab-search');
    const ms = await page.evaluate(() => new Promise((res) => {
      document.addEventListener('slo:searched', (e) => res(e.detail.ms), { once: true });
      document.getElementById('search-run').click();
    }));
    searches.push(ms);
    await page.close();
  }
  console.log('Default configuration search in the page (click to result, its Worker): median ' + median(searches).toFixed(0) + ' ms of ' + runs);
  console.log('One evaluation (evaluate() of the core, in the page): median ' + median(evals).toFixed(1) + ' ms, max ' + Math.max(...evals).toFixed(1) + ' ms over ' + evals.length);
  // Edit -> re-rendered report: main-thread time of the render (the report panel rebuilt, charts
  // updated in place) and the long tasks (Long Tasks API, > 50 ms) during ten edits.
  {
    const page = await b.context.newPage();
    await page.goto(srv.url + '#lang=en', { waitUntil: 'load' });
    await H.waitReady(page);
    await page.evaluate(() => { window.__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push(e.duration); }).observe({ type: 'longtask' }); });
    const renders = [], charts = [];
    for (let i = 0; i < 10; i++) {
      const n = await page.evaluate(() => window.SloEstimator.evalCount());
      await page.fill('#f-hardware-nodes', String(4 + (i % 3)));
      await page.waitForFunction((k) => window.SloEstimator.evalCount() > k, n);
      // The report's own task, then the charts, one task each (their wall time from the report on).
      charts.push(await page.evaluate(async () => { const t = performance.now(); await window.SLO.charts.settled(); return performance.now() - t; }));
      renders.push(await page.evaluate(() => window.SloEstimator.lastRenderMs()));
    }
    await new Promise((r) => setTimeout(r, 300));
    const lt = await page.evaluate(() => window.__lt);
    console.log('Edit to re-rendered report (10 edits): render on the main thread median ' + median(renders).toFixed(1) + ' ms, max ' +
      Math.max(...renders).toFixed(1) + ' ms, charts drawn ' + median(charts).toFixed(0) + ' ms later (one task per chart); long tasks: ' +
      (lt.length ? lt.map((x) => x.toFixed(0) + ' ms').join(', ') : 'none'));
    await page.close();
  }
} finally {
  await b.close();
  await srv.close();
}
