// Forward-pass time: roofline per operation plus communication, overlap and overhead.
#include "slo/step_time.hpp"

#include <algorithm>
#include <cmath>

#include "slo/kv_cache.hpp"

namespace slo {

namespace {

// A pool, its constants and the references the step functions read.
struct Ctx : StepConsts {
  const Pool& pool;
  const ModelArch& m;
  const Gpu& g;
  const Efficiency& e;
  Ctx(const Pool& p, const StepConsts& k) : StepConsts(k), pool(p), m(*p.model), g(*p.gpu), e(p.gpu->eff) {}
  int draft_tokens() const { return pool.draft_tokens(); }
};

// Books one operation into one or two step tallies at once (without and with two-batch overlap),
// so "auto" overlap walks the layers once. time = smooth roofline of memory and compute. With a
// recorder it books nothing and keeps the operation's bytes, FLOPs and rates (DecodeCurve).
struct Booker {
  StepParts* parts[2];
  double halves[2];  // 2 with two-batch overlap (weights read once per micro-batch), 1 otherwise
  int n = 1;
  DecodeCurve::Recorder* rec = nullptr;
  // `active` >= 0: the routed experts' op, whose weights are read for that share of the slots only.
  void op(double weight_bytes, double data_bytes, bool data_is_kv, double flops, double peak, bool attention_core,
          double hbm, double active = -1) {
    if (rec) {
      rec->add(weight_bytes / hbm, data_bytes / hbm, flops / peak, active >= 0);
      return;
    }
    if (active >= 0) weight_bytes *= active;
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

// Peer link inside a node: NVLink, or PCIe for GPUs without it (L20/L40S); bulk transfers reach
// the family's `nvlink` share of it.
double peer_link(const Ctx& c) { return c.g.nvlink_bytes_s > 0 ? c.g.nvlink_bytes_s : c.g.pcie_bytes_s; }
double intra_bw(const Ctx& c) { return peer_link(c) * c.e.nvlink; }

// All-reduce of `bytes` over `group` GPUs: ring within a node (2 (g-1)/g of the data each way), and
// across nodes hierarchically: every GPU's own NIC carries 1/gpn of the data (all rails in use).
// Source: NCCL ring all-reduce bus bandwidth (nccl-tests PERFORMANCE.md); NCCL tree/CollNet over rails.
// `decode`: a decode step's, replayed in its CUDA graph through the engines' own all-reduce kernels.
double allreduce_time(const Ctx& c, double bytes, int group, bool decode) {
  if (group <= 1) return 0;
  const int gpn = std::min(group, c.nvl);
  // The engines' all-reduce kernels (every decode step; prefill messages up to their 8 MiB buffer)
  // reach a share of the link of their own, fitted per family: far below NCCL's large-message ring
  // (~370 of 450 GB/s on H100), which moves larger prefill messages at the bulk share. On PCIe-only
  // GPUs beyond two (no custom all-reduce) the share describes NCCL's ring at decode sizes instead.
  // Source: vLLM/SGLang custom_all_reduce (max_size 8 MiB); NCCL maintainer, NVIDIA/nccl-tests#212.
  const double link = decode || bytes <= 8.0 * 1048576.0 ? peer_link(c) * c.e.allreduce_bw : intra_bw(c);
  double t = 2.0 * (gpn - 1) / gpn * link_time(bytes, link);
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

// Share of E + R expert slots that at least one of N tokens (top-k each) reaches, routing uniform:
// P = 1 - (1 - k/E)^(N E / (E + R)). Source: occupancy of k-of-E draws (balls into bins).
double expert_activity(double k, double experts, double slots, double N) {
  return 1.0 - std::pow(1.0 - k / experts, N * experts / slots);
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
    // are read when at least one token reaches it (expert_activity).
    const double slots = m.routed_experts + c.pool.cfg.redundant_experts;
    const double N = n * c.dp;
    const double rows_per_slot = N * m.experts_per_tok / slots * c.imbalance;  // on the busiest rank
    const double local = c.local_slots;
    // The kernel streams and multiplies the experts as loaded (padded for Marlin; memory_plan.hpp).
    const double expert_w = 3.0 * H * static_cast<double>(m.moe_intermediate) / c.moe_tp * c.expert_pad;
    b.op(local * expert_w * c.wq * moe_count, local * rows_per_slot * 2.0 * m.moe_intermediate / c.moe_tp * 2.0 * 3.0 * moe_count,
         false, 2.0 * local * rows_per_slot * expert_w * moe_count, c.moe_peak, false, c.hbm, expert_activity(m.experts_per_tok, m.routed_experts, slots, N));
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
    s.tp_allreduce += allreduce_time(c, n * H * 2.0, c.t, low_latency) * layers;
    s.tp_allreduce += allreduce_time(c, n * H * 2.0, c.t, low_latency) * dense_layers;
  }
  // MoE tensor parallel without EP: partial sums of all the stage's tokens reduced over MoE TP.
  if (c.m.is_moe() && c.moe_tp > 1) {
    // With DP attention the ranks' tokens are gathered before the experts and scattered after: an
    // all-gather + reduce-scatter (one all-reduce's bytes), or two whole-batch all-reduces where the
    // engine gathers a prefill batch that way. Source: SGLang dp_attention.py (DpPaddingMode: extend
    // batches use SUM_LEN, gathered with all_reduce; decode picks the cheaper MAX_LEN all-gather).
    const bool twice = !low_latency && c.dp > 1 && c.ep <= 1 && c.pool.deployment->engine.dp_prefill_all_reduce;
    s.tp_allreduce += (twice ? 2.0 : 1.0) * allreduce_time(c, n * (c.dp > 1 ? c.dp : 1) * H * 2.0 / (c.ep > 1 ? c.ep : 1), c.moe_tp, low_latency) * moe_layers;
  }
  // Pipeline: activations cross each stage boundary once.
  if (c.pool.cfg.pp > 1) {
    const bool cross = c.pool.cfg.instance_gpus() > c.nvl;
    const double bw = cross ? c.g.nic_bytes_s * c.e.rdma : intra_bw(c);
    s.pp_send += (c.pool.cfg.pp - 1) * (link_time(n * H * 2.0, bw) + c.e.comm_latency_us * 1e-6);
  }
}

// The engine's serial CPU time per forward pass before its kernels (scheduling, sampling): host work,
// the engine's (and its build's) own. Source: engine profiles (core/data/engines.json), fitted per engine.
double pass_cpu(const Ctx& c, bool prefill) {
  const EngineOverheads& o = c.pool.deployment->engine.overheads;
  return (prefill ? o.prefill_ms : o.step_ms) * 1e-3;
}

// CPU and launch time of one forward pass: the per-pass cost plus every kernel's fixed cost: in a
// CUDA-graph decode its GPU-side minimum duration, on this silicon's launch scale; in an eager prefill
// pass the host's launch call (the engine's, and its build's, own).
// Source: engine profiles (core/data/engines.json), fitted per engine on published measurements.
double step_overhead(const Ctx& c, double layers, bool prefill) {
  const EngineOverheads& o = c.pool.deployment->engine.overheads;
  const double kernels = layers * c.kernels_per_layer;
  return pass_cpu(c, prefill) + kernels * (prefill ? o.prefill_kernel_us : o.kernel_us * c.e.launch_scale) * 1e-6;
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

// One tally's totals from its compute time, communication (ep_latency: the dispatch/combine latency
// already in `comm`), overhead and eager launch time: compute after overlap, exposed communication,
// overhead and wall time. forward() and DecodeCurve share it.
struct Settled {
  double compute_total, exposed_comm, overhead, total;
};
Settled settle(int sms, double tbo_overlap, double compute, double comm, double ep_latency, double overhead, double launches,
               bool tbo, bool low_latency, double hidden_cpu = 0) {
  Settled r{compute, 0, overhead, 0};
  // DeepEP's normal (prefill) kernels keep 20 SMs busy while they overlap with compute, so the
  // overlapped compute runs on the remaining SMs. Low-latency kernels occupy none.
  // Source: DeepEP README (Buffer.set_num_sms(24) / 20 SMs default; hook-based LL overlap uses no SM).
  if (tbo && !low_latency && sms > 20) r.compute_total *= static_cast<double>(sms) / (sms - 20);
  // Two-batch overlap hides one micro-batch's communication behind the other's compute.
  // Source: SGLang two-batch overlap (LMSYS 2025-05-05), DeepSeek inference system overview.
  const double total_comm = comm + (tbo ? ep_latency : 0.0);
  // Overlap hides at most tbo_overlap of the shorter side: total = max(C, M) + (1 - eta) min(C, M).
  r.exposed_comm = tbo ? std::max(0.0, total_comm - r.compute_total) + (1.0 - tbo_overlap) * std::min(total_comm, r.compute_total)
                       : total_comm;
  // Eager launches are asynchronous: the CPU enqueues kernels while the GPU runs earlier ones, so
  // only launch time beyond the GPU's own time shows. Source: CUDA asynchronous execution model.
  if (launches > 0) r.overhead += std::max(0.0, launches - r.compute_total - r.exposed_comm);
  r.total = r.compute_total + r.exposed_comm + r.overhead;
  // An overlap scheduler prepares the next batch while the GPU runs this one: the step takes the
  // longer of the CPU work (`hidden_cpu`, part of the overhead) and everything else, not their sum.
  // Source: SGLang v0.4 zero-overhead batch scheduler (LMSYS 2024-12-04); TensorRT-LLM overlap scheduler docs.
  if (hidden_cpu > 0) {
    r.total -= std::min(hidden_cpu, r.total - hidden_cpu);
    r.overhead = r.total - r.compute_total - r.exposed_comm;
  }
  return r;
}

// Which tallies a pass keeps: two-batch overlap needs EP on an MoE model; "auto" computes both.
struct Overlap {
  bool both, only_tbo;
};
Overlap overlap_of(const Ctx& c) {
  const bool can_overlap = c.moe && c.ep > 1;
  return {c.overlap == 2 && can_overlap, c.overlap == 1 && can_overlap};
}

// Runs one forward with or without two-batch overlap and keeps the faster (or the one asked for).
template <class Fill>
StepParts forward(const Ctx& c, Fill fill, double overhead, double time_scale, bool low_latency, double launches = 0,
                  double hidden_cpu = 0) {
  auto finish = [&](StepParts& s, bool tbo) {
    s.tbo = tbo;
    const Settled r = settle(c.g.sms, c.e.tbo_overlap, s.compute(), s.comm(), s.ep_latency, overhead, launches, tbo, low_latency, hidden_cpu);
    s.compute_total = r.compute_total, s.exposed_comm = r.exposed_comm, s.overhead = r.overhead, s.total = r.total;
  };
  const auto [both, only_tbo] = overlap_of(c);
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
// `link`: the pass's offloaded weights over the host link (seconds); `total`: the pass's own time.
double offload_wait(double link, bool prefetch, double total) { return prefetch ? std::max(0.0, link - total) : link; }
void add_offload(const Ctx& c, StepParts& s, double time_scale) {
  if (c.offload_s <= 0) return;
  s.host_link = c.offload_s * time_scale;
  s.host_wait = offload_wait(s.host_link, c.offload_prefetch, s.total);
  s.total += s.host_wait;
  classify(s);
}

}  // namespace

StepParts decode_step(const Pool& pool, double seqs, double context, double time_scale) {
  return decode_step(pool, step_consts(pool), seqs, context, time_scale);
}

namespace {

// A decode step's pieces, shared by decode_step() and DecodeCurve: what one pass books (the main
// pass verifies draft_tokens + 1 tokens per sequence; an MTP draft pass runs the one-layer module at
// one token per sequence), its overhead and eager launch time.
struct DecodePass {
  const Ctx& c;
  double context;
  bool draft;
  double tokens(double seqs) const { return draft ? seqs : seqs * (1 + c.draft_tokens()); }
  void fill(Booker& b, StepParts& sp, double seqs) const {
    const double n = tokens(seqs);
    if (draft) {
      const double moe = c.m.is_moe() ? 1.0 : 0.0;
      layers_compute(c, b, n, seqs, context, 0, false, 1.0, moe, 1.0 - moe, true);
      comm(c, sp, n, true, moe, 1.0, 1.0 - moe);
    } else {
      layers_compute(c, b, n, seqs, context, 0, false, c.stage_layers, c.stage_moe, c.stage_dense, true);
      comm(c, sp, n, true, c.stage_moe, c.stage_layers, c.stage_dense);
    }
  }
  // Draft passes replay inside the same CUDA graph: a quarter of the per-step overhead. The main pass
  // pays CPU work per running sequence (scheduling, sampling, streaming the token out) per step.
  double seq_cpu(double seqs) const { return seqs * c.pool.deployment->engine.overheads.seq_us * 1e-6; }
  double overhead(double seqs) const {
    if (draft) return step_overhead(c, 1.0, false) - pass_cpu(c, false) * 0.75;
    return step_overhead(c, c.stage_layers, false) + seq_cpu(seqs);
  }
  // The CPU share of that overhead (per-pass and per-sequence host work), which the engine's overlap
  // scheduler runs while the GPU computes; 0 without one.
  double hidden_cpu(double seqs) const {
    if (!c.cpu_overlap) return 0.0;
    if (draft) return pass_cpu(c, false) * 0.25;
    return pass_cpu(c, false) + seq_cpu(seqs);
  }
  // A batch above the engine's CUDA-graph limit runs eagerly: its kernels launch one by one as in a
  // prefill pass, overlapping the GPU's own work. Source: SGLang CudaGraphRunner.can_run (bs <=
  // cuda_graph_max_bs); vLLM V1 max_cudagraph_capture_size (min(2 x max_num_seqs, 512)).
  // Each kernel keeps its fixed GPU-side duration; the CPU's launches show where they outrun the GPU.
  double launches(double seqs) const {
    const bool eager = !draft && c.graph_limit > 0 && tokens(seqs) > c.graph_limit;
    return eager ? step_overhead(c, c.stage_layers, true) - pass_cpu(c, true) : 0.0;
  }
  StepParts run(double seqs) const {
    return forward(c, [&](Booker& b, StepParts& sp) { fill(b, sp, seqs); }, overhead(seqs), 1.0, true, launches(seqs), hidden_cpu(seqs));
  }
};

}  // namespace

StepParts decode_step(const Pool& pool, const StepConsts& k, double seqs, double context, double time_scale) {
  const Ctx c(pool, k);
  const int d = c.draft_tokens();
  StepParts s = DecodePass{c, context, false}.run(seqs);
  add_offload(c, s, 1.0);  // scaled with the rest below
  s.total *= pool.cfg.pp;  // a token crosses every stage: TPOT spans the whole pipeline
  // MTP drafts: d sequential passes of the one-layer MTP module (plus lm_head) at one token per sequence.
  if (d > 0) {
    s.mtp_draft = d * DecodePass{c, context, true}.run(seqs).total;
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

// DecodeCurve (step_time.hpp): each pass's operations are recorded at 1 and 2 sequences per DP group;
// bytes, FLOPs, communication and overhead are affine in the sequences, so the two samples give
// their intercepts and slopes (the routed experts' weights: the share expert_activity reaches).
void DecodeCurve::Recorder::add(double w, double d, double f, bool expert) {
  if (count < kMaxOps) ops[count++] = Op{w, 0, d, 0, f, 0, expert};
}

DecodeCurve::DecodeCurve(const Pool& pool, const StepConsts& k, double context, double time_scale) : valid_(true), time_scale_(time_scale) {
  const Ctx c(pool, k);
  draft_tokens_ = c.draft_tokens();
  pp_ = pool.cfg.pp;
  const auto [both, only_tbo] = overlap_of(c);
  plain_ = !only_tbo, tbo_ = only_tbo || both;
  tbo_overlap_ = c.e.tbo_overlap;
  top_k_ = c.m.experts_per_tok;
  if (top_k_ > 0 && c.m.routed_experts > 0) {
    const double experts = c.m.routed_experts, slots = experts + pool.cfg.redundant_experts;
    reach_log_ = c.dp * experts / slots * std::log(1.0 - top_k_ / experts);
  } else {
    top_k_ = 0;
  }
  offload_s_ = c.offload_s, offload_prefetch_ = c.offload_prefetch;
  for (int p = 0; p < (draft_tokens_ > 0 ? 2 : 1); ++p) {
    const DecodePass pass{c, context, p == 1};
    Pass& out = passes_[p];
    Recorder r[2];
    double comm_at[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
      StepParts sp;
      Booker b{{&sp, &sp}, {1.0, 1.0}, 1, &r[i]};
      pass.fill(b, sp, i + 1.0);
      comm_at[i] = sp.comm();
      out.ep_latency = sp.ep_latency;
    }
    out.count = r[0].count;
    for (int j = 0; j < out.count; ++j) {
      const Op &x = r[0].ops[j], &y = r[1].ops[j];
      out.ops[j] = Op{2 * x.w0 - y.w0, y.w0 - x.w0, 2 * x.d0 - y.d0, y.d0 - x.d0, 2 * x.f0 - y.f0, y.f0 - x.f0, x.expert};
      if (x.expert) out.ops[j].w0 = x.w0, out.ops[j].w1 = 0;  // every local slot's weights, scaled by the share reached
    }
    out.comm0 = 2 * comm_at[0] - comm_at[1], out.comm1 = comm_at[1] - comm_at[0];
    out.over0 = 2 * pass.overhead(1) - pass.overhead(2), out.over1 = pass.overhead(2) - pass.overhead(1);
    out.cpu0 = 2 * pass.hidden_cpu(1) - pass.hidden_cpu(2), out.cpu1 = pass.hidden_cpu(2) - pass.hidden_cpu(1);
    out.tokens_per_seq = pass.tokens(1);
    out.graph_limit = p == 0 ? c.graph_limit : 0;
    out.eager_launches = p == 0 && c.graph_limit > 0 ? pass.launches(c.graph_limit + 1.0) : 0;
  }
}

double DecodeCurve::pass_total(int p, double seqs) const {
  const Pass& ps = passes_[p];
  const double n = seqs * ps.tokens_per_seq;
  // expert_activity(k, E, E + R, n dp) = 1 - (1 - k/E)^(n dp E / (E + R)), its logarithm taken once.
  const double active = top_k_ > 0 ? 1.0 - std::exp(n * reach_log_) : 1.0;
  double plain = 0, tbo = 0;  // compute time of the tally without / with two micro-batches
  for (int j = 0; j < ps.count; ++j) {
    const Op& o = ps.ops[j];
    const double w = o.expert ? o.w0 * active : o.w0 + o.w1 * seqs, d = o.d0 + o.d1 * seqs, f = o.f0 + o.f1 * seqs;
    if (plain_) plain += std::sqrt((w + d) * (w + d) + f * f);  // Booker::book's smooth roofline
    if (tbo_) tbo += 2.0 * std::sqrt((w + d / 2) * (w + d / 2) + f * f / 4);
  }
  const double comm_s = ps.comm0 + ps.comm1 * seqs, over = ps.over0 + ps.over1 * seqs, cpu = ps.cpu0 + ps.cpu1 * seqs;
  const double launch = ps.graph_limit > 0 && n > ps.graph_limit ? ps.eager_launches : 0.0;
  // Decode passes use the low-latency kernels (no SMs taken from compute: the GPU's SM count is unused).
  const double t_plain = plain_ ? settle(0, tbo_overlap_, plain, comm_s, ps.ep_latency, over, launch, false, true, cpu).total : 0;
  const double t_tbo = tbo_ ? settle(0, tbo_overlap_, tbo, comm_s, ps.ep_latency, over, launch, true, true, cpu).total : 0;
  return !plain_ ? t_tbo : tbo_ && t_tbo < t_plain ? t_tbo : t_plain;
}

double DecodeCurve::total(double seqs) const {
  if (!valid_) return 0;
  double t = pass_total(0, seqs);
  if (offload_s_ > 0) t += offload_wait(offload_s_, offload_prefetch_, t);
  t *= pp_;
  if (draft_tokens_ > 0) t += draft_tokens_ * pass_total(1, seqs);
  return t * time_scale_;
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
