#!/usr/bin/env node
// Builds the static page: node web/build.mjs --wasm <slo_core.js> --out <dir>
//   <dir>/index.html + css/, js/app.js, js/engine-worker.js, slo_core.js (served from any static host)
//   <dir>/slo-estimator.html: one self-contained file (CSS, the page and the wasm module inlined)
//   whose Content-Security-Policy allows exactly its inline blocks by sha256 hash.
// The page's ES modules (js/main.js and what it imports, uPlot from npm included) are bundled by
// esbuild into one classic script, js/app.js: module scripts do not load from file://, and the
// single file inlines it.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

function args(argv) {
  const out = {};
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--wasm' || a === '--out') out[a.slice(2)] = argv[++i];
    else if (a === '-h' || a === '--help') out.help = true;
    else throw new Error('unknown argument ' + a);
  }
  return out;
}

const opt = args(process.argv);
if (opt.help || !opt.wasm || !opt.out) {
  console.error('usage: node web/build.mjs --wasm <path/to/slo_core.js> --out <dir>');
  process.exit(opt.help ? 0 : 2);
}
const wasmJs = path.resolve(opt.wasm);
// The served folder takes the build whose .wasm is a file of its own (wasm/CMakeLists.txt,
// slo_wasm_split) when it was built beside --wasm; the single file always inlines --wasm.
const splitJs = path.join(path.dirname(wasmJs), 'split', 'slo_core.js');
const splitWasm = path.join(path.dirname(wasmJs), 'split', 'slo_core.wasm');
const split = fs.existsSync(splitJs) && fs.existsSync(splitWasm);
if (!split) console.warn('build.mjs: no ' + splitJs + ': the served page inlines the wasm too');
const outDir = path.resolve(opt.out);
if (!fs.existsSync(wasmJs)) {
  console.error('build.mjs: no such file: ' + wasmJs + ' (build the wasm module first, see docs/DESIGN.md)');
  process.exit(1);
}
if (!fs.existsSync(path.join(here, 'node_modules', 'uplot'))) {
  console.error('build.mjs: web/node_modules is missing: run `npm ci` in web/');
  process.exit(1);
}

const read = (p) => fs.readFileSync(p, 'utf8');
// Source maps are not shipped: drop the comment so that no tool requests a missing file.
const stripMap = (s) => s.replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n');

// The page bundle: ES modules -> one minified IIFE (no source map shipped). SLO_NO_MINIFY=1 keeps
// names readable for a CPU profile (the numbers in the README were found that way).
const bundle = esbuild.buildSync({
  entryPoints: [path.join(here, 'js', 'main.js')], bundle: true, format: 'iife', target: 'es2020', minify: !process.env.SLO_NO_MINIFY,
  write: false, legalComments: 'eof', logLevel: 'warning',
}).outputFiles[0].text;

const html = read(path.join(here, 'index.html'));
const scriptSrcs = [...html.matchAll(/<script src="([^"]+)" defer><\/script>/g)].map((m) => m[1]);
const styleHrefs = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);
// Scripts without defer serve the multi-file page only (js/preload.js, a few lines run as soon as
// the parser reaches them, so always before js/app.js: it starts the core's worker early).
const servedOnly = [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]);

// uPlot's own stylesheet (its legend, cursor and plot layers) goes first in the page's stylesheet,
// so that css/app.css can adjust it.
const uplotCss = '/* uPlot ' + JSON.parse(read(path.join(here, 'node_modules', 'uplot', 'package.json'))).version + ', MIT licence */\n' +
  read(path.join(here, 'node_modules', 'uplot', 'dist', 'uPlot.min.css')) + '\n';

function sourceOf(rel) {
  if (rel === 'slo_core.js') return stripMap(read(wasmJs));
  if (rel === 'js/app.js') return bundle;
  if (rel === 'css/app.css') return uplotCss + read(path.join(here, rel));
  return read(path.join(here, rel));
}

// 1. The multi-file page. The core is loaded by the worker (js/engine-worker.js), or by engine.js on
// the main thread when no worker can run.
// The served core's loader is the split build's (its .wasm stays a file); the worker carries it in
// front of its own lines, so it starts with one fetch.
const servedLoader = stripMap(read(split ? splitJs : wasmJs));
function servedSourceOf(rel) {
  if (rel === 'slo_core.js') return servedLoader;
  if (rel === 'js/engine-worker.js') return servedLoader + '\n' + read(path.join(here, rel));
  return sourceOf(rel);
}
fs.mkdirSync(outDir, { recursive: true });
for (const rel of ['slo_core.js', 'js/engine-worker.js', ...servedOnly, ...scriptSrcs, ...styleHrefs]) {
  const dst = path.join(outDir, rel);
  fs.mkdirSync(path.dirname(dst), { recursive: true });
  fs.writeFileSync(dst, servedSourceOf(rel));
}
if (split) fs.copyFileSync(splitWasm, path.join(outDir, 'slo_core.wasm'));
else fs.rmSync(path.join(outDir, 'slo_core.wasm'), { force: true });
fs.writeFileSync(path.join(outDir, 'index.html'), html);

// 2. The single file. Inline blocks must not close their own element early.
function inlineSafe(js, what) {
  if (/<\/script/i.test(js) || /<!--/.test(js)) {
    const fixed = js.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--');
    console.warn('build.mjs: escaped </script or <!-- in ' + what);
    return fixed;
  }
  return js;
}
const sha = (s) => "'sha256-" + crypto.createHash('sha256').update(s, 'utf8').digest('base64') + "'";
const scriptHashes = [];
const styleHashes = [];
// The core first: engine.js builds a blob: worker from this block's text (and the main thread can
// use it directly if workers are refused).
const scripts = ['slo_core.js', ...scriptSrcs].map((rel) => {
  const body = '\n' + inlineSafe(sourceOf(rel), rel) + '\n';
  scriptHashes.push(sha(body));
  return '<script data-src="' + rel + '">' + body + '</script>';
});
const styles = styleHrefs.map((rel) => {
  const body = '\n' + sourceOf(rel).replace(/<\/style/gi, '<\\/style') + '\n';
  styleHashes.push(sha(body));
  return '<style data-src="' + rel + '">' + body + '</style>';
});
const csp = ["default-src 'none'", "script-src " + scriptHashes.join(' ') + " 'wasm-unsafe-eval'", 'style-src ' + styleHashes.join(' '),
  "img-src 'self' data: blob:", "connect-src data: https://huggingface.co", "worker-src blob:", "base-uri 'none'", "form-action 'none'"].join('; ');
let single = html
  .replace(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/, '<meta http-equiv="Content-Security-Policy" content="' + csp + '">')
  .replace(/<link rel="stylesheet" href="[^"]+">\n?/g, () => '')
  .replace(/<!--SLO:SCRIPTS-->[\s\S]*<!--\/SLO:SCRIPTS-->/, () => styles.join('\n') + '\n' + scripts.join('\n'));
if (!single.includes("'sha256-")) throw new Error('CSP not rewritten');
fs.writeFileSync(path.join(outDir, 'slo-estimator.html'), single);

const size = (p) => fs.statSync(path.join(outDir, p)).size;
console.log('build.mjs: wrote ' + path.join(outDir, 'index.html') + ' (+ ' + (servedOnly.length + scriptSrcs.length + styleHrefs.length + 2) + ' assets) and ' +
  path.join(outDir, 'slo-estimator.html') + ' (' + (size('slo-estimator.html') / 1024).toFixed(0) + ' KiB)');

