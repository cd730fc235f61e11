// Bad scenario documents: every error names the field path, the offending value and what is allowed,
// in English and in Chinese (core/src/scenario.cpp, core/src/errors.cpp).
#include <gtest/gtest.h>

#include <string>

#include "slo/scenario.hpp"

using nlohmann::json;
using namespace slo;

namespace {

ParseResult parse(const json& patch, Lang lang = Lang::En) {
  json doc = patch;
  if (!doc.contains("version")) doc["version"] = 1;
  return parse_scenario(doc, lang);
}

std::string all_errors(const ParseResult& r) {
  std::string s;
  for (const auto& e : r.errors) s += "\n  " + e.message;
  return s;
}

// The error at `path`: its value text is `value`, its allowed range contains `expected`, and its
// message names all three (plus `problem`, when the error is a rule rather than a range).
void expect_error(const ParseResult& r, const std::string& path, const std::string& value, const std::string& expected,
                  const std::string& problem = "") {
  ASSERT_FALSE(r.ok) << "accepted; expected an error at " << path;
  const FieldError* e = nullptr;
  for (const auto& x : r.errors)
    if (x.path == path) e = &x;
  ASSERT_NE(e, nullptr) << "no error at " << path << "; errors:" << all_errors(r);
  EXPECT_EQ(e->value, value) << e->message;
  EXPECT_NE(e->expected.find(expected), std::string::npos) << "expected \"" << e->expected << "\" to contain \"" << expected << "\"";
  EXPECT_EQ(e->message.rfind(path, 0), 0u) << e->message;
  EXPECT_NE(e->message.find(value), std::string::npos) << e->message;
  EXPECT_NE(e->message.find(e->expected), std::string::npos) << e->message;
  if (!problem.empty()) EXPECT_NE(e->message.find(problem), std::string::npos) << e->message;
}

const json kDeepSeek256Gpus = {{"hardware", {{"nodes", 32}}}};

}  // namespace

TEST(Validation, MissingVersion) {
  ParseResult r = parse_scenario(json::object());
  expect_error(r, "version", "missing", "an integer from 1 to 2");
  expect_error(parse_scenario(json::object(), Lang::Zh), "version", "missing", "1 到 2 的整数");
  EXPECT_EQ(r.errors.size(), 1u) << all_errors(r);
}

TEST(Validation, FutureVersion) {
  ParseResult r = parse(json{{"version", 3}});
  expect_error(r, "version", "3", "an integer from 1 to 2 (update the estimator to open it)", "is newer than this estimator");
  expect_error(parse(json{{"version", 3}}, Lang::Zh), "version", "3", "请升级估算器后打开", "比本估算器更新");
}

TEST(Validation, VersionZeroStringAndFraction) {
  expect_error(parse(json{{"version", 0}}), "version", "0", "an integer from 1 to 2");
  expect_error(parse(json{{"version", "1"}}), "version", "\"1\"", "an integer from 1 to 2");
  expect_error(parse(json{{"version", 1.5}}), "version", "1.5", "an integer from 1 to 2");
}

TEST(Validation, UnknownTopLevelField) {
  ParseResult r = parse(json{{"colour", "blue"}});
  expect_error(r, "colour", "\"blue\"", "one of: ", "is not a known field");
  EXPECT_NE(r.errors[0].expected.find("deployment"), std::string::npos);
  EXPECT_NE(r.errors[0].expected.find("workload"), std::string::npos);
  expect_error(parse(json{{"colour", "blue"}}, Lang::Zh), "colour", "\"blue\"", "以下之一：", "不是已知字段");
}

TEST(Validation, UnknownNestedField) {
  ParseResult r = parse(json{{"deployment", {{"colocated", {{"tp", 8}}}}}});
  expect_error(r, "deployment.colocated.tp", "8", "attention_tp", "is not a known field");
  expect_error(parse(json{{"reference", {{"measured", {{"latency", 1}}}}}}), "reference.measured.latency", "1", "qpm",
               "is not a known field");
}

