// Launch commands for three reference layouts per engine, the expected command lines written from
// the engines' documentation:
//  SGLang  https://docs.sglang.io/advanced_features/server_arguments.html ("--tp 2", "--dp 2",
//          --enable-dp-attention, --ep-size, --moe-a2a-backend, --disaggregation-mode,
//          --speculative-*, --kv-cache-dtype, --mem-fraction-static, --chunked-prefill-size; under
//          --enable-dp-attention server_args divides --chunked-prefill-size by dp_size, so the flag is
//          the per-DP-group budget x dp);
//          LMSYS 2025-09-26 (SGLang on H20-96G: TP8 prefill, EP decode, MTP, FP8 KV).
//  vLLM    https://docs.vllm.ai/projects/recipes/en/latest/DeepSeek/DeepSeek-V3.html ("Data Parallel +
//          Expert Parallel (DP8+EP): vllm serve ... --data-parallel-size 8 --enable-expert-parallel");
//          https://docs.vllm.ai/en/latest/serving/expert_parallel_deployment/ (EP spans TP x DP).
//  TensorRT-LLM https://nvidia.github.io/TensorRT-LLM/1.0.0rc6/commands/trtllm-serve/trtllm-serve.html
//          ("trtllm-serve <model> [--tp_size <tp> --pp_size <pp> --ep_size <ep> ...]") and its curated
//          YAML configs (enable_attention_dp, kv_cache_config.dtype fp8, speculative_config MTP).
#include <gtest/gtest.h>

#include "slo/launch.hpp"
#include "test_scenario.hpp"

