// The seed method (core/src/seed_method.cpp) against the seed script's printed output and against
// the script run with modified constants (expected values below come from running
// ../shared/seed/slo_check_seed.py with its dicts changed to each scenario's values; the
// printed report then differs from ours only in the labels we take from the scenario: EP=, the
// GPU count, the model name and the attention type).
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "slo/report.hpp"
#include "slo/scenario.hpp"
#include "slo/seed_method.hpp"

using nlohmann::json;
using namespace slo;

namespace {

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The repository's copy first, so the test does not depend on ../shared beside the clone.
std::string seed_output() {
  if (auto s = read_file(SLO_SOURCE_DIR "/tests/fixtures/seed_output.txt")) return *s;
  if (auto s = read_file(SLO_SOURCE_DIR "/../shared/seed/seed_output.txt")) return *s;
  ADD_FAILURE() << "seed_output.txt not found (tests/fixtures or ../shared/seed)";
  return "";
}

Scenario scenario(const json& doc) {
  ParseResult p = parse_scenario(doc);
  EXPECT_TRUE(p.ok) << (p.errors.empty() ? "" : p.errors[0].path + ": " + p.errors[0].message);
  return p.scenario;
}
Scenario default_scenario() { return scenario(default_scenario_json()); }

std::string f1(double x) { return format_fixed(x, 1, false); }

const Section* section(const Report& r, const std::string& id) {
  for (const auto& s : r.sections)
    if (s.id == id) return &s;
  return nullptr;
}
const Row* row(const Report& r, const std::string& sec, const std::string& id) {
  const Section* s = section(r, sec);
  if (!s) return nullptr;
  for (const auto& it : s->items)
    if (it.kind == Item::Kind::Row && it.row.id == id) return &it.row;
  return nullptr;
}

}  // namespace

// ------------------------------------------------------------------------- the seed's own case

TEST(SeedMethod, DefaultFiguresMatchPrintedPrecision) {
  const SeedFigures f = seed_figures(default_scenario());
  // Inputs as the seed's dicts hold them.
  EXPECT_EQ(f.ep, 32);
  EXPECT_EQ(f.tp, 1);
  EXPECT_EQ(f.pp, 1);
  EXPECT_EQ(f.dp, 32);
  EXPECT_EQ(f.total_gpus, 32);
  EXPECT_EQ(f.gpu_memory_gb, 96);
  EXPECT_EQ(f.d_c, 512);
  EXPECT_EQ(f.tokens_per_gpu, 987.5);
  EXPECT_TRUE(f.scaled);
  EXPECT_EQ(format_fixed(f.total_calculated_params_b, 3, false), "452.429");
  // calculate_model_memory_distribution
  EXPECT_EQ(f1(f.per_gpu_params_b), "44.7");
  EXPECT_EQ(f1(f.per_gpu_memory_gb), "83.2");
  EXPECT_EQ(f1(f.attention_memory_gb), "34.6");
  EXPECT_EQ(f1(f.routing_experts_memory_gb), "37.6");
  EXPECT_EQ(f1(f.shared_experts_memory_gb), "4.7");
  EXPECT_EQ(f1(f.dense_memory_gb), "5.9");
  EXPECT_EQ(f1(f.other_memory_gb), "0.3");
  EXPECT_DOUBLE_EQ(f.per_gpu_memory_gb, 83.18805052558615);  // Python's repr
  // calculate_kv_cache_memory
  EXPECT_EQ(f.kv_cache_per_token_bytes, 124928);
  EXPECT_EQ(format_fixed(f.kv_cache_per_token_bytes, 0, true), "124,928");
  EXPECT_EQ(format_fixed(f.kv_cache_per_session_gb, 3, false), "3.812");  // 3.8125, rounded half to even
  EXPECT_EQ(f1(f.total_kv_cache_gb), "762.5");
  EXPECT_EQ(f1(f.per_gpu_kv_cache_gb), "762.5");
  // calculate_realistic_concurrent_capacity
  EXPECT_EQ(f1(f.system_overhead_gb), "4.0");
  EXPECT_EQ(f1(f.activation_memory_gb), "2.0");
  EXPECT_EQ(f1(f.available_memory_gb), "6.8");
  EXPECT_TRUE(f.memory_feasible);
  EXPECT_EQ(f.max_concurrent_32k, 1);
  EXPECT_EQ(f.max_concurrent_16k, 3);
  EXPECT_EQ(f.max_concurrent_8k, 7);
  // calculate_throughput_based_on_tencent_data
  EXPECT_EQ(format_fixed(f.theoretical, 0, true), "31,600");
  EXPECT_EQ(format_fixed(f.conservative, 0, true), "26,860");
  EXPECT_EQ(format_fixed(f.optimistic, 0, true), "30,020");
  EXPECT_EQ(format_fixed(f.concurrent_constrained, 0, true), "158");
  EXPECT_EQ(format_fixed(f.actual_expected, 0, true), "158");
  EXPECT_DOUBLE_EQ(f.sessions_per_gpu, 1.0 / 32);  // < 1: the proportional branch
  EXPECT_EQ(Value::percent(f.target_achievement, 1).text, "0.3%");
  // calculate_ttft_latency
  EXPECT_EQ(f.total_flops, 16099684909056.0);
  EXPECT_EQ(format_sci(f.total_flops, 1), "1.6e+13");
  EXPECT_EQ(f1(f.effective_tflops), "59.2");
  EXPECT_EQ(f1(f.compute_time_ms), "272.0");
  EXPECT_EQ(f1(f.memory_transfer_ms), "5.0");
  EXPECT_EQ(f1(f.scheduling_overhead_ms), "2.0");
  EXPECT_EQ(f1(f.network_overhead_ms), "1.0");
  EXPECT_EQ(f1(f.total_ttft_ms), "280.0");
  EXPECT_DOUBLE_EQ(f.total_ttft_ms, 279.95413697729725);
  EXPECT_EQ(Value::percent(f.ttft_achievement, 1).text, "285.8%");
  EXPECT_EQ(f.cards_for_target, 51);
}