// Issue 12, defect 11: an unknown field does not hide the other errors of the document (a shared
// link then shows them all at once), and the fields a document does set still derive the rest.
TEST(Validation, UnknownFieldDoesNotHideTheOtherErrors) {
  const ParseResult r = parse(json{{"version", 2}, {"colour", "blue"}, {"slo", {{"tpot_ms", "x"}}}, {"hardware", {{"nodes", 2}}}});
  expect_error(r, "colour", "\"blue\"", "one of: ", "is not a known field");
  expect_error(r, "slo.tpot_ms", "\"x\"", "a number in (0, 1000000]");
  EXPECT_EQ(r.errors.size(), 2u) << "pools follow the 2-node cluster, no error there:" << all_errors(r);
}

TEST(Validation, WrongTypes) {
  expect_error(parse(json{{"hardware", {{"nodes", "4"}}}}), "hardware.nodes", "\"4\"", "an integer in [1, 4096]");
  expect_error(parse(json{{"hardware", {{"nodes", "4"}}}}, Lang::Zh), "hardware.nodes", "\"4\"", "[1, 4096] 内的整数");
  expect_error(parse(json{{"hardware", "h20"}}), "hardware", "\"h20\"", "an object");
  expect_error(parse(json{{"reference", {{"calibrate", "yes"}}}}), "reference.calibrate", "\"yes\"", "true or false");
  expect_error(parse(json{{"precision", {{"high_precision", "router"}}}}), "precision.high_precision", "\"router\"",
               "an array of: embedding, lm_head, router, norms, attention");
  expect_error(parse(json{{"name", 7}}), "name", "7", "a string of at most 200 bytes");
}

TEST(Validation, OutOfRangeNumbers) {
  expect_error(parse(json{{"deployment", {{"memory_fraction", 1.5}}}}), "deployment.memory_fraction", "1.5", "a number in [0.1, 1]");
  expect_error(parse(json{{"deployment", {{"memory_fraction", 1.5}}}}, Lang::Zh), "deployment.memory_fraction", "1.5",
               "[0.1, 1] 内的数值");
  expect_error(parse(json{{"deployment", {{"mtp", {{"draft_tokens", 9}}}}}}), "deployment.mtp.draft_tokens", "9",
               "an integer in [0, 8]");
  expect_error(parse(json{{"slo", {{"tpot_ms", 0}}}}), "slo.tpot_ms", "0", "a number in (0, 1000000] or unset");
  expect_error(parse(json{{"slo", {{"tpot_ms", -1e308}}}}), "slo.tpot_ms", "-1e+308", "a number in (0, 1000000] or unset");
  expect_error(parse(json{{"hardware", {{"nodes", 1e20}}}}), "hardware.nodes", "1e+20", "an integer in [1, 4096]");
}

TEST(Validation, NonIntegerWhereIntegerRequired) {
  expect_error(parse(json{{"hardware", {{"nodes", 2.5}}}}), "hardware.nodes", "2.5", "an integer in [1, 4096]");
  expect_error(parse(json{{"deployment", {{"colocated", {{"ep", 31.5}}}}}}), "deployment.colocated.ep", "31.5",
               "an integer in [1, 4096]");
  expect_error(parse(json{{"precision", {{"group_size", 100}}}}), "precision.group_size", "100", "a power of two from 16 to 1024");
}

TEST(Validation, BadEnums) {
  ParseResult r = parse(json{{"hardware", {{"gpu", "h30"}}}});
  expect_error(r, "hardware.gpu", "\"h30\"", "one of: h20-96g, ");
  EXPECT_NE(r.errors[0].expected.find("custom"), std::string::npos);
  expect_error(parse(json{{"hardware", {{"gpu", "h30"}}}}, Lang::Zh), "hardware.gpu", "\"h30\"", "以下之一：h20-96g, ");
  expect_error(parse(json{{"precision", {{"weights", "fp3"}}}}), "precision.weights", "\"fp3\"", "one of: bf16, fp16, fp8");
  expect_error(parse(json{{"deployment", {{"mode", "split"}}}}), "deployment.mode", "\"split\"", "one of: colocated, disaggregated");
  expect_error(parse(json{{"model", {{"preset", "gpt-5"}}}}), "model.preset", "\"gpt-5\"", "deepseek-ai/DeepSeek-V3");
  expect_error(parse(json{{"precision", {{"high_precision", {"router", "router"}}}}}), "precision.high_precision[1]", "\"router\"",
               "each component at most once", "is listed twice");
}

