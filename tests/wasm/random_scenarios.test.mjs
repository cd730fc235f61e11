// 200 random valid scenarios (seeded, so every run draws the same ones) give the same result from
// the native core (`slo-estimator batch`, one process) and from the wasm module: every number equal
// within 1e-12 relative, every string equal (JSON report, text, Markdown, normalized and minimal
// scenario). Rejected candidates are compared too: both builds must report the same errors.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, cliBatch, diff, prng } from './common.mjs';

const COUNT = Number(process.env.SLO_RANDOM_COUNT || 200);
const SEED = Number(process.env.SLO_RANDOM_SEED || 20250711);

let m, catalog;
before(async () => {
  m = await loadModule();
  catalog = JSON.parse(m.catalog('en'));
});

const pow2UpTo = (n) => [1, 2, 4, 8, 16, 32, 64, 128, 256].filter((x) => x <= n);
const divisors = (n) => Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);

// One candidate pool of `max` GPUs at most. EP and attention TP are divisors of a pipeline stage, so
// the divisibility rules of core/src/scenario.cpp usually hold; the core's validate() has the last word.
function pool(R, max) {
  const gpus = R.chance(0.5) ? max : R.pick(pow2UpTo(max).concat(divisors(max)));
  const pp = R.chance(0.8) ? 1 : R.pick(divisors(gpus).filter((d) => d <= 4));
  const stage = gpus / pp;
  const attention_tp = R.pick(divisors(stage).filter((d) => d <= 16));
  const ep = R.chance(0.2) ? 1 : R.pick(divisors(stage));
  const redundant_experts = ep > 1 && R.chance(0.25) ? ep * R.int(1, 2) : 0;
  return { gpus, attention_tp, ep, pp, redundant_experts };
}

const PRECISIONS = [
  ['bf16', 'bf16'], ['fp16', 'fp16'], ['fp8', 'fp8'], ['fp8', 'bf16'], ['int8', 'int8'], ['int4', 'int8'],
  ['int4', 'bf16'], ['int4', 'fp8'], ['nvfp4', 'fp4'], ['nvfp4', 'fp8'], ['mxfp4', 'bf16'], ['mxfp4', 'fp8'],
];
const HIGH = ['embedding', 'lm_head', 'router', 'norms', 'attention'];

function scenario(R) {
  const gpu = R.pick(catalog.gpus);
  const gpn = R.pick([1, 2, 4, 8, 8, 8, 16, 36, 72].filter((x) => x <= gpu.nvlink_domain));
  const nodes = R.pick([1, 1, 2, 2, 3, 4, 4, 6, 8, 12, 16]);
  const cluster = nodes * gpn;
  const disaggregated = cluster >= 2 && R.chance(0.35);
  const deployment = {
    mode: disaggregated ? 'disaggregated' : 'colocated',
    memory_fraction: R.pick([0.8, 0.85, 0.9, 0.92, 0.95]),
    two_batch_overlap: R.pick(['auto', 'on', 'off']),
    chunked_prefill_tokens: R.pick([2048, 4096, 8192, 16384]),
    max_decode_batch_per_gpu: R.chance(0.7) ? null : R.pick([16, 32, 64, 128, 256]),
    mtp: { draft_tokens: R.chance(0.6) ? 0 : R.int(1, 3), acceptance: R.pick([0.5, 0.6, 0.7, 0.8, 0.9]) },
  };
  if (disaggregated) {
    const prefill = R.int(1, cluster - 1);
    deployment.prefill = pool(R, prefill);
    deployment.decode = pool(R, cluster - deployment.prefill.gpus);
  } else {
    deployment.colocated = pool(R, cluster);
  }
  const [weights, activations] = R.pick(PRECISIONS);
  const input = R.pick([128, 512, 1000, 2048, 3584, 8192, 30000]) * R.pick([1, 1, 1.25]);
  const output = R.pick([64, 256, 1200, 2000, 8000]);
  const doc = {
    version: 1,
    name: `random ${R.int(0, 1e6)} \u968f\u673a`,
    model: { preset: R.pick(catalog.models).id },
    precision: {
      weights, activations,
      kv_cache: R.pick(['bf16', 'fp16', 'fp8', 'int8']),
      group_size: R.pick([32, 64, 128, 128, 256]),
      high_precision: HIGH.filter(() => R.chance(0.6)),
    },
    hardware: {
      gpu: gpu.id, nodes, gpus_per_node: gpn,
      nvlink_gb_s: R.chance(0.8) ? null : R.pick([200, 450, 900]),
      nic_gb_s: R.chance(0.8) ? null : R.pick([25, 50, 100]),
    },
    deployment,
    workload: {
      input_tokens: input,
      input_tokens_max: input * R.pick([1, 1, 2, 4]),
      output_tokens: output,
      output_tokens_max: output * R.pick([1, 1, 2, 8]),
      context_length: R.pick([4096, 8192, 16384, 32768, 65536, 131072]),
      arrival_qpm: R.chance(0.7) ? null : R.pick([10, 60, 212, 1000]),
    },
    slo: {
      concurrent_sessions: R.chance(0.2) ? null : R.pick([1, 16, 64, 200, 1000, 5000]),
      throughput_tokens_per_s: R.chance(0.2) ? null : R.pick([1000, 10000, 50000, 200000]),
      throughput_kind: R.pick(['total', 'output', 'input']),
      ttft_p50_ms: R.chance(0.1) ? null : R.pick([200, 500, 800, 2000, 5000]),
      ttft_p99_ms: R.chance(0.6) ? null : R.pick([1000, 3000, 10000]),
      tpot_ms: R.chance(0.1) ? null : R.pick([10, 20, 33, 50, 100]),
    },
  };
  const ref = R.next();
  if (ref < 0.15) doc.reference = { preset: 'none' };
  else if (ref < 0.35) doc.reference = { calibrate: true };
  return doc;
}

