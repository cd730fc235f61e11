// Physics tests, issue 4 (TTFT and pools): percentiles, load dependence, instability above the
// prefill capacity, the input-length distribution, colocated vs disaggregated deployments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/evaluation.hpp"
#include "slo/kv_cache.hpp"
#include "slo/queueing.hpp"
#include "slo/scenario.hpp"
#include "test_scenario.hpp"

using nlohmann::json;
using namespace slo;

namespace {

using slo::test::scenario;

// 32 GPUs split 16 + 16 (the frozen default 8 + 24 split cannot hold DeepSeek-V3 FP8 on 8 x H20-96G
// in the prefill pool: 671 GB of weights on 8 x 86.4 GB usable leaves nothing for reserves).
json disaggregated_16_16() {
  return json{{"mode", "disaggregated"},
              {"prefill", {{"gpus", 16}, {"attention_tp", 1}, {"ep", 16}, {"redundant_experts", 0}}},
              {"decode", {{"gpus", 16}, {"attention_tp", 1}, {"ep", 16}, {"redundant_experts", 32}}}};
}

// Tencent-like workload: varied input lengths so the queue sees a distribution.
json workload(double qpm) {
  return json{{"input_tokens", 3584}, {"input_tokens_max", 16384}, {"output_tokens", 1228}, {"output_tokens_max", 4096},
              {"arrival_qpm", qpm}};
}

}  // namespace

TEST(PhysicsTtft, PercentilesOrderedAndGrowWithLoad) {
  // Capacity of the default deployment with this workload, then loads below it.
  const Evaluation cap = evaluate_scenario(scenario(json{{"workload", workload(1)}}), EvalOptions{1.0, false, 0});
  ASSERT_GT(cap.lambda_max, 0);
  double prev_mean = 0, prev_p90 = 0, first = 0, last = 0;
  for (double frac : {0.1, 0.3, 0.5, 0.7, 0.9}) {
    SCOPED_TRACE(frac);
    const Evaluation ev = evaluate_scenario(scenario(json{{"workload", workload(frac * cap.lambda_max * 60)}}));
    ASSERT_TRUE(ev.load_sustainable);
    EXPECT_TRUE(ev.ttft.stable);
    EXPECT_GT(ev.ttft.simulated, 0);
    EXPECT_GT(ev.ttft.p50, 0);
    EXPECT_LE(ev.ttft.p50, ev.ttft.p90);
    EXPECT_LE(ev.ttft.p90, ev.ttft.p99);
    EXPECT_GE(ev.ttft.mean, prev_mean) << "mean TTFT fell as the arrival rate rose";
    EXPECT_GE(ev.ttft.p90, prev_p90) << "P90 TTFT fell as the arrival rate rose";
    // A request cannot finish before its own prefill: TTFT >= mean time from first chunk to last.
    EXPECT_GE(ev.ttft.mean, ev.ttft.mean_prefill);
    prev_mean = ev.ttft.mean;
    prev_p90 = ev.ttft.p90;
    if (frac == 0.1) first = ev.ttft.mean;
    last = ev.ttft.mean;
  }
  EXPECT_GT(last, first);
}

TEST(PhysicsTtft, RateAbovePrefillCapacityIsUnstable) {
  for (const std::string mode : {"colocated", "disaggregated"}) {
    SCOPED_TRACE(mode);
    const json dep = mode == "colocated" ? json{{"mode", mode}} : disaggregated_16_16();
    const Evaluation cap = evaluate_scenario(scenario(json{{"deployment", dep}, {"workload", workload(1)}}), EvalOptions{1.0, false, 0});
    ASSERT_GT(cap.prefill_tokens_s, 0);
    const double lambda_prefill = cap.prefill_tokens_s / 3584.0;  // requests/s the prefill side can take
    const Evaluation ev =
        evaluate_scenario(scenario(json{{"deployment", dep}, {"workload", workload(5 * lambda_prefill * 60)}}));
    EXPECT_FALSE(ev.load_sustainable);
    EXPECT_FALSE(ev.ttft.stable);
    EXPECT_LE(ev.lambda_max, lambda_prefill * (1 + 1e-9));
  }
}