TEST(Validation, EpNotDividingExpertsPlusRedundant) {
  // DeepSeek-V3: 256 routed experts; 8 redundant replicas make 264 slots, which EP 32 does not divide.
  json patch = {{"deployment", {{"colocated", {{"redundant_experts", 8}}}}}};
  expect_error(parse(patch), "deployment.colocated.ep", "32", "a divisor of 264, or change redundant_experts",
               "does not divide routed experts + redundant experts (256 + 8 = 264)");
  expect_error(parse(patch, Lang::Zh), "deployment.colocated.ep", "32", "264 的约数", "不能整除路由专家数 + 冗余专家数（256 + 8 = 264）");
}

TEST(Validation, EpNotDividingTheStage) {
  expect_error(parse(json{{"deployment", {{"colocated", {{"ep", 3}}}}}}), "deployment.colocated.ep", "3", "a divisor of 32",
               "does not divide the GPUs of a pipeline stage (32)");
  expect_error(parse(json{{"deployment", {{"colocated", {{"pp", 3}}}}}}), "deployment.colocated.pp", "3", "a divisor of 32",
               "does not divide gpus (32)");
}

TEST(Validation, AttentionTpAboveHeads) {
  // DeepSeek-V3 has 128 attention heads; 256 GPUs with attention TP 256.
  json patch = kDeepSeek256Gpus;
  patch["deployment"] = {{"colocated", {{"gpus", 256}, {"ep", 256}, {"attention_tp", 256}}}};
  expect_error(parse(patch), "deployment.colocated.attention_tp", "256", "at most 128 and dividing it",
               "is above the model's attention head count (128)");
  expect_error(parse(patch, Lang::Zh), "deployment.colocated.attention_tp", "256", "不超过 128 且能整除它", "超过模型注意力头数（128）");
}

TEST(Validation, PoolGpusExceedingTheCluster) {
  expect_error(parse(json{{"deployment", {{"colocated", {{"gpus", 64}, {"ep", 64}}}}}}), "deployment.colocated.gpus", "64",
               "an integer in [1, 32]");
  json disagg = {{"deployment",
                  {{"mode", "disaggregated"}, {"prefill", {{"gpus", 16}, {"ep", 16}}}, {"decode", {{"gpus", 24}, {"ep", 24}}}}}};
  expect_error(parse(disagg), "deployment.decode.gpus", "24", "prefill.gpus + decode.gpus <= 32",
               "plus prefill.gpus (16) = 40 exceeds the cluster (4 x 8 = 32 GPUs)");
  expect_error(parse(disagg, Lang::Zh), "deployment.decode.gpus", "24", "prefill.gpus + decode.gpus <= 32",
               "加上 prefill.gpus（16）= 40，超过集群规模（4 x 8 = 32 GPUs）");
}

TEST(Validation, InactivePoolsAreNotBoundedByTheCluster) {
  // Regression: the default decode pool (24 GPUs) used to invalidate a colocated 8-GPU cluster.
  ParseResult r = parse(json{{"hardware", {{"nodes", 1}}}, {"deployment", {{"colocated", {{"gpus", 8}, {"ep", 8}}}}}});
  EXPECT_TRUE(r.ok) << all_errors(r);
  ParseResult d = parse(json{{"hardware", {{"nodes", 2}}},
                             {"deployment", {{"mode", "disaggregated"}, {"prefill", {{"gpus", 8}}}, {"decode", {{"gpus", 8}, {"ep", 8}, {"redundant_experts", 0}}}}}});
  EXPECT_TRUE(d.ok) << all_errors(d);
}

TEST(Validation, GpusPerNodeAboveTheNvlinkDomain) {
  expect_error(parse(json{{"hardware", {{"gpus_per_node", 16}}}}), "hardware.gpus_per_node", "16", "at most 8",
               "exceeds the NVLink domain of NVIDIA H20 96GB (8)");
}

