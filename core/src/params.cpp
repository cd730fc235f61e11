// Parameter counts from the architecture (every weight matrix, bias and norm; MTP separately).
#include "slo/params.hpp"

namespace slo {

namespace {

// MLA: q_a (H x q_lora) [+ q_b (q_lora x heads*(nope+rope))] or q (H x heads*(nope+rope)),
// kv_a (H x (kv_lora+rope)), kv_b (kv_lora x heads*(nope+v)), o (heads*v x H).
// Source: DeepSeek-V3 modeling_deepseek.py DeepseekV3Attention; ESTIMATOR-NOTES §2 (187,105,280 per layer).
AttentionSplit mla_split(const ModelArch& m) {
  const double H = static_cast<double>(m.hidden), h = m.heads;
  const double qk = m.qk_nope_dim + m.qk_rope_dim;
  AttentionSplit s;
  if (m.q_lora_rank > 0) {
    s.replicated += H * m.q_lora_rank;          // q_a_proj (replicated under attention TP in SGLang)
    s.split += double(m.q_lora_rank) * h * qk;  // q_b_proj
  } else {
    s.split += H * h * qk;  // q_proj
  }
  s.replicated += H * (m.kv_lora_rank + m.qk_rope_dim);      // kv_a_proj_with_mqa
  s.split += double(m.kv_lora_rank) * h * (m.qk_nope_dim + m.v_head_dim);  // kv_b_proj
  s.split += h * m.v_head_dim * H;                           // o_proj
  return s;
}

// GQA: q (H x heads*hd), k and v (H x kv*hd), o (heads*hd x H), optional biases and sinks.
// Source: Hugging Face LlamaAttention / Qwen2Attention / GptOssAttention.
AttentionSplit gqa_split(const ModelArch& m) {
  const double H = static_cast<double>(m.hidden), hd = m.head_dim;
  AttentionSplit s;
  s.split += H * m.heads * hd + 2.0 * H * m.kv_heads * hd + m.heads * hd * H;
  if (m.qkv_bias) s.split += m.heads * hd + 2.0 * m.kv_heads * hd;
  if (m.o_bias) s.replicated += H;
  if (m.attention_sinks) s.split += m.heads;
  return s;
}

double attention_norms_per_layer(const ModelArch& m) {
  if (m.attention == AttentionType::MLA) return double(m.q_lora_rank) + m.kv_lora_rank;  // q_a/kv_a layernorms
  return m.qk_norm ? 2.0 * m.head_dim : 0.0;                                            // q_norm, k_norm
}

}  // namespace

AttentionSplit attention_split(const ModelArch& m) {
  return m.attention == AttentionType::MLA ? mla_split(m) : gqa_split(m);
}

ParamBreakdown count_params(const ModelArch& m) {
  ParamBreakdown p;
  const double H = static_cast<double>(m.hidden);
  AttentionSplit a = attention_split(m);
  p.attention_per_layer = a.replicated + a.split;
  p.attention = p.attention_per_layer * m.layers;
  p.attention_norms = attention_norms_per_layer(m) * m.layers;
  // Gated FFN (SwiGLU): gate, up, down = 3 x H x I. Source: LlamaMLP / DeepseekV3MLP.
  p.dense_ffn = 3.0 * H * static_cast<double>(m.intermediate) * m.dense_layers();
  if (m.is_moe()) {
    const double I = static_cast<double>(m.moe_intermediate);
    // gpt-oss experts carry biases: gate_up (2I) and down (H). Source: GptOssExperts.
    p.per_expert = 3.0 * H * I + (m.expert_bias ? 2.0 * I + H : 0.0);
    p.routed_experts = p.per_expert * m.routed_experts * m.moe_layers();
    p.shared_experts = 3.0 * H * static_cast<double>(m.shared_intermediate) * m.shared_experts * m.moe_layers();
    // Router: H x E, plus a bias of E (DeepSeek e_score_correction_bias, gpt-oss router bias).
    p.router = (H * m.routed_experts + (m.router_bias ? m.routed_experts : 0)) * m.moe_layers();
  }
  p.embedding = static_cast<double>(m.vocab) * H;
  p.lm_head = m.tie_embeddings ? 0.0 : static_cast<double>(m.vocab) * H;
  p.layer_norms = 2.0 * H * m.layers + H;  // input + post-attention RMSNorm per layer, final norm

  // Activated per token: everything except the routed experts a token does not visit.
  const double routed_active = m.is_moe() ? p.per_expert * m.experts_per_tok * m.moe_layers() : 0.0;
  p.active_all = p.total() - p.routed_experts + routed_active;
  p.active_no_embedding = p.active_all - p.embedding;
  p.active_no_embedding_no_head = p.active_no_embedding - (m.tie_embeddings ? 0.0 : p.lm_head);

  // MTP / next-n module (DeepSeek-V3): one more decoder layer (MoE when the model is MoE) plus
  // eh_proj (2H x H), enorm, hnorm and the shared head's norm; embedding and head are shared.
  // Source: DeepSeek-V3 README_WEIGHTS.md (MTP: 11.5B unique parameters).
  if (m.mtp_layers > 0) {
    double layer = p.attention_per_layer + attention_norms_per_layer(m) + 2.0 * H;
    if (m.is_moe())
      layer += p.per_expert * m.routed_experts + 3.0 * H * static_cast<double>(m.shared_intermediate) * m.shared_experts +
               H * m.routed_experts + (m.router_bias ? m.routed_experts : 0);
    else
      layer += 3.0 * H * static_cast<double>(m.intermediate);
    p.mtp = m.mtp_layers * (layer + 2.0 * H * H + 3.0 * H);
  }
  return p;
}

double ParamBreakdown::active_as_published(const ModelArch& m) const {
  if (m.active_convention == "no_embedding") return active_no_embedding;
  if (m.active_convention == "no_embedding_no_head") return active_no_embedding_no_head;
  return active_all;
}

}  // namespace slo