TEST(SeedMethod, DefaultVerdicts) {
  const Scenario s = default_scenario();
  const Report r = seed_report(s, Lang::Zh);
  ASSERT_EQ(r.verdicts.size(), 4u);
  EXPECT_EQ(r.verdicts[0].id, "memory_feasible");
  EXPECT_EQ(r.verdicts[0].status, Status::Pass);
  EXPECT_EQ(r.verdicts[1].id, "concurrency_32k");
  EXPECT_EQ(r.verdicts[1].status, Status::Fail);
  EXPECT_EQ(r.verdicts[1].value.text, "1 会话");
  EXPECT_EQ(r.verdicts[1].target.text, "200 会话");
  EXPECT_EQ(r.verdicts[1].margin.text, "-199 会话");
  EXPECT_EQ(r.verdicts[2].id, "throughput");
  EXPECT_EQ(r.verdicts[2].status, Status::Fail);
  EXPECT_EQ(r.verdicts[2].margin.text, "-49,842 tokens/s");
  EXPECT_EQ(r.verdicts[3].id, "ttft");
  EXPECT_EQ(r.verdicts[3].status, Status::Pass);
  EXPECT_EQ(r.verdicts[3].margin.text, "+520.0 ms");
  // The same four checks as rows of the summary section, in the seed's words.
  EXPECT_EQ(row(r, "slo_summary", "memory_feasible")->value.text, "✅ 达成");
  EXPECT_EQ(row(r, "slo_summary", "concurrency_32k")->value.text, "❌ 未达成");
  EXPECT_EQ(row(r, "slo_summary", "throughput")->value.text, "❌ 未达成");
  EXPECT_EQ(row(r, "slo_summary", "ttft")->value.text, "✅ 达成");
  const Report en = seed_report(s, Lang::En);
  EXPECT_EQ(row(en, "slo_summary", "memory_feasible")->value.text, "✅ met");
  EXPECT_EQ(row(en, "slo_summary", "concurrency_32k")->value.text, "❌ not met");
}