test(`${COUNT} random valid scenarios: native == wasm (1e-12 relative, strings exact)`, () => {
  const R = prng(SEED);
  const accepted = [];
  const rejected = [];
  for (let tries = 0; accepted.length < COUNT; ++tries) {
    assert.ok(tries < COUNT * 200, `only ${accepted.length} valid scenarios in ${tries} candidates`);
    const doc = scenario(R);
    let v = JSON.parse(m.validate(JSON.stringify(doc), 'en'));
    // The default reference measurement (an MoE deployment) does not fit every model: drop it then.
    if (!v.ok && v.errors.every((e) => e.path.startsWith('reference.'))) {
      doc.reference = { preset: 'none' };
      v = JSON.parse(m.validate(JSON.stringify(doc), 'en'));
    }
    if (v.ok) accepted.push(doc);
    else if (rejected.length < 50) rejected.push(doc);
  }

  // Coverage of the draw: the catalog's models and GPUs, both modes, MTP, both methods and languages.
  const models = new Set(accepted.map((d) => d.model.preset));
  const gpus = new Set(accepted.map((d) => d.hardware.gpu));
  assert.ok(models.size >= Math.min(8, catalog.models.length), `models covered: ${[...models]}`);
  assert.ok(gpus.size >= Math.min(6, catalog.gpus.length), `gpus covered: ${[...gpus]}`);
  assert.ok(accepted.some((d) => d.deployment.mode === 'disaggregated'), 'no disaggregated scenario');
  assert.ok(accepted.some((d) => d.deployment.mode === 'colocated'), 'no colocated scenario');
  assert.ok(accepted.some((d) => d.deployment.mtp.draft_tokens > 0), 'no MTP scenario');

  const requests = [...accepted, ...rejected].map((scenario, i) => ({
    scenario,
    options: { method: i % 2 ? 'seed' : 'corrected', lang: i % 4 < 2 ? 'en' : 'zh', formats: ['json', 'text', 'markdown'] },
  }));
  const native = cliBatch(requests);
  const failures = [];
  requests.forEach((req, i) => {
    const wasm = JSON.parse(m.evaluate(JSON.stringify(req.scenario), JSON.stringify(req.options)));
    if (i < accepted.length) {
      assert.equal(wasm.ok, true, `scenario ${i}: ${JSON.stringify(wasm.errors)}`);
      assert.equal(native[i].ok, true, `scenario ${i} (native): ${JSON.stringify(native[i].errors)}`);
      assert.equal(typeof wasm.report, 'object');
    } else {
      assert.equal(wasm.ok, false, `rejected candidate ${i} is accepted by evaluate()`);
    }
    const d = diff(native[i], wasm);
    if (d.length) failures.push(`#${i} ${JSON.stringify(req.options)}\n  ${d.join('\n  ')}\n  scenario: ${JSON.stringify(req.scenario)}`);
  });
  assert.equal(failures.length, 0, `native and wasm differ:\n${failures.slice(0, 5).join('\n')}`);
});
