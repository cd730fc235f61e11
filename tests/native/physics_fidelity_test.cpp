// Issue 9: each physics change fixed at its cause, with a test that fails without it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "slo/engine.hpp"
#include "slo/hardware.hpp"
#include "slo/evaluation.hpp"
#include "slo/kv_cache.hpp"
#include "slo/scenario.hpp"
#include "slo/step_time.hpp"
#include "slo/workloads.hpp"
#include "test_scenario.hpp"

using nlohmann::json;
using namespace slo;
using slo::test::scenario;

namespace {

const EvalOptions kNoTtft{1.0, false, 0};

json dense(const std::string& preset, const std::string& gpu, int tp, int nodes = 1, const std::string& w = "bf16") {
  return json{{"model", {{"preset", preset}}},
              {"precision", {{"weights", w}, {"activations", w == "bf16" ? "bf16" : w}, {"kv_cache", "bf16"}}},
              {"hardware", {{"gpu", gpu}, {"nodes", nodes}}},
              {"deployment", {{"colocated", {{"gpus", tp}, {"attention_tp", tp}, {"ep", 1}, {"redundant_experts", 0}}}}},
              {"workload", {{"input_tokens", 1024}, {"input_tokens_max", 1024}, {"output_tokens", 512}, {"output_tokens_max", 512}, {"context_length", 4096}}},
              {"reference", {{"preset", "none"}}}};
}

json with(json doc, const json& patch) {
  doc.merge_patch(patch);
  return doc;
}

}  // namespace

// TTFT at a low load is one request's own prefill on its DP group (plus fixed per-request costs):
// it never falls below that floor, and adding DP groups (replicas of attention) does not shrink it.
TEST(PhysicsFidelity, TtftAtLowLoadIsOneRanksOwnPrefill) {
  double prev = 0;
  for (int gpus : {8, 16, 32}) {
    const json doc = {{"hardware", {{"gpu", "h200-141g"}, {"nodes", gpus / 8}}},
                      {"deployment", {{"colocated", {{"gpus", gpus}, {"attention_tp", 1}, {"ep", gpus}, {"redundant_experts", 0}}}}},
                      {"workload", {{"input_tokens", 4096}, {"input_tokens_max", 4096}, {"output_tokens", 256}, {"output_tokens_max", 256}, {"arrival_qpm", 1}}},
                      {"reference", {{"preset", "none"}}}};
    const Evaluation ev = evaluate_scenario(scenario(doc));
    SCOPED_TRACE(gpus);
    const double own = prefill_pass(ev.prefill_pool().pool, 4096, 1, 4096.0 * 4096.0 / 2.0, 0).total;
    ASSERT_GT(ev.ttft.p50, 0);
    EXPECT_GE(ev.ttft.p50, own) << "below one rank's own compute floor";
    EXPECT_NEAR(ev.ttft.p50, own + request_fixed_s(ev), 0.35 * own);
    if (prev > 0) EXPECT_GE(ev.ttft.p50, 0.8 * prev) << "TTFT must not fall as DP groups are added";
    prev = ev.ttft.p50;
  }
}

// The first token comes out of the prefill pass: no decode step is added to TTFT by these engines.
TEST(PhysicsFidelity, FirstTokenNeedsNoDecodeStep) {
  for (const char* engine : {"sglang", "vllm", "trtllm"}) {
    const Evaluation ev = evaluate_scenario(scenario(with(dense("meta-llama/Llama-3.1-70B-Instruct", "h100-80g", 8), {{"deployment", {{"engine", {{"name", engine}}}}}})), kNoTtft);
    EXPECT_EQ(ev.first_decode_s, 0.0) << engine;
    EXPECT_EQ(ev.s.deployment.engine.id, engine);
  }
}

// Closed loop at concurrency 1: the session's own prefill is in TTFT only; TPOT is the decode step
// at batch 1 (bench_serving's TPOT excludes the first token).
TEST(PhysicsFidelity, ConcurrencyOneTpotIsTheBatchOneStep) {
  const Evaluation ev = evaluate_scenario(scenario(dense("meta-llama/Llama-3.1-70B-Instruct", "h100-80g", 8)), kNoTtft);
  const LoadResult c = closed_loop(ev, 1);
  const DecodePoint d = decode_at(ev.decode_pool(), 1, ev.running_context, 0, 1.0);
  EXPECT_NEAR(c.tpot_s, d.tpot_s, 1e-12);
  EXPECT_EQ(c.prefill_share, 0.0);
  const LoadResult c16 = closed_loop(ev, 16);
  EXPECT_GT(c16.prefill_share, 0.0) << "other clients' prefills do interrupt decoding";
}

