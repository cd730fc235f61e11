// libFuzzer target, structure-aware: inputs are scenario documents, and a custom mutator edits one
// field of the parsed document at a time (numbers to boundary values, types swapped, keys removed or
// added from the schema's names, subtrees replaced by model configs or presets), so most inputs stay
// valid JSON that reaches validation and evaluation instead of stopping at the parser.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "slo/api.hpp"
#include "slo/data.hpp"

using nlohmann::json;

namespace {

struct Pools {
  json base;                       // the default scenario
  std::vector<std::string> keys;   // every object key of the default scenario
  std::vector<json> strings;       // enum values: presets, GPUs, modes, precisions
  std::vector<json> subtrees;      // model configs (as model.config), presets' scenarios
};

void collect(const json& j, Pools& p) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      p.keys.push_back(it.key());
      collect(it.value(), p);
    }
  } else if (j.is_array()) {
    for (const auto& x : j) collect(x, p);
  } else if (j.is_string()) {
    p.strings.push_back(j);
  }
}

const Pools& pools() {
  static const Pools p = [] {
    Pools q;
    q.base = json::parse(slo::api::default_scenario());
    collect(q.base, q);
    const json cat = json::parse(slo::api::catalog("en"));
    for (const auto& m : cat["models"]) q.strings.push_back(m["id"]);
    for (const auto& g : cat["gpus"]) q.strings.push_back(g["id"]);
    for (const auto& s : cat["scenario_presets"]["presets"]) q.subtrees.push_back(s["scenario"]);
    for (const char* s : {"custom", "disaggregated", "colocated", "auto", "on", "off", "bf16", "fp8", "int8", "fp4", "mxfp4",
                          "corrected", "seed", "output", "total", "sliding_attention", "full_attention"})
      q.strings.push_back(s);
    for (const auto& f : slo::data::list("models/"))
      if (f != "models/index.json" && f.size() > 5 && f.compare(f.size() - 5, 5, ".json") == 0) q.subtrees.push_back(json{{"preset", nullptr}, {"config", json::parse(slo::data::file(f))}});
    return q;
  }();
  return p;
}

// Every node of the document, as a pointer, so one can be picked uniformly.
void nodes(json& j, std::vector<json*>& out) {
  out.push_back(&j);
  if (j.is_structured())
    for (auto& x : j) nodes(x, out);
}

double interesting(std::mt19937_64& rng, double old) {
  static const double values[] = {0, -1, 1, 0.5, 2, 3, 7, 8, 63, 64, 100, 255, 256, 1000, 1023, 1024, 4096, 8192, 32768, 65536,
                                  131072, 1e6, 1e7, 1e7 + 1, 2147483647.0, 2147483648.0, 9007199254740992.0, 9.3e18, 1.9e19,
                                  1.3e92, 1e308, 5e-324, -1e308, 1e-9, 0.001, 0.1, 0.999, 1.0001};
  switch (rng() % 4) {
    case 0: return old * 2;
    case 1: return std::floor(old / 2);
    case 2: return old + (rng() % 2 ? 1 : -1);
    default: return values[rng() % (sizeof values / sizeof values[0])];
  }
}

json random_scalar(std::mt19937_64& rng, const Pools& p) {
  switch (rng() % 7) {
    case 0: return nullptr;
    case 1: return rng() % 2 == 0;
    case 2: return p.strings[rng() % p.strings.size()];
    case 3: return json::array();
    case 4: return json::object();
    case 5: return static_cast<int64_t>(rng() % 100000);
    default: return interesting(rng, 1);
  }
}

void mutate(json& doc, std::mt19937_64& rng) {
  const Pools& p = pools();
  std::vector<json*> all;
  nodes(doc, all);
  json& n = *all[rng() % all.size()];
  const unsigned op = rng() % 10;
  if (n.is_number() && op < 6) {
    const double d = interesting(rng, n.get<double>());
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e18 && rng() % 2) n = static_cast<int64_t>(d);
    else if (std::isfinite(d)) n = d;
    return;
  }
  if (n.is_object() && op < 4 && !n.empty()) {  // remove a key
    auto it = n.begin();
    std::advance(it, rng() % n.size());
    n.erase(it);
    return;
  }
  if (n.is_object() && op < 7) {  // add or overwrite a key from the schema
    n[p.keys[rng() % p.keys.size()]] = rng() % 3 ? random_scalar(rng, p) : p.base[p.keys[0]];
    return;
  }
  if (n.is_array() && op < 5) {
    if (!n.empty() && rng() % 2) n.push_back(n[rng() % n.size()]);
    else if (!n.empty()) n.erase(n.begin() + static_cast<long>(rng() % n.size()));
    else n.push_back(random_scalar(rng, p));
    return;
  }
  if (op == 9 && !p.subtrees.empty()) {
    const json& t = p.subtrees[rng() % p.subtrees.size()];
    if (t.contains("config") && doc.is_object()) doc["model"] = t;
    else n = t;
    return;
  }
  n = random_scalar(rng, p);
}

}  // namespace

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  std::mt19937_64 rng(seed);
  if (rng() % 16 == 0) return LLVMFuzzerMutate(data, size, max_size);  // now and then, raw bytes too
  json doc = json::parse(std::string(reinterpret_cast<const char*>(data), size), nullptr, false);
  if (doc.is_discarded() || !doc.is_structured()) doc = pools().base;
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int i = 0; i < edits; ++i) mutate(doc, rng);
  const std::string out = doc.dump(rng() % 4 == 0 ? 1 : -1);
  if (out.size() > max_size) return size;
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string doc(reinterpret_cast<const char*>(data), size);
  slo::fuzz::check_document(doc, static_cast<uint8_t>(size * 31 + (size ? data[size / 2] : 0)));
  return 0;
}
