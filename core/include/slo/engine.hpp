// Serving-engine profiles (core/data/engines.json): per-step and per-request CPU/launch overheads,
// kernel-efficiency adjustments, what the engine's memory flag covers, batch limits.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace slo {

// What `deployment.memory_fraction` bounds, as the engine's own flag does.
enum class MemoryFraction {
  WeightsKv,             // SGLang --mem-fraction-static: weights + KV <= f x HBM
  WeightsActivationsKv,  // vLLM --gpu-memory-utilization: weights + activation peak + KV <= f x HBM
  FreeAfterWeights,      // TensorRT-LLM free_gpu_memory_fraction: KV = f x (HBM - weights - activations)
};

struct EngineOverheads {
  double step_ms = 1.0;          // per forward pass (scheduler, sampling, graph launch)
  double kernel_us = 4;          // per kernel of a decode step (CUDA-graph replay: each kernel's minimum duration)
  double prefill_kernel_us = 20; // per kernel of a prefill pass (eager launches, CPU-bound at small batches)
  double seq_us = 10;            // per running sequence per decode step (scheduler, sampling, detokenizer)
  double request_ms = 20;        // per request, in TTFT (tokenize, schedule, detokenize, HTTP)
  double frontend_ms = 10;       // serial CPU time per request in the frontend process (tokenize, detokenize,
                                 // HTTP): caps the request rate at 1 / frontend_ms
  double wait_steps = 1.5;       // decode steps a new request waits while others decode (the running step,
                                 // the batch the overlap scheduler already prepared, emitting the first token)
  double prefill_ms = 3;         // per prefill forward (no CUDA graph: eager launches)
  double pd_bootstrap_ms = 5;    // disaggregated: per-request KV-transfer handshake
  double moe_gemm = 1.0;         // routed-expert (grouped) GEMM efficiency relative to the family's dense GEMM
                                 // factor: the engine's MoE kernels (Triton fused_moe, DeepGEMM, CUTLASS grouped)
  double kv_read = 1.0;          // attention's KV-cache streaming rate relative to the family's attention_hbm:
                                 // the engine's paged-attention kernels (FlashInfer, FlashAttention, XQA, FlashMLA)
};

struct Gpu;

struct EngineKernel {
  double gemm = 1.0, attention = 1.0, hbm = 1.0;  // multipliers on the GPU family's efficiencies
};

// The memory fraction an engine chooses when its flag is not given (deployment.memory_fraction null).
// Either a constant (vLLM's and TensorRT-LLM's 0.9), or SGLang's rule: by tensor-parallel size up to
// a release, then (GPU memory - reserved) / GPU memory with the reserve in MiB summed from the chunk,
// the CUDA-graph batch limit, the parallel size, DP attention and speculative decoding.
struct AutoMemoryFraction {
  double fixed = 0.9;
  bool reserve_rule = false;
  double base_mib = 0, per_chunk_token_mib = 0, min_chunk_tokens = 0, per_graph_batch_mib = 0, per_gpu_mib = 0;
  double dp_per_graph_batch_mib = 0, dp_large_graph_above = 0, dp_large_per_graph_batch_mib = 0;
  double floor_above_mib = 0, floor_mib = 0, speculative_mib = 0;
  char by_tp_through[16] = {};  // releases at or before it use by_tp (largest tp first); "" = none known
  double by_tp[6][2] = {};
  int n_by_tp = 0;
};

// What the automatic rule depends on, for one instance.
struct AutoFractionInputs {
  double gpu_mib = 0;       // the device memory the engine reads (nvidia-smi total, MiB)
  int tp_pp = 1;            // GPUs of one instance (tp_size x pp_size)
  int dp = 1;               // DP-attention ranks of one instance (1: no DP attention)
  double chunk_flag = 8192; // --chunked-prefill-size as given (before the engine divides it by dp)
  int graph_max_batch = 0;  // the engine's CUDA-graph batch limit on this GPU
  bool speculative = false; // MTP / EAGLE drafts
  std::string release;      // deployment.engine.version ("" = the current rule)
};

// Behaviour an engine profile turns on from one release (`since`) until another (`before`), each ""
// when unbounded; `known`: the profile states the behaviour at all.
struct ReleaseRange {
  bool known = false;
  char since[12] = {}, before[12] = {};
  // On for `release`; an unstated release is the current one.
  bool on(const std::string& release) const;
};

