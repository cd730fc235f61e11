// The scenario's field readers and cross-field rules (scenario_fields.hpp).
#include "scenario_fields.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

#include "slo/data.hpp"
#include "slo/scenario_derive.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo::fields {

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::string num_text(double x) {
  char b[32];  // what an ostream at precision 10 writes
  std::snprintf(b, sizeof b, "%.10g", x);
  return b;
}

// Paths whose value is free-form (validated by their own parser), never merged key by key.
bool free_form(const std::string& path) {
  return path == "model.config" || path == "hardware.custom_gpu";
}

// Merges `patch` into `base` (objects key by key, everything else replaced) and reports keys the
// version's defaults do not have.
void merge(json& base, const json& patch, const std::string& path, Errors& E) {
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    const std::string key = it.key();
    const std::string p = path.empty() ? key : path + "." + key;
    if (!base.contains(key)) {
      std::vector<std::string> keys;
      for (auto b = base.begin(); b != base.end(); ++b) keys.push_back(b.key());
      E.add_rule(p, &it.value(), "is not a known field", "不是已知字段", "one of: " + join(keys),
                 "以下之一：" + join(keys));
      continue;
    }
    json& b = base[key];
    if (b.is_object() && !free_form(p)) {
      if (!it.value().is_object()) {
        E.add(p, &it.value(), "an object", "对象");
        continue;
      }
      merge(b, it.value(), p, E);
    } else {
      b = it.value();
    }
  }
}

// Schema migrations: a document of version v becomes a document of version v + 1.
// Version 1 is the first released version; later versions add a step here and freeze their defaults.
// 1 -> 2: version 2 derives fields a document leaves unset; a migrated version 1 document is
// complete (its frozen defaults filled every field), so nothing is derived and its meaning holds.
json migrate(json doc, int from) {
  // v1 -> v2: hardware.gpu_hour_usd (added 2026-12-04) is unset, so no cost is reported, as before.
  if (from == 1 && doc.contains("hardware") && doc["hardware"].is_object() && !doc["hardware"].contains("gpu_hour_usd"))
    doc["hardware"]["gpu_hour_usd"] = nullptr;
  // v1 -> v2: precision.fp8_scales (added 2026-12-04) is "block", what an FP8 group_size meant before.
  auto block_scales = [](json& parent) {
    if (parent.is_object() && parent.contains("precision") && parent["precision"].is_object() && !parent["precision"].contains("fp8_scales"))
      parent["precision"]["fp8_scales"] = "block";
  };
  if (from == 1) {
    block_scales(doc);
    if (doc.contains("reference")) block_scales(doc["reference"]);
  }
  return doc;
}

std::string P(const std::string& base, const char* key) { return base.empty() ? std::string(key) : base + "." + key; }



const std::vector<std::string> kWeightFormats = {"bf16", "fp16", "fp8", "int8", "int4", "nvfp4", "mxfp4"};
const std::vector<std::string> kActivationFormats = {"bf16", "fp16", "fp8", "int8", "fp4"};
const std::vector<std::string> kKvFormats = {"bf16", "fp16", "fp8", "int8"};
const std::vector<std::string> kHighPrecision = {"embedding", "lm_head", "router", "norms", "attention"};

