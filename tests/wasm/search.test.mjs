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
    slo: { concurrent_sessions: 16, throughput_tokens_per_s: 200000, ttft_p50_ms: 2000, tpot_ms: 50 },
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

test('searchProgress: progress in [0, 1] rising to 1, the same result as search; false cancels', () => {
  const opts = JSON.stringify({ mode: 'frontier', gpus: 16 });
  const seen = [];
  const r = JSON.parse(m.searchProgress(m.defaultScenario(), opts, (f) => { seen.push(f); return true; }));
  assert.equal(r.ok, true);
  assert.ok(seen.length > 5, `${seen.length} progress calls`);
  assert.ok(seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= seen[i - 1])), 'monotone within [0, 1]');
  assert.equal(seen[seen.length - 1], 1);
  assert.deepEqual(diff(JSON.parse(m.search(m.defaultScenario(), opts)), r), []);
  // The scenario's own point is there, with a label in the requested language.
  assert.equal(r.current.feasible, true);
  assert.match(r.current.label, /colocated pool 32 GPU/);
  const zh = JSON.parse(m.search(m.defaultScenario(), JSON.stringify({ mode: 'frontier', gpus: 16, lang: 'zh' })));
  assert.match(zh.current.label, /混合部署池 32 GPU/);
  let calls = 0;
  const c = JSON.parse(m.searchProgress(m.defaultScenario(), opts, () => ++calls < 3));
  assert.equal(c.cancelled, true);
  assert.ok(c.evaluated < r.evaluated);
});
