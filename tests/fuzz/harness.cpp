// Invariants of the public API on untrusted input (tests/fuzz/README.md lists them).
#include "harness.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "slo/api.hpp"

namespace slo::fuzz {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& doc, const std::string& out) {
  std::fprintf(stderr, "INVARIANT VIOLATED: %s\n  input (%zu bytes): %.400s\n  output: %.2000s\n", what.c_str(), doc.size(),
               doc.c_str(), out.c_str());
  std::abort();
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
  return s;
}

bool is_word_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

// The first of "nan", "inf", "infinity", "undefined" standing as a word in `text` that the input did not
// itself contain (a user may name a GPU "inf"; the core must never produce one), or "".
std::string forbidden_word(const std::string& text, const std::string& input_lower) {
  static const char* const words[] = {"nan", "inf", "infinity", "undefined"};
  const std::string t = lower(text);
  for (const char* w : words) {
    const std::string word(w);
    if (input_lower.find(word) != std::string::npos) continue;
    for (std::size_t at = t.find(word); at != std::string::npos; at = t.find(word, at + 1)) {
      const bool left = at == 0 || !is_word_char(t[at - 1]);
      const bool right = at + word.size() >= t.size() || !is_word_char(t[at + word.size()]);
      if (left && right) return word;
    }
  }
  return "";
}

void check_errors(const json& r, const std::string& doc, const std::string& out) {
  if (!r.contains("errors") || !r["errors"].is_array()) fail("errors is not an array", doc, out);
  for (const auto& e : r["errors"]) {
    if (!e.is_object() || !e.contains("path") || !e["path"].is_string() || !e.contains("message") ||
        !e["message"].is_string() || e["message"].get<std::string>().empty())
      fail("an error without path and message", doc, out);
  }
}

json parse_strict(const std::string& out, const std::string& doc, const char* what) {
  json r = json::parse(out, nullptr, false);
  if (r.is_discarded() || !r.is_object()) fail(std::string(what) + ": output is not a JSON object", doc, out);
  if (!r.contains("ok") || !r["ok"].is_boolean()) fail(std::string(what) + ": ok is not a bool", doc, out);
  check_errors(r, doc, out);
  return r;
}

long time_bound_ms() {
  static const long bound = [] {
    const char* s = std::getenv("SLO_FUZZ_TIME_BOUND_MS");
    return s ? std::atol(s) : 3000L;  // sanitizers cost ~10-20x; the native bound is 50 ms (docs/DESIGN.md)
  }();
  return bound;
}

}  // namespace

void check_document(const std::string& doc, uint8_t selector) {
  const bool zh = selector & 1;
  const bool seed = selector & 2;
  const std::string opts = std::string("{\"lang\":\"") + (zh ? "zh" : "en") + "\",\"method\":\"" + (seed ? "seed" : "corrected") +
                           "\",\"formats\":[\"json\",\"text\",\"markdown\"]}";
  const auto t0 = std::chrono::steady_clock::now();
  const std::string out = slo::api::evaluate(doc, opts);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  if (ms > time_bound_ms()) fail("evaluation took " + std::to_string(ms) + " ms", doc, out);

  const json r = parse_strict(out, doc, "evaluate");
  const std::string input_lower = lower(doc);
  if (r["ok"].get<bool>()) {
    if (!r["errors"].empty()) fail("ok with errors", doc, out);
    for (const char* k : {"report", "text", "markdown", "scenario", "minimal"})
      if (!r.contains(k)) fail(std::string("ok without ") + k, doc, out);
    if (!r["text"].is_string() || !r["markdown"].is_string()) fail("text/markdown not strings", doc, out);
    for (const std::string& s : {r["report"].dump(), r["text"].get<std::string>(), r["markdown"].get<std::string>()})
      if (std::string w = forbidden_word(s, input_lower); !w.empty()) fail("report contains \"" + w + "\"", doc, out);
    // The normalized document must itself be valid and mean the same thing.
    const std::string again = slo::api::validate(r["scenario"].dump(), zh ? "zh" : "en");
    const json v = parse_strict(again, doc, "validate(normalized)");
    if (!v["ok"].get<bool>()) fail("normalized scenario does not validate", doc, again);
    const std::string minimal = slo::api::validate(r["minimal"].dump(), "en");
    const json m = parse_strict(minimal, doc, "validate(minimal)");
    if (!m["ok"].get<bool>() || m["scenario"] != r["scenario"]) fail("minimal scenario differs from normalized", doc, minimal);
  } else {
    if (r["errors"].empty()) fail("not ok and no error", doc, out);
    if (r["errors"].size() > 101) fail("error list not capped", doc, out);
  }
  const std::string v = slo::api::validate(doc, zh ? "zh" : "en");
  const json vr = parse_strict(v, doc, "validate");
  if (vr["ok"] != r["ok"]) fail("validate and evaluate disagree on ok", doc, v);
}

}  // namespace slo::fuzz
