// `slo-estimator search`: the configuration search through the string API, printed as tables.
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "slo/api.hpp"

namespace slo::cli {

using nlohmann::json;

namespace {

std::string pool(const json& p) {
  char b[160];
  const int r = p.value("replicas", 1), g = p.value("gpus", 0) / std::max(1, r);
  std::snprintf(b, sizeof b, "%dx%dGPU TP%d EP%d%s%s", r, g, p.value("attention_tp", 1), p.value("ep", 1),
                p.value("pp", 1) > 1 ? (" PP" + std::to_string(p.value("pp", 1))).c_str() : "",
                p.value("redundant_experts", 0) > 0 ? (" +" + std::to_string(p.value("redundant_experts", 0)) + "exp").c_str() : "");
  return b;
}

std::string layout(const json& s) {
  const json& d = s.at("deployment");
  std::string l = d.at("mode") == "disaggregated" ? "P " + pool(d.at("prefill")) + " | D " + pool(d.at("decode")) : "C " + pool(d.at("colocated"));
  l += ", MTP " + std::to_string(d.at("mtp").value("draft_tokens", 0)) + ", KV " + s.at("precision").value("kv_cache", std::string()) +
       ", chunk " + std::to_string(d.value("chunked_prefill_tokens", 0));
  const json& cap = d.at("max_decode_batch_per_gpu");
  l += ", batch/GPU " + (cap.is_null() ? std::string("engine limit") : std::to_string(cap.get<int>()));
  return l;
}

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
                p.value("sessions", 0.0), t50, t90, meets.c_str(), layout(p.at("scenario")).c_str());
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
  return 0;
}

}  // namespace slo::cli
