// Report stage: the section of a workload's own load kind (closed loop, static batch, burst): the
// figures a benchmark client of that kind prints, each with its held-out error band.
#pragma once
#include "slo/benchmarks.hpp"
#include "slo/evaluation.hpp"
#include "slo/report.hpp"

namespace slo {

void add_load_section(Report& r, const Evaluation& ev, const FigureBands& bands);

}  // namespace slo
