// Scenario version 2: one edit of the default scenario gives a report, because the fields the
// document does not set follow the ones it sets; version 1 documents keep their meaning.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "slo/api.hpp"
#include "slo/scenario.hpp"

using nlohmann::json;
using namespace slo;

namespace {

// The seven one-edit documents of issue 12.
std::vector<json> seven(int version) {
  std::vector<json> docs = {
      {{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}}},
      {{"model", {{"preset", "Qwen/Qwen3-235B-A22B"}}}},
      {{"model", {{"preset", "Qwen/Qwen3-235B-A22B"}}}, {"hardware", {{"gpu", "h200-141g"}}}, {"deployment", {{"mode", "disaggregated"}}}},
      {{"deployment", {{"mode", "disaggregated"}}}},
      {{"model", {{"preset", "mistralai/Mixtral-8x7B-v0.1"}}}, {"hardware", {{"gpu", "a100-80g"}}}},
      {{"hardware", {{"nodes", 2}}}},
      {{"model", {{"preset", "openai/gpt-oss-120b"}}}, {"hardware", {{"nodes", 1}}}},
  };
  for (auto& d : docs) d["version"] = version;
  return docs;
}

ParseResult parse(const json& doc) { return parse_scenario(doc); }

}  // namespace

TEST(ScenarioDerive, EachOfTheSevenOneEditDocumentsGivesAReport) {
  for (const json& doc : seven(2)) {
    ParseResult p = parse(doc);
    ASSERT_TRUE(p.ok) << doc.dump() << ": " << (p.errors.empty() ? "" : p.errors[0].message);
    json out = json::parse(api::evaluate(doc.dump(), R"({"lang":"en","formats":["json"]})"));
    EXPECT_TRUE(out.value("ok", false)) << doc.dump();
  }
}

TEST(ScenarioDerive, VersionOneDocumentsKeepTheirMeaning) {
  // Today's (v1) behaviour: only Qwen3 colocated and the default disaggregated parse.
  std::vector<bool> ok;
  for (const json& doc : seven(1)) ok.push_back(parse(doc).ok);
  EXPECT_EQ(ok, (std::vector<bool>{false, true, false, true, false, false, false}));
  // The default scenario means the same in both versions.
  ParseResult v1 = parse(json{{"version", 1}}), v2 = parse(json{{"version", 2}});
  ASSERT_TRUE(v1.ok && v2.ok);
  json a = v1.normalized, b = v2.normalized;
  EXPECT_EQ(a, b);
}

TEST(ScenarioDerive, DerivedFieldsFollowTheSetOnes) {
  auto docs = seven(2);
  auto pool = [](const ParseResult& p, const char* role) { return p.normalized["deployment"][role]; };
  ParseResult llama = parse(docs[0]);
  EXPECT_EQ(pool(llama, "colocated")["ep"], 1);
  EXPECT_FALSE(llama.scenario.reference.present);
  ASSERT_EQ(llama.scenario.notes.size(), 1u);
  EXPECT_NE(llama.scenario.notes[0].find("not applied"), std::string::npos);
  ParseResult qwen_pd = parse(docs[2]);
  EXPECT_EQ(pool(qwen_pd, "prefill")["gpus"], 8);
  EXPECT_EQ(pool(qwen_pd, "decode")["gpus"], 24);
  EXPECT_EQ(pool(qwen_pd, "decode")["ep"], 24);
  EXPECT_EQ(pool(qwen_pd, "decode")["redundant_experts"], 16);  // 128 + 16 = 144 = 6 x 24
  ParseResult pd = parse(docs[3]);  // DeepSeek keeps the frozen 8 + 24 with 32 redundant experts
  EXPECT_EQ(pool(pd, "decode")["redundant_experts"], 32);
  ParseResult mixtral = parse(docs[4]);
  EXPECT_EQ(mixtral.normalized["precision"]["activations"], "bf16");  // A100: no FP8 tensor cores
  EXPECT_EQ(pool(mixtral, "colocated")["ep"], 8);                      // 8 experts on 32 GPUs
  EXPECT_EQ(mixtral.scenario.name, "Mixtral 8x7B on 32 x A100-80G") << mixtral.scenario.name;
  ParseResult two = parse(docs[5]);
  EXPECT_EQ(pool(two, "colocated")["gpus"], 16);
  EXPECT_EQ(pool(two, "colocated")["ep"], 16);
  ParseResult oss = parse(docs[6]);
  EXPECT_EQ(pool(oss, "colocated")["gpus"], 8);
  // FP8 scales follow the model's FP8 release: Llama's per tensor/channel, Qwen3's and DeepSeek's
  // (the default scenario) in 128 x 128 blocks; a version-1 document keeps "block".
  EXPECT_EQ(llama.normalized["precision"]["fp8_scales"], "tensor");
  EXPECT_FALSE(llama.scenario.precision.fp8_block_scales);
  EXPECT_EQ(parse(docs[1]).normalized["precision"]["fp8_scales"], "block");
  EXPECT_EQ(parse(json{{"version", 2}}).normalized["precision"]["fp8_scales"], "block");
  json v1 = {{"version", 1}, {"model", {{"preset", "Qwen/Qwen3-235B-A22B"}}}};
  EXPECT_EQ(parse(v1).normalized["precision"]["fp8_scales"], "block");
  json set = docs[0];
  set["precision"] = {{"fp8_scales", "block"}};
  EXPECT_TRUE(parse(set).scenario.precision.fp8_block_scales);
}

