// What every forward pass of a pool shares (step_time.hpp StepConsts): achieved rates, byte widths,
// layout counts, the engine's kernel mix; MTP's tokens per step; the block-FP8 GEMM bound.
#include <algorithm>
#include <cmath>
#include <string>

#include "slo/kv_cache.hpp"
#include "slo/step_time.hpp"

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
  if (b.dense || b.experts) b.flops_s = p.gpu->eff.block_fp8_tflops_per_sm * 1e12 * p.gpu->sms * p.gpu->power_scale;
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
  // KV reads run the engine's paged-attention kernels: their own streaming rate per engine.
  // Source: engine profiles (core/data/engines.json kv_read), fitted on each engine's figures.
  k.hbm_kv = g.hbm_bytes_s * std::min(0.98, e.attention_hbm * ek.hbm * p.deployment->engine.overheads.kv_read);
  DType compute = DType::BF16;
  std::string a, b;
  if (!gemm_dtype(p.precision->weights, p.precision->activations, compute, a, b)) compute = DType::BF16;
  double peak = g.peak(compute);
  if (peak <= 0) peak = g.peak(DType::BF16);
  k.gemm_peak = peak * std::min(0.98, e.gemm * ek.gemm);
  // Grouped expert GEMMs run the engine's MoE kernels, not cuBLAS: their own factor per engine.
  // Source: engine profiles (core/data/engines.json moe_gemm), fitted on each engine's MoE figures.
  k.moe_peak = peak * std::min(0.98, e.gemm * ek.gemm * p.deployment->engine.overheads.moe_gemm);
  // Weight-only quantization: the Marlin-class kernel's rate against the native 16-bit GEMM's.
  // Source: IST-DASLab/marlin issue #21 (0.82 at M=16384); fitted per family (gpus.json weight_only_gemm).
  if (weight_only_int(*p.precision)) k.gemm_peak *= e.weight_only_gemm, k.moe_peak *= e.weight_only_gemm;
  const GemmBound bound = block_fp8_bound(p);
  if (bound.flops_s > 0 && bound.dense) k.gemm_peak = std::min(k.gemm_peak, bound.flops_s);
  if (bound.flops_s > 0 && bound.experts) k.moe_peak = std::min(k.moe_peak, bound.flops_s);
  // Attention core in BF16, or in 8 bits when both the KV cache and the activations are 8-bit and
  // the GPU has 8-bit tensor cores. Source: FlashAttention-3 FP8 (Shah et al. 2024); FlashMLA FP8 KV.
  const DType kv = p.precision->kv_cache, act = p.precision->activations;
  k.act8 = act == DType::FP8 || act == DType::INT8;
  const bool attn8 = (kv == DType::FP8 || kv == DType::INT8) && k.act8 && g.peak(act) > 0;
  // The family's attention share at this GPU's tensor/FP32 balance (Gpu::tensor_efficiency). GEMMs keep
  // the family's share: no GEMM measurement on such a GPU shows the same, and scaling them too was
  // worse held out (docs/PHYSICS.md, Calibration item 11).
  k.attn_peak = g.peak(attn8 ? act : DType::BF16) * std::min(0.98, g.tensor_efficiency(e.attention) * ek.attention);
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
  const Engine& en = p.deployment->engine;
  k.cpu_overlap = en.overlap_scheduler && !(en.overlap_off_speculative && p.draft_tokens() > 0) &&
                  !(en.overlap_off_pp && p.cfg.pp > 1);
  // Offloaded weights cross the host link once per forward pass, at the share of its peak a large
  // pinned host-to-device copy reaches. Source: CUDA bandwidthTest / nvbandwidth (PCIe Gen5 x16
  // ~53-55 of 64 GB/s; GH200 NVLink-C2C host-to-device 416 of 450 GB/s): 0.85.
  if (p.cfg.cpu_offload_gb > 0 && g.host_bytes_s > 0) {
    k.offload_s = offloaded_weight_bytes(p, weights_per_gpu(p)) / (g.host_bytes_s * 0.85);
    k.offload_prefetch = p.deployment->offload_prefetch;
  }
  return k;
}

}  // namespace slo
