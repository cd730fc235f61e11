#include "slo/engine.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/data.hpp"
#include "slo/errors.hpp"
#include "slo/hardware.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

using nlohmann::json;

namespace {

MemoryFraction parse_memory_fraction(const std::string& s) {
  if (s == "weights_kv") return MemoryFraction::WeightsKv;
  if (s == "weights_activations_kv") return MemoryFraction::WeightsActivationsKv;
  if (s == "free_after_weights") return MemoryFraction::FreeAfterWeights;
  throw InternalError("engines.json: unknown memory_fraction " + s);
}

// A behaviour's release bounds ("since_release" / "before_release", each optional).
ReleaseRange read_release_range(const json& o) {
  ReleaseRange r;
  r.known = true;
  o.value("since_release", std::string()).copy(r.since, sizeof r.since - 1);
  o.value("before_release", std::string()).copy(r.before, sizeof r.before - 1);
  return r;
}

EngineOverheads read_overheads(const json& o) {
  EngineOverheads x;
  x.step_ms = o.at("step_ms");
  x.kernel_us = o.at("kernel_us");
  x.prefill_kernel_us = o.at("prefill_kernel_us");
  x.seq_us = o.value("seq_us", 10.0);
  x.request_ms = o.at("request_ms");
  x.wait_steps = o.value("wait_steps", 1.5);
  x.frontend_ms = o.value("frontend_ms", 10.0);
  x.moe_gemm = o.value("moe_gemm", 1.0);
  x.kv_read = o.value("kv_read", 1.0);
  x.prefill_ms = o.at("prefill_ms");
  x.pd_bootstrap_ms = o.at("pd_bootstrap_ms");
  return x;
}

AutoMemoryFraction read_auto_fraction(const json& a) {
  AutoMemoryFraction x;
  x.fixed = a.value("fixed", 0.9);
  if (a.contains("reserve_mib")) {
    const json& r = a.at("reserve_mib");
    x.reserve_rule = true;
    x.base_mib = r.at("base");
    x.per_chunk_token_mib = r.at("per_chunk_token");
    x.min_chunk_tokens = r.at("min_chunk_tokens");
    x.per_graph_batch_mib = r.at("per_graph_batch");
    x.per_gpu_mib = r.at("per_tp_pp_gpu");
    x.dp_per_graph_batch_mib = r.at("dp_per_graph_batch_rank");
    x.dp_large_graph_above = r.at("dp_large_graph_above");
    x.dp_large_per_graph_batch_mib = r.at("dp_large_per_graph_batch_rank");
    x.floor_above_mib = r.at("floor_above_mib");
    x.floor_mib = r.at("floor");
    x.speculative_mib = r.at("speculative");
  }
  if (a.contains("by_tp")) {
    const std::string through = a.at("by_tp").at("through_release");
    through.copy(x.by_tp_through, sizeof x.by_tp_through - 1);
    for (const auto& row : a.at("by_tp").at("rules"))
      if (x.n_by_tp < 6) x.by_tp[x.n_by_tp][0] = row.at(0), x.by_tp[x.n_by_tp][1] = row.at(1), ++x.n_by_tp;
  }
  return x;
}

Engine read_engine(const json& j) {
  Engine e;
  e.id = j.at("id");
  e.name = j.at("name");
  e.memory_flag = j.value("memory_flag", "");
  e.memory_fraction = parse_memory_fraction(j.at("memory_fraction"));
  if (j.contains("auto_memory_fraction")) e.auto_fraction = read_auto_fraction(j.at("auto_memory_fraction"));
  e.first_token_decode_step = j.value("first_token_decode_step", false);
  e.max_running_requests = j.value("max_running_requests", 4096);
  e.spec_max_running_requests = j.value("spec_max_running_requests", 0);
  e.cuda_graph_max_batch = j.value("cuda_graph_max_batch", 512);
  e.eager_above_graph = j.value("eager_above_cuda_graph", false);
  if (j.contains("cuda_graph_by_gpu"))
    for (const auto& r : j.at("cuda_graph_by_gpu").at("rules"))
      if (e.n_graph_rules < 4) e.graph_rules[e.n_graph_rules++] = {r.at("below_gib").get<double>(), r.at("small_tp").get<int>(), r.at("large_tp").get<int>()};
  e.dp_prefill_all_reduce = j.value("dp_prefill_all_reduce", false);
  if (j.contains("overlap_scheduler")) {
    const json& o = j.at("overlap_scheduler");
    e.overlap_releases = read_release_range(o);
    e.overlap_off_speculative = o.value("off_with_speculative", false);
    e.overlap_off_pp = o.value("off_with_pp", false);
  }
  if (j.contains("prefill_first")) e.prefill_first_releases = read_release_range(j.at("prefill_first"));
  if (j.contains("batch_defaults_by_gpu")) {
    const json& b = j.at("batch_defaults_by_gpu");
    e.large_gpu_min_gib = b.at("large_min_gib");
    const std::string x = b.at("large_exclude");
    x.copy(e.large_gpu_exclude, sizeof e.large_gpu_exclude - 1);
    e.small_gpu_max_running = b.at("small").at("max_running_requests");
  }
  if (j.contains("block_fp8")) {
    e.block_fp8_dense_bound = j.at("block_fp8").at("dense_bound");
    e.block_fp8_fused_moe_bound = j.at("block_fp8").at("fused_moe_bound");
  }
  e.mla_profile_after = j.value("mla_profile_after", "");
  if (j.contains("mla_prefix")) e.mla_absorbed_prefix_below = j.at("mla_prefix").at("absorbed_below_tokens");
  e.overheads = read_overheads(j.at("overheads"));
  if (j.contains("mxfp4_marlin_pad")) {
    e.mxfp4_pad_hidden = j.at("mxfp4_marlin_pad").at("hidden");
    e.mxfp4_pad_intermediate = j.at("mxfp4_marlin_pad").at("intermediate");
  }
  e.profile = e.id;
  if (j.contains("builds")) {
    std::vector<Engine::Build> builds;
    for (const auto& [key, b] : j.at("builds").items())
      builds.push_back({key, read_overheads(b.at("overheads")), b.value("platform", key), b.value("release_before", "")});
    e.builds = std::make_shared<const std::vector<Engine::Build>>(std::move(builds));
  }
  const json& k = j.at("kernel");
  e.kernel.gemm = k.at("gemm");
  e.kernel.attention = k.at("attention");
  e.kernel.hbm = k.at("hbm");
  return e;
}


const json& doc() {
  static const json d = json::parse(data::file("engines.json"));
  return d;
}

}  // namespace

