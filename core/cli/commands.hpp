// CLI subcommands that print tables from the core's benchmark and calibration functions.
#pragma once
#include <string>

namespace slo::cli {
// In-sample (or, with loso, leave-one-source-out) predictions of every published figure.
int benchmarks(const std::string& format, bool loso, const std::string& write_path);
int fit(const std::string& data_dir);
}  // namespace slo::cli