// One-shot intra-node all-reduce costs microseconds, not DeepEP's per-op latency; a cross-node TP
// all-reduce spreads over every GPU's NIC (rails), not one NIC.
TEST(PhysicsFidelity, AllReduceLatencyAndRails) {
  const Evaluation one = evaluate_scenario(scenario(dense("meta-llama/Llama-3.1-70B-Instruct", "h100-80g", 8)), kNoTtft);
  const StepParts s1 = decode_step(one.pools.front().pool, 1, 2048);
  // 80 layers x 2 all-reduces of a few KB at batch 1.
  EXPECT_LT(s1.tp_allreduce, 160 * 12e-6);
  EXPECT_GT(s1.tp_allreduce, 160 * 4e-6);
  const Evaluation two = evaluate_scenario(scenario(with(dense("meta-llama/Llama-3.1-405B-Instruct", "h100-80g", 16, 2, "fp8"), {})), kNoTtft);
  const Pool& p = two.pools.front().pool;
  const StepParts s = decode_step(p, 64, 2048);
  // 64 tokens x 16384 hidden x 2 B per all-reduce; over one NIC this alone would take bytes / 50 GB/s.
  const double bytes = 64.0 * 16384 * 2;
  const double one_nic = 2 * 126 * bytes / (p.gpu->nic_bytes_s * p.gpu->eff.rdma);
  EXPECT_LT(s.tp_allreduce, 0.5 * one_nic);
}

// DeepEP normal-mode dispatch sends one copy per distinct destination GPU, not one per expert.
TEST(PhysicsFidelity, NormalDispatchCountsDistinctGpus) {
  const json doc = {{"hardware", {{"gpu", "h100-80g"}, {"nodes", 1}}},
                    {"deployment", {{"mode", "disaggregated"}, {"prefill", {{"gpus", 8}, {"ep", 8}}}, {"decode", {{"gpus", 8}, {"ep", 8}}}}},
                    {"reference", {{"preset", "none"}}}};
  // The pools would need 16 GPUs: use 2 nodes.
  const Evaluation ev = evaluate_scenario(scenario(with(doc, {{"hardware", {{"nodes", 2}}}})), kNoTtft);
  const StepParts s = prefill_pass(ev.prefill_pool().pool, 8192, 8, 8192.0 * 1024 / 2, 0);
  const double H = 7168, bytes_tok = H * (1.0 + 4.0 / 128.0) + H * 2.0;
  const double distinct = 8 * (1 - std::pow(1 - 1.0 / 8, 8));  // 5.25 of 8 GPUs for k = 8
  const double layers = ev.s.model.moe_layers();
  EXPECT_NEAR(s.ep_bytes_nvlink, 8192 * distinct * bytes_tok / 0.7 * layers, 0.01 * s.ep_bytes_nvlink);  // imbalance 1/0.7
  EXPECT_LT(s.ep_bytes_nvlink, 8192 * 8 * bytes_tok / 0.7 * layers);
}

// The engine sees the memory the driver reports, and its memory flag means what the engine says.
TEST(PhysicsFidelity, MemoryFlagSemanticsPerEngine) {
  double kv[3];
  int i = 0;
  for (const char* engine : {"sglang", "vllm", "trtllm"}) {
    const Evaluation ev = evaluate_scenario(scenario(with(dense("meta-llama/Llama-3.1-70B-Instruct", "h100-80g", 8), {{"deployment", {{"engine", {{"name", engine}}}}}})), kNoTtft);
    const MemoryPlan& mp = ev.pools.front().plan;
    EXPECT_NEAR(mp.hbm, 81559.0 * 1048576, 1.0);
    const double w = mp.weights.total(), f = 0.9;
    if (i == 0) EXPECT_NEAR(mp.kv_pool, f * mp.hbm - w, 1.0);
    if (i == 1) EXPECT_NEAR(mp.kv_pool, f * mp.hbm - w - mp.activations, 1.0);
    if (i == 2) EXPECT_NEAR(mp.kv_pool, f * (mp.hbm - w - mp.reserves()), 1.0);
    kv[i++] = mp.kv_pool;
  }
  EXPECT_GT(kv[0], kv[1]);
}

