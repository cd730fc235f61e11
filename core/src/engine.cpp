#include "slo/engine.hpp"

#include <nlohmann/json.hpp>

#include "slo/data.hpp"
#include "slo/errors.hpp"

namespace slo {

using nlohmann::json;

namespace {

MemoryFraction parse_memory_fraction(const std::string& s) {
  if (s == "weights_kv") return MemoryFraction::WeightsKv;
  if (s == "weights_activations_kv") return MemoryFraction::WeightsActivationsKv;
  if (s == "free_after_weights") return MemoryFraction::FreeAfterWeights;
  throw InternalError("engines.json: unknown memory_fraction " + s);
}

Engine read_engine(const json& j) {
  Engine e;
  e.id = j.at("id");
  e.name = j.at("name");
  e.memory_flag = j.value("memory_flag", "");
  e.memory_note = j.value("memory_note", "");
  e.memory_fraction = parse_memory_fraction(j.at("memory_fraction"));
  e.first_token_decode_step = j.value("first_token_decode_step", false);
  e.max_running_requests = j.value("max_running_requests", 4096);
  e.spec_max_running_requests = j.value("spec_max_running_requests", 0);
  e.cuda_graph_max_batch = j.value("cuda_graph_max_batch", 512);
  const json& o = j.at("overheads");
  e.overheads.step_ms = o.at("step_ms");
  e.overheads.kernel_us = o.at("kernel_us");
  e.overheads.prefill_kernel_us = o.at("prefill_kernel_us");
  e.overheads.seq_us = o.value("seq_us", 10.0);
  e.overheads.request_ms = o.at("request_ms");
  e.overheads.wait_steps = o.value("wait_steps", 1.5);
  e.overheads.frontend_ms = o.value("frontend_ms", 10.0);
  e.overheads.moe_gemm = o.value("moe_gemm", 1.0);
  e.overheads.prefill_ms = o.at("prefill_ms");
  e.overheads.pd_bootstrap_ms = o.at("pd_bootstrap_ms");
  const json& k = j.at("kernel");
  e.kernel.gemm = k.at("gemm");
  e.kernel.attention = k.at("attention");
  e.kernel.hbm = k.at("hbm");
  return e;
}

const json& doc() {
  static const json d = json::parse(data::file("engines.json"));
  return d;
}

}  // namespace

const std::vector<Engine>& engine_presets() {
  static const std::vector<Engine> list = [] {
    std::vector<Engine> out;
    for (const auto& j : doc().at("engines")) out.push_back(read_engine(j));
    return out;
  }();
  return list;
}

const Engine* find_engine(const std::string& id) {
  for (const auto& e : engine_presets())
    if (e.id == id) return &e;
  return nullptr;
}

const std::string& default_engine_id() {
  static const std::string id = doc().at("default");
  return id;
}

}  // namespace slo
