// Physics tests, issue 3 (memory plan): invariants of the per-GPU memory plan, the default
// scenario's figures against ESTIMATOR-NOTES §1, and impossible deployments.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/api.hpp"
#include "slo/corrected_report.hpp"
#include "slo/evaluation.hpp"
#include "slo/kv_cache.hpp"
#include "slo/memory_plan.hpp"
#include "slo/scenario.hpp"
#include "slo/step_time.hpp"
#include "test_scenario.hpp"

using nlohmann::json;
using namespace slo;

namespace {

using slo::test::scenario;

double sum_parts(const WeightBytes& w) {
  return w.attention + w.dense_ffn + w.shared_experts + w.routed_experts + w.router + w.embedding + w.lm_head + w.norms +
         w.mtp;
}

// Dense Llama-3.1-70B on one node of 8 x H100 with attention TP 8 (no experts: ep 1).
json llama70b_tp8(const std::string& kv) {
  return json{{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
              {"precision", {{"weights", "fp8"}, {"activations", "fp8"}, {"kv_cache", kv}}},
              {"hardware", {{"gpu", "h100-80g"}, {"nodes", 1}}},
              {"deployment", {{"colocated", {{"gpus", 8}, {"attention_tp", 8}, {"ep", 1}, {"redundant_experts", 0}}}}},
              {"reference", {{"preset", "none"}}}};
}

// DeepSeek-V3 FP8 on H20-96G, `gpus` GPUs with EP = gpus and DP attention.
json deepseek_h20(int gpus, const std::string& kv = "bf16") {
  return json{{"precision", {{"kv_cache", kv}}},
              {"hardware", {{"gpu", "h20-96g"}, {"nodes", (gpus + 7) / 8}}},
              {"deployment", {{"colocated", {{"gpus", gpus}, {"attention_tp", 1}, {"ep", gpus}, {"redundant_experts", 0}}}}}};
}

void expect_plan_balances(const MemoryPlan& mp, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_NEAR(sum_parts(mp.weights), mp.weights.total(), 1e-6 * mp.weights.total());
  EXPECT_GE(mp.kv_pool, 0);
  EXPECT_GE(mp.shortfall, 0);
  EXPECT_GE(mp.reserves(), 0);
  EXPECT_NEAR(mp.usable, mp.hbm * mp.pool->deployment->memory_fraction, 1.0);
  // SGLang's --mem-fraction-static: weights + KV <= f x HBM, and everything (reserves included)
  // within the physical HBM; the KV pool is the smaller of the two budgets.
  ASSERT_EQ(mp.pool->deployment->engine.id, "sglang");
  const double budget = std::min(mp.usable - mp.weights.total(), mp.hbm - mp.weights.total() - mp.reserves());
  if (mp.fits()) {
    EXPECT_NEAR(mp.kv_pool, budget, 1e-9 * mp.hbm);
    EXPECT_LE(mp.weights.total() + mp.kv_pool, mp.usable * (1 + 1e-12));
    EXPECT_LE(mp.weights.total() + mp.reserves() + mp.kv_pool, mp.hbm * (1 + 1e-12));
    EXPECT_EQ(mp.shortfall, 0);
  } else {
    EXPECT_EQ(mp.kv_pool, 0);
    EXPECT_NEAR(mp.shortfall, -budget, 1e-9 * mp.hbm);
  }
}

}  // namespace

TEST(PhysicsMemory, PlanInvariants) {
  std::vector<json> docs = {json::object(), deepseek_h20(8), deepseek_h20(16), deepseek_h20(64), llama70b_tp8("bf16"),
                            llama70b_tp8("fp8"), json{{"deployment", {{"mode", "disaggregated"}}}}};
  for (const auto& doc : docs) {
    const Scenario s = scenario(doc);
    const Evaluation ev = evaluate_scenario(s, EvalOptions{1.0, false, 0});
    for (const auto& pe : ev.pools) {
      expect_plan_balances(pe.plan, doc.dump() + " " + pe.role);
      for (double b : {1.0, 16.0, 256.0, 1024.0}) expect_plan_balances(plan_memory(pe.pool, b), doc.dump() + " b=" + std::to_string(b));
    }
  }
  // With EP = gpus and no redundancy, the routed experts of all GPUs add up to the model's routed
  // experts (256 x 58 x 44,040,192 parameters) at the FP8 block format's bytes.
  const Scenario s = scenario(json::object());
  const Evaluation ev = evaluate_scenario(s, EvalOptions{1.0, false, 0});
  const PoolEval& pe = ev.pools.front();
  const double fp8 = 1.0 + 4.0 / (128.0 * 128.0);  // one fp32 scale per 128x128 block
  EXPECT_NEAR(pe.plan.weights.routed_experts * 32, 58.0 * 256 * 44040192 * fp8, 1.0);
}

TEST(PhysicsMemory, MoreGpusNeverLowerCapacity) {
  double last = -1;
  for (int gpus : {8, 16, 32, 64}) {
    SCOPED_TRACE(gpus);
    const Scenario s = scenario(deepseek_h20(gpus, "fp8"));
    const Evaluation ev = evaluate_scenario(s, EvalOptions{1.0, false, 0});
    const double cap = ev.sessions_32k;
    EXPECT_GE(cap, 0);
    EXPECT_GE(cap, last) << "32K session capacity fell from " << last << " to " << cap << " going to " << gpus << " GPUs";
    last = cap;
  }
  // The same comparison with the reserves sized for one fixed batch.
  double last_fixed = -1;
  for (int gpus : {8, 16, 32, 64}) {
    const Scenario s = scenario(deepseek_h20(gpus, "fp8"));
    const Evaluation ev = evaluate_scenario(s, EvalOptions{1.0, false, 0});
    const MemoryPlan mp = plan_memory(ev.pools.front().pool, kDefaultDecodeBatch);
    EXPECT_GE(mp.sessions(32768), last_fixed) << gpus << " GPUs (reserves at the default batch)";
    last_fixed = mp.sessions(32768);
  }
  EXPECT_GT(last_fixed, 0);
}

// GQA: FP8 KV stores one byte per element instead of two, so capacity doubles (up to the floor
// of whole sessions). Same reserves in both cases (plan at one fixed batch).
TEST(PhysicsMemory, Fp8KvDoublesGqaCapacity) {
  const Scenario sb = scenario(llama70b_tp8("bf16"));
  const Scenario s8 = scenario(llama70b_tp8("fp8"));
  const Evaluation eb = evaluate_scenario(sb, EvalOptions{1.0, false, 0});
  const Evaluation e8 = evaluate_scenario(s8, EvalOptions{1.0, false, 0});
  const MemoryPlan pb = plan_memory(eb.pools.front().pool, kDefaultDecodeBatch);
  const MemoryPlan p8 = plan_memory(e8.pools.front().pool, kDefaultDecodeBatch);
  ASSERT_TRUE(pb.fits());
  ASSERT_TRUE(p8.fits());
  EXPECT_DOUBLE_EQ(pb.kv_pool, p8.kv_pool) << "the KV format should not change weights or reserves";
  ASSERT_EQ(pb.dp, 1);
  const double b = pb.sessions(32768), f = p8.sessions(32768);
  ASSERT_GT(b, 0);
  // floor(2a) is 2 floor(a) or 2 floor(a) + 1.
  EXPECT_GE(f, 2 * b);
  EXPECT_LE(f, 2 * b + 1);
  // The reported capacity (reserves re-sized at each case's operating batch) keeps the ratio.
  ASSERT_GT(eb.sessions_32k, 0);
  EXPECT_NEAR(e8.sessions_32k / eb.sessions_32k, 2.0, 0.05);
}

// MLA: the issue text says FP8 KV "doubles" capacity, which holds for GQA only. FlashMLA's FP8
// layout keeps 4 fp32 scales and the 64-dim rope part in BF16: 656 B per token per layer against
// 1152 B in BF16, so capacity grows by 1152 / 656 = 1.756, not 2.
TEST(PhysicsMemory, Fp8KvMlaCapacityRatio) {
  const Scenario sb = scenario(deepseek_h20(32, "bf16"));
  const Scenario s8 = scenario(deepseek_h20(32, "fp8"));
  const Evaluation eb = evaluate_scenario(sb, EvalOptions{1.0, false, 0});
  const Evaluation e8 = evaluate_scenario(s8, EvalOptions{1.0, false, 0});
  const MemoryPlan pb = plan_memory(eb.pools.front().pool, kDefaultDecodeBatch);
  const MemoryPlan p8 = plan_memory(e8.pools.front().pool, kDefaultDecodeBatch);
  ASSERT_TRUE(pb.fits());
  ASSERT_TRUE(p8.fits());
  EXPECT_DOUBLE_EQ(pb.kv_pool, p8.kv_pool);
  ASSERT_EQ(pb.dp, 32);
  const double r = 1152.0 / 656.0;
  const double gb = pb.sessions(32768) / pb.dp, g8 = p8.sessions(32768) / p8.dp;  // per DP group
  ASSERT_GT(gb, 0);
  // a = kv_pool / bf16 session; gb = floor(a), g8 = floor(r a): floor(r gb) <= g8 < r (gb + 1).
  EXPECT_GE(g8, std::floor(r * gb));
  EXPECT_LT(g8, r * (gb + 1));
  EXPECT_NEAR(p8.session_bytes(32768) / pb.session_bytes(32768), 656.0 / 1152.0, 1e-12);
  // The reported capacity (reserves re-sized at the operating batch): the same ratio, not 2.
  ASSERT_GT(eb.sessions_32k, 0);
  EXPECT_NEAR(e8.sessions_32k / eb.sessions_32k, r, 0.05 * r);
}

// ESTIMATOR-NOTES §1: DeepSeek-V3 FP8 on H20-96G, EP32 + DP attention: ~38-40 GB of weights per GPU
// (embedding, head, routers BF16), ~40-45 GB left for KV, 18-20 sessions of 32K per GPU (BF16 KV).
TEST(PhysicsMemory, DefaultScenarioMatchesNotes) {
  const Scenario s = scenario(json::object());
  ASSERT_EQ(s.cluster_gpus(), 32);
  ASSERT_EQ(s.deployment.colocated.ep, 32);
  ASSERT_EQ(s.deployment.colocated.dp_attention(), 32);
  const Evaluation ev = evaluate_scenario(s);
  ASSERT_EQ(ev.pools.size(), 1u);
  const MemoryPlan& mp = ev.pools.front().plan;
  ASSERT_TRUE(mp.fits());
  EXPECT_GE(mp.weights.total(), 38e9);
  EXPECT_LE(mp.weights.total(), 41e9);
  // The notes' 40-45 GB assumed 90% of a marketed 96 GB for everything. The engine sees 97,871 MiB
  // (nvidia-smi) and SGLang's mem_fraction_static 0.9 covers weights + KV only: 0.9 x 102.6 GB -
  // 39.5 GB = 52.8 GB, 22 sessions of 32K per GPU.
  EXPECT_NEAR(mp.hbm, 97871.0 * 1048576.0, 1.0);
  EXPECT_GE(mp.kv_pool, 50e9);
  EXPECT_LE(mp.kv_pool, 54e9);
  const double per_gpu = ev.sessions_32k / 32;
  EXPECT_GE(per_gpu, 20);
  EXPECT_LE(per_gpu, 24);
  EXPECT_GE(ev.sessions_32k, 200);
  EXPECT_GE(ev.sessions_target_ctx, s.slo.concurrent_sessions) << "capacity at the target context must meet 200 sessions";
}

// The concurrency verdict of the corrected report passes for the default scenario.
TEST(PhysicsMemory, DefaultScenarioConcurrencyVerdictPasses) {
  const Scenario s = scenario(json::object());
  const Report r = corrected_report(s, Lang::En);
  if (r.verdicts.empty()) GTEST_SKIP() << "corrected report has no verdicts yet (core/src/corrected_report.cpp is a placeholder)";
  const Verdict* v = nullptr;
  for (const auto& x : r.verdicts)
    if (x.id == "concurrency") v = &x;
  ASSERT_NE(v, nullptr) << "no concurrency/sessions verdict in the corrected report";
  EXPECT_EQ(v->status, Status::Pass) << v->detail;
}

namespace {

bool has_error(const ParseResult& p, const std::string& path, const std::string& word) {
  for (const auto& e : p.errors)
    if (e.path == path && e.message.find(word) != std::string::npos) return true;
  return false;
}

std::string errors_text(const ParseResult& p) {
  std::string s;
  for (const auto& e : p.errors) s += "[" + e.path + ": " + e.message + "] ";
  return s;
}

void expect_finite(double x, const char* name) { EXPECT_TRUE(std::isfinite(x)) << name << " = " << x; }

void expect_finite_step(const StepParts& st, const std::string& what) {
  SCOPED_TRACE(what);
  for (double x : {st.weights, st.kv, st.gemm, st.attention, st.elementwise, st.weight_bytes, st.kv_bytes, st.gemm_flops,
                   st.attention_flops, st.ep_nvlink, st.ep_rdma, st.ep_latency, st.tp_allreduce, st.pp_send,
                   st.ep_bytes_nvlink, st.ep_bytes_rdma, st.overhead, st.compute_total, st.exposed_comm, st.mtp_draft,
                   st.total})
    EXPECT_TRUE(std::isfinite(x));
}

}  // namespace

TEST(PhysicsMemory, EpNotDividingExpertSlotsIsAnError) {
  // 256 routed + 1 redundant = 257 slots cannot be spread over 32 EP ranks.
  const ParseResult p = parse_scenario(json{{"version", 1}, {"deployment", {{"colocated", {{"redundant_experts", 1}}}}}});
  EXPECT_FALSE(p.ok);
  EXPECT_TRUE(has_error(p, "deployment.colocated.ep", "expert")) << errors_text(p);
  // 24 EP ranks do not divide 256 experts.
  const ParseResult q = parse_scenario(
      json{{"version", 1}, {"deployment", {{"colocated", {{"gpus", 24}, {"ep", 24}, {"redundant_experts", 0}}}}}});
  EXPECT_FALSE(q.ok);
  EXPECT_TRUE(has_error(q, "deployment.colocated.ep", "256")) << errors_text(q);
  // Disaggregated decode pool: 24 ranks with 32 redundant experts (288 slots) is fine; 31 is not.
  const ParseResult r = parse_scenario(
      json{{"version", 1}, {"deployment", {{"mode", "disaggregated"}, {"decode", {{"redundant_experts", 31}}}}}});
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(has_error(r, "deployment.decode.ep", "expert")) << errors_text(r);
}

TEST(PhysicsMemory, AttentionTpAboveHeadCountIsAnError) {
  // Llama-3.1-70B has 64 attention heads; attention TP 128 cannot split them.
  const ParseResult p = parse_scenario(json{{"version", 1},
                                            {"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                                            {"hardware", {{"gpu", "h100-80g"}, {"nodes", 16}}},
                                            {"deployment", {{"colocated", {{"gpus", 128}, {"attention_tp", 128}, {"ep", 1}, {"redundant_experts", 0}}}}},
                                            {"reference", {{"preset", "none"}}}});
  EXPECT_FALSE(p.ok);
  EXPECT_TRUE(has_error(p, "deployment.colocated.attention_tp", "head")) << errors_text(p);
  // DeepSeek-V3 has 128 heads: attention TP 256 on 256 GPUs is impossible too.
  const ParseResult q = parse_scenario(json{{"version", 1},
                                            {"hardware", {{"nodes", 32}}},
                                            {"deployment", {{"colocated", {{"gpus", 256}, {"attention_tp", 256}, {"ep", 256}}}}}});
  EXPECT_FALSE(q.ok);
  EXPECT_TRUE(has_error(q, "deployment.colocated.attention_tp", "head")) << errors_text(q);
}

// DeepSeek-V3 in BF16 (1.34 TB of weights) on 8 x A100-80G (640 GB): parses (a valid question),
// but the plan does not fit, capacity is 0, the shortfall is positive and no number is NaN.
TEST(PhysicsMemory, WeightsLargerThanMemoryReportShortfall) {
  const Scenario s = scenario(json{{"precision", {{"weights", "bf16"}, {"activations", "bf16"}, {"kv_cache", "bf16"}}},
                                   {"hardware", {{"gpu", "a100-80g"}, {"nodes", 1}}},
                                   {"deployment", {{"colocated", {{"gpus", 8}, {"ep", 8}, {"attention_tp", 1}}}}}});
  const Evaluation ev = evaluate_scenario(s);
  ASSERT_EQ(ev.pools.size(), 1u);
  const MemoryPlan& mp = ev.pools.front().plan;
  EXPECT_FALSE(mp.fits());
  EXPECT_EQ(mp.kv_pool, 0);
  // At least (1.342 TB / 8) - 0.9 x 80 GB = 95.7 GB short per GPU.
  EXPECT_GT(mp.shortfall, 671026419200.0 * 2 / 8 - 0.9 * 80e9);
  EXPECT_EQ(ev.sessions_32k, 0);
  EXPECT_EQ(ev.sessions_target_ctx, 0);
  EXPECT_EQ(ev.sessions_8k, 0);
  EXPECT_EQ(ev.lambda_max, 0);
  EXPECT_EQ(ev.lambda_limit, "infeasible");
  EXPECT_FALSE(ev.load_sustainable);
  for (auto [x, name] : std::initializer_list<std::pair<double, const char*>>{
           {ev.sessions_target_ctx, "sessions_target_ctx"}, {ev.sessions_8k, "sessions_8k"}, {ev.sessions_16k, "sessions_16k"},
           {ev.sessions_32k, "sessions_32k"}, {ev.session_bytes_target_ctx, "session_bytes"}, {ev.prefill_tokens_s, "prefill_tokens_s"},
           {ev.prefill_s_per_token, "prefill_s_per_token"}, {ev.lambda_max, "lambda_max"}, {ev.input_tps_max, "input_tps_max"},
           {ev.output_tps_max, "output_tps_max"}, {ev.total_tps_max, "total_tps_max"}, {ev.lambda_load, "lambda_load"},
           {ev.kv_transfer_s, "kv_transfer_s"}, {ev.first_decode_s, "first_decode_s"}, {ev.ttft.p50, "ttft.p50"},
           {ev.ttft.p90, "ttft.p90"}, {ev.ttft.p99, "ttft.p99"}, {ev.ttft.mean, "ttft.mean"}, {ev.ttft.utilization, "ttft.util"},
           {ev.op_max.tpot_s, "op_max.tpot"}, {ev.op_max.output_tps, "op_max.output_tps"}, {ev.op_max.in_flight, "op_max.in_flight"},
           {ev.op_load.tpot_s, "op_load.tpot"}, {ev.op_load.output_tps, "op_load.output_tps"}, {mp.shortfall, "shortfall"},
           {mp.activations, "activations"}, {mp.ep_buffers, "ep_buffers"}, {mp.weights.total(), "weights"},
           {ev.capacity_in_target_kind(), "capacity_in_target_kind"}}) {
    expect_finite(x, name);
    EXPECT_GE(x, 0) << name;
  }
  expect_finite_step(ev.prefill_step, "prefill_step");
  expect_finite_step(ev.op_max.step, "op_max.step");
  expect_finite_step(ev.op_load.step, "op_load.step");
  // The string API's JSON never carries NaN (it would dump as null inside numbers) and stays ok.
  const json out = json::parse(api::evaluate(json{{"version", 1},
                                                  {"precision", {{"weights", "bf16"}, {"activations", "bf16"}}},
                                                  {"hardware", {{"gpu", "a100-80g"}, {"nodes", 1}}},
                                                  {"deployment", {{"colocated", {{"gpus", 8}, {"ep", 8}}}}}}
                                                 .dump(),
                                             R"({"formats":["json"]})"));
  EXPECT_TRUE(out.value("ok", false)) << out.dump().substr(0, 400);
}

// A disaggregated deployment whose prefill pool does not fit: the verdicts name that pool, the decode
// pool (which fits) still reports its own batch and TPOT, and nothing prints an empty cause.
TEST(PhysicsMemory, UnfitPoolIsNamedAndTheOtherPoolStillReports) {
  const json doc = {{"hardware", {{"gpu", "h20-96g"}, {"nodes", 3}}},
                    {"precision", {{"kv_cache", "fp8"}}},
                    {"deployment",
                     {{"mode", "disaggregated"},
                      {"prefill", {{"gpus", 8}, {"attention_tp", 8}, {"ep", 8}}},
                      {"decode", {{"gpus", 16}, {"ep", 16}, {"redundant_experts", 32}}},
                      {"chunked_prefill_tokens", 262144}}},
                    {"workload", {{"input_tokens", 4096}, {"input_tokens_max", 4096}, {"output_tokens", 1536}, {"output_tokens_max", 1536}, {"context_length", 8192}}}};
  const Scenario s = scenario(doc);
  const Evaluation ev = evaluate_scenario(s);
  ASSERT_FALSE(ev.prefill_pool().plan.fits());
  ASSERT_TRUE(ev.decode_pool().plan.fits());
  EXPECT_EQ(ev.lambda_max, 0.0);
  EXPECT_EQ(ev.lambda_limit, "infeasible");
  EXPECT_GT(ev.op_max.in_flight, 0) << "the decode pool's own operating point";
  EXPECT_LE(ev.op_max.tpot_s * 1e3, s.slo.tpot_ms * (1 + 1e-9));
  const Report r = corrected_report(s, Lang::En);
  for (const auto& v : r.verdicts) {
    EXPECT_EQ(v.status, Status::Fail) << v.id;
    if (v.id != "memory") EXPECT_NE(v.detail.find("prefill pool does not fit"), std::string::npos) << v.id << ": " << v.detail;
  }
  const std::string text = render_text(r);
  EXPECT_EQ(text.find(": , "), std::string::npos);
  EXPECT_EQ(text.find("bound by  "), std::string::npos);
  EXPECT_NE(text.find("none: the pool does not fit in GPU memory"), std::string::npos);
  EXPECT_EQ(r.title.find("32 x"), std::string::npos) << "the default name describes another cluster: " << r.title;
  EXPECT_NE(r.title.find("24 x"), std::string::npos) << r.title;
}

// Issue 9: DeepSeek-V3 FP8 at TP8 on one 8 x H20-96G node is served in production by SGLang with
// mem_fraction_static ~0.9; under SGLang's semantics (weights + KV) it fits with room for KV.
TEST(PhysicsMemory, DeepSeekFp8Tp8OnOneH20NodeFitsUnderSglang) {
  const json doc = {{"hardware", {{"gpu", "h20-96g"}, {"nodes", 1}}},
                    {"deployment", {{"colocated", {{"gpus", 8}, {"attention_tp", 8}, {"ep", 8}}}, {"chunked_prefill_tokens", 4096}}},
                    {"workload", {{"input_tokens", 4096}, {"input_tokens_max", 4096}, {"output_tokens", 1024}, {"output_tokens_max", 1024}, {"context_length", 8192}}}};
  const Evaluation ev = evaluate_scenario(scenario(doc), EvalOptions{1.0, false, 0});
  const MemoryPlan& mp = ev.pools.front().plan;
  EXPECT_TRUE(mp.fits()) << "shortfall " << mp.shortfall;
  EXPECT_GT(mp.kv_pool, 5e9);
  EXPECT_GT(mp.weights.total(), 80e9);  // ~84 GB of FP8 weights per GPU
}

namespace {

// MXFP4 experts on a GPU without FP4 tensor cores: vLLM repacks them for Marlin with the hidden size
// padded to 256 and the intermediate to 128, so gpt-oss-120b on one H100 loads 64.4-66.0 GiB
// (vLLM logs "Model loading took 65.9651 GiB" (issue #23278, v0.10.1) and "64.38 GiB" (issue
// #33155, v0.14.1)), not the checkpoint's ~59.4 GiB. SGLang's profile has no such padding here, and a
// GPU with FP4 tensor cores (B200) runs the MXFP4 kernels unpadded.
TEST(PhysicsMemory, GptOssMxfp4OnHopperUnderVllmLoadsMarlinPaddedExperts) {
  auto weights = [](const std::string& gpu, const std::string& engine) {
    const json doc = {{"model", {{"preset", "openai/gpt-oss-120b"}}},
                      {"precision", {{"weights", "mxfp4"}, {"activations", "bf16"}, {"kv_cache", "bf16"}}},
                      {"hardware", {{"gpu", gpu}, {"nodes", 1}, {"gpus_per_node", 1}}},
                      {"deployment", {{"engine", {{"name", engine}}}, {"colocated", {{"gpus", 1}, {"attention_tp", 1}, {"ep", 1}}}}},
                      {"reference", {{"preset", "none"}}}};
    return evaluate_scenario(scenario(doc), EvalOptions{1.0, false, 0}).pools.front().plan.weights.total() / (1024.0 * 1024 * 1024);
  };
  const double vllm = weights("h100-80g", "vllm");
  EXPECT_GT(vllm, 64.0);
  EXPECT_LT(vllm, 66.5);
  EXPECT_LT(weights("h100-80g", "sglang"), 60.0);
  EXPECT_LT(weights("b200-180g", "vllm"), 60.0);
}

}  // namespace

// GPU presets of the A100 40GB and the MI325X: Llama-3.1-70B in BF16 (70.6B parameters, 141 GB)
// does not fit two 40 GB A100s and leaves little KV on four; the MI325X (256 GiB, 6 TB/s) holds
// DeepSeek-V3's FP8 weights on four GPUs with 60 GB more KV each than an MI300X (192 GiB), and its
// batch-1 weight reads take 5.3 / 6.0 of an MI300X's.
TEST(PhysicsMemory, A100FortyAndMi325xPresets) {
  auto llama = [](int tp) {
    const json doc = {{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                      {"precision", {{"weights", "bf16"}, {"activations", "bf16"}, {"kv_cache", "bf16"}}},
                      {"hardware", {{"gpu", "a100-40g"}, {"nodes", 1}}},
                      {"deployment", {{"colocated", {{"gpus", tp}, {"attention_tp", tp}, {"ep", 1}}}}},
                      {"reference", {{"preset", "none"}}}};
    return evaluate_scenario(scenario(doc), EvalOptions{1.0, false, 0}).pools.front().plan;
  };
  EXPECT_FALSE(llama(2).fits());
  const MemoryPlan four = llama(4);
  EXPECT_TRUE(four.fits());
  EXPECT_LT(four.kv_pool, 5e9);
  EXPECT_NEAR(four.hbm, 40960.0 * 1048576, 1.0);
  auto deepseek = [](const std::string& gpu) {
    const json doc = {{"hardware", {{"gpu", gpu}, {"nodes", 1}, {"gpus_per_node", 4}}},
                      {"deployment", {{"colocated", {{"gpus", 4}, {"attention_tp", 4}, {"ep", 1}}}}},
                      {"reference", {{"preset", "none"}}}};
    return evaluate_scenario(scenario(doc), EvalOptions{1.0, false, 0});
  };
  const Evaluation mi300 = deepseek("mi300x"), mi325 = deepseek("mi325x");
  EXPECT_GT(mi325.pools.front().plan.kv_pool - mi300.pools.front().plan.kv_pool, 55e9);
  const Pool& p300 = mi300.pools.front().pool;
  const Pool& p325 = mi325.pools.front().pool;
  EXPECT_NEAR(decode_step(p325, 1, 1024).weights / decode_step(p300, 1, 1024).weights, 5.3 / 6.0, 1e-3);
}

namespace {

// One SGLang/vLLM instance on `gpus` GPUs of `gpu` with deployment.memory_fraction unset (null).
MemoryPlan auto_plan(const std::string& gpu, int gpus, int tp, const std::string& engine, const std::string& release, int chunk,
                     const json& fraction = nullptr) {
  json doc = {{"model", {{"preset", "openai/gpt-oss-120b"}}},
              {"precision", {{"weights", "mxfp4"}, {"activations", "bf16"}, {"kv_cache", "bf16"}}},
              {"hardware", {{"gpu", gpu}, {"nodes", 1}, {"gpus_per_node", gpus}}},
              {"deployment", {{"engine", {{"name", engine}}}, {"memory_fraction", fraction}, {"chunked_prefill_tokens", chunk},
                              {"colocated", {{"gpus", gpus}, {"attention_tp", tp}, {"ep", 1}}}}},
              {"reference", {{"preset", "none"}}}};
  if (!release.empty()) doc["deployment"]["engine"]["version"] = release;
  return evaluate_scenario(scenario(doc), EvalOptions{1.0, false, 0}).pools.front().plan;
}

}  // namespace

// Issue 9: a deployment that leaves the memory flag unset runs at the engine's own choice. SGLang
// from 0.5.3 (PR #10975): (gpu_mem - reserved) / gpu_mem, reserved (MiB) = 512 + 1.5 x max(chunk,
// 2048) + 2 x cuda_graph_max_bs + 128 x tp x pp, + 3 x and 1.5 x graph batch x dp under DP attention
// (graph limit above 300), at least 10,240 on a GPU above 60 GiB; through 0.5.2 by tp_size. vLLM's
// --gpu-memory-utilization and TensorRT-LLM's free_gpu_memory_fraction default to 0.9.
TEST(PhysicsMemory, UnsetMemoryFractionIsTheEnginesAutomaticChoice) {
  // H100 (81,559 MiB), TP1, chunk 8192, graph limit 256: 512 + 12,288 + 512 + 128 = 13,440 -> 0.835.
  const MemoryPlan h100 = auto_plan("h100-80g", 1, 1, "sglang", "", 8192);
  EXPECT_TRUE(h100.fraction_auto);
  EXPECT_DOUBLE_EQ(h100.fraction, 0.835);
  EXPECT_NEAR(h100.usable, 0.835 * 81559.0 * 1048576, 1.0);
  EXPECT_DOUBLE_EQ(auto_plan("h100-80g", 1, 1, "sglang", "0.5.3rc0", 8192).fraction, 0.835);
  // H200 (143,771 MiB), TP8 with DP attention DP8, chunk 1,024 per rank (flag 8,192), graph limit 512:
  // 512 + 12,288 + 1,024 + 1,024 + 3 x 512 x 8 + 1.5 x 512 x 8 = 33,280 -> 0.769.
  EXPECT_DOUBLE_EQ(auto_plan("h200-141g", 8, 1, "sglang", "0.5.6", 1024).fraction, 0.769);
  // Through 0.5.2 the table by TP size.
  EXPECT_DOUBLE_EQ(auto_plan("h100-80g", 1, 1, "sglang", "0.4.9", 8192).fraction, 0.88);
  EXPECT_DOUBLE_EQ(auto_plan("h200-141g", 8, 8, "sglang", "0.5.2", 8192).fraction, 0.81);
  // vLLM: 0.9, the same plan as stating it.
  const MemoryPlan vllm = auto_plan("h100-80g", 1, 1, "vllm", "", 8192);
  EXPECT_DOUBLE_EQ(vllm.fraction, 0.9);
  EXPECT_DOUBLE_EQ(vllm.kv_pool, auto_plan("h100-80g", 1, 1, "vllm", "", 8192, 0.9).kv_pool);
  // A stated fraction is what it says (every link released before keeps its 0.9).
  const MemoryPlan stated = auto_plan("h100-80g", 1, 1, "sglang", "", 8192, 0.9);
  EXPECT_FALSE(stated.fraction_auto);
  EXPECT_DOUBLE_EQ(stated.fraction, 0.9);
  EXPECT_GT(stated.kv_pool, h100.kv_pool + 0.05 * 81559.0 * 1048576);
}
