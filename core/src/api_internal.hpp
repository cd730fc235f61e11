// Shared by the string API's translation units (api.cpp, api_search.cpp); not a public header.
#pragma once
#include <nlohmann/json.hpp>

#include "slo/scenario.hpp"

namespace slo::api {

// The normalized document with a configuration's fields (pools, MTP drafts, prefill chunk, decode
// batch cap, KV precision, nodes): what "Apply" puts in the page's editor.
nlohmann::json applied_document(const nlohmann::json& normalized, const Scenario& s);

}  // namespace slo::api