// The MTP draft layer keeps its own KV: one more layer's worth per token on the decode side.
TEST(PhysicsFidelity, MtpLayerKvIsCounted) {
  const Evaluation off = evaluate_scenario(scenario(json::object()), kNoTtft);
  const Evaluation on = evaluate_scenario(scenario(json{{"deployment", {{"mtp", {{"draft_tokens", 1}}}}}}), kNoTtft);
  EXPECT_NEAR(on.pools.front().plan.kv_token_bytes / off.pools.front().plan.kv_token_bytes, 62.0 / 61.0, 1e-9);
}

// The activation workspace does not grow with the cluster: DeepSeek on 32,768 H20 GPUs fits.
TEST(PhysicsFidelity, WorkspaceDoesNotGrowWithCluster) {
  const Evaluation small = evaluate_scenario(scenario(json::object()), kNoTtft);
  const Evaluation huge = evaluate_scenario(scenario(json{{"hardware", {{"nodes", 4096}}}, {"deployment", {{"colocated", {{"gpus", 32768}, {"ep", 256}}}}}}), kNoTtft);
  EXPECT_TRUE(huge.pools.front().plan.fits());
  EXPECT_LE(huge.pools.front().plan.activations, 1.01 * small.pools.front().plan.activations);
}

// A 163,840-token pass (vLLM V0, chunked prefill off for MLA) runs its fused MoE in 32K-token
// chunks. dstack measured DeepSeek-R1 TP8 on 8 x H200 holding about 54 sequences of 4,000 tokens
// (744.8 tokens/s x 71.9 ms TPOT at concurrency 128); sizing the MoE workspace for the whole pass
// left KV for 7.
TEST(PhysicsFidelity, FusedMoeWorkspaceIsOneChunk) {
  json doc = with(dense("deepseek-ai/DeepSeek-R1", "h200-141g", 8, 1, "fp8"),
                  {{"deployment", {{"chunked_prefill_tokens", 163840}, {"engine", {{"name", "vllm"}}}}},
                   {"workload", {{"input_tokens", 3200}, {"input_tokens_max", 3200}, {"output_tokens", 800}, {"output_tokens_max", 800}, {"context_length", 4000}}}});
  const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
  const MemoryPlan& mp = ev.pools.front().plan;
  EXPECT_LT(mp.activations, 28e9);
  EXPECT_GE(mp.sessions(4000), 54);
}

// max_decode_batch_per_gpu is per GPU: a TP8 DP group may run 8x that many sequences.
TEST(PhysicsFidelity, DecodeBatchCapIsPerGpu) {
  const json doc = with(dense("meta-llama/Llama-3.1-70B-Instruct", "h200-141g", 8), {{"deployment", {{"max_decode_batch_per_gpu", 4}}}, {"slo", {{"tpot_ms", 1000}}}});
  const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
  EXPECT_EQ(ev.op_max.in_flight, 32);
}

// Node-limited routing: DeepSeek's tokens reach at most topk_group (4) nodes, so prefill RDMA
// bytes stop growing past 4 nodes.
TEST(PhysicsFidelity, NodeLimitedRouting) {
  auto rdma = [](int nodes) {
    const int g = nodes * 8;
    const json doc = {{"hardware", {{"gpu", "h800-80g"}, {"nodes", nodes + 1}}},
                      {"deployment", {{"mode", "disaggregated"}, {"prefill", {{"gpus", g}, {"ep", g}}}, {"decode", {{"gpus", 8}, {"ep", 8}}}}},
                      {"reference", {{"preset", "none"}}}};
    const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
    return prefill_pass(ev.prefill_pool().pool, 8192, 8, 8192.0 * 1024 / 2, 0).ep_bytes_rdma;
  };
  EXPECT_EQ(load_preset("deepseek-ai/DeepSeek-V3").topk_groups, 4);
  const double r4 = rdma(4), r8 = rdma(8);
  // Remote copies per token: capped 4 x 7/8 = 3.5 at 8 nodes vs 3 (1 - (3/4)^8) = 2.70 at 4 nodes
  // (+30%); uncapped, 7 (1 - (7/8)^8) = 4.59 (+70%).
  EXPECT_NEAR(r8 / r4, 3.5 / 2.70, 0.03);
}

