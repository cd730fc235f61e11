// Report stage, shared by the corrected report's section builders: labels in the report's language,
// value formatting, and the context every builder reads (the analysis, never a physics call).
#pragma once
#include <cmath>
#include <string>

#include "slo/analysis.hpp"
#include "slo/report.hpp"

namespace slo::rpt {

// Labels in the report's language, and the value formatters. A figure without a finite value never
// prints "n/a": it says why it has none (the caller's reason, or the generic one below).
struct B {
  Lang lang;
  const char* t(const char* en, const char* zh) const { return L(lang, en, zh); }
  std::string none() const;  // the generic reason a figure has no finite value
  std::string num(double x, int digits = 0) const { return std::isfinite(x) ? format_fixed(x, digits, true) : none(); }
  Value fixed(double x, int digits, std::string unit = "", bool grouping = false, std::string unit_sep = " ") const {
    return std::isfinite(x) ? Value::fixed(x, digits, std::move(unit), grouping, std::move(unit_sep)) : Value::str(none());
  }
  Value percent(double x, int digits) const { return std::isfinite(x) ? Value::percent(x, digits) : Value::str(none()); }
  Value gb(double bytes, int digits = 1) const { return fixed(bytes / 1e9, digits, "GB"); }
  // Milliseconds with thousands separators ("5,887 ms"), as every other count (issue 12, defect 11).
  Value ms(double s, int digits = 1) const { return fixed(s * 1e3, digits, "ms", true); }
  Value tps(double x, const std::string& unit = "tokens/s") const { return fixed(x, x < 100 ? 1 : 0, unit, true); }
  // "1 session", "704 sessions": an English plural unit loses its "s" for a count that prints as 1.
  Value count(double x, const std::string& unit = "") const {
    Value v = fixed(x, 0, unit, true);
    if (unit == "sessions" && std::isfinite(x) && std::fabs(x) < 1.5 && std::fabs(x) >= 0.5) v.text.pop_back();
    return v;
  }
  Value params_b(double p) const { return fixed(p / 1e9, 2, "B", false, ""); }
};

std::string signed_num(double x, int digits);
// Margin of `value` against `target` ("+376 sessions (+188.0%)"); `higher_is_better`.
Value margin(double value, double target, int digits, const std::string& unit, bool higher_is_better);
const char* dtype_label(DType t);
std::string pool_desc(const B& b, const PoolConfig& p, bool moe);
std::string role_label(const B& b, const std::string& role);
// A deployment's pools in one line ("prefill pool 16 GPU: TP1 x DP16, EP16 : decode pool ...").
std::string layout_desc(const B& b, const Deployment& d, bool moe);
std::string bottleneck_label(const B& b, const std::string& k);
std::string limit_label(const B& b, const std::string& k);
Verdict verdict(const std::string& id, const std::string& label, bool ok, Value value, Value target, Value m,
                const std::string& detail, bool info = false);
const char* kind_label(const B& b, ThroughputKind k);
void step_rows(const B& b, Table& t, const StepParts& s);
// The report's title: the scenario's name, or the model and cluster when the name is the default's.
std::string display_name(const Scenario& s, Lang lang);

// What every section builder reads: the analysis and the names the old single function used.
struct Ctx {
  B b;
  const Analysis& a;
  const Evaluation& ev;
  const Scenario& s;
  const ModelArch& m;
  const Workload& w;
  const PoolEval& dec;
  const PoolEval& pre;
  const TargetCheck& tc;
  int total_gpus = 0;
  bool fits = true;               // every pool fits in GPU memory
  double worst_free = 1e300;      // KV pool left (or -shortfall) on the tightest pool
  std::string fit_detail;         // that pool's label
  Ctx(const Analysis& an, Lang lang);
};

// One builder per section, in the report's order.
void add_verdicts(Report& r, const Ctx& c);
void add_headline(Report& r, const Ctx& c);
void add_bottlenecks(Report& r, const Ctx& c);
void add_scenario(Report& r, const Ctx& c);
void add_parameters(Report& r, const Ctx& c);
void add_memory(Report& r, const Ctx& c);
void add_kv_cache(Report& r, const Ctx& c);
void add_prefill(Report& r, const Ctx& c);
void add_decode(Report& r, const Ctx& c);
void add_throughput(Report& r, const Ctx& c);
void add_cost(Report& r, const Ctx& c);
void add_ttft(Report& r, const Ctx& c);
void add_calibration(Report& r, const Ctx& c);
void add_recommendations(Report& r, const Ctx& c);
void add_seed_vs_corrected(Report& r, const Ctx& c);
// The seed method's report as a labelled comparison (an appendix), never a second verdict.
void add_seed_appendix(Report& r, const Ctx& c);
void add_method(Report& r, const Ctx& c);

}  // namespace slo::rpt
