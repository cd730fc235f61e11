// Shared by the string API's translation units (api.cpp, api_search.cpp); not a public header.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "slo/scenario.hpp"

namespace slo::api {

// The normalized document with a configuration's fields (pools, MTP drafts, prefill chunk, decode
// batch cap, KV precision, nodes): what "Apply" puts in the page's editor.
nlohmann::json applied_document(const nlohmann::json& normalized, const Scenario& s);

// A document as compact text (invalid UTF-8 replaced, never thrown), and the one-error document of
// a failure outside any scenario field.
std::string dump(const nlohmann::json& j);
nlohmann::json error_doc(const std::string& path, const std::string& message);

}  // namespace slo::api
