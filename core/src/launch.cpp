// Launch commands (launch.hpp). Flags and their meaning, per engine:
//  SGLang  https://docs.sglang.io/advanced_features/server_arguments.html (--tp-size: GPUs of one
//          instance; --dp-size with --enable-dp-attention: attention data-parallel groups; --ep-size:
//          expert parallel size, MoE TP = tp / ep; --moe-a2a-backend deepep: DeepEP all-to-all;
//          --ep-num-redundant-experts: EPLB redundant experts; --pp-size; --disaggregation-mode
//          prefill|decode; --speculative-algorithm EAGLE with --speculative-num-steps,
//          --speculative-eagle-topk, --speculative-num-draft-tokens: MTP; --kv-cache-dtype
//          fp8_e4m3; --mem-fraction-static; --chunked-prefill-size; --max-running-requests;
//          --nnodes / --node-rank / --dist-init-addr: one instance over several nodes;
//          --cpu-offload-gb: weights offloaded, fetched as each layer runs; --offload-group-size /
//          --offload-num-in-group / --offload-prefetch-step: offloader v2, whole layers prefetched).
//  vLLM    https://docs.vllm.ai/en/latest/serving/expert_parallel_deployment/ and the DeepSeek recipe
//          https://docs.vllm.ai/projects/recipes/en/latest/DeepSeek/DeepSeek-V3.html
//          (--tensor-parallel-size, --data-parallel-size, --enable-expert-parallel: EP over all
//          TP x DP ranks; --pipeline-parallel-size; --kv-cache-dtype fp8; --speculative-config
//          {"method": "deepseek_mtp", "num_speculative_tokens": N}; --gpu-memory-utilization;
//          --max-num-batched-tokens; --max-num-seqs; --enable-eplb with --eplb-config
//          {"num_redundant_experts": N}; --kv-transfer-config with the NixlConnector for P/D;
//          --cpu-offload-gb (UVA backend); --offload-backend prefetch with the same group flags as SGLang).
//  TensorRT-LLM https://nvidia.github.io/TensorRT-LLM/1.0.0rc6/commands/trtllm-serve/trtllm-serve.html
//          (trtllm-serve MODEL --tp_size --pp_size --ep_size --extra_llm_api_options FILE) and the
//          LLM API options of its curated configs (enable_attention_dp, max_batch_size,
//          max_num_tokens, enable_chunked_prefill, kv_cache_config.free_gpu_memory_fraction and
//          .dtype, speculative_config.decoding_type MTP / max_draft_len, moe_config.load_balancer
//          .num_slots, cache_transceiver_config for disaggregated serving).
#include "slo/launch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "slo/memory_plan.hpp"

#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

