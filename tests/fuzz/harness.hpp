// Shared body of the fuzz targets: evaluates one document through the public string API and checks
// the invariants every answer must satisfy. Any violation aborts, which libFuzzer records as a crash.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace slo::fuzz {

// Evaluates `doc` (scenario text, untrusted) with the options chosen by `selector`, and validates it;
// aborts with a message on stderr when an invariant fails.
void check_document(const std::string& doc, uint8_t selector);

}  // namespace slo::fuzz
