// Untrusted input (issue 13): strict parsing, range checks before any conversion, the error-list cap
// and the cost bound. Each case here was found by fuzzing and failed before its fix.
#include <gtest/gtest.h>

#include <string>

#include "slo/data.hpp"
#include "slo/errors.hpp"
#include "slo/evaluation.hpp"
#include "slo/queueing.hpp"
#include "slo/scenario.hpp"

using nlohmann::json;
using namespace slo;

namespace {

const FieldError* error_at(const ParseResult& r, const std::string& path) {
  for (const auto& e : r.errors)
    if (e.path == path) return &e;
  return nullptr;
}

std::string listed(const ParseResult& r) {
  std::string s;
  for (const auto& e : r.errors) s += "\n  " + e.path + ": " + e.message;
  return s;
}

ParseResult parse_doc(const json& patch, Lang lang = Lang::En) {
  json doc = patch;
  doc["version"] = 1;
  return parse_scenario_text(doc.dump(), lang);
}

json llama_config() { return json::parse(data::file("models/meta-llama--Llama-3.1-70B-Instruct.json")); }

}  // namespace

TEST(StrictParsing, DuplicateKeyIsAnErrorNamingKeyAndPath) {
  ParseResult top = parse_scenario_text(R"({"version":2,"version":1})");
  ASSERT_FALSE(top.ok);
  ASSERT_NE(error_at(top, "version"), nullptr) << listed(top);
  EXPECT_EQ(error_at(top, "version")->value, "\"version\"");
  EXPECT_NE(error_at(top, "version")->message.find("duplicate key"), std::string::npos);

  ParseResult nested = parse_scenario_text(R"({"version":1,"workload":{"input_tokens":5,"output_tokens":9,"input_tokens":6}})", Lang::Zh);
  ASSERT_FALSE(nested.ok);
  ASSERT_NE(error_at(nested, "workload.input_tokens"), nullptr) << listed(nested);
  EXPECT_NE(error_at(nested, "workload.input_tokens")->message.find("重复的键"), std::string::npos);

  ParseResult in_array = parse_scenario_text(R"({"version":1,"precision":{"high_precision":["router",{"a":1,"a":2}]}})");
  ASSERT_NE(error_at(in_array, "precision.high_precision[1].a"), nullptr) << listed(in_array);
  // The same key in two different objects is not a duplicate.
  EXPECT_TRUE(parse_scenario_text(R"({"version":1,"slo":{"tpot_ms":40},"reference":{"measured":{"tpot_ms":40}}})").ok);
}

TEST(StrictParsing, NulOrTrailingBytesAreErrors) {
  const std::string with_nul = std::string("{\"version\":1}\0{\"x\":1}", 21);
  ParseResult nul = parse_scenario_text(with_nul);
  ASSERT_FALSE(nul.ok);
  ASSERT_NE(error_at(nul, "(document)"), nullptr) << listed(nul);
  EXPECT_NE(error_at(nul, "(document)")->message.find("NUL byte at offset 13"), std::string::npos) << listed(nul);
  EXPECT_FALSE(parse_scenario_text(std::string("{\"version\":1}\0", 14)).ok);
  EXPECT_FALSE(parse_scenario_text("{\"version\":1} x").ok);
  EXPECT_FALSE(parse_scenario_text("{\"version\":1}{}").ok);
  EXPECT_TRUE(parse_scenario_text("{\"version\":1}\n \t").ok);  // whitespace is not a byte of meaning
}

TEST(RangeChecks, HugeConfigNumbersAreRangeErrorsNotCasts) {
  // 1.3e92 used to reach a float-to-integer cast (UBSan float-cast-overflow) before its range check.
  for (const char* key : {"num_attention_heads", "hidden_size", "max_position_embeddings", "intermediate_size", "head_dim"}) {
    json cfg = llama_config();
    cfg[key] = 1.3e92;
    ParseResult r = parse_doc({{"model", {{"preset", nullptr}, {"config", cfg}}}});
    ASSERT_FALSE(r.ok) << key;
    ASSERT_NE(error_at(r, std::string("model.config.") + key), nullptr) << key << listed(r);
    EXPECT_EQ(error_at(r, std::string("model.config.") + key)->value, "1.3e+92");
  }
  json cfg = llama_config();
  cfg["num_key_value_heads"] = -1e300;
  EXPECT_NE(error_at(parse_doc({{"model", {{"preset", nullptr}, {"config", cfg}}}}), "model.config.num_key_value_heads"), nullptr);
}

