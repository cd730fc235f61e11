// CLI subcommands that print tables from the core's benchmark and calibration functions.
#pragma once
#include <string>

namespace slo::cli {
int benchmarks(const std::string& format, const std::string& lang);
int fit(const std::string& write_path);
}  // namespace slo::cli
