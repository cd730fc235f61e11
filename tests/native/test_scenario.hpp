// Shared by the physics tests: a partial scenario document (version 1 unless it says otherwise) applied to the frozen
// defaults. Throws (failing the test) with every error when the document does not parse.
#pragma once
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "slo/scenario.hpp"

namespace slo::test {

inline Scenario scenario(nlohmann::json patch) {
  if (!patch.contains("version")) patch["version"] = 1;  // version 2 for the fields added since
  ParseResult p = parse_scenario(patch);
  if (!p.ok) {
    std::string msg = "scenario does not parse:";
    for (const auto& e : p.errors) msg += " [" + e.path + ": " + e.message + "]";
    throw std::runtime_error(msg);
  }
  return p.scenario;
}

}  // namespace slo::test
