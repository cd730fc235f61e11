// The string API's shared helpers (api_internal.hpp).
#include "api_internal.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo::api {

using nlohmann::json;

namespace {

json pool_json(const PoolConfig& p) {
  return json{{"gpus", p.gpus}, {"attention_tp", p.attention_tp}, {"ep", p.ep}, {"pp", p.pp}, {"redundant_experts", p.redundant_experts}, {"replicas", p.replicas},
              {"cpu_offload_gb", p.cpu_offload_gb}};
}

}  // namespace

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

json error_doc(const std::string& path, const std::string& message) {
  return json{{"ok", false}, {"errors", json::array({json{{"path", path}, {"value", ""}, {"expected", ""}, {"message", message}}})}};
}

json applied_document(const json& normalized, const Scenario& s) {
  json doc = normalized;
  const Deployment& d = s.deployment;
  json& dep = doc["deployment"];
  dep["mode"] = d.disaggregated ? "disaggregated" : "colocated";
  if (d.disaggregated) {
    dep["prefill"] = pool_json(d.prefill);
    dep["decode"] = pool_json(d.decode);
  } else {
    dep["colocated"] = pool_json(d.colocated);
  }
  dep["mtp"]["draft_tokens"] = d.mtp.draft_tokens;
  dep["chunked_prefill_tokens"] = d.chunked_prefill_tokens;
  dep["max_decode_batch_per_gpu"] = d.max_decode_batch_per_gpu > 0 ? json(d.max_decode_batch_per_gpu) : json(nullptr);
  doc["precision"]["kv_cache"] = dtype_name(s.precision.kv_cache);
  doc["hardware"]["nodes"] = s.nodes;
  return doc;
}


}  // namespace slo::api

SLO_SIZE_END
