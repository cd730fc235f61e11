// Pasted benchmark outputs: the sample outputs of each tool (tests/fixtures/bench/, written from the
// tools' documented result formats) give the lengths, the load and the measured figures.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "slo/bench_output.hpp"
#include "slo/scenario.hpp"

using namespace slo;

namespace {
std::string fixture(const std::string& name) {
  std::ifstream f(std::string(SLO_SOURCE_DIR) + "/tests/fixtures/bench/" + name);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

TEST(BenchOutput, SglangTextAndJsonl) {
  for (const char* f : {"sglang.txt", "sglang.jsonl"}) {
    BenchParse p = parse_bench_output(fixture(f));
    ASSERT_TRUE(p.ok) << f << (p.errors.empty() ? "" : ": " + p.errors[0].message);
    EXPECT_EQ(p.out.tool, "sglang") << f;
    EXPECT_DOUBLE_EQ(p.out.input_tokens, 1024) << f;
    EXPECT_DOUBLE_EQ(p.out.output_tokens, 512) << f;
    EXPECT_DOUBLE_EQ(p.out.concurrency, 64) << f;
    EXPECT_DOUBLE_EQ(p.out.ttft_median_ms, 388.02) << f;
    EXPECT_DOUBLE_EQ(p.out.itl_mean_ms, 9.79) << f;
    EXPECT_DOUBLE_EQ(p.out.request_throughput, 11.71) << f;
    EXPECT_DOUBLE_EQ(p.out.request_rate, 0) << f;  // inf: a closed loop at the concurrency
  }
  EXPECT_EQ(parse_bench_output(fixture("sglang.txt")).out.format, "text");
  EXPECT_EQ(parse_bench_output(fixture("sglang.jsonl")).out.format, "json");
  // the text block carries the total throughput; the jsonl derives it from the output throughput
  EXPECT_DOUBLE_EQ(parse_bench_output(fixture("sglang.txt")).out.total_tokens_per_s, 17992.27);
  EXPECT_NEAR(parse_bench_output(fixture("sglang.jsonl")).out.total_tokens_per_s, 5997.42 * 3, 0.01);
}

TEST(BenchOutput, VllmTextAndJson) {
  for (const char* f : {"vllm.txt", "vllm.json"}) {
    BenchParse p = parse_bench_output(fixture(f));
    ASSERT_TRUE(p.ok) << f;
    EXPECT_EQ(p.out.tool, "vllm") << f;
    EXPECT_DOUBLE_EQ(p.out.input_tokens, 2048) << f;
    EXPECT_DOUBLE_EQ(p.out.output_tokens, 128) << f;
    EXPECT_DOUBLE_EQ(p.out.concurrency, 32) << f;
    EXPECT_DOUBLE_EQ(p.out.tpot_mean_ms, 27.64) << f;
    EXPECT_DOUBLE_EQ(p.out.ttft_median_ms, 287.9) << f;
    EXPECT_DOUBLE_EQ(p.out.total_tokens_per_s, 17714.34) << f;
  }
}

TEST(BenchOutput, GenaiPerfTableAndJson) {
  for (const char* f : {"genai-perf.txt", "genai-perf.json"}) {
    BenchParse p = parse_bench_output(fixture(f));
    ASSERT_TRUE(p.ok) << f << (p.errors.empty() ? "" : ": " + p.errors[0].message);
    EXPECT_EQ(p.out.tool, "genai-perf") << f;
    EXPECT_DOUBLE_EQ(p.out.input_tokens, 2048) << f;
    EXPECT_DOUBLE_EQ(p.out.output_tokens, 256) << f;
    EXPECT_DOUBLE_EQ(p.out.ttft_mean_ms, 125.41) << f;
    EXPECT_DOUBLE_EQ(p.out.itl_mean_ms, 13.64) << f;
    EXPECT_DOUBLE_EQ(p.out.output_tokens_per_s, 1133.4) << f;
    EXPECT_DOUBLE_EQ(p.out.request_throughput, 4.43) << f;
  }
  EXPECT_DOUBLE_EQ(parse_bench_output(fixture("genai-perf.json")).out.concurrency, 16);
}

TEST(BenchOutput, TheReferencePatchParsesAsAScenario) {
  BenchParse p = parse_bench_output(fixture("vllm.json"));
  ASSERT_TRUE(p.ok);
  nlohmann::json doc = bench_reference_patch(p.out);
  doc["version"] = 2;
  EXPECT_EQ(doc["reference"]["workload"]["input_tokens"], 2048);
  EXPECT_NEAR(doc["reference"]["measured"]["qpm"].get<double>(), 8.14 * 60, 1e-9);
  EXPECT_DOUBLE_EQ(doc["reference"]["measured"]["tpot_ms"].get<double>(), 27.64);
  ParseResult r = parse_scenario(doc);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
}

TEST(BenchOutput, AnythingElseIsOneClearError) {
  for (const std::string& bad : std::vector<std::string>{"", "hello", "{\"a\": 1}", "Successful requests: 10\n", std::string(2u << 20, 'x')}) {
    BenchParse p = parse_bench_output(bad);
    EXPECT_FALSE(p.ok) << bad.substr(0, 30);
    ASSERT_EQ(p.errors.size(), 1u);
    EXPECT_EQ(p.errors[0].path, "benchmark");
  }
}
