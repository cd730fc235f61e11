// libFuzzer target: raw bytes as scenario text. The last byte picks language and method, so the
// corpus covers en/zh and corrected/seed without a second target.
#include <cstddef>
#include <cstdint>
#include <string>

#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint8_t selector = size > 0 ? data[size - 1] : 0;
  slo::fuzz::check_document(std::string(reinterpret_cast<const char*>(data), size), selector);
  return 0;
}
