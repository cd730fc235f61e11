// The report's error bands (issue 9): a regime's band from held-out errors, and the bands a
// prediction carries, read from core/data/validation.json (written by `slo-estimator benchmarks
// --loso --write`).
#include <algorithm>
#include <cmath>

#include "slo/benchmarks.hpp"
#include "slo/data.hpp"
#include "slo/evaluation.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

using nlohmann::json;

namespace {
// The band on the truth from the band on the error: a prediction P with error e = P / M - 1 means the
// truth is M = P / (1 + e).
void set_truth_range(Band& b) {
  b.lo_pct = (1.0 / (1.0 + b.err_hi) - 1.0) * 100.0;
  b.hi_pct = (1.0 / (1.0 + b.err_lo) - 1.0) * 100.0;
}
}  // namespace

Band band_from_errors(const std::string& regime, std::vector<double> errors) {
  Band b;
  b.regime = regime;
  b.n = static_cast<int>(errors.size());
  b.validated = b.n >= kMinValidated;
  if (errors.empty()) return b;
  std::sort(errors.begin(), errors.end());
  // Shortest window holding ceil(0.8 n) sorted errors: covers at least 80% of them.
  const std::size_t k = static_cast<std::size_t>(std::ceil(0.8 * errors.size()));
  std::size_t best = 0;
  for (std::size_t i = 0; i + k <= errors.size(); ++i)
    if (errors[i + k - 1] - errors[i] < errors[best + k - 1] - errors[best]) best = i;
  b.err_lo = errors[best];
  b.err_hi = errors[best + k - 1];
  set_truth_range(b);
  std::vector<double> a;
  for (double e : errors) a.push_back(std::fabs(e));
  std::sort(a.begin(), a.end());
  b.median_abs_pct = a[a.size() / 2] * 100.0;
  return b;
}

namespace {

Band read_band(const json& j, const std::string& regime) {
  Band b;
  b.regime = regime;
  b.n = j.at("n");
  b.validated = b.n >= kMinValidated;
  b.err_lo = j.at("err_lo");
  b.err_hi = j.at("err_hi");
  set_truth_range(b);  // the file's lo_pct / hi_pct / median_abs_pct are for the docs (the wasm's copy drops them)
  return b;
}

}  // namespace

Band band_for(const std::string& family, const std::string& kind, const std::string& batch) {
  static const json v = data::has_file("validation.json") ? json::parse(data::file("validation.json")) : json::object();
  const std::string regime = family + "/" + kind + "/" + batch;
  if (v.contains("regimes") && v.at("regimes").contains(regime)) {
    Band b = read_band(v.at("regimes").at(regime), regime);
    if (b.validated) return b;
  }
  // Too few held-out figures in this regime: the figure kind's band over every family and load.
  Band b;
  if (v.contains("kinds") && v.at("kinds").contains(kind)) b = read_band(v.at("kinds").at(kind), kind);
  b.regime = regime;
  b.validated = false;
  const bool family_known = v.contains("families") && v.at("families").contains(family);
  b.reason = !family_known ? "no published measurement on " + family + " GPUs"
                           : "fewer than " + std::to_string(kMinValidated) + " held-out " + kind + " figures on " + family +
                                 " GPUs at " + batch + " load";
  return b;
}

FigureBands figure_bands(const Evaluation& ev) {
  const std::string fam = ev.s.gpu.family;
  const double dp = std::max(1, ev.decode_pool().plan.dp);
  // Poisson: the operating point's sequences per DP group; load kinds: their own clients.
  const double per_group = ev.load.present ? std::max(1.0, ev.load.in_flight / dp) : std::max(1.0, ev.op_load.in_flight);
  const std::string batch = batch_regime(per_group);
  FigureBands f;
  f.throughput = band_for(fam, "throughput", ev.load.present ? batch : "high");
  f.tpot = band_for(fam, "tpot", batch);
  f.ttft = band_for(fam, "ttft", batch);
  f.latency = band_for(fam, "latency", batch);
  f.decode_curve = band_for(fam, "throughput", "high");
  return f;
}

}  // namespace slo

SLO_SIZE_END
