// Physics tests, issue 3 (KV cache bytes per token). Expected values are hand arithmetic on the
// configs (ESTIMATOR-NOTES §3): MLA caches kv_lora_rank + qk_rope_head_dim per layer, replicated
// under attention TP; GQA caches 2 x kv_heads x head_dim, split by TP up to the KV head count;
// FlashMLA's FP8 layout is 512 fp8 + 4 fp32 scales + 64 bf16 rope = 656 B per token per layer.
#include <gtest/gtest.h>

#include "slo/kv_cache.hpp"
#include "slo/model.hpp"

using namespace slo;

TEST(PhysicsKv, DeepSeekV3MlaBytesPerToken) {
  const ModelArch m = load_preset("deepseek-ai/DeepSeek-V3");
  // BF16: 61 layers x (512 + 64) x 2 B.
  EXPECT_EQ(kv_bytes_per_token(m, DType::BF16, 1), 61.0 * 576 * 2);
  EXPECT_EQ(kv_bytes_per_token(m, DType::BF16, 1), 70272.0);
  // FP8 (FlashMLA): 512 x 1 + 4 x 4 + 64 x 2 = 656 B per layer.
  EXPECT_EQ(kv_bytes_per_token_layer(m, DType::FP8, 1), 512.0 + 16.0 + 128.0);
  EXPECT_EQ(kv_bytes_per_token(m, DType::FP8, 1), 61.0 * 656);
  EXPECT_EQ(kv_bytes_per_token(m, DType::FP8, 1), 40016.0);
  // The latent cannot be split by heads: every attention-TP rank holds the full latent.
  for (int tp : {1, 2, 4, 8, 16}) {
    SCOPED_TRACE(tp);
    EXPECT_EQ(kv_bytes_per_token(m, DType::BF16, tp), 70272.0);
    EXPECT_EQ(kv_bytes_per_token(m, DType::FP8, tp), 40016.0);
  }
  // A session with no sliding layers is context x per-token bytes.
  EXPECT_EQ(kv_session_bytes(m, DType::BF16, 8, 1, 32768), 70272.0 * 32768);
}

TEST(PhysicsKv, Llama70BGqaSplitAndReplication) {
  const ModelArch m = load_preset("meta-llama/Llama-3.1-70B-Instruct");
  ASSERT_EQ(m.kv_heads, 8);
  ASSERT_EQ(m.head_dim, 128);
  ASSERT_EQ(m.layers, 80);
  // K and V x 8 KV heads x 128 dims x 2 B x 80 layers.
  const double full = 2.0 * 8 * 128 * 2 * 80;
  ASSERT_EQ(full, 327680.0);
  EXPECT_EQ(kv_bytes_per_token(m, DType::BF16, 1), 327680.0);
  EXPECT_EQ(kv_bytes_per_token(m, DType::BF16, 2), 327680.0 / 2);
  EXPECT_EQ(kv_bytes_per_token(m, DType::BF16, 4), 327680.0 / 4);
  EXPECT_EQ(kv_bytes_per_token(m, DType::BF16, 8), 327680.0 / 8);
  // Beyond 8 ranks the KV heads replicate: one head per rank, the same bytes as TP 8.
  EXPECT_EQ(kv_bytes_per_token(m, DType::BF16, 16), kv_bytes_per_token(m, DType::BF16, 8));
  EXPECT_EQ(kv_bytes_per_token(m, DType::BF16, 32), 327680.0 / 8);
  // FP8 KV (GQA): one byte per element.
  EXPECT_EQ(kv_bytes_per_token(m, DType::FP8, 8), 327680.0 / 16);
}

TEST(PhysicsKv, GptOssSlidingWindowCapsAt128Tokens) {
  const ModelArch m = load_preset("openai/gpt-oss-120b");
  // config.json: 36 layers alternating sliding / full ("layer_types"), window 128, 8 KV heads x 64.
  ASSERT_EQ(m.layers, 36);
  EXPECT_EQ(m.sliding_layers(), 18);
  EXPECT_EQ(m.sliding_window, 128);
  ASSERT_EQ(m.kv_heads, 8);
  ASSERT_EQ(m.head_dim, 64);
  const double per_layer = 2.0 * 8 * 64 * 2;  // K and V, BF16: 2,048 B per token per layer
  EXPECT_EQ(kv_bytes_per_token_layer(m, DType::BF16, 1), per_layer);
  // 18 full layers x 32,768 tokens + 18 sliding layers x 128 tokens.
  const double expected = 18.0 * 32768 * 2048 + 18.0 * 128 * 2048;
  ASSERT_EQ(expected, 1212678144.0);
  EXPECT_EQ(kv_session_bytes(m, DType::BF16, 1, 1, 32768), expected);
  // Below the window every layer holds the whole context.
  EXPECT_EQ(kv_session_bytes(m, DType::BF16, 1, 1, 100), 36.0 * 100 * 2048);
  // TP 8 splits the 8 KV heads: one eighth per rank.
  EXPECT_EQ(kv_session_bytes(m, DType::BF16, 8, 1, 32768), expected / 8);
}
