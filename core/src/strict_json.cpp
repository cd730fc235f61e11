// Strict JSON: nlohmann's SAX DOM builder plus a key set per open object, so a duplicate key is
// reported with its path instead of the last value silently winning.
#include "slo/strict_json.hpp"

#include <set>
#include <vector>

#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

using nlohmann::json;

namespace {

class StrictSax {
 public:
  explicit StrictSax(json& out) : dom_(out, false) {}

  bool null() { return value() && dom_.null(); }
  bool boolean(bool v) { return value() && dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return value() && dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return value() && dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) { return value() && dom_.number_float(v, s); }
  bool string(json::string_t& v) { return value() && dom_.string(v); }
  bool binary(json::binary_t& v) { return value() && dom_.binary(v); }
  bool start_object(std::size_t n) { return open(false) && dom_.start_object(n); }
  bool start_array(std::size_t n) { return open(true) && dom_.start_array(n); }
  bool end_object() { frames_.pop_back(); return dom_.end_object(); }
  bool end_array() { frames_.pop_back(); return dom_.end_array(); }
  bool key(json::string_t& k) {
    Frame& f = frames_.back();
    f.key = k;
    if (!f.keys.insert(k).second) {
      duplicate_ = child_path();
      duplicate_key_ = k;
      return false;
    }
    return dom_.key(k);
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) {
    error_position_ = position;
    return false;
  }

  const std::string& duplicate() const { return duplicate_; }
  const std::string& duplicate_key() const { return duplicate_key_; }
  std::size_t error_position() const { return error_position_; }

 private:
  struct Frame {
    bool array = false;
    std::string path;
    std::size_t index = 0;
    std::string key;
    std::set<std::string> keys;
  };

  // Path of the value about to start in the innermost open container.
  std::string child_path() const {
    if (frames_.empty()) return "";
    const Frame& f = frames_.back();
    if (f.array) return f.path + "[" + std::to_string(f.index) + "]";
    return f.path.empty() ? f.key : f.path + "." + f.key;
  }
  bool value() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    return true;
  }
  bool open(bool array) {
    std::string path = child_path();
    value();
    Frame f;
    f.array = array;
    f.path = std::move(path);
    frames_.push_back(std::move(f));
    return true;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::vector<Frame> frames_;
  std::string duplicate_, duplicate_key_;
  std::size_t error_position_ = 0;
};

}  // namespace

StrictJsonResult parse_strict_json(const std::string& text) {
  StrictJsonResult r;
  r.path = "(document)";
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
    r.problem_en = "contains a NUL byte at offset " + std::to_string(nul);
    r.problem_zh = "在偏移 " + std::to_string(nul) + " 处含有 NUL 字节";
    return r;
  }
  StrictSax sax(r.doc);
  const bool parsed = json::sax_parse(text.data(), text.data() + text.size(), &sax, json::input_format_t::json, true);
  if (!sax.duplicate().empty()) {
    r.path = sax.duplicate();
    r.key = sax.duplicate_key();
    r.problem_en = "is a duplicate key (a key may appear once per object)";
    r.problem_zh = "是重复的键（每个对象中一个键只能出现一次）";
    r.doc = json();
    return r;
  }
  if (!parsed) {
    const std::size_t at = sax.error_position();
    r.problem_en = "is not valid JSON (error at byte " + std::to_string(at) + ")";
    r.problem_zh = "不是合法的 JSON（第 " + std::to_string(at) + " 字节处出错）";
    r.doc = json();
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace slo

SLO_SIZE_END
