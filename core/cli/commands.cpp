#include "commands.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "slo/benchmarks.hpp"
#include "slo/data.hpp"
#include "slo/report.hpp"
#include "slo/scenario.hpp"

namespace slo::cli {

using nlohmann::json;

int benchmarks(const std::string& format, const std::string& lang) {
  (void)lang;
  const auto rows = run_benchmarks();
  std::vector<double> errs;
  for (const auto& r : rows) errs.push_back(std::fabs(r.error_pct()));
  std::vector<double> sorted = errs;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted.empty() ? 0 : (sorted.size() % 2 ? sorted[sorted.size() / 2]
                                                                : 0.5 * (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]));
  const double worst = sorted.empty() ? 0 : sorted.back();
  if (format == "json") {
    json out = json::array();
    for (const auto& r : rows)
      out.push_back(json{{"id", r.id}, {"point", r.point}, {"label", r.label}, {"gpu", r.gpu}, {"metric", r.metric}, {"unit", r.unit},
                         {"predicted", r.predicted}, {"measured", r.measured}, {"error_pct", r.error_pct()},
                         {"assumptions", r.assumptions}, {"scenario", r.scenario}});
    std::cout << json{{"rows", out}, {"median_abs_error_pct", median}, {"max_abs_error_pct", worst}}.dump(2) << "\n";
    return 0;
  }
  const bool md = format == "md";
  if (md) std::cout << "| measurement | GPU | predicted | measured | error |\n|---|---|---:|---:|---:|\n";
  for (const auto& r : rows) {
    const int digits = r.measured < 100 ? 1 : 0;
    const std::string pred = format_fixed(r.predicted, digits, true), meas = format_fixed(r.measured, digits, true);
    char err[32];
    std::snprintf(err, sizeof err, "%+.1f%%", r.error_pct());
    if (md)
      std::cout << "| " << r.label << " | " << r.gpu << " | " << pred << " " << r.unit << " | " << meas << " " << r.unit << " | " << err << " |\n";
    else
      std::printf("%-40s %-10s predicted %12s  measured %12s %-14s error %7s\n", r.id.c_str(), r.gpu.c_str(), pred.c_str(), meas.c_str(),
                  r.unit.c_str(), err);
  }
  std::printf("%smedian |error| %.1f%%, max |error| %.1f%% over %zu measurements\n", md ? "\n" : "", median, worst, rows.size());
  if (!md) {
    std::printf("\nScenarios built for each measurement:\n");
    for (const auto& r : rows)
      std::printf("  %s: %s%s\n", r.id.c_str(), minimal_scenario(r.scenario).dump().c_str(), r.assumptions.empty() ? "" : ("\n    assumptions: " + r.assumptions).c_str());
  }
  return 0;
}

int fit(const std::string& write_path) {
  if (write_path == "--loo") {
    std::printf("Leave-one-point-out: each published point predicted by factors fitted without it\n");
    double worst = 0;
    std::vector<double> errs;
    for (const auto& r : leave_one_out()) {
      std::printf("%-40s %-10s predicted %12s  measured %12s %-14s error %+7.1f%%\n", r.id.c_str(), r.gpu.c_str(), format_fixed(r.predicted, r.measured < 100 ? 1 : 0, true).c_str(),
                  format_fixed(r.measured, r.measured < 100 ? 1 : 0, true).c_str(), r.unit.c_str(), r.error_pct());
      errs.push_back(std::fabs(r.error_pct()));
      worst = std::max(worst, std::fabs(r.error_pct()));
    }
    std::sort(errs.begin(), errs.end());
    std::printf("held-out median |error| %.1f%%, max %.1f%%\n", errs.empty() ? 0 : errs[errs.size() / 2], worst);
    return 0;
  }
  const FitResult f = fit_efficiency();
  auto show = [](const char* name, const Efficiency& e) {
    std::printf("%-10s gemm %.3f attention %.3f attention_hbm %.3f hbm %.3f nvlink %.3f rdma %.3f comm_latency_us %.1f step_overhead_ms %.2f tbo_overlap %.2f\n",
                name, e.gemm, e.attention, e.attention_hbm, e.hbm, e.nvlink, e.rdma, e.comm_latency_us, e.step_overhead_ms, e.tbo_overlap);
  };
  std::printf("DeepEP low-latency kernel fit (rdma, comm latency): rms log error %.3f\n", f.kernel_rms_log_error);
  for (const auto& k : deepep_low_latency_rows(f.family))
    std::printf("  EP%-4d dispatch %5.0f us (measured %4.0f)  combine %5.0f us (measured %4.0f)\n", k.ep, k.predicted_dispatch_us,
                k.dispatch_us, k.predicted_combine_us, k.combine_us);
  show("hopper", f.family);
  for (const auto& [g, e] : f.per_gpu) show(g.c_str(), e);
  std::printf("rms log error on the end-to-end points: %.3f\n", f.rms_log_error);
  if (write_path.empty()) return 0;
  std::ifstream in(write_path);
  if (!in) {
    std::cerr << "error: cannot read " << write_path << "\n";
    return 1;
  }
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(in, nullptr, false);
  if (doc.is_discarded()) {
    std::cerr << "error: " << write_path << " is not JSON\n";
    return 1;
  }
  auto eff_json = [](const Efficiency& e) {
    auto r = [](double x, double q) { return std::round(x / q) * q; };
    return nlohmann::ordered_json{{"gemm", r(e.gemm, 0.001)}, {"attention", r(e.attention, 0.001)}, {"attention_hbm", r(e.attention_hbm, 0.001)},
                {"hbm", r(e.hbm, 0.001)}, {"nvlink", r(e.nvlink, 0.001)}, {"rdma", r(e.rdma, 0.001)},
                {"comm_latency_us", r(e.comm_latency_us, 0.1)}, {"step_overhead_ms", r(e.step_overhead_ms, 0.01)}, {"tbo_overlap", r(e.tbo_overlap, 0.01)}};
  };
  // The Hopper fit is also the starting point for families without measurements.
  for (const char* fam : {"hopper", "blackwell", "ampere", "default"}) doc["efficiency_families"][fam] = eff_json(f.family);
  for (auto& g : doc["gpus"]) {
    const std::string id = g["id"];
    auto it = f.per_gpu.find(id);
    if (it == f.per_gpu.end()) continue;
    g["efficiency"] = eff_json(it->second);
    g["calibrated_on"] = f.points.at(id);
  }
  std::ofstream out(write_path);
  out << doc.dump(1, ' ', false) << "\n";
  std::printf("wrote %s (rebuild to compile it into the core)\n", write_path.c_str());
  return 0;
}

}  // namespace slo::cli
