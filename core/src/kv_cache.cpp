#include "slo/kv_cache.hpp"

#include <algorithm>
#include <cmath>

namespace slo {

double kv_bytes_per_token_layer(const ModelArch& m, DType kv, int tp) {
  const bool eight_bit = kv == DType::FP8 || kv == DType::INT8;
  if (m.attention == AttentionType::MLA) {
    if (eight_bit)  // FlashMLA FP8 KV: kv_lora fp8 + fp32 scale per 128 elements + rope part in bf16
      return m.kv_lora_rank + 4.0 * std::ceil(m.kv_lora_rank / 128.0) + 2.0 * m.qk_rope_dim;
    return 2.0 * (m.kv_lora_rank + m.qk_rope_dim);
  }
  const double bytes = eight_bit ? 1.0 : 2.0;
  const double heads_per_rank = std::max(1.0, static_cast<double>(m.kv_heads) / tp);
  return 2.0 * heads_per_rank * m.head_dim * bytes;
}

double kv_bytes_per_token(const ModelArch& m, DType kv, int tp) {
  return kv_bytes_per_token_layer(m, kv, tp) * m.layers;
}

double kv_session_bytes(const ModelArch& m, DType kv, int tp, int pp, double context) {
  const double per_layer = kv_bytes_per_token_layer(m, kv, tp);
  const double sliding = m.sliding_layers();
  const double full = m.layers - sliding;
  const double window_tokens = m.sliding_window > 0 ? std::min(context, static_cast<double>(m.sliding_window)) : context;
  // One pipeline stage holds layers / pp of them (the worst stage: ceil).
  const double stage_share = std::ceil(static_cast<double>(m.layers) / pp) / m.layers;
  return per_layer * (full * context + sliding * window_tokens) * stage_share;
}

}  // namespace slo
