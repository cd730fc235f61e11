#include "slo/errors.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

std::string value_text(const nlohmann::json* v) {
  if (!v) return "missing";
  std::string s = v->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (s.size() > 80) {
    std::size_t cut = 77;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
    s = s.substr(0, cut) + "...";
  }
  return s;
}

bool Errors::full() {
  if (list_.size() < kMaxListed) return false;
  if (list_.size() == kMaxListed) list_.emplace_back();
  FieldError& e = list_.back();
  ++more_;
  e.path = "(more)";
  e.value = std::to_string(more_);
  const std::string n = std::to_string(more_), shown = std::to_string(kMaxListed);
  e.expected = lang_ == Lang::Zh ? "先改正上面列出的错误" : "fix the errors listed first";
  e.message = lang_ == Lang::Zh ? "另有 " + n + " 个错误未列出（只列出前 " + shown + " 个）"
                                : "and " + n + " more error" + (more_ == 1 ? "" : "s") + " (only the first " + shown + " are listed)";
  return true;
}

void Errors::add(const std::string& path, const nlohmann::json* value, const std::string& expected_en,
                 const std::string& expected_zh) {
  if (full()) return;
  FieldError e;
  e.path = path;
  e.value = value_text(value);
  e.expected = lang_ == Lang::Zh ? expected_zh : expected_en;
  if (lang_ == Lang::Zh)
    e.message = path + "：值 " + e.value + " 无效；允许：" + e.expected;
  else
    e.message = path + ": invalid value " + e.value + "; allowed: " + e.expected;
  list_.push_back(std::move(e));
}

void Errors::add_rule(const std::string& path, const nlohmann::json* value, const std::string& problem_en,
                      const std::string& problem_zh, const std::string& expected_en,
                      const std::string& expected_zh) {
  if (full()) return;
  FieldError e;
  e.path = path;
  e.value = value_text(value);
  e.expected = lang_ == Lang::Zh ? expected_zh : expected_en;
  if (lang_ == Lang::Zh)
    e.message = path + "：值 " + e.value + " " + problem_zh + "；允许：" + e.expected;
  else
    e.message = path + ": value " + e.value + " " + problem_en + "; allowed: " + e.expected;
  list_.push_back(std::move(e));
}

nlohmann::json to_json(const FieldError& e) {
  return nlohmann::json{{"path", e.path}, {"value", e.value}, {"expected", e.expected}, {"message", e.message}};
}

}  // namespace slo

SLO_SIZE_END