Precision read_precision(Reader& R, const json& o, const std::string& base) {
  Precision p;
  parse_dtype(R.choice(o, base, "weights", kWeightFormats), p.weights);
  parse_dtype(R.choice(o, base, "activations", kActivationFormats), p.activations);
  parse_dtype(R.choice(o, base, "kv_cache", kKvFormats), p.kv_cache);
  int g = R.integer(o, base, "group_size", 16, 1024);
  if (g != 16 && g != 32 && g != 64 && g != 128 && g != 256 && g != 512 && g != 1024) {
    R.E.add(base + ".group_size", R.at(o, "group_size"), "a power of two from 16 to 1024", "16 到 1024 之间的 2 的幂");
    g = 128;
  }
  p.group_size = g;
  p.fp8_block_scales = R.choice(o, base, "fp8_scales", {"block", "tensor"}) == "block";
  const json* hp = R.at(o, "high_precision");
  p.hp_embedding = p.hp_lm_head = p.hp_router = p.hp_norms = p.hp_attention = false;
  if (!hp || !hp->is_array() || hp->size() > kHighPrecision.size()) {  // longer lists repeat: one error, not one per entry
    const std::string n = std::to_string(kHighPrecision.size());
    R.E.add(base + ".high_precision", hp, "an array of: " + join(kHighPrecision) + " (at most " + n + " entries)",
            "以下值组成的数组：" + join(kHighPrecision) + "（至多 " + n + " 项）");
  } else {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < hp->size(); ++i) {
      const json& x = (*hp)[i];
      std::string path = base + ".high_precision[" + std::to_string(i) + "]";
      if (!x.is_string() || std::find(kHighPrecision.begin(), kHighPrecision.end(), x.get<std::string>()) == kHighPrecision.end()) {
        R.E.add(path, &x, "one of: " + join(kHighPrecision), "以下之一：" + join(kHighPrecision));
        continue;
      }
      std::string s = x.get<std::string>();
      if (!seen.insert(s).second) {
        R.E.add_rule(path, &x, "is listed twice", "重复出现", "each component at most once", "每个组件至多出现一次");
        continue;
      }
      if (s == "embedding") p.hp_embedding = true;
      if (s == "lm_head") p.hp_lm_head = true;
      if (s == "router") p.hp_router = true;
      if (s == "norms") p.hp_norms = true;
      if (s == "attention") p.hp_attention = true;
    }
  }
  return p;
}

void check_precision_on_gpu(Reader& R, const Precision& p, const Gpu& g, const std::string& base, const json& o) {
  DType compute;
  std::string why_en, why_zh;
  if (!gemm_dtype(p.weights, p.activations, compute, why_en, why_zh)) {
    R.E.add_rule(base + ".activations", R.at(o, "activations"), "does not pair with weights \"" + std::string(dtype_name(p.weights)) + "\"",
                 "不能与权重 \"" + std::string(dtype_name(p.weights)) + "\" 搭配", why_en, why_zh);
    return;
  }
  if (g.peak(compute) <= 0) {
    R.E.add_rule(base + ".activations", R.at(o, "activations"),
                 "needs " + std::string(dtype_name(compute)) + " tensor cores, which " + g.name + " does not have",
                 "需要 " + std::string(dtype_name(compute)) + " 张量核心，而 " + g.name + " 没有",
                 "a format " + g.name + " computes in (bf16, fp16" + (g.fp8_flops > 0 ? ", fp8" : "") +
                     (g.int8_ops > 0 ? ", int8" : "") + (g.fp4_flops > 0 ? ", fp4" : "") + ")",
                 g.name + " 支持的计算格式（bf16、fp16" + (g.fp8_flops > 0 ? "、fp8" : "") + (g.int8_ops > 0 ? "、int8" : "") +
                     (g.fp4_flops > 0 ? "、fp4" : "") + "）");
  }
}

PoolConfig read_pool(Reader& R, const json& o, const std::string& base, int max_gpus) {
  PoolConfig p;
  p.gpus = R.integer(o, base, "gpus", 1, std::max(1, max_gpus));
  p.attention_tp = R.integer(o, base, "attention_tp", 1, 1024);
  p.ep = R.integer(o, base, "ep", 1, 4096);
  p.pp = R.integer(o, base, "pp", 1, 1024);
  p.redundant_experts = R.integer(o, base, "redundant_experts", 0, 4096);
  p.replicas = R.integer(o, base, "replicas", 1, 4096);
  p.cpu_offload_gb = R.number(o, base, "cpu_offload_gb", 0, 4096, false);
  return p;
}

