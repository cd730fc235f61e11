// The seed method: a faithful port of ../shared/seed/slo_check_seed.py, kept beside the corrected
// method so users can see what changed and why. Its formulas are wrong on purpose (they are the
// seed's); see ESTIMATOR-NOTES.md section 1 and the "seed method vs corrected" table.
#pragma once
#include "slo/report.hpp"
#include "slo/scenario.hpp"

namespace slo {

// Every figure the seed computes, for the tests and the comparison table.
struct SeedFigures {
  // Inputs the seed takes from its configuration dicts, as read from the scenario.
  int ep = 1, tp = 1, pp = 1, dp = 1, total_gpus = 0;  // PARALLEL_CONFIG (active pool), HARDWARE_CONFIG
  double gpu_memory_gb = 0;                             // HARDWARE_CONFIG gpu_memory_gb (1e9 B)
  double d_c = 0;                                       // MLA kv_lora_rank, or kv_heads x head_dim (GQA)
  double tokens_per_gpu = 0;                            // TENCENT_BENCHMARK measured / gpus
  bool scaled = false;                                  // the 10 % rule fired
  double scale_factor = 1;                              // published total / calculated total (1 when not scaled)
  double sessions_per_gpu = 0;                          // max_concurrent_32k / total_gpus (0 when max is 0)
  // calculate_model_memory_distribution
  double per_gpu_params_b = 0, per_gpu_memory_gb = 0, attention_memory_gb = 0, routing_experts_memory_gb = 0,
         shared_experts_memory_gb = 0, dense_memory_gb = 0, other_memory_gb = 0, total_calculated_params_b = 0;
  // calculate_kv_cache_memory
  double kv_cache_per_token_bytes = 0, kv_cache_per_session_gb = 0, total_kv_cache_gb = 0, per_gpu_kv_cache_gb = 0;
  // calculate_realistic_concurrent_capacity
  double available_memory_gb = 0, system_overhead_gb = 0, activation_memory_gb = 0;
  int max_concurrent_32k = 0, max_concurrent_16k = 0, max_concurrent_8k = 0;
  bool memory_feasible = false;
  // calculate_throughput_based_on_tencent_data
  double theoretical = 0, conservative = 0, optimistic = 0, concurrent_constrained = 0, actual_expected = 0,
         target_achievement = 0;
  // calculate_ttft_latency
  double total_flops = 0, effective_tflops = 0, compute_time_ms = 0, memory_transfer_ms = 0,
         scheduling_overhead_ms = 0, network_overhead_ms = 0, total_ttft_ms = 0, ttft_achievement = 0;
  int cards_for_target = 0;  // math.ceil(target / tokens_per_gpu)
};

SeedFigures seed_figures(const Scenario& s);
Report seed_report(const Scenario& s, Lang lang);

}  // namespace slo
