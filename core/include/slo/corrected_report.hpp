// The corrected method's full SLO report: memory, KV capacity, throughput, TPOT, TTFT percentiles,
// verdicts with margins, bottlenecks, recommendations and the seed-vs-corrected table.
#pragma once
#include "slo/analysis.hpp"
#include "slo/report.hpp"
#include "slo/scenario.hpp"

namespace slo {

// The report stage: formats an analysis (no physics).
Report corrected_report(const Analysis& a, Lang lang);
// analyse(s), then the report.
Report corrected_report(const Scenario& s, Lang lang);

}  // namespace slo
