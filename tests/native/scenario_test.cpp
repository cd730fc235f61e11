#include <gtest/gtest.h>

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
  ASSERT_TRUE(e.builds && e.builds->count("rocm"));
  EXPECT_DOUBLE_EQ(e.overheads.kernel_us, e.builds->at("rocm").kernel_us);
  EXPECT_NE(e.overheads.kernel_us, find_engine(e.id)->overheads.kernel_us) << "the ROCm build is fitted on its own";
  ParseResult cuda = parse_scenario(default_scenario_json());
  ASSERT_TRUE(cuda.ok);
  EXPECT_EQ(cuda.scenario.deployment.engine.profile, cuda.scenario.deployment.engine.id);
}
