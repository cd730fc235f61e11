// Time of one forward pass on one GPU of a pool, part by part: weight reads, KV reads, GEMM FLOPs,
// attention core, elementwise traffic, EP dispatch/combine (NVLink/RDMA), TP all-reduce, PP sends,
// two-batch overlap, per-step overhead; decode steps with MTP drafts and verification.
#pragma once
#include <array>
#include <cstdint>
#include <cstddef>
#include <string>

#include "slo/memory_plan.hpp"

namespace slo {

struct StepParts {
  // Roofline parts (seconds). Each operation costs max(bytes / achieved HBM bandwidth,
  // FLOPs / achieved peak); the op's time is booked under the side that bound it.
  double weights = 0;      // memory-bound time streaming weights
  double kv = 0;           // memory-bound time reading/writing the KV cache
  double gemm = 0;         // compute-bound GEMM time (projections, FFN, experts, lm_head)
  double attention = 0;    // compute-bound attention-core time
  double elementwise = 0;  // norms, activations, residuals (memory-bound)
  double compute() const { return weights + kv + gemm + attention + elementwise; }
  // Raw (unbounded) figures for the breakdown table.
  double weight_bytes = 0, kv_bytes = 0, gemm_flops = 0, attention_flops = 0;
  // Communication (seconds, before overlap).
  double ep_nvlink = 0, ep_rdma = 0, ep_latency = 0;  // dispatch + combine
  double tp_allreduce = 0;
  double pp_send = 0;
  double comm() const { return ep_nvlink + ep_rdma + ep_latency + tp_allreduce + pp_send; }
  double ep_bytes_nvlink = 0, ep_bytes_rdma = 0;
  double overhead = 0;
  double host_link = 0;     // offloaded weights streamed from host memory (before overlap with the GPU's work)
  double host_wait = 0;     // the part of it the GPU waits for (all of it fetched on demand, the excess when prefetched)
  bool tbo = false;         // two-batch overlap used
  double compute_total = 0; // compute side after TBO (weights read twice when split)
  double exposed_comm = 0;  // communication not hidden by overlap
  double mtp_draft = 0;     // MTP draft passes (decode)
  double total = 0;         // wall time of the step (or pass)
  const char* bottleneck = "";  // "compute" | "hbm-weights" | "hbm-kv" | "network" | "overhead" | "host-link" (a literal)
};

// What a pool's forward passes share whatever their batch: achieved rates, byte widths, layout
// counts, the engine's per-kernel launch mix, its CUDA-graph limit and overlap mode. Computed once
// per pool (step_consts) so a step does only its batch-dependent arithmetic (issue 11: per-pool
// constants hoisted out of the step functions); the same numbers as computing them per step.
struct StepConsts {
  double hbm = 0, hbm_kv = 0;          // achieved bytes/s: weights and activations, attention KV reads
  double gemm_peak = 0, moe_peak = 0;  // achieved FLOP/s: GEMMs, the routed experts' grouped GEMMs
  double attn_peak = 0;                // achieved FLOP/s of the attention core
  double wq = 0, attn_wbytes = 0;      // bytes per weight: quantized, attention projections
  int t = 1, moe_tp = 1, ep = 1, dp = 1;
  int nvl = 8, domains = 1, stage_gpus = 1;  // NVLink domain size, domains a stage spans, GPUs per stage
  double imbalance = 1;   // max / mean tokens per EP rank
  double expert_pad = 1;  // routed-expert bytes as loaded / as in the checkpoint (Marlin padding)
  double stage_layers = 0, stage_moe = 0, stage_dense = 0;
  double attn_replicated = 0, attn_split = 0;  // attention projection parameters per layer
  double kv_layer = 0;                         // KV bytes per token and layer on one GPU
  double local_slots = 0;                      // expert slots per GPU
  double kernels_per_layer = 0;                // kernels one layer launches (MoE and dense mix)
  int graph_limit = 0;                         // decode batches above it run eagerly (0: never)
  bool moe = false, act8 = false;              // MoE model; 8-bit activations
  unsigned char overlap = 0;                   // two-batch overlap: 0 off, 1 on, 2 auto
  bool cpu_overlap = false;                    // the engine's overlap scheduler hides its decode CPU work
  double offload_s = 0;                        // one pass's offloaded weights over the host link (seconds)
  bool offload_prefetch = false;               // copied ahead while earlier layers compute
};
StepConsts step_consts(const Pool& pool);

// One decode step: `seqs` sequences per DP group at mean context `context`, verifying
// draft_tokens + 1 tokens per sequence when MTP is on. `time_scale` multiplies every time
// (calibration to a user's measurement; 1 = the GPU preset's factors).
StepParts decode_step(const Pool& pool, double seqs, double context, double time_scale = 1.0);
StepParts decode_step(const Pool& pool, const StepConsts& k, double seqs, double context, double time_scale = 1.0);

// A pool's decode step time as a function of the batch, at one context and time scale (issue 11: the
// capacity and load searches probe many batches of one pool). Every operation's bytes and FLOPs, the
// communication and the overhead are affine in the sequences per DP group (the routed experts'
// weights follow the share of slots reached), so one construction records them from the step
// functions and total() replays the same roofline, overlap and overhead arithmetic:
// total(s) == decode_step(pool, k, s, context, time_scale).total to rounding. Self-contained: it
// holds numbers only, so evaluations copy it with their pools.
class DecodeCurve {
 public:
  struct Op {
    double w0, w1, d0, d1, f0, f1;  // seconds: weight stream, other memory traffic, compute (intercept, slope)
    bool expert;                    // routed experts: w0 is every local slot's weights, scaled by the share reached
  };
  static constexpr int kMaxOps = 16;
  struct Recorder {  // one pass's operations at one batch (Booker's recording mode)
    Op ops[kMaxOps];
    int count = 0;
    void add(double w, double d, double f, bool expert);
  };
  DecodeCurve() = default;
  DecodeCurve(const Pool& pool, const StepConsts& k, double context, double time_scale);
  double total(double seqs) const;

