// Report stage: a held-out error band (analysis) as the report shows it, in the report's language.
#pragma once
#include "slo/benchmarks.hpp"
#include "slo/report.hpp"

namespace slo {

// "-9% ... +14%, 31 validated figures" or "-35% ... +60%, extrapolated: no published measurement on
// blackwell GPUs" (zh likewise).
ValueBand band_value(const Band& b, Lang lang);
// Attaches the band to a value that carries a number.
Value with_band(Value v, const Band& b, Lang lang);

// Attaches the scenario's bands to the predicted verdicts (throughput, TPOT, TTFT).
void attach_bands(Report& r, const FigureBands& f);

}  // namespace slo
