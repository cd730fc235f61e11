// DecodeCurve (step_time.hpp) against decode_step(): the capacity and load searches take the decode
// step's total from the curve, so it must be the same number at every batch, for every layout the
// published measurements describe (dense and MoE, TP/EP/PP, MTP, offload, eager above the CUDA-graph
// limit, two-batch overlap on/off/auto, every GPU family and engine).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "slo/benchmarks.hpp"
#include "slo/evaluation.hpp"
#include "test_scenario.hpp"

namespace slo {
namespace {

// The largest relative difference between the curve and decode_step over a pool's batches.
double worst_gap(const PoolEval& pe, double context, double scale) {
  const DecodeCurve curve(pe.pool, *pe.consts, context, scale);
  double worst = 0;
  for (double s : {1.0, 1.5, 2.0, 3.0, 7.0, 31.0, 64.0, 129.0, 333.0, 700.0, 1500.0, 4096.0}) {
    const double full = decode_step(pe.pool, *pe.consts, s, context, scale).total;
    worst = std::max(worst, std::fabs(curve.total(s) - full) / full);
  }
  return worst;
}

TEST(PhysicsStepCurve, EqualsTheDecodeStepForEveryMeasuredLayout) {
  std::set<std::string> seen;
  int pools = 0;
  for (const BenchmarkRow& row : run_benchmarks()) {
    const std::string key = row.scenario.dump();
    if (!seen.insert(key).second) continue;
    ParseResult p = parse_scenario(row.scenario);
    ASSERT_TRUE(p.ok) << row.id;
    EvalOptions o;
    o.ttft = false;
    o.capacity = false;
    const Evaluation ev = evaluate_scenario(p.scenario, o);
    for (const PoolEval& pe : ev.pools) {
      for (double scale : {1.0, 1.3}) {
        EXPECT_LT(worst_gap(pe, ev.running_context, scale), 1e-12) << row.id << " " << pe.role;
      }
      ++pools;
    }
  }
  EXPECT_GT(pools, 300);  // the measurements' distinct layouts
}

TEST(PhysicsStepCurve, CoversMtpOffloadAndEagerDecode) {
  // MTP drafts (the default scenario's DeepSeek-V3 with 2 drafts), offloaded weights and a batch above
  // SGLang's CUDA-graph limit: each takes its own branch of the replay.
  nlohmann::json mtp = {{"deployment", {{"mtp", {{"draft_tokens", 2}}}}}};
  nlohmann::json off = {{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                        {"precision", {{"weights", "bf16"}, {"activations", "bf16"}, {"kv_cache", "bf16"}}},
                        {"hardware", {{"gpu", "h100-80g"}, {"nodes", 1}, {"gpus_per_node", 1}}},
                        {"deployment", {{"mode", "colocated"}, {"colocated", {{"gpus", 1}, {"attention_tp", 1}, {"ep", 1}, {"cpu_offload_gb", 80}}}}},
                        {"reference", {{"preset", "none"}}}};
  for (const auto& patch : {mtp, off}) {
    const Evaluation ev = evaluate_scenario(test::scenario(patch), EvalOptions{1.0, false, 0});
    for (const PoolEval& pe : ev.pools) EXPECT_LT(worst_gap(pe, ev.running_context, 1.0), 1e-12) << patch.dump();
  }
}

}  // namespace
}  // namespace slo
