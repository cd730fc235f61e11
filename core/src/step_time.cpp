// Forward-pass time: roofline per operation plus communication, overlap and overhead.
#include "slo/step_time.hpp"

#include <algorithm>
#include <cmath>

#include "slo/kv_cache.hpp"

namespace slo {

double tokens_per_step(const Mtp& mtp) {
  // Expected accepted run of i.i.d. drafts plus the bonus token: sum_{i=0..d} a^i.
  double s = 0, p = 1;
  for (int i = 0; i <= mtp.draft_tokens; ++i) {
    s += p;
    p *= mtp.acceptance;
  }
  return s;
}

// Achieved FLOP/s ceiling of block-scaled FP8 GEMMs on this GPU: without block scaling in the tensor
// cores the kernel promotes each 128-deep partial sum to FP32 on the CUDA cores, so it is bound per
// SM, not by the FP8 tensor rate. Source: vLLM PR #23280 (H100, N=2112 K=7168, M>=4096: Triton 400,
// CUTLASS 457-490 TFLOP/s against 715 for BF16 cuBLAS); block_fp8_tflops_per_sm in gpus.json.
GemmBound block_fp8_bound(const Pool& p) {
  GemmBound b;
  // FP8 x FP8 GEMMs (FP8 weights with other activations are dequantized or invalid).
  const Precision& pr = *p.precision;
  if (pr.weights != DType::FP8 || pr.activations != DType::FP8 || !pr.fp8_block_scales) return b;
  const Engine& eng = p.deployment->engine;
  b.dense = eng.block_fp8_dense_bound;
  // Tensor-parallel experts run the engine's fused-MoE kernel; expert parallelism (DeepEP) DeepGEMM's.
  b.experts = eng.block_fp8_fused_moe_bound && p.cfg.ep <= 1 && p.model->is_moe();
  if (b.dense || b.experts) b.flops_s = p.gpu->eff.block_fp8_tflops_per_sm * 1e12 * p.gpu->sms;
  return b;
}

namespace {
// Kernels one decoder layer launches (each has a fixed minimum duration however small its work):
// two norms; attention projections, RoPE and the attention kernel (MLA: q_a/kv_a, two norms, q_b,
// the two absorbed BMMs); the FFN (dense: gate_up, activation, down; MoE: router, top-k, token
// sort, two grouped GEMMs, activation, combine, plus a shared expert's three); one activation
// quantization per GEMM with 8-bit activations. Source: SGLang/vLLM decoder-layer forward paths.
double kernels_per_layer(const ModelArch& m, bool moe, bool quant) {
  const bool mla = m.attention == AttentionType::MLA;
  double attn = mla ? 9 : 4 + (m.qk_norm ? 1 : 0), gemms = mla ? 5 : 2;
  double ffn = 3;
  if (moe) {
    ffn = 7 + (m.shared_experts > 0 ? 3 : 0);
    gemms += 3 + (m.shared_experts > 0 ? 2 : 0);
  } else {
    gemms += 2;
  }
  return 2 + attn + ffn + (quant ? gemms : 0);
}
}  // namespace

// The pool's constants (step_time.hpp): what every forward pass of the pool shares.
StepConsts step_consts(const Pool& p) {
  StepConsts k;
  const ModelArch& m = *p.model;
  const Gpu& g = *p.gpu;
  const Efficiency& e = g.eff;
  k.t = p.cfg.attention_tp, k.moe_tp = p.cfg.moe_tp(), k.ep = p.cfg.ep, k.dp = p.dp();
  k.nvl = p.nvlink_gpus(), k.domains = p.stage_domains(), k.stage_gpus = p.stage_gpus();
  const EngineKernel& ek = p.deployment->engine.kernel;
  k.hbm = g.hbm_bytes_s * std::min(0.98, e.hbm * ek.hbm);
  k.hbm_kv = g.hbm_bytes_s * std::min(0.98, e.attention_hbm * ek.hbm);
  DType compute = DType::BF16;
  std::string a, b;
  if (!gemm_dtype(p.precision->weights, p.precision->activations, compute, a, b)) compute = DType::BF16;
  double peak = g.peak(compute);
  if (peak <= 0) peak = g.bf16_flops;
  k.gemm_peak = peak * std::min(0.98, e.gemm * ek.gemm);
  // Grouped expert GEMMs run the engine's MoE kernels, not cuBLAS: their own factor per engine.
  // Source: engine profiles (core/data/engines.json moe_gemm), fitted on each engine's MoE figures.
  k.moe_peak = peak * std::min(0.98, e.gemm * ek.gemm * p.deployment->engine.overheads.moe_gemm);
  const GemmBound bound = block_fp8_bound(p);
  if (bound.flops_s > 0 && bound.dense) k.gemm_peak = std::min(k.gemm_peak, bound.flops_s);
  if (bound.flops_s > 0 && bound.experts) k.moe_peak = std::min(k.moe_peak, bound.flops_s);
  // Attention core in BF16, or in 8 bits when both the KV cache and the activations are 8-bit and
  // the GPU has 8-bit tensor cores. Source: FlashAttention-3 FP8 (Shah et al. 2024); FlashMLA FP8 KV.
  const DType kv = p.precision->kv_cache, act = p.precision->activations;
  k.act8 = act == DType::FP8 || act == DType::INT8;
  const bool attn8 = (kv == DType::FP8 || kv == DType::INT8) && k.act8 && g.peak(act) > 0;
  k.attn_peak = (attn8 ? g.peak(act) : g.bf16_flops) * std::min(0.98, e.attention * ek.attention);
  k.wq = weight_bytes(p.precision->weights, p.precision->group_size);
  k.imbalance = 1.0 / p.deployment->balance(k.ep, p.cfg.redundant_experts);
  k.expert_pad = marlin_padding(p, k.moe_tp);
  k.attn_wbytes = p.precision->hp_attention ? 2.0 : k.wq;
  const int pp = p.cfg.pp;
  k.stage_layers = std::ceil(static_cast<double>(m.layers) / pp);
  k.stage_moe = m.moe_layers() > 0 ? std::ceil(static_cast<double>(m.moe_layers()) / pp) : 0;
  k.stage_dense = std::max(0.0, std::min(static_cast<double>(m.dense_layers()), k.stage_layers - k.stage_moe));
  const AttentionSplit as = attention_split(m);
  k.attn_replicated = as.replicated, k.attn_split = as.split;
  k.kv_layer = kv_bytes_per_token_layer(m, kv, k.t);
  k.local_slots = p.local_expert_slots();
  k.moe = m.is_moe();
  const double moe_share = m.layers > 0 ? static_cast<double>(m.moe_layers()) / m.layers : 0.0;
  k.kernels_per_layer = moe_share * kernels_per_layer(m, true, k.act8) + (1 - moe_share) * kernels_per_layer(m, false, k.act8);
  k.graph_limit = p.deployment->engine.eager_decode_above(g, k.stage_gpus);
  const std::string& mode = p.deployment->two_batch_overlap;
  k.overlap = mode == "on" ? 1 : mode == "auto" ? 2 : 0;
  // Offloaded weights cross the host link once per forward pass, at the share of its peak a large
  // pinned host-to-device copy reaches. Source: CUDA bandwidthTest / nvbandwidth (PCIe Gen5 x16
  // ~53-55 of 64 GB/s; GH200 NVLink-C2C host-to-device 416 of 450 GB/s): 0.85.
  if (p.cfg.cpu_offload_gb > 0 && g.host_bytes_s > 0) {
    k.offload_s = offloaded_weight_bytes(p, weights_per_gpu(p)) / (g.host_bytes_s * 0.85);
    k.offload_prefetch = p.deployment->offload_prefetch;
  }
  return k;
}

namespace {

// A pool, its constants and the references the step functions read.
struct Ctx : StepConsts {
  const Pool& pool;
  const ModelArch& m;
  const Gpu& g;
  const Efficiency& e;
  Ctx(const Pool& p, const StepConsts& k) : StepConsts(k), pool(p), m(*p.model), g(*p.gpu), e(p.gpu->eff) {}
};

// Books one operation: time = max(memory, compute); the larger side takes the time.
// Books one operation into one or two step tallies at once (without and with two-batch overlap),
// so "auto" overlap walks the layers once. time = smooth roofline of memory and compute.
struct Booker {
  StepParts* parts[2];
  double halves[2];  // 2 with two-batch overlap (weights read once per micro-batch), 1 otherwise
  int n = 1;
  void op(double weight_bytes, double data_bytes, bool data_is_kv, double flops, double peak, bool attention_core,
          double hbm) {
    for (int i = 0; i < n; ++i) book(*parts[i], halves[i], weight_bytes, data_bytes, data_is_kv, flops, peak, attention_core, hbm);
  }
  static void book(StepParts& s, double halves, double weight_bytes, double data_bytes, bool data_is_kv, double flops, double peak,
                   bool attention_core, double hbm) {
    s.weight_bytes += weight_bytes * halves;
    if (data_is_kv) s.kv_bytes += data_bytes;
    if (attention_core) s.attention_flops += flops;
    else s.gemm_flops += flops;
    // With two micro-batches each reads the weights and half of the data and does half the FLOPs.
    // (Zero sides and halves == 1 skip their divisions: the same numbers, bit for bit, fewer divides.)
    const bool one = halves == 1.0;
    const double mem_w = weight_bytes != 0 ? weight_bytes / hbm : 0.0;
    const double mem_d = data_bytes != 0 ? (one ? data_bytes : data_bytes / halves) / hbm : 0.0;
    const double comp = flops != 0 ? (one ? flops : flops / halves) / peak : 0.0;
    // Loads and math overlap imperfectly near the ridge point: a smooth roofline (L2 norm of the two
    // sides) instead of their max. It equals the larger side far from the ridge and is sqrt(2) x at
    // it. Source: measured GEMM throughput vs arithmetic intensity (e.g. NVIDIA "Matrix
    // Multiplication Background" guide, the knee between the memory and math limits).
    const double mem = mem_w + mem_d;
    const double t = std::sqrt(mem * mem + comp * comp) * halves;  // sqrt is correctly rounded everywhere (hypot is not)
    if (comp >= mem) {
      (attention_core ? s.attention : s.gemm) += t;
    } else {
      // Memory-bound: split the time between weight and data traffic in proportion (a side alone
      // takes all of it: x / x is exactly 1).
      double& data = data_is_kv ? s.kv : s.elementwise;
      if (mem_d == 0) s.weights += t;
      else if (mem_w == 0) data += t;
      else s.weights += t * (mem_w / mem), data += t * (mem_d / mem);
    }
  }
};

double link_time(double bytes, double bw) { return bw > 0 ? bytes / bw : 0.0; }

// Peer bandwidth inside a node: NVLink, or PCIe for GPUs without it (L20/L40S).
double intra_bw(const Ctx& c) {
  return c.g.nvlink_bytes_s > 0 ? c.g.nvlink_bytes_s * c.e.nvlink : c.g.pcie_bytes_s * c.e.nvlink;
}

// All-reduce of `bytes` over `group` GPUs: ring within a node (2 (g-1)/g of the data each way), and
// across nodes hierarchically: every GPU's own NIC carries 1/gpn of the data (all rails in use).
// Source: NCCL ring all-reduce bus bandwidth (nccl-tests PERFORMANCE.md); NCCL tree/CollNet over rails.
double allreduce_time(const Ctx& c, double bytes, int group) {
  if (group <= 1) return 0;
  const int gpn = std::min(group, c.nvl);
  double t = 2.0 * (gpn - 1) / gpn * link_time(bytes, intra_bw(c));
  // One-shot custom all-reduce over NVLink (vLLM/SGLang custom_all_reduce): one latency. PCIe-only peers
  // beyond two fall back to NCCL's ring, 2 (g-1) steps, so the two-GPU latency grows by (g-1).
  // Source: vLLM custom_all_reduce.py ("not supported on more than two PCIe-only GPUs"); NCCL ring algorithm.
  const double hops = c.g.pcie_peers ? gpn - 1 : 1;
  if (group <= gpn) return t + hops * c.e.allreduce_latency_us * 1e-6;
  // Across nodes the engines' custom all-reduce (intra-node only) gives way to one NCCL all-reduce,
  // whose small-message latency is the family's net_allreduce_latency_us. Source: NCCL issue #1453 (nccl-tests, H100 nodes).
  const double nodes = std::ceil(static_cast<double>(group) / gpn);
  return t + 2.0 * (nodes - 1) / nodes * link_time(bytes / gpn, c.g.nic_bytes_s * c.e.rdma) + c.e.net_allreduce_latency_us * 1e-6;
}

// Fixed latency of one dispatch or combine: grows with the nodes reached (more RDMA peers to
// signal and wait for). Source: DeepEP README low-latency table (EP8 -> EP256 at 128 tokens), fitted.
double a2a_latency(const Ctx& c, int nodes) {
  return c.e.comm_latency_us * 1e-6 * (nodes > 1 ? 2.0 * (1.0 + c.e.comm_latency_growth * std::log2(static_cast<double>(nodes))) : 1.0);
}

// EP dispatch + combine for `tokens` tokens per GPU over `layers` MoE layers.
void ep_comm(const Ctx& c, StepParts& s, double tokens, double layers, bool low_latency) {
  if (!c.m.is_moe() || c.ep <= 1 || layers <= 0) return;
  const double H = static_cast<double>(c.m.hidden);
  const double k = c.m.experts_per_tok;
  // FP8 dispatch carries one fp32 scale per 128 values; BF16 otherwise. Combine is BF16.
  const double bytes_tok = H * (c.act8 ? 1.0 + 4.0 / 128.0 : 2.0) + H * 2.0;
  const int stage = c.stage_gpus;
  const int nodes = c.domains;
  const double local_frac = std::min(1.0, static_cast<double>(c.nvl) / stage);
  double rdma_bytes = 0, nvl_bytes = 0;
  if (low_latency) {
    // DeepEP low-latency: each token goes straight to the GPU of each of its top-k experts.
    rdma_bytes = tokens * k * (1.0 - local_frac) * bytes_tok;
    nvl_bytes = tokens * k * local_frac * bytes_tok;
  } else {
    // DeepEP normal (prefill): one RDMA copy per remote node a token touches, then NVLink fan-out.
    // Copies go to distinct GPUs, not to each of the k experts: a token reaches S (1 - (1 - 1/S)^k)
    // of the stage's S GPUs on average (uniform routing). Source: DeepEP normal dispatch layout.
    double remote_nodes = nodes > 1 ? (nodes - 1) * (1.0 - std::pow(1.0 - 1.0 / nodes, k)) : 0.0;
    // Node-limited routing: a token reaches at most topk_group expert groups (DeepSeek-V3 §2.1.2,
    // "each token will be sent to at most M nodes"): topk_group groups, each remote with probability 1 - 1/nodes.
    if (c.m.topk_groups > 0 && c.m.expert_groups >= nodes) remote_nodes = std::min(remote_nodes, c.m.topk_groups * (1.0 - 1.0 / nodes));
    const double gpus_hit = stage * (1.0 - std::pow(1.0 - 1.0 / stage, k));
    rdma_bytes = tokens * remote_nodes * bytes_tok;
    nvl_bytes = tokens * gpus_hit * bytes_tok;
  }
  // The busiest receiver (hot experts) sets the all-to-all time.
  rdma_bytes *= c.imbalance;
  nvl_bytes *= c.imbalance;
  s.ep_bytes_rdma += rdma_bytes * layers;
  s.ep_bytes_nvlink += nvl_bytes * layers;
  const double t_rdma = link_time(rdma_bytes, c.g.nic_bytes_s * c.e.rdma);
  const double t_nvl = link_time(nvl_bytes, intra_bw(c));
  // The two links run concurrently; the slower one sets the time.
  if (t_rdma >= t_nvl) s.ep_rdma += t_rdma * layers;
  else s.ep_nvlink += t_nvl * layers;
  // Fixed latency of one dispatch and one combine per layer (more with more nodes to reach).
  s.ep_latency += 2.0 * a2a_latency(c, nodes) * layers;
}

// MLA prefill attention FLOPs per layer for causal work `work` (query-key pairs). The pass's cached
// prefix (tokens summed over its sequences) decides the engine's path: the absorbed kernels (scores
// over the latent + rope, values over the latent) below its threshold, else multi-head attention
// with the prefix re-expanded through kv_b_proj (`expand`: GEMM FLOPs per layer).
// Source: SGLang attention_backend_handler (SGLANG_CHUNKED_PREFIX_CACHE_THRESHOLD); vLLM MLACommonImpl.
struct MlaPrefill {
  double attention = 0, expand = 0;
};
inline MlaPrefill mla_prefill_flops(const Ctx& c, double work, double prefix, double heads) {
  const ModelArch& m = c.m;
  if (prefix >= 1.0 && prefix < c.pool.deployment->engine.mla_absorbed_prefix_below)
    return {2.0 * heads * (2.0 * m.kv_lora_rank + m.qk_rope_dim) * work, 0.0};
  const double mha = 2.0 * heads * (m.qk_nope_dim + m.qk_rope_dim + m.v_head_dim) * work;
  return {mha, prefix >= 1.0 ? 2.0 * prefix * m.kv_lora_rank * heads * (m.qk_nope_dim + m.v_head_dim) : 0.0};
}

// Layers' compute for `n` tokens per DP group (per GPU view) of `seqs` sequences.
// decode: attention reads `context` tokens per sequence; prefill: causal work `attn_work`.
void layers_compute(const Ctx& c, Booker& b, double n, double seqs, double context, double attn_work, bool prefill,
                    double layer_count, double moe_count, double dense_count, bool lm_head_all_tokens, double prefix = 0) {
  const ModelArch& m = c.m;
  const double H = static_cast<double>(m.hidden);
  // Attention projections: 2 FLOPs per multiply-accumulate. Source: ESTIMATOR-NOTES §4.
  const double attn_params = c.attn_replicated + c.attn_split / c.t;
  b.op(attn_params * c.attn_wbytes * layer_count, 0, false, 2.0 * n * attn_params * layer_count, c.gemm_peak, false, c.hbm);

  // Attention core.
  const double heads = static_cast<double>(m.heads) / c.t;
  const double kv_layer = c.kv_layer;
  const double sliding = std::min(layer_count, static_cast<double>(m.sliding_layers()) * layer_count / m.layers);
  const double full = layer_count - sliding;
  auto eff_ctx = [&](double ctx, bool slide) {
    return slide && m.sliding_window > 0 ? std::min(ctx, static_cast<double>(m.sliding_window)) : ctx;
  };
  for (int pass = 0; pass < 2; ++pass) {
    const bool slide = pass == 1;
    const double L = slide ? sliding : full;
    if (L <= 0) continue;
    double flops = 0, bytes = 0;
    if (!prefill) {
      const double ctx = eff_ctx(context, slide);
      // MLA absorbed decode: scores over kv_lora + rope, values over kv_lora, per query token.
      // GQA decode: QK^T and PV over head_dim. Source: ESTIMATOR-NOTES §4; FlashMLA.
      flops = m.attention == AttentionType::MLA
                  ? n * 2.0 * heads * ctx * (2.0 * m.kv_lora_rank + m.qk_rope_dim)
                  : n * 4.0 * heads * m.head_dim * ctx;
      bytes = seqs * ctx * kv_layer;  // each sequence's KV is read once per step, whatever its query count
    } else {
      double work = attn_work;
      if (slide && m.sliding_window > 0) work = std::min(attn_work, n * static_cast<double>(m.sliding_window));
      // Causal prefill attention: QK^T over qk_head_dim and PV over v_head_dim for each pair (quadratic).
      if (m.attention == AttentionType::MLA) {
        const MlaPrefill x = mla_prefill_flops(c, work, prefix, heads);
        flops = x.attention;
        if (x.expand > 0) b.op(0, 0, false, x.expand * L, c.gemm_peak, false, c.hbm);
      } else {
        flops = 4.0 * heads * m.head_dim * work;
      }
      bytes = (n + std::min(work / std::max(1.0, n), context)) * kv_layer;  // write new KV, read the prefix
    }
    b.op(0, bytes * L, true, flops * L, c.attn_peak, true, c.hbm_kv);
  }

  // Dense FFN layers and shared experts: gated FFN, 3 H I weights, TP-split by attention TP.
  const double dense = 3.0 * H * static_cast<double>(m.intermediate) / c.t;
  b.op(dense * c.wq * dense_count, 0, false, 2.0 * n * dense * dense_count, c.gemm_peak, false, c.hbm);
  if (m.is_moe() && moe_count > 0) {
    const double shared = 3.0 * H * static_cast<double>(m.shared_intermediate) * m.shared_experts / c.t;
    if (shared > 0) b.op(shared * c.wq * moe_count, 0, false, 2.0 * n * shared * moe_count, c.gemm_peak, false, c.hbm);
    // Router (BF16).
    b.op(H * m.routed_experts * 2.0 * moe_count, 0, false, 2.0 * n * H * m.routed_experts * moe_count, c.gemm_peak, false, c.hbm);
    // Routed experts: N tokens of all DP groups x top-k spread over (E + R) slots; a slot's weights
    // are read when at least one token reaches it: P = 1 - (1 - k/E)^(N E / (E + R)).
    const double slots = m.routed_experts + c.pool.cfg.redundant_experts;
    const double N = n * c.dp;
    const double rows_per_slot = N * m.experts_per_tok / slots * c.imbalance;  // on the busiest rank
    const double p_active = 1.0 - std::pow(1.0 - static_cast<double>(m.experts_per_tok) / m.routed_experts, N * m.routed_experts / slots);
    const double local = c.local_slots;
    // The kernel streams and multiplies the experts as loaded (padded for Marlin; memory_plan.hpp).
    const double expert_w = 3.0 * H * static_cast<double>(m.moe_intermediate) / c.moe_tp * c.expert_pad;
    b.op(local * p_active * expert_w * c.wq * moe_count, local * rows_per_slot * 2.0 * m.moe_intermediate / c.moe_tp * 2.0 * 3.0 * moe_count,
         false, 2.0 * local * rows_per_slot * expert_w * moe_count, c.moe_peak, false, c.hbm);
  }
  // Elementwise traffic: ~10 passes over the hidden state per layer (RMSNorm x2, residuals, RoPE,
  // SiLU-mul inputs/outputs, quantize). Source: memory-bound kernels of a decoder layer.
  b.op(0, n * H * 2.0 * 10.0 * layer_count, false, 0, c.gemm_peak, false, c.hbm);
  // lm_head (vocabulary-parallel over attention TP).
  const double head_tokens = lm_head_all_tokens ? n : std::max(1.0, seqs);
  const double head_bytes = c.pool.precision->hp_lm_head ? 2.0 : c.wq;
  const double V = static_cast<double>(m.vocab);
  b.op(V * H / c.t * head_bytes, head_tokens * V / c.t * 4.0, false, 2.0 * head_tokens * V * H / c.t, c.gemm_peak, false, c.hbm);
}

void comm(const Ctx& c, StepParts& s, double n, bool low_latency, double moe_layers, double layers, double dense_layers) {
  const double H = static_cast<double>(c.m.hidden);
  ep_comm(c, s, n / c.t, moe_layers, low_latency);
  // TP all-reduce after attention (attention TP > 1) and after dense FFN layers.
  if (c.t > 1) {
    s.tp_allreduce += allreduce_time(c, n * H * 2.0, c.t) * layers;
    s.tp_allreduce += allreduce_time(c, n * H * 2.0, c.t) * dense_layers;
  }
  // MoE tensor parallel without EP: partial sums of all the stage's tokens reduced over MoE TP.
  if (c.m.is_moe() && c.moe_tp > 1) {
    // With DP attention the ranks' tokens are gathered before the experts and scattered after: an
    // all-gather + reduce-scatter (one all-reduce's bytes), or two whole-batch all-reduces where the
    // engine gathers a prefill batch that way. Source: SGLang dp_attention.py (DpPaddingMode: extend
    // batches use SUM_LEN, gathered with all_reduce; decode picks the cheaper MAX_LEN all-gather).
    const bool twice = !low_latency && c.dp > 1 && c.ep <= 1 && c.pool.deployment->engine.dp_prefill_all_reduce;
    s.tp_allreduce += (twice ? 2.0 : 1.0) * allreduce_time(c, n * (c.dp > 1 ? c.dp : 1) * H * 2.0 / (c.ep > 1 ? c.ep : 1), c.moe_tp) * moe_layers;
  }
  // Pipeline: activations cross each stage boundary once.
  if (c.pool.cfg.pp > 1) {
    const bool cross = c.pool.cfg.instance_gpus() > c.nvl;
    const double bw = cross ? c.g.nic_bytes_s * c.e.rdma : intra_bw(c);
    s.pp_send += (c.pool.cfg.pp - 1) * (link_time(n * H * 2.0, bw) + c.e.comm_latency_us * 1e-6);
  }
}

// The engine's serial CPU time per forward pass before its kernels (scheduling, sampling), on this
// platform's launch scale. Source: engine profiles (core/data/engines.json), fitted per engine.
double pass_cpu(const Ctx& c, bool prefill) {
  const EngineOverheads& o = c.pool.deployment->engine.overheads;
  return (prefill ? o.prefill_ms : o.step_ms) * 1e-3 * c.e.launch_scale;
}

// CPU and launch time of one forward pass: the per-pass cost plus every kernel's fixed duration
// (CUDA-graph replay in decode; eager launches in prefill), on this platform's launch scale.
// Source: engine profiles (core/data/engines.json), fitted per engine on published measurements.
double step_overhead(const Ctx& c, double layers, bool prefill) {
  const EngineOverheads& o = c.pool.deployment->engine.overheads;
  const double kernels = layers * c.kernels_per_layer;
  return pass_cpu(c, prefill) + kernels * (prefill ? o.prefill_kernel_us : o.kernel_us) * 1e-6 * c.e.launch_scale;
}

void classify(StepParts& s) {
  struct P {
    const char* name;
    double v;
  } parts[] = {{"hbm-weights", s.weights},
               {"hbm-kv", s.kv + s.elementwise},
               {"compute", s.gemm + s.attention},
               {"network", s.exposed_comm},
               {"overhead", s.overhead},
               {"host-link", s.host_wait}};
  const P* best = &parts[0];
  for (const auto& p : parts)
    if (p.v > best->v) best = &p;
  s.bottleneck = best->name;
}

// Runs one forward with or without two-batch overlap and keeps the faster (or the one asked for).
template <class Fill>
StepParts forward(const Ctx& c, Fill fill, double overhead, double time_scale, bool low_latency, double launches = 0) {
  // Totals of one tally: compute, exposed communication and overhead.
  auto finish = [&](StepParts& s, bool tbo) {
    s.tbo = tbo;
    s.overhead = overhead;
    s.compute_total = s.compute();
    // DeepEP's normal (prefill) kernels keep 20 SMs busy while they overlap with compute, so the
    // overlapped compute runs on the remaining SMs. Low-latency kernels occupy none.
    // Source: DeepEP README (Buffer.set_num_sms(24) / 20 SMs default; hook-based LL overlap uses no SM).
    if (tbo && !low_latency && c.g.sms > 20) s.compute_total *= static_cast<double>(c.g.sms) / (c.g.sms - 20);
    // Two-batch overlap hides one micro-batch's communication behind the other's compute.
    // Source: SGLang two-batch overlap (LMSYS 2025-05-05), DeepSeek inference system overview.
    const double total_comm = s.comm() + (tbo ? s.ep_latency : 0.0);
    // Overlap hides at most tbo_overlap of the shorter side: total = max(C, M) + (1 - eta) min(C, M).
    s.exposed_comm = tbo ? std::max(0.0, total_comm - s.compute_total) +
                               (1.0 - c.e.tbo_overlap) * std::min(total_comm, s.compute_total)
                         : total_comm;
    // Eager launches are asynchronous: the CPU enqueues kernels while the GPU runs earlier ones, so
    // only launch time beyond the GPU's own time shows. Source: CUDA asynchronous execution model.
    if (launches > 0) s.overhead += std::max(0.0, launches - s.compute_total - s.exposed_comm);
    s.total = s.compute_total + s.exposed_comm + s.overhead;
  };
  const bool can_overlap = c.moe && c.ep > 1;
  const bool both = c.overlap == 2 && can_overlap;
  const bool only_tbo = c.overlap == 1 && can_overlap;
  StepParts plain, tbo;
  Booker b{{only_tbo ? &tbo : &plain, &tbo}, {only_tbo ? 2.0 : 1.0, 2.0}, both ? 2 : 1};
  fill(b, only_tbo ? tbo : plain);
  if (both) {  // communication does not depend on the overlap: copy it to the second tally
    tbo.ep_nvlink = plain.ep_nvlink, tbo.ep_rdma = plain.ep_rdma, tbo.ep_latency = plain.ep_latency;
    tbo.tp_allreduce = plain.tp_allreduce, tbo.pp_send = plain.pp_send;
    tbo.ep_bytes_nvlink = plain.ep_bytes_nvlink, tbo.ep_bytes_rdma = plain.ep_bytes_rdma;
  }
  if (!only_tbo) finish(plain, false);
  if (only_tbo || both) finish(tbo, true);
  StepParts best = only_tbo ? tbo : both && tbo.total < plain.total ? tbo : plain;
  if (time_scale != 1.0) {
    for (double* x : {&best.weights, &best.kv, &best.gemm, &best.attention, &best.elementwise, &best.ep_nvlink, &best.ep_rdma,
                      &best.ep_latency, &best.tp_allreduce, &best.pp_send, &best.overhead, &best.compute_total,
                      &best.exposed_comm, &best.mtp_draft, &best.total})
      *x *= time_scale;
  }
  classify(best);
  return best;
}

// A pass with offloaded weights: they stream in behind the GPU's own work when prefetched, and
// on top of it when each layer fetches its share as it runs (the GPU waits for the link).
// Source: SGLang OffloaderV2 / vLLM --offload-backend prefetch (copies on a side stream ahead of
// the layer); SGLang OffloaderV1 / vLLM UVA (--cpu-offload-gb: weights read as the layer runs).
void add_offload(const Ctx& c, StepParts& s, double time_scale) {
  if (c.offload_s <= 0) return;
  s.host_link = c.offload_s * time_scale;
  s.host_wait = c.offload_prefetch ? std::max(0.0, s.host_link - s.total) : s.host_link;
  s.total += s.host_wait;
  classify(s);
}

}  // namespace

StepParts decode_step(const Pool& pool, double seqs, double context, double time_scale) {
  return decode_step(pool, step_consts(pool), seqs, context, time_scale);
}

StepParts decode_step(const Pool& pool, const StepConsts& k, double seqs, double context, double time_scale) {
  const Ctx c(pool, k);
  const Mtp& mtp = pool.deployment->mtp;
  const int d = pool.with_mtp ? mtp.draft_tokens : 0;
  const double n = seqs * (1 + d);  // tokens verified per step
  // CPU work per running sequence (scheduling, sampling, streaming the token out) per step.
  const Engine& eng = c.pool.deployment->engine;
  const double per_seq = seqs * eng.overheads.seq_us * 1e-6 * c.e.launch_scale;
  // A batch above the engine's CUDA-graph limit runs eagerly: its kernels launch one by one as in a
  // prefill pass, overlapping the GPU's own work. Source: SGLang CudaGraphRunner.can_run (bs <=
  // cuda_graph_max_bs); vLLM V1 max_cudagraph_capture_size (min(2 x max_num_seqs, 512)).
  // Each kernel keeps its fixed GPU-side duration; the CPU's launches show where they outrun the GPU.
  const int graph_limit = c.graph_limit;
  const bool eager = graph_limit > 0 && n > graph_limit;
  const double overhead = step_overhead(c, c.stage_layers, false) + per_seq;
  const double launches = eager ? step_overhead(c, c.stage_layers, true) - pass_cpu(c, true) : 0.0;
  StepParts s = forward(
      c,
      [&](Booker& b, StepParts& sp) {
        layers_compute(c, b, n, seqs, context, 0, false, c.stage_layers, c.stage_moe, c.stage_dense, true);
        comm(c, sp, n, true, c.stage_moe, c.stage_layers, c.stage_dense);
      },
      overhead, 1.0, true, launches);
  add_offload(c, s, 1.0);  // scaled with the rest below
  s.total *= pool.cfg.pp;  // a token crosses every stage: TPOT spans the whole pipeline
  // MTP drafts: d sequential passes of the one-layer MTP module (plus lm_head) at one token per sequence.
  if (d > 0) {
    StepParts draft = forward(
        c,
        [&](Booker& b, StepParts& sp) {
          const double moe = c.m.is_moe() ? 1.0 : 0.0;
          layers_compute(c, b, seqs, seqs, context, 0, false, 1.0, moe, 1.0 - moe, true);
          comm(c, sp, seqs, true, moe, 1.0, 1.0 - moe);
        },
        step_overhead(c, 1.0, false) - pass_cpu(c, false) * 0.75, 1.0,
        true);  // draft passes replay inside the same CUDA graph: a quarter of the per-step overhead
    s.mtp_draft = d * draft.total;
    s.total += s.mtp_draft;
  }
  if (time_scale != 1.0) {
    for (double* x : {&s.weights, &s.kv, &s.gemm, &s.attention, &s.elementwise, &s.ep_nvlink, &s.ep_rdma, &s.ep_latency,
                      &s.tp_allreduce, &s.pp_send, &s.overhead, &s.compute_total, &s.exposed_comm, &s.mtp_draft, &s.host_link,
                      &s.host_wait, &s.total})
      *x *= time_scale;
  }
  return s;
}

StepParts prefill_pass(const Pool& pool, double tokens, double seqs, double attn_work, double prefix, double time_scale) {
  return prefill_pass(pool, step_consts(pool), tokens, seqs, attn_work, prefix, time_scale);
}

StepParts prefill_pass(const Pool& pool, const StepConsts& k, double tokens, double seqs, double attn_work, double prefix,
                       double time_scale) {
  const Ctx c(pool, k);
  // The per-pass CPU cost (scheduling) is serial; the kernel launches overlap the GPU's work, except
  // behind expert parallelism: a normal-mode all-to-all makes the CPU wait for each MoE layer's
  // receive counts (to size its buffers), so the launches after it cannot run ahead.
  // Source: DeepEP README (normal kernels: CPU-GPU sync for the received token counts, no CUDA graph).
  const double overhead = step_overhead(c, c.stage_layers, true);
  const double fixed = c.m.is_moe() && c.ep > 1 ? overhead : pass_cpu(c, true);
  const double launches = overhead - fixed;
  StepParts s = forward(
      c,
      [&](Booker& b, StepParts& sp) {
        layers_compute(c, b, tokens, seqs, tokens / std::max(1.0, seqs), attn_work, true, c.stage_layers, c.stage_moe,
                       c.stage_dense, false, prefix);
        comm(c, sp, tokens, false, c.stage_moe, c.stage_layers, c.stage_dense);
      },
      fixed, time_scale, false, launches);
  add_offload(c, s, time_scale);
  return s;
}

A2ATime ep_low_latency_time(const Pool& pool, double tokens_per_gpu) {
  const Ctx c(pool, step_consts(pool));
  const double H = static_cast<double>(c.m.hidden);
  const double k = c.m.experts_per_tok;
  const int stage = c.stage_gpus;
  const double local = std::min(1.0, static_cast<double>(c.nvl) / stage);
  const int nodes = c.domains;
  auto one = [&](double bytes_tok) {
    const double r = tokens_per_gpu * k * (1 - local) * bytes_tok, l = tokens_per_gpu * k * local * bytes_tok;
    return std::max(link_time(r, c.g.nic_bytes_s * c.e.rdma), link_time(l, intra_bw(c))) +
           a2a_latency(c, nodes);
  };
  A2ATime t;
  t.dispatch = one(H * (1.0 + 4.0 / 128.0));
  t.combine = one(H * 2.0);
  return t;
}

}  // namespace slo