const std::vector<Engine>& engine_presets() {
  static const std::vector<Engine> list = [] {
    std::vector<Engine> out;
    for (const auto& j : doc().at("engines")) out.push_back(read_engine(j));
    return out;
  }();
  return list;
}

namespace {
// The leading numeric components of a release string: "v0.17.post1.dev" -> {0, 17}.
std::vector<long> release_numbers(const std::string& s) {
  std::vector<long> out;
  std::size_t i = s.find_first_of("0123456789");
  while (i != std::string::npos && i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    long n = 0;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && n < 100000000; ++i) n = n * 10 + (s[i] - '0');
    out.push_back(n);
    if (i + 1 < s.size() && s[i] == '.' && std::isdigit(static_cast<unsigned char>(s[i + 1]))) ++i;
    else break;
  }
  return out;
}
}  // namespace

bool release_at_or_before(const std::string& stated, const std::string& bound) {
  const std::vector<long> a = release_numbers(stated), b = release_numbers(bound);
  if (a.empty() || b.empty()) return false;
  for (std::size_t k = 0; k < b.size(); ++k) {
    const long x = k < a.size() ? a[k] : 0;
    if (x != b[k]) return x < b[k];
  }
  return true;
}

bool release_before(const std::string& stated, const std::string& bound) {
  return release_at_or_before(stated, bound) && !release_at_or_before(bound, stated);
}

bool ReleaseRange::on(const std::string& release) const {
  const bool after_since = !since[0] || release.empty() || !release_before(release, since);
  const bool before_end = !before[0] || (!release.empty() && release_before(release, before));
  return known && after_since && before_end;
}

namespace {
// What the engine reads as the device's memory (torch's total, in GiB).
double gib(const Gpu& g) { return g.usable_memory_bytes() / 1073741824.0; }
}  // namespace

