// Physics tests, issue 3 (model): exact parameter counts.
// Every expected number here is hand arithmetic on the model's config.json (ESTIMATOR-NOTES §2,
// /work/shared/reference/models/SOURCES.md "Exact counts computed from these configs") or an
// authors' published figure (core/data/models/index.json), never the implementation's output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "slo/data.hpp"
#include "slo/model.hpp"
#include "slo/params.hpp"

using nlohmann::json;
using namespace slo;

namespace {

// The exact totals in SOURCES.md's table (MTP excluded, every matrix, bias, norm and router bias,
// untied embedding and head both counted), and the same table's "active incl. emb + head" and
// "active excl. emb + head" columns.
struct Exact {
  int64_t total, active_all, active_no_emb_no_head;
};
const std::map<std::string, Exact>& exact_counts() {
  static const std::map<std::string, Exact> m = {
      {"deepseek-ai/DeepSeek-V3", {671026419200LL, 37552297472LL, 35698939392LL}},
      {"deepseek-ai/DeepSeek-R1", {671026419200LL, 37552297472LL, 35698939392LL}},
      {"moonshotai/Kimi-K2-Instruct", {1026408232448LL, 32861500928LL, 30512690688LL}},
      {"Qwen/Qwen3-235B-A22B", {235093634560LL, 22190763520LL, 20946103808LL}},
      {"Qwen/Qwen3-30B-A3B", {30532122624LL, 3353032704LL, 2730702848LL}},
      {"meta-llama/Llama-3.1-70B-Instruct", {70553706496LL, 70553706496LL, 68452360192LL}},
      {"meta-llama/Llama-3.1-8B-Instruct", {8030261248LL, 8030261248LL, 6979588096LL}},
      // Preset uses the nvidia FP8 proxy config (8 KV heads): SOURCES.md row "(8 KV heads)".
      {"meta-llama/Llama-3.1-405B-Instruct", {405853388800LL, 405853388800LL, 401650696192LL}},
      {"openai/gpt-oss-120b", {116829156672LL, 5711982912LL, 4553716032LL}},
      {"mistralai/Mixtral-8x7B-v0.1", {46702792704LL, 12879925248LL, 12617781248LL}},
      // Preset uses the GLM-4.7 sibling config (= GLM-4.5 shape).
      {"zai-org/GLM-4.5", {352797829024LL, 33632266144LL, 32080373664LL}},
      {"Qwen/Qwen2.5-72B-Instruct", {72706203648LL, 72706203648LL, 70214787072LL}},
      // Llama 2 70B: Llama 3.1 70B's layers with a 32,000-token vocabulary (embedding and head 2 x 262,144,000).
      {"meta-llama/Llama-2-70b-chat-hf", {68976648192LL, 68976648192LL, 68452360192LL}},
  };
  return m;
}

double d(int64_t x) { return static_cast<double>(x); }  // all counts < 2^53: exact in double

}  // namespace

// ESTIMATOR-NOTES §2, component by component, from DeepSeek-V3's config.json.
TEST(PhysicsParams, DeepSeekV3Breakdown) {
  const ModelArch m = load_preset("deepseek-ai/DeepSeek-V3");
  const ParamBreakdown p = count_params(m);

  // Shape read from config.json.
  EXPECT_EQ(m.hidden, 7168);
  EXPECT_EQ(m.layers, 61);
  EXPECT_EQ(m.moe_layers(), 58);
  EXPECT_EQ(m.dense_layers(), 3);
  EXPECT_EQ(m.vocab, 129280);
  EXPECT_EQ(m.mtp_layers, 1);

  // MLA per layer: q_a 7168x1536 + q_b 1536x(128x192) + kv_a 7168x576 + kv_b 512x(128x256) + o 16384x7168.
  const int64_t mla = 7168LL * 1536 + 1536LL * 128 * 192 + 7168LL * 576 + 512LL * 128 * 256 + 128LL * 128 * 7168;
  ASSERT_EQ(mla, 187105280LL);  // hand arithmetic check of the expression itself
  EXPECT_EQ(p.attention_per_layer, d(187105280LL));
  EXPECT_EQ(p.attention, d(61LL * 187105280LL));
  EXPECT_EQ(p.attention_norms, d(61LL * 2048));  // q_a_layernorm 1536 + kv_a_layernorm 512

  // Dense FFN: 3 layers x 3 matrices x 7168 x 18432.
  EXPECT_EQ(p.dense_ffn, d(3LL * 3 * 7168 * 18432));
  EXPECT_NEAR(p.dense_ffn / 1e9, 1.189, 0.0005);

  // Routed experts: 58 x 256 x 44,040,192; one expert 3 x 7168 x 2048.
  ASSERT_EQ(3LL * 7168 * 2048, 44040192LL);
  EXPECT_EQ(p.per_expert, d(44040192LL));
  EXPECT_EQ(p.routed_experts, d(58LL * 256 * 44040192LL));
  // Shared experts: 58 x 1 x 44,040,192.
  EXPECT_EQ(p.shared_experts, d(58LL * 44040192LL));
  // Routers: 58 x (7168 x 256 + 256 e_score_correction_bias).
  EXPECT_EQ(p.router, d(58LL * (7168LL * 256 + 256)));
  // Embedding and lm_head (untied): 129280 x 7168 each.
  EXPECT_EQ(p.embedding, d(129280LL * 7168));
  EXPECT_EQ(p.lm_head, d(129280LL * 7168));
  // Input + post-attention RMSNorm per layer, plus the final norm.
  EXPECT_EQ(p.layer_norms, d(2LL * 7168 * 61 + 7168));

  // Total (main model, MTP excluded) and activated (8 routed + 1 shared, with embedding and head).
  EXPECT_EQ(p.total(), d(671026419200LL));
  EXPECT_EQ(p.active_all, d(37552297472LL));
  EXPECT_EQ(p.active_all, d(671026419200LL - 58LL * 256 * 44040192LL + 58LL * 8 * 44040192LL));

  // MTP: README_WEIGHTS.md publishes 11.5B unique parameters (embedding and head shared).
  EXPECT_NEAR(p.mtp / 11.5e9, 1.0, 0.02) << "MTP unique params " << p.mtp;
}