// Cross-field rules of one active pool against the model: the impossible deployments.
void check_pool(Reader& R, const PoolConfig& p, const ModelArch& m, const std::string& base, const json& o) {
  auto n = [](long long x) { return std::to_string(x); };
  if (p.gpus % p.replicas != 0) {
    R.E.add_rule(base + ".replicas", R.at(o, "replicas"), "does not divide gpus (" + n(p.gpus) + ")", "不能整除 gpus（" + n(p.gpus) + "）",
                 "a divisor of " + n(p.gpus), n(p.gpus) + " 的约数");
    return;
  }
  // Every rule below holds within one instance (gpus / replicas GPUs).
  const int inst = p.instance_gpus();
  if (inst % p.pp != 0) {
    if (p.replicas == 1)
      R.E.add_rule(base + ".pp", R.at(o, "pp"), "does not divide gpus (" + n(p.gpus) + ")", "不能整除 gpus（" + n(p.gpus) + "）",
                   "a divisor of " + n(p.gpus), n(p.gpus) + " 的约数");
    else
      R.E.add_rule(base + ".pp", R.at(o, "pp"), "does not divide the GPUs of an instance (gpus / replicas = " + n(inst) + ")",
                   "不能整除每个实例的 GPU 数（gpus / replicas = " + n(inst) + "）", "a divisor of " + n(inst), n(inst) + " 的约数");
    return;
  }
  if (p.pp > m.layers)
    R.E.add_rule(base + ".pp", R.at(o, "pp"), "exceeds the model's layer count (" + n(m.layers) + ")",
                 "超过模型层数（" + n(m.layers) + "）", "at most " + n(m.layers), "不超过 " + n(m.layers));
  int stage = inst / p.pp;
  if (stage % p.attention_tp != 0)
    R.E.add_rule(base + ".attention_tp", R.at(o, "attention_tp"), "does not divide the GPUs of a pipeline stage (" + n(stage) + ")",
                 "不能整除每个流水级的 GPU 数（" + n(stage) + "）", "a divisor of " + n(stage), n(stage) + " 的约数");
  if (p.attention_tp > m.heads)
    R.E.add_rule(base + ".attention_tp", R.at(o, "attention_tp"), "is above the model's attention head count (" + n(m.heads) + ")",
                 "超过模型注意力头数（" + n(m.heads) + "）", "at most " + n(m.heads) + " and dividing it",
                 "不超过 " + n(m.heads) + " 且能整除它");
  else if (m.heads % p.attention_tp != 0)
    R.E.add_rule(base + ".attention_tp", R.at(o, "attention_tp"), "does not divide the head count (" + n(m.heads) + ")",
                 "不能整除注意力头数（" + n(m.heads) + "）", "a divisor of " + n(m.heads), n(m.heads) + " 的约数");
  if (stage % p.ep != 0) {
    R.E.add_rule(base + ".ep", R.at(o, "ep"), "does not divide the GPUs of a pipeline stage (" + n(stage) + ")",
                 "不能整除每个流水级的 GPU 数（" + n(stage) + "）", "a divisor of " + n(stage), n(stage) + " 的约数");
    return;
  }
  if (!m.is_moe()) {
    if (p.ep != 1)
      R.E.add_rule(base + ".ep", R.at(o, "ep"), "is set for a dense model (no experts)", "用于稠密模型（无专家）", "1", "1");
    if (p.redundant_experts != 0)
      R.E.add_rule(base + ".redundant_experts", R.at(o, "redundant_experts"), "is set for a dense model", "用于稠密模型", "0", "0");
    return;
  }
  int slots = m.routed_experts + p.redundant_experts;
  if (slots % p.ep != 0)
    R.E.add_rule(base + ".ep", R.at(o, "ep"),
                 "does not divide routed experts + redundant experts (" + n(m.routed_experts) + " + " + n(p.redundant_experts) + " = " + n(slots) + ")",
                 "不能整除路由专家数 + 冗余专家数（" + n(m.routed_experts) + " + " + n(p.redundant_experts) + " = " + n(slots) + "）",
                 "a divisor of " + n(slots) + ", or change redundant_experts", n(slots) + " 的约数，或调整 redundant_experts");
  else if (p.ep > slots)
    R.E.add_rule(base + ".ep", R.at(o, "ep"), "exceeds the expert slots (" + n(slots) + ")", "超过专家槽位数（" + n(slots) + "）",
                 "at most " + n(slots), "不超过 " + n(slots));
  int moe_tp = stage / p.ep;
  if (m.moe_intermediate % moe_tp != 0)
    R.E.add_rule(base + ".ep", R.at(o, "ep"),
                 "leaves an expert tensor-parallel degree of " + n(moe_tp) + " that does not divide moe_intermediate_size (" + n(m.moe_intermediate) + ")",
                 "使专家张量并行度为 " + n(moe_tp) + "，不能整除 moe_intermediate_size（" + n(m.moe_intermediate) + "）",
                 "an ep for which gpus / pp / ep divides " + n(m.moe_intermediate), "使 gpus / pp / ep 能整除 " + n(m.moe_intermediate) + " 的 ep");
}

