#include "slo/report.hpp"

#include <cmath>
#include <cstdio>
#include <string_view>
#include <utility>

#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

const char* lang_code(Lang l) { return l == Lang::Zh ? "zh" : "en"; }

const char* status_code(Status s) {
  switch (s) {
    case Status::Pass: return "pass";
    case Status::Fail: return "fail";
    case Status::Warn: return "warn";
    case Status::Info: return "info";
  }
  return "info";
}

namespace {
// A report never shows NaN or Infinity: such a value prints as "n/a" and carries no number.
constexpr const char* kNotAvailable = "n/a";

std::string group_thousands(const std::string& s) {
  std::size_t start = (!s.empty() && s[0] == '-') ? 1 : 0;
  std::size_t dot = s.find('.');
  std::size_t end = dot == std::string::npos ? s.size() : dot;
  std::string out = s.substr(0, start);
  std::string intpart = s.substr(start, end - start);
  int n = static_cast<int>(intpart.size());
  for (int i = 0; i < n; ++i) {
    out += intpart[i];
    int left = n - 1 - i;
    if (left > 0 && left % 3 == 0) out += ',';
  }
  out += s.substr(end);
  return out;
}
}  // namespace

std::string format_fixed(double x, int digits, bool grouping) {
  if (!std::isfinite(x)) return kNotAvailable;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  std::string s(buf);
  return grouping ? group_thousands(s) : s;
}

std::string format_sci(double x, int digits) {
  if (!std::isfinite(x)) return kNotAvailable;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", digits, x);
  return buf;
}

static Value make(double x, std::string text, std::string unit) {
  Value v;
  if (std::isfinite(x)) v.number = x;
  v.unit = std::move(unit);
  v.text = std::move(text);
  return v;
}

Value Value::str(std::string t) {
  Value v;
  v.text = std::move(t);
  return v;
}

Value Value::fixed(double x, int digits, std::string unit, bool grouping, std::string unit_sep) {
  std::string t = format_fixed(x, digits, grouping);
  if (std::isfinite(x) && !unit.empty()) t += unit_sep + unit;
  return make(x, t, unit);
}

Value Value::integer(double x, std::string unit, bool grouping) {
  return fixed(x, 0, std::move(unit), grouping);
}

Value Value::percent(double x, int digits) {
  std::string t = format_fixed(x * 100.0, digits, false);
  if (std::isfinite(x)) t += "%";
  return make(x, t, "ratio");
}

Value Value::sci(double x, int digits, std::string unit) {
  std::string t = format_sci(x, digits);
  if (std::isfinite(x) && !unit.empty()) t += " " + unit;
  return make(x, t, unit);
}

Section& Section::row(std::string rid, std::string label, Value v, std::string prefix, int level,
                      std::string note) {
  Item it;
  it.kind = Item::Kind::Row;
  it.row = Row{std::move(rid), std::move(label), std::move(v), level, std::move(prefix), std::move(note)};
  items.push_back(std::move(it));
  return *this;
}
Section& Section::text(std::string t) {
  Item it;
  it.kind = Item::Kind::Text;
  it.text = std::move(t);
  items.push_back(std::move(it));
  return *this;
}
Section& Section::bullet(std::string t) {
  Item it;
  it.kind = Item::Kind::Bullet;
  it.text = std::move(t);
  items.push_back(std::move(it));
  return *this;
}
Section& Section::table(Table t) {
  Item it;
  it.kind = Item::Kind::Table;
  it.table = std::move(t);
  items.push_back(std::move(it));
  return *this;
}
Section& Section::verdict(Verdict v) {
  Item it;
  it.kind = Item::Kind::Verdict;
  it.verdict = std::move(v);
  items.push_back(std::move(it));
  return *this;
}
Section& Section::chart(Chart c) {
  Item it;
  it.kind = Item::Kind::Chart;
  it.chart = std::move(c);
  items.push_back(std::move(it));
  return *this;
}

Section& Report::add_section(std::string id, std::string t) {
  sections.push_back(Section{std::move(id), std::move(t), {}});
  return sections.back();
}

std::string Value::shown() const { return band && !text.empty() ? text + " (" + band->text + ")" : text; }

// ---------------------------------------------------------------------------------------- text

static const char* status_icon(Status s) {
  switch (s) {
    case Status::Pass: return "✅";
    case Status::Fail: return "❌";
    case Status::Warn: return "⚠️";
    case Status::Info: return "ℹ️";
  }
  return "";
}

// A comparison's verdict column says what that method claims, in words and without the pass/fail
// icons of a verdict (issue 12, defect 5: two contradictory verdict tables in one export).
static std::string status_text(const Verdict& v, Lang lang) {
  if (v.claimed)
    return *v.claimed == Status::Pass   ? L(lang, "claims pass", "声称通过")
           : *v.claimed == Status::Fail ? L(lang, "claims fail", "声称未通过")
                                        : status_code(*v.claimed);
  return std::string(status_icon(v.status)) + " " + status_code(v.status);
}

