// Embind registration only: the adapter is the core's string API, which never throws.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "slo/api.hpp"

namespace {

using SearchFn = std::string (*)(const std::string&, const std::string&);

// The search with a JS progress callback f(fraction in [0, 1]); a callback returning false cancels.
std::string search_progress(const std::string& scenario, const std::string& options, emscripten::val callback) {
  return slo::api::search(scenario, options, [&callback](double f) { return !callback(f).isFalse(); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(slo_core) {
  emscripten::function("evaluate", &slo::api::evaluate);
  emscripten::function("validate", &slo::api::validate);
  emscripten::function("defaultScenario", &slo::api::default_scenario);
  emscripten::function("catalog", &slo::api::catalog);
  emscripten::function("version", &slo::api::version);
  emscripten::function("search", static_cast<SearchFn>(&slo::api::search));
  emscripten::function("searchProgress", &search_progress);
  emscripten::function("launch", &slo::api::launch);
  emscripten::function("pasteBenchmark", &slo::api::paste_benchmark);
}
