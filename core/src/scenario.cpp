// Scenario documents: version migration, defaults, unknown-field detection and validation.
#include "slo/scenario.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <mutex>
#include <set>

#include "slo/data.hpp"
#include "slo/scenario_derive.hpp"
#include "slo/strict_json.hpp"
#include "scenario_fields.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

using nlohmann::json;

const char* throughput_kind_name(ThroughputKind k) {
  switch (k) {
    case ThroughputKind::Total: return "total";
    case ThroughputKind::Output: return "output";
    case ThroughputKind::Input: return "input";
  }
  return "total";
}

const char* load_kind_name(LoadKind k) {
  switch (k) {
    case LoadKind::Poisson: return "poisson";
    case LoadKind::ClosedLoop: return "closed_loop";
    case LoadKind::StaticBatch: return "static_batch";
    case LoadKind::Burst: return "burst";
  }
  return "poisson";
}

int Reference::gpus() const {
  return deployment.disaggregated ? deployment.prefill.gpus + deployment.decode.gpus : deployment.colocated.gpus;
}

// Parsed once per process (every parse and minimal document starts from them); never modified.
const json& defaults_for_version(int version) {
  static std::mutex lock;
  static std::map<int, json> parsed;
  const std::lock_guard<std::mutex> hold(lock);
  if (auto it = parsed.find(version); it != parsed.end()) return it->second;
  std::string path = "scenarios/defaults-v" + std::to_string(version) + ".json";
  if (!data::has_file(path)) throw InternalError("no frozen defaults for scenario version " + std::to_string(version));
  return parsed.emplace(version, json::parse(data::file(path))).first->second;
}

const json& default_scenario_json() { return defaults_for_version(kScenarioVersion); }

const json& scenario_presets() {
  static const json presets = json::parse(data::file("scenarios/presets.json"));
  return presets;
}

using namespace fields;

