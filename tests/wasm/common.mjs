// Shared helpers of the wasm tests: where the built module and CLI are, loading the module,
// running the CLI, and comparing two results number by number.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WASM = path.resolve(ROOT, process.env.SLO_WASM || 'build/wasm/wasm/slo_core.js');
export const CLI = path.resolve(ROOT, process.env.SLO_CLI || 'build/native/core/cli/slo-estimator');

const require = createRequire(import.meta.url);

// The classic MODULARIZE + SINGLE_FILE module: require() gives the factory, the factory a Promise.
export async function loadModule() {
  if (!fs.existsSync(WASM)) throw new Error(`wasm module not found at ${WASM} (build it: .ci/build wasm, or set SLO_WASM)`);
  const SloCore = require(WASM);
  return SloCore();
}

export function cli(args, input) {
  if (!fs.existsSync(CLI)) throw new Error(`CLI not found at ${CLI} (build it: .ci/build native, or set SLO_CLI)`);
  return execFileSync(CLI, args, { input, encoding: 'utf8', maxBuffer: 1 << 30 });
}

// Evaluates many {scenario, options} requests in one CLI process (`slo-estimator batch`).
export function cliBatch(requests) {
  const out = cli(['batch'], requests.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const lines = out.split('\n').filter((l) => l.length > 0);
  if (lines.length !== requests.length) throw new Error(`batch returned ${lines.length} lines for ${requests.length} requests`);
  return lines.map((l) => JSON.parse(l));
}

// Differences between two parsed JSON values: numbers within `rel` relative (or both exactly 0),
// strings, booleans and null exactly, same keys and lengths. Returns a list of "path: why" lines.
export function diff(a, b, rel = 1e-12, p = '$', out = []) {
  if (out.length >= 20) return out;
  if (typeof a === 'number' && typeof b === 'number') {
    const scale = Math.max(Math.abs(a), Math.abs(b));
    if (!(a === b || Math.abs(a - b) <= rel * scale)) out.push(`${p}: ${a} != ${b}`);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${p}: length ${a.length} != ${b.length}`);
    else a.forEach((x, i) => diff(x, b[i], rel, `${p}[${i}]`, out));
  } else if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (ka.join('\0') !== kb.join('\0')) out.push(`${p}: keys [${ka}] != [${kb}]`);
    else ka.forEach((k) => diff(a[k], b[k], rel, `${p}.${k}`, out));
  } else if (a !== b) {
    const show = (x) => JSON.stringify(x)?.slice(0, 120);
    out.push(`${p}: ${show(a)} != ${show(b)}`);
  }
  return out;
}

// A small seeded PRNG (mulberry32) so every run draws the same scenarios.
export function prng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
}