struct Engine {
  std::string id, name, memory_flag;
  MemoryFraction memory_fraction = MemoryFraction::WeightsKv;
  AutoMemoryFraction auto_fraction;
  double auto_memory_fraction(const AutoFractionInputs& in) const;
  bool first_token_decode_step = false;  // the first token comes out of the prefill pass
  int max_running_requests = 4096;
  int spec_max_running_requests = 0;  // the default limit with speculative decoding (0: unchanged)
  // Batch defaults by GPU class: on a GPU under `large_gpu_min_gib` of memory, or whose id contains
  // `large_gpu_exclude`, the engine's default request limit is `small_gpu_max_running` (0: no such rule).
  // Fixed-size members (no heap): a Scenario holds its Engine by value and is copied often.
  int small_gpu_max_running = 0;
  double large_gpu_min_gib = 0;
  char large_gpu_exclude[8] = {};
  int cuda_graph_max_batch = 512;
  // The engine's CUDA-graph batch limit by GPU memory and tensor-parallel size (SGLang's defaults):
  // below `below_gib` of memory, `small_tp` under TP4 and `large_tp` from TP4; cuda_graph_max_batch otherwise.
  struct GraphRule {
    double below_gib = 0;
    int small_tp = 0, large_tp = 0;
  };
  GraphRule graph_rules[4] = {};
  int n_graph_rules = 0;
  // Decode batches (tokens per DP group) above it run without a CUDA graph, launching eagerly
  // (when eager_above_graph: the Python engines; TensorRT-LLM's is not modelled so).
  bool eager_above_graph = false;
  int graph_max_batch(double gpu_gib, int tp) const;
  int graph_max_batch(const Gpu& g, int tp) const;  // on GPU `g` (the memory the engine reads)
  // The decode batch above which this engine launches eagerly on GPU `g` at tensor-parallel size
  // `tp`; 0 when it is not modelled to (eager_above_graph false).
  int eager_decode_above(const Gpu& g, int tp) const;
  // DP attention over tensor-parallel experts: prefill batches gather every rank's tokens by an
  // all-reduce of the whole batch (each rank fills its slice, zeros elsewhere) and scatter the
  // experts' output by a second one, instead of an all-gather + reduce-scatter (half the bytes).
  bool dp_prefill_all_reduce = false;
  // Overlap scheduler: the engine prepares the next decode batch (scheduling, input preparation,
  // sampling bookkeeping) on the CPU while the GPU runs the current one, so a step takes the longer
  // of the two, not their sum. Off with speculative decoding / pipeline parallelism where the engine
  // turns it off. `overlap_scheduler`: resolved for the stated release by select_for_gpu().
  ReleaseRange overlap_releases;
  bool overlap_off_speculative = false, overlap_off_pp = false, overlap_scheduler = false;
  // Prefill-first scheduling: every waiting prompt is prefilled before the running requests decode
  // again (no prefill and decode in one batch). `prefill_first`: resolved for the stated release by
  // select_for_gpu().
  ReleaseRange prefill_first_releases;
  bool prefill_first = false;
  // Which of the engine's block-scaled FP8 GEMMs run kernels bound by the FP32 promotion (the GPU
  // family's block_fp8_tflops_per_sm): the dense linear layers, and the tensor-parallel experts'
  // fused-MoE kernel. Expert parallelism (DeepEP) runs DeepGEMM's grouped GEMMs, which are not.
  bool block_fp8_dense_bound = false, block_fp8_fused_moe_bound = false;
  // For MLA models, the newest release the profile does not describe (measured as validation only:
  // early-2025 releases, before the engines' DeepSeek kernels); "" = no such release known.
  std::string mla_profile_after;
  // MLA prefill over a cached prefix: below this many prefix tokens in a DP rank's batch the engine
  // runs the absorbed (latent) attention, at or above it multi-head attention over the prefix
  // re-expanded through kv_b_proj (0: always the latter).
  double mla_absorbed_prefix_below = 0;
  EngineOverheads overheads;
  EngineKernel kernel;
  // MXFP4 experts on a GPU without FP4 tensor cores are repacked for the weight-only Marlin kernel,
  // the hidden size and each rank's expert intermediate padded up to these multiples (0: no padding).
  int mxfp4_pad_hidden = 0, mxfp4_pad_intermediate = 0;
  // Builds with their own overheads, fitted separately; `profile` names the one in use: per platform
  // (the ROCm build of SGLang/vLLM runs other kernel libraries: aiter, CK, Triton, RCCL) and per
  // engine generation (vLLM's V0 engine, releases before 0.8.0; before 0.6.0, its first form).
  // Shared, not copied: every Scenario holds its Engine by value and the search copies Scenarios.
  struct Build {
    std::string key;             // "rocm", "v0", "v05": the profile is "<engine>@<key>"
    EngineOverheads overheads;
    std::string platform;        // the GPU family's software platform it runs on ("cuda", "rocm")
    std::string release_before;  // applies to stated releases before this one ("" = any release)
  };
  std::shared_ptr<const std::vector<Build>> builds;
  std::string profile;  // "sglang" or "sglang@rocm": the key its fitted overheads live under
};

// Selects the engine's build for the GPU's software platform and the stated release (no-op when
// none applies; a release-bound build before an unbound one, the tightest bound first) and its batch
// defaults for the GPU's class.
void select_for_gpu(Engine& e, const Gpu& g, const std::string& release);

// True when a stated release (e.g. "0.4.3.post2", "v0.7.3.dev138 (rocm/...)") is at or before
// `bound` ("0.4.3"), compared on the bound's numeric components; false when either has no number.
bool release_at_or_before(const std::string& stated, const std::string& bound);
// True when a stated release is strictly before `bound` (false when either has no number).
bool release_before(const std::string& stated, const std::string& bound);

const std::vector<Engine>& engine_presets();
const Engine* find_engine(const std::string& id);
const std::string& default_engine_id();

}  // namespace slo