static std::string verdict_line(const Verdict& v, Lang lang) {
  std::string s = v.label + ": " + (v.claimed ? status_text(v, lang) + " · " : std::string(status_icon(v.status)) + " ") + v.value.shown();
  if (!v.target.text.empty()) s += std::string(L(lang, " (target ", " (目标 ")) + v.target.text;
  if (!v.margin.text.empty()) s += std::string(L(lang, ", margin ", "，余量 ")) + v.margin.text;
  if (!v.target.text.empty()) s += ")";
  if (!v.detail.empty()) s += " — " + v.detail;
  return s;
}

// The renderers append to one string: text only (a number must be formatted first), and no
// <sstream>, whose locale facets were about 80 KB of the wasm (issue 11).
struct Out {
  std::string s;
  Out& operator<<(std::string_view v) {
    s.append(v.data(), v.size());
    return *this;
  }
};

static void text_table(Out& o, const Table& t) {
  if (!t.title.empty()) o << t.title << "\n";
  // Column widths measured in code points, so CJK text lines up approximately.
  auto width = [](const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s) {
      if ((c & 0xC0) != 0x80) ++n;
      if (c >= 0xE3 && c <= 0xE9) ++n;  // CJK ideographs take two columns
    }
    return n;
  };
  std::vector<std::size_t> w(t.columns.size(), 0);
  for (std::size_t i = 0; i < t.columns.size(); ++i) w[i] = width(t.columns[i]);
  for (const auto& r : t.rows)
    for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], width(r[i].text));
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (std::size_t i = 0; i < w.size(); ++i) {
      std::string c = i < cells.size() ? cells[i] : "";
      s += c + std::string(w[i] - std::min(w[i], width(c)) + (i + 1 < w.size() ? 2 : 0), ' ');
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    o << s << "\n";
  };
  line(t.columns);
  std::vector<std::string> rule;
  for (auto x : w) rule.push_back(std::string(x, '-'));
  line(rule);
  for (const auto& r : t.rows) {
    std::vector<std::string> cells;
    for (const auto& c : r) cells.push_back(c.text);
    line(cells);
  }
  if (!t.note.empty()) o << t.note << "\n";
}

std::string render_text(const Report& r) {
  Out o;
  if (!r.banner_top.empty()) {
    for (const auto& l : r.banner_top) o << l << "\n";
  } else {
    o << std::string(80, '=') << "\n" << r.title << "\n" << std::string(80, '=') << "\n";
  }
  if (!r.headline.empty()) o << r.headline << "\n";
  if (!r.notice.empty()) o << r.notice << "\n";
  // A report with its own banner (the seed method's) reproduces a fixed text layout and prints its
  // verdicts in its own section; its report.verdicts are for the JSON (badges), not repeated here.
  if (!r.verdicts.empty() && r.banner_top.empty()) {
    o << "\n=== " << L(r.lang, "Verdicts", "结论") << " ===\n";
    for (const auto& v : r.verdicts) o << verdict_line(v, r.lang) << "\n";
  }
  if (!r.bottlenecks.empty()) {
    o << "\n=== " << L(r.lang, "Bottlenecks", "瓶颈") << " ===\n";
    for (const auto& b : r.bottlenecks) o << "• " << b << "\n";
  }
  for (const auto& s : r.sections) {
    o << "\n=== " << s.title << " ===\n";
    for (const auto& it : s.items) {
      switch (it.kind) {
        case Item::Kind::Row: {
          const Row& row = it.row;
          std::string prefix = row.prefix.empty() && row.level > 0 ? std::string(row.level * 2, ' ') + "- " : row.prefix;
          o << prefix << row.label;
          if (!row.value.text.empty()) o << ": " << row.value.shown();
          if (!row.note.empty()) o << "  (" << row.note << ")";
          o << "\n";
          break;
        }
        case Item::Kind::Text: o << it.text << "\n"; break;
        case Item::Kind::Bullet: o << "• " << it.text << "\n"; break;
        case Item::Kind::Table: text_table(o, it.table); break;
        case Item::Kind::Verdict: o << verdict_line(it.verdict, r.lang) << "\n"; break;
        case Item::Kind::Chart: break;  // charts are drawn by the page; their data is in the JSON
      }
    }
  }
  if (!r.warnings.empty()) {
    o << "\n=== " << L(r.lang, "Warnings", "警告") << " ===\n";
    for (const auto& w : r.warnings) o << "• " << w << "\n";
  }
  for (const auto& b : r.banner_bottom) o << b << "\n";
  std::string out = std::move(o.s);
  for (const auto& a : r.appendices) out += "\n" + render_text(a);
  return out;
}

