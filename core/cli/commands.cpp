#include "commands.hpp"

#include <iostream>

namespace slo::cli {
int benchmarks(const std::string&, const std::string&) {
  std::cerr << "benchmarks: not built yet\n";
  return 1;
}
int fit(const std::string&) {
  std::cerr << "fit: not built yet\n";
  return 1;
}
}  // namespace slo::cli
