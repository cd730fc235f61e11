// Published measurements as scenarios: prediction vs measurement, and the per-GPU fit of the
// efficiency factors on them.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/hardware.hpp"

namespace slo {

struct BenchmarkRow {
  std::string id, point, label, gpu, metric, unit, assumptions;
  double measured = 0, predicted = 0;
  double error_pct() const { return measured != 0 ? (predicted / measured - 1.0) * 100.0 : 0.0; }
  nlohmann::json scenario;  // the normalized scenario it was built from
};

// Predicts every measurement in core/data/benchmarks/measurements.json. `overrides` replaces the
// efficiency factors of the named GPUs (used by the fit).
std::vector<BenchmarkRow> run_benchmarks(const std::map<std::string, Efficiency>& overrides = {});

// DeepEP low-latency kernel timings (H800, 128 tokens per GPU, EP 8..256) vs the communication
// model: the points the link factors (rdma, comm_latency_us) are fitted on.
struct KernelRow {
  int ep = 0;
  double dispatch_us = 0, combine_us = 0, predicted_dispatch_us = 0, predicted_combine_us = 0;
};
std::vector<KernelRow> deepep_low_latency_rows(const Efficiency& eff);

struct FitResult {
  std::map<std::string, Efficiency> per_gpu;  // fitted factors per GPU id
  std::map<std::string, std::vector<std::string>> points;  // measurement ids per GPU
  Efficiency family;                           // the Hopper family fit (all Hopper points)
  double kernel_rms_log_error = 0;             // DeepEP kernel fit of rdma / latency
  double rms_log_error = 0;
};

// Fits one set of factors per GPU that has measurements. Link factors come from kernel measurements:
// rdma and comm_latency_us from DeepEP's low-latency timings, nvlink from DeepEP's intranode
// bandwidth (155 of 200 GB/s on H800). Compute factors (gemm, attention, hbm, step overhead) are
// fitted on the end-to-end points: first a Hopper family fit on all of them, then each GPU with a
// prior pulling it towards the family (so one or two points cannot drag every factor).
// Minimises sum of log(pred/measured)^2 + prior.
FitResult fit_efficiency(const std::vector<std::string>& exclude_points = {});

// Leave-one-point-out check: for each published point, fit without it and predict it (GPUs left
// without any point fall back to the family fit). Rows are the held-out predictions.
std::vector<BenchmarkRow> leave_one_out();

}  // namespace slo
