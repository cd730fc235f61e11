// Benchmark of one full report evaluation in wasm: the default scenario, corrected method, JSON
// format (what the page asks for on every edit). Warms up, then times N evaluations one by one.
// Usage: node tests/wasm/bench.mjs [N=200] [--method corrected|seed] [--formats json,text,markdown]
import { loadModule, WASM } from './common.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args.splice(i, 2)[1] : fallback;
};
const method = flag('--method', 'corrected');
const formats = flag('--formats', 'json').split(',');
const N = Math.max(1, Number(args[0] || process.env.SLO_BENCH_N || 200));
const WARMUP = Math.max(5, Math.min(50, Math.ceil(N / 10)));

const t0 = process.hrtime.bigint();
const m = await loadModule();
const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;

const scenario = m.defaultScenario();
const options = JSON.stringify({ method, lang: 'en', formats });
const first = JSON.parse(m.evaluate(scenario, options));
if (!first.ok) {
  console.error('evaluation failed:', JSON.stringify(first.errors));
  process.exit(1);
}
for (let i = 0; i < WARMUP; ++i) m.evaluate(scenario, options);

const ms = [];
let bytes = 0;
for (let i = 0; i < N; ++i) {
  const a = process.hrtime.bigint();
  const out = m.evaluate(scenario, options);
  ms.push(Number(process.hrtime.bigint() - a) / 1e6);
  bytes = out.length;
}
ms.sort((x, y) => x - y);
const q = (p) => ms[Math.min(ms.length - 1, Math.ceil(p * ms.length) - 1)];
const mean = ms.reduce((s, x) => s + x, 0) / ms.length;
const f = (x) => x.toFixed(3);
console.log(`wasm ${WASM}`);
console.log(`module load ${f(loadMs)} ms; result ${bytes} chars; method ${method}; formats ${formats.join(',')}`);
console.log(`${N} evaluations after ${WARMUP} warm-up: mean ${f(mean)} ms, median ${f(q(0.5))} ms, p95 ${f(q(0.95))} ms, ` +
  `min ${f(ms[0])} ms, max ${f(ms.at(-1))} ms per evaluation`);
