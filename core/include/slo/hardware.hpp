// GPU presets (spec sheet + one set of efficiency factors per GPU, fitted on published
// measurements) and a custom GPU.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/precision.hpp"

namespace slo {

// Fractions of the spec-sheet figure that real kernels reach, and fixed latencies.
// One set per GPU silicon/family, fitted by `slo-estimator fit` on core/data/benchmarks/*.json;
// engine-specific overheads and kernel adjustments live in the engine profile (engine.hpp).
struct Efficiency {
  double gemm = 0.6;             // dense tensor-core FLOPs (GEMMs) / peak of the GEMM format
  double attention = 0.59;       // attention-core FLOPs / BF16 peak (FlashMLA compute-bound: 580 of 989 TFLOPS on H800)
  double attention_hbm = 0.9;    // KV bytes read by the attention core / HBM bandwidth (FlashMLA: 3000 of 3350 GB/s)
  double hbm = 0.8;              // streamed weight and activation bytes / HBM bandwidth
  double nvlink = 0.7;           // intra-node bulk transfers (all-to-all, NCCL's large all-reduce) / peer-link bandwidth per direction
  double allreduce_bw = 0.7;     // tensor-parallel all-reduce in the engines' kernels (decode steps, prefill messages up to 8 MiB) / peer-link bandwidth
  double rdma = 0.85;            // inter-node all-to-all / NIC bandwidth per GPU
  double comm_latency_us = 25;   // fixed latency of one DeepEP dispatch or combine
  double comm_latency_growth = 0;  // relative growth of that latency per doubling of the nodes reached
  double allreduce_latency_us = 8;  // one-shot intra-node all-reduce of a small message (custom all-reduce kernels)
  double net_allreduce_latency_us = 60;  // one NCCL all-reduce of a small message across nodes (TP spanning nodes)
  double launch_scale = 1.0;     // multiplies the engine's CPU/launch overheads on this platform (1 = CUDA)
  double tbo_overlap = 1.0;      // share of the shorter of compute / communication that two-batch overlap hides
  // Block-scaled FP8 GEMMs (128 x 128 weight blocks) on tensor cores without hardware block scaling:
  // achieved TFLOP/s per SM of the Triton/CUTLASS kernels, which promote every 128-deep partial sum
  // to FP32 on the CUDA cores (0: no such bound, e.g. block scaling in hardware).
  double block_fp8_tflops_per_sm = 0;
  // Weight-only quantized GEMMs (INT4/INT8/FP8 weights with 16-bit activations: AWQ, GPTQ, FP8 on
  // GPUs without FP8 tensor cores) run mixed-precision kernels (Marlin) that dequantize the weights
  // on the CUDA cores for every 64-row slice of the batch: their tensor-core FLOPs / the native
  // 16-bit GEMM's. Prior 0.82: Marlin 12.80 ms vs FP16 cuBLAS 10.45 ms at M=16384, 11008 x 4096
  // (IST-DASLab/marlin issue #21, RTX 6000 Ada); fitted per family where such figures exist.
  double weight_only_gemm = 0.82;
  // The family's reference ratio of dense BF16 tensor-core FLOPs to FP32 CUDA-core FLOPs (gpus.json
  // tensor_reference_gpu: H100 SXM's 989 / 66.9 for Hopper); 0: its attention share applies to every GPU as it is.
  double tensor_fp32_ratio = 0;
  std::string platform = "cuda"; // software stack the family runs ("cuda", "rocm"): selects the engine build
};

struct Gpu {
  std::string id;
  std::string name;
  std::string silicon;  // compute die ("gh100")
  std::string family;   // efficiency family ("hopper", "blackwell", "ampere", "cdna3", "ada"): one set of factors each
  double memory_bytes = 0;         // as marketed (spec sheet)
  double driver_memory_bytes = 0;  // what the driver reports and an engine can allocate (0 = as marketed)
  double usable_memory_bytes() const { return driver_memory_bytes > 0 ? driver_memory_bytes : memory_bytes; }
  double hbm_bytes_s = 0;
  double bf16_flops = 0;
  double fp8_flops = 0;   // 0 = no FP8 tensor cores
  double int8_ops = 0;    // 0 = no INT8 tensor cores
  double fp4_flops = 0;   // 0 = no FP4 tensor cores
  double nvlink_bytes_s = 0;  // per GPU per direction (0 = no NVLink: PCIe)
  double nic_bytes_s = 0;     // RDMA per GPU
  double pcie_bytes_s = 32e9; // the GPU's PCIe link per direction (Gen4 x16; gpus.json pcie_gb_s)
  double host_bytes_s = 32e9; // host memory to this GPU per direction: its PCIe link, or NVLink-C2C on Grace systems
  int nvlink_domain = 8;      // GPUs that share one NVLink domain (a "node")
  bool pcie_peers = false;    // no NVLink: peers talk over PCIe (gpus.json "peer_link": "pcie"; L20, L40S)
  bool gddr = false;          // board memory is GDDR6 (gpus.json "memory_kind"; L20, L40S, L4), not HBM: the page names it
  int sms = 132;              // streaming multiprocessors
  double fp32_flops = 0;      // FP32 CUDA-core peak (0 = not stated: tensor_efficiency() leaves its family's factors)
  double board_power_w = 0;   // the board's power limit (TDP, gpus.json board_power_w; 0 = not stated)
  // Share of its tensor-core spec the board's power limit lets it sustain (1: the spec binds). Set from its
  // family's reference GPU: sustained FLOP/s <= reference's spec x its power / the reference's power.
  double power_scale = 1.0;
  Efficiency eff;
  // Published figures its family's factors were fitted on (gpus.json "fitted_on": the ids, or their
  // count in the wasm's copy of the data; the ids themselves are the fit's output, slo-estimator fit).
  int calibrated_figures = 0;

  // Peak dense FLOPs for GEMMs in format t (0 when the GPU has no such tensor cores), at the rate its
  // power limit sustains (power_scale); the spec sheet's figure is bf16_flops etc.
  double peak(DType t) const;
  double spec_peak(DType t) const;
  // The share of its tensor-core peak a compute-bound attention kernel reaches on this GPU, from its
  // family's share e at the family's reference tensor/FP32 ratio (hardware.cpp).
  double tensor_efficiency(double e) const;
};

const std::vector<Gpu>& gpu_presets();
const Gpu* find_gpu(const std::string& id);

}  // namespace slo
