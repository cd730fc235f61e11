// KV cache bytes per token: MLA latent vs GQA heads, TP split or replication, sliding windows, format.
#pragma once
#include "slo/model.hpp"
#include "slo/precision.hpp"

namespace slo {

// Bytes one layer stores per token on one attention-TP rank.
// MLA: (kv_lora_rank + qk_rope_head_dim) elements, replicated on every TP rank (the latent cannot be
// split by heads); FP8/INT8 use FlashMLA's layout (kv_lora fp8 + one fp32 scale per 128 + rope in bf16).
// GQA: 2 (K and V) x kv_heads x head_dim elements, divided by TP while kv_heads >= TP, one head each beyond.
// Source: ESTIMATOR-NOTES §3; FlashMLA README (656 B per token per layer in FP8).
double kv_bytes_per_token_layer(const ModelArch& m, DType kv, int attention_tp);

// Bytes per token summed over `layers` full-attention layers (all layers when layers < 0).
double kv_bytes_per_token(const ModelArch& m, DType kv, int attention_tp);

// Bytes one session of `context` tokens holds on one attention-TP rank of one pipeline stage:
// sliding-window layers hold at most `sliding_window` tokens. `pp` divides the layers.
double kv_session_bytes(const ModelArch& m, DType kv, int attention_tp, int pp, double context);

}  // namespace slo
