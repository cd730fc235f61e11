// The corrected method's full SLO report: memory, KV capacity, throughput, TPOT, TTFT percentiles,
// verdicts with margins, bottlenecks, recommendations and the seed-vs-corrected table.
#pragma once
#include "slo/report.hpp"
#include "slo/scenario.hpp"

namespace slo {

Report corrected_report(const Scenario& s, Lang lang);

}  // namespace slo
