#include "slo/api.hpp"

#include <algorithm>
#include <exception>

#include "api_internal.hpp"
#include "slo/analysis.hpp"
#include "slo/bench_output.hpp"
#include "slo/corrected_report.hpp"
#include "slo/scenario.hpp"
#include "slo/seed_method.hpp"
#include "slo/strict_json.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo::api {

using nlohmann::json;

namespace {

Lang parse_lang(const std::string& s) { return s == "zh" ? Lang::Zh : Lang::En; }

json errors_json(const std::vector<FieldError>& errors) {
  json a = json::array();
  for (const auto& e : errors) a.push_back(to_json(e));
  return a;
}

// `j` compact, with member `key` (a placeholder in `j`) written as the JSON text `raw`.
std::string dump_with(const json& j, const std::string& key, const std::string& raw) {
  if (!j.contains(key)) return dump(j);
  std::string s = "{";
  for (const auto& [k, v] : j.items()) {
    if (s.size() > 1) s += ',';
    s += dump(json(k)) + ':';
    s += k == key ? raw : dump(v);
  }
  return s + '}';
}

std::string text_of(const json& j) { return dump(j); }
std::string text_of(const std::string& s) { return s; }

// f() returns the document (a json, or its text); an exception becomes an error document.
template <class F>
std::string guarded(F&& f) {
  try {
    return text_of(f());
  } catch (const std::exception& e) {
    return dump(error_doc("(internal)", std::string("internal error: ") + e.what()));
  } catch (...) {
    return dump(error_doc("(internal)", "internal error"));
  }
}

}  // namespace

std::string evaluate(const std::string& scenario_json, const std::string& options_json) {
  return guarded([&]() -> std::string {
    json opts = options_json.empty() ? json::object() : parse_json(options_json, false);
    if (opts.is_discarded() || !opts.is_object()) return dump(error_doc("(options)", "options: invalid value; allowed: a JSON object"));
    Lang lang = parse_lang(opts.value("lang", std::string("en")));
    std::string method = opts.value("method", std::string("corrected"));
    if (method != "corrected" && method != "seed")
      return dump(error_doc("(options).method", "method: invalid value \"" + method + "\"; allowed: corrected, seed"));
    json formats = opts.value("formats", json::array({"json"}));
    ParseResult p = parse_scenario_text(scenario_json, lang);
    if (!p.ok) return dump(json{{"ok", false}, {"errors", errors_json(p.errors)}});
    json out{{"ok", true}, {"errors", json::array()}, {"scenario", p.normalized}, {"minimal", minimal_scenario(p.normalized, p.source)}};
    Report r;
    if (method == "seed") {
      r = seed_report(p.scenario, lang);
    } else {
      const Analysis a = analyse(p.scenario);
      r = corrected_report(a, lang);
      // The smallest cluster meeting every target, as the document that applies it (the headline's fix).
      if (!a.targets.all() && a.smallest.found) {
        Scenario rec = p.scenario;
        rec.deployment = a.smallest.deployment;
        rec.nodes = a.smallest.nodes;
        out["recommended"] = json{{"label", configuration_label(rec, lang)}, {"gpus", rec.cluster_gpus()}, {"scenario", applied_document(p.normalized, rec)}};
      }
    }
    auto want = [&](const char* f) {
      return formats.is_array() && std::find(formats.begin(), formats.end(), json(f)) != formats.end();
    };
    // The report's JSON is written as text (report_json.cpp) and spliced in at its key.
    std::string report;
    if (want("json")) {
      report = report_json_text(r);
      out["report"] = nullptr;
    }
    if (want("text")) out["text"] = render_text(r);
    if (want("markdown")) out["markdown"] = render_markdown(r);
    return dump_with(out, "report", report);
  });
}