TEST(RangeChecks, DerivedHeadDimOfZeroIsRejected) {
  json cfg = llama_config();
  cfg.erase("head_dim");
  cfg["hidden_size"] = 64;
  cfg["num_attention_heads"] = 1024;
  cfg["num_key_value_heads"] = 1024;
  ParseResult r = parse_doc({{"model", {{"preset", nullptr}, {"config", cfg}}}});
  ASSERT_FALSE(r.ok);
  const FieldError* e = error_at(r, "model.config.num_attention_heads");
  ASSERT_NE(e, nullptr) << listed(r);
  EXPECT_NE(e->message.find("derived head_dim (hidden_size / num_attention_heads) of 0"), std::string::npos) << e->message;
  cfg["head_dim"] = 128;  // an explicit head_dim is fine
  EXPECT_EQ(error_at(parse_doc({{"model", {{"preset", nullptr}, {"config", cfg}}}}), "model.config.num_attention_heads"), nullptr);
}

TEST(RangeChecks, LinkBandwidthOverridesHaveTheCustomGpuLowerBounds) {
  ParseResult nic = parse_doc({{"hardware", {{"nic_gb_s", 5e-324}}}});
  ASSERT_NE(error_at(nic, "hardware.nic_gb_s"), nullptr) << listed(nic);
  EXPECT_NE(error_at(nic, "hardware.nic_gb_s")->expected.find("[0.1, 100000]"), std::string::npos);
  ParseResult nvl = parse_doc({{"hardware", {{"nvlink_gb_s", 0.5}}}}, Lang::Zh);
  ASSERT_NE(error_at(nvl, "hardware.nvlink_gb_s"), nullptr) << listed(nvl);
  EXPECT_NE(error_at(nvl, "hardware.nvlink_gb_s")->expected.find("[1, 100000]"), std::string::npos);
  EXPECT_TRUE(parse_doc({{"hardware", {{"nic_gb_s", 0.1}, {"nvlink_gb_s", 1}}}}).ok);
  EXPECT_TRUE(parse_doc({{"hardware", {{"nic_gb_s", nullptr}, {"nvlink_gb_s", nullptr}}}}).ok);
}

TEST(ErrorCap, ListsTheFirstFiftyThenHowManyMore) {
  for (Lang lang : {Lang::En, Lang::Zh}) {
    Errors e(lang);
    for (int i = 0; i < 480; ++i) e.add("f" + std::to_string(i), nullptr, "x", "x");
    ASSERT_EQ(e.list().size(), Errors::kMaxListed + 1);
    EXPECT_EQ(e.list()[49].path, "f49");
    EXPECT_EQ(e.list().back().path, "(more)");
    EXPECT_EQ(e.list().back().value, "430");
    EXPECT_EQ(e.list().back().message, lang == Lang::En ? "and 430 more errors (only the first 50 are listed)"
                                                        : "另有 430 个错误未列出（只列出前 50 个）");
  }
}

TEST(ErrorCap, AHugeHighPrecisionListIsOneError) {
  // A 3.9 MB list used to give one error per entry (480,000 errors, 5 s, 622 MB).
  json list = json::array();
  for (int i = 0; i < 200000; ++i) list.push_back(i % 2 ? "router" : "bogus");
  ParseResult r = parse_doc({{"precision", {{"high_precision", list}}}});
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.errors.size(), 1u) << r.errors.size();
  EXPECT_EQ(r.errors[0].path, "precision.high_precision");
  EXPECT_NE(r.errors[0].expected.find("at most 5 entries"), std::string::npos);
  // Many distinct invalid fields: capped.
  json cfg = llama_config();
  json layers = json::array();
  for (int i = 0; i < 100000; ++i) layers.push_back(i);
  cfg["mlp_only_layers"] = layers;
  cfg["model_type"] = "qwen3_moe";
  cfg["num_experts"] = 8;
  cfg["num_experts_per_tok"] = 2;
  cfg["moe_intermediate_size"] = 512;
  ParseResult m = parse_doc({{"model", {{"preset", nullptr}, {"config", cfg}}}});
  ASSERT_NE(error_at(m, "model.config.mlp_only_layers"), nullptr) << listed(m);
}

