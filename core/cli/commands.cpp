#include "commands.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "slo/benchmarks.hpp"
#include "slo/report.hpp"

namespace slo::cli {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * (v.size() - 1);
  const std::size_t i = static_cast<std::size_t>(pos);
  return i + 1 < v.size() ? v[i] + (pos - i) * (v[i + 1] - v[i]) : v[i];
}

struct Summary {
  int n = 0;
  double median = 0, p90 = 0, worst = 0;
};
Summary summarise(const std::vector<BenchmarkRow>& rows) {
  std::vector<double> a;
  for (const auto& r : rows) a.push_back(std::fabs(r.error_pct()));
  Summary s;
  s.n = static_cast<int>(a.size());
  s.median = quantile(a, 0.5);
  s.p90 = quantile(a, 0.9);
  s.worst = a.empty() ? 0 : *std::max_element(a.begin(), a.end());
  return s;
}

// Groups rows by a key: regime, family, engine, kind, source.
template <class Key>
std::map<std::string, std::vector<BenchmarkRow>> group(const std::vector<BenchmarkRow>& rows, Key key) {
  std::map<std::string, std::vector<BenchmarkRow>> g;
  for (const auto& r : rows) g[key(r)].push_back(r);
  return g;
}

std::vector<double> errors(const std::vector<BenchmarkRow>& rows) {
  std::vector<double> e;
  for (const auto& r : rows) e.push_back(r.predicted / r.measured - 1.0);
  return e;
}

ojson band_json(const Band& b) {
  auto r = [](double x) { return std::round(x * 1e4) / 1e4; };
  return ojson{{"n", b.n}, {"err_lo", r(b.err_lo)}, {"err_hi", r(b.err_hi)}, {"lo_pct", r(b.lo_pct)}, {"hi_pct", r(b.hi_pct)},
               {"median_abs_pct", r(b.median_abs_pct)}};
}

void print_rows(const std::vector<BenchmarkRow>& rows, bool md) {
  if (md) std::cout << "| figure | source | GPU | engine | regime | predicted | measured | error |\n|---|---|---|---|---|---:|---:|---:|\n";
  for (const auto& r : rows) {
    const int digits = r.measured < 100 ? 1 : 0;
    const std::string pred = format_fixed(r.predicted, digits, true), meas = format_fixed(r.measured, digits, true);
    char err[32];
    std::snprintf(err, sizeof err, "%+.1f%%", r.error_pct());
    if (md)
      std::cout << "| " << r.label << " | " << r.source << " | " << r.gpu << " | " << r.engine << " | " << r.regime << " | " << pred << " "
                << r.unit << " | " << meas << " " << r.unit << " | " << err << " |\n";
    else
      std::printf("%-46s %-10s %-7s %-24s pred %11s meas %11s %-13s %8s\n", r.id.c_str(), r.gpu.c_str(), r.engine.c_str(), r.regime.c_str(),
                  pred.c_str(), meas.c_str(), r.unit.c_str(), err);
  }
}

template <class Key>
void print_groups(const char* title, const std::vector<BenchmarkRow>& rows, Key key, bool md) {
  std::printf(md ? "\n| %s | figures | median abs error | p90 | max | band (80%% of held-out errors) |\n|---|---:|---:|---:|---:|---|\n"
                 : "\n%-30s figures  median    p90     max   band\n",
              title);
  for (const auto& [k, g] : group(rows, key)) {
    const Summary s = summarise(g);
    const Band b = band_from_errors(k, errors(g));
    std::printf(md ? "| %s | %d | %.1f%% | %.1f%% | %.1f%% | %+.0f%% ... %+.0f%% |\n" : "%-30s %7d %6.1f%% %6.1f%% %6.1f%%   %+.0f%% ... %+.0f%%\n",
                k.c_str(), s.n, s.median, s.p90, s.worst, b.lo_pct, b.hi_pct);
  }
}

// The rows of fitted sources (validation-only sources left out).
std::vector<BenchmarkRow> fitted_rows(const std::vector<BenchmarkRow>& rows) {
  std::vector<BenchmarkRow> out;
  std::copy_if(rows.begin(), rows.end(), std::back_inserter(out), [](const BenchmarkRow& r) { return r.fitted; });
  return out;
}