std::string validate(const std::string& scenario_json, const std::string& lang) {
  return guarded([&]() -> json {
    ParseResult p = parse_scenario_text(scenario_json, parse_lang(lang));
    if (!p.ok) return json{{"ok", false}, {"errors", errors_json(p.errors)}};
    return json{{"ok", true}, {"errors", json::array()}, {"scenario", p.normalized}, {"minimal", minimal_scenario(p.normalized, p.source)}};
  });
}

std::string default_scenario() {
  return guarded([]() -> json { return default_scenario_json(); });
}

std::string catalog(const std::string& lang) {
  return guarded([&]() -> json {
    const bool zh = parse_lang(lang) == Lang::Zh;
    json models = json::array();
    for (const auto& m : model_presets())
      models.push_back(json{{"id", m.id}, {"name", m.name}, {"status", m.status}, {"note", zh ? m.note_zh : m.note},
                            {"published_total", m.published_total}, {"published_active", m.published_active}});
    json gpus = json::array();
    for (const auto& g : gpu_presets())
      gpus.push_back(json{{"id", g.id}, {"name", g.name}, {"memory_gb", g.memory_bytes / 1e9}, {"hbm_tb_s", g.hbm_bytes_s / 1e12},
                          {"bf16_tflops", g.bf16_flops / 1e12}, {"fp8_tflops", g.fp8_flops / 1e12}, {"int8_tops", g.int8_ops / 1e12},
                          {"fp4_tflops", g.fp4_flops / 1e12}, {"nvlink_gb_s", g.nvlink_bytes_s / 1e9}, {"nic_gb_s", g.nic_bytes_s / 1e9},
                          {"nvlink_domain", g.nvlink_domain}, {"peer_link", g.pcie_peers ? "pcie" : "nvlink"}, {"memory_kind", g.gddr ? "GDDR6" : "HBM"},
                          {"calibrated_figures", g.calibrated_figures}});
    return json{{"ok", true}, {"scenario_version", kScenarioVersion}, {"version", SLO_VERSION}, {"models", models}, {"gpus", gpus},
                {"scenario_presets", scenario_presets()}};
  });
}

std::string version() { return SLO_VERSION; }

std::string paste_benchmark(const std::string& scenario_json, const std::string& bench_text, const std::string& lang_code) {
  return guarded([&]() -> json {
    const Lang lang = parse_lang(lang_code);
    ParseResult p = parse_scenario_text(scenario_json, lang);
    if (!p.ok) return json{{"ok", false}, {"errors", errors_json(p.errors)}};
    BenchParse b = parse_bench_output(bench_text, lang);
    if (!b.ok) return json{{"ok", false}, {"errors", errors_json(b.errors)}};
    BenchReference r = bench_reference(b.out, p.normalized, lang);
    if (!r.ok) return json{{"ok", false}, {"errors", errors_json(r.errors)}};
    // The document must stand as a scenario (e.g. a run's lengths beyond the prefill chunk budget).
    json doc = p.source.is_object() ? p.source : json::object();
    doc["reference"] = r.document.at("reference");
    ParseResult check = parse_scenario(doc, lang);
    if (!check.ok) return json{{"ok", false}, {"errors", errors_json(check.errors)}};
    const BenchOutput& o = b.out;
    json read{{"tool", o.tool}, {"format", o.format}, {"requests", o.completed}, {"input_tokens", o.input_tokens}, {"output_tokens", o.output_tokens},
              {"concurrency", o.concurrency}, {"request_rate", o.request_rate}, {"ttft_mean_ms", o.ttft_mean_ms}, {"ttft_median_ms", o.ttft_median_ms},
              {"tpot_mean_ms", o.tpot_mean_ms}, {"itl_mean_ms", o.itl_mean_ms}, {"output_tokens_per_s", o.output_tokens_per_s},
              {"total_tokens_per_s", o.total_tokens_per_s}};
    return json{{"ok", true}, {"errors", json::array()}, {"benchmark", read}, {"summary", bench_summary(o, lang)},
                {"scenario", minimal_scenario(check.normalized, doc)},
                {"reference", check.normalized.at("reference")}};
  });
}

}  // namespace slo::api

SLO_SIZE_END
