// Report stage, JSON: the report schema written straight into one string (keys of each object in
// the byte order nlohmann's std::map gives them, scalars by nlohmann's own serializer), so the
// output is the bytes `to_json(r).dump()` gave, without building and freeing a tree of a few
// thousand nodes per report (issue 11: that tree and its dump were about a fifth of a report).
#include <cmath>

#include "slo/report.hpp"
#include "slo/strict_json.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

using nlohmann::json;

namespace {

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out), ser_(nlohmann::detail::output_adapter<char>(out), ' ', json::error_handler_t::replace) {}

  // An object member's key; members must come in ascending byte order (as a std::map holds them).
  Writer& key(const char* k) {
    sep();
    out_ += '"';
    out_ += k;
    out_ += "\":";
    first_ = true;  // the value follows without a comma
    return *this;
  }
  Writer& str(const std::string& s) {
    sep();
    bool plain = true;
    for (unsigned char c : s) plain = plain && c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
    if (plain) {
      out_ += '"';
      out_ += s;
      out_ += '"';
    } else {
      ser_.dump(json(s), false, false, 0);  // escapes and UTF-8 handling exactly as dump() does
    }
    return *this;
  }
  Writer& num(double x) { return scalar(json(x)); }
  Writer& integer(int x) { return scalar(json(x)); }
  Writer& boolean(bool b) { return scalar(json(b)); }
  Writer& null() { return scalar(json(nullptr)); }
  Writer& open(char c) {
    sep();
    out_ += c;
    first_ = true;
    return *this;
  }
  Writer& close(char c) {
    out_ += c;
    first_ = false;
    return *this;
  }
  Writer& strings(const std::vector<std::string>& v) {
    open('[');
    for (const auto& s : v) str(s);
    return close(']');
  }

 private:
  void sep() {
    if (!first_) out_ += ',';
    first_ = false;
  }
  Writer& scalar(const json& j) {
    sep();
    ser_.dump(j, false, false, 0);
    return *this;
  }
  std::string& out_;
  nlohmann::detail::serializer<json> ser_;
  bool first_ = true;
};

void band(Writer& w, const ValueBand& b) {
  w.open('{').key("hi_pct").num(b.hi_pct).key("lo_pct").num(b.lo_pct).key("n").integer(b.n);
  w.key("reason").str(b.reason).key("regime").str(b.regime);
  w.key("status").str(b.validated ? "validated" : "extrapolated").key("text").str(b.text).close('}');
}

void value(Writer& w, const Value& v) {
  w.open('{');
  if (v.band) band(w.key("band"), *v.band);
  w.key("number");
  if (v.number) w.num(*v.number);
  else w.null();
  w.key("text").str(v.text).key("unit").str(v.unit).close('}');
}

// A verdict; `kind` is "verdict" when it is a section's item, null at the report's top.
void verdict(Writer& w, const Verdict& v, const char* kind) {
  w.open('{');
  if (v.claimed) w.key("claimed").str(status_code(*v.claimed));
  w.key("detail").str(v.detail).key("id").str(v.id);
  if (kind) w.key("kind").str(kind);
  w.key("label").str(v.label);
  value(w.key("margin"), v.margin);
  w.key("status").str(status_code(v.status));
  value(w.key("target"), v.target);
  value(w.key("value"), v.value);
  w.close('}');
}

void series(Writer& w, const Series& s) {
  w.open('{');
  if (s.band) band(w.key("band"), *s.band);
  w.key("name").str(s.name).key("points").open('[');
  for (const auto& p : s.points) {
    if (std::isfinite(p.first) && std::isfinite(p.second)) w.open('[').num(p.first).num(p.second).close(']');
  }
  w.close(']').close('}');
}

void chart(Writer& w, const Chart& c) {
  w.open('{').key("categories").strings(c.categories).key("chart").str(c.kind).key("id").str(c.id);
  w.key("kind").str("chart").key("markers").open('[');
  for (const auto& m : c.markers)
    if (std::isfinite(m.value)) w.open('{').key("axis").str(m.axis).key("label").str(m.label).key("value").num(m.value).close('}');
  w.close(']').key("series").open('[');
  for (const auto& s : c.series) series(w, s);
  w.close(']').key("title").str(c.title).key("x_label").str(c.x_label).key("x_unit").str(c.x_unit);
  w.key("y_label").str(c.y_label).key("y_unit").str(c.y_unit).close('}');
}

void table(Writer& w, const Table& t) {
  w.open('{').key("columns").strings(t.columns).key("id").str(t.id).key("kind").str("table");
  w.key("note").str(t.note).key("rows").open('[');
  for (const auto& r : t.rows) {
    w.open('[');
    for (const auto& c : r) value(w, c);
    w.close(']');
  }
  w.close(']').key("title").str(t.title).close('}');
}

void item(Writer& w, const Item& it) {
  switch (it.kind) {
    case Item::Kind::Row:
      w.open('{').key("id").str(it.row.id).key("kind").str("row").key("label").str(it.row.label);
      w.key("level").integer(it.row.level).key("note").str(it.row.note);
      value(w.key("value"), it.row.value);
      w.close('}');
      return;
    case Item::Kind::Table: return table(w, it.table);
    case Item::Kind::Text:
    case Item::Kind::Bullet:
      w.open('{').key("kind").str(it.kind == Item::Kind::Text ? "text" : "bullet").key("text").str(it.text).close('}');
      return;
    case Item::Kind::Verdict: return verdict(w, it.verdict, "verdict");
    case Item::Kind::Chart: return chart(w, it.chart);
  }
  w.open('{').close('}');
}

void report(Writer& w, const Report& r) {
  w.open('{').key("appendices").open('[');
  for (const auto& a : r.appendices) report(w, a);
  w.close(']').key("bottlenecks").strings(r.bottlenecks);
  if (r.comparison) w.key("comparison").boolean(true);
  w.key("format").str("slo-estimator-report");
  if (!r.headline.empty()) w.key("headline").str(r.headline);
  w.key("lang").str(lang_code(r.lang)).key("method").str(r.method);
  if (!r.notice.empty()) w.key("notice").str(r.notice);
  w.key("schema").integer(Report::kSchema).key("sections").open('[');
  for (const auto& s : r.sections) {
    w.open('{').key("id").str(s.id).key("items").open('[');
    for (const auto& it : s.items) item(w, it);
    w.close(']').key("title").str(s.title).close('}');
  }
  w.close(']').key("title").str(r.title).key("verdicts").open('[');
  for (const auto& v : r.verdicts) verdict(w, v, nullptr);
  w.close(']').key("warnings").strings(r.warnings).close('}');
}

}  // namespace

std::string report_json_text(const Report& r) {
  std::string out;
  out.reserve(64 * 1024);
  Writer w(out);
  report(w, r);
  return out;
}

json to_json(const Report& r) { return parse_json(report_json_text(r)); }

}  // namespace slo

SLO_SIZE_END
