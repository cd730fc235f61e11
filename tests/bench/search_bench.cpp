// Configurations evaluated per second by the configuration search: the default scenario's frontier
// (32 x H20) and a small case (Qwen3-30B-A3B on 4 x H100), through the core (no JSON).
#include <benchmark/benchmark.h>

#include "slo/search.hpp"

namespace {

void run(benchmark::State& state, const nlohmann::json& patch) {
  nlohmann::json doc = slo::default_scenario_json();
  doc.merge_patch(patch);
  const slo::ParseResult p = slo::parse_scenario(doc);
  if (!p.ok) {
    state.SkipWithError("scenario does not parse");
    return;
  }
  long evaluated = 0, considered = 0;
  for (auto _ : state) {
    const slo::SearchResult r = slo::search_configurations(p.scenario, {});
    evaluated += r.evaluated;
    considered += r.considered;
    benchmark::DoNotOptimize(r.frontier.size());
  }
  state.counters["evaluations_per_s"] = benchmark::Counter(static_cast<double>(evaluated), benchmark::Counter::kIsRate);
  state.counters["configurations_per_s"] = benchmark::Counter(static_cast<double>(considered), benchmark::Counter::kIsRate);
}

void BM_SearchDefaultFrontier(benchmark::State& state) { run(state, nlohmann::json::object()); }
void BM_SearchSmallFrontier(benchmark::State& state) {
  run(state, {{"model", {{"preset", "Qwen/Qwen3-30B-A3B"}}},
              {"hardware", {{"gpu", "h100-80g"}, {"nodes", 1}, {"gpus_per_node", 4}}},
              {"deployment", {{"mode", "colocated"}, {"colocated", {{"gpus", 4}, {"attention_tp", 1}, {"ep", 4}, {"redundant_experts", 0}}}}},
              {"reference", {{"preset", "none"}}}});
}

}  // namespace

BENCHMARK(BM_SearchDefaultFrontier)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchSmallFrontier)->Unit(benchmark::kMillisecond);
