// Model architecture derived from a Hugging Face config.json (MoE and dense; MLA and GQA;
// sliding-window layers; MTP/next-n layers). Presets ship as data in core/data/models.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/errors.hpp"

namespace slo {

enum class AttentionType { GQA, MLA };  // MHA is GQA with kv_heads == heads

struct ModelArch {
  std::string id;          // preset id ("deepseek-ai/DeepSeek-V3") or "custom"
  std::string name;        // display name
  std::string model_type;  // config.json model_type
  std::string family;      // "deepseek_v3" | "qwen3_moe" | "llama" | "gpt_oss" | "mixtral" | "glm4_moe" | "qwen2"
  int64_t hidden = 0;
  int layers = 0;
  int64_t vocab = 0;
  bool tie_embeddings = false;
  int max_position = 0;

  // Attention.
  AttentionType attention = AttentionType::GQA;
  int heads = 0;
  int kv_heads = 0;
  int head_dim = 0;          // GQA head dim (q, k and v)
  bool qkv_bias = false;
  bool o_bias = false;
  bool qk_norm = false;      // per-head RMSNorm on q and k (Qwen3, GLM)
  bool attention_sinks = false;  // gpt-oss: one learned sink logit per head
  int q_lora_rank = 0;       // MLA (0 = q projected directly)
  int kv_lora_rank = 0;
  int qk_nope_dim = 0;
  int qk_rope_dim = 0;
  int v_head_dim = 0;
  int sliding_window = 0;          // tokens (0 = none)
  std::vector<char> layer_sliding;  // per layer: 1 when the layer uses the sliding window

  // Feed-forward (all gated: gate, up, down).
  int64_t intermediate = 0;         // dense FFN width
  int64_t moe_intermediate = 0;     // routed expert width
  int64_t shared_intermediate = 0;  // width of one shared expert
  std::vector<char> layer_moe;      // per layer: 1 for a MoE layer
  int routed_experts = 0;
  int experts_per_tok = 0;
  int shared_experts = 0;
  bool router_bias = false;         // e_score_correction_bias (DeepSeek) or router bias (gpt-oss)
  bool expert_bias = false;         // biases inside the experts (gpt-oss)
  int mtp_layers = 0;               // num_nextn_predict_layers
  int expert_groups = 0;            // n_group: experts in groups (node-limited routing), 0 = none
  int topk_groups = 0;              // topk_group: groups one token may reach

  // As shipped.
  std::string shipped_weights = "bf16";  // "bf16" | "fp8" | "mxfp4" (from quantization_config)
  // The model's FP8 weights come with a scale per 128 x 128 block: its own checkpoint says so
  // (quantization_config.weight_block_size), or, for a preset, its publisher's FP8 release does.
  bool fp8_block_release = false;

  // Published figures (preset metadata; 0 when unknown) and how the publisher counts "active".
  double published_total = 0;
  double published_active = 0;
  std::string active_convention = "all";  // "all" | "no_embedding" | "no_embedding_no_head"
  std::string provenance;

  bool is_moe() const { return routed_experts > 0; }
  int moe_layers() const { return n_moe_layers; }
  int dense_layers() const { return layers - n_moe_layers; }
  int sliding_layers() const { return n_sliding_layers; }
  // Recomputes the layer counts from layer_moe / layer_sliding (call after editing them).
  void finalize();
  int n_moe_layers = 0;
  int n_sliding_layers = 0;
};

// Builds the architecture from a config.json object; problems go to `errors` under `path`.
// Returns false when the config cannot describe a model.
bool parse_hf_config(const nlohmann::json& config, const std::string& path, ModelArch& out, Errors& errors);

struct ModelPreset {
  std::string id;      // "deepseek-ai/DeepSeek-V3"
  std::string name;    // "DeepSeek-V3 (671B)"
  std::string file;    // "models/deepseek-ai--DeepSeek-V3.json"
  std::string status;  // "verbatim" | "proxy"
  std::string note;
  std::string note_zh;  // the note in Chinese (falls back to the English one)
  double published_total = 0;
  double published_active = 0;
  std::string active_convention;
  std::string source;
  bool fp8_block_release = false;  // index.json "fp8_release": "block" (the publisher's FP8 checkpoint)
};

const std::vector<ModelPreset>& model_presets();
const ModelPreset* find_model_preset(const std::string& id);
// Loads a preset's architecture (throws InternalError when the embedded data is broken).
ModelArch load_preset(const std::string& id);

}  // namespace slo
