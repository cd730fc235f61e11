// Recommendations computed by the model: the smallest cluster and P:D split that meet every target,
// and how the verdicts move when precision, MTP, context length or the P/D mode change.
#pragma once
#include <string>
#include <vector>

#include "slo/evaluation.hpp"

namespace slo {

// Which targets an evaluation meets.
struct TargetCheck {
  bool memory = false, concurrency = true, throughput = true, tpot = true, ttft_p50 = true, ttft_p99 = true;
  bool all() const { return memory && concurrency && throughput && tpot && ttft_p50 && ttft_p99; }
  int met() const { return memory + concurrency + throughput + tpot + ttft_p50 + ttft_p99; }
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

}  // namespace slo
