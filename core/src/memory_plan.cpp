// Per-GPU memory: weights placed by the parallel layout, reserves sized from the batch, KV pool.
#include "slo/memory_plan.hpp"

#include <algorithm>
#include <cmath>

#include "slo/kv_cache.hpp"

namespace slo {

int Pool::nvlink_gpus() const {
  const int domain = gpu ? gpu->nvlink_domain : 0;
  return domain > gpus_per_node ? domain / gpus_per_node * gpus_per_node : gpus_per_node;
}

int Pool::stage_domains() const {
  const int d = nvlink_gpus();
  return std::max(1, (stage_gpus() + d - 1) / d);
}

int Pool::local_expert_slots() const {
  if (!model->is_moe()) return 0;
  return (model->routed_experts + cfg.redundant_experts) / cfg.ep;
}

// Expert bytes as loaded relative to the checkpoint's: MXFP4 experts on a GPU without FP4 tensor
// cores are repacked for the Marlin kernel with the hidden size and each rank's intermediate padded.
// Source: vLLM Mxfp4MoEMethod.create_weights, Marlin backend (round_up(hidden, 256), round_up(I / tp, 128)).
double marlin_padding(const Pool& pool, int moe_tp) {
  const Engine& e = pool.deployment->engine;
  if (pool.precision->weights != DType::MXFP4 || pool.gpu->fp4_flops > 0 || e.mxfp4_pad_hidden <= 0 || e.mxfp4_pad_intermediate <= 0) return 1.0;
  const ModelArch& m = *pool.model;
  auto up = [](double x, int k) { return std::ceil(x / k) * k; };
  const double h = static_cast<double>(m.hidden), i = static_cast<double>(m.moe_intermediate) / moe_tp;
  return h > 0 && i > 0 ? up(h, e.mxfp4_pad_hidden) * up(i, e.mxfp4_pad_intermediate) / (h * i) : 1.0;
}

WeightBytes weights_per_gpu(const Pool& pool) {
  const ModelArch& m = *pool.model;
  const Precision& pr = *pool.precision;
  const ParamBreakdown p = count_params(m);
  const double wq = weight_bytes(pr.weights, pr.group_size);  // quantized linear weights
  const double hp = 2.0;                                      // BF16 for high-precision components
  const int t = pool.cfg.attention_tp;
  const int moe_tp = pool.cfg.moe_tp();
  const int pp = pool.cfg.pp;
  // The worst pipeline stage holds ceil(layers / pp) layers and the larger of embedding / head.
  const double stage_layers = std::ceil(static_cast<double>(m.layers) / pp);
  const double layer_share = stage_layers / m.layers;
  const double moe_share = m.moe_layers() > 0 ? std::ceil(static_cast<double>(m.moe_layers()) / pp) / m.moe_layers() : 0;
  const double dense_share = m.dense_layers() > 0 ? std::min(1.0, std::ceil(static_cast<double>(m.dense_layers()) / pp) / m.dense_layers()) : 0;

  WeightBytes w;
  // Attention: replicated parts (MLA q_a/kv_a) on every TP rank, the rest divided by attention TP.
  // Source: SGLang DeepseekV2AttentionMLA (ReplicatedLinear fused_qkv_a_proj_with_mqa; ColumnParallel q_b/kv_b; RowParallel o).
  AttentionSplit a = attention_split(m);
  const double attn_bytes = pr.hp_attention ? hp : wq;
  w.attention = (a.replicated + a.split / t) * m.layers * layer_share * attn_bytes;
  if (m.attention == AttentionType::GQA && m.kv_heads < t) {
    // K/V projections replicate beyond kv_heads: each rank keeps one KV head.
    const double kv_proj = 2.0 * m.hidden * m.head_dim;
    w.attention += (kv_proj - 2.0 * m.hidden * m.kv_heads * m.head_dim / t) * m.layers * layer_share * attn_bytes;
  }
  // Dense FFN and shared experts: tensor-parallel over the attention TP group, replicated across
  // DP groups (SGLang --moe-dense-tp-size 1 with DP attention).
  w.dense_ffn = p.dense_ffn / t * dense_share * wq;
  w.shared_experts = p.shared_experts / t * moe_share * wq;
  // Routed experts: (routed + redundant) / EP slots per GPU, each split by the MoE TP degree.
  if (m.is_moe()) w.routed_experts = pool.local_expert_slots() * p.per_expert * m.moe_layers() * moe_share / moe_tp * wq * marlin_padding(pool, moe_tp);
  w.router = p.router * moe_share * (pr.hp_router ? hp : wq);
  // Embedding and lm_head: vocabulary-parallel over attention TP; with PP the first stage holds
  // the embedding and the last the head (the worst stage is counted).
  const double emb_bytes = pr.hp_embedding ? hp : wq;
  const double head_bytes = pr.hp_lm_head ? hp : wq;
  if (pp == 1) {
    w.embedding = p.embedding / t * emb_bytes;
    w.lm_head = p.lm_head / t * head_bytes;
  } else {
    w.embedding = std::max(p.embedding * emb_bytes, p.lm_head * head_bytes) / t;
  }
  w.norms = (p.layer_norms + p.attention_norms) * layer_share * (pr.hp_norms ? hp : wq);
  // MTP draft module, placed like one more layer of the model (its experts EP-sharded).
  if (pool.with_mtp && m.mtp_layers > 0 && pool.phase != Phase::Prefill) {
    const double H = static_cast<double>(m.hidden);
    double layer = (a.replicated + a.split / t) * attn_bytes + 2.0 * H * H * wq / t;
    if (m.is_moe())
      layer += pool.local_expert_slots() * p.per_expert / moe_tp * wq +
               3.0 * H * static_cast<double>(m.shared_intermediate) * m.shared_experts / t * wq +
               H * m.routed_experts * (pr.hp_router ? hp : wq);
    else
      layer += 3.0 * H * static_cast<double>(m.intermediate) / t * wq;
    w.mtp = m.mtp_layers * layer;
  }
  return w;
}

namespace {

constexpr double kFusedMoeChunkTokens = 32768;

// Peak activation workspace of one forward pass with `tokens` tokens per DP group (per GPU view).
// Counted as SGLang's profile run sizes it: live hidden-state buffers, the larger of the attention
// and FFN intermediates, and fp32 logits. Source: SGLang model_runner profile_max_num_token.
double activation_bytes(const Pool& pool, double tokens, double logit_tokens, bool prefill) {
  const ModelArch& m = *pool.model;
  const double H = static_cast<double>(m.hidden);
  const int t = pool.cfg.attention_tp;
  const double hidden = tokens * H * 2.0 * 8.0;
  double attn = 0;
  if (m.attention == AttentionType::MLA)
    attn = prefill ? tokens * m.heads / t * (m.qk_nope_dim + m.qk_rope_dim + m.v_head_dim) * 2.0 * 2.0
                   : tokens * m.heads / t * (m.kv_lora_rank + m.qk_rope_dim) * 2.0 * 2.0;
  else
    attn = tokens * m.heads / t * m.head_dim * 2.0 * 3.0;
  double ffn = tokens * 2.0 * static_cast<double>(m.intermediate) / t * 2.0;
  if (m.is_moe()) {
    // Token-expert rows one GPU computes: all DP groups' tokens x top-k spread over EP ranks.
    // Capped at one DP group's worth (tokens x k): beyond it the dispatch is chunked through
    // fixed-size buffers, so the workspace does not grow with the cluster (DeepEP normal mode,
    // num_max_nvl_chunked_send_tokens; SGLang --chunked-prefill-size per DP rank).
    // The fused-MoE kernels run a long pass in chunks of at most kFusedMoeChunkTokens tokens, each
    // reusing one workspace. Source: vLLM envs.py VLLM_FUSED_MOE_CHUNK_SIZE (32768), fused_experts_impl.
    const double chunk = std::min(tokens, kFusedMoeChunkTokens);
    const double rows = std::min(chunk * pool.dp() * m.experts_per_tok / pool.cfg.ep / pool.cfg.pp, chunk * m.experts_per_tok);
    ffn = std::max(ffn, rows * (H * 1.0 + 2.0 * static_cast<double>(m.moe_intermediate) / pool.cfg.moe_tp() * 2.0 + H * 2.0));
  }
  const double logits = logit_tokens * static_cast<double>(m.vocab) / t * 4.0;
  return hidden + std::max(attn, ffn) + logits;
}

// KV bytes the engine's memory flag grants, as each engine defines its flag.
// Sources: SGLang model_runner (mem_fraction_static covers weights + KV); vLLM
// determine_num_available_blocks (gpu_memory_utilization covers weights + activation peak + KV);
// TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction (share of the memory free after weights and activations).
double kv_budget(MemoryFraction kind, const MemoryPlan& mp, double f) {
  const double w = mp.resident_weights();
  switch (kind) {
    case MemoryFraction::WeightsKv: return f * mp.hbm - w;
    case MemoryFraction::WeightsActivationsKv: return f * mp.hbm - w - mp.activations;
    case MemoryFraction::FreeAfterWeights: return f * (mp.hbm - w - mp.reserves());
  }
  return f * mp.hbm - w - mp.reserves();
}

}  // namespace

double MemoryPlan::session_bytes(double context) const {
  return kv_layer_factor * kv_session_bytes(*pool->model, pool->precision->kv_cache, pool->cfg.attention_tp, pool->cfg.pp, context);
}

double MemoryPlan::sessions(double context) const {
  if (!fits() || context <= 0) return 0;
  const double per = session_bytes(context);
  if (per <= 0) return 0;
  return dp * std::floor(kv_pool / per);
}

double offloaded_weight_bytes(const Pool& pool, const WeightBytes& w) {
  if (pool.cfg.cpu_offload_gb <= 0) return 0;
  return std::min(pool.cfg.cpu_offload_gb * 1e9, std::max(0.0, w.total() - w.embedding - w.lm_head));
}

double memory_fraction_of(const Pool& pool) {
  const Deployment& d = *pool.deployment;
  if (d.memory_fraction > 0) return d.memory_fraction;
  AutoFractionInputs in;
  in.gpu_mib = pool.gpu->usable_memory_bytes() / 1048576.0;
  in.tp_pp = pool.cfg.instance_gpus();
  in.dp = pool.dp();
  // The flag as given: under DP attention SGLang divides --chunked-prefill-size by dp afterwards.
  in.chunk_flag = static_cast<double>(d.chunked_prefill_tokens) * std::max(1, in.dp);
  in.graph_max_batch = d.engine.graph_max_batch(*pool.gpu, pool.stage_gpus());
  in.speculative = pool.with_mtp;
  in.release = d.engine_version;
  return d.engine.auto_memory_fraction(in);
}

MemoryPlan plan_memory(const Pool& pool, double decode_seqs) { return plan_memory(pool, decode_seqs, weights_per_gpu(pool)); }

MemoryPlan plan_memory(const Pool& pool, double decode_seqs, const WeightBytes& weights) {
  const ModelArch& m = *pool.model;
  const Deployment& d = *pool.deployment;
  MemoryPlan mp;
  mp.pool = &pool;
  mp.hbm = pool.gpu->usable_memory_bytes();
  mp.fraction = memory_fraction_of(pool);
  mp.fraction_auto = !(d.memory_fraction > 0);
  mp.usable = mp.hbm * mp.fraction;  // what the engine's memory flag grants (see kv_budget)
  mp.weights = weights;
  mp.dp = pool.cfg.dp_attention();  // every instance's DP groups
  mp.pool_gpus = pool.cfg.gpus;
  // Bytes per token at short context (every layer holds it; sliding windows only cap long contexts).
  // The MTP draft layer caches its own KV for every token (SGLang/vLLM EAGLE-style draft KV pool).
  if (pool.with_mtp && m.mtp_layers > 0 && pool.phase != Phase::Prefill)
    mp.kv_layer_factor = static_cast<double>(m.layers + m.mtp_layers) / m.layers;
  mp.kv_token_bytes = mp.kv_layer_factor * kv_session_bytes(m, pool.precision->kv_cache, pool.cfg.attention_tp, pool.cfg.pp, 1.0);

  const bool decodes = pool.phase != Phase::Prefill;
  const bool prefills = pool.phase != Phase::Decode;
  const double draft = pool.with_mtp ? d.mtp.draft_tokens : 0;
  mp.decode_tokens = decodes ? decode_seqs * (1.0 + draft) : 0;
  mp.prefill_tokens = prefills ? d.chunked_prefill_tokens : 0;
  const double act_decode = decodes ? activation_bytes(pool, mp.decode_tokens, mp.decode_tokens, false) : 0;
  const double act_prefill = prefills ? activation_bytes(pool, mp.prefill_tokens, 64, true) : 0;
  mp.activations = std::max(act_decode, act_prefill);
  if (m.is_moe() && pool.cfg.ep > 1) {
    const double H = static_cast<double>(m.hidden);
    // DeepEP low-latency buffers: every local expert can receive its batch from every EP rank;
    // FP8 dispatch (1 B) + BF16 combine (2 B), double-buffered. Source: DeepEP get_low_latency_rdma_size_hint.
    if (decodes)
      mp.ep_buffers += 2.0 * pool.local_expert_slots() * pool.cfg.ep * (mp.decode_tokens / pool.cfg.attention_tp) * H * 3.0;
    // DeepEP normal-mode buffers: send and receive staging for one prefill chunk.
    if (prefills) mp.ep_buffers += 2.0 * mp.prefill_tokens * H * 3.0;
  }
  // CUDA graphs keep a private pool holding the decode activations, plus graph objects (~0.25 GB).
  // Engines capture graphs for every batch up to their largest captured size and keep one private
  // pool sized for it (SGLang --cuda-graph-max-bs, vLLM max_capture_size), not for the operating batch.
  if (decodes) {
    const double graph_tokens = std::max(mp.decode_tokens, std::min<double>(d.engine.cuda_graph_max_batch, kDefaultDecodeBatch) * (1.0 + draft));
    mp.cuda_graph = 0.25e9 + activation_bytes(pool, graph_tokens, graph_tokens, false);
  }
  // Disaggregated prefill: double-buffered KV staging for one chunk before the RDMA transfer.
  if (pool.phase == Phase::Prefill) mp.kv_transfer = 2.0 * mp.prefill_tokens * mp.kv_token_bytes;

  // Weight offload: the engines offload decoder layers' weights (not the embedding or lm_head) to
  // host memory; prefetching stages one layer's offloaded share ahead, double-buffered.
  // Source: SGLang OffloaderV1 (--cpu-offload-gb) / OffloaderV2 (prefetch); vLLM --offload-backend uva|prefetch.
  mp.offloaded = offloaded_weight_bytes(pool, mp.weights);
  if (mp.offloaded > 0 && d.offload_prefetch) mp.offload_staging = 2.0 * mp.offloaded / std::max(1, m.layers / pool.cfg.pp);

  // Physical memory first: weights and reserves must fit the HBM; the KV pool is what the engine's
  // flag grants, never more than what is physically left.
  const double physical = mp.hbm - mp.resident_weights() - mp.reserves();
  const double granted = kv_budget(d.engine.memory_fraction, mp, mp.fraction);
  const double left = std::min(physical, granted);
  mp.kv_pool = std::max(0.0, left);
  mp.shortfall = left < 0 ? -left : 0;
  return mp;
}

}  // namespace slo
