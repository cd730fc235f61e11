// CLI subcommands that print tables from the core's benchmark and calibration functions.
#pragma once
#include <string>

namespace slo::cli {
// In-sample (or, with loso, leave-one-source-out) predictions of every published figure.
int benchmarks(const std::string& format, bool loso, const std::string& write_path);
int fit(const std::string& data_dir);
// The configuration search (api::search) as tables, or its JSON.
int search(const std::string& scenario, const std::string& options, const std::string& format);
}  // namespace slo::cli
