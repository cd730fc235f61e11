// The scenario: a versioned JSON document (model, precision, hardware and cluster, deployment,
// workload, SLO targets, reference measurement). A document may be partial: every omitted field
// takes the frozen default of its version (core/data/scenarios/defaults-v<N>.json), so old files
// and share links keep their meaning. Parsing and validation live here.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/engine.hpp"
#include "slo/errors.hpp"
#include "slo/hardware.hpp"
#include "slo/model.hpp"
#include "slo/precision.hpp"

namespace slo {

// Version 2 (derived defaults, see scenario_derive.hpp); version 1 documents migrate unchanged.
constexpr int kScenarioVersion = 2;

// One pool of GPUs serving one phase (or both, colocated): `replicas` identical instances of
// gpus / replicas GPUs each, every instance with its own attention TP / DP / EP / PP (they share no
// EP traffic and do not stall each other; requests are balanced across them).
struct PoolConfig {
  int gpus = 0;                // GPUs of the whole pool (all instances)
  int attention_tp = 1;        // attention tensor parallel; DP attention degree = instance GPUs / pp / attention_tp
  int ep = 1;                  // expert parallel within an instance; MoE TP inside an EP rank = instance GPUs / pp / ep
  int pp = 1;                  // pipeline stages
  int redundant_experts = 0;   // extra expert replicas per MoE layer (EPLB)
  int replicas = 1;            // identical instances (1 = the whole pool is one instance)
  double cpu_offload_gb = 0;   // weights per GPU kept in host memory, streamed in every forward pass (--cpu-offload-gb)
  int instance_gpus() const { return gpus / replicas; }
  int dp_attention() const { return gpus / pp / attention_tp; }  // DP groups of the whole pool
  int instance_dp() const { return instance_gpus() / pp / attention_tp; }
  int moe_tp() const { return instance_gpus() / pp / ep; }
};

struct Mtp {
  int draft_tokens = 0;      // 0 = off
  double acceptance = 0.7;   // per-draft acceptance probability
};

// How requests arrive: an open Poisson stream (the rate from arrival_qpm or the throughput target),
// a closed loop of `concurrency` clients (bench_serving --max-concurrency), one static batch of
// `batch` requests (bench_one_batch, vllm bench latency), or a burst of `requests` sent at once.
enum class LoadKind { Poisson, ClosedLoop, StaticBatch, Burst };
const char* load_kind_name(LoadKind k);

struct Workload {
  LoadKind kind = LoadKind::Poisson;
  double concurrency = 0;  // closed loop
  double batch = 0;        // static batch
  double requests = 0;     // burst
  double input_tokens = 512;       // mean
  double input_tokens_max = 512;
  double output_tokens = 1200;     // mean
  double output_tokens_max = 1200;
  double context_length = 32768;   // context a session must be able to hold (capacity target)
  double arrival_qpm = 0;          // 0 = the rate that delivers the throughput target
};

enum class ThroughputKind { Total, Output, Input };
const char* throughput_kind_name(ThroughputKind k);

struct Slo {
  double concurrent_sessions = 200;
  double throughput_tokens_per_s = 50000;
  ThroughputKind throughput_kind = ThroughputKind::Total;
  double ttft_p50_ms = 800;
  double ttft_p99_ms = 0;  // 0 = no target
  double tpot_ms = 50;
};

struct Deployment {
  bool disaggregated = false;
  PoolConfig colocated, prefill, decode;
  double memory_fraction = 0.9;  // 0: unset, the engine's automatic choice (memory_fraction_of)
  // Offloaded weights cross the host link as each layer runs ("on_demand": --cpu-offload-gb, the GPU
  // waits) or ahead of it while earlier layers compute ("prefetch": SGLang's offloader v2, vLLM's
  // prefetch backend).
  bool offload_prefetch = false;
  std::string two_batch_overlap = "auto";  // "on" | "off" | "auto"
  // Expert-parallel load balance: mean / max tokens per EP rank (1 = perfect). 0 = automatic:
  // 1 without EP, 0.8 with redundant experts (EPLB), 0.7 without.
  double expert_balance = 0;
  double balance(int ep, int redundant) const {
    if (expert_balance > 0) return expert_balance;
    return ep <= 1 ? 1.0 : redundant > 0 ? 0.8 : 0.7;
  }
  int chunked_prefill_tokens = 8192;
  int max_decode_batch_per_gpu = 0;        // 0 = chosen by the model
  Mtp mtp;
  Engine engine;               // the serving engine's profile (deployment.engine.name)
  const PoolConfig& decode_or_colocated() const { return disaggregated ? decode : colocated; }
  std::string engine_version;  // as the user states it ("" = not stated)
};

struct Reference {
  bool present = true;
  std::string id;  // published point id or "custom"
  std::string name;
  std::string source;
  std::string gpu_id;
  Gpu gpu;
  int gpus_per_node = 8;
  Precision precision;
  Deployment deployment;
  Workload workload;
  double measured_tokens_per_s = 0;
  ThroughputKind measured_kind = ThroughputKind::Total;
  double tpot_limit_ms = 50;
  double ttft_limit_ms = 0;
  double measured_qpm = 0;
  // false: TPOT/TTFT are the limits the throughput was measured under (published capacity points);
  // true: all figures were observed at the workload's own load (a benchmark run, e.g. a pasted one).
  bool observed = false;
  bool calibrate = false;  // project the target with the efficiency this measurement implies
  int gpus() const;
};

struct Scenario {
  int version = kScenarioVersion;
  std::string name;
  std::string model_preset;  // preset id, or "custom" when model.config is given
  ModelArch model;
  Precision precision;
  std::string gpu_id;  // preset id or "custom"
  Gpu gpu;             // resolved (preset or custom), with link overrides applied
  int nodes = 4;
  int gpus_per_node = 8;
  double gpu_hour_usd = 0;  // price of one GPU-hour (0: not stated, no cost in the report)
  Deployment deployment;
  Workload workload;
  Slo slo;
  Reference reference;
  // What parsing decided for the user (e.g. a reference that does not fit the model, not applied).
  std::vector<std::string> notes;

  int cluster_gpus() const { return nodes * gpus_per_node; }
};

struct ParseResult {
  bool ok = false;
  Scenario scenario;
  nlohmann::json normalized;  // the full document (defaults applied), when ok
  nlohmann::json source;      // the document as given (version 2: what it sets, the rest is derived)
  std::vector<FieldError> errors;
};

// The current version's default scenario (the seed's case), as a full document.
const nlohmann::json& default_scenario_json();
// Frozen defaults of a released version (throws InternalError for an unknown version).
const nlohmann::json& defaults_for_version(int version);
// Parses and validates a (possibly partial) document; errors in the requested language.
ParseResult parse_scenario(const nlohmann::json& doc, Lang lang = Lang::En);
ParseResult parse_scenario_text(const std::string& text, Lang lang = Lang::En);
// The smallest document that parses to the same scenario (fields equal to the defaults dropped).
// `source` (the parsed document) keeps version 2 fields derived when they still derive to the same
// value; the result always parses back to `normalized`.
nlohmann::json minimal_scenario(const nlohmann::json& normalized, const nlohmann::json& source = nlohmann::json());

// Scenario presets shipped with the page and CLI (core/data/scenarios/presets.json).
const nlohmann::json& scenario_presets();

}  // namespace slo