Deployment read_deployment(Reader& R, const json& o, const std::string& base, int cluster) {
  Deployment d;
  d.disaggregated = R.choice(o, base, "mode", {"colocated", "disaggregated"}) == "disaggregated";
  // Only the active mode's pools are bounded by the cluster: the inactive ones keep their values
  // (e.g. the default decode pool of 24 GPUs) without invalidating a smaller colocated cluster.
  const int inactive = 1 << 20;
  d.colocated = read_pool(R, R.object(o, base, "colocated"), base + ".colocated", d.disaggregated ? inactive : cluster);
  d.prefill = read_pool(R, R.object(o, base, "prefill"), base + ".prefill", d.disaggregated ? cluster : inactive);
  d.decode = read_pool(R, R.object(o, base, "decode"), base + ".decode", d.disaggregated ? cluster : inactive);
  d.memory_fraction = R.number(o, base, "memory_fraction", 0.1, 1.0, false, true, 0);  // null: the engine's own choice
  d.two_batch_overlap = R.choice(o, base, "two_batch_overlap", {"auto", "on", "off"});
  d.offload_prefetch = R.choice(o, base, "offload_mode", {"on_demand", "prefetch"}) == "prefetch";
  d.expert_balance = R.number(o, base, "expert_balance", 0.05, 1.0, false, true, 0);
  d.chunked_prefill_tokens = R.integer(o, base, "chunked_prefill_tokens", 256, 1 << 20);
  d.max_decode_batch_per_gpu = R.integer(o, base, "max_decode_batch_per_gpu", 1, 65536, true, 0);
  const json& mtp = R.object(o, base, "mtp");
  d.mtp.draft_tokens = R.integer(mtp, base + ".mtp", "draft_tokens", 0, 8);
  d.mtp.acceptance = R.number(mtp, base + ".mtp", "acceptance", 0.0, 1.0, false);
  const json& eng = R.object(o, base, "engine");
  std::vector<std::string> names;
  for (const auto& e : engine_presets()) names.push_back(e.id);
  d.engine = *find_engine(R.choice(eng, base + ".engine", "name", names));
  d.engine_version = R.text(eng, base + ".engine", "version", 64, true);
  return d;
}

void check_deployment(Reader& R, const Deployment& d, const ModelArch& m, const json& o, const std::string& base, int cluster,
                      const std::string& cluster_desc) {
  if (d.disaggregated) {
    check_pool(R, d.prefill, m, base + ".prefill", R.object(o, base, "prefill"));
    check_pool(R, d.decode, m, base + ".decode", R.object(o, base, "decode"));
    int used = d.prefill.gpus + d.decode.gpus;
    if (used > cluster)
      R.E.add_rule(base + ".decode.gpus", R.at(R.object(o, base, "decode"), "gpus"),
                   "plus prefill.gpus (" + std::to_string(d.prefill.gpus) + ") = " + std::to_string(used) + " exceeds the cluster (" + cluster_desc + ")",
                   "加上 prefill.gpus（" + std::to_string(d.prefill.gpus) + "）= " + std::to_string(used) + "，超过集群规模（" + cluster_desc + "）",
                   "prefill.gpus + decode.gpus <= " + std::to_string(cluster), "prefill.gpus + decode.gpus <= " + std::to_string(cluster));
  } else {
    check_pool(R, d.colocated, m, base + ".colocated", R.object(o, base, "colocated"));
  }
}