TEST(ScenarioDerive, AFieldTheDocumentSetsIsNeverOverridden) {
  json doc = {{"version", 2}, {"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
              {"deployment", {{"colocated", {{"ep", 8}}}}}};
  ParseResult p = parse(doc);
  ASSERT_FALSE(p.ok);
  EXPECT_EQ(p.errors[0].path, "deployment.colocated.ep");
  // A reference the document chose is checked, not skipped.
  json ref = {{"version", 2}, {"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
              {"reference", {{"preset", "tencent-h20-16gpu-w4a8c8"}}}};
  ParseResult r = parse(ref);
  EXPECT_FALSE(r.ok);
}

// A new mean length alone (the common edit "prompts of 2,000 tokens") raises the maximum the document
// leaves unset to that mean, instead of failing on a maximum the user never touched; a maximum the
// document sets is checked as given, and a mean at or below the default maximum keeps it.
TEST(ScenarioDerive, AMeanLengthAboveTheUntouchedMaximumRaisesIt) {
  ParseResult p = parse({{"version", 2}, {"workload", {{"input_tokens", 2000}, {"output_tokens", 3000}}}});
  ASSERT_TRUE(p.ok) << (p.errors.empty() ? "" : p.errors[0].message);
  EXPECT_EQ(p.scenario.workload.input_tokens_max, 2000);
  EXPECT_EQ(p.scenario.workload.output_tokens_max, 3000);
  ParseResult below = parse({{"version", 2}, {"workload", {{"input_tokens", 300}}}});
  ASSERT_TRUE(below.ok);
  EXPECT_EQ(below.scenario.workload.input_tokens_max, 512);
  ParseResult set = parse({{"version", 2}, {"workload", {{"input_tokens", 2000}, {"input_tokens_max", 1000}}}});
  ASSERT_FALSE(set.ok);
  EXPECT_EQ(set.errors[0].path, "workload.input_tokens_max");
  // Version 1 documents are complete: nothing is derived, the old error stands.
  EXPECT_FALSE(parse({{"version", 1}, {"workload", {{"input_tokens", 2000}}}}).ok);
}

// A share link written today is the minimal version 2 document: it parses back to the same
// scenario, whether it came from a version 1 link (frozen fields kept explicit) or a version 2 edit
// (derived fields left out, so later edits keep deriving them).
TEST(ScenarioDerive, MinimalDocumentParsesBackToTheSameScenario) {
  std::vector<json> docs = seven(2);
  for (const json& d : seven(1)) docs.push_back(d);
  docs.push_back(json{{"version", 1}, {"hardware", {{"nodes", 2}}}, {"deployment", {{"colocated", {{"gpus", 16}, {"ep", 16}}}}}});
  for (const json& doc : docs) {
    ParseResult p = parse(doc);
    if (!p.ok) continue;
    json m = minimal_scenario(p.normalized, p.source);
    EXPECT_EQ(m["version"], 2);
    ParseResult back = parse(m);
    ASSERT_TRUE(back.ok) << m.dump();
    EXPECT_EQ(back.normalized, p.normalized) << doc.dump() << " -> " << m.dump();
    EXPECT_EQ(back.scenario.reference.present, p.scenario.reference.present) << doc.dump();
  }
  ParseResult llama = parse(seven(2)[0]);
  json m = minimal_scenario(llama.normalized, llama.source);
  EXPECT_FALSE(m.contains("deployment")) << m.dump();  // EP 1 is derived, not written
}

// A version 2 document of a dense custom model (Qwen2.5-7B's config.json) derives the default
// reference (DeepSeek-V3 on H20, EP 8), which does not fit it and is not applied. The normalized
// document must say so: validated again it means the same scenario, instead of an explicit reference
// with EP 8 on a dense model (an error). Found by the structured fuzzer with a Llama config.
TEST(ScenarioDerive, AnUnfittingDerivedReferenceIsNoneInTheNormalizedDocument) {
  std::ifstream f(std::string(SLO_SOURCE_DIR) + "/tests/fixtures/hub/Qwen--Qwen2.5-7B-Instruct.config.json");
  const json config = json::parse(f);
  const json doc{{"version", 2}, {"model", {{"config", config}, {"preset", nullptr}}}};
  const ParseResult p = parse(doc);
  ASSERT_TRUE(p.ok);
  EXPECT_FALSE(p.scenario.reference.present);
  EXPECT_FALSE(p.scenario.notes.empty());
  EXPECT_EQ(p.normalized["reference"]["preset"], "none");
  const ParseResult again = parse(p.normalized);
  ASSERT_TRUE(again.ok) << (again.errors.empty() ? "" : again.errors.front().path + ": " + again.errors.front().message);
  EXPECT_EQ(again.normalized, p.normalized);
  const json m = minimal_scenario(p.normalized, p.source);
  const ParseResult back = parse(m);
  ASSERT_TRUE(back.ok) << m.dump();
  EXPECT_EQ(back.normalized, p.normalized);
}
