// The string API's configuration search (api.hpp): options in, frontier and top configurations out,
// each configuration as the scenario document that applies it.
#include <algorithm>

#include "api_internal.hpp"
#include "slo/analysis.hpp"
#include "slo/api.hpp"
#include "slo/launch.hpp"
#include "slo/report.hpp"
#include "slo/scenario.hpp"
#include "slo/search.hpp"
#include "slo/strict_json.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo::api {

using nlohmann::json;

namespace {

json point_json(const json& normalized, const SearchPoint& p, Lang lang) {
  const TargetCheck& m = p.met;
  json j{{"mode", p.scenario.deployment.disaggregated ? "disaggregated" : "colocated"},
         {"label", configuration_label(p.scenario, lang)},
         {"gpus", p.gpus},
         {"tokens_per_s_per_gpu", p.tps_per_gpu},
         {"tokens_per_s_per_user", p.tps_per_user},
         {"sessions", p.sessions},
         {"ttft_known", p.ttft_known},
         {"meets", {{"memory", m.memory}, {"concurrency", m.concurrency}, {"throughput", m.throughput}, {"tpot", m.tpot},
                    {"ttft_p50", m.ttft_p50}, {"ttft_p99", m.ttft_p99}, {"all", m.all()}}},
         {"scenario", applied_document(normalized, p.scenario)}};
  if (p.ttft_known) {
    j["ttft_p50_ms"] = p.ttft_p50 * 1e3;
    j["ttft_p90_ms"] = p.ttft_p90 * 1e3;
  }
  return j;
}

// {"mode": "frontier"|"fewest", "gpus": N, "max_nodes": N, "colocated": bool, "disaggregated": bool,
//  "mtp": bool, "kv_fp8": bool, "top": N}
bool read_options(const json& o, SearchOptions& so, std::string& err) {
  if (!o.is_object()) return err = "options: invalid value; allowed: a JSON object", false;
  const std::string mode = o.value("mode", std::string("frontier"));
  if (mode != "frontier" && mode != "fewest") return err = "mode: invalid value \"" + mode + "\"; allowed: frontier, fewest", false;
  so.fewest = mode == "fewest";
  auto integer = [&](const char* k, int lo, int hi, int& out) {
    if (!o.contains(k) || o.at(k).is_null()) return true;
    if (!o.at(k).is_number_integer() || o.at(k).get<long long>() < lo || o.at(k).get<long long>() > hi)
      return err = std::string(k) + ": invalid value " + o.at(k).dump() + "; allowed: an integer from " + std::to_string(lo) + " to " + std::to_string(hi), false;
    out = o.at(k).get<int>();
    return true;
  };
  auto boolean = [&](const char* k, bool& out) {
    if (!o.contains(k) || o.at(k).is_null()) return true;
    if (!o.at(k).is_boolean()) return err = std::string(k) + ": invalid value " + o.at(k).dump() + "; allowed: true or false", false;
    out = o.at(k).get<bool>();
    return true;
  };
  return integer("gpus", 1, 4096, so.gpus) && integer("max_nodes", 1, 64, so.max_nodes) && integer("top", 1, 100, so.top) &&
         boolean("colocated", so.colocated) && boolean("disaggregated", so.disaggregated) && boolean("mtp", so.mtp) &&
         boolean("kv_fp8", so.kv_fp8);
}

}  // namespace

std::string search(const std::string& scenario_json, const std::string& options_json) { return search(scenario_json, options_json, {}); }

std::string search(const std::string& scenario_json, const std::string& options_json, const std::function<bool(double)>& progress) {
  try {
    json opts = options_json.empty() ? json::object() : parse_json(options_json, false);
    SearchOptions so;
    std::string err;
    if (opts.is_discarded() || !read_options(opts, so, err)) return dump(error_doc("(options)", err.empty() ? "options: invalid JSON" : err));
    const Lang lang = opts.value("lang", std::string("en")) == "zh" ? Lang::Zh : Lang::En;
    ParseResult p = parse_scenario_text(scenario_json, lang);
    if (!p.ok) {
      json errors = json::array();
      for (const auto& e : p.errors) errors.push_back(to_json(e));
      return dump(json{{"ok", false}, {"errors", errors}});
    }
    // The report's calibration applies to the search too.
    so.time_scale = analyse_time_scale(p.scenario);
    const SearchResult r = search_configurations(p.scenario, so, progress);
    json frontier = json::array(), top = json::array();
    for (const auto& x : r.frontier) frontier.push_back(point_json(p.normalized, x, lang));
    for (const auto& x : r.top) top.push_back(point_json(p.normalized, x, lang));
    const SearchPoint here = scenario_point(p.scenario, so.time_scale);
    json current = point_json(p.normalized, here, lang);
    current["feasible"] = here.gpus > 0;
    return dump(json{{"ok", true}, {"errors", json::array()}, {"mode", so.fewest ? "fewest" : "frontier"}, {"gpus", r.gpus},
                     {"throughput_kind", throughput_kind_name(p.scenario.slo.throughput_kind)},
                     {"tpot_limit_ms", p.scenario.slo.tpot_ms}, {"frontier", frontier}, {"top", top}, {"current", current},
                     {"evaluated", r.evaluated}, {"considered", r.considered}, {"pruned", r.pruned}, {"cancelled", r.cancelled}});
  } catch (const std::exception& e) {
    return dump(error_doc("(internal)", std::string("internal error: ") + e.what()));
  } catch (...) {
    return dump(error_doc("(internal)", "internal error"));
  }
}

std::string launch(const std::string& scenario_json, const std::string& options_json) {
  try {
    json opts = options_json.empty() ? json::object() : parse_json(options_json, false);
    if (opts.is_discarded() || !opts.is_object()) return dump(error_doc("(options)", "options: invalid value; allowed: a JSON object"));
    const std::string engine = opts.value("engine", std::string("sglang"));
    if (engine != "sglang" && engine != "vllm" && engine != "trtllm")
      return dump(error_doc("(options).engine", "engine: invalid value \"" + engine + "\"; allowed: sglang, vllm, trtllm"));
    ParseResult p = parse_scenario_text(scenario_json, opts.value("lang", std::string("en")) == "zh" ? Lang::Zh : Lang::En);
    if (!p.ok) {
      json errors = json::array();
      for (const auto& e : p.errors) errors.push_back(to_json(e));
      return dump(json{{"ok", false}, {"errors", errors}});
    }
    const LaunchPlan plan = launch_commands(p.scenario, engine);
    json cmds = json::array();
    for (const auto& c : plan.commands)
      cmds.push_back(json{{"role", c.role}, {"replicas", c.replicas}, {"nodes", c.nodes}, {"command", c.command}, {"yaml", c.yaml}});
    return dump(json{{"ok", true}, {"errors", json::array()}, {"engine", engine}, {"commands", cmds}, {"cannot", plan.cannot}});
  } catch (const std::exception& e) {
    return dump(error_doc("(internal)", std::string("internal error: ") + e.what()));
  }
}

}  // namespace slo::api

SLO_SIZE_END