// GB200 NVL72: the trays of 4 GPUs share one NVLink fabric of 72, so wide EP across trays moves no
// byte over RDMA (the lmsys GB200 decode figures were 51-69% too slow when it did); an 8-GPU B200
// node's EP32 still does.
TEST(PhysicsFidelity, RackScaleNvlinkDomain) {
  auto step = [](const std::string& gpu, int nodes, int gpn) {
    const json doc = {{"hardware", {{"gpu", gpu}, {"nodes", nodes}, {"gpus_per_node", gpn}}},
                      {"deployment", {{"colocated", {{"gpus", 32}, {"attention_tp", 1}, {"ep", 32}}}}},
                      {"reference", {{"preset", "none"}}}};
    const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
    EXPECT_EQ(ev.pools.front().pool.nvlink_gpus(), gpu == "gb200" ? 72 / gpn * gpn : gpn);  // whole trays
    return decode_step(ev.pools.front().pool, 256, 2048);
  };
  const StepParts trays = step("gb200", 8, 4), rack = step("gb200", 1, 32), b200 = step("b200-180g", 4, 8);
  EXPECT_EQ(trays.ep_bytes_rdma, 0.0);
  EXPECT_DOUBLE_EQ(trays.ep_nvlink + trays.ep_rdma + trays.ep_latency, rack.ep_nvlink + rack.ep_rdma + rack.ep_latency);
  EXPECT_GT(b200.ep_bytes_rdma, 0.0);
  EXPECT_GT(b200.ep_rdma + b200.ep_latency, 2 * (trays.ep_nvlink + trays.ep_latency));
}

// Static batch: latency = TTFT + (out - 1) x TPOT; a batch of one streams at least every weight
// byte per token; larger batches take longer per step but deliver more tokens per second.
TEST(PhysicsFidelity, StaticBatchLatency) {
  const json doc = with(dense("meta-llama/Llama-3.1-70B-Instruct", "h100-80g", 8), {{"workload", {{"kind", "static_batch"}, {"batch", 1}}}});
  const Evaluation ev1 = evaluate_scenario(scenario(doc), kNoTtft);
  ASSERT_TRUE(ev1.load.present);
  EXPECT_NEAR(ev1.load.latency_s, ev1.load.ttft_s + 511 * ev1.load.tpot_s, 1e-9);
  const double weights = ev1.pools.front().plan.weights.total();
  EXPECT_GE(ev1.load.tpot_s, weights / ev1.s.gpu.hbm_bytes_s);
  const Evaluation ev32 = evaluate_scenario(scenario(with(doc, {{"workload", {{"batch", 32}}}})), kNoTtft);
  EXPECT_GT(ev32.load.tpot_s, ev1.load.tpot_s);
  EXPECT_GT(ev32.load.output_tps, 10 * ev1.load.output_tps);
  EXPECT_GT(ev32.load.ttft_s, ev1.load.ttft_s);
}

// A burst larger than the engine admits runs at the admission limit; a small burst is one batch,
// whose output rate is its tokens over the last request's end.
TEST(PhysicsFidelity, BurstRunsAtAdmissionLimit) {
  const json doc = with(dense("meta-llama/Llama-3.1-70B-Instruct", "h100-80g", 8), {{"workload", {{"kind", "burst"}, {"requests", 4}}}});
  const Evaluation small = evaluate_scenario(scenario(doc), kNoTtft);
  EXPECT_NEAR(small.load.output_tps, 4 * 512 / static_batch(small, 4).latency_s, 1e-9);
  const Evaluation big = evaluate_scenario(scenario(with(doc, {{"workload", {{"requests", 100000}}}})), kNoTtft);
  EXPECT_GT(big.load.output_tps, small.load.output_tps);
  EXPECT_LT(big.load.in_flight, 100000);
}

// A load kind names the figure it needs; the error says which field and why.
TEST(PhysicsFidelity, LoadKindNeedsItsFigure) {
  const ParseResult p = parse_scenario(json{{"version", 1}, {"workload", {{"kind", "closed_loop"}}}});
  ASSERT_FALSE(p.ok);
  EXPECT_EQ(p.errors.front().path, "workload.concurrency");
  const ParseResult e = parse_scenario(json{{"version", 1}, {"deployment", {{"engine", {{"name", "tgi"}}}}}});
  ASSERT_FALSE(e.ok);
  EXPECT_EQ(e.errors.front().path, "deployment.engine.name");
}

