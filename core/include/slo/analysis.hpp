// The analysis stage: every figure the corrected report shows beyond the scenario's own evaluation
// (reference calibration, target checks, curves, the smallest cluster, sensitivity variants, seed
// figures, held-out bands). It runs all the physics; the report stage only formats its result.
//   scenario -> evaluate (evaluate_scenario) -> analyse (this) -> report (corrected_report) -> render
#pragma once
#include <optional>
#include <utility>
#include <vector>

#include "slo/benchmarks.hpp"
#include "slo/evaluation.hpp"
#include "slo/search.hpp"
#include "slo/seed_method.hpp"
#include "slo/workload_result.hpp"

namespace slo {

// One figure of an observed reference run (a benchmark) beside this estimator's prediction of the
// same run at the same load, uncalibrated.
struct ReferenceFigure {
  std::string id;  // "ttft_ms" | "tpot_ms" | "output_tps" | "total_tps"
  double measured = 0, predicted = 0;
};

// The reference measurement, predicted by this estimator, and the efficiency it implies.
struct ReferenceFit {
  bool present = false;      // a reference with a measured figure
  Evaluation ref_eval;       // the reference deployment (no TTFT)
  double predicted = 0;      // tokens/s in the measured kind at the reference's TPOT limit
  double implied = 0;        // measured / predicted (0 = none)
  // What the implied efficiency compares: "capacity" (tokens/s at the TPOT limit, published points),
  // "tpot" (an observed run's TPOT, predicted / measured) or "throughput" (observed, at its load).
  std::string implied_from = "capacity";
  bool calibrated = false;   // the scenario's times are scaled by 1 / implied
  std::vector<ReferenceFigure> figures;  // observed runs: each measured figure at the run's own load
};

struct TtftCurvePoint {
  double rate = 0;  // requests/s
  double p50 = 0, p90 = 0, p99 = 0;  // s
};

// The concurrency target as a benchmark client sees it: that many sessions always in flight.
struct AtConcurrency {
  LoadResult loop;
  double held_sessions = 0;  // sessions the KV pool holds at the running context
  double prefill_rps = 0;    // prefill capacity in requests/s
};

struct Sensitivity {
  Variant variant;
  Evaluation eval;
  TargetCheck check;
};

// Cost at capacity (the throughput at the TPOT limit) for a stated price per GPU-hour. Input tokens
// carry the GPU time spent on prefill (the prefill pool, or the colocated prefill share of GPU time at
// capacity), output tokens the rest.
struct CostFigures {
  bool stated = false;           // the scenario states a price
  double cluster_per_hour = 0;   // USD per hour for the cluster's GPUs
  double input_share = 0;        // GPU time attributed to input tokens
  double per_million_input = 0, per_million_output = 0, per_million_total = 0;  // USD (0: no capacity)
};
CostFigures cost_at_capacity(const Evaluation& ev, double gpu_hour_usd);

struct Analysis {
  Scenario input;              // the scenario as given (the seed appendix reads it)
  EvalOptions options;         // options of the scenario's evaluation (time scale)
  ReferenceFit calibration;
  Evaluation ev;               // the scenario, calibrated when asked
  TargetCheck targets;
  double colocated_prefill_work = 0;  // colocated: prefill work share of GPU time at capacity
  double kv_bytes_per_token = 0;      // all layers, one copy
  std::vector<std::pair<double, double>> capacity;  // (context, sessions of the decode side)
  double tpot_batch1_s = 0;            // decode TPOT at one sequence per DP group
  std::vector<std::pair<double, double>> decode_curve;  // (TPOT ms, output tokens/s per GPU)
  double littles_sessions = 0;         // sessions decoding at once for the throughput target at the TPOT limit
  // The engine release the scenario states is one the profile does not describe for its MLA model
  // (at or before Engine::mla_profile_after, which it holds; "" otherwise).
  std::string unprofiled_release_bound;
  // A pool's tensor-parallel group (attention or experts) spans nodes: a layout the published set
  // measures only in a validation-only source (docs/MEASUREMENTS.md, the layout rule).
  bool tp_spans_nodes = false;
  int cuda_graph_limit = 0;  // the engine's CUDA-graph batch limit on the decode pool (0: graphs not limiting in the model)
  std::optional<AtConcurrency> at_concurrency;
  std::vector<TtftCurvePoint> ttft_curve;
  Candidate smallest;
  CostFigures cost;
  std::vector<Sensitivity> sensitivity;
  SeedFigures seed;
  FigureBands bands;
};

Analysis analyse(const Scenario& s);
// The time scale of the scenario's evaluation (1 / implied efficiency when calibrating to the reference).
double analyse_time_scale(const Scenario& s);

// Tokens of a request in a throughput kind.
double tokens_of(ThroughputKind k, double in, double out);

}  // namespace slo
