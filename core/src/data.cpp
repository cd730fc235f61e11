#include "slo/data.hpp"

#include <stdexcept>

#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo::data {

bool has_file(std::string_view path) {
  for (const File* f = files_begin(); f != files_end(); ++f)
    if (path == f->path) return true;
  return false;
}

std::string_view file(std::string_view path) {
  for (const File* f = files_begin(); f != files_end(); ++f)
    if (path == f->path) return std::string_view(f->bytes, f->size);
  throw std::out_of_range("embedded data file not found: " + std::string(path));
}

std::vector<std::string> list(std::string_view prefix) {
  std::vector<std::string> out;
  for (const File* f = files_begin(); f != files_end(); ++f) {
    std::string_view p(f->path);
    if (p.substr(0, prefix.size()) == prefix) out.emplace_back(p);
  }
  return out;
}

}  // namespace slo::data

SLO_SIZE_END