ParseResult parse_scenario(const json& doc, Lang lang) {
  ParseResult res;
  Errors E(lang);
  Reader R{E};
  auto fail = [&]() {
    res.ok = false;
    res.errors = E.list();
    return res;
  };
  if (!doc.is_object()) {
    E.add("(document)", &doc, "a JSON object with \"version\": 1", "含 \"version\": 1 的 JSON 对象");
    return fail();
  }
  const json* ver = R.at(doc, "version");
  if (!ver || !ver->is_number_integer() || ver->get<int64_t>() < 1 || ver->get<int64_t>() > kScenarioVersion) {
    if (ver && ver->is_number_integer() && ver->get<int64_t>() > kScenarioVersion)
      E.add_rule("version", ver, "is newer than this estimator", "比本估算器更新",
                 "an integer from 1 to " + std::to_string(kScenarioVersion) + " (update the estimator to open it)",
                 "1 到 " + std::to_string(kScenarioVersion) + " 的整数（请升级估算器后打开）");
    else
      E.add("version", ver, "an integer from 1 to " + std::to_string(kScenarioVersion), "1 到 " + std::to_string(kScenarioVersion) + " 的整数");
    return fail();
  }
  int version = static_cast<int>(ver->get<int64_t>());
  const bool derive = version >= 2;
  // Apply the document to the frozen defaults of its own version, then migrate to the current one.
  json merged = defaults_for_version(version);
  merge(merged, doc, "", E);
  // Unknown fields and non-objects where objects belong are skipped by the merge and reported; the
  // rest is still validated, so a document lists every error at once (issue 12, defect 11), and the
  // derivations below still run when those structural errors are the only ones.
  const std::size_t structural = E.size();
  auto clean = [&] { return E.size() == structural; };
  for (int v = version; v < kScenarioVersion; ++v) merged = migrate(std::move(merged), v);
  merged["version"] = kScenarioVersion;

  Scenario& s = res.scenario;
  s.version = kScenarioVersion;
  s.name = R.text(merged, "", "name", 200, false);

  // Model.
  const json& mo = R.object(merged, "", "model");
  const json* cfg = R.at(mo, "config");
  std::string preset_name = R.text(mo, "model", "name", 120, true);
  if (cfg && !cfg->is_null()) {
    if (cfg->is_object() && cfg->size() > 2000) {
      E.add("model.config", cfg, "a config.json object of at most 2000 keys", "不超过 2000 个键的 config.json 对象");
    } else if (parse_hf_config(*cfg, "model.config", s.model, E)) {
      s.model_preset = "custom";
      s.model.id = "custom";
      // A pasted config.json is named after the user's model.name, else its "_name_or_path" (the
      // repository id's last part), else its model_type.
      std::string repo_name;
      if (auto np = cfg->find("_name_or_path"); np != cfg->end() && np->is_string()) {
        repo_name = np->get<std::string>();
        repo_name = repo_name.substr(repo_name.find_last_of('/') == std::string::npos ? 0 : repo_name.find_last_of('/') + 1);
        if (repo_name.size() > 120) repo_name.clear();
      }
      s.model.name = !preset_name.empty() ? preset_name : !repo_name.empty() ? repo_name
                     : (s.model.model_type.empty() ? "Custom model" : s.model.model_type);
    }
  } else {
    std::vector<std::string> ids;
    for (const auto& p : model_presets()) ids.push_back(p.id);
    const json* pv = R.at(mo, "preset");
    if (pv && pv->is_string() && find_model_preset(pv->get<std::string>())) {
      s.model_preset = pv->get<std::string>();
      s.model = load_preset(s.model_preset);
      if (!preset_name.empty()) s.model.name = preset_name;
    } else {
      E.add("model.preset", pv, "one of: " + join(ids) + " (or set model.config to a config.json)",
            "以下之一：" + join(ids) + "（或在 model.config 中给出 config.json）");
    }
  }

  // Hardware.
  const json& hw = R.object(merged, "", "hardware");
  std::vector<std::string> gpu_ids;
  for (const auto& g : gpu_presets()) gpu_ids.push_back(g.id);
  gpu_ids.push_back("custom");
  s.gpu_id = R.choice(hw, "hardware", "gpu", gpu_ids);
  bool gpu_ok = true;
  if (s.gpu_id == "custom") gpu_ok = read_custom_gpu(R, R.at(hw, "custom_gpu"), s.gpu);
  else if (const Gpu* g = find_gpu(s.gpu_id)) s.gpu = *g;
  if (const json* cg = R.at(hw, "custom_gpu"); s.gpu_id != "custom" && cg && !cg->is_null())
    E.add_rule("hardware.custom_gpu", cg, "is set while hardware.gpu is \"" + s.gpu_id + "\"",
               "已设置，但 hardware.gpu 为 \"" + s.gpu_id + "\"", "unset unless hardware.gpu is \"custom\"",
               "除非 hardware.gpu 为 \"custom\"，否则不设置");
  s.nodes = R.integer(hw, "hardware", "nodes", 1, 4096);
  s.gpus_per_node = R.integer(hw, "hardware", "gpus_per_node", 1, 576);
  // Same lower bounds as a custom GPU's links (1 and 0.1 GB/s): a slower link is not a deployment.
  double nvl = R.number(hw, "hardware", "nvlink_gb_s", 1, 100000, false, true, 0);
  double nic = R.number(hw, "hardware", "nic_gb_s", 0.1, 100000, false, true, 0);
  s.gpu_hour_usd = R.number(hw, "hardware", "gpu_hour_usd", 0.01, 1000, false, true, 0);
  if (nvl > 0) s.gpu.nvlink_bytes_s = nvl * 1e9;
  if (nic > 0) s.gpu.nic_bytes_s = nic * 1e9;
  if (gpu_ok && s.gpus_per_node > s.gpu.nvlink_domain && s.gpu.nvlink_domain > 0)
    E.add_rule("hardware.gpus_per_node", R.at(hw, "gpus_per_node"),
               "exceeds the NVLink domain of " + s.gpu.name + " (" + std::to_string(s.gpu.nvlink_domain) + ")",
               "超过 " + s.gpu.name + " 的 NVLink 域（" + std::to_string(s.gpu.nvlink_domain) + "）",
               "at most " + std::to_string(s.gpu.nvlink_domain), "不超过 " + std::to_string(s.gpu.nvlink_domain));

  if (derive && clean() && !document_sets(doc, "name") && (document_sets(doc, "model") || document_sets(doc, "hardware"))) {
    std::string gpu_label = s.gpu_id;  // "h20-96g" -> "H20-96G", as in the frozen name
    for (char& c : gpu_label) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    s.name = derived_name(s.model.name, s.cluster_gpus(), s.gpu_id == "custom" ? s.gpu.name : gpu_label);
    merged["name"] = s.name;
  }
  // Precision (version 2: unset activations follow what the GPU computes in).
  if (derive && gpu_ok && clean()) derive_precision(merged["precision"], doc, s.gpu, s.model);
  const json& pr = R.object(merged, "", "precision");
  s.precision = read_precision(R, pr, "precision");
  if (gpu_ok && clean()) check_precision_on_gpu(R, s.precision, s.gpu, "precision", pr);

  // Deployment.
  const int cluster = s.cluster_gpus();
  const std::string cluster_desc = std::to_string(s.nodes) + " x " + std::to_string(s.gpus_per_node) + " = " + std::to_string(cluster) + " GPUs";
  if (derive && clean()) derive_deployment(merged["deployment"], doc, s.model, cluster);
  const json& dep = R.object(merged, "", "deployment");
  s.deployment = read_deployment(R, dep, "deployment", cluster);
  select_for_gpu(s.deployment.engine, s.gpu, s.deployment.engine_version);

  // Workload and SLO.
  if (derive && clean()) derive_workload(merged["workload"], doc);
  s.workload = read_workload(R, R.object(merged, "", "workload"), "workload");
  const json& slo = R.object(merged, "", "slo");
  s.slo.concurrent_sessions = R.number(slo, "slo", "concurrent_sessions", 0, 1e9, true, true, 0, true);
  s.slo.throughput_tokens_per_s = R.number(slo, "slo", "throughput_tokens_per_s", 0, 1e12, false, true, 0, true);
  s.slo.throughput_kind = read_kind(R, slo, "slo", "throughput_kind");
  s.slo.ttft_p50_ms = R.number(slo, "slo", "ttft_p50_ms", 0, 1e9, false, true, 0, true);
  s.slo.ttft_p99_ms = R.number(slo, "slo", "ttft_p99_ms", 0, 1e9, false, true, 0, true);
  s.slo.tpot_ms = R.number(slo, "slo", "tpot_ms", 0, 1e6, false, true, 0, true);

  // Reference measurement.
  const json& ref = R.object(merged, "", "reference");
  Reference& rf = s.reference;
  const json* rp = R.at(ref, "preset");
  rf.id = rp && rp->is_string() ? rp->get<std::string>() : "";
  if (!rp || !rp->is_string() || rf.id.empty() || rf.id.size() > 80)
    E.add("reference.preset", rp, "a published point id, \"custom\" or \"none\"", "已发布测量点的 id、\"custom\" 或 \"none\"");
  rf.present = rf.id != "none";
  rf.name = R.text(ref, "reference", "name", 200, true);
  rf.source = R.text(ref, "reference", "source", 400, true);
  std::vector<std::string> preset_ids;
  for (const auto& g : gpu_presets()) preset_ids.push_back(g.id);
  rf.gpu_id = R.choice(ref, "reference", "gpu", preset_ids);
  if (const Gpu* g = find_gpu(rf.gpu_id)) rf.gpu = *g;
  rf.gpus_per_node = R.integer(ref, "reference", "gpus_per_node", 1, 576);
  const json& rpr = R.object(ref, "reference", "precision");
  rf.precision = read_precision(R, rpr, "reference.precision");
  const json& rdep = R.object(ref, "reference", "deployment");
  rf.deployment = read_deployment(R, rdep, "reference.deployment", 1 << 20);
  select_for_gpu(rf.deployment.engine, rf.gpu, rf.deployment.engine_version);
  rf.workload = read_workload(R, R.object(ref, "reference", "workload"), "reference.workload");
  const json& meas = R.object(ref, "reference", "measured");
  rf.measured_tokens_per_s = R.number(meas, "reference.measured", "throughput_tokens_per_s", 0, 1e12, false, false, 0, true);
  rf.measured_kind = read_kind(R, meas, "reference.measured", "throughput_kind");
  rf.tpot_limit_ms = R.number(meas, "reference.measured", "tpot_ms", 0, 1e6, false, true, 0, true);
  rf.ttft_limit_ms = R.number(meas, "reference.measured", "ttft_ms", 0, 1e9, false, true, 0, true);
  rf.measured_qpm = R.number(meas, "reference.measured", "qpm", 0, 1e9, false, true, 0, true);
  rf.observed = R.boolean(meas, "reference.measured", "observed");
  rf.calibrate = R.boolean(ref, "reference", "calibrate");

  // Cross-field rules that need the model (only once the fields themselves are valid).
  if (clean()) {
    check_deployment(R, s.deployment, s.model, dep, "deployment", cluster, cluster_desc);
    check_prefill_chunks(R, s.deployment, s.workload, dep, "deployment");
    if (rf.present && derive && !document_sets(doc, "reference")) {
      skip_unfitting_reference(s, rdep, rpr, lang);
      // The normalized document says so: parsed again, it must mean the same (no reference), not
      // an explicit reference the model does not fit (found by the structured fuzzer).
      if (!rf.present) merged["reference"]["preset"] = "none", rf.id = "none";
    }
    if (rf.present) check_prefill_chunks(R, rf.deployment, rf.workload, rdep, "reference.deployment");
    if (rf.present) {
      check_deployment(R, rf.deployment, s.model, rdep, "reference.deployment", 1 << 20, "");
      check_precision_on_gpu(R, rf.precision, rf.gpu, "reference.precision", rpr);
      if (rf.gpus_per_node > rf.gpu.nvlink_domain)
        E.add_rule("reference.gpus_per_node", R.at(ref, "gpus_per_node"), "exceeds the NVLink domain of " + rf.gpu.name,
                   "超过 " + rf.gpu.name + " 的 NVLink 域", "at most " + std::to_string(rf.gpu.nvlink_domain),
                   "不超过 " + std::to_string(rf.gpu.nvlink_domain));
    }
  }
  if (!E.empty()) return fail();
  res.ok = true;
  res.normalized = merged;
  res.source = doc;
  return res;
}

