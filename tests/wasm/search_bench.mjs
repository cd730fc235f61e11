// Benchmark (not a test): the default scenario's configuration search in the wasm module under Node,
// median of 5 runs, and evaluations per second. Run: node tests/wasm/search_bench.mjs (after .ci/build wasm).
import { loadModule } from './common.mjs';
const m = await loadModule();
const sc = m.defaultScenario();
const times = [];
let r;
for (let i = 0; i < 5; ++i) { const t0 = performance.now(); r = JSON.parse(m.search(sc, '{}')); times.push(performance.now() - t0); }
times.sort((a, b) => a - b);
console.log(`wasm default search: median ${times[2].toFixed(0)} ms, min ${times[0].toFixed(0)} ms; ${r.evaluated} evaluations -> ${(r.evaluated / times[2] * 1000).toFixed(0)} evaluations/s`);