// A burst with heavy-tailed output lengths drains: the batch shrinks as short requests end, so the
// longest request runs most of its steps at a small batch. The makespan lies between the longest
// request at batch-1 speed and at full-batch speed, well below the latter (ShareGPT-like lengths).
TEST(PhysicsFidelity, BurstDrainsWithAShrinkingBatch) {
  const json doc = with(dense("meta-llama/Llama-3.1-70B-Instruct", "h100-80g", 8),
                        {{"workload", {{"kind", "burst"}, {"requests", 200}, {"input_tokens", 220}, {"input_tokens_max", 1024},
                                       {"output_tokens", 200}, {"output_tokens_max", 2048}, {"context_length", 2048}}}});
  const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
  ASSERT_GT(ev.load.output_tps, 0);
  const double makespan = 200 * 200 / ev.load.output_tps;
  const double full = decode_at(ev.decode_pool(), 200, ev.running_context, 0, 1.0).tpot_s;
  const double one = decode_at(ev.decode_pool(), 1, ev.running_context, 0, 1.0).tpot_s;
  EXPECT_LT(makespan, ev.load.ttft_s + 2047 * full * 0.6) << "the longest request does not run at the full batch";
  EXPECT_GT(makespan, ev.load.ttft_s + 200 * 5 * one) << "E[max] of 200 draws is far beyond the mean";
}

// In a closed loop the waiting prompts share a prefill pass (chunked budget), so a prefill-heavy
// loop on a colocated pool approaches the pool's prefill capacity, and never exceeds it (the prompts
// beyond it queue: TTFT grows instead).
TEST(PhysicsFidelity, ClosedLoopBatchesWaitingPrompts) {
  const json doc = with(dense("meta-llama/Llama-3.1-8B-Instruct", "h100-80g", 1),
                        {{"workload", {{"kind", "closed_loop"}, {"concurrency", 256}, {"input_tokens", 2000}, {"input_tokens_max", 2000},
                                       {"output_tokens", 4}, {"output_tokens_max", 4}}}});
  const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
  ASSERT_GT(ev.prefill_tokens_s, 0);
  EXPECT_GT(ev.load.input_tps, 0.5 * ev.prefill_tokens_s);
  EXPECT_LE(ev.load.input_tps, ev.prefill_tokens_s) << "a closed loop cannot prefill faster than the pool";
}

// SGLang resets its default request limit to 48 per instance with speculative decoding (MTP), split
// over the DP-attention ranks: a burst of 1,000 runs 48 at a time, not at the KV limit.
TEST(PhysicsFidelity, SglangSpeculativeDecodingLimitsRunningRequests) {
  const json base = {{"hardware", {{"gpu", "h200-141g"}, {"nodes", 1}}},
                     {"deployment", {{"colocated", {{"gpus", 8}, {"attention_tp", 1}, {"ep", 8}, {"redundant_experts", 0}}}, {"engine", {{"name", "sglang"}}}}},
                     {"workload", {{"kind", "burst"}, {"requests", 1000}, {"input_tokens", 1000}, {"input_tokens_max", 1000},
                                   {"output_tokens", 200}, {"output_tokens_max", 200}, {"context_length", 2048}}},
                     {"reference", {{"preset", "none"}}}};
  const Evaluation off = evaluate_scenario(scenario(base), kNoTtft);
  const Evaluation on = evaluate_scenario(scenario(with(base, {{"deployment", {{"mtp", {{"draft_tokens", 2}}}}}})), kNoTtft);
  EXPECT_EQ(on.load.in_flight, 48);
  EXPECT_GT(off.load.in_flight, 400);
  const Evaluation vllm = evaluate_scenario(scenario(with(base, {{"deployment", {{"mtp", {{"draft_tokens", 2}}}, {"engine", {{"name", "vllm"}}}}}})), kNoTtft);
  EXPECT_GT(vllm.load.in_flight, 48) << "only SGLang's profile has the limit";
}

