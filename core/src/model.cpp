// Hugging Face config.json -> ModelArch, and the embedded model presets.
#include "slo/model.hpp"

#include <algorithm>
#include <cmath>

#include "slo/data.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

using nlohmann::json;

void ModelArch::finalize() {
  n_moe_layers = static_cast<int>(std::count(layer_moe.begin(), layer_moe.end(), 1));
  n_sliding_layers = static_cast<int>(std::count(layer_sliding.begin(), layer_sliding.end(), 1));
}

namespace {

struct Reader {
  const json& cfg;
  const std::string& base;
  Errors& errors;
  bool ok = true;

  const json* find(const char* key) const {
    auto it = cfg.find(key);
    if (it == cfg.end() || it->is_null()) return nullptr;
    return &*it;
  }
  bool has(const char* key) const { return find(key) != nullptr; }

  // An integer field in [lo, hi]; `required` reports a missing key.
  int64_t integer(const char* key, int64_t lo, int64_t hi, bool required, int64_t fallback = 0) {
    const json* v = find(key);
    std::string path = base + "." + key;
    if (!v) {
      if (required) {
        errors.add(path, nullptr, "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (required)",
                   "[" + std::to_string(lo) + ", " + std::to_string(hi) + "] 内的整数（必填）");
        ok = false;
      }
      return fallback;
    }
    // Range first, then integrality: no value outside [lo, hi] ever reaches a conversion (a cast of
    // 1.3e92 to an integer is undefined behaviour).
    const double d = v->is_number() ? v->get<double>() : 0.0;
    const bool in_range = v->is_number() && d >= static_cast<double>(lo) && d <= static_cast<double>(hi);
    if (!in_range || d != std::floor(d)) {
      errors.add(path, v, "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
                 "[" + std::to_string(lo) + ", " + std::to_string(hi) + "] 内的整数");
      ok = false;
      return fallback;
    }
    return static_cast<int64_t>(d);
  }

  bool boolean(const char* key, bool fallback) {
    const json* v = find(key);
    if (!v) return fallback;
    if (!v->is_boolean()) {
      errors.add(base + "." + key, v, "true or false", "true 或 false");
      ok = false;
      return fallback;
    }
    return v->get<bool>();
  }

  std::string string(const char* key) const {
    const json* v = find(key);
    return v && v->is_string() ? v->get<std::string>() : std::string();
  }
};

std::string family_of(const std::string& model_type, const json& cfg) {
  static const std::vector<std::pair<std::string, std::string>> known = {
      {"deepseek_v3", "deepseek_v3"}, {"deepseek_v2", "deepseek_v3"}, {"kimi_k2", "deepseek_v3"},
      {"qwen3_moe", "qwen3_moe"},     {"qwen2_moe", "qwen3_moe"},     {"qwen3", "llama"},
      {"qwen2", "llama"},             {"llama", "llama"},             {"mistral", "llama"},
      {"gpt_oss", "gpt_oss"},         {"mixtral", "mixtral"},         {"glm4_moe", "glm4_moe"}};
  for (const auto& k : known)
    if (k.first == model_type) return k.second;
  // Unknown model_type: infer from the keys the config carries.
  if (cfg.contains("kv_lora_rank")) return "deepseek_v3";
  if (cfg.contains("n_routed_experts")) return "glm4_moe";
  if (cfg.contains("num_local_experts")) return "mixtral";
  if (cfg.contains("num_experts")) return "qwen3_moe";
  return "llama";
}

}  // namespace

