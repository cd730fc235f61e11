// Benchmark outputs pasted by a user: the text or JSON result of `python -m sglang.bench_serving`,
// `vllm bench serve` (and benchmark_serving.py) and NVIDIA genai-perf / aiperf. The parser reads the
// request lengths, the load (concurrency or rate) and the measured TTFT / TPOT / throughput, and
// turns them into a reference-measurement patch of the scenario. The page never parses these.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/errors.hpp"
#include "slo/report.hpp"

namespace slo {

struct BenchOutput {
  std::string tool;                 // "sglang", "vllm" or "genai-perf"
  std::string format;               // "text" or "json"
  double completed = 0;             // successful requests
  double input_tokens = 0;          // mean per request
  double output_tokens = 0;         // mean per request
  double concurrency = 0;           // max request concurrency (0 = not set)
  double request_rate = 0;          // configured arrivals per second (0 = not set / inf)
  double request_throughput = 0;    // measured requests per second
  double output_tokens_per_s = 0;
  double total_tokens_per_s = 0;
  double ttft_mean_ms = 0, ttft_median_ms = 0, ttft_p99_ms = 0;
  double tpot_mean_ms = 0, tpot_median_ms = 0;
  double itl_mean_ms = 0;
  double e2e_mean_ms = 0;           // mean request latency
  // genai-perf's table does not print its --concurrency: Little's law (requests/s x mean latency).
  bool concurrency_inferred = false;
};

struct BenchParse {
  bool ok = false;
  BenchOutput out;
  std::vector<FieldError> errors;
};

// Recognises the tool and format; ok when the lengths and at least one latency or throughput are read.
BenchParse parse_bench_output(const std::string& text, Lang lang = Lang::En);

// One line saying what was read (report language): tool, requests, lengths, load and figures.
std::string bench_summary(const BenchOutput& b, Lang lang);

struct BenchReference {
  bool ok = false;
  nlohmann::json document;  // the scenario with the run as its reference measurement
  std::vector<FieldError> errors;
};

// The normalized scenario with the parsed run as its reference measurement (preset "custom",
// `measured.observed`): the run is taken as one of the scenario's own deployment (GPU, precision,
// pools), at the run's lengths and load (closed loop at the client cap, Poisson at a finite rate,
// else a burst of every request). Calibration stays off until the user turns it on.
BenchReference bench_reference(const BenchOutput& b, const nlohmann::json& normalized, Lang lang = Lang::En);

}  // namespace slo
