// Scenario version 2: derived defaults of the fields a document does not set.
#include "slo/scenario_derive.hpp"

#include <algorithm>

#include "slo/precision.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

using nlohmann::json;

bool document_sets(const json& doc, const std::string& path) {
  const json* at = &doc;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = path.find('.', start);
    std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!at->is_object()) return false;
    auto it = at->find(key);
    if (it == at->end()) return false;
    at = &*it;
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

namespace {

bool computes(const std::string& weights, const std::string& activations, const Gpu& gpu) {
  DType w, a, c;
  std::string en, zh;
  if (!parse_dtype(weights, w) || !parse_dtype(activations, a)) return false;
  return gemm_dtype(w, a, c, en, zh) && gpu.peak(c) > 0;
}

int get_int(const json& o, const char* key, int fallback) {
  auto it = o.find(key);
  return it != o.end() && it->is_number_integer() ? it->get<int>() : fallback;
}

// One pool: GPUs (when `gpus` > 0 and unset), attention TP, EP and redundant experts.
void derive_pool(json& pool, const json& doc, const std::string& base, const ModelArch& m, int gpus) {
  auto set = [&](const char* k) { return document_sets(doc, base + "." + k); };
  if (!pool.is_object()) return;
  if (gpus > 0 && !set("gpus")) pool["gpus"] = gpus;
  const int n = get_int(pool, "gpus", 0), pp = get_int(pool, "pp", 1);
  if (n < 1 || pp < 1 || n % pp != 0) return;
  const int stage = n / pp;
  const int atp = get_int(pool, "attention_tp", 1);
  if (!set("attention_tp") && atp > 0 && (stage % atp != 0 || (m.heads > 0 && m.heads % atp != 0))) pool["attention_tp"] = 1;
  const bool ep_set = set("ep"), r_set = set("redundant_experts");
  if (!m.is_moe()) {
    if (!ep_set) pool["ep"] = 1;
    if (!r_set) pool["redundant_experts"] = 0;
    return;
  }
  if (ep_set && r_set) return;
  const int experts = m.routed_experts, r_now = get_int(pool, "redundant_experts", 0);
  const int ep_given = get_int(pool, "ep", 0);
  for (int ep = ep_set ? ep_given : stage; ep >= 1; --ep) {
    if (ep_set && ep != ep_given) return;
    if (stage % ep != 0 || ep > experts) continue;
    // Redundant replicas (EPLB) keep EP a divisor of the expert slots: the frozen count when it
    // does and stays modest (<= 1/4 of the experts), else the fewest that do.
    int r = r_now;
    if (!r_set && ((experts + r) % ep != 0 || r > experts / 4)) r = (ep - experts % ep) % ep;
    if ((experts + r) % ep != 0 || m.moe_intermediate % (stage / ep) != 0) continue;
    if (!ep_set) pool["ep"] = ep;
    if (!r_set) pool["redundant_experts"] = r;
    return;
  }
}

}  // namespace

std::string derived_name(const std::string& model, int gpus, const std::string& gpu) {
  return model + " on " + std::to_string(gpus) + " x " + gpu;
}

void derive_precision(json& precision, const json& doc, const Gpu& gpu, const ModelArch& m) {
  if (!precision.is_object()) return;
  // FP8 scales follow the model's FP8 release (block-scaled for DeepSeek, Kimi, Qwen3, GLM).
  if (!document_sets(doc, "precision.fp8_scales")) precision["fp8_scales"] = m.fp8_block_release ? "block" : "tensor";
  if (document_sets(doc, "precision.activations")) return;
  const json& w = precision["weights"];
  const json& a = precision["activations"];
  if (!w.is_string() || !a.is_string()) return;
  for (const std::string& cand : {a.get<std::string>(), std::string("fp8"), std::string("bf16")}) {
    if (computes(w.get<std::string>(), cand, gpu)) {
      precision["activations"] = cand;
      return;
    }
  }
}

void derive_deployment(json& dep, const json& doc, const ModelArch& m, int cluster) {
  if (!dep.is_object() || cluster < 1) return;
  const json& mode = dep["mode"];
  if (mode == "disaggregated") {
    const bool pset = document_sets(doc, "deployment.prefill.gpus"), dset = document_sets(doc, "deployment.decode.gpus");
    int prefill = get_int(dep["prefill"], "gpus", 0), decode = get_int(dep["decode"], "gpus", 0);
    // Unset: a quarter of the cluster prefills, the rest decodes (8 + 24 of 32, the frozen split).
    if (!pset && !dset) prefill = std::max(1, cluster / 4), decode = cluster - prefill;
    else if (!pset) prefill = cluster - decode;
    else if (!dset) decode = cluster - prefill;
    derive_pool(dep["prefill"], doc, "deployment.prefill", m, prefill);
    derive_pool(dep["decode"], doc, "deployment.decode", m, decode);
  } else if (mode == "colocated") {
    derive_pool(dep["colocated"], doc, "deployment.colocated", m, cluster);
  }
}

void derive_workload(json& workload, const json& doc) {
  if (!workload.is_object()) return;
  // A mean the document sets above the default maximum raises the maximum to it (fixed lengths):
  // otherwise a new mean alone would fail against a maximum the user never touched.
  for (const char* k : {"input_tokens", "output_tokens"}) {
    const std::string max_key = std::string(k) + "_max";
    if (!document_sets(doc, std::string("workload.") + k) || document_sets(doc, "workload." + max_key)) continue;
    const json& mean = workload[k];
    const json& max = workload[max_key];
    if (mean.is_number() && max.is_number() && mean.get<double>() > max.get<double>()) workload[max_key] = mean;
  }
}

}  // namespace slo

SLO_SIZE_END
