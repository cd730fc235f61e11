// Benchmark load kinds beside Poisson arrivals: a closed loop of C clients (bench_serving
// --max-concurrency), one static batch (bench_one_batch, vllm bench latency, TRT-LLM static runs)
// and a burst of N requests sent at once (request rate inf, no concurrency cap).
#pragma once
#include "slo/evaluation.hpp"
#include "slo/workload_result.hpp"

namespace slo {

// Closed loop: `concurrency` sessions always in flight, each finished request replaced at once; a
// finite run when the workload states `requests` (its first wave and tail count).
LoadResult closed_loop(const Evaluation& ev, double concurrency);
// The same loop without end (steady state), whatever the workload's `requests`: the sessions target.
LoadResult steady_closed_loop(const Evaluation& ev, double concurrency);
// One static batch of `batch` requests with the workload's (mean) lengths, prefilled together.
LoadResult static_batch(const Evaluation& ev, double batch);
// `requests` requests at once: the engine admits what its KV and request limits allow.
LoadResult burst(const Evaluation& ev, double requests);
// The workload's own load kind (Poisson -> not present).
LoadResult run_load(const Evaluation& ev);

}  // namespace slo
