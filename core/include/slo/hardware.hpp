// GPU presets (spec sheet + one set of efficiency factors per GPU, fitted on published
// measurements) and a custom GPU.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/precision.hpp"

namespace slo {

// Fractions of the spec-sheet figure that real kernels reach, and fixed latencies.
// One set per GPU preset, fitted by `slo-estimator fit` on core/data/published-benchmarks.json.
struct Efficiency {
  double gemm = 0.6;             // dense tensor-core FLOPs (GEMMs) / peak of the GEMM format
  double attention = 0.59;       // attention-core FLOPs / BF16 peak (FlashMLA compute-bound: 580 of 989 TFLOPS on H800)
  double attention_hbm = 0.9;    // KV bytes read by the attention core / HBM bandwidth (FlashMLA: 3000 of 3350 GB/s)
  double hbm = 0.8;              // streamed weight and activation bytes / HBM bandwidth
  double nvlink = 0.7;           // intra-node all-to-all / NVLink bandwidth per direction
  double rdma = 0.85;            // inter-node all-to-all / NIC bandwidth per GPU
  double comm_latency_us = 25;   // fixed latency of one dispatch, combine or all-reduce
  double step_overhead_ms = 2;   // per forward pass (scheduling, launches; CUDA graphs in decode)
  double tbo_overlap = 1.0;      // share of the shorter of compute / communication that two-batch overlap hides
};

struct Gpu {
  std::string id;
  std::string name;
  std::string silicon;  // compute die ("gh100"): GPUs on one die share their GEMM efficiency
  double memory_bytes = 0;
  double hbm_bytes_s = 0;
  double bf16_flops = 0;
  double fp8_flops = 0;   // 0 = no FP8 tensor cores
  double int8_ops = 0;    // 0 = no INT8 tensor cores
  double fp4_flops = 0;   // 0 = no FP4 tensor cores
  double nvlink_bytes_s = 0;  // per GPU per direction (0 = no NVLink: PCIe)
  double nic_bytes_s = 0;     // RDMA per GPU
  int nvlink_domain = 8;      // GPUs that share one NVLink domain (a "node")
  int sms = 132;              // streaming multiprocessors
  Efficiency eff;
  std::vector<std::string> calibrated_on;  // benchmark point ids the factors were fitted on
  std::string calibration_note;
  std::string spec_note;

  // Peak dense FLOPs for GEMMs in format t (0 when the GPU has no such tensor cores).
  double peak(DType t) const;
};

const std::vector<Gpu>& gpu_presets();
const Gpu* find_gpu(const std::string& id);

}  // namespace slo