// Source: SGLang server_args._handle_gpu_memory_settings (cuda_graph_max_bs by GPU memory and tp_size).
int Engine::graph_max_batch(double gpu_gib, int tp) const {
  for (int i = 0; i < n_graph_rules; ++i)
    if (gpu_gib < graph_rules[i].below_gib) return tp < 4 ? graph_rules[i].small_tp : graph_rules[i].large_tp;
  return cuda_graph_max_batch;
}

// Source: SGLang server_args (mem_fraction_static by tp_size through 0.5.2; _handle_gpu_memory_settings
// from PR #10975: (gpu_mem - reserved_mem) / gpu_mem); vLLM gpu_memory_utilization and TensorRT-LLM
// KvCacheConfig.free_gpu_memory_fraction default to 0.9.
double Engine::auto_memory_fraction(const AutoFractionInputs& in) const {
  const AutoMemoryFraction& a = auto_fraction;
  if (a.n_by_tp > 0 && (!a.reserve_rule || release_at_or_before(in.release, a.by_tp_through)))
    for (int i = 0; i < a.n_by_tp; ++i)
      if (in.tp_pp >= a.by_tp[i][0]) return a.by_tp[i][1];
  if (!a.reserve_rule || in.gpu_mib <= 0) return a.fixed;
  double r = a.base_mib + std::max(in.chunk_flag, a.min_chunk_tokens) * a.per_chunk_token_mib;
  r += in.graph_max_batch * a.per_graph_batch_mib + in.tp_pp * a.per_gpu_mib;
  if (in.dp > 1) {
    r += in.graph_max_batch * in.dp * a.dp_per_graph_batch_mib;
    if (in.graph_max_batch > a.dp_large_graph_above) r += in.graph_max_batch * in.dp * a.dp_large_per_graph_batch_mib;
  }
  if (in.gpu_mib > a.floor_above_mib) r = std::max(r, a.floor_mib);
  if (in.speculative) r += a.speculative_mib;
  return std::clamp(std::round((in.gpu_mib - r) / in.gpu_mib * 1000.0) / 1000.0, 0.1, 1.0);
}

int Engine::graph_max_batch(const Gpu& g, int tp) const { return graph_max_batch(gib(g), tp); }

int Engine::eager_decode_above(const Gpu& g, int tp) const { return eager_above_graph ? graph_max_batch(g, tp) : 0; }

void select_for_gpu(Engine& e, const Gpu& g, const std::string& release) {
  // vLLM's defaults by device: >= 70 GiB and not an A100 -> 1024 sequences, else 256.
  // Source: vllm/engine/arg_utils.py get_batch_defaults (PR #17885 excluded the A100).
  if (e.small_gpu_max_running > 0) {
    bool small = gib(g) < e.large_gpu_min_gib;
    if (e.large_gpu_exclude[0]) small = small || g.id.find(e.large_gpu_exclude) != std::string::npos;
    if (small) e.max_running_requests = e.small_gpu_max_running;
  }
  // The overlap scheduler and prefill-first scheduling over the releases that have them.
  // Source: engine profiles (core/data/engines.json overlap_scheduler, prefill_first).
  e.overlap_scheduler = e.overlap_releases.on(release);
  e.prefill_first = e.prefill_first_releases.on(release);
  if (!e.builds) return;
  const Engine::Build* pick = nullptr;
  for (const auto& b : *e.builds) {
    if (b.platform != g.eff.platform) continue;
    if (!b.release_before.empty() && !release_before(release, b.release_before)) continue;
    // A release-bound build before an unbound one, and the tightest bound first (vLLM 0.5.x: "v05",
    // not "v0"), whatever the order of the file's keys.
    const bool tighter = pick && !pick->release_before.empty() && !b.release_before.empty() &&
                         release_before(b.release_before, pick->release_before);
    if (!pick || (pick->release_before.empty() && !b.release_before.empty()) || tighter) pick = &b;
  }
  if (!pick) return;
  e.overheads = pick->overheads;
  e.profile = e.id + "@" + pick->key;
}

const Engine* find_engine(const std::string& id) {
  for (const auto& e : engine_presets())
    if (e.id == id) return &e;
  return nullptr;
}

const std::string& default_engine_id() {
  static const std::string id = doc().at("default");
  return id;
}

}  // namespace slo

SLO_SIZE_END
