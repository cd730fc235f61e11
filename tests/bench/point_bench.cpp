// One operating point of the default scenario (issue 11): the capacity evaluation the search runs
// per configuration (memory plans, prefill capacity, the decode batch at the TPOT limit; no TTFT
// simulation), and one decode step time at a given batch.
#include <benchmark/benchmark.h>

#include "slo/evaluation.hpp"
#include "slo/scenario.hpp"

namespace {

const slo::Scenario& default_scenario() {
  static const slo::Scenario s = slo::parse_scenario(slo::default_scenario_json()).scenario;
  return s;
}

void BM_OperatingPoint(benchmark::State& state) {
  slo::EvalOptions o;
  o.ttft = false;
  for (auto _ : state) {
    const slo::Evaluation ev = slo::evaluate_scenario(default_scenario(), o);
    benchmark::DoNotOptimize(ev.lambda_max);
  }
}

void BM_DecodeStep(benchmark::State& state) {
  slo::EvalOptions o;
  o.ttft = false;
  const slo::Evaluation ev = slo::evaluate_scenario(default_scenario(), o);
  double batch = 1, context = ev.running_context;
  for (auto _ : state) {
    // A new (batch, context) each time: the step is computed, not taken from the per-shape memo
    // (which keeps its first 4,096 shapes).
    batch = batch >= 512 ? 1 : batch + 1;
    context += 1;
    const slo::DecodePoint d = slo::decode_at(ev.decode_pool(), batch, context, 0, 1.0);
    benchmark::DoNotOptimize(d.tpot_s);
  }
}

// The same step from the pool's decode curve (what the capacity and load searches probe), and the
// curve's construction (once per evaluation).
void BM_DecodeCurveTotal(benchmark::State& state) {
  slo::EvalOptions o;
  o.ttft = false;
  const slo::Evaluation ev = slo::evaluate_scenario(default_scenario(), o);
  double batch = 1;
  for (auto _ : state) {
    batch = batch >= 512 ? 1 : batch + 1;
    benchmark::DoNotOptimize(ev.decode_curve->total(batch));
  }
}

void BM_DecodeCurveBuild(benchmark::State& state) {
  slo::EvalOptions o;
  o.ttft = false;
  const slo::Evaluation ev = slo::evaluate_scenario(default_scenario(), o);
  for (auto _ : state) {
    const slo::DecodeCurve c(ev.decode_pool().pool, *ev.decode_pool().consts, ev.running_context, 1.0);
    benchmark::DoNotOptimize(c.total(1));
  }
}

}  // namespace

BENCHMARK(BM_OperatingPoint)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DecodeStep)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DecodeCurveTotal)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DecodeCurveBuild)->Unit(benchmark::kMicrosecond);