int write_validation(const std::vector<BenchmarkRow>& rows, const std::string& path) {
  ojson doc;
  doc["about"] = "Error bands by regime from leave-one-source-out predictions (slo-estimator benchmarks --loso --write). "
                 "err_lo/err_hi: the shortest range of held-out errors (predicted / measured - 1) holding 80% of the regime's figures; "
                 "lo_pct/hi_pct: the same as a band on the truth around a prediction. A regime is validated with at least 5 figures.";
  doc["bands_from"] = "figures of fitted sources: the engine releases the profiles describe (validation-only sources, e.g. early-2025 "
                      "engines, count in overall but not in the bands)";
  const Summary all = summarise(rows);
  doc["overall"] = {{"n", all.n}, {"median_abs_pct", all.median}, {"p90_abs_pct", all.p90}, {"max_abs_pct", all.worst}};
  const std::vector<BenchmarkRow> fitted = fitted_rows(rows);
  const Summary f = summarise(fitted);
  doc["overall_fitted_sources"] = {{"n", f.n}, {"median_abs_pct", f.median}, {"p90_abs_pct", f.p90}, {"max_abs_pct", f.worst}};
  for (const auto& [k, g] : group(fitted, [](const BenchmarkRow& r) { return r.regime; })) doc["regimes"][k] = band_json(band_from_errors(k, errors(g)));
  for (const auto& [k, g] : group(fitted, [](const BenchmarkRow& r) { return figure_kind(r.metric); }))
    doc["kinds"][k] = band_json(band_from_errors(k, errors(g)));
  for (const auto& [k, g] : group(fitted, [](const BenchmarkRow& r) { return r.family; })) doc["families"][k] = g.size();
  std::ofstream out(path);
  if (!out) {
    std::cerr << "error: cannot write " << path << "\n";
    return 1;
  }
  out << doc.dump(1) << "\n";
  std::fprintf(stderr, "wrote %s (rebuild to compile it into the core)\n", path.c_str());
  return 0;
}

}  // namespace

int benchmarks(const std::string& format, bool loso, const std::string& write_path) {
  const auto rows = loso ? leave_one_source_out() : run_benchmarks();
  const Summary s = summarise(rows);
  if (format == "json") {
    json out = json::array();
    for (const auto& r : rows)
      out.push_back(json{{"id", r.id}, {"point", r.point}, {"source", r.source}, {"label", r.label}, {"gpu", r.gpu}, {"family", r.family},
                         {"engine", r.engine}, {"model", r.model}, {"metric", r.metric}, {"regime", r.regime}, {"unit", r.unit},
                         {"predicted", r.predicted}, {"measured", r.measured}, {"error_pct", r.error_pct()}, {"fitted", r.fitted},
                         {"assumptions", r.assumptions}});
    std::cout << json{{"mode", loso ? "leave-one-source-out" : "in-sample"}, {"rows", out}, {"median_abs_error_pct", s.median},
                      {"p90_abs_error_pct", s.p90}, {"max_abs_error_pct", s.worst}}
                     .dump(2)
              << "\n";
  } else {
    const bool md = format == "md";
    print_rows(rows, md);
    std::printf("\n%s: median |error| %.1f%%, p90 %.1f%%, max %.1f%% over %d figures\n", loso ? "leave-one-source-out" : "in-sample", s.median,
                s.p90, s.worst, s.n);
    const std::vector<BenchmarkRow> fitted = fitted_rows(rows);
    if (fitted.size() < rows.size()) {
      const Summary f = summarise(fitted);
      std::printf("  of which the %d figures of fitted sources: median %.1f%%, p90 %.1f%%, max %.1f%% (the other %zu are validation only)\n", f.n,
                  f.median, f.p90, f.worst, rows.size() - fitted.size());
    }
    print_groups("regime (family/kind/batch)", rows, [](const BenchmarkRow& r) { return r.regime; }, md);
    print_groups("GPU family", rows, [](const BenchmarkRow& r) { return r.family; }, md);
    print_groups("engine", rows, [](const BenchmarkRow& r) { return r.engine; }, md);
    print_groups("figure kind", rows, [](const BenchmarkRow& r) { return figure_kind(r.metric); }, md);
    print_groups("model", rows, [](const BenchmarkRow& r) { return r.model; }, md);
  }
  if (loso && !write_path.empty()) return write_validation(rows, write_path);
  return 0;
}