// The load kind and the one figure it needs (clients, batch size or burst size).
void read_load(Reader& R, const json& o, const std::string& base, Workload& w) {
  const std::string k = R.choice(o, base, "kind", {"poisson", "closed_loop", "static_batch", "burst"});
  w.kind = k == "closed_loop" ? LoadKind::ClosedLoop : k == "static_batch" ? LoadKind::StaticBatch
           : k == "burst"     ? LoadKind::Burst : LoadKind::Poisson;
  w.concurrency = R.integer(o, base, "concurrency", 1, 1000000, true, 0);
  w.batch = R.integer(o, base, "batch", 1, 1000000, true, 0);
  w.requests = R.integer(o, base, "requests", 1, 10000000, true, 0);
  auto need = [&](const char* key, double v) {
    if (v <= 0)
      R.E.add_rule(P(base, key), R.at(o, key), "is needed when kind is \"" + k + "\"", "在 kind 为 \"" + k + "\" 时必填",
                   "an integer >= 1", ">= 1 的整数");
  };
  if (w.kind == LoadKind::ClosedLoop) need("concurrency", w.concurrency);
  if (w.kind == LoadKind::StaticBatch) need("batch", w.batch);
  if (w.kind == LoadKind::Burst) need("requests", w.requests);
}

Workload read_workload(Reader& R, const json& o, const std::string& base) {
  Workload w;
  // The max >= mean rules compare valid values only (not the clamped stand-in of an invalid one).
  std::size_t errors_before = R.E.size();
  w.input_tokens = R.number(o, base, "input_tokens", 1, 1e7, false);
  w.input_tokens_max = R.number(o, base, "input_tokens_max", 1, 1e7, false);
  const bool input_ok = R.E.size() == errors_before;
  errors_before = R.E.size();
  w.output_tokens = R.number(o, base, "output_tokens", 1, 1e7, false);
  w.output_tokens_max = R.number(o, base, "output_tokens_max", 1, 1e7, false);
  const bool output_ok = R.E.size() == errors_before;
  w.context_length = R.integer(o, base, "context_length", 1, 10000000);
  w.arrival_qpm = R.number(o, base, "arrival_qpm", 0, 1e7, false, true, 0, true);
  read_load(R, o, base, w);
  if (input_ok && w.input_tokens_max < w.input_tokens)
    R.E.add_rule(base + ".input_tokens_max", R.at(o, "input_tokens_max"), "is below the mean input_tokens (" + num_text(w.input_tokens) + ")",
                 "小于平均输入长度 input_tokens（" + num_text(w.input_tokens) + "）", ">= input_tokens", ">= input_tokens");
  if (output_ok && w.output_tokens_max < w.output_tokens)
    R.E.add_rule(base + ".output_tokens_max", R.at(o, "output_tokens_max"), "is below the mean output_tokens (" + num_text(w.output_tokens) + ")",
                 "小于平均输出长度 output_tokens（" + num_text(w.output_tokens) + "）", ">= output_tokens", ">= output_tokens");
  return w;
}

// Cost bound (docs/DESIGN.md): the longest prompt is prefilled in at most 64 chunks, which keeps the
// TTFT simulation within its pass budget.
void check_prefill_chunks(Reader& R, const Deployment& d, const Workload& w, const json& dep, const std::string& base) {
  constexpr double kMaxChunks = 64;
  const double chunks = std::ceil(w.input_tokens_max / d.chunked_prefill_tokens);
  if (chunks <= kMaxChunks) return;
  const std::string need = num_text(std::ceil(w.input_tokens_max / kMaxChunks)), n = num_text(chunks);
  R.E.add_rule(base + ".chunked_prefill_tokens", R.at(dep, "chunked_prefill_tokens"),
               "splits the longest prompt (input_tokens_max " + num_text(w.input_tokens_max) + ") into " + n + " chunks, more than 64",
               "把最长的输入（input_tokens_max " + num_text(w.input_tokens_max) + "）切成 " + n + " 块，超过 64 块",
               ">= " + need + " (input_tokens_max / 64)", ">= " + need + "（input_tokens_max / 64）");
}

ThroughputKind read_kind(Reader& R, const json& o, const std::string& base, const char* key) {
  std::string k = R.choice(o, base, key, {"total", "output", "input"});
  return k == "output" ? ThroughputKind::Output : k == "input" ? ThroughputKind::Input : ThroughputKind::Total;
}

