// Data files compiled into the core (core/data): model configs, GPU presets with calibration,
// published measurements and the frozen scenario defaults. One source for CLI, tests and page.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace slo::data {

struct File {
  const char* path;   // relative to core/data, e.g. "models/deepseek-ai--DeepSeek-V3.json"
  const char* bytes;  // NUL-terminated
  std::size_t size;
};

const File* files_begin();
const File* files_end();

// Contents of one embedded file; throws std::out_of_range naming the path when absent.
std::string_view file(std::string_view path);
bool has_file(std::string_view path);
// Paths that start with `prefix`, sorted.
std::vector<std::string> list(std::string_view prefix);

}  // namespace slo::data
