// Memory plan per GPU of a pool: weights by component, reserves sized from the batch the pool
// serves, the KV pool, and the sessions it holds at a context length.
#pragma once
#include "slo/params.hpp"
#include "slo/scenario.hpp"

namespace slo {

enum class Phase { Prefill, Decode, Colocated };

// Everything the physics needs about one pool.
struct Pool {
  const ModelArch* model = nullptr;
  const Precision* precision = nullptr;
  const Gpu* gpu = nullptr;
  const Deployment* deployment = nullptr;
  PoolConfig cfg;
  int gpus_per_node = 8;
  Phase phase = Phase::Colocated;
  bool with_mtp = false;  // MTP draft weights loaded (deployment.mtp.draft_tokens > 0)

  // One instance of the pool (replicas share nothing): its pipeline stage and DP groups.
  int stage_gpus() const { return cfg.instance_gpus() / cfg.pp; }
  int dp() const { return cfg.instance_dp(); }
  // MTP draft tokens each decode step proposes (0 without MTP).
  int draft_tokens() const { return with_mtp ? deployment->mtp.draft_tokens : 0; }
  // GPUs one NVLink domain joins: the node, or every tray of a rack-scale system (GB200 NVL72:
  // 18 trays of 4 GPUs on one NVLink switch fabric). Source: NVIDIA GB200 NVL72 datasheet.
  int nvlink_gpus() const;
  // NVLink domains one pipeline stage spans (EP and TP traffic beyond one domain goes over RDMA).
  int stage_domains() const;
  // Local expert slots per GPU ((routed + redundant) / ep).
  int local_expert_slots() const;
};

struct WeightBytes {
  double attention = 0, dense_ffn = 0, shared_experts = 0, routed_experts = 0, router = 0, embedding = 0,
         lm_head = 0, norms = 0, mtp = 0;
  double total() const {
    return attention + dense_ffn + shared_experts + routed_experts + router + embedding + lm_head + norms + mtp;
  }
};

// Bytes of weights one GPU of the pool holds (the worst pipeline stage).
WeightBytes weights_per_gpu(const Pool& pool);

// Weight bytes per GPU the pool keeps in host memory: its cpu_offload_gb, at most the decoder
// layers' weights (the engines never offload the embedding or lm_head).
double offloaded_weight_bytes(const Pool& pool, const WeightBytes& w);

// Routed-expert bytes as the engine loads them relative to the checkpoint's (MXFP4 experts repacked
// for vLLM's Marlin kernel on GPUs without FP4 tensor cores: hidden and per-rank intermediate
// padded); 1 otherwise. The same padded weights are what every step reads.
double marlin_padding(const Pool& pool, int moe_tp);

// The memory fraction the pool runs at: the scenario's deployment.memory_fraction, or when it is
// unset (0) the engine's automatic choice for this pool's GPU, parallel layout and chunk.
double memory_fraction_of(const Pool& pool);

struct MemoryPlan {
  double hbm = 0;          // GPU memory (bytes)
  double usable = 0;       // hbm x memory_fraction
  double fraction = 0;     // the memory fraction in force (the scenario's, or the engine's automatic one)
  bool fraction_auto = false;  // the engine chose it (deployment.memory_fraction unset)
  WeightBytes weights;
  double activations = 0;  // peak activation workspace of one forward pass
  double ep_buffers = 0;   // DeepEP dispatch/combine buffers (low-latency for decode, normal for prefill)
  double cuda_graph = 0;   // CUDA-graph private memory pool (decode)
  double kv_transfer = 0;  // KV staging for prefill -> decode transfer (disaggregated prefill pool)
  double offloaded = 0;        // weights kept in host memory (the pool's cpu_offload_gb, at most its layers' weights)
  double offload_staging = 0;  // GPU buffers prefetched layers land in (offload_mode "prefetch")
  double resident_weights() const { return weights.total() - offloaded; }
  double reserves() const { return activations + ep_buffers + cuda_graph + kv_transfer + offload_staging; }
  double kv_pool = 0;      // what is left for KV cache (0 when nothing is left)
  double shortfall = 0;    // > 0: weights + reserves exceed the usable memory by this much
  bool fits() const { return shortfall <= 0 && kv_pool > 0; }
  double decode_tokens = 0;   // tokens per forward per GPU the reserves were sized for (decode)
  double prefill_tokens = 0;  // tokens per forward per GPU the reserves were sized for (prefill chunk)

  int dp = 1;                   // DP attention groups in the pool (one KV pool each)
  int pool_gpus = 0;
  double kv_token_bytes = 0;    // bytes per token on one GPU (its stage's layers, TP split/replicated)
  double kv_layer_factor = 1;   // (layers + MTP layers) / layers when the MTP module keeps its own KV
  const Pool* pool = nullptr;

  // KV bytes one session of `context` tokens takes on one GPU.
  double session_bytes(double context) const;
  // Sessions of `context` tokens the pool holds at once (0 when memory does not fit).
  double sessions(double context) const;
  // Tokens one DP group can keep in KV.
  double group_kv_tokens() const { return kv_token_bytes > 0 ? kv_pool / kv_token_bytes : 0; }
};

// `decode_seqs` sequences per DP group (sizes the decode reserves); the prefill chunk comes from
// the deployment.
MemoryPlan plan_memory(const Pool& pool, double decode_seqs);
// The same with the pool's weights_per_gpu() already known (a search's pool memo).
MemoryPlan plan_memory(const Pool& pool, double decode_seqs, const WeightBytes& weights);

// Default decode batch (sequences per DP group) the reserves are sized for before the operating
// point is known: SGLang's CUDA-graph capture limit.
constexpr double kDefaultDecodeBatch = 256;

}  // namespace slo