bool read_custom_gpu(Reader& R, const json* v, Gpu& g) {
  const std::string base = "hardware.custom_gpu";
  if (!v || !v->is_object()) {
    R.E.add(base, v, "an object {name, memory_gb, hbm_tb_s, bf16_tflops, fp8_tflops, int8_tops, fp4_tflops, nvlink_gb_s, nic_gb_s} when hardware.gpu is \"custom\"",
            "hardware.gpu 为 \"custom\" 时须为对象 {name, memory_gb, hbm_tb_s, bf16_tflops, fp8_tflops, int8_tops, fp4_tflops, nvlink_gb_s, nic_gb_s}");
    return false;
  }
  static const std::vector<std::string> keys = {"name", "memory_gb", "hbm_tb_s", "bf16_tflops", "fp8_tflops",
                                                "int8_tops", "fp4_tflops", "nvlink_gb_s", "nic_gb_s", "nvlink_domain",
                                                "host_link_gb_s"};
  for (auto it = v->begin(); it != v->end(); ++it)
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
      R.E.add_rule(base + "." + it.key(), &it.value(), "is not a known field", "不是已知字段", "one of: " + join(keys), "以下之一：" + join(keys));
  const json& o = *v;
  g = Gpu{};
  g.id = "custom";
  g.name = o.contains("name") ? R.text(o, base, "name", 80, false) : "Custom GPU";
  g.memory_bytes = R.number(o, base, "memory_gb", 1, 4096, false) * 1e9;
  g.hbm_bytes_s = R.number(o, base, "hbm_tb_s", 0.05, 100, false) * 1e12;
  g.bf16_flops = R.number(o, base, "bf16_tflops", 1, 100000, false) * 1e12;
  g.fp8_flops = o.contains("fp8_tflops") ? R.number(o, base, "fp8_tflops", 0, 100000, false, true, 0) * 1e12 : 0;
  g.int8_ops = o.contains("int8_tops") ? R.number(o, base, "int8_tops", 0, 100000, false, true, 0) * 1e12 : 0;
  g.fp4_flops = o.contains("fp4_tflops") ? R.number(o, base, "fp4_tflops", 0, 100000, false, true, 0) * 1e12 : 0;
  g.nvlink_bytes_s = R.number(o, base, "nvlink_gb_s", 1, 100000, false) * 1e9;
  g.nic_bytes_s = R.number(o, base, "nic_gb_s", 0.1, 100000, false) * 1e9;
  g.nvlink_domain = o.contains("nvlink_domain") ? R.integer(o, base, "nvlink_domain", 1, 576) : 8;
  // Host memory to GPU (weight offload): PCIe Gen4 x16 unless given.
  if (o.contains("host_link_gb_s")) g.host_bytes_s = R.number(o, base, "host_link_gb_s", 1, 10000, false) * 1e9;
  // A custom GPU has no published measurement: it takes the default family's factors.
  g.family = "custom";
  g.eff = Efficiency{};
  return true;
}

// Version 2: a reference the document did not choose that does not fit the model (or its GPU's
// formats) is not applied; a note says so instead of an error on a field the user never set.
void skip_unfitting_reference(Scenario& s, const json& rdep, const json& rpr, Lang lang) {
  Errors scratch(lang);
  Reader R2{scratch};
  Reference& rf = s.reference;
  check_deployment(R2, rf.deployment, s.model, rdep, "reference.deployment", 1 << 20, "");
  check_precision_on_gpu(R2, rf.precision, rf.gpu, "reference.precision", rpr);
  if (scratch.empty()) return;
  rf.present = false;
  const std::string why = scratch.list().front().message;
  s.notes.push_back(lang == Lang::Zh ? "参考实测「" + rf.name + "」与模型 " + s.model.name + " 不匹配，未使用（" + why + "）。"
                                     : "Reference measurement \"" + rf.name + "\" does not fit " + s.model.name + " and is not applied (" + why + ").");
}

}  // namespace slo::fields

SLO_SIZE_END