bool parse_hf_config(const json& cfg, const std::string& path, ModelArch& m, Errors& errors) {
  if (!cfg.is_object()) {
    errors.add(path, &cfg, "a Hugging Face config.json object", "Hugging Face config.json 对象");
    return false;
  }
  Reader r{cfg, path, errors};
  m.model_type = r.string("model_type");
  m.family = family_of(m.model_type, cfg);
  const bool mla = m.family == "deepseek_v3";

  m.hidden = r.integer("hidden_size", 64, 1 << 17, true);
  m.layers = static_cast<int>(r.integer("num_hidden_layers", 1, 1024, true));
  m.vocab = r.integer("vocab_size", 16, 1 << 24, true);
  m.heads = static_cast<int>(r.integer("num_attention_heads", 1, 1024, true));
  m.kv_heads = static_cast<int>(r.integer("num_key_value_heads", 1, 1024, false, m.heads));
  m.tie_embeddings = r.boolean("tie_word_embeddings", false);
  m.max_position = static_cast<int>(r.integer("max_position_embeddings", 1, 1LL << 30, false, 0));
  if (!r.ok) return false;
  if (!mla && m.heads % m.kv_heads != 0) {
    const json* v = r.find("num_key_value_heads");
    errors.add_rule(path + ".num_key_value_heads", v, "does not divide num_attention_heads (" + std::to_string(m.heads) + ")",
                    "不能整除 num_attention_heads（" + std::to_string(m.heads) + "）",
                    "a divisor of " + std::to_string(m.heads), std::to_string(m.heads) + " 的约数");
    return false;
  }

  // Attention.
  if (mla) {
    m.attention = AttentionType::MLA;
    m.q_lora_rank = static_cast<int>(r.integer("q_lora_rank", 0, 1 << 16, false, 0));
    m.kv_lora_rank = static_cast<int>(r.integer("kv_lora_rank", 1, 1 << 16, true));
    m.qk_nope_dim = static_cast<int>(r.integer("qk_nope_head_dim", 1, 4096, true));
    m.qk_rope_dim = static_cast<int>(r.integer("qk_rope_head_dim", 0, 4096, true));
    m.v_head_dim = static_cast<int>(r.integer("v_head_dim", 1, 4096, true));
    m.head_dim = m.qk_nope_dim + m.qk_rope_dim;
    m.kv_heads = m.heads;
  } else {
    m.attention = AttentionType::GQA;
    const int64_t derived = m.hidden / m.heads;
    if (!r.has("head_dim") && (derived < 1 || derived > 4096)) {
      const std::string d = std::to_string(derived);
      errors.add_rule(path + ".num_attention_heads", r.find("num_attention_heads"),
                      "gives a derived head_dim (hidden_size / num_attention_heads) of " + d + ", outside [1, 4096]",
                      "推导出的 head_dim（hidden_size / num_attention_heads）为 " + d + "，超出 [1, 4096]",
                      "hidden_size / num_attention_heads in [1, 4096], or an explicit head_dim",
                      "hidden_size / num_attention_heads 在 [1, 4096] 内，或显式给出 head_dim");
      return false;
    }
    m.head_dim = static_cast<int>(r.integer("head_dim", 1, 4096, false, derived));
  }
  bool attention_bias = r.boolean("attention_bias", false);
  if (m.model_type == "qwen2" || m.model_type == "qwen2_moe") attention_bias = true;  // Qwen2: q/k/v bias always
  m.qkv_bias = attention_bias;
  // o_proj bias: Llama and gpt-oss tie it to attention_bias; Qwen2 and GLM-4.5 have none.
  m.o_bias = attention_bias && (m.family == "llama" || m.family == "gpt_oss") && m.model_type != "qwen2" &&
             m.model_type != "qwen3";
  m.qk_norm = m.model_type == "qwen3" || m.model_type == "qwen3_moe" || r.boolean("use_qk_norm", false);
  m.attention_sinks = m.family == "gpt_oss";

  // Sliding-window layers: gpt-oss lists layer_types; Mistral-style configs set sliding_window
  // for every layer unless use_sliding_window is false (Qwen2 ships a window it does not use).
  m.layer_sliding.assign(m.layers, 0);
  int64_t window = r.integer("sliding_window", 0, 1LL << 30, false, 0);
  if (const json* lt = r.find("layer_types"); lt && lt->is_array()) {
    if (static_cast<int>(lt->size()) != m.layers) {
      errors.add(path + ".layer_types", lt, "an array of num_hidden_layers (" + std::to_string(m.layers) + ") entries",
                 "长度等于 num_hidden_layers（" + std::to_string(m.layers) + "）的数组");
      return false;
    }
    for (int i = 0; i < m.layers; ++i) {
      const json& t = (*lt)[i];
      m.layer_sliding[i] = t.is_string() && t.get<std::string>() == "sliding_attention" ? 1 : 0;
    }
    m.finalize();
    if (m.sliding_layers() > 0 && window <= 0) {
      errors.add(path + ".sliding_window", r.find("sliding_window"), "a positive window when layer_types has sliding layers",
                 "layer_types 含滑动窗口层时须为正整数");
      return false;
    }
  } else if (window > 0 && r.boolean("use_sliding_window", true) && m.family != "deepseek_v3") {
    std::fill(m.layer_sliding.begin(), m.layer_sliding.end(), 1);
  }
  m.finalize();
  m.sliding_window = m.sliding_layers() > 0 ? static_cast<int>(window) : 0;

  // Feed-forward and experts.
  m.intermediate = r.integer("intermediate_size", 1, 1LL << 20, m.family == "llama" || m.family == "deepseek_v3" || m.family == "glm4_moe");
  m.layer_moe.assign(m.layers, 0);
  if (m.family == "deepseek_v3" || m.family == "glm4_moe") {
    m.routed_experts = static_cast<int>(r.integer("n_routed_experts", 1, 1 << 14, true));
    m.shared_experts = static_cast<int>(r.integer("n_shared_experts", 0, 64, false, 0));
    m.experts_per_tok = static_cast<int>(r.integer("num_experts_per_tok", 1, 1 << 10, true));
    m.moe_intermediate = r.integer("moe_intermediate_size", 1, 1LL << 20, true);
    m.shared_intermediate = m.moe_intermediate;
    int first_dense = static_cast<int>(r.integer("first_k_dense_replace", 0, m.layers, false, 0));
    int freq = static_cast<int>(r.integer("moe_layer_freq", 1, m.layers, false, 1));
    for (int i = 0; i < m.layers; ++i) m.layer_moe[i] = (i >= first_dense && i % freq == 0) ? 1 : 0;
    m.router_bias = r.string("topk_method") == "noaux_tc" || m.family == "glm4_moe";
    m.mtp_layers = static_cast<int>(r.integer("num_nextn_predict_layers", 0, 16, false, 0));
    m.expert_groups = static_cast<int>(r.integer("n_group", 0, 1 << 10, false, 0));
    m.topk_groups = static_cast<int>(r.integer("topk_group", 0, 1 << 10, false, 0));
  } else if (m.family == "qwen3_moe") {
    m.routed_experts = static_cast<int>(r.integer("num_experts", 1, 1 << 14, true));
    m.experts_per_tok = static_cast<int>(r.integer("num_experts_per_tok", 1, 1 << 10, true));
    m.moe_intermediate = r.integer("moe_intermediate_size", 1, 1LL << 20, true);
    int64_t shared = r.integer("shared_expert_intermediate_size", 0, 1LL << 20, false, 0);
    m.shared_experts = shared > 0 ? 1 : 0;
    m.shared_intermediate = shared;
    int step = static_cast<int>(r.integer("decoder_sparse_step", 1, m.layers, false, 1));
    std::vector<char> mlp_only(m.layers, 0);
    if (const json* mo = r.find("mlp_only_layers"); mo && mo->is_array() && mo->size() > static_cast<std::size_t>(m.layers)) {
      errors.add(path + ".mlp_only_layers", mo, "an array of at most num_hidden_layers (" + std::to_string(m.layers) + ") layer indices",
                 "至多 num_hidden_layers（" + std::to_string(m.layers) + "）个层号组成的数组");
      return false;
    } else if (mo && mo->is_array())
      for (const auto& x : *mo)
        if (x.is_number_integer() && x.get<int64_t>() >= 0 && x.get<int64_t>() < m.layers) mlp_only[x.get<int>()] = 1;
    for (int i = 0; i < m.layers; ++i) m.layer_moe[i] = (!mlp_only[i] && (i + 1) % step == 0) ? 1 : 0;
  } else if (m.family == "mixtral" || m.family == "gpt_oss") {
    m.routed_experts = static_cast<int>(r.integer("num_local_experts", 1, 1 << 14, true));
    m.experts_per_tok = static_cast<int>(r.integer(r.has("num_experts_per_tok") ? "num_experts_per_tok" : "experts_per_token", 1, 1 << 10, true));
    m.moe_intermediate = m.intermediate;
    std::fill(m.layer_moe.begin(), m.layer_moe.end(), 1);
    m.router_bias = m.family == "gpt_oss";
    m.expert_bias = m.family == "gpt_oss";
  }
  if (!r.ok) return false;
  m.finalize();
  if (m.is_moe() && m.experts_per_tok > m.routed_experts) {
    errors.add(path + ".num_experts_per_tok", r.find("num_experts_per_tok"),
               "at most the number of routed experts (" + std::to_string(m.routed_experts) + ")",
               "不超过路由专家数（" + std::to_string(m.routed_experts) + "）");
    return false;
  }
  if (!m.is_moe() && m.intermediate <= 0) {
    errors.add(path + ".intermediate_size", r.find("intermediate_size"), "a positive integer", "正整数");
    return false;
  }

  // Shipped precision.
  if (const json* q = r.find("quantization_config"); q && q->is_object()) {
    std::string method = q->value("quant_method", "");
    if (method == "fp8") m.shipped_weights = "fp8";
    else if (method == "mxfp4") m.shipped_weights = "mxfp4";
    else if (!method.empty()) m.shipped_weights = method;
    m.fp8_block_release = method == "fp8" && q->contains("weight_block_size");
  }
  return true;
}

