// One full report evaluation through the string API (what the CLI and the page call): the default
// scenario, JSON format, corrected method (with its seed appendix) and seed method alone; plus
// validation alone, the floor every evaluation pays.
#include <benchmark/benchmark.h>

#include <string>

#include "slo/api.hpp"

namespace {

void evaluate(benchmark::State& state, const char* options) {
  const std::string scenario = slo::api::default_scenario();
  const std::string opts = options;
  if (slo::api::evaluate(scenario, opts).find("\"ok\":true") == std::string::npos) {
    state.SkipWithError("the default scenario does not evaluate");
    return;
  }
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string out = slo::api::evaluate(scenario, opts);
    bytes = out.size();
    benchmark::DoNotOptimize(out);
  }
  state.counters["result_bytes"] = static_cast<double>(bytes);
}

void BM_EvaluateCorrectedJson(benchmark::State& state) {
  evaluate(state, R"({"method":"corrected","lang":"en","formats":["json"]})");
}
void BM_EvaluateSeedJson(benchmark::State& state) {
  evaluate(state, R"({"method":"seed","lang":"en","formats":["json"]})");
}
void BM_EvaluateCorrectedAllFormats(benchmark::State& state) {
  evaluate(state, R"({"method":"corrected","lang":"zh","formats":["json","text","markdown"]})");
}
void BM_Validate(benchmark::State& state) {
  const std::string scenario = slo::api::default_scenario();
  for (auto _ : state) benchmark::DoNotOptimize(slo::api::validate(scenario, "en"));
}

}  // namespace

BENCHMARK(BM_EvaluateCorrectedJson)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EvaluateSeedJson)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EvaluateCorrectedAllFormats)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Validate)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