TEST(Validation, Fp8ActivationsOnA100) {
  ParseResult r = parse(json{{"hardware", {{"gpu", "a100-80g"}}}});
  expect_error(r, "precision.activations", "\"fp8\"", "a format NVIDIA A100 SXM 80GB computes in (bf16, fp16, int8)",
               "needs fp8 tensor cores, which NVIDIA A100 SXM 80GB does not have");
  EXPECT_EQ(r.errors.size(), 1u) << all_errors(r);
  expect_error(parse(json{{"hardware", {{"gpu", "a100-80g"}}}}, Lang::Zh), "precision.activations", "\"fp8\"",
               "NVIDIA A100 SXM 80GB 支持的计算格式（bf16、fp16、int8）", "需要 fp8 张量核心");
}

TEST(Validation, InputTokensMaxBelowMean) {
  expect_error(parse(json{{"workload", {{"input_tokens_max", 100}}}}), "workload.input_tokens_max", "100", ">= input_tokens",
               "is below the mean input_tokens (512)");
  expect_error(parse(json{{"workload", {{"input_tokens_max", 100}}}}, Lang::Zh), "workload.input_tokens_max", "100", ">= input_tokens",
               "小于平均输入长度 input_tokens（512）");
  expect_error(parse(json{{"workload", {{"output_tokens_max", 1000}}}}), "workload.output_tokens_max", "1000", ">= output_tokens",
               "is below the mean output_tokens (1200)");
}

TEST(Validation, InvalidMeanDoesNotCascadeIntoTheMaxRule) {
  // Regression: an out-of-range mean used to be clamped and then compared with the max.
  ParseResult r = parse(json{{"workload", {{"input_tokens", 1e8}}}});
  expect_error(r, "workload.input_tokens", "100000000.0", "a number in [1, 10000000]");
  EXPECT_EQ(r.errors.size(), 1u) << all_errors(r);
}

TEST(Validation, MalformedJson) {
  ParseResult r = parse_scenario_text("{\"version\":1,");
  expect_error(r, "(document)", "\"{\\\"version\\\":1,\"", "valid JSON");
  expect_error(parse_scenario_text("{\"version\":1,", Lang::Zh), "(document)", "\"{\\\"version\\\":1,\"", "合法的 JSON");
  expect_error(parse_scenario_text(""), "(document)", "\"\"", "valid JSON");
  expect_error(parse_scenario_text("{\"version\":1e400}"), "(document)", "\"{\\\"version\\\":1e400}\"", "valid JSON");
  expect_error(parse_scenario_text("[1]"), "(document)", "[1]", "a JSON object with \"version\": 1");
}

TEST(Validation, DeepNesting) {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  expect_error(parse_scenario_text(deep), "(document)", "100000", "JSON nested at most 32 levels deep");
  expect_error(parse_scenario_text(deep, Lang::Zh), "(document)", "100000", "嵌套不超过 32 层的 JSON");
  // Brackets inside a string are text, not nesting.
  ParseResult s = parse_scenario_text("{\"version\":1,\"name\":\"" + std::string(100, '[') + "\"}");
  EXPECT_TRUE(s.ok) << all_errors(s);
}

TEST(Validation, OversizedDocumentAndLongValues) {
  std::string big = "{\"version\":1,\"name\":\"" + std::string(5u << 20, 'x') + "\"}";
  expect_error(parse_scenario_text(big), "(document)", std::to_string(big.size()) + ".0", "a JSON document of at most 4 MiB");
  ParseResult r = parse(json{{"name", std::string(1u << 20, 'y')}});
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.errors[0].path, "name");
  EXPECT_LE(r.errors[0].value.size(), 80u);
  EXPECT_EQ(r.errors[0].value.substr(r.errors[0].value.size() - 3), "...");
  EXPECT_LT(r.errors[0].message.size(), 300u);
}

