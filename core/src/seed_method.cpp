// Placeholder until the seed port lands.
#include "slo/seed_method.hpp"
namespace slo {
SeedFigures seed_figures(const Scenario&) { return {}; }
Report seed_report(const Scenario& s, Lang lang) {
  Report r;
  r.method = "seed";
  r.lang = lang;
  r.title = s.name;
  return r;
}
}  // namespace slo
