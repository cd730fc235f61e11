// Weight offload to host memory (deployment pools' cpu_offload_gb, deployment.offload_mode): the
// memory it frees, the host-link time it costs every forward pass, fetched on demand or prefetched,
// the launch flags, and the errors on bad values.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "slo/evaluation.hpp"
#include "slo/launch.hpp"
#include "slo/memory_plan.hpp"
#include "slo/scenario.hpp"
#include "slo/step_time.hpp"
#include "test_scenario.hpp"

using nlohmann::json;
using namespace slo;
using slo::test::scenario;

namespace {

// Llama-3.1-70B in BF16 (141 GB of weights) on one H100 80GB under vLLM, `offload` GB per GPU in
// host memory.
json llama70b_one_h100(double offload, const std::string& mode = "on_demand") {
  return json{{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
              {"precision", {{"weights", "bf16"}, {"activations", "bf16"}, {"kv_cache", "bf16"}}},
              {"hardware", {{"gpu", "h100-80g"}, {"nodes", 1}, {"gpus_per_node", 1}}},
              {"deployment",
               {{"engine", {{"name", "vllm"}}},
                {"offload_mode", mode},
                {"colocated", {{"gpus", 1}, {"attention_tp", 1}, {"ep", 1}, {"cpu_offload_gb", offload}}}}},
              {"workload", {{"input_tokens", 1024}, {"input_tokens_max", 1024}, {"output_tokens", 256}, {"output_tokens_max", 256},
                            {"context_length", 1280}}},
              {"reference", {{"preset", "none"}}}};
}

// DeepSeek-R1 FP8 on GB200: a 4-GPU prefill instance (DP attention 4, EP4) whose weights do not fit
// at memory fraction 0.9 without offload (LMSYS GB200 part II: "offload weights to the host memory
// with prefetching").
json deepseek_gb200_prefill(double offload, const std::string& mode) {
  return json{{"model", {{"preset", "deepseek-ai/DeepSeek-R1"}}},
              {"precision", {{"weights", "fp8"}, {"activations", "fp8"}, {"kv_cache", "bf16"}}},
              {"hardware", {{"gpu", "gb200"}, {"nodes", 13}, {"gpus_per_node", 4}}},
              {"deployment",
               {{"mode", "disaggregated"},
                {"offload_mode", mode},
                {"memory_fraction", 0.9},
                {"chunked_prefill_tokens", 16384},
                {"prefill", {{"gpus", 4}, {"attention_tp", 1}, {"ep", 4}, {"cpu_offload_gb", offload}}},
                {"decode", {{"gpus", 48}, {"attention_tp", 1}, {"ep", 48}, {"redundant_experts", 32}}}}},
              {"workload", {{"input_tokens", 2000}, {"input_tokens_max", 2000}, {"output_tokens", 100}, {"output_tokens_max", 100},
                            {"context_length", 2100}}},
              {"reference", {{"preset", "none"}}}};
}

const MemoryPlan& plan(const Evaluation& ev) { return ev.pools.front().plan; }

}  // namespace

// 141 GB of BF16 weights do not fit one H100 (81,559 MiB); with 80 GB of them in host memory the
// remaining ~61 GB do, and the KV pool is what the engine's 0.9 leaves beside them.
TEST(PhysicsOffload, OffloadedWeightsLeaveTheGpuAndMakeThePoolFit) {
  const Evaluation none = evaluate_scenario(scenario(llama70b_one_h100(0)), EvalOptions{1.0, false, 0});
  EXPECT_FALSE(plan(none).fits());
  const Evaluation off = evaluate_scenario(scenario(llama70b_one_h100(80)), EvalOptions{1.0, false, 0});
  const MemoryPlan& mp = plan(off);
  ASSERT_TRUE(mp.fits()) << "shortfall " << mp.shortfall;
  EXPECT_DOUBLE_EQ(mp.offloaded, 80e9);
  EXPECT_NEAR(mp.resident_weights(), mp.weights.total() - 80e9, 1.0);
  EXPECT_GT(mp.weights.total(), 140e9);
  // vLLM's --gpu-memory-utilization covers weights + activations + KV (of the GPU's memory).
  EXPECT_NEAR(mp.kv_pool, 0.9 * mp.hbm - mp.resident_weights() - mp.activations, 1e-6 * mp.hbm);
}

// Fetched on demand (--cpu-offload-gb: vLLM's UVA path), the GPU waits for every offloaded byte in
// every decode step: 80 GB over PCIe Gen5 x16 at 0.85 of 64 GB/s is 1.47 s more per token.
TEST(PhysicsOffload, OnDemandOffloadAddsTheHostLinkToEveryStep) {
  const Evaluation off = evaluate_scenario(scenario(llama70b_one_h100(80)), EvalOptions{1.0, false, 0});
  const Pool& pool = off.pools.front().pool;
  const StepParts s = decode_step(pool, 8, 1152);
  const double link = 80e9 / (64e9 * 0.85);
  EXPECT_NEAR(s.host_link, link, 1e-9 * link);
  EXPECT_NEAR(s.host_wait, link, 1e-9 * link);
  EXPECT_STREQ(s.bottleneck, "host-link");
  // The same pool without its offload term: the step is the GPU's own work plus the link.
  Pool resident = pool;
  resident.cfg.cpu_offload_gb = 0;
  EXPECT_NEAR(s.total, decode_step(resident, 8, 1152).total + link, 1e-9 * s.total);
}

// Prefetched (SGLang's offloader v2, vLLM's prefetch backend), the copies run beside the GPU's own
// work: a 16,384-token DeepSeek prefill pass on GB200 (hundreds of ms) hides 40 GB over the Grace
// link (256 GB/s per GPU x 0.85: 184 ms), and the LMSYS per-GPU prefill rate is met within 35%.
TEST(PhysicsOffload, PrefetchHidesTheLinkBehindALongerPass) {
  const Evaluation pre = evaluate_scenario(scenario(deepseek_gb200_prefill(40, "prefetch")), EvalOptions{1.0, false, 0});
  const Evaluation dem = evaluate_scenario(scenario(deepseek_gb200_prefill(40, "on_demand")), EvalOptions{1.0, false, 0});
  const Evaluation zero = evaluate_scenario(scenario(deepseek_gb200_prefill(0, "prefetch")), EvalOptions{1.0, false, 0});
  EXPECT_FALSE(zero.prefill_pool().plan.fits());  // 182.6 GB of weights per GPU: short without offload
  ASSERT_TRUE(pre.prefill_pool().plan.fits());
  const double link = 40e9 / (256e9 * 0.85);
  const StepParts p = prefill_pass(pre.prefill_pool().pool, 16384, 8, 16384.0 * 2000 / 2, 0);
  const StepParts d = prefill_pass(dem.prefill_pool().pool, 16384, 8, 16384.0 * 2000 / 2, 0);
  EXPECT_NEAR(p.host_link, link, 1e-9 * link);
  EXPECT_GT(p.total - p.host_wait, 2 * link);  // the pass is longer than the copies
  EXPECT_EQ(p.host_wait, 0.0);
  EXPECT_NEAR(d.total - p.total, link, 1e-9 * d.total);
  // LMSYS GB200 part II: 18,471 input tokens/s per GPU (BF16 attention, FP8 MoE, 4-rank prefill).
  const double per_gpu = pre.prefill_tokens_s / 4.0;
  EXPECT_GT(per_gpu, 18471 * 0.65);
  EXPECT_LT(per_gpu, 18471 * 1.35);
}

// The engines offload decoder layers, never the embedding or lm_head: a request above that is held
// at it.
TEST(PhysicsOffload, OffloadIsAtMostTheDecoderLayersWeights) {
  const Evaluation ev = evaluate_scenario(scenario(llama70b_one_h100(4096)), EvalOptions{1.0, false, 0});
  const MemoryPlan& mp = plan(ev);
  EXPECT_NEAR(mp.offloaded, mp.weights.total() - mp.weights.embedding - mp.weights.lm_head, 1.0);
  EXPECT_NEAR(mp.resident_weights(), mp.weights.embedding + mp.weights.lm_head, 1.0);
}

TEST(PhysicsOffload, BadValuesNameTheFieldAndTheRange) {
  json doc = llama70b_one_h100(-5);
  doc["version"] = 1;
  ParseResult r = parse_scenario(doc);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.errors[0].path, "deployment.colocated.cpu_offload_gb");
  EXPECT_NE(r.errors[0].expected.find("[0, 4096]"), std::string::npos);
  doc = llama70b_one_h100(10, "sometimes");
  doc["version"] = 1;
  r = parse_scenario(doc);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.errors[0].path, "deployment.offload_mode");
  EXPECT_NE(r.errors[0].expected.find("prefetch"), std::string::npos);
}