TEST(CostBound, LongPromptsNeedChunksOfAtLeastOneSixtyFourth) {
  // 10M-token prompts in 256-token chunks: 39,063 chunks each, 2.2 s per evaluation before the bound.
  ParseResult r = parse_doc({{"deployment", {{"chunked_prefill_tokens", 256}}},
                             {"workload", {{"input_tokens", 1e7}, {"input_tokens_max", 1e7}, {"context_length", 10000000}}}});
  ASSERT_FALSE(r.ok);
  const FieldError* e = error_at(r, "deployment.chunked_prefill_tokens");
  ASSERT_NE(e, nullptr) << listed(r);
  EXPECT_EQ(e->expected, ">= 156250 (input_tokens_max / 64)");
  EXPECT_NE(e->message.find("into 39063 chunks"), std::string::npos) << e->message;
  ParseResult zh = parse_doc({{"deployment", {{"chunked_prefill_tokens", 256}}}, {"workload", {{"input_tokens", 20000}, {"input_tokens_max", 20000}}}},
                             Lang::Zh);
  ASSERT_NE(error_at(zh, "deployment.chunked_prefill_tokens"), nullptr) << listed(zh);
  EXPECT_NE(error_at(zh, "deployment.chunked_prefill_tokens")->message.find("切成 79 块"), std::string::npos);
  // 64 chunks exactly is allowed.
  EXPECT_TRUE(parse_doc({{"deployment", {{"chunked_prefill_tokens", 256}}}, {"workload", {{"input_tokens", 16384}, {"input_tokens_max", 16384}}}}).ok);
}

TEST(CostBound, TtftSimulationPassesAreBounded) {
  // Structural bound: requests x chunks per request stays within ~8,000 passes (floor: 100 requests).
  EXPECT_EQ(ttft_requests_within_budget(3000, 512, 8192), 3000);      // the default scenario: unaffected
  EXPECT_EQ(ttft_requests_within_budget(3000, 16384, 8192), 3000);    // 2 chunks: unaffected
  EXPECT_EQ(ttft_requests_within_budget(3000, 16384, 256), 113);      // 64 chunks: 8000 / 64 / 1.1
  EXPECT_EQ(ttft_requests_within_budget(3000, 1e7, 256), 100);        // floor (validation forbids this case)
  for (double chunks = 1; chunks <= 64; chunks *= 2) {
    const int n = ttft_requests_within_budget(3000, 8192 * chunks, 8192);
    EXPECT_LE(n * 1.1 * chunks, 8000.0 + 1.1 * 64 * 100) << chunks;
  }
  // The worst valid long-prompt document: the simulation ran at most the bounded number of requests.
  // One data-parallel group (TP 8), so the pass budget is the chunk itself: 64 chunks per prompt.
  ParseResult r = parse_doc({{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                             {"hardware", {{"gpu", "h100-80g"}, {"nodes", 1}}},
                             {"deployment", {{"colocated", {{"gpus", 8}, {"attention_tp", 8}, {"ep", 1}}}, {"chunked_prefill_tokens", 256}}},
                             {"workload", {{"input_tokens", 16384}, {"input_tokens_max", 16384}, {"output_tokens", 100}, {"output_tokens_max", 100}}},
                             {"slo", {{"concurrent_sessions", 4}}},
                             {"reference", {{"preset", "none"}}}});
  ASSERT_TRUE(r.ok) << listed(r);
  const Evaluation ev = evaluate_scenario(r.scenario);
  EXPECT_GT(ev.ttft.simulated, 0);
  EXPECT_LE(ev.ttft.simulated, 113);
}
