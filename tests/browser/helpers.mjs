// Shared helpers of the browser tests: build the page, serve it on 127.0.0.1, drive Debian's
// /usr/bin/chromium through playwright-core (no browser download), and fail on any console error,
// page error, failed request or CSP violation.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test, before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '..', '..');
export const outputDir = path.join(repo, 'tests', 'output');
export const fixturesDir = path.join(repo, 'tests', 'fixtures', 'links');

// The wasm module: $SLO_WASM, else the usual build trees.
export function wasmPath() {
  const c = [process.env.SLO_WASM, path.join(repo, 'build', 'wasm', 'wasm', 'slo_core.js'), '/work/build-web/wasm/wasm/slo_core.js'].filter(Boolean);
  for (const p of c) if (fs.existsSync(p)) return p;
  throw new Error('slo_core.js not found: build the wasm module (docs/DESIGN.md) or set SLO_WASM. Looked in: ' + c.join(', '));
}

let built = null;
// Builds the page once per test process into a temp dir (or uses $SLO_WEB_DIST when set).
export function buildPage() {
  if (built) return built;
  if (process.env.SLO_WEB_DIST) return (built = path.resolve(process.env.SLO_WEB_DIST));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'slo-web-'));
  execFileSync(process.execPath, [path.join(repo, 'web', 'build.mjs'), '--wasm', wasmPath(), '--out', out], { stdio: 'pipe' });
  return (built = out);
}

const TYPES = { '.wasm': 'application/wasm', '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.png': 'image/png' };

// A small static server on 127.0.0.1 (free port). Extra routes: {'/host.html': html}.
export async function serve(root, extra = {}) {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://127.0.0.1');
    let p = decodeURIComponent(u.pathname);
    if (extra[p] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(extra[p]);
      return;
    }
    if (p.endsWith('/')) p += 'index.html';
    const f = path.join(root, path.normalize(p).replace(/^([/\\])+/, ''));
    if (!f.startsWith(root) || !fs.existsSync(f) || !fs.statSync(f).isFile()) {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(f)] || 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(f).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return { url: 'http://127.0.0.1:' + port + '/', close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }) };
}

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-default-apps',
  '--disable-extensions', '--metrics-recording-only', '--no-default-browser-check', '--allow-file-access-from-files'];

// A fresh browser with a fresh user-data-dir. Returns {context, close}.
export async function launch(opts = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slo-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    viewport: opts.viewport || { width: 1366, height: 900 },
    locale: opts.locale || 'en-US',
    acceptDownloads: true,
    permissions: opts.permissions || [],
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Opens a page that records every problem: console errors (incl. CSP reports), page errors,
// failed requests, HTTP errors, CSP violation events and dialogs (alert/confirm/prompt).
export async function openPage(context, url, opts = {}) {
  const page = await context.newPage();
  const problems = [];
  const dialogs = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content.Security.Policy|Refused to/i.test(m.text())) problems.push('console: ' + m.text());
  });
  page.on('pageerror', (e) => problems.push('pageerror: ' + (e && e.stack ? e.stack : e)));
  page.on('requestfailed', (r) => {
    const f = r.failure();
    // A download's blob: navigation is reported as aborted; that is not a failed load.
    if (r.url().startsWith('blob:') || (f && /ERR_ABORTED/.test(f.errorText) && r.resourceType() === 'other')) return;
    problems.push('requestfailed: ' + r.url() + ' ' + (f ? f.errorText : ''));
  });
  page.on('response', (r) => { if (r.status() >= 400) problems.push('http ' + r.status() + ': ' + r.url()); });
  page.on('dialog', (d) => { dialogs.push(d.type() + ': ' + d.message()); d.dismiss().catch(() => {}); });
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sourceFile || '') + ':' + (e.lineNumber || ''));
    });
  });
  if (url) await page.goto(url, { waitUntil: 'load' });
  if (url && opts.wait !== false) await waitReady(page);
  page.problems = problems;
  page.dialogs = dialogs;
  return page;
}

export async function waitReady(page, timeout = 30000) {
  await page.waitForFunction(() => window.SloEstimator && window.SloEstimator.evalCount() > 0, null, { timeout });
}

// Everything that must be empty at the end of a test.
export async function assertClean(page, assert) {
  const csp = await page.evaluate(() => window.__csp || []).catch(() => []);
  assert.deepEqual([...page.problems, ...csp.map((c) => 'csp: ' + c)], [], 'console errors, page errors, failed requests or CSP violations');
  assert.deepEqual(page.dialogs, [], 'no dialog may open');
}

// Waits for the next evaluation to finish (after an edit), its charts included (a re-render draws
// them one per task after the report).
export async function nextEval(page, action, timeout = 10000) {
  const n = await page.evaluate(() => window.SloEstimator.evalCount());
  await action();
  await page.waitForFunction((k) => window.SloEstimator.evalCount() > k, n, { timeout });
  await chartsSettled(page);
}

// Resolves once the charts of the last render are drawn.
export async function chartsSettled(page) {
  await page.evaluate(() => (window.SLO && window.SLO.charts && window.SLO.charts.settled ? window.SLO.charts.settled() : null));
}

// Rejects after ms: every test races its body against this.
export function withTimeout(promise, ms, what) {
  let timer;
  const t = new Promise((_, rej) => { timer = setTimeout(() => rej(new Error((what || 'test') + ' timed out after ' + ms + ' ms')), ms); });
  return Promise.race([promise, t]).finally(() => clearTimeout(timer));
}

// A test runner whose tests each fail after `ms` (node:test's own timeout is set a little later, so
// the failure names the test): run(name, fn(t), opts).
export function timedRunner(ms) {
  return (name, fn, opts = {}) => test(name, Object.assign({ timeout: ms + 5000 }, opts), (t) => withTimeout(fn(t), ms, name));
}

export function visibleText(page, sel = 'body') {
  return page.evaluate((s) => document.querySelector(s).innerText, sel);
}

export function screenshot(page, name, opts = {}) {
  fs.mkdirSync(outputDir, { recursive: true });
  const file = path.join(outputDir, name);
  return page.screenshot({ path: file, fullPage: opts.fullPage !== false }).then(() => file);
}

// Counts the non-blank pixels of a canvas (a drawn chart has thousands).
export function canvasInk(page, selector) {
  return page.evaluate((sel) => {
    const c = document.querySelector(sel);
    if (!c || !c.width || !c.height) return 0;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  }, selector);
}

export function readFixtures() {
  return fs.readdirSync(fixturesDir).filter((f) => f.endsWith('.json')).sort()
    .map((f) => Object.assign({ file: f }, JSON.parse(fs.readFileSync(path.join(fixturesDir, f), 'utf8'))));
}

// The built page served on 127.0.0.1 and one Chromium, shared by a test file: registers before/after
// hooks and returns { srv, browser }, filled in once the hooks have run. `extra` adds served files.
export function servedPage({ extra, launchOptions } = {}) {
  const env = { srv: null, browser: null };
  before(async () => {
    env.srv = await serve(buildPage(), extra);
    env.browser = await launch(launchOptions);
  });
  after(async () => {
    await env.browser?.close();
    await env.srv?.close();
  });
  return env;
}