// vLLM's default request limit depends on the device: 1,024 on GPUs of at least 70 GiB unless an
// A100, 256 otherwise (vllm/engine/arg_utils.py get_batch_defaults). A burst of 1,000 short
// requests on one A100 80GB runs 256 at a time although its KV pool holds more; SGLang is unchanged.
TEST(PhysicsFidelity, VllmBatchDefaultsByGpuClass) {
  auto limit = [](const std::string& gpu, const std::string& engine) {
    const json doc = with(dense("meta-llama/Llama-3.1-8B-Instruct", gpu, 1), {{"deployment", {{"engine", {{"name", engine}}}}}});
    return scenario(doc).deployment.engine.max_running_requests;
  };
  EXPECT_EQ(limit("a100-80g", "vllm"), 256);
  EXPECT_EQ(limit("a100-40g", "vllm"), 256);
  EXPECT_EQ(limit("h100-80g", "vllm"), 1024);
  EXPECT_EQ(limit("h20-96g", "vllm"), 1024);
  EXPECT_EQ(limit("a100-80g", "sglang"), limit("h100-80g", "sglang"));
  const json burst = with(dense("meta-llama/Llama-3.1-8B-Instruct", "a100-80g", 1),
                          {{"deployment", {{"engine", {{"name", "vllm"}}}}},
                           {"workload", {{"kind", "burst"}, {"requests", 1000}, {"input_tokens", 128}, {"input_tokens_max", 128},
                                         {"output_tokens", 128}, {"output_tokens_max", 128}, {"context_length", 256}}}});
  const Evaluation ev = evaluate_scenario(scenario(burst), kNoTtft);
  EXPECT_GT(ev.pools.front().plan.sessions(256), 1000);
  EXPECT_NEAR(ev.load.in_flight, 256, 1.0);
}

// A decode batch above the engine's CUDA-graph limit launches its kernels eagerly. SGLang's limit
// follows the GPU's memory and tp_size (256 under TP4 and 512 from TP4 on an H100; 32 / 160 on an
// A100 40GB): one more sequence than the limit costs the eager launches the GPU does not hide
// (with short contexts; behind a long KV read they hide).
TEST(PhysicsFidelity, EagerDecodeAboveTheCudaGraphLimit) {
  const Engine* sglang = find_engine("sglang");
  const Engine* trtllm = find_engine("trtllm");
  ASSERT_TRUE(sglang && trtllm);
  EXPECT_EQ(sglang->graph_max_batch(79.6, 1), 256);  // H100: 81,559 MiB
  EXPECT_EQ(sglang->graph_max_batch(79.6, 8), 512);
  EXPECT_EQ(sglang->graph_max_batch(39.6, 1), 32);   // A100 40GB
  EXPECT_EQ(sglang->graph_max_batch(179.1, 8), 512); // B200
  auto per_seq_step = [](const std::string& engine, double batch) {
    const json doc = with(dense("meta-llama/Llama-3.1-8B-Instruct", "h100-80g", 1), {{"deployment", {{"engine", {{"name", engine}}}}}});
    const Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
    return decode_step(ev.pools.front().pool, batch, 64).overhead;  // short contexts: the GPU's step is short
  };
  EXPECT_GT(per_seq_step("sglang", 257), per_seq_step("sglang", 256) + 1e-3) << "eager launches past the graph limit";
  EXPECT_NEAR(per_seq_step("trtllm", 257), per_seq_step("trtllm", 256), 1e-4);
}

// Weight-only quantization (AWQ/GPTQ INT4, FP8 weights on a GPU without FP8 tensor cores) runs a
// Marlin-class kernel that dequantizes in the GEMM's main loop: a compute-bound GEMM runs at the
// family's weight_only_gemm share of the 16-bit rate (gpus.json; prior 0.82, Marlin issue #21).
// Native 8-bit GEMMs (FP8 x FP8 on Hopper) and 16-bit ones never take it.
TEST(PhysicsFidelity, WeightOnlyQuantizedGemmsRunAtTheMarlinRate) {
  const auto gemm = [](json doc, double weight_only) {
    Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
    Pool pool = ev.pools.front().pool;
    Gpu g = *pool.gpu;
    g.eff.weight_only_gemm = weight_only;
    pool.gpu = &g;
    return prefill_pass(pool, 16384, 4, 4 * 4096.0 * 2048.0, 0);
  };
  json awq = dense("meta-llama/Llama-3.1-70B-Instruct", "a100-80g", 4);
  awq["precision"] = {{"weights", "int4"}, {"activations", "bf16"}, {"kv_cache", "bf16"}};
  // A 16k-token pass on 70B is compute-bound: its GEMM time scales as 1 / weight_only_gemm.
  const StepParts full = gemm(awq, 1.0), marlin = gemm(awq, 0.5);
  EXPECT_NEAR(marlin.gemm / full.gemm, 2.0, 0.05);
  EXPECT_DOUBLE_EQ(marlin.gemm_flops, full.gemm_flops);
  json fp8_on_a100 = awq;
  fp8_on_a100["precision"]["weights"] = "fp8";
  EXPECT_GT(gemm(fp8_on_a100, 0.5).gemm, 1.9 * gemm(fp8_on_a100, 1.0).gemm);
  const json bf16 = dense("meta-llama/Llama-3.1-70B-Instruct", "a100-80g", 4);
  EXPECT_DOUBLE_EQ(gemm(bf16, 0.5).gemm, gemm(bf16, 1.0).gemm);
  const json fp8_native = dense("meta-llama/Llama-3.1-70B-Instruct", "h100-80g", 4, 1, "fp8");
  EXPECT_DOUBLE_EQ(gemm(fp8_native, 0.5).gemm, gemm(fp8_native, 1.0).gemm);
  // The fitted share is a physical fraction, and the prior holds where no figure fits it.
  EXPECT_GT(find_gpu("a100-80g")->eff.weight_only_gemm, 0.4);
  EXPECT_LE(find_gpu("a100-80g")->eff.weight_only_gemm, 1.0);
  EXPECT_DOUBLE_EQ(find_gpu("l40s")->eff.weight_only_gemm, 0.82);
}