ParseResult parse_scenario_text(const std::string& text, Lang lang) {
  ParseResult res;
  Errors E(lang);
  if (text.size() > (1u << 22)) {
    json n = static_cast<double>(text.size());
    E.add("(document)", &n, "a JSON document of at most 4 MiB", "不超过 4 MiB 的 JSON 文档");
    res.errors = E.list();
    return res;
  }
  // Refuse hostile nesting before parsing: deep arrays would exhaust the stack of recursive code
  // (wasm has a small fixed stack). Real scenarios nest 5 levels; config.json files fewer than 10.
  int depth = 0, max_depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') max_depth = std::max(max_depth, ++depth);
    else if (c == '}' || c == ']') --depth;
  }
  if (max_depth > 32) {
    json n = max_depth;
    E.add("(document)", &n, "JSON nested at most 32 levels deep", "嵌套不超过 32 层的 JSON");
    res.errors = E.list();
    return res;
  }
  // Strict: a duplicate key, a NUL byte or trailing bytes make the document invalid (one link, one meaning).
  StrictJsonResult parsed = parse_strict_json(text);
  if (!parsed.ok) {
    json snippet = parsed.key.empty() ? json(text.substr(0, std::min<std::size_t>(60, text.find('\0')))) : json(parsed.key);
    if (parsed.problem_en.rfind("is not valid JSON", 0) == 0) E.add("(document)", &snippet, "valid JSON", "合法的 JSON");
    else E.add_rule(parsed.path, &snippet, parsed.problem_en, parsed.problem_zh, "strict JSON: each key once, no NUL, nothing after the document",
                    "严格 JSON：每个键只出现一次，无 NUL 字节，文档之后无多余内容");
    res.errors = E.list();
    return res;
  }
  return parse_scenario(parsed.doc, lang);
}

