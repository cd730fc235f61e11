#include <gtest/gtest.h>

#include <algorithm>

#include "slo/scenario.hpp"
#include "slo/api.hpp"
#include <nlohmann/json.hpp>

using nlohmann::json;
using namespace slo;

TEST(Scenario, DefaultParses) {
  ParseResult p = parse_scenario(default_scenario_json());
  ASSERT_TRUE(p.ok) << (p.errors.empty() ? "" : p.errors[0].message);
  EXPECT_EQ(p.scenario.cluster_gpus(), 32);
  EXPECT_EQ(p.scenario.model.layers, 61);
}

// The catalog follows the language: every model note has a Chinese text (CJK characters) in zh.
TEST(Scenario, CatalogNotesFollowTheLanguage) {
  const auto en = nlohmann::json::parse(slo::api::catalog("en"));
  const auto zh = nlohmann::json::parse(slo::api::catalog("zh"));
  ASSERT_EQ(en.at("models").size(), zh.at("models").size());
  int notes = 0;
  for (std::size_t i = 0; i < en["models"].size(); ++i) {
    const std::string e = en["models"][i].value("note", ""), z = zh["models"][i].value("note", "");
    if (e.empty()) continue;
    ++notes;
    EXPECT_NE(e, z) << en["models"][i]["id"];
    bool cjk = false;  // a UTF-8 lead byte of the CJK blocks (U+3000..U+9FFF, U+FF00..): 0xE3..0xE9, 0xEF
    for (unsigned char c : z) cjk = cjk || (c >= 0xE3 && c <= 0xE9) || c == 0xEF;
    EXPECT_TRUE(cjk) << z;
  }
  EXPECT_GE(notes, 8);
}

// An AMD GPU runs the engine's ROCm build: its own fitted overheads (engines.json "builds"), keyed
// "sglang@rocm" in the fit, so a ROCm source's slowness never leaks into the CUDA build or into
// the CDNA3 family's factors that dense vLLM measurements share. A CUDA GPU keeps the base build.
TEST(Scenario, AmdGpuSelectsTheEnginesRocmBuild) {
  const json amd = {{"version", 2},
                    {"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                    {"hardware", {{"gpu", "mi300x"}, {"nodes", 1}, {"gpus_per_node", 8}}},
                    {"reference", {{"preset", "none"}}}};
  ParseResult p = parse_scenario(amd);
  ASSERT_TRUE(p.ok) << (p.errors.empty() ? "" : p.errors[0].path + ": " + p.errors[0].message);
  const Engine& e = p.scenario.deployment.engine;
  EXPECT_EQ(p.scenario.gpu.eff.platform, "rocm");
  EXPECT_EQ(e.profile, e.id + "@rocm");
  ASSERT_TRUE(e.builds);
  const auto rocm = std::find_if(e.builds->begin(), e.builds->end(), [](const Engine::Build& b) { return b.key == "rocm"; });
  ASSERT_NE(rocm, e.builds->end());
  EXPECT_DOUBLE_EQ(e.overheads.kernel_us, rocm->overheads.kernel_us);
  EXPECT_NE(e.overheads.kernel_us, find_engine(e.id)->overheads.kernel_us) << "the ROCm build is fitted on its own";
  ParseResult cuda = parse_scenario(default_scenario_json());
  ASSERT_TRUE(cuda.ok);
  EXPECT_EQ(cuda.scenario.deployment.engine.profile, cuda.scenario.deployment.engine.id);
}

// vLLM's V0 engine (CUDA releases before 0.8.0) has its own fitted host overheads ("vllm@v0"), and
// its releases before 0.6.0 (host work in the engine's process) theirs ("vllm@v05", the tighter
// bound wins); a later or unstated release keeps the base (V1) profile, and a ROCm GPU its ROCm
// build whatever the release.
TEST(Scenario, VllmReleasesBefore080SelectTheV0Build) {
  auto profile = [](const char* gpu, const json& version) {
    json doc = {{"version", 2},
                {"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                {"hardware", {{"gpu", gpu}, {"nodes", 1}, {"gpus_per_node", 8}}},
                {"deployment", {{"engine", {{"name", "vllm"}, {"version", version}}}}},
                {"reference", {{"preset", "none"}}}};
    ParseResult p = parse_scenario(doc);
    EXPECT_TRUE(p.ok) << (p.errors.empty() ? "" : p.errors[0].path + ": " + p.errors[0].message);
    return p.ok ? p.scenario.deployment.engine.profile : std::string("(invalid)");
  };
  EXPECT_EQ(profile("h100-80g", "0.5.4"), "vllm@v05");
  EXPECT_EQ(profile("a100-80g", "0.2.7+PR2542 (fused MoE)"), "vllm@v05");
  EXPECT_EQ(profile("h100-80g", "0.6.0"), "vllm@v0");
  EXPECT_EQ(profile("h100-80g", "0.6.3.post2.dev308+gb489fc3c"), "vllm@v0");
  EXPECT_EQ(profile("h100-80g", "0.7.3"), "vllm@v0");
  EXPECT_EQ(profile("h100-80g", "0.8.0"), "vllm");
  EXPECT_EQ(profile("h100-80g", "0.11.0"), "vllm");
  EXPECT_EQ(profile("h100-80g", nullptr), "vllm");
  EXPECT_EQ(profile("mi300x", "0.6.4.dev4+gc9fc1608"), "vllm@rocm");
  EXPECT_TRUE(release_before("0.7.3", "0.8.0"));
  EXPECT_FALSE(release_before("0.8.0", "0.8.0"));
  EXPECT_FALSE(release_before("", "0.8.0"));
}