// An attention kernel's share of the tensor-core peak follows the GPU's tensor/FP32 balance
// (Gpu::tensor_efficiency): H20's tensor cores are throttled (148 BF16 against 44 FP32 TFLOPS; H100
// SXM 989 against 66.9), so the work around the MMAs hides less of their time. Measured: FlashMLA
// 115-127 of 148 TFLOPS on H20 (deepseek-ai/FlashMLA#30) against 580 of 989 on H800; FA3 108-126
// of 148 on H20 (Dao-AILab/flash-attention#1310).
TEST(PhysicsFidelity, ThrottledTensorCoresReachALargerShareOfTheirPeak) {
  const Gpu& h100 = *find_gpu("h100-80g");
  const Gpu& h20 = *find_gpu("h20-96g");
  EXPECT_DOUBLE_EQ(h100.tensor_efficiency(0.59), 0.59);  // the family's reference GPU
  EXPECT_DOUBLE_EQ(find_gpu("h200-141g")->tensor_efficiency(0.59), 0.59);
  // FlashMLA's H800 share (580 / 989) carried to H20: within its measured 115-127 of 148 TFLOPS.
  const double flashmla = h20.tensor_efficiency(580.0 / 989.0);
  EXPECT_GT(flashmla * 148, 115);
  EXPECT_LT(flashmla * 148, 130);
  // Monotone, a share, and the same for a GPU whose tensor and FP32 rates scale together (H100 PCIe:
  // lower clocks, same balance).
  EXPECT_GT(h20.tensor_efficiency(0.3), 0.3);
  EXPECT_LT(h20.tensor_efficiency(0.95), 1.0);
  EXPECT_NEAR(find_gpu("h100-pcie-80g")->tensor_efficiency(0.5), 0.5, 0.005);
  // L20: Ada with its tensor cores halved against its CUDA cores (119.5 / 59.8 against L40S's 362 / 91.6).
  EXPECT_GT(find_gpu("l20")->tensor_efficiency(0.5), 0.6);
  // A GPU without a stated FP32 rate keeps its family's factors (Blackwell, CDNA).
  EXPECT_DOUBLE_EQ(find_gpu("b200-180g")->tensor_efficiency(0.46), 0.46);
  // In a step: a long prompt's attention core on H20 takes its FLOPs at the scaled share; its GEMMs
  // keep the family's (no GEMM measurement on such a GPU shows the same).
  json doc = dense("meta-llama/Llama-3.1-70B-Instruct", "h20-96g", 8);
  Evaluation ev = evaluate_scenario(scenario(doc), kNoTtft);
  const Pool& pool = ev.pools.front().pool;
  const StepParts pass = prefill_pass(pool, 16384, 1, 16384.0 * 16384.0 / 2, 0);
  const double engine = pool.deployment->engine.kernel.attention;
  EXPECT_NEAR(pass.attention / (pass.attention_flops / (h20.bf16_flops * h20.tensor_efficiency(h20.eff.attention) * engine)), 1.0, 0.02);
  EXPECT_NEAR(pass.gemm / (pass.gemm_flops / (h20.bf16_flops * h20.eff.gemm * pool.deployment->engine.kernel.gemm)), 1.0, 0.02);
}