TEST(SeedMethod, ZhTextEqualsSeedOutput) {
  const std::string expected = seed_output();
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(render_text(seed_report(default_scenario(), Lang::Zh)), expected);
}

TEST(SeedMethod, FixtureCopyEqualsShared) {
  auto shared = read_file(SLO_SOURCE_DIR "/../shared/seed/seed_output.txt");
  if (!shared) GTEST_SKIP() << "../shared is not beside the clone";
  auto copy = read_file(SLO_SOURCE_DIR "/tests/fixtures/seed_output.txt");
  ASSERT_TRUE(copy.has_value());
  EXPECT_EQ(*copy, *shared);
}

TEST(SeedMethod, EnTextEqualsFixture) {
  auto expected = read_file(SLO_SOURCE_DIR "/tests/fixtures/seed_output_en.txt");
  ASSERT_TRUE(expected.has_value());
  EXPECT_EQ(render_text(seed_report(default_scenario(), Lang::En)), *expected);
}

TEST(SeedMethod, ReportStructure) {
  const Report r = seed_report(default_scenario(), Lang::En);
  EXPECT_EQ(r.method, "seed");
  EXPECT_EQ(r.title, "DeepSeek-V3 SLO target check - based on the Tencent Taiji team's measured data");
  const char* ids[] = {"benchmark", "weights",     "kv_cache",    "concurrency", "throughput",
                       "ttft",      "slo_summary", "key_metrics", "advice",      "tencent_advice"};
  ASSERT_EQ(r.sections.size(), std::size(ids));
  for (std::size_t i = 0; i < std::size(ids); ++i) EXPECT_EQ(r.sections[i].id, ids[i]);
  const Row* w = row(r, "weights", "per_gpu_memory_gb");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->label, "Weights per GPU");
  EXPECT_EQ(w->value.text, "83.2 GB");
  EXPECT_EQ(w->value.unit, "GB");
  ASSERT_TRUE(w->value.number.has_value());
  EXPECT_NEAR(*w->value.number, 83.188, 1e-3);
  EXPECT_EQ(row(r, "advice", "scale_out_gpus")->value.number.value_or(0), 51);
  EXPECT_EQ(row(r, "ttft", "total_flops")->value.text, "1.6e+13");
  // The verdicts are in the JSON, and the text does not print a verdict block of its own.
  json j = to_json(r);
  ASSERT_EQ(j["verdicts"].size(), 4u);
  EXPECT_EQ(j["verdicts"][0]["status"], "pass");
  EXPECT_EQ(j["verdicts"][1]["status"], "fail");
  EXPECT_EQ(render_text(r).find("=== Verdicts ==="), std::string::npos);
  EXPECT_TRUE(r.warnings.empty());
}

// -------------------------------------------------------------------- other scenarios

// H800-80G (80 GB, 989 BF16 TFLOPS): 80 - 83.19 - 6 < 0, the seed's infeasible branch.
// Python: available -9.18805052558615, all concurrency 0, constrained 0, compute 40.69687792986855 ms.
TEST(SeedBehaviour, WeightsExceedMemory) {
  const Scenario s = scenario(json{{"version", 1}, {"hardware", {{"gpu", "h800-80g"}}}});
  const SeedFigures f = seed_figures(s);
  EXPECT_EQ(f.gpu_memory_gb, 80);
  EXPECT_DOUBLE_EQ(f.per_gpu_memory_gb, 83.18805052558615);
  EXPECT_DOUBLE_EQ(f.available_memory_gb, -9.18805052558615);
  EXPECT_FALSE(f.memory_feasible);
  EXPECT_EQ(f.max_concurrent_32k, 0);
  EXPECT_EQ(f.max_concurrent_16k, 0);
  EXPECT_EQ(f.max_concurrent_8k, 0);
  EXPECT_EQ(f.concurrent_constrained, 0);
  EXPECT_EQ(f.actual_expected, 0);
  EXPECT_EQ(f.target_achievement, 0);
  EXPECT_DOUBLE_EQ(f.compute_time_ms, 40.69687792986855);
  EXPECT_DOUBLE_EQ(f.total_ttft_ms, 48.69687792986855);
  const Report r = seed_report(s, Lang::Zh);
  const std::string text = render_text(r);
  EXPECT_NE(text.find("可用于KV Cache: -9.2 GB\n显存可行性: ❌ 不可行\n\n=== 基于腾讯数据"), std::string::npos);
  EXPECT_EQ(text.find("不同上下文长度下的最大并发数"), std::string::npos);
  EXPECT_NE(text.find("• 显存不足，建议应用FP8量化减少显存占用\n• 调整并发目标: 200 → 0 会话\n"), std::string::npos);
  EXPECT_NE(text.find("总TTFT: 48.7 ms\n目标达成率: 1642.8%\n"), std::string::npos);
  EXPECT_EQ(r.verdicts[0].status, Status::Fail);
  EXPECT_EQ(row(r, "slo_summary", "memory_feasible")->value.text, "❌ 未达成");
}

