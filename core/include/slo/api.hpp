// The core's string-in, string-out API shared by the CLI and the wasm bindings. Every function
// catches every exception and returns {"ok": false, "errors": [...]} instead: nothing escapes.
#pragma once
#include <functional>
#include <string>

namespace slo::api {

// options: {"lang": "en"|"zh", "method": "corrected"|"seed", "formats": ["json","text","markdown"]}
// -> {"ok", "errors", "scenario" (normalized), "minimal", "report", "text", "markdown"}
std::string evaluate(const std::string& scenario_json, const std::string& options_json);
// -> {"ok", "errors", "scenario", "minimal"}
std::string validate(const std::string& scenario_json, const std::string& lang);
std::string default_scenario();
// Model, GPU, scenario and reference presets, precision schemes and the scenario version.
std::string catalog(const std::string& lang);
std::string version();
// Configuration search. options: {"mode": "frontier"|"fewest", "gpus", "max_nodes", "colocated",
// "disaggregated", "mtp", "kv_fp8", "top", "lang"} -> {"ok", "errors", "gpus", "frontier": [point],
// "top": [point], "evaluated", "considered", "pruned"}; a point: tokens/s per GPU and per user,
// sessions, TTFT P50/P90 (ms), the targets it meets, a label, and the scenario document that applies
// it; "current": the scenario's own configuration as a point ("feasible": false when it serves none).
std::string search(const std::string& scenario_json, const std::string& options_json);
// The same with progress in [0, 1]; returning false cancels ("cancelled": true, partial result).
std::string search(const std::string& scenario_json, const std::string& options_json, const std::function<bool(double)>& progress);
// Launch commands for the scenario's deployment. options: {"engine": "sglang"|"vllm"|"trtllm"}
// -> {"ok", "errors", "engine", "commands": [{"role", "replicas", "nodes", "command", "yaml"}], "cannot": [...]}
std::string launch(const std::string& scenario_json, const std::string& options_json);

// A pasted benchmark output (sglang.bench_serving, vllm bench serve, genai-perf; text or JSON) made
// the scenario's reference measurement: -> {"ok", "errors", "benchmark" (what was read), "summary"
// (one line in `lang`), "scenario" (the minimal document with the run as reference, calibration off), "reference" (that
// reference object in full)}.
std::string paste_benchmark(const std::string& scenario_json, const std::string& bench_text, const std::string& lang);

}  // namespace slo::api