namespace slo {
namespace {

using nlohmann::json;

// 1: DeepSeek-V3 on 8 x H200, colocated DP8 attention + EP8.
Scenario dp8_ep8() {
  return test::scenario(json{{"hardware", {{"gpu", "h200-141g"}, {"nodes", 1}}},
                             {"deployment", {{"mode", "colocated"}, {"colocated", {{"gpus", 8}, {"attention_tp", 1}, {"ep", 8}}}}}});
}
// 2: DeepSeek-V3 on 32 x H20: TP8 prefill node : 3 decode instances of DP8/EP8, MTP 1, FP8 KV, 64 seqs/GPU.
Scenario h20_pd() {
  return test::scenario(json{{"precision", {{"kv_cache", "fp8"}}},
                             {"deployment", {{"mode", "disaggregated"},
                                             {"prefill", {{"gpus", 8}, {"attention_tp", 8}, {"ep", 1}, {"redundant_experts", 0}}},
                                             {"decode", {{"gpus", 24}, {"attention_tp", 1}, {"ep", 8}, {"redundant_experts", 0}, {"replicas", 3}}},
                                             {"mtp", {{"draft_tokens", 1}}},
                                             {"max_decode_batch_per_gpu", 64}}}});
}
// 3: DeepSeek-V3 on 2 nodes of H20: attention TP2 x DP8, EP8 with MoE TP2, 8 redundant experts.
Scenario moe_tp2() {
  return test::scenario(json{{"hardware", {{"nodes", 2}}},
                             {"deployment", {{"mode", "colocated"}, {"colocated", {{"gpus", 16}, {"attention_tp", 2}, {"ep", 8}, {"redundant_experts", 8}}}}}});
}

TEST(Launch, SGLang) {
  LaunchPlan p = launch_commands(dp8_ep8(), "sglang");
  ASSERT_EQ(p.commands.size(), 1u);
  EXPECT_EQ(p.commands[0].command,
            "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dp-size 8 --enable-dp-attention "
            "--ep-size 8 --moe-a2a-backend deepep --mem-fraction-static 0.9 --chunked-prefill-size 65536");
  p = launch_commands(h20_pd(), "sglang");
  ASSERT_EQ(p.commands.size(), 2u);
  EXPECT_EQ(p.commands[0].command,
            "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --disaggregation-mode prefill "
            "--kv-cache-dtype fp8_e4m3 --mem-fraction-static 0.9 --chunked-prefill-size 8192");
  EXPECT_EQ(p.commands[1].replicas, 3);
  EXPECT_EQ(p.commands[1].command,
            "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dp-size 8 --enable-dp-attention "
            "--ep-size 8 --moe-a2a-backend deepep --disaggregation-mode decode --speculative-algorithm EAGLE --speculative-num-steps 1 "
            "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2 --kv-cache-dtype fp8_e4m3 --mem-fraction-static 0.9 "
            "--max-running-requests 512");
  p = launch_commands(moe_tp2(), "sglang");
  EXPECT_EQ(p.commands[0].nodes, 2);
  EXPECT_EQ(p.commands[0].command,
            "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp-size 16 --dp-size 8 --enable-dp-attention "
            "--ep-size 8 --moe-a2a-backend deepep --ep-num-redundant-experts 8 --mem-fraction-static 0.9 --chunked-prefill-size 65536 "
            "--nnodes 2 --node-rank $NODE_RANK --dist-init-addr $HEAD_IP:5000");
  EXPECT_TRUE(p.cannot.empty());
}

// deployment.memory_fraction null: the engine chooses, so no command sets the flag.
TEST(Launch, UnsetMemoryFractionLeavesTheFlagToTheEngine) {
  const Scenario s = test::scenario(json{{"hardware", {{"gpu", "h200-141g"}, {"nodes", 1}}},
                                         {"deployment", {{"memory_fraction", nullptr}, {"colocated", {{"gpus", 8}, {"attention_tp", 8}, {"ep", 1}}}}}});
  EXPECT_EQ(launch_commands(s, "sglang").commands[0].command,
            "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --chunked-prefill-size 8192");
  EXPECT_EQ(launch_commands(s, "vllm").commands[0].command, "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --max-num-batched-tokens 8192");
  EXPECT_EQ(launch_commands(s, "trtllm").commands[0].yaml, "enable_attention_dp: false\nmax_num_tokens: 8192\nenable_chunked_prefill: true\n");
}

TEST(Launch, VLLM) {
  LaunchPlan p = launch_commands(dp8_ep8(), "vllm");
  EXPECT_EQ(p.commands[0].command,
            "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 1 --data-parallel-size 8 --enable-expert-parallel "
            "--gpu-memory-utilization 0.9 --max-num-batched-tokens 8192");
  p = launch_commands(h20_pd(), "vllm");
  EXPECT_EQ(p.commands[0].command,
            "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --kv-cache-dtype fp8 --gpu-memory-utilization 0.9 "
            "--max-num-batched-tokens 8192 --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'");
  EXPECT_EQ(p.commands[1].command,
            "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 1 --data-parallel-size 8 --enable-expert-parallel "
            "--kv-cache-dtype fp8 --speculative-config '{\"method\":\"deepseek_mtp\",\"num_speculative_tokens\":1}' "
            "--gpu-memory-utilization 0.9 --max-num-seqs 64 --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'");
  // EP8 inside a 16-GPU instance (MoE TP2): vLLM's EP spans every rank, so no command.
  p = launch_commands(moe_tp2(), "vllm");
  EXPECT_EQ(p.commands[0].command, "");
  ASSERT_EQ(p.cannot.size(), 1u);
  EXPECT_NE(p.cannot[0].find("EP8 with MoE TP2"), std::string::npos) << p.cannot[0];
}

TEST(Launch, TensorRTLLM) {
  LaunchPlan p = launch_commands(dp8_ep8(), "trtllm");
  EXPECT_EQ(p.commands[0].command, "trtllm-serve deepseek-ai/DeepSeek-V3 --tp_size 8 --ep_size 8 --extra_llm_api_options colocated.yaml");
  EXPECT_EQ(p.commands[0].yaml,
            "enable_attention_dp: true\nmax_num_tokens: 8192\nenable_chunked_prefill: true\nkv_cache_config:\n  free_gpu_memory_fraction: 0.9\n");
  p = launch_commands(h20_pd(), "trtllm");
  EXPECT_EQ(p.commands[0].command, "trtllm-serve deepseek-ai/DeepSeek-V3 --tp_size 8 --extra_llm_api_options prefill.yaml");
  EXPECT_EQ(p.commands[0].yaml,
            "enable_attention_dp: false\nmax_num_tokens: 8192\nenable_chunked_prefill: true\nkv_cache_config:\n  free_gpu_memory_fraction: 0.9\n"
            "  dtype: fp8\ncache_transceiver_config:\n  backend: DEFAULT\n");
  EXPECT_EQ(p.commands[1].command, "trtllm-serve deepseek-ai/DeepSeek-V3 --tp_size 8 --ep_size 8 --extra_llm_api_options decode.yaml");
  EXPECT_EQ(p.commands[1].yaml,
            "enable_attention_dp: true\nmax_batch_size: 64\nkv_cache_config:\n  free_gpu_memory_fraction: 0.9\n  dtype: fp8\n"
            "speculative_config:\n  decoding_type: MTP\n  max_draft_len: 1\ncache_transceiver_config:\n  backend: DEFAULT\n");
  // Attention TP2 inside DP groups: TensorRT-LLM's attention DP runs attention with TP 1.
  p = launch_commands(moe_tp2(), "trtllm");
  EXPECT_EQ(p.commands[0].command, "");
  ASSERT_EQ(p.cannot.size(), 1u);
  EXPECT_NE(p.cannot[0].find("attention TP2 x DP8"), std::string::npos) << p.cannot[0];
}

}  // namespace
}  // namespace slo