// ------------------------------------------------------------------------------------ Markdown

static std::string md_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

static std::string md_escape_line(const std::string& s) {
  // Keep Markdown from reading report text as markup: escape the characters that start
  // emphasis, links, HTML or headings.
  std::string out;
  for (char c : s) {
    if (c == '*' || c == '_' || c == '[' || c == ']' || c == '<' || c == '>' || c == '`' || c == '#')
      out += '\\';
    out += c;
  }
  return out;
}

static std::string render_markdown(const Report& r, int level) {
  Out o;
  const std::string h1(level, '#'), h2(level + 1, '#');
  o << h1 << " " << md_escape_line(r.title) << "\n\n";
  if (!r.headline.empty()) o << "**" << md_escape_line(r.headline) << "**\n\n";
  if (!r.notice.empty()) o << "> " << md_escape_line(r.notice) << "\n\n";
  if (!r.verdicts.empty()) {
    o << "| " << L(r.lang, "Check", "检查项") << " | "
      << (r.comparison ? L(r.lang, "What the method claims", "该方法的结论") : L(r.lang, "Status", "状态")) << " | "
      << L(r.lang, "Value", "数值") << " | " << L(r.lang, "Target", "目标") << " | "
      << L(r.lang, "Margin", "余量") << " |\n|---|---|---|---|---|\n";
    for (const auto& v : r.verdicts)
      o << "| " << md_cell(v.label) << " | " << status_text(v, r.lang) << " | "
        << md_cell(v.value.shown()) << " | " << md_cell(v.target.text) << " | " << md_cell(v.margin.text) << " |\n";
    o << "\n";
  }
  if (!r.bottlenecks.empty()) {
    o << "**" << L(r.lang, "Bottlenecks", "瓶颈") << "**\n\n";
    for (const auto& b : r.bottlenecks) o << "- " << md_escape_line(b) << "\n";
    o << "\n";
  }
  for (const auto& s : r.sections) {
    o << h2 << " " << md_escape_line(s.title) << "\n\n";
    bool in_rows = false;
    auto close_rows = [&] {
      if (in_rows) o << "\n";
      in_rows = false;
    };
    for (const auto& it : s.items) {
      if (it.kind == Item::Kind::Row) {
        if (!in_rows) {
          o << "| " << L(r.lang, "Item", "项目") << " | " << L(r.lang, "Value", "数值") << " |\n|---|---|\n";
          in_rows = true;
        }
        std::string indent;
        for (int i = 0; i < it.row.level; ++i) indent += "&nbsp;&nbsp;";
        std::string v = it.row.value.shown();
        if (!it.row.note.empty()) v += " (" + it.row.note + ")";
        o << "| " << indent << md_cell(md_escape_line(it.row.label)) << " | " << md_cell(v) << " |\n";
        continue;
      }
      close_rows();
      switch (it.kind) {
        case Item::Kind::Text:
          if (!it.text.empty()) o << md_escape_line(it.text) << "\n\n";
          break;
        case Item::Kind::Bullet: o << "- " << md_escape_line(it.text) << "\n"; break;
        case Item::Kind::Table: {
          if (!it.table.title.empty()) o << "**" << md_escape_line(it.table.title) << "**\n\n";
          o << "|";
          for (const auto& c : it.table.columns) o << " " << md_cell(c) << " |";
          o << "\n|";
          for (std::size_t i = 0; i < it.table.columns.size(); ++i) o << "---|";
          o << "\n";
          for (const auto& row : it.table.rows) {
            o << "|";
            for (const auto& c : row) o << " " << md_cell(c.text) << " |";
            o << "\n";
          }
          if (!it.table.note.empty()) o << "\n" << md_escape_line(it.table.note) << "\n";
          o << "\n";
          break;
        }
        case Item::Kind::Verdict: o << "- " << md_escape_line(verdict_line(it.verdict, r.lang)) << "\n"; break;
        case Item::Kind::Chart:
        case Item::Kind::Row: break;
      }
    }
    close_rows();
    o << "\n";
  }
  if (!r.warnings.empty()) {
    o << h2 << " " << L(r.lang, "Warnings", "警告") << "\n\n";
    for (const auto& w : r.warnings) o << "- " << md_escape_line(w) << "\n";
    o << "\n";
  }
  std::string out = std::move(o.s);
  // Appendices sit under the report (one heading level down), never as a second top-level report.
  for (const auto& a : r.appendices) out += "\n---\n\n" + render_markdown(a, level + 1);
  return out;
}

std::string render_markdown(const Report& r) { return render_markdown(r, 1); }

}  // namespace slo

SLO_SIZE_END
