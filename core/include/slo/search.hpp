// Recommendations computed by the model: the smallest cluster and P:D split that meet every target,
// and how the verdicts move when precision, MTP, context length or the P/D mode change.
#pragma once
#include <string>
#include <vector>

#include "slo/evaluation.hpp"

namespace slo {

// Which targets an evaluation meets.
struct TargetCheck {
  // An unset target passes all() but is not counted: met() and set() count the memory verdict and
  // the targets the scenario sets (issue 12, defect 6: "3 / 6" with two of five cards passing).
  bool memory = false, concurrency = true, throughput = true, tpot = true, ttft_p50 = true, ttft_p99 = true;
  bool has_concurrency = false, has_throughput = false, has_tpot = false, has_ttft_p50 = false, has_ttft_p99 = false;
  bool all() const { return memory && concurrency && throughput && tpot && ttft_p50 && ttft_p99; }
  int met() const {
    return memory + (has_concurrency && concurrency) + (has_throughput && throughput) + (has_tpot && tpot) + (has_ttft_p50 && ttft_p50) +
           (has_ttft_p99 && ttft_p99);
  }
  int set() const { return 1 + has_concurrency + has_throughput + has_tpot + has_ttft_p50 + has_ttft_p99; }
};
TargetCheck check_targets(const Evaluation& ev);

struct Candidate {
  bool found = false;
  int nodes = 0;
  Deployment deployment;
  Evaluation eval;
  int evaluated = 0;   // candidates tried
};

// Searches node counts upward (up to max(16, 4 x the scenario's) and 64 at most), colocated and
// every P:D split, with a layout per pool chosen by the model type (DP attention + EP for MoE,
// TP within a node + DP replicas for dense), and returns the smallest that meets every target.
Candidate smallest_cluster(const Scenario& s, double time_scale);

// A default layout for a pool of `gpus` GPUs (used by the search and the sensitivity variants).
PoolConfig default_layout(const ModelArch& m, int gpus, int gpus_per_node);

struct Variant {
  std::string id;
  std::string label_en, label_zh;
  Scenario scenario;
};
std::vector<Variant> sensitivity_variants(const Scenario& s);
// A dense model's colocated pool that does not fit: `s` gets the smallest in-node tensor-parallel
// degree whose weights fit (true), or stays as given (false).
bool tp_that_fits(Scenario& s);

// Pools whose weights and reserves do not fit, none offloading yet: the least whole number of GB
// per GPU each such pool keeps in host memory (prefetched) for every pool to fit. True, with `s`
// changed to it, when offload can make them fit; `s` is left as given otherwise.
bool offload_that_fits(Scenario& s);

}  // namespace slo

#include <functional>
#include <optional>

namespace slo {

// ------------------------------------------------------------------ configuration search
// The space: colocated and every P:D split of a GPU budget (node-granular; GPU-granular within one
// node); per pool the instance size and replica count, PP, attention TP (DP attention for the rest),
// MoE TP (EP for the rest), redundant experts; MTP off or 1-3 drafts at the scenario's acceptance
// (models with an MTP layer); FP8 KV (when allowed and the scenario's KV is 16-bit); the prefill
// chunk (disaggregated prefill pools); the decode batch per GPU (max_decode_batch_per_gpu).
// Every configuration is a scenario evaluated by evaluate_scenario(), as the report evaluates it.

struct SearchOptions {
  bool fewest = false;     // false: the frontier for a GPU budget; true: the fewest GPUs meeting every target
  int gpus = 0;            // frontier: the budget (0 = the scenario's cluster)
  int max_nodes = 0;       // fewest: the largest cluster tried (0 = max(16, 4 x the scenario's nodes), at most 64)
  bool colocated = true, disaggregated = true;
  bool mtp = true;         // try MTP (models with an MTP layer)
  bool kv_fp8 = true;      // try an FP8 KV cache when the scenario's is BF16/FP16
  std::vector<int> chunks{4096, 8192, 16384};            // prefill chunk of a disaggregated prefill pool
  std::vector<int> decode_batches{16, 32, 64, 128, 0};   // max_decode_batch_per_gpu (0 = engine limit)
  int top = 20;            // configurations listed (meeting every target, most tokens/s per GPU first)
  double time_scale = 1.0; // calibration (as the report's)
};

struct SearchPoint {
  Scenario scenario;        // the configuration as a scenario (deployment, KV precision, cluster)
  int gpus = 0;
  double tps_per_gpu = 0;   // capacity at the TPOT limit in the throughput target's kind, per GPU
  double tps_per_user = 0;  // output tokens/s of one user at that point (1 / TPOT, MTP included)
  double sessions = 0;      // concurrent sessions at the target context
  double ttft_p50 = 0, ttft_p90 = 0;  // s, at the workload's load (0 with ttft_known false)
  bool ttft_known = false;
  TargetCheck met;
};

struct SearchResult {
  int gpus = 0;                       // the budget searched (fewest: the answer, 0 = none found)
  std::vector<SearchPoint> frontier;  // Pareto set (tokens/s/user, tokens/s/GPU), by tokens/s/user
  std::vector<SearchPoint> top;       // meeting every target, most tokens/s per GPU first
  int evaluated = 0;                  // evaluate_scenario calls
  int considered = 0;                 // configurations in the space
  int pruned = 0;                     // skipped by a bound (dominated, or prefill side not the best)
  bool cancelled = false;
};

// Progress in [0, 1]; return false to cancel (the result then holds what was found so far).
using SearchProgress = std::function<bool(double)>;
SearchResult search_configurations(const Scenario& s, const SearchOptions& o, const SearchProgress& progress = {});

// The scenario's own configuration as a point of the same space (the page marks it on the frontier
// chart): evaluated as the search evaluates its candidates, TTFT included; gpus = 0 when it does not
// fit in memory or serves no load.
SearchPoint scenario_point(const Scenario& s, double time_scale);

// The instance layouts the search tries for a pool of `gpus` GPUs.
std::vector<PoolConfig> pool_shapes(const ModelArch& m, int gpus, int gpus_per_node);

// True when a is at least as good as b on both axes and better on one.
bool dominates(const SearchPoint& a, const SearchPoint& b);

}  // namespace slo
