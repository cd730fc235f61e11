// The configuration search gives the same frontier and top list natively (`slo-estimator search
// --format json`) and in the wasm module (`search`): every number within 1e-12 relative, every
// string and every applied scenario document equal.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, cli, diff } from './common.mjs';

let m;
before(async () => {
  m = await loadModule();
});

function compare(args, scenario, options) {
  const native = JSON.parse(cli(['search', ...args, '--format', 'json', scenario ? '-' : ''].filter(Boolean), scenario));
  const wasm = JSON.parse(m.search(scenario || m.defaultScenario(), JSON.stringify(options)));
  assert.equal(wasm.ok, true, JSON.stringify(wasm.errors));
  assert.equal(native.ok, true);
  assert.deepEqual(diff(native, wasm), []);
  return wasm;
}

test('default scenario (32 x H20): frontier identical natively and in wasm', () => {
  const r = compare([], null, { mode: 'frontier' });
  assert.ok(r.frontier.length >= 5, `frontier of ${r.frontier.length} points`);
  // Every frontier point at or above the TPOT limit's tokens/s per user (SLOs are hard constraints).
  for (const p of r.frontier) assert.ok(p.tokens_per_s_per_user >= 1000 / r.tpot_limit_ms - 1e-9);
});

test('fewest GPUs for a small case: identical natively and in wasm', () => {
  const doc = JSON.stringify({
    version: 1,
    model: { preset: 'Qwen/Qwen3-30B-A3B' },
    hardware: { gpu: 'h100-80g', nodes: 1, gpus_per_node: 4 },
    deployment: { mode: 'colocated', colocated: { gpus: 4, attention_tp: 1, ep: 4 } },
    slo: { concurrent_sessions: 16, throughput_tokens_per_s: 100000, ttft_p50_ms: 2000, tpot_ms: 50 },
    reference: { preset: 'none' },
  });
  const r = compare(['--mode', 'fewest'], doc, { mode: 'fewest' });
  assert.ok(r.gpus > 4);
  assert.ok(r.top.length > 0 && r.top[0].meets.all);
});

test('bad options give an error naming the option', () => {
  const r = JSON.parse(m.search(m.defaultScenario(), JSON.stringify({ mode: 'best' })));
  assert.equal(r.ok, false);
  assert.match(r.errors[0].message, /mode: invalid value "best"; allowed: frontier, fewest/);
});
