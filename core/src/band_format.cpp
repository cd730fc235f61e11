#include "slo/band_format.hpp"

#include <cmath>
#include <cstdio>

#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

namespace {

std::string pct(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f%%", std::round(x) == 0 ? 0.0 : x);
  return buf;
}

std::string reason_text(const Band& b, Lang lang) {
  if (b.reason.empty()) return "";
  const auto slash = b.regime.find('/');
  const std::string family = b.regime.substr(0, slash);
  if (b.reason.rfind("no published", 0) == 0)
    return lang == Lang::Zh ? "外推：" + family + " 系列 GPU 无公开实测" : "extrapolated: no published measurement on " + family + " GPUs";
  return lang == Lang::Zh ? "外推：该区间（" + b.regime + "）留出验证数据少于 " + std::to_string(kMinValidated) + " 个"
                          : "extrapolated: fewer than " + std::to_string(kMinValidated) + " held-out figures in " + b.regime;
}

}  // namespace

ValueBand band_value(const Band& b, Lang lang) {
  ValueBand v;
  v.lo_pct = b.lo_pct;
  v.hi_pct = b.hi_pct;
  v.n = b.n;
  v.validated = b.validated;
  v.regime = b.regime;
  v.reason = reason_text(b, lang);
  const std::string range = pct(b.lo_pct) + " … " + pct(b.hi_pct);
  if (b.validated)
    v.text = lang == Lang::Zh ? range + "，" + std::to_string(b.n) + " 个留出验证数据" : range + ", " + std::to_string(b.n) + " validated figures";
  else
    v.text = range + (lang == Lang::Zh ? "，" : ", ") + v.reason;
  return v;
}

Value with_band(Value v, const Band& b, Lang lang) {
  // A zero figure (nothing served: the pool does not fit, or no batch meets the target) has no error band.
  if (v.number && std::isfinite(*v.number) && *v.number > 0 && b.n > 0) v.band = band_value(b, lang);
  return v;
}

void attach_bands(Report& r, const FigureBands& f) {
  // The decode throughput curve is a predicted figure too: its band shades the chart.
  for (Section& sec : r.sections)
    for (Item& it : sec.items)
      if (it.kind == Item::Kind::Chart && it.chart.id == "throughput_vs_tpot" && !it.chart.series.empty() && f.decode_curve.n > 0)
        it.chart.series.front().band = band_value(f.decode_curve, r.lang);
  for (Verdict& v : r.verdicts) {
    if (v.id == "throughput") v.value = with_band(v.value, f.throughput, r.lang);
    if (v.id == "tpot") v.value = with_band(v.value, f.tpot, r.lang);
    if (v.id == "ttft_p50" || v.id == "ttft_p99") v.value = with_band(v.value, f.ttft, r.lang);
  }
}

}  // namespace slo

SLO_SIZE_END
