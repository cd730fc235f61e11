// The report: a data structure of sections, rows, tables, verdicts and chart series with units.
// Front ends only render it. The core renders it as text and Markdown (never HTML).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace slo {

struct Scenario;

enum class Lang { En, Zh };
const char* lang_code(Lang l);
// Picks the label in the report's language.
inline const char* L(Lang l, const char* en, const char* zh) { return l == Lang::Zh ? zh : en; }

// Error band of a predicted figure, from the held-out (leave-one-source-out) errors of its regime.
struct ValueBand {
  double lo_pct = 0, hi_pct = 0;  // the truth lies within prediction x (1 + pct/100) for 80% of held-out figures
  int n = 0;                      // held-out figures behind the band
  bool validated = false;         // enough held-out figures in the figure's own regime
  std::string regime;             // "hopper/tpot/low"
  std::string text;               // "-9% ... +14%, 31 validated figures" (report language)
  std::string reason;             // extrapolated: why (report language)
};

// A value as the report shows it: the number (if any), its unit and the formatted text.
struct Value {
  std::optional<double> number;  // absent for text-only values
  std::string unit;              // "GB", "ms", "tokens/s", "%" ... ("" when dimensionless)
  std::string text;              // formatted for display, unit included
  std::optional<ValueBand> band; // predicted figures: the held-out error band
  std::string shown() const;     // text with the band in brackets (text renderers)

  static Value str(std::string t);
  // Fixed-point with `digits` decimals; `grouping` inserts thousands separators (Python's {:,.Nf}).
  static Value fixed(double x, int digits, std::string unit = "", bool grouping = false,
                     std::string unit_sep = " ");
  static Value integer(double x, std::string unit = "", bool grouping = true);
  // x is a ratio (1.0 = 100 %); Python's {:.N%}.
  static Value percent(double x, int digits);
  // Python's {:.Ne} (e.g. 1.6e+13).
  static Value sci(double x, int digits, std::string unit = "");
};

std::string format_fixed(double x, int digits, bool grouping);
std::string format_sci(double x, int digits);

enum class Status { Pass, Fail, Warn, Info };
const char* status_code(Status s);  // "pass" | "fail" | "warn" | "info"

struct Row {
  std::string id;
  std::string label;
  Value value;           // text may be empty for a label-only row
  int level = 0;         // nesting (0 = top level)
  std::string prefix;    // text renderer: printed verbatim before the label (" - ", " • ")
  std::string note;      // one-line explanation (shown after the value)
};

struct Table {
  std::string id;
  std::string title;
  std::vector<std::string> columns;
  std::vector<std::vector<Value>> rows;
  std::string note;
};

struct Verdict {
  std::string id;
  std::string label;
  Status status = Status::Info;
  Value value;   // what the deployment achieves
  Value target;  // what the SLO asks
  Value margin;  // signed headroom, e.g. "+12.5 %" or "-180 sessions"
  std::string detail;
  // A comparison report's verdict (the seed method beside the corrected one): what that method
  // claims; status is then Info, so that no front end styles it as this report's pass or fail.
  std::optional<Status> claimed;
};

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;
  std::optional<ValueBand> band;  // a predicted curve: the held-out band of its y values
};
struct Marker {
  std::string axis;  // "x" or "y"
  double value = 0;
  std::string label;
};
struct Chart {
  std::string id;
  std::string title;
  std::string kind;  // "line" | "bar" | "stacked-bar"
  std::string x_label, x_unit, y_label, y_unit;
  std::vector<std::string> categories;  // bar charts: one label per x position
  std::vector<Series> series;
  std::vector<Marker> markers;
};

struct Item {
  enum class Kind { Row, Table, Text, Bullet, Verdict, Chart };
  Kind kind = Kind::Text;
  Row row;
  Table table;
  std::string text;  // Text and Bullet
  Verdict verdict;
  Chart chart;
};

struct Section {
  std::string id;
  std::string title;
  std::vector<Item> items;

  Section& row(std::string id, std::string label, Value v, std::string prefix = "", int level = 0,
               std::string note = "");
  Section& text(std::string t);
  Section& bullet(std::string t);
  Section& table(Table t);
  Section& verdict(Verdict v);
  Section& chart(Chart c);
};

struct Report {
  static constexpr int kSchema = 1;
  std::string method;  // "corrected" | "seed"
  Lang lang = Lang::En;
  std::string title;
  std::string headline;                    // one line above the verdicts: targets met, the worst miss, the fix
  bool comparison = false;                 // a labelled comparison, not a verdict (the seed appendix)
  std::string notice;                      // shown right after the title (what the report is, and is not)
  std::vector<std::string> banner_top;     // text renderer only (the seed's ==== banner)
  std::vector<std::string> banner_bottom;  // text renderer only
  std::vector<Verdict> verdicts;           // headline verdicts, margins first
  std::vector<std::string> bottlenecks;    // one line each, most binding first
  std::vector<Section> sections;
  std::vector<std::string> warnings;
  std::vector<Report> appendices;  // e.g. the seed method's own report beside the corrected one

  Section& add_section(std::string id, std::string title);
};

// One line naming a configuration: its pools, MTP drafts, KV precision, prefill chunk and decode
// batch cap ("prefill pool 8 GPU: TP8 x DP1 : decode pool 24 GPU = ... · MTP 1 · KV fp8 · ...").
std::string configuration_label(const Scenario& s, Lang lang);

// The report as JSON text (report_json.cpp writes it directly: what to_json(r).dump() gives).
std::string report_json_text(const Report& r);
nlohmann::json to_json(const Report& r);
std::string render_text(const Report& r);
std::string render_markdown(const Report& r);

}  // namespace slo
