// Physics tests, issue 4 (time model): monotonicity of the decode step, the KV-read part under
// FP8 KV, EP traffic placement across nodes, MTP, and the HBM lower bound on TPOT.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/evaluation.hpp"
#include "slo/workloads.hpp"
#include "slo/params.hpp"
#include "slo/scenario.hpp"
#include "test_scenario.hpp"
#include "slo/step_time.hpp"
#include "slo/memory_plan.hpp"

using nlohmann::json;
using namespace slo;

namespace {

using slo::test::scenario;

const EvalOptions kNoTtft{1.0, false, 0};

json llama70b(const std::string& gpu, const std::string& w, const std::string& kv, int tp = 8) {
  const std::string act = w == "bf16" ? "bf16" : w;
  return json{{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
              {"precision", {{"weights", w}, {"activations", act}, {"kv_cache", kv}}},
              {"hardware", {{"gpu", gpu}, {"nodes", 1}}},
              {"deployment", {{"colocated", {{"gpus", tp}, {"attention_tp", tp}, {"ep", 1}, {"redundant_experts", 0}}}}},
              {"reference", {{"preset", "none"}}}};
}

json deepseek(const std::string& gpu, int gpus, int nodes, const std::string& kv = "bf16") {
  return json{{"precision", {{"kv_cache", kv}}},
              {"hardware", {{"gpu", gpu}, {"nodes", nodes}}},
              {"deployment", {{"colocated", {{"gpus", gpus}, {"attention_tp", 1}, {"ep", gpus}, {"redundant_experts", 0}}}}}};
}

void expect_monotonic(const Pool& pool, const std::string& what) {
  SCOPED_TRACE(what);
  const std::vector<double> batches = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
  const std::vector<double> contexts = {256, 1024, 4096, 16384, 32768, 131072};
  for (double c : contexts) {
    double prev = 0;
    for (double b : batches) {
      const double t = decode_step(pool, b, c).total;
      EXPECT_TRUE(std::isfinite(t));
      EXPECT_GE(t, prev) << "step time fell going to batch " << b << " at context " << c;
      prev = t;
    }
    EXPECT_GT(decode_step(pool, 512, c).total, decode_step(pool, 1, c).total) << "context " << c;
  }
  for (double b : batches) {
    double prev = 0;
    for (double c : contexts) {
      const double t = decode_step(pool, b, c).total;
      EXPECT_GE(t, prev) << "step time fell going to context " << c << " at batch " << b;
      prev = t;
    }
    EXPECT_GT(decode_step(pool, b, 131072).total, decode_step(pool, b, 256).total) << "batch " << b;
  }
}

}  // namespace

TEST(PhysicsTime, DecodeStepGrowsWithBatchAndContext) {
  {
    const Evaluation ev = evaluate_scenario(scenario(json::object()), kNoTtft);  // DeepSeek-V3 EP32 on H20
    expect_monotonic(ev.pools.front().pool, "DeepSeek-V3 EP32 H20");
  }
  {
    const Evaluation ev = evaluate_scenario(scenario(deepseek("h200-141g", 16, 2)), kNoTtft);
    expect_monotonic(ev.pools.front().pool, "DeepSeek-V3 EP16 H200 (two nodes)");
  }
  {
    const Evaluation ev = evaluate_scenario(scenario(llama70b("h100-80g", "fp8", "bf16")), kNoTtft);
    expect_monotonic(ev.pools.front().pool, "Llama-3.1-70B TP8 H100");
  }
}

// KV read per step = batch x context x bytes per token: FP8 halves it for GQA (1 B vs 2 B) and
// scales it by 656 / 1152 for MLA (FlashMLA's FP8 layout).
TEST(PhysicsTime, Fp8KvCutsKvReads) {
  {
    const Evaluation eb = evaluate_scenario(scenario(llama70b("h100-80g", "fp8", "bf16")), kNoTtft);
    const Evaluation e8 = evaluate_scenario(scenario(llama70b("h100-80g", "fp8", "fp8")), kNoTtft);
    for (double b : {1.0, 32.0, 128.0})
      for (double c : {1024.0, 8192.0, 32768.0}) {
        const StepParts sb = decode_step(eb.pools.front().pool, b, c), s8 = decode_step(e8.pools.front().pool, b, c);
        ASSERT_GT(sb.kv_bytes, 0);
        EXPECT_NEAR(s8.kv_bytes / sb.kv_bytes, 0.5, 1e-12) << "b=" << b << " c=" << c;
        // 80 layers x 2 x 1 KV head per rank x 128 x 2 B per token: the bytes of the batch's context.
        EXPECT_NEAR(sb.kv_bytes, b * c * 327680.0 / 8, 1e-9 * sb.kv_bytes) << "b=" << b << " c=" << c;
      }
  }
  {
    const Evaluation eb = evaluate_scenario(scenario(deepseek("h20-96g", 32, 4, "bf16")), kNoTtft);
    const Evaluation e8 = evaluate_scenario(scenario(deepseek("h20-96g", 32, 4, "fp8")), kNoTtft);
    for (double b : {1.0, 32.0, 128.0})
      for (double c : {1024.0, 8192.0, 32768.0}) {
        const StepParts sb = decode_step(eb.pools.front().pool, b, c), s8 = decode_step(e8.pools.front().pool, b, c);
        ASSERT_GT(sb.kv_bytes, 0);
        EXPECT_NEAR(s8.kv_bytes / sb.kv_bytes, 656.0 / 1152.0, 1e-12) << "b=" << b << " c=" << c;
        EXPECT_NEAR(sb.kv_bytes, b * c * 70272.0, 1e-9 * sb.kv_bytes) << "b=" << b << " c=" << c;
      }
  }
}

// One node: all EP traffic on NVLink. Two nodes: half of the top-k copies go to the other node's
// GPUs (uniform routing over 16 GPUs, 8 of them local), so RDMA carries traffic.
TEST(PhysicsTime, SecondNodeMovesEpTrafficToRdma) {
  const Evaluation e1 = evaluate_scenario(scenario(deepseek("h200-141g", 8, 1)), kNoTtft);
  const Evaluation e2 = evaluate_scenario(scenario(deepseek("h200-141g", 16, 2)), kNoTtft);
  for (double b : {1.0, 16.0, 64.0, 256.0}) {
    SCOPED_TRACE(b);
    const StepParts s1 = decode_step(e1.pools.front().pool, b, 4096);
    const StepParts s2 = decode_step(e2.pools.front().pool, b, 4096);
    EXPECT_EQ(s1.ep_bytes_rdma, 0);
    EXPECT_GT(s1.ep_bytes_nvlink, 0);
    EXPECT_GT(s2.ep_bytes_rdma, 0);
    const double share1 = s1.ep_bytes_nvlink / (s1.ep_bytes_nvlink + s1.ep_bytes_rdma);
    const double share2 = s2.ep_bytes_nvlink / (s2.ep_bytes_nvlink + s2.ep_bytes_rdma);
    EXPECT_LT(share2, share1);
    EXPECT_NEAR(share2, 0.5, 0.1) << "uniform routing over 2 nodes keeps about half the copies in the node";
    EXPECT_GT(s2.ep_rdma + s2.ep_nvlink, 0);
  }
}

// Drafts that are never accepted cost time and deliver nothing: TPOT never improves.
TEST(PhysicsTime, MtpWithZeroAcceptanceNeverHelps) {
  const std::vector<std::pair<std::string, json>> cases = {{"DeepSeek-V3 EP32 H20", json::object()},
                                                           {"DeepSeek-V3 EP8 H200", deepseek("h200-141g", 8, 1)}};
  for (const auto& [name, base] : cases) {
    SCOPED_TRACE(name);
    const Evaluation e0 = evaluate_scenario(scenario(base), kNoTtft);
    for (int d = 1; d <= 3; ++d) {
      json doc = base;
      doc["deployment"]["mtp"] = {{"draft_tokens", d}, {"acceptance", 0.0}};
      const Evaluation em = evaluate_scenario(scenario(doc), kNoTtft);
      ASSERT_TRUE(em.pools.front().pool.with_mtp);
      for (double b : {1.0, 4.0, 16.0, 64.0, 256.0}) {
        const DecodePoint p0 = decode_at(e0.pools.front(), b, 2048, 0, 1.0);
        const DecodePoint pm = decode_at(em.pools.front(), b, 2048, 0, 1.0);
        EXPECT_DOUBLE_EQ(pm.tokens_per_step, 1.0);
        EXPECT_GE(pm.tpot_s, p0.tpot_s) << "d=" << d << " b=" << b;
      }
    }
  }
}

TEST(PhysicsTime, TokensPerStepIsGeometricSum) {
  for (int d = 0; d <= 8; ++d)
    for (double a : {0.0, 0.3, 0.5, 0.7, 0.9, 1.0}) {
      // 1 + a + ... + a^d in closed form.
      const double expected = a == 1.0 ? d + 1.0 : (1.0 - std::pow(a, d + 1)) / (1.0 - a);
      EXPECT_NEAR(tokens_per_step(Mtp{d, a}), expected, 1e-12) << "d=" << d << " a=" << a;
    }
  EXPECT_NEAR(tokens_per_step(Mtp{2, 0.7}), 1 + 0.7 + 0.49, 1e-12);
  EXPECT_DOUBLE_EQ(tokens_per_step(Mtp{0, 0.7}), 1.0);
}

namespace {

// Bytes every decode step must stream from HBM on one GPU at batch 1, whatever the kernels: the
// GPU's share of the attention projections, dense FFN and shared experts (all TP-split by
// attention_tp here, no replicated MLA part counted: a lower bound) and its lm_head slice (BF16).
// Routed experts and the embedding table are left out (a lower bound).
double min_weight_bytes(const Scenario& s) {
  const ParamBreakdown p = count_params(s.model);
  const int t = s.deployment.colocated.attention_tp;
  const double wq = s.precision.weights == DType::BF16 ? 2.0 : s.precision.weights == DType::FP8 ? 1.0 : 0.5;
  return (p.attention + p.dense_ffn + p.shared_experts) / t * wq + p.lm_head / t * 2.0;
}

}  // namespace

TEST(PhysicsTime, Batch1TpotBoundedByHbmBandwidth) {
  const std::vector<std::pair<std::string, json>> cases = {
      {"DeepSeek-V3 FP8 EP32 H20", json::object()},
      {"DeepSeek-V3 FP8 EP8 H200", deepseek("h200-141g", 8, 1)},
      {"DeepSeek-V3 FP8 EP16 H100", deepseek("h100-80g", 16, 2)},
      {"Llama-70B BF16 TP8 H100", llama70b("h100-80g", "bf16", "bf16")},
      {"Llama-70B FP8 TP8 H20", llama70b("h20-96g", "fp8", "bf16")},
      {"Llama-70B BF16 TP4 A100", llama70b("a100-80g", "bf16", "bf16", 4)},
      {"Qwen2.5-72B BF16 TP8 H200",
       json{{"model", {{"preset", "Qwen/Qwen2.5-72B-Instruct"}}},
            {"precision", {{"weights", "bf16"}, {"activations", "bf16"}}},
            {"hardware", {{"gpu", "h200-141g"}, {"nodes", 1}}},
            {"deployment", {{"colocated", {{"gpus", 8}, {"attention_tp", 8}, {"ep", 1}, {"redundant_experts", 0}}}}},
            {"reference", {{"preset", "none"}}}}},
  };
  for (const auto& [name, doc] : cases) {
    SCOPED_TRACE(name);
    const Scenario s = scenario(doc);
    const Evaluation ev = evaluate_scenario(s, kNoTtft);
    const double bound = min_weight_bytes(s) / s.gpu.hbm_bytes_s;  // spec-sheet bandwidth, no efficiency
    ASSERT_GT(bound, 1e-3);
    for (double c : {128.0, 4096.0}) {
      const DecodePoint p = decode_at(ev.pools.front(), 1, c, 0, 1.0);
      EXPECT_GE(p.tpot_s, bound) << "context " << c;
      EXPECT_GE(decode_step(ev.pools.front().pool, 1, c).total, bound);
      // The step's own weight-byte tally cannot stream faster than the spec sheet either.
      EXPECT_GE(p.step.total, p.step.weight_bytes / s.gpu.hbm_bytes_s);
      EXPECT_GE(p.step.weight_bytes, min_weight_bytes(s) * 0.999);
    }
  }
}

// Colocated DP attention: a prefill chunk on one rank stalls every rank at the next MoE layer, so
// the GPU time lost to prefill exceeds the prefill work once there are several DP groups; with one
// DP group or a dense model the two are equal. More DP groups lose more at the same per-GPU load.
TEST(PhysicsTime, DpAttentionPrefillStallsEveryRank) {
  const Evaluation ev8 = evaluate_scenario(scenario(deepseek("h200-141g", 8, 1)), kNoTtft);
  ASSERT_GT(ev8.prefill_local_fraction, 0.2);
  ASSERT_LT(ev8.prefill_local_fraction, 0.9);
  const double lambda8 = 0.5 * ev8.lambda_max;
  const double work8 = ev8.prefill_work_share(lambda8);
  ASSERT_GT(work8, 0.0);
  // Union of 8 independent busy fractions of the local part, plus the shared expert part.
  const double f = ev8.prefill_local_fraction;
  EXPECT_NEAR(ev8.prefill_share(lambda8), 1 - std::pow(1 - work8 * f, 8) + work8 * (1 - f), 1e-12);
  EXPECT_GT(ev8.prefill_share(lambda8), 1.5 * work8);

  // Same per-GPU load on 16 DP groups (two nodes) loses more GPU time.
  const Evaluation ev16 = evaluate_scenario(scenario(deepseek("h200-141g", 16, 2)), kNoTtft);
  // The rate at which each of its GPUs does the same prefill work (work share grows with the rate).
  double lo = 0, hi = 4 * lambda8;
  for (int i = 0; i < 100; ++i) (ev16.prefill_work_share(0.5 * (lo + hi)) < work8 ? lo : hi) = 0.5 * (lo + hi);
  const double lambda16 = 0.5 * (lo + hi);
  EXPECT_NEAR(ev16.prefill_work_share(lambda16), work8, 1e-9);
  EXPECT_GT(ev16.prefill_share(lambda16), ev8.prefill_share(lambda8));

  // One DP group (TP8 attention) or a dense model: the share is the work.
  json tp8 = deepseek("h200-141g", 8, 1);
  tp8["deployment"]["colocated"]["attention_tp"] = 8;
  const Evaluation ev_tp = evaluate_scenario(scenario(tp8), kNoTtft);
  EXPECT_DOUBLE_EQ(ev_tp.prefill_share(0.3 * ev_tp.lambda_max), ev_tp.prefill_work_share(0.3 * ev_tp.lambda_max));
  json dense = llama70b("h100-80g", "fp8", "bf16", 2);
  dense["deployment"]["colocated"]["gpus"] = 8;  // 4 DP replicas of TP2
  const Evaluation ev_d = evaluate_scenario(scenario(dense), kNoTtft);
  ASSERT_EQ(ev_d.prefill_pool().plan.dp, 4);
  EXPECT_DOUBLE_EQ(ev_d.prefill_share(0.5 * ev_d.lambda_max), ev_d.prefill_work_share(0.5 * ev_d.lambda_max));
}

// A fixed number of sessions in flight (benchmark clients): Little's law holds at the answer, and
// more sessions never lower TPOT; it settles even where prefill dominates (Llama 70B, 2K inputs).
TEST(PhysicsTime, ClosedLoopObeysLittlesLaw) {
  json llama = llama70b("h100-80g", "fp8", "bf16");
  llama["workload"] = {{"input_tokens", 2048}, {"input_tokens_max", 8192}, {"output_tokens", 512}, {"output_tokens_max", 2048}, {"context_length", 16384}};
  for (const json& doc : {json::object(), deepseek("h200-141g", 8, 1), llama}) {
    const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
    const Workload& w = ev.s.workload;
    double prev_tpot = 0;
    for (double c : {8.0, 64.0, 128.0, 256.0}) {
      SCOPED_TRACE(ev.s.model.name + " at " + std::to_string(c));
      const LoadResult cl = closed_loop(ev, c);
      ASSERT_GT(cl.lambda, 0);
      // Little's law: clients = rate x (TTFT + (out - 1) TPOT).
      EXPECT_NEAR(cl.lambda * (cl.ttft_s + (w.output_tokens - 1) * cl.tpot_s), c, 1e-6 * c);
      EXPECT_GE(cl.tpot_s, prev_tpot * (1 - 1e-9));
      EXPECT_LT(ev.prefill_share(cl.lambda), 1.0);
      prev_tpot = cl.tpot_s;
    }
  }
}

// A TP group inside a node all-reduces with the engines' one-shot custom kernel (allreduce_latency_us);
// one spanning nodes falls back to one NCCL all-reduce per call, whose small-message latency is the
// family's net_allreduce_latency_us (60 us on Hopper, nccl-tests). DeepSeek-R1 at batch 1 makes two per
// layer (attention and MoE outputs): 2 x 61 calls, almost all latency.
TEST(PhysicsTime, CrossNodeTensorParallelPaysNcclLatency) {
  const auto tp_allreduce = [](int gpus, int nodes) {
    json doc = {{"model", {{"preset", "deepseek-ai/DeepSeek-R1"}}},
                {"hardware", {{"gpu", "h100-80g"}, {"nodes", nodes}}},
                {"deployment", {{"colocated", {{"gpus", gpus}, {"attention_tp", gpus}, {"ep", 1}, {"redundant_experts", 0}}}}},
                {"reference", {{"preset", "none"}}}};
    const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
    return std::make_pair(decode_step(ev.pools.front().pool, 1, 1024).tp_allreduce, ev.s.gpu.eff);
  };
  const auto [two_nodes, eff] = tp_allreduce(16, 2);
  const auto [one_node, unused] = tp_allreduce(8, 1);
  const double calls = 2.0 * 61;
  EXPECT_NEAR(eff.net_allreduce_latency_us, 60.0, 1e-9);
  EXPECT_NEAR(two_nodes, calls * eff.net_allreduce_latency_us * 1e-6, 0.05 * two_nodes);
  EXPECT_NEAR(one_node, calls * eff.allreduce_latency_us * 1e-6, 0.10 * one_node);
}

// GPUs without NVLink (L40S, L20) all-reduce through NCCL's ring over PCIe: the engines' one-shot kernel
// turns itself off beyond two PCIe-only GPUs, and the ring's 2 (g-1) steps make the small-message
// latency grow with the group (8 x PCIe GPUs: 42-54 us for 8 bytes, nccl#1530 / #1439). At batch 1,
// Llama 70B's 160 all-reduces per step are almost all latency: TP8 pays 7 ring steps, TP4 3, TP2 1.
TEST(PhysicsTime, PcieOnlyAllReduceLatencyGrowsWithTheRing) {
  const auto step = [](int gpus) {
    const Evaluation ev = evaluate_scenario(scenario(llama70b("l40s", "fp8", "fp8", gpus)), kNoTtft);
    EXPECT_TRUE(ev.s.gpu.pcie_peers);
    return std::make_pair(decode_step(ev.pools.front().pool, 1, 1024).tp_allreduce, ev.s.gpu.eff.allreduce_latency_us);
  };
  const auto [tp8, lat] = step(8);
  const auto [tp4, unused] = step(4);
  EXPECT_GE(lat, 2.0);  // the ring's per-step cost (fitted for PCIe-only families; prior 6 us, nccl-tests)
  // The ring's bandwidth term (1.5-1.75 x 16 KB over ~24 GB/s) adds the rest, under a tenth.
  EXPECT_NEAR(tp8, 160 * 7 * lat * 1e-6, 0.10 * tp8);
  EXPECT_NEAR(tp4, 160 * 3 * lat * 1e-6, 0.10 * tp4);
  EXPECT_GT(tp8, 2.0 * tp4);
  // An NVLink GPU keeps one latency per call whatever the group.
  const Evaluation hv = evaluate_scenario(scenario(llama70b("h100-80g", "fp8", "fp8")), kNoTtft);
  EXPECT_FALSE(hv.s.gpu.pcie_peers);
  EXPECT_NEAR(decode_step(hv.pools.front().pool, 1, 1024).tp_allreduce, 160 * hv.s.gpu.eff.allreduce_latency_us * 1e-6, 0.10 * 160 * hv.s.gpu.eff.allreduce_latency_us * 1e-6);
}

// The routed experts' grouped GEMMs run at the engine's MoE-kernel efficiency (moe_gemm): halving
// it doubles the compute-bound expert time of a large prefill and leaves a dense model untouched.
TEST(PhysicsTime, MoeGemmFactorScalesOnlyExpertGemms) {
  const auto gemm_at = [](const Evaluation& ev, double moe_gemm) {
    Pool pool = ev.pools.front().pool;
    Deployment d = *pool.deployment;
    d.engine.overheads.moe_gemm = moe_gemm;
    pool.deployment = &d;
    return prefill_pass(pool, 16384, 4, 4 * 4096.0 * 2048.0, 0).gemm;
  };
  const Evaluation moe = evaluate_scenario(scenario(json::object()), kNoTtft);  // DeepSeek-V3 EP32 on H20
  const double full = gemm_at(moe, 1.0), half = gemm_at(moe, 0.5);
  EXPECT_GT(half, 1.3 * full) << "the expert GEMMs are most of a DeepSeek prefill's GEMM time";
  EXPECT_LT(half, 2.0 * full);
  const Evaluation dense = evaluate_scenario(scenario(llama70b("h100-80g", "fp8", "bf16")), kNoTtft);
  EXPECT_DOUBLE_EQ(gemm_at(dense, 0.5), gemm_at(dense, 1.0));
}

namespace slo {
namespace {

// A prefill pass's eager kernel launches overlap the GPU's work (asynchronous launches): the pass
// takes the per-pass CPU cost plus max(GPU time, launch time). A short prompt on a dense model is
// launch-bound: its pass is the launches plus the fixed cost, not the launches plus the GPU time;
// a long one hides its launches. Behind expert parallelism (DeepEP's CPU sync per MoE layer) they add.
TEST(PhysicsTime, PrefillLaunchesOverlapTheGpuExceptBehindEp) {
  const auto pass = [](const Evaluation& ev, double tokens, double prefill_kernel_us) {
    Pool pool = ev.pools.front().pool;
    Deployment d = *pool.deployment;
    d.engine.overheads.prefill_kernel_us = prefill_kernel_us;
    pool.deployment = &d;
    return prefill_pass(pool, tokens, 1, tokens * tokens / 2, 0);
  };
  const Evaluation dense = evaluate_scenario(scenario(llama70b("h100-80g", "fp8", "bf16")), kNoTtft);
  const double fixed = dense.s.deployment.engine.overheads.prefill_ms * 1e-3;  // host work: no GPU launch scale
  // GPU time of the pass alone (no launch cost): compute and exposed communication.
  const StepParts bare = pass(dense, 128, 0.0);
  const double gpu = bare.compute_total + bare.exposed_comm;
  // Launch-bound at 100 and 200 us per kernel (launches L and 2L, both far beyond a 128-token pass's
  // GPU time): overlapped, t = fixed + L, so 2 t(100) - t(200) = fixed; summed it would be fixed + gpu.
  const double t100 = pass(dense, 128, 100.0).total, t200 = pass(dense, 128, 200.0).total;
  EXPECT_GT(t200 - t100, 3 * gpu) << "launch-bound";
  EXPECT_NEAR(2 * t100 - t200, fixed, 1e-9) << "launches and GPU time are not summed (GPU time " << gpu << " s)";
  // Compute-bound: a 16K-token pass hides 20 us launches entirely.
  const StepParts big = pass(dense, 16384, 20.0), big0 = pass(dense, 16384, 0.0);
  EXPECT_NEAR(big.total, big0.total, 1e-12);
  // Expert parallelism (DeepSeek-V3 EP32 on H20): the launches add to the GPU time.
  const Evaluation ep = evaluate_scenario(scenario(json::object()), kNoTtft);
  const StepParts e0 = pass(ep, 16384, 0.0), e1 = pass(ep, 16384, 20.0);
  EXPECT_GT(e1.total - e0.total, 0.9 * (e1.overhead - e0.overhead));
  EXPECT_GT(e1.overhead - e0.overhead, 0.0);
}

// Host work (the engine's per-step CPU time, per running sequence, per request) is the engine's own and
// does not follow the GPU family's launch scale, which applies to the kernels' GPU-side fixed time in a
// CUDA-graph decode. Source: engine profiles (engines.json: fitted per engine and build).
TEST(PhysicsTime, LaunchScaleAppliesToGpuKernelsNotToHostWork) {
  const Evaluation dense = evaluate_scenario(scenario(llama70b("h100-80g", "fp8", "bf16")), kNoTtft);
  auto step = [&](double launch_scale, double kernel_us) {
    Pool pool = dense.decode_pool().pool;
    Gpu g = *pool.gpu;
    g.eff.launch_scale = launch_scale;
    Deployment d = *pool.deployment;
    d.engine.overheads.kernel_us = kernel_us;
    pool.gpu = &g;
    pool.deployment = &d;
    return decode_step(pool, 64, 2048).total;
  };
  EXPECT_DOUBLE_EQ(step(1.0, 0.0), step(3.0, 0.0)) << "step and sequence CPU time scaled by the GPU family";
  EXPECT_GT(step(3.0, 5.0) - step(1.0, 5.0), 0.5 * 2 * 5e-6 * dense.decode_pool().consts->kernels_per_layer * 80);
}

// Decode attention streams the KV cache through the engine's own paged-attention kernels (XQA,
// FlashInfer, FlashAttention, FlashMLA): the engine profile's kv_read scales that rate, not the
// weights' (engines.json, fitted per engine).
TEST(PhysicsTime, KvReadsRunAtTheEnginesAttentionKernelRate) {
  const Evaluation dense = evaluate_scenario(scenario(llama70b("h100-80g", "fp8", "bf16")), kNoTtft);
  auto step = [&](double kv_read) {
    Pool pool = dense.decode_pool().pool;
    Deployment d = *pool.deployment;
    d.engine.overheads.kv_read = kv_read;
    pool.deployment = &d;
    return decode_step(pool, 128, 8192);
  };
  const StepParts full = step(1.0), half = step(0.5);
  EXPECT_DOUBLE_EQ(full.kv_bytes, half.kv_bytes);
  EXPECT_DOUBLE_EQ(full.weights, half.weights);
  EXPECT_GT(full.kv, 0.0);
  EXPECT_NEAR(half.kv / full.kv, 2.0, 0.2);  // memory-bound: twice the time (the smooth roofline adds a little compute)
}

// A tensor-parallel all-reduce of a decode-sized message (up to the engines' 8 MiB custom
// all-reduce buffer) runs at the family's all-reduce share of the peer link; a prefill chunk's
// (128 MiB for Llama 70B at 8,192 tokens) at its bulk-transfer share, as NCCL moves it.
TEST(PhysicsTime, DecodeSizedAllReducesRunAtTheirOwnLinkShare) {
  const Evaluation dense = evaluate_scenario(scenario(llama70b("h100-80g", "fp8", "bf16")), kNoTtft);
  struct Comm {
    double decode, prefill;
  };
  auto comm = [&](double allreduce_bw, double nvlink) {
    Pool pool = dense.decode_pool().pool;
    Gpu g = *pool.gpu;
    g.eff.allreduce_bw = allreduce_bw;
    g.eff.nvlink = nvlink;
    pool.gpu = &g;
    return Comm{decode_step(pool, 64, 2048).tp_allreduce, prefill_pass(pool, 8192, 1, 8192.0 * 8192.0 / 2, 0).tp_allreduce};
  };
  const Comm base = comm(0.5, 0.5), slow_small = comm(0.25, 0.5), slow_bulk = comm(0.5, 0.25);
  const double lat = 2.0 * 80 * dense.s.gpu.eff.allreduce_latency_us * 1e-6;  // two all-reduces per layer
  EXPECT_NEAR((slow_small.decode - lat) / (base.decode - lat), 2.0, 1e-9) << "1 MiB decode messages follow allreduce_bw";
  EXPECT_DOUBLE_EQ(slow_small.prefill, base.prefill) << "128 MiB prefill messages do not";
  EXPECT_DOUBLE_EQ(slow_bulk.decode, base.decode);
  EXPECT_GT(slow_bulk.prefill, 1.9 * base.prefill - lat);
}

// An overlap scheduler (SGLang from 0.4.0, TensorRT-LLM's PyTorch backend from 1.0) prepares the next
// decode batch while the GPU runs this one: a step takes the longer of its CPU work (per-step and
// per-sequence host time) and the rest, not their sum. A release before it, vLLM (no default async
// scheduling) and SGLang with MTP drafts (it turns the scheduler off) add them.
// Source: LMSYS SGLang v0.4 blog (zero-overhead batch scheduler); TensorRT-LLM overlap-scheduler docs.
TEST(PhysicsTime, OverlapSchedulerHidesDecodeCpuWork) {
  auto pool_of = [](const json& doc, Evaluation& keep) {
    keep = evaluate_scenario(scenario(doc), kNoTtft);
    return keep.decode_pool().pool;
  };
  auto doc_for = [](const std::string& engine, const std::string& version) {
    json doc = llama70b("h100-80g", "fp8", "bf16");
    doc["deployment"]["engine"] = {{"name", engine}, {"version", version}};
    return doc;
  };
  Evaluation e_new, e_old, e_vllm;
  const Pool on = pool_of(doc_for("sglang", "0.5.6"), e_new), off = pool_of(doc_for("sglang", "0.3.6"), e_old);
  ASSERT_TRUE(on.deployment->engine.overlap_scheduler);
  ASSERT_FALSE(off.deployment->engine.overlap_scheduler);
  const EngineOverheads& o = on.deployment->engine.overheads;
  for (double seqs : {1.0, 32.0, 256.0}) {
    SCOPED_TRACE(seqs);
    const StepParts serial = decode_step(off, seqs, 2048), overlapped = decode_step(on, seqs, 2048);
    const double cpu = o.step_ms * 1e-3 + seqs * o.seq_us * 1e-6;
    EXPECT_NEAR(overlapped.total, std::max(cpu, serial.total - cpu), 1e-12);
    EXPECT_NEAR(overlapped.overhead, overlapped.total - overlapped.compute_total - overlapped.exposed_comm, 1e-15);
    EXPECT_LT(overlapped.total, serial.total);
  }
  const Pool vllm = pool_of(doc_for("vllm", "0.11.0"), e_vllm);
  EXPECT_FALSE(vllm.deployment->engine.overlap_scheduler);
  // DeepSeek with MTP drafts on SGLang: the scheduler is off, so the release does not matter.
  json mtp = deepseek("h200-141g", 8, 1);
  mtp["deployment"]["mtp"] = {{"draft_tokens", 2}, {"acceptance", 0.7}};
  mtp["deployment"]["engine"] = {{"name", "sglang"}, {"version", "0.5.6"}};
  Evaluation e_mtp_new, e_mtp_old;
  const Pool mtp_on = pool_of(mtp, e_mtp_new);
  mtp["deployment"]["engine"]["version"] = "0.3.6";
  const Pool mtp_off = pool_of(mtp, e_mtp_old);
  EXPECT_DOUBLE_EQ(decode_step(mtp_on, 64, 4096).total, decode_step(mtp_off, 64, 4096).total);
}

// SGLang DP attention over tensor-parallel experts (DeepSeek-R1 on 8 x H200, DP8, MoE TP8): a prefill
// batch is gathered and scattered by two whole-batch all-reduces per MoE layer; decode, and an
// engine without that gather, pay one all-reduce's bytes. Source: SGLang dp_attention.py (SUM_LEN).
TEST(PhysicsTime, DpAttentionPrefillGathersByAllReduceTwice) {
  json doc = deepseek("h200-141g", 8, 1);
  doc["deployment"]["colocated"]["ep"] = 1;
  doc["deployment"]["engine"] = {{"name", "sglang"}};
  const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
  Pool pool = ev.pools.front().pool;
  ASSERT_EQ(pool.dp(), 8);
  Deployment d = *pool.deployment;
  ASSERT_TRUE(d.engine.dp_prefill_all_reduce);
  pool.deployment = &d;
  const double tokens = 1024;
  const double twice = prefill_pass(pool, tokens, 1, tokens * tokens / 2, 0).tp_allreduce;
  const double dec_on = decode_step(pool, 64, 4000).tp_allreduce;
  d.engine.dp_prefill_all_reduce = false;
  const double once = prefill_pass(pool, tokens, 1, tokens * tokens / 2, 0).tp_allreduce;
  EXPECT_NEAR(twice, 2 * once, 1e-12);
  EXPECT_DOUBLE_EQ(decode_step(pool, 64, 4000).tp_allreduce, dec_on) << "decode gathers by all-gather either way";
  // One all-reduce per MoE layer of the 8 ranks' 8,192 tokens x 7,168 x 2 bytes (117.4 MB): ring over
  // NVLink, 2 x 7/8 of the data each way, plus the fitted all-reduce latency; 58 MoE layers.
  const Gpu& g = *pool.gpu;
  const double bytes = 8 * tokens * 7168 * 2.0;
  const double one = 2.0 * 7 / 8 * bytes / (g.nvlink_bytes_s * g.eff.nvlink) + g.eff.allreduce_latency_us * 1e-6;
  EXPECT_NEAR(once, 58 * one, 1e-9);
}

// The decode step streams the experts as vLLM loads them: MXFP4 repacked for Marlin on Hopper,
// hidden 2,880 -> 3,072 and intermediate 2,880 -> 2,944 (x 1.091). At a batch that touches every
// expert, the step reads the padded bytes: the extra read equals the memory plan's extra expert bytes.
// Source: vLLM Mxfp4MoEMethod (Marlin backend), as in PhysicsMemory.GptOssMxfp4OnHopperUnderVllmLoadsMarlinPaddedExperts.
TEST(PhysicsTime, MarlinPaddedExpertsAreWhatADecodeStepReads) {
  const json doc = {{"model", {{"preset", "openai/gpt-oss-120b"}}},
                    {"precision", {{"weights", "mxfp4"}, {"activations", "bf16"}, {"kv_cache", "bf16"}}},
                    {"hardware", {{"gpu", "h100-80g"}, {"nodes", 1}, {"gpus_per_node", 1}}},
                    {"deployment", {{"engine", {{"name", "vllm"}}}, {"colocated", {{"gpus", 1}, {"attention_tp", 1}, {"ep", 1}}}}},
                    {"reference", {{"preset", "none"}}}};
  const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
  Pool pool = ev.pools.front().pool;
  Deployment d = *pool.deployment;
  pool.deployment = &d;
  EXPECT_NEAR(marlin_padding(pool, 1), 3072.0 * 2944.0 / (2880.0 * 2880.0), 1e-12);
  const double padded = decode_step(pool, 1024, 2048).weight_bytes, plan_padded = weights_per_gpu(pool).routed_experts;
  d.engine.mxfp4_pad_hidden = d.engine.mxfp4_pad_intermediate = 0;
  const double plain = decode_step(pool, 1024, 2048).weight_bytes, plan_plain = weights_per_gpu(pool).routed_experts;
  EXPECT_GT(padded, plain);
  // (the plan also counts the experts' biases, 3 x 2,880 of 3 x 2,880^2 per expert: 0.035%)
  EXPECT_NEAR((padded - plain) / (plan_padded - plan_plain), 1.0, 1e-3);
}

}  // namespace
}  // namespace slo

namespace slo {
namespace {

// Block-scaled FP8 GEMMs on Hopper are bound per SM (FP32 promotion of every 128-deep partial sum on
// the CUDA cores), at 3.03 TFLOP/s per SM: 400 TFLOP/s on an H200's 132 SMs, as vLLM PR #23280
// measured on H100, not the 1,187 the family's FP8 factor gives. Only the kernels the engine profile
// names are bound (vLLM: dense and fused MoE; SGLang: fused MoE, its dense layers run DeepGEMM), only
// tensor-parallel experts (DeepEP runs DeepGEMM), only with block scales, and not on H20, whose 78 SMs
// out-run its FP8 tensor cores.
TEST(PhysicsTime, BlockScaledFp8GemmsAreBoundPerSmOnHopper) {
  auto gemm_time = [](const std::string& gpu, const std::string& engine, int ep, bool block) {
    json doc = deepseek(gpu, 8, 1);
    doc["deployment"]["colocated"]["attention_tp"] = 8;
    doc["deployment"]["colocated"]["ep"] = ep;
    doc["deployment"]["engine"] = {{"name", engine}};
    doc["version"] = 2;  // precision.fp8_scales is a version-2 field
    doc["precision"]["fp8_scales"] = block ? "block" : "tensor";
    const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
    return prefill_pass(ev.pools.front().pool, 8192, 2, 8192.0 * 4096 / 2, 0);
  };
  const StepParts vllm = gemm_time("h200-141g", "vllm", 1, true), vllm_tensor = gemm_time("h200-141g", "vllm", 1, false);
  EXPECT_DOUBLE_EQ(vllm.gemm_flops, vllm_tensor.gemm_flops);
  // Every GEMM of the pass runs at most 3.03e12 x 132 FLOP/s (the smooth roofline's memory term adds
  // up to 9% at Hopper's fitted HBM factor and vLLM's fitted factors: 6.0% after the 2026-12-05 refit,
  // 7.5% after the 2026-12-06 one, 8.4% after the last of 2026-12-07).
  EXPECT_GE(vllm.gemm, vllm.gemm_flops / (3.03e12 * 132) * 0.999);
  EXPECT_LE(vllm.gemm, vllm.gemm_flops / (3.03e12 * 132) * 1.09);
  EXPECT_GT(vllm.gemm, 1.3 * vllm_tensor.gemm);
  // SGLang: only the fused-MoE experts are bound; with DeepEP (EP8) nothing is.
  const StepParts sglang = gemm_time("h200-141g", "sglang", 1, true), sglang_tensor = gemm_time("h200-141g", "sglang", 1, false);
  EXPECT_GT(sglang.gemm, 1.3 * sglang_tensor.gemm);
  EXPECT_LT(sglang.gemm, vllm.gemm);
  EXPECT_DOUBLE_EQ(gemm_time("h200-141g", "sglang", 8, true).gemm, gemm_time("h200-141g", "sglang", 8, false).gemm);
  // H20: 78 x 3.03 = 236 TFLOP/s, above what its 296 FP8 TFLOP/s give at the family factor.
  EXPECT_DOUBLE_EQ(gemm_time("h20-96g", "vllm", 1, true).gemm, gemm_time("h20-96g", "vllm", 1, false).gemm);
}

}  // namespace
}  // namespace slo

// MLA prefill over a cached prefix takes the engine's path. SGLang: a batch whose prefixes sum to
// 1..8191 tokens runs the absorbed kernels, (2 x 512 + 64) / (128 + 64 + 128) = 3.4x the multi-head
// attention FLOPs per pair; from 8,192 on, multi-head attention with the prefix re-expanded through
// kv_b_proj (2 x 512 x heads x (128 + 128) FLOPs per prefix token and layer). vLLM always re-expands.
TEST(PhysicsTime, MlaPrefillOverAPrefixTakesTheEnginesPath) {
  auto pass = [](const std::string& engine, double prefix) {
    json doc = deepseek("h200-141g", 8, 1);
    doc["deployment"]["colocated"]["attention_tp"] = 8;
    doc["deployment"]["colocated"]["ep"] = 1;
    doc["deployment"]["engine"] = {{"name", engine}};
    const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
    // One sequence: 2,048 new tokens after `prefix` cached ones.
    return prefill_pass(ev.pools.front().pool, 2048, 1, 2048.0 * (prefix + 1024), prefix);
  };
  const StepParts fresh = pass("sglang", 0), absorbed = pass("sglang", 4096), mha = pass("sglang", 8192);
  const double heads = 128.0 / 8, layers = 61;
  EXPECT_NEAR(absorbed.attention_flops / (2048.0 * (4096 + 1024)), 2 * heads * (2 * 512 + 64) * layers, 1.0);
  EXPECT_NEAR(mha.attention_flops / (2048.0 * (8192 + 1024)), 2 * heads * (128 + 64 + 128) * layers, 1.0);
  EXPECT_NEAR(mha.gemm_flops - fresh.gemm_flops, 8192 * 2.0 * 512 * heads * (128 + 128) * layers, 1e3);
  EXPECT_DOUBLE_EQ(absorbed.gemm_flops, fresh.gemm_flops);
  EXPECT_GT(absorbed.attention, 2.5 * pass("vllm", 4096).attention);
  EXPECT_NEAR(pass("vllm", 4096).gemm_flops - fresh.gemm_flops, 4096 * 2.0 * 512 * heads * 256 * layers, 1e3);
}

// Issue 11: the step constants an evaluation caches when it binds a pool (shared by every step it
// takes) are still the pool's: its steps and passes equal those from constants computed afresh, bit
// for bit, on MoE and dense pools, colocated and disaggregated, with two-batch overlap and MTP (a pool
// changed after binding, or a constant left out of the cache, would differ).
TEST(PhysicsTime, PoolStepConstantsGiveTheSameStepsBitForBit) {
  json pd = deepseek("h20-96g", 32, 4);
  pd["deployment"] = {{"mode", "disaggregated"}, {"two_batch_overlap", "on"}, {"mtp", {{"draft_tokens", 2}}},
                      {"prefill", {{"gpus", 16}, {"attention_tp", 1}, {"ep", 16}}},
                      {"decode", {{"gpus", 16}, {"attention_tp", 1}, {"ep", 16}}}};
  for (const json& doc : {deepseek("h20-96g", 32, 4), pd, llama70b("h100-80g", "fp8", "fp8"), llama70b("a100-80g", "bf16", "bf16", 4)}) {
    const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
    for (const PoolEval& pe : ev.pools) {
      ASSERT_TRUE(pe.consts);
      for (double b : {1.0, 37.0, 512.0})
        for (double c : {900.0, 16384.0}) {
          const StepParts a = decode_step(pe.pool, b, c), k = decode_step(pe.pool, *pe.consts, b, c);
          EXPECT_EQ(a.total, k.total) << doc.dump() << " b=" << b << " c=" << c;
          EXPECT_EQ(a.weights, k.weights);
          EXPECT_EQ(a.exposed_comm, k.exposed_comm);
          EXPECT_EQ(a.mtp_draft, k.mtp_draft);
          EXPECT_EQ(std::string(a.bottleneck), std::string(k.bottleneck));
          const StepParts p = prefill_pass(pe.pool, b * 16, b, b * 128.0 * 128.0, 0), q = prefill_pass(pe.pool, *pe.consts, b * 16, b, b * 128.0 * 128.0, 0);
          EXPECT_EQ(p.total, q.total);
          EXPECT_EQ(p.kv, q.kv);
        }
      EXPECT_GT(decode_step(pe.pool, *pe.consts, 512, 900).total, decode_step(pe.pool, *pe.consts, 1, 900).total);
    }
  }
}
