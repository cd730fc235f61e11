// Embind registration only: the adapter is the core's string API, which never throws.
#include <emscripten/bind.h>

#include "slo/api.hpp"

EMSCRIPTEN_BINDINGS(slo_core) {
  emscripten::function("evaluate", &slo::api::evaluate);
  emscripten::function("validate", &slo::api::validate);
  emscripten::function("defaultScenario", &slo::api::default_scenario);
  emscripten::function("catalog", &slo::api::catalog);
  emscripten::function("version", &slo::api::version);
  emscripten::function("search", &slo::api::search);
  emscripten::function("launch", &slo::api::launch);
}