// SGLang and vLLM take --cpu-offload-gb for on-demand offload; prefetching offloaders move whole
// layers (one in every group); TensorRT-LLM's serve options offload KV blocks, not weights.
TEST(PhysicsOffload, LaunchCommandsCarryTheOffload) {
  const Scenario dem = scenario(llama70b_one_h100(80));
  EXPECT_NE(launch_commands(dem, "sglang").commands[0].command.find(" --cpu-offload-gb 80"), std::string::npos);
  EXPECT_NE(launch_commands(dem, "vllm").commands[0].command.find(" --cpu-offload-gb 80"), std::string::npos);
  const LaunchPlan trt = launch_commands(dem, "trtllm");
  ASSERT_EQ(trt.cannot.size(), 1u);
  EXPECT_NE(trt.cannot[0].find("host memory"), std::string::npos);
  // 80 of ~140 GB over 80 layers of ~1.7 GB: 47 layers, one in every group of 1 (80 / 47).
  const std::string pre = launch_commands(scenario(llama70b_one_h100(80, "prefetch")), "vllm").commands[0].command;
  EXPECT_NE(pre.find(" --offload-backend prefetch --offload-group-size 1 --offload-num-in-group 1"), std::string::npos);
  const std::string few = launch_commands(scenario(llama70b_one_h100(20, "prefetch")), "sglang").commands[0].command;
  EXPECT_NE(few.find(" --offload-group-size 6 --offload-num-in-group 1 --offload-prefetch-step 1"), std::string::npos) << few;
}