// Qwen3-30B-A3B on one node of 8 H20, EP 8 (GQA: d_c = 4 x 128): 26 sessions at 32K on 8 GPUs,
// sessions_per_gpu 3.25 >= 1, so the seed takes min(conservative, tokens_per_gpu x GPUs).
// Python: weights 10.329656135559867 GB, 26 / 53 / 106 sessions, constrained 6715.0, FLOPs 1185410973696.
TEST(SeedBehaviour, SessionsPerGpuAtLeastOne) {
  const Scenario s = scenario(json{{"version", 1},
                                   {"model", {{"preset", "Qwen/Qwen3-30B-A3B"}}},
                                   {"hardware", {{"nodes", 1}}},
                                   {"deployment", {{"colocated", {{"gpus", 8}, {"ep", 8}}}}}});
  const SeedFigures f = seed_figures(s);
  EXPECT_EQ(f.d_c, 512);
  EXPECT_EQ(f.total_gpus, 8);
  EXPECT_TRUE(f.scaled);
  EXPECT_DOUBLE_EQ(f.per_gpu_params_b, 5.545691910144422);
  EXPECT_DOUBLE_EQ(f.per_gpu_memory_gb, 10.329656135559867);
  EXPECT_EQ(f.kv_cache_per_token_bytes, 98304);
  EXPECT_EQ(f.kv_cache_per_session_gb, 3.0);
  EXPECT_DOUBLE_EQ(f.available_memory_gb, 79.67034386444013);
  EXPECT_EQ(f.max_concurrent_32k, 26);
  EXPECT_EQ(f.max_concurrent_16k, 53);
  EXPECT_EQ(f.max_concurrent_8k, 106);
  EXPECT_DOUBLE_EQ(f.sessions_per_gpu, 3.25);
  EXPECT_EQ(f.theoretical, 7900);
  EXPECT_DOUBLE_EQ(f.concurrent_constrained, 6715);  // = conservative, not 7900 x 26 / 200
  EXPECT_DOUBLE_EQ(f.actual_expected, 6715);
  EXPECT_DOUBLE_EQ(f.target_achievement, 0.1343);
  EXPECT_EQ(f.total_flops, 1185410973696.0);
  EXPECT_DOUBLE_EQ(f.total_ttft_ms, 28.023834015135133);
  const std::string text = render_text(seed_report(s, Lang::Zh));
  EXPECT_NE(text.find("🎯 Qwen3-30B-A3B SLO目标验证报告"), std::string::npos);
  EXPECT_NE(text.find("=== 权重分布分析 (EP=8模式) ===\n单GPU权重参数: 5.5B\n单GPU权重显存: 10.3 GB\n"), std::string::npos);
  EXPECT_NE(text.find("=== KV Cache显存分析 (GQA架构) ===\n每token KV Cache: 98,304 bytes\n"), std::string::npos);
  EXPECT_NE(text.find("理论8卡吞吐量: 7,900 tokens/s\n保守估计 (85%效率): 6,715 tokens/s\n"), std::string::npos);
  EXPECT_NE(text.find("并发约束吞吐量: 6,715 tokens/s\n实际预期吞吐量: 6,715 tokens/s\n目标达成率: 13.4%\n"),
            std::string::npos);
  EXPECT_NE(text.find("• 或扩展至 51 卡以达成50,000 tokens/s目标\n"), std::string::npos);
}