namespace {
json diff(const json& full, const json& defaults, const std::string& path) {
  json out = json::object();
  for (auto it = full.begin(); it != full.end(); ++it) {
    const std::string p = path.empty() ? it.key() : path + "." + it.key();
    auto d = defaults.find(it.key());
    if (d == defaults.end()) {
      out[it.key()] = it.value();
    } else if (it.value().is_object() && d->is_object() && !free_form(p)) {
      json sub = diff(it.value(), *d, p);
      if (!sub.empty()) out[it.key()] = sub;
    } else if (it.value() != *d) {
      out[it.key()] = it.value();
    }
  }
  return out;
}

// Deep merge of plain objects (free-form fields replaced whole).
void overlay(json& base, const json& patch, const std::string& path) {
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    const std::string p = path.empty() ? it.key() : path + "." + it.key();
    if (it.value().is_object() && !free_form(p) && base.contains(it.key()) && base[it.key()].is_object()) overlay(base[it.key()], it.value(), p);
    else base[it.key()] = it.value();
  }
}

}  // namespace

json minimal_scenario(const json& normalized, const json& source) {
  const json& defaults = default_scenario_json();
  json out;
  if (source.is_object() && source.value("version", 0) >= 2) {
    json given = defaults;  // what the document sets, minus what equals the defaults
    overlay(given, source, "");
    out = diff(given, defaults, "");
  } else {
    out = diff(normalized, defaults, "");
  }
  out["version"] = kScenarioVersion;
  // Version 2 derives what a document leaves out: add every field that would derive differently
  // (e.g. a version 1 document's frozen pool or name) until the document parses back to itself.
  for (int round = 0; round < 4; ++round) {
    ParseResult p = parse_scenario(out);
    if (!p.ok) {
      out = diff(normalized, defaults, "");
      out["version"] = kScenarioVersion;
      break;
    }
    json missing = diff(normalized, p.normalized, "");
    if (missing.empty()) break;
    overlay(out, missing, "");
  }
  return out;
}

}  // namespace slo

SLO_SIZE_END