int fit(const std::string& data_dir) {
  const FitResult f = fit_calibration();
  std::printf("DeepEP low-latency kernel fit (rdma, comm latency): rms log error %.3f\n", f.kernel_rms_log_error);
  for (const auto& k : deepep_low_latency_rows(f.cal.family.at("hopper")))
    std::printf("  EP%-4d dispatch %5.0f us (measured %4.0f)  combine %5.0f us (measured %4.0f)\n", k.ep, k.predicted_dispatch_us,
                k.dispatch_us, k.predicted_combine_us, k.combine_us);
  for (const auto& [fam, e] : f.cal.family)
    std::printf("family %-10s gemm %.3f (weight-only x%.3f) hbm %.3f attention %.3f launch x%.2f all-reduce links %.3f (%zu figures)\n", fam.c_str(), e.gemm, e.weight_only_gemm, e.hbm, e.attention, e.launch_scale, e.allreduce_bw,
                f.fitted_on.count(fam) ? f.fitted_on.at(fam).size() : 0);
  for (const auto& [eng, o] : f.cal.engine)
    std::printf("engine %-8s step %.2f ms, kernel %.2f us (prefill %.1f us), sequence %.1f us, request %.1f ms, wait %.2f steps, frontend %.1f ms, MoE GEMM x%.2f, KV read x%.2f\n", eng.c_str(),
                o.step_ms, o.kernel_us, o.prefill_kernel_us, o.seq_us, o.request_ms, o.wait_steps, o.frontend_ms, o.moe_gemm, o.kv_read);
  std::printf("rms log error on the end-to-end figures: %.3f (%d predicted infeasible, left out of it)\n", f.rms_log_error, f.infeasible);
  if (data_dir.empty()) return 0;
  auto r = [](double x, double q) { return std::round(x / q) * q; };
  auto load = [](const std::string& p, ojson& doc) {
    std::ifstream in(p);
    doc = ojson::parse(in, nullptr, false);
    return in.good() || !doc.is_discarded();
  };
  ojson gpus, engines;
  if (!load(data_dir + "/gpus.json", gpus) || !load(data_dir + "/engines.json", engines)) {
    std::cerr << "error: cannot read gpus.json / engines.json in " << data_dir << "\n";
    return 1;
  }
  for (auto& [fam, e] : f.cal.family) {
    if (!gpus["efficiency_families"].contains(fam) || gpus["efficiency_families"][fam].contains("extrapolate_from")) continue;
    ojson& j = gpus["efficiency_families"][fam];
    j["gemm"] = r(e.gemm, 0.001);
    j["hbm"] = r(e.hbm, 0.001);
    j["attention"] = r(e.attention, 0.001);
    j["launch_scale"] = r(e.launch_scale, 0.001);
    j["allreduce_bw"] = r(e.allreduce_bw, 0.001);
    j["weight_only_gemm"] = r(e.weight_only_gemm, 0.001);
    if (fam == "hopper")
      j["rdma"] = r(e.rdma, 0.001), j["comm_latency_us"] = r(e.comm_latency_us, 0.1), j["comm_latency_growth"] = r(e.comm_latency_growth, 0.001);
    // Factors the fit holds at their priors are written too, so the core evaluates with what the fit used.
    j["allreduce_latency_us"] = r(e.allreduce_latency_us, 0.1);
    j["net_allreduce_latency_us"] = r(e.net_allreduce_latency_us, 0.1);
    j["fitted_on"] = f.fitted_on.count(fam) ? f.fitted_on.at(fam) : std::vector<std::string>{};
  }
  auto put = [&](ojson& j, const EngineOverheads& o) {
    j["step_ms"] = r(o.step_ms, 0.01);
    j["kernel_us"] = r(o.kernel_us, 0.01);
    j["prefill_kernel_us"] = r(o.prefill_kernel_us, 0.1);
    j["request_ms"] = r(o.request_ms, 0.1);
    j["seq_us"] = r(o.seq_us, 0.1);
    j["wait_steps"] = r(o.wait_steps, 0.01);
    j["frontend_ms"] = r(o.frontend_ms, 0.01);
    j["moe_gemm"] = r(o.moe_gemm, 0.001);
    j["kv_read"] = r(o.kv_read, 0.001);
  };
  for (auto& e : engines["engines"]) {
    const std::string id = e["id"];
    if (f.cal.engine.count(id)) put(e["overheads"], f.cal.engine.at(id));
    if (e.contains("builds"))
      for (auto& [platform, b] : e["builds"].items())
        if (f.cal.engine.count(id + "@" + platform)) put(b["overheads"], f.cal.engine.at(id + "@" + platform));
  }
  std::ofstream(data_dir + "/gpus.json") << gpus.dump(1) << "\n";
  std::ofstream(data_dir + "/engines.json") << engines.dump(2) << "\n";
  std::printf("wrote %s/gpus.json and %s/engines.json (rebuild to compile them into the core)\n", data_dir.c_str(), data_dir.c_str());
  return 0;
}

}  // namespace slo::cli
