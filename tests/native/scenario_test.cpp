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