// Every preset against the authors' figure (tolerance and active convention from index.json) and
// against the exact count from its config (SOURCES.md).
TEST(PhysicsParams, PresetsMatchPublishedAndExactCounts) {
  const json index = json::parse(data::file("models/index.json"));
  std::set<std::string> in_index;
  for (const auto& e : index.at("presets")) {
    const std::string id = e.at("id");
    in_index.insert(id);
    SCOPED_TRACE(id);
    const ModelArch m = load_preset(id);
    const ParamBreakdown p = count_params(m);

    const double pub_total = e.at("published_total");
    const double pub_active = e.at("published_active");
    const double tol_total = e.at("total_tolerance");
    const double tol_active = e.at("active_tolerance");
    const std::string conv = e.at("active_convention");
    ASSERT_GT(pub_total, 0);
    ASSERT_GT(pub_active, 0);
    ASSERT_GT(tol_total, 0);
    ASSERT_LE(tol_total, 0.05);
    ASSERT_GT(tol_active, 0);
    ASSERT_LE(tol_active, 0.05);

    // The active figure under the publisher's convention, derived here from the parts.
    double active = 0;
    if (conv == "all") active = p.active_all;
    else if (conv == "no_embedding") active = p.active_all - p.embedding;
    else if (conv == "no_embedding_no_head") active = p.active_all - p.embedding - p.lm_head;
    else FAIL() << "unknown active_convention " << conv;
    EXPECT_EQ(p.active_as_published(m), active) << "active_as_published disagrees with convention " << conv;

    EXPECT_LE(std::fabs(p.total() / pub_total - 1.0), tol_total)
        << "total " << p.total() << " vs published " << pub_total;
    EXPECT_LE(std::fabs(active / pub_active - 1.0), tol_active)
        << "active (" << conv << ") " << active << " vs published " << pub_active;

    auto it = exact_counts().find(id);
    ASSERT_NE(it, exact_counts().end()) << "no exact count in SOURCES.md for this preset";
    EXPECT_EQ(p.total(), d(it->second.total)) << "total differs from SOURCES.md exact count";
  }
  // model_presets() and index.json list the same presets.
  std::set<std::string> presets;
  for (const auto& mp : model_presets()) presets.insert(mp.id);
  EXPECT_EQ(presets, in_index);
  EXPECT_EQ(presets.size(), exact_counts().size());
}

// The activated counts of SOURCES.md's table, with and without embedding and head (exact integers).
TEST(PhysicsParams, PresetActiveExactCounts) {
  for (const auto& [id, ex] : exact_counts()) {
    SCOPED_TRACE(id);
    const ModelArch m = load_preset(id);
    const ParamBreakdown p = count_params(m);
    EXPECT_EQ(p.active_all, d(ex.active_all));
    EXPECT_EQ(p.active_no_embedding_no_head, d(ex.active_no_emb_no_head));
    // Dense models: everything is active.
    if (!m.is_moe()) EXPECT_EQ(p.active_all, p.total());
  }
}
