// Published measurements as scenarios: prediction vs measurement, the fit of the efficiency
// factors (per GPU family and per engine, never per model or per point), leave-one-source-out
// validation, and the error bands by regime that the report attaches to its figures.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/engine.hpp"
#include "slo/hardware.hpp"

namespace slo {

struct BenchmarkRow {
  std::string id, point, source, label, gpu, family, engine, model, metric, unit, assumptions;
  std::string regime;  // family/kind/batch, e.g. "hopper/tpot/low"
  double measured = 0, predicted = 0;
  bool fitted = true;  // false: its source is validation only (predicted, never fitted on)
  double error_pct() const { return measured != 0 ? (predicted / measured - 1.0) * 100.0 : 0.0; }
  nlohmann::json scenario;  // the normalized scenario it was built from
};

// The fitted factors: per GPU family (gemm, hbm, attention) and per engine (overheads).
struct Calibration {
  std::map<std::string, Efficiency> family;
  std::map<std::string, EngineOverheads> engine;
  static Calibration current();  // what gpus.json and engines.json hold
};

// Predicts every measurement in core/data/benchmarks/measurements*.json with `cal` (default: the
// compiled-in factors).
std::vector<BenchmarkRow> run_benchmarks();
std::vector<BenchmarkRow> run_benchmarks(const Calibration& cal);

// DeepEP low-latency kernel timings (H800, 128 tokens per GPU, EP 8..256) vs the communication
// model: the points the link factors (rdma, comm_latency_us) are fitted on.
struct KernelRow {
  int ep = 0;
  double dispatch_us = 0, combine_us = 0, predicted_dispatch_us = 0, predicted_combine_us = 0;
};
std::vector<KernelRow> deepep_low_latency_rows(const Efficiency& eff);

struct FitResult {
  Calibration cal;
  std::map<std::string, std::vector<std::string>> fitted_on;  // measurement ids per family
  double kernel_rms_log_error = 0;
  double rms_log_error = 0;  // over the figures with a prediction
  int infeasible = 0;        // figures the physics predicts at 0 (the layout does not fit)
};

// Fits the factors on every measurement not from an excluded source: links from DeepEP's kernel
// timings; per family gemm/hbm/attention and per engine step/layer/request overheads from the
// end-to-end figures, each pulled towards its prior (core/data/calibration-priors.json) so that a
// family or engine with few figures stays near physics. Robust (Cauchy) loss on log errors.
FitResult fit_calibration(const std::vector<std::string>& exclude_sources = {});

// Leave-one-source-out: for each source, fit without all of its figures and predict them.
std::vector<BenchmarkRow> leave_one_source_out();

// Error band of a regime from held-out errors: the shortest interval of signed errors (predicted /
// measured - 1) holding at least 80% of them, turned into a band on the truth around a prediction.
struct Band {
  std::string regime;
  int n = 0;                 // held-out figures in the regime
  bool validated = false;    // n >= kMinValidated
  double err_lo = 0, err_hi = 0;  // signed held-out errors (fractions) the band covers
  double lo_pct = 0, hi_pct = 0;  // truth relative to the prediction: -x% ... +y%
  double median_abs_pct = 0;
  std::string reason;        // why extrapolated (empty when validated)
};
constexpr int kMinValidated = 5;
Band band_from_errors(const std::string& regime, std::vector<double> errors);

// Regime of a figure: GPU family / figure kind (tpot, ttft, throughput, latency) / batch regime
// (batch1, low <= 16 in flight per DP group, high).
std::string figure_kind(const std::string& metric);
std::string batch_regime(double in_flight_per_group);

// Bands by regime from the stored validation (core/data/validation.json, written by
// `slo-estimator benchmarks --loso --write`). Falls back to the figure kind over every family,
// flagged extrapolated with the reason.
Band band_for(const std::string& family, const std::string& kind, const std::string& batch);

// The bands of a scenario's predicted figures (analysis stage): capacity throughput, TPOT and
// TTFT at the workload's load, and the figures of its own load kind.
struct FigureBands {
  Band throughput, tpot, ttft, latency;
  Band decode_curve;  // the decode throughput vs TPOT curve (throughput at large batch)
};
struct Evaluation;
FigureBands figure_bands(const Evaluation& ev);

}  // namespace slo