// ------------------------------------------------------------------------------------ presets

const std::vector<ModelPreset>& model_presets() {
  static const std::vector<ModelPreset> presets = [] {
    std::vector<ModelPreset> out;
    json idx = json::parse(data::file("models/index.json"));
    for (const auto& p : idx.at("presets")) {
      ModelPreset m;
      m.id = p.at("id");
      m.name = p.at("name");
      m.file = p.at("file");
      m.status = p.at("status");
      m.note = p.value("note", "");
      m.note_zh = p.value("note_zh", m.note);
      m.published_total = p.at("published_total");
      m.published_active = p.at("published_active");
      m.active_convention = p.at("active_convention");
      m.source = p.value("source", "");
      m.fp8_block_release = p.value("fp8_release", "") == "block";
      out.push_back(std::move(m));
    }
    return out;
  }();
  return presets;
}

const ModelPreset* find_model_preset(const std::string& id) {
  for (const auto& p : model_presets())
    if (p.id == id) return &p;
  return nullptr;
}

ModelArch load_preset(const std::string& id) {
  const ModelPreset* p = find_model_preset(id);
  if (!p) throw InternalError("unknown model preset " + id);
  ModelArch m;
  Errors errors;
  if (!parse_hf_config(json::parse(data::file(p->file)), "model.config", m, errors))
    throw InternalError("embedded preset " + id + " does not parse: " + errors.list().front().message);
  m.id = p->id;
  m.name = p->name;
  m.published_total = p->published_total;
  m.published_active = p->published_active;
  m.active_convention = p->active_convention;
  m.provenance = p->source;
  m.fp8_block_release = m.fp8_block_release || p->fp8_block_release;
  return m;
}

}  // namespace slo

SLO_SIZE_END