 private:
  struct Pass {
    Op ops[kMaxOps];
    int count = 0;
    double comm0 = 0, comm1 = 0, ep_latency = 0, over0 = 0, over1 = 0;
    double cpu0 = 0, cpu1 = 0;  // the CPU share of the overhead an overlap scheduler hides (0: none)
    double tokens_per_seq = 1;                 // tokens the pass computes per sequence
    double graph_limit = 0, eager_launches = 0;  // tokens above the CUDA-graph limit launch eagerly
  };
  double pass_total(int pass, double seqs) const;
  bool valid_ = false, plain_ = true, tbo_ = false, offload_prefetch_ = false;
  double time_scale_ = 1, tbo_overlap_ = 0, top_k_ = 0, reach_log_ = 0, offload_s_ = 0;
  int draft_tokens_ = 0, pp_ = 1;
  Pass passes_[2];  // the main pass, the MTP draft pass
};

// A curve's total(seqs) for the sequence counts probed last, direct-mapped by the count's low bits (a
// collision only recomputes): the capacity and bound searches probe the same batches many times.
// A slot is read only once its bit in `filled_` is set: making or clearing the cache touches N / 8
// bytes, not the slots' 16 N (an evaluation makes one and may never probe it).
template <std::size_t N>
class CurveTotals {
  static_assert((N & (N - 1)) == 0 && N >= 64, "a power of two, at least 64");

 public:
  CurveTotals() = default;
  CurveTotals(const CurveTotals&) = delete;  // its unfilled slots are never read, nor copied
  CurveTotals& operator=(const CurveTotals&) = delete;
  double at(const DecodeCurve& curve, double seqs) {
    const std::size_t i = static_cast<std::size_t>(static_cast<long long>(seqs)) & (N - 1);
    const std::uint64_t bit = std::uint64_t{1} << (i & 63);
    Slot& s = slots_[i];
    if (!(filled_[i >> 6] & bit) || s.seqs != seqs) s = Slot{seqs, curve.total(seqs)}, filled_[i >> 6] |= bit;
    return s.total;
  }
  void clear() { filled_ = {}; }

 private:
  struct Slot {
    double seqs, total;
  };
  std::array<std::uint64_t, N / 64> filled_{};
  std::array<Slot, N> slots_;  // left unset until filled
};

// One prefill forward pass: `tokens` new tokens per DP group from `seqs` sequences, with causal
// attention work `attn_work` = sum over sequences of chunk x (prefix + chunk / 2) tokens^2 and
// `prefix` cached tokens summed over the pass's sequences (it picks an MLA engine's attention path).
StepParts prefill_pass(const Pool& pool, double tokens, double seqs, double attn_work, double prefix, double time_scale = 1.0);
StepParts prefill_pass(const Pool& pool, const StepConsts& k, double tokens, double seqs, double attn_work, double prefix,
                       double time_scale = 1.0);

// The ceiling on a pool's block-scaled FP8 GEMMs (Hopper: no block scaling in the tensor cores, so
// the kernels promote partial sums on the CUDA cores), and which of its GEMMs run such kernels (the
// engine profile: dense layers, tensor-parallel experts). flops_s = 0: nothing is bound.
struct GemmBound {
  double flops_s = 0;
  bool dense = false, experts = false;
};
GemmBound block_fp8_bound(const Pool& pool);

// Expected tokens a sequence advances per decode step: 1 + a + ... + a^d (MTP, acceptance a).
// Source: ESTIMATOR-NOTES §4; Leviathan et al. 2023 (speculative decoding), eq. for i.i.d. acceptance.
double tokens_per_step(const Mtp& mtp);

// DeepEP low-latency dispatch + combine of `tokens` tokens per GPU over one MoE layer, as the
// report's communication model computes it (for tests against DeepEP's published timings).
struct A2ATime {
  double dispatch = 0, combine = 0;
};
A2ATime ep_low_latency_time(const Pool& pool, double tokens_per_gpu);

}  // namespace slo
