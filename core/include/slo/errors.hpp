// Validation errors as values: every invalid field names its path, the value and what is allowed.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/report.hpp"

namespace slo {

struct FieldError {
  std::string path;      // "deployment.decode.ep"
  std::string value;     // the offending value as JSON text ("33", "\"h30\"", "missing")
  std::string expected;  // the allowed range or type, in the report's language
  std::string message;   // full sentence in the report's language, naming path, value and range
};

class Errors {
 public:
  explicit Errors(Lang lang = Lang::En) : lang_(lang) {}
  Lang lang() const { return lang_; }
  // Adds an error; `expected_en`/`expected_zh` describe the allowed range or type.
  void add(const std::string& path, const nlohmann::json* value, const std::string& expected_en,
           const std::string& expected_zh);
  // Adds an error whose problem is not a range ("unknown field", cross-field rules).
  void add_rule(const std::string& path, const nlohmann::json* value, const std::string& problem_en,
                const std::string& problem_zh, const std::string& expected_en, const std::string& expected_zh);
  // At most kMaxListed errors are listed; past that one last entry counts the rest ("and M more"),
  // so hostile input cannot make the error list (and its cost) grow with the document.
  static constexpr std::size_t kMaxListed = 50;
  bool empty() const { return list_.empty(); }
  std::size_t size() const { return list_.size(); }
  const std::vector<FieldError>& list() const { return list_; }

 private:
  bool full();  // true once kMaxListed errors are listed; counts the error in the last entry
  Lang lang_;
  std::vector<FieldError> list_;
  std::size_t more_ = 0;
};

nlohmann::json to_json(const FieldError& e);
std::string value_text(const nlohmann::json* v);  // JSON text, truncated to 80 chars, or "missing"

// Thrown for internal invariant violations only; the API boundary turns it into an error value.
struct InternalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace slo
