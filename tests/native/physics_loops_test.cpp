// Closed loops of identical requests (issue 9): a finite run's first wave, waves that persist on a
// prefill-first engine, and fixed outputs returning a pass at a time where prefill runs beside decode.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "slo/evaluation.hpp"
#include "slo/scenario.hpp"
#include "slo/workloads.hpp"
#include "test_scenario.hpp"

using nlohmann::json;
using namespace slo;

namespace {

using slo::test::scenario;

const EvalOptions kNoTtft{1.0, false, 0};

// Llama 3.1 70B FP8 on 8 x H100 (TP8), 8,192-token chunks, a closed loop of 32 clients sending
// identical 2048/256 requests, on `engine` at release `version`.
json fixed_loop(const std::string& engine, const std::string& version) {
  return json{{"version", 2},
              {"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
              {"precision", {{"weights", "fp8"}, {"activations", "fp8"}, {"kv_cache", "bf16"}}},
              {"hardware", {{"gpu", "h100-80g"}, {"nodes", 1}}},
              {"deployment", {{"colocated", {{"gpus", 8}, {"attention_tp", 8}, {"ep", 1}, {"redundant_experts", 0}}},
                              {"chunked_prefill_tokens", 8192},
                              {"engine", {{"name", engine}, {"version", version}}}}},
              {"workload", {{"kind", "closed_loop"}, {"concurrency", 32}, {"input_tokens", 2048}, {"input_tokens_max", 2048},
                            {"output_tokens", 256}, {"output_tokens_max", 256}, {"context_length", 4096}}},
              {"reference", {{"preset", "none"}}}};
}

}  // namespace

// A benchmark of N requests at concurrency C starts with C prompts at once on an idle engine: FIFO
// chunked passes give the j-th its first token when pass ceil(j L / chunk) ends. A run of N = C is
// that wave alone (32 x 2048 tokens in 8 passes of 4 prompts: mean ceil(j / 4) = 4.5 passes); a run of
// 10 C weighs it by a tenth against the steady closed loop's TTFT. (vLLM's V1 engine: prefill chunks
// run beside the decodes, so the waves dissolve; a prefill-first engine is the next test.)
TEST(PhysicsTime, FiniteRunWeighsItsFirstWave) {
  json doc = fixed_loop("vllm", "0.10.1");
  const auto run = [&](int requests) {
    json d = doc;
    if (requests > 0) d["workload"]["requests"] = requests;
    const Evaluation ev = evaluate_scenario(scenario(d), kNoTtft);
    return std::make_pair(run_load(ev), static_batch(ev, 32).ttft_s - request_fixed_s(ev));
  };
  const auto [steady, wave_prefill] = run(0);
  const auto [one_wave, unused] = run(32);
  const auto [ten_waves, unused2] = run(320);
  const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
  const double fixed = request_fixed_s(ev);
  EXPECT_NEAR(one_wave.ttft_s, fixed + wave_prefill * 4.5 / 8.0, 0.03 * one_wave.ttft_s);
  EXPECT_GT(one_wave.ttft_s, 3.0 * steady.ttft_s) << "a whole wave waits behind the others' prompts";
  EXPECT_NEAR(ten_waves.ttft_s, 0.1 * one_wave.ttft_s + 0.9 * steady.ttft_s, 1e-9);
  EXPECT_NEAR(ten_waves.latency_s - ten_waves.ttft_s, steady.latency_s - steady.ttft_s, 1e-9);
  // The sessions target is held without end: its closed loop ignores the workload's run length.
  json finite = doc;
  finite["workload"]["requests"] = 32;
  EXPECT_DOUBLE_EQ(steady_closed_loop(evaluate_scenario(scenario(finite), kNoTtft), 32).ttft_s, steady.ttft_s);
  // A burst of 32 that fits at once is that wave too: its mean TTFT, not its last prompt's.
  json b = doc;
  b["workload"]["kind"] = "burst";
  b["workload"]["requests"] = 32;
  const LoadResult burst = run_load(evaluate_scenario(scenario(b), kNoTtft));
  EXPECT_NEAR(burst.ttft_s, one_wave.ttft_s, 1e-9);
  EXPECT_LT(burst.ttft_s, 0.7 * (fixed + wave_prefill));
}

// Fixed lengths on a prefill-first engine (SGLang; vLLM's V0 before 0.8.0): a wave's prompts are
// all prefilled before any decodes, so the wave finishes together and the next arrives together.
// Every wave is a first wave: the TTFT of a run of 10 C is the single wave's (4.5 of 8 passes), the
// cycle is the wave's prefill plus (out - 1) steps at batch C, and a request's TPOT carries the
// wave's prefill after its own first token. Varied lengths, or vLLM's V1, keep the steady loop.
TEST(PhysicsTime, WavesPersistOnPrefillFirstEngines) {
  json doc = fixed_loop("sglang", "0.4.6");
  const auto eval = [](const json& d) { return evaluate_scenario(scenario(d), kNoTtft); };
  const auto run = [&](const json& base, int requests) {
    json d = base;
    if (requests > 0) d["workload"]["requests"] = requests;
    return run_load(eval(d));
  };
  const Evaluation ev = eval(doc);
  ASSERT_TRUE(ev.s.deployment.engine.prefill_first);
  const double fixed = request_fixed_s(ev);
  const double last = static_batch(ev, 32).ttft_s;  // the wave's last first token
  const double step = decode_at(ev.decode_pool(), 32, ev.running_context, 0, 1.0).tpot_s;
  const LoadResult one = run(doc, 32), ten = run(doc, 320), steady = run(doc, 0);
  EXPECT_NEAR(one.ttft_s, fixed + (last - fixed) * 4.5 / 8.0, 0.03 * one.ttft_s);
  EXPECT_NEAR(ten.ttft_s, one.ttft_s, 1e-12);
  EXPECT_NEAR(steady.ttft_s, one.ttft_s, 1e-12);
  EXPECT_NEAR(ten.output_tps, 32 * 256 / (last + 255 * step), 1e-9 * ten.output_tps);
  EXPECT_NEAR(ten.tpot_s, step + (last - one.ttft_s) / 255, 1e-12);
  EXPECT_NEAR(ten.lambda * ten.latency_s, 32, 1e-9);  // Little's law over the cycle
  // 40 requests: a wave of 32 and one of 8 (whose 8 x 2048 tokens fit two passes).
  const LoadResult forty = run(doc, 40);
  json eight = doc;
  eight["workload"]["concurrency"] = 8;
  const LoadResult small = run(eight, 8);
  EXPECT_NEAR(forty.ttft_s, (32 * one.ttft_s + 8 * small.ttft_s) / 40, 1e-12);
  EXPECT_LT(small.ttft_s, 0.5 * one.ttft_s);
  // vLLM before 0.8.0 (V0) is prefill-first too; 0.8.0 and later, or varied lengths, are not.
  json v0 = doc, v1 = doc, varied = doc;
  v0["deployment"]["engine"] = {{"name", "vllm"}, {"version", "0.7.3"}};
  v1["deployment"]["engine"] = {{"name", "vllm"}, {"version", "0.8.0"}};
  varied["workload"]["input_tokens_max"] = 4096;
  EXPECT_TRUE(eval(v0).s.deployment.engine.prefill_first);
  EXPECT_FALSE(eval(v1).s.deployment.engine.prefill_first);
  EXPECT_NEAR(run(v0, 320).ttft_s, run(v0, 32).ttft_s, 1e-12);
  EXPECT_LT(run(v1, 320).ttft_s, 0.5 * run(v1, 32).ttft_s);
  EXPECT_LT(run(varied, 320).ttft_s, 0.5 * run(varied, 32).ttft_s);
}

// Fixed output lengths on an engine that runs prefill chunks beside the decodes (vLLM V1): the prompts
// one pass prefilled finish on the same step and return together, so a request waits for its
// pass-mates' prompts too. 2048-token prompts under an 8,192-token budget come back four at a time:
// the steady TTFT grows by a 4-prompt pass minus a 1-prompt one. Varied outputs keep single arrivals.
TEST(PhysicsTime, FixedOutputsReturnAPassAtATime) {
  json doc = fixed_loop("vllm", "0.10.1");
  json varied = doc;
  varied["workload"]["output_tokens_max"] = 512;
  const Evaluation fixed_ev = evaluate_scenario(scenario(doc), kNoTtft);
  const Evaluation varied_ev = evaluate_scenario(scenario(varied), kNoTtft);
  const double pass4 = static_batch(fixed_ev, 4).ttft_s - static_batch(fixed_ev, 1).ttft_s;
  const double grown = run_load(fixed_ev).ttft_s - run_load(varied_ev).ttft_s;
  EXPECT_GT(pass4, 0);
  EXPECT_NEAR(grown, pass4, 0.15 * pass4);
}

// The sequences in flight are a length-biased draw of the outputs (a slot holds a long request
// longer): with varied outputs they have done E[L^2] / (2 E[L]) tokens, not E[L] / 2 (renewal-reward
// theorem). Fixed outputs keep input + output / 2. A ShareGPT-like output (mean 200, maximum 2,048:
// nearly exponential, E[L^2] ~ 2 E[L]^2) has done about its mean, so the KV-bound batch is smaller.
TEST(PhysicsTime, RunningContextIsLengthBiasedForVariedOutputs) {
  json doc = fixed_loop("vllm", "0.10.1");
  doc["workload"]["input_tokens"] = 200, doc["workload"]["input_tokens_max"] = 200;
  doc["workload"]["output_tokens"] = 200, doc["workload"]["output_tokens_max"] = 200;
  const Evaluation fixed = evaluate_scenario(scenario(doc), kNoTtft);
  EXPECT_DOUBLE_EQ(fixed.running_context, 300.0);
  doc["workload"]["output_tokens_max"] = 2048;
  const Evaluation varied = evaluate_scenario(scenario(doc), kNoTtft);
  const LengthDist& out = varied.output;
  EXPECT_DOUBLE_EQ(varied.running_context, 200.0 + out.second_moment() / (2.0 * out.mean()));
  EXPECT_GT(varied.running_context, 380.0);  // exponential-like: about input + output
  EXPECT_LT(varied.running_context, 420.0);
  EXPECT_GT(fixed.sessions_target_ctx, 0.0);
  EXPECT_LT(varied.op_max.in_flight, fixed.op_max.in_flight + 1e-9);
}
