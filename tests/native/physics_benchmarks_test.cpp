// Physics tests, issue 4 (validation): the estimator against published measurements
// (core/data/benchmarks/measurements.json, DeepEP's low-latency kernel timings on H800).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "slo/benchmarks.hpp"
#include "slo/hardware.hpp"

using namespace slo;

TEST(PhysicsBenchmarks, EveryRowWithin25PercentMedianWithin15) {
  const std::vector<BenchmarkRow> rows = run_benchmarks();
  ASSERT_GE(rows.size(), 10u);
  std::vector<double> errs;
  for (const auto& r : rows) {
    SCOPED_TRACE(r.id);
    ASSERT_GT(r.measured, 0);
    EXPECT_TRUE(std::isfinite(r.predicted));
    EXPECT_GT(r.predicted, 0);
    const double e = std::fabs(r.predicted / r.measured - 1.0);
    EXPECT_LE(e, 0.25) << r.label << ": predicted " << r.predicted << " vs measured " << r.measured << " " << r.unit;
    errs.push_back(e);
  }
  std::sort(errs.begin(), errs.end());
  const std::size_t n = errs.size();
  const double median = n % 2 ? errs[n / 2] : 0.5 * (errs[n / 2 - 1] + errs[n / 2]);
  EXPECT_LE(median, 0.15) << "median |error| " << median * 100 << " %";
}

TEST(PhysicsBenchmarks, DeepEpLowLatencyKernelsWithin20Percent) {
  const Gpu* g = find_gpu("h800-80g");
  ASSERT_NE(g, nullptr);
  const std::vector<KernelRow> rows = deepep_low_latency_rows(g->eff);
  ASSERT_EQ(rows.size(), 6u);  // EP 8, 16, 32, 64, 128, 256
  for (const auto& r : rows) {
    SCOPED_TRACE(r.ep);
    ASSERT_GT(r.dispatch_us, 0);
    ASSERT_GT(r.combine_us, 0);
    EXPECT_LE(std::fabs(r.predicted_dispatch_us / r.dispatch_us - 1.0), 0.20)
        << "dispatch predicted " << r.predicted_dispatch_us << " us vs measured " << r.dispatch_us << " us";
    EXPECT_LE(std::fabs(r.predicted_combine_us / r.combine_us - 1.0), 0.20)
        << "combine predicted " << r.predicted_combine_us << " us vs measured " << r.combine_us << " us";
  }
}