// EP 64 on 8 nodes: routed experts / 64. Python: weights 64.3711659351283 GB, available
// 25.628834064871697, 6 / 13 / 26 sessions, 6 / 64 < 1 so constrained = 987.5 x 64 x 6 / 200 = 1896.
TEST(SeedBehaviour, LargerEp) {
  const Scenario s = scenario(
      json{{"version", 1}, {"hardware", {{"nodes", 8}}}, {"deployment", {{"colocated", {{"gpus", 64}, {"ep", 64}}}}}});
  const SeedFigures f = seed_figures(s);
  EXPECT_EQ(f.ep, 64);
  EXPECT_EQ(f.dp, 64);
  EXPECT_EQ(f.total_gpus, 64);
  EXPECT_DOUBLE_EQ(f.per_gpu_params_b, 34.55900656209567);
  EXPECT_DOUBLE_EQ(f.per_gpu_memory_gb, 64.3711659351283);
  EXPECT_DOUBLE_EQ(f.available_memory_gb, 25.628834064871697);
  EXPECT_EQ(f.max_concurrent_32k, 6);
  EXPECT_EQ(f.max_concurrent_16k, 13);
  EXPECT_EQ(f.max_concurrent_8k, 26);
  EXPECT_DOUBLE_EQ(f.concurrent_constrained, 1896);
  EXPECT_DOUBLE_EQ(f.target_achievement, 0.03792);
  const std::string text = render_text(seed_report(s, Lang::Zh));
  EXPECT_NE(text.find("=== 权重分布分析 (EP=64模式) ===\n"), std::string::npos);
  EXPECT_NE(text.find(" 32K tokens: 6 会话\n 16K tokens: 13 会话\n 8K tokens: 26 会话\n"), std::string::npos);
  EXPECT_NE(text.find("理论64卡吞吐量: 63,200 tokens/s\n"), std::string::npos);
}

// Disaggregated: the seed's PARALLEL_CONFIG comes from the decode pool (24 GPUs, EP 24), its
// total_gpus stays the cluster's 32. Python (ep_size 24): weights 95.73264025255804 GB, infeasible.
TEST(SeedBehaviour, DisaggregatedUsesDecodePool) {
  const Scenario s = scenario(json{{"version", 1}, {"deployment", {{"mode", "disaggregated"}}}});
  const SeedFigures f = seed_figures(s);
  EXPECT_EQ(f.ep, 24);
  EXPECT_EQ(f.dp, 24);
  EXPECT_EQ(f.total_gpus, 32);
  EXPECT_DOUBLE_EQ(f.per_gpu_params_b, 51.39606988055875);
  EXPECT_DOUBLE_EQ(f.per_gpu_memory_gb, 95.73264025255804);
  EXPECT_FALSE(f.memory_feasible);
  EXPECT_EQ(f.max_concurrent_32k, 0);
  EXPECT_EQ(f.actual_expected, 0);
  EXPECT_EQ(f.theoretical, 31600);
}

// Values the seed's dicts would hold as floats print as Python's str(): 141 GiB = 151.397597184 GB.
TEST(SeedBehaviour, NonIntegralInputsPrintLikePython) {
  const Scenario s = scenario(json{{"version", 1}, {"hardware", {{"gpu", "h20-141g"}}}});
  const SeedFigures f = seed_figures(s);
  EXPECT_EQ(f.gpu_memory_gb, 151.397597184);
  const std::string text = render_text(seed_report(s, Lang::Zh));
  EXPECT_NE(text.find("单GPU总显存: 151.397597184 GB\n"), std::string::npos);
  EXPECT_EQ(f.max_concurrent_32k, 16);  // int((151.397597184 - 83.188... - 6) / 3.8125)
}
