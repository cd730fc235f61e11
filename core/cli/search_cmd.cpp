// `slo-estimator search`: the configuration search through the string API, printed as tables.
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "slo/api.hpp"

namespace slo::cli {

using nlohmann::json;

namespace {

void table(const char* title, const json& points) {
  std::printf("%s\n%12s %12s %9s %9s %9s  %-6s  %s\n", title, "tok/s/GPU", "tok/s/user", "sessions", "TTFT P50", "TTFT P90", "meets", "layout");
  for (const auto& p : points) {
    const json& m = p.at("meets");
    std::string meets;
    for (const char* k : {"memory", "concurrency", "throughput", "tpot", "ttft_p50", "ttft_p99"}) meets += m.value(k, false) ? '+' : '-';
    char t50[32] = "-", t90[32] = "-";
    if (p.value("ttft_known", false)) {
      std::snprintf(t50, sizeof t50, "%.0f ms", p.value("ttft_p50_ms", 0.0));
      std::snprintf(t90, sizeof t90, "%.0f ms", p.value("ttft_p90_ms", 0.0));
    }
    std::printf("%12.1f %12.1f %9.0f %9s %9s  %-6s  %s\n", p.value("tokens_per_s_per_gpu", 0.0), p.value("tokens_per_s_per_user", 0.0),
                p.value("sessions", 0.0), t50, t90, meets.c_str(), p.value("label", std::string()).c_str());
  }
}

}  // namespace

int search(const std::string& scenario, const std::string& options, const std::string& format) {
  const json r = json::parse(api::search(scenario, options));
  if (!r.value("ok", false)) {
    for (const auto& e : r.at("errors")) std::cerr << "error: " << e.value("message", "") << "\n";
    return 2;
  }
  if (format == "json") {
    std::cout << r.dump(2) << "\n";
    return 0;
  }
  std::printf("%s: %d GPUs; %d configurations, %d evaluations, %d skipped by bounds\n",
              r.at("mode") == "fewest" ? "Fewest GPUs meeting every target" : "Frontier for a budget of", r.value("gpus", 0),
              r.value("considered", 0), r.value("evaluated", 0), r.value("pruned", 0));
  std::printf("tokens/s per GPU in the throughput target's kind (%s); meets: memory, concurrency, throughput, TPOT, TTFT P50, TTFT P99\n\n",
              r.value("throughput_kind", std::string()).c_str());
  table("Pareto frontier (tokens/s per user ascending)", r.at("frontier"));
  std::printf("\n");
  table(r.at("top").empty() ? "No configuration meets every target" : "Configurations meeting every target", r.at("top"));
  if (r.at("current").value("feasible", false)) {
    std::printf("\n");
    table("The scenario's own configuration", json::array({r.at("current")}));
  }
  return 0;
}

}  // namespace slo::cli