TEST(Validation, CustomGpuMissing) {
  expect_error(parse(json{{"hardware", {{"gpu", "custom"}}}}), "hardware.custom_gpu", "null",
               "an object {name, memory_gb, hbm_tb_s, bf16_tflops");
  expect_error(parse(json{{"hardware", {{"gpu", "custom"}}}}, Lang::Zh), "hardware.custom_gpu", "null",
               "hardware.gpu 为 \"custom\" 时须为对象");
}

TEST(Validation, CustomGpuFields) {
  json gpu = {{"name", "X1"}, {"memory_gb", 80}, {"hbm_tb_s", 3}, {"bf16_tflops", 900}, {"fp8_tflops", 1800},
              {"nvlink_gb_s", 900}, {"nic_gb_s", 50}};
  ParseResult ok = parse(json{{"hardware", {{"gpu", "custom"}, {"custom_gpu", gpu}}}});
  EXPECT_TRUE(ok.ok) << all_errors(ok);
  json unknown = gpu;
  unknown["watts"] = 700;
  expect_error(parse(json{{"hardware", {{"gpu", "custom"}, {"custom_gpu", unknown}}}}), "hardware.custom_gpu.watts", "700",
               "nvlink_domain", "is not a known field");
  json missing = gpu;
  missing.erase("memory_gb");
  expect_error(parse(json{{"hardware", {{"gpu", "custom"}, {"custom_gpu", missing}}}}), "hardware.custom_gpu.memory_gb", "missing",
               "a number in [1, 4096]");
  expect_error(parse(json{{"hardware", {{"custom_gpu", gpu}}}}), "hardware.custom_gpu", value_text(&gpu), "unset unless hardware.gpu is \"custom\"",
               "is set while hardware.gpu is \"h20-96g\"");
}

TEST(Validation, BadModelConfig) {
  json cfg = {{"model_type", "llama"}, {"hidden_size", "4096"}, {"num_hidden_layers", 32}, {"vocab_size", 32000},
              {"num_attention_heads", 32}, {"intermediate_size", 11008}};
  json patch = {{"model", {{"config", cfg}}}, {"reference", {{"preset", "none"}}}};
  expect_error(parse(patch), "model.config.hidden_size", "\"4096\"", "an integer in [64, 131072]");
  expect_error(parse(patch, Lang::Zh), "model.config.hidden_size", "\"4096\"", "[64, 131072] 内的整数");
  patch["model"]["config"]["hidden_size"] = 1e300;
  expect_error(parse(patch), "model.config.hidden_size", "1e+300", "an integer in [64, 131072]");
  patch["model"]["config"]["hidden_size"] = 4096;
  patch["model"]["config"].erase("num_hidden_layers");
  expect_error(parse(patch), "model.config.num_hidden_layers", "missing", "an integer in [1, 1024] (required)");
  expect_error(parse(json{{"model", {{"config", "llama"}}}}), "model.config", "\"llama\"", "a Hugging Face config.json object");
}

TEST(Validation, DenseModelWithExpertParallelism) {
  json patch = {{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                {"reference", {{"preset", "none"}}},
                {"deployment", {{"colocated", {{"gpus", 8}, {"ep", 8}, {"attention_tp", 8}}}}}};
  expect_error(parse(patch), "deployment.colocated.ep", "8", "1", "is set for a dense model (no experts)");
  patch["deployment"]["colocated"]["ep"] = 1;
  ParseResult r = parse(patch);
  EXPECT_TRUE(r.ok) << all_errors(r);
}

TEST(Validation, ErrorsAreListedTogether) {
  // Independent field errors are all reported at once, not one per round trip.
  ParseResult r = parse(json{{"hardware", {{"nodes", 0}, {"gpu", "h30"}}}, {"slo", {{"tpot_ms", "fast"}}}});
  ASSERT_FALSE(r.ok);
  std::string paths;
  for (const auto& e : r.errors) paths += e.path + " ";
  EXPECT_NE(paths.find("hardware.nodes"), std::string::npos) << paths;
  EXPECT_NE(paths.find("hardware.gpu"), std::string::npos) << paths;
  EXPECT_NE(paths.find("slo.tpot_ms"), std::string::npos) << paths;
}
