// Launch commands for a deployment: one command per node role (prefill, decode or colocated
// instance) for SGLang, vLLM or TensorRT-LLM (with its extra-options YAML). Each flag's meaning is
// cited from the engine's documentation in core/src/launch.cpp; a layout an engine cannot express is
// reported in words instead of a command that would run something else.
#pragma once
#include <string>
#include <vector>

#include "slo/scenario.hpp"

namespace slo {

struct LaunchCommand {
  std::string role;      // "colocated" | "prefill" | "decode"
  int replicas = 1;      // identical instances running this command
  int nodes = 1;         // nodes one instance spans (the command runs on each with its node rank)
  std::string command;   // the shell command (empty when the engine cannot express the layout)
  std::string yaml;      // TensorRT-LLM: the extra LLM API options file the command reads
};

struct LaunchPlan {
  std::string engine;    // "sglang" | "vllm" | "trtllm"
  std::vector<LaunchCommand> commands;
  std::vector<std::string> cannot;  // what the engine cannot express (English)
};

LaunchPlan launch_commands(const Scenario& s, const std::string& engine);

}  // namespace slo
