// Strict JSON parsing of untrusted documents: one text must mean exactly one document.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace slo {

struct StrictJsonResult {
  bool ok = false;
  nlohmann::json doc;
  std::string path;        // JSON path of the problem ("workload.input_tokens", "(document)")
  std::string key;         // the duplicate key, when that is the problem
  std::string problem_en;  // what is wrong, for an error message
  std::string problem_zh;
};

// RFC 8259 JSON, and additionally: no duplicate key in any object (the path names it), no NUL byte
// anywhere (nlohmann's lexer would end the document at it), nothing but whitespace after the value.
StrictJsonResult parse_strict_json(const std::string& text);

}  // namespace slo
