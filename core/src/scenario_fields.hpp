// Internal to the scenario parser: the field reader and the per-section readers and cross-field
// rules (precision, pools, deployment, workload, custom GPU, reference), shared by scenario.cpp.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/scenario.hpp"

namespace slo::fields {

using nlohmann::json;

std::string P(const std::string& base, const char* key);
std::string join(const std::vector<std::string>& v, const char* sep = ", ");
std::string num_text(double x);

struct Reader {
  Errors& E;

  const json* at(const json& obj, const char* key) const {
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }

  // A number in [lo, hi]; `nullable` accepts null (returns `null_value`).
  double number(const json& obj, const std::string& base, const char* key, double lo, double hi, bool integer,
                bool nullable = false, double null_value = 0, bool lo_open = false) {
    const json* v = at(obj, key);
    // The allowed range, in words (built only for an error: formatting numbers is most of a parse).
    auto fail = [&]() {
      const std::string range = std::string(lo_open ? "(" : "[") + num_text(lo) + ", " + num_text(hi) + "]";
      E.add(P(base, key), v, std::string(integer ? "an integer" : "a number") + " in " + range + (nullable ? " or unset" : ""),
            range + " 内的" + (integer ? "整数" : "数值") + (nullable ? "，或不设置" : ""));
    };
    if (v && v->is_null() && nullable) return null_value;
    if (!v || !v->is_number()) {
      fail();
      return std::isfinite(null_value) ? null_value : lo;
    }
    double x = v->get<double>();
    bool bad = !std::isfinite(x) || x < lo || x > hi || (lo_open && x <= lo) || (integer && x != std::floor(x));
    if (bad) {
      fail();
      return std::max(lo, std::min(hi, std::isfinite(x) ? x : lo));
    }
    return x;
  }

  int integer(const json& obj, const std::string& base, const char* key, int lo, int hi, bool nullable = false,
              int null_value = 0) {
    return static_cast<int>(number(obj, base, key, lo, hi, true, nullable, null_value));
  }

  std::string choice(const json& obj, const std::string& base, const char* key, const std::vector<std::string>& options) {
    const json* v = at(obj, key);
    if (v && v->is_string()) {
      std::string s = v->get<std::string>();
      if (std::find(options.begin(), options.end(), s) != options.end()) return s;
    }
    E.add(P(base, key), v, "one of: " + join(options), "以下之一：" + join(options));
    return options.front();
  }

  bool boolean(const json& obj, const std::string& base, const char* key) {
    const json* v = at(obj, key);
    if (v && v->is_boolean()) return v->get<bool>();
    E.add(P(base, key), v, "true or false", "true 或 false");
    return false;
  }

  std::string text(const json& obj, const std::string& base, const char* key, std::size_t max_len, bool nullable) {
    const json* v = at(obj, key);
    if (nullable && v && v->is_null()) return "";
    if (!v || !v->is_string() || v->get<std::string>().size() > max_len) {
      E.add(P(base, key), v, "a string of at most " + std::to_string(max_len) + " bytes" + (nullable ? " or unset" : ""),
            "不超过 " + std::to_string(max_len) + " 字节的字符串" + (nullable ? "，或不设置" : ""));
      return "";
    }
    return v->get<std::string>();
  }

  const json& object(const json& obj, const std::string& base, const char* key) {
    static const json empty = json::object();
    const json* v = at(obj, key);
    if (!v || !v->is_object()) {
      E.add(P(base, key), v, "an object", "对象");
      return empty;
    }
    return *v;
  }
};

extern const std::vector<std::string> kWeightFormats;
extern const std::vector<std::string> kActivationFormats;
extern const std::vector<std::string> kKvFormats;
extern const std::vector<std::string> kHighPrecision;

bool free_form(const std::string& path);
void merge(json& base, const json& patch, const std::string& path, Errors& E);
json migrate(json doc, int from);
Precision read_precision(Reader& R, const json& o, const std::string& base);
void check_precision_on_gpu(Reader& R, const Precision& p, const Gpu& g, const std::string& base, const json& o);
PoolConfig read_pool(Reader& R, const json& o, const std::string& base, int max_gpus);
void check_pool(Reader& R, const PoolConfig& p, const ModelArch& m, const std::string& base, const json& o);
Deployment read_deployment(Reader& R, const json& o, const std::string& base, int cluster);
void check_deployment(Reader& R, const Deployment& d, const ModelArch& m, const json& o, const std::string& base, int cluster,
                      const std::string& cluster_desc);
void read_load(Reader& R, const json& o, const std::string& base, Workload& w);
Workload read_workload(Reader& R, const json& o, const std::string& base);
void check_prefill_chunks(Reader& R, const Deployment& d, const Workload& w, const json& dep, const std::string& base);
ThroughputKind read_kind(Reader& R, const json& o, const std::string& base, const char* key);
bool read_custom_gpu(Reader& R, const json* v, Gpu& g);
void skip_unfitting_reference(Scenario& s, const json& rdep, const json& rpr, Lang lang);

}  // namespace slo::fields
