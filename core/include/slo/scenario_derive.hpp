// Scenario version 2: a field a document does not set follows the fields it does set (pool GPUs
// follow the cluster, EP follows the pool, precision follows the GPU). Version 1 documents are
// complete after migration, so nothing is derived for them and their meaning never changes.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "slo/hardware.hpp"
#include "slo/model.hpp"

namespace slo {

// True when the raw document `doc` sets the field at the dotted `path` (e.g. "deployment.mode").
bool document_sets(const nlohmann::json& doc, const std::string& path);

// Activations the document leaves unset become a format the GPU computes in with the weights; FP8
// scales it leaves unset are those of the model's FP8 release.
void derive_precision(nlohmann::json& precision, const nlohmann::json& doc, const Gpu& gpu, const ModelArch& m);

// Pools of the active mode the document leaves unset span the cluster (disaggregated: 1/4 prefill,
// the rest decode); an unset EP is 1 for a dense model, else the largest divisor of a pipeline
// stage that the experts (plus redundant replicas, adjusted when unset) split evenly.
void derive_deployment(nlohmann::json& deployment, const nlohmann::json& doc, const ModelArch& m, int cluster);

// A workload mean (input_tokens, output_tokens) the document sets above a maximum it leaves unset
// raises that maximum to the mean: lengths become fixed at the mean, as a bare mean says.
void derive_workload(nlohmann::json& workload, const nlohmann::json& doc);

// The name of a scenario whose document changes the model or hardware but not the name:
// "<model> on <gpus> x <GPU>" (the frozen name describes the frozen model and cluster only).
std::string derived_name(const std::string& model, int gpus, const std::string& gpu);

}  // namespace slo