namespace {

std::string num(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", x);
  return b;
}

struct Role {
  std::string name;
  const PoolConfig* p;
};

std::vector<Role> roles(const Deployment& d) {
  if (d.disaggregated) return {{"prefill", &d.prefill}, {"decode", &d.decode}};
  return {{"colocated", &d.colocated}};
}

int nodes_of(const PoolConfig& p, int gpn) { return (p.instance_gpus() + gpn - 1) / gpn; }

bool fp8_kv(const Scenario& s) { return s.precision.kv_cache == DType::FP8; }

// Weight offload flags. On demand: --cpu-offload-gb (GB per GPU). Prefetching offloaders move whole
// layers: one layer in every `group` of the stage's layers, so that at least the pool's
// cpu_offload_gb leave the GPU (group = floor(layers / layers to offload)).
std::string offload_flags(const Scenario& s, const PoolConfig& cfg, bool vllm) {
  if (cfg.cpu_offload_gb <= 0) return "";
  if (!s.deployment.offload_prefetch) return " --cpu-offload-gb " + num(cfg.cpu_offload_gb);
  Pool p;
  p.model = &s.model, p.precision = &s.precision, p.gpu = &s.gpu, p.deployment = &s.deployment, p.cfg = cfg;
  const WeightBytes w = weights_per_gpu(p);
  const double layers = std::ceil(static_cast<double>(s.model.layers) / cfg.pp);
  const double per_layer = (w.total() - w.embedding - w.lm_head) / std::max(1.0, layers);
  const double k = per_layer > 0 ? std::min(layers, std::ceil(offloaded_weight_bytes(p, w) / per_layer)) : layers;
  const int group = static_cast<int>(std::max(1.0, std::floor(layers / std::max(1.0, k))));
  return std::string(vllm ? " --offload-backend prefetch" : "") + " --offload-group-size " + std::to_string(group) +
         " --offload-num-in-group 1 --offload-prefetch-step 1";
}

std::string sglang(const Scenario& s, const std::string& role, const PoolConfig& p, int nodes) {
  const Deployment& d = s.deployment;
  const int stage = p.instance_gpus() / p.pp, dp = p.instance_dp();
  std::string c = "python -m sglang.launch_server --model-path " + s.model.id + " --tp-size " + std::to_string(stage);
  if (p.pp > 1) c += " --pp-size " + std::to_string(p.pp);
  if (dp > 1) c += " --dp-size " + std::to_string(dp) + " --enable-dp-attention";
  if (p.ep > 1) c += " --ep-size " + std::to_string(p.ep) + " --moe-a2a-backend deepep";
  if (p.redundant_experts > 0) c += " --ep-num-redundant-experts " + std::to_string(p.redundant_experts);
  if (role != "colocated") c += " --disaggregation-mode " + role;
  if (d.mtp.draft_tokens > 0 && role != "prefill")
    c += " --speculative-algorithm EAGLE --speculative-num-steps " + std::to_string(d.mtp.draft_tokens) +
         " --speculative-eagle-topk 1 --speculative-num-draft-tokens " + std::to_string(d.mtp.draft_tokens + 1);
  if (fp8_kv(s)) c += " --kv-cache-dtype fp8_e4m3";
  if (d.memory_fraction > 0) c += " --mem-fraction-static " + num(d.memory_fraction);  // unset: the engine's choice
  // The scenario's chunk is one DP group's budget; SGLang divides the flag by dp_size under DP
  // attention (server_args._handle_data_parallelism), so the flag is the instance-wide budget.
  if (role != "decode") c += " --chunked-prefill-size " + std::to_string(d.chunked_prefill_tokens * dp);
  if (role != "prefill" && d.max_decode_batch_per_gpu > 0)
    c += " --max-running-requests " + std::to_string(d.max_decode_batch_per_gpu * p.instance_gpus() / p.pp);
  c += offload_flags(s, p, false);
  if (nodes > 1) c += " --nnodes " + std::to_string(nodes) + " --node-rank $NODE_RANK --dist-init-addr $HEAD_IP:5000";
  return c;
}

std::string vllm(const Scenario& s, const std::string& role, const PoolConfig& p, int nodes, std::vector<std::string>& cannot) {
  const Deployment& d = s.deployment;
  const int stage = p.instance_gpus() / p.pp, dp = p.instance_dp(), t = p.attention_tp;
  // vLLM's EP spans every TP x DP rank of the instance: MoE TP inside an EP group is not expressible.
  if (p.ep > 1 && p.ep != stage) {
    cannot.push_back(role + ": EP" + std::to_string(p.ep) + " with MoE TP" + std::to_string(p.moe_tp()) +
                     " (vLLM's --enable-expert-parallel spans all " + std::to_string(stage) + " TP x DP ranks)");
    return "";
  }
  std::string c = "vllm serve " + s.model.id + " --tensor-parallel-size " + std::to_string(t);
  if (dp > 1) c += " --data-parallel-size " + std::to_string(dp);
  if (p.pp > 1) c += " --pipeline-parallel-size " + std::to_string(p.pp);
  if (p.ep > 1) c += " --enable-expert-parallel";
  if (p.redundant_experts > 0) c += " --enable-eplb --eplb-config '{\"num_redundant_experts\":" + std::to_string(p.redundant_experts) + "}'";
  if (fp8_kv(s)) c += " --kv-cache-dtype fp8";
  if (d.mtp.draft_tokens > 0 && role != "prefill")
    c += " --speculative-config '{\"method\":\"deepseek_mtp\",\"num_speculative_tokens\":" + std::to_string(d.mtp.draft_tokens) + "}'";
  if (d.memory_fraction > 0) c += " --gpu-memory-utilization " + num(d.memory_fraction);
  if (role != "decode") c += " --max-num-batched-tokens " + std::to_string(d.chunked_prefill_tokens);
  if (role != "prefill" && d.max_decode_batch_per_gpu > 0) c += " --max-num-seqs " + std::to_string(d.max_decode_batch_per_gpu * t);
  if (role != "colocated") c += " --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'";
  c += offload_flags(s, p, true);
  if (nodes > 1) c += " --data-parallel-size-local " + std::to_string(std::max(1, dp / nodes)) + " --data-parallel-address $HEAD_IP --data-parallel-start-rank $DP_START_RANK";
  return c;
}

std::string trtllm(const Scenario& s, const std::string& role, const PoolConfig& p, std::string& yaml, std::vector<std::string>& cannot) {
  const Deployment& d = s.deployment;
  const int stage = p.instance_gpus() / p.pp, dp = p.instance_dp();
  // TensorRT-LLM's attention DP runs attention with TP 1 on every rank: DP groups of several GPUs are not expressible.
  if (dp > 1 && p.attention_tp > 1) {
    cannot.push_back(role + ": attention TP" + std::to_string(p.attention_tp) + " x DP" + std::to_string(dp) +
                     " (enable_attention_dp runs attention with TP 1 on each of the " + std::to_string(stage) + " ranks)");
    return "";
  }
  if (p.cpu_offload_gb > 0) {
    cannot.push_back(role + ": " + num(p.cpu_offload_gb) + " GB of weights per GPU in host memory (TensorRT-LLM's serve options offload KV cache blocks, not weights)");
    return "";
  }
  const std::string file = role + ".yaml";
  std::string c = "trtllm-serve " + s.model.id + " --tp_size " + std::to_string(stage);
  if (p.pp > 1) c += " --pp_size " + std::to_string(p.pp);
  if (p.ep > 1) c += " --ep_size " + std::to_string(p.ep);
  c += " --extra_llm_api_options " + file;
  yaml = "enable_attention_dp: " + std::string(dp > 1 ? "true" : "false") + "\n";
  if (role != "prefill" && d.max_decode_batch_per_gpu > 0) yaml += "max_batch_size: " + std::to_string(d.max_decode_batch_per_gpu * p.attention_tp) + "\n";
  if (role != "decode") yaml += "max_num_tokens: " + std::to_string(d.chunked_prefill_tokens) + "\nenable_chunked_prefill: true\n";
  if (d.memory_fraction > 0 || fp8_kv(s)) yaml += "kv_cache_config:\n";
  if (d.memory_fraction > 0) yaml += "  free_gpu_memory_fraction: " + num(d.memory_fraction) + "\n";
  if (fp8_kv(s)) yaml += "  dtype: fp8\n";
  if (d.mtp.draft_tokens > 0 && role != "prefill") yaml += "speculative_config:\n  decoding_type: MTP\n  max_draft_len: " + std::to_string(d.mtp.draft_tokens) + "\n";
  if (p.redundant_experts > 0)
    yaml += "moe_config:\n  load_balancer:\n    num_slots: " + std::to_string(s.model.routed_experts + p.redundant_experts) + "\n";
  if (role != "colocated") yaml += "cache_transceiver_config:\n  backend: DEFAULT\n";
  return c;
}

}  // namespace

LaunchPlan launch_commands(const Scenario& s, const std::string& engine) {
  LaunchPlan plan;
  plan.engine = engine;
  for (const Role& r : roles(s.deployment)) {
    LaunchCommand lc;
    lc.role = r.name;
    lc.replicas = r.p->replicas;
    lc.nodes = nodes_of(*r.p, s.gpus_per_node);
    if (engine == "sglang") lc.command = sglang(s, r.name, *r.p, lc.nodes);
    else if (engine == "vllm") lc.command = vllm(s, r.name, *r.p, lc.nodes, plan.cannot);
    else if (engine == "trtllm") lc.command = trtllm(s, r.name, *r.p, lc.yaml, plan.cannot);
    plan.commands.push_back(lc);
  }
  return plan;
}

}  // namespace slo

SLO_SIZE_END