// Maximum-entropy lengths on [1, max] with a given mean: samples keep the mean and the bound.
TEST(PhysicsTtft, LengthDistMeanAndMax) {
  const std::vector<std::pair<double, double>> cases = {{3584, 16384}, {1228, 32768}, {512, 512},   {100, 101},
                                                        {9000, 10000}, {5000, 10001}, {60, 8192},   {2000, 131072}};
  std::mt19937_64 gen(12345);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  for (auto [mean, max] : cases) {
    SCOPED_TRACE(std::to_string(mean) + " / " + std::to_string(max));
    const LengthDist L(mean, max);
    double s = 0, s2 = 0, hi = 0, lo = 1e300;
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
      const double x = L.sample(U(gen));
      s += x;
      s2 += x * x;
      hi = std::max(hi, x);
      lo = std::min(lo, x);
    }
    EXPECT_NEAR(s / n / mean, 1.0, 0.01) << "sample mean " << s / n;
    EXPECT_LE(hi, max);
    EXPECT_GE(lo, 1.0);
    // The second moment the prefill model uses agrees with the samples.
    EXPECT_NEAR(s2 / n / L.second_moment(), 1.0, 0.03);
  }
  // Endpoints of the inverse CDF.
  const LengthDist L(3584, 16384);
  EXPECT_NEAR(L.sample(0.0), 1.0, 1e-6);
  EXPECT_LE(L.sample(std::nextafter(1.0, 0.0)), 16384.0);
}

// Lengths whose mean is far from the middle of [1, max] (short prompts with a long tail, e.g.
// mean 512 of at most 128K, or a mean just below the maximum).
TEST(PhysicsTtft, LengthDistMeanFarFromMiddle) {
  const std::vector<std::pair<double, double>> cases = {{512, 131072}, {100, 32768}, {2, 1000}, {9990, 10000}};
  std::mt19937_64 gen(777);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  for (auto [mean, max] : cases) {
    SCOPED_TRACE(std::to_string(mean) + " / " + std::to_string(max));
    const LengthDist L(mean, max);
    double s = 0, hi = 0;
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
      const double x = L.sample(U(gen));
      s += x;
      hi = std::max(hi, x);
    }
    EXPECT_NEAR(s / n / mean, 1.0, 0.01) << "sample mean " << s / n;
    EXPECT_LE(hi, max);
  }
}

// The quantile is the CDF's inverse (a finite run's drain reads the step at which b of c requests are
// left from it), for lengths below and above the middle of [1, max] and nearly uniform ones; a fixed
// length is its own quantile.
TEST(PhysicsTtft, LengthDistQuantileInvertsTheCdf) {
  const std::vector<std::pair<double, double>> cases = {{217.4, 2048}, {1800, 2048}, {512, 131072}, {1024.4, 2048}, {60, 8192}};
  for (auto [mean, max] : cases) {
    SCOPED_TRACE(std::to_string(mean) + " / " + std::to_string(max));
    const LengthDist L(mean, max);
    double prev = 0;
    for (double p : {1e-6, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 0.999999}) {
      const double q = L.quantile(p);
      EXPECT_NEAR(L.cdf(q), p, 1e-9) << "p " << p << " -> " << q;
      EXPECT_GE(q, 1.0);
      EXPECT_LE(q, max);
      EXPECT_GT(q, prev);
      prev = q;
    }
  }
  EXPECT_EQ(LengthDist(512, 512).quantile(0.3), 512.0);
}

// The same 32 GPUs, colocated and split into 16 prefill + 16 decode GPUs.
TEST(PhysicsTtft, ColocatedAndDisaggregatedBothWork) {
  const Scenario sc = scenario(json::object());
  const Scenario sd = scenario(json{{"deployment", disaggregated_16_16()}});
  ASSERT_EQ(sd.deployment.prefill.gpus + sd.deployment.decode.gpus, sc.deployment.colocated.gpus);
  const Evaluation ec = evaluate_scenario(sc), ed = evaluate_scenario(sd);
  ASSERT_FALSE(ec.disaggregated());
  ASSERT_TRUE(ed.disaggregated());
  for (const Evaluation* ev : {&ec, &ed}) {
    SCOPED_TRACE(ev->disaggregated() ? "disaggregated" : "colocated");
    for (double x : {ev->lambda_max, ev->total_tps_max, ev->output_tps_max, ev->input_tps_max, ev->sessions_32k,
                     ev->prefill_tokens_s, ev->op_max.output_tps, ev->op_max.tpot_s}) {
      EXPECT_TRUE(std::isfinite(x));
      EXPECT_GT(x, 0);
    }
    for (const auto& pe : ev->pools) EXPECT_TRUE(pe.plan.fits()) << pe.role;
  }
  EXPECT_EQ(ec.kv_transfer_s, 0);
  EXPECT_GT(ed.kv_transfer_s, 0);
  // 512 input tokens x 70,272 B of BF16 MLA KV over one GPU's 25 GB/s NIC (spec, no efficiency).
  const double bound = 512.0 * 70272.0 / sd.gpu.nic_bytes_s;
  EXPECT_NEAR(sd.gpu.nic_bytes_s, 25e9, 1e6);
  EXPECT_GE(ed.kv_transfer_s, bound);
  EXPECT_LT(ed.kv_transfer_s, 1.0);
}
