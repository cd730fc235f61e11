// Pasted benchmark outputs: the sample outputs of each tool (tests/fixtures/bench/, written from the
// tools' documented result formats) give the lengths, the load and the measured figures.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "slo/api.hpp"
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
  // the console table has no --concurrency: Little's law, 4.43 requests/s x 3,612.88 ms = 16
  const BenchOutput table = parse_bench_output(fixture("genai-perf.txt")).out;
  EXPECT_DOUBLE_EQ(table.concurrency, 16);
  EXPECT_TRUE(table.concurrency_inferred);
}

TEST(BenchOutput, TheRunBecomesTheReferenceOfTheScenariosOwnDeployment) {
  const nlohmann::json normalized = parse_scenario(default_scenario_json()).normalized;
  BenchParse p = parse_bench_output(fixture("vllm.json"));
  ASSERT_TRUE(p.ok);
  BenchReference r = bench_reference(p.out, normalized);
  ASSERT_TRUE(r.ok);
  const nlohmann::json& ref = r.document["reference"];
  EXPECT_EQ(ref["preset"], "custom");
  EXPECT_EQ(ref["gpu"], normalized["hardware"]["gpu"]);
  EXPECT_EQ(ref["deployment"], normalized["deployment"]);
  EXPECT_EQ(ref["workload"]["kind"], "closed_loop");  // --max-concurrency 32 at an unlimited rate
  EXPECT_EQ(ref["workload"]["concurrency"], 32);
  EXPECT_EQ(ref["workload"]["input_tokens"], 2048);
  EXPECT_NEAR(ref["measured"]["qpm"].get<double>(), 8.14 * 60, 1e-9);
  EXPECT_DOUBLE_EQ(ref["measured"]["tpot_ms"].get<double>(), 27.64);
  EXPECT_EQ(ref["measured"]["observed"], true);
  EXPECT_EQ(ref["calibrate"], false);
  ParseResult back = parse_scenario(r.document);
  EXPECT_TRUE(back.ok) << (back.errors.empty() ? "" : back.errors[0].message);
  // A finite rate is Poisson arrivals at it; neither a rate nor a cap, a burst of every request.
  BenchOutput rate = p.out;
  rate.request_rate = 4;
  EXPECT_EQ(bench_reference(rate, normalized).document["reference"]["workload"]["arrival_qpm"], 240.0);
  BenchOutput burst = p.out;
  burst.concurrency = 0;
  EXPECT_EQ(bench_reference(burst, normalized).document["reference"]["workload"]["kind"], "burst");
}

TEST(BenchOutput, ACustomGpuScenarioIsNamedNotGuessed) {
  nlohmann::json normalized = parse_scenario(default_scenario_json()).normalized;
  normalized["hardware"]["gpu"] = "custom";
  BenchReference r = bench_reference(parse_bench_output(fixture("sglang.txt")).out, normalized);
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].path, "hardware.gpu");
}

TEST(BenchOutput, AnythingElseIsOneClearError) {
  for (const std::string& bad : std::vector<std::string>{"", "hello", "{\"a\": 1}", "Successful requests: 10\n", std::string(2u << 20, 'x')}) {
    BenchParse p = parse_bench_output(bad);
    EXPECT_FALSE(p.ok) << bad.substr(0, 30);
    ASSERT_EQ(p.errors.size(), 1u);
    EXPECT_EQ(p.errors[0].path, "benchmark");
  }
}

namespace {
nlohmann::json call(const std::string& out) { return nlohmann::json::parse(out); }

const nlohmann::json* section(const nlohmann::json& report, const std::string& id) {
  for (const auto& s : report["sections"])
    if (s["id"] == id) return &s;
  return nullptr;
}

const nlohmann::json* item(const nlohmann::json& sec, const std::string& id) {
  for (const auto& i : sec["items"])
    if (i.value("id", "") == id) return &i;
  return nullptr;
}
}  // namespace

// Pasted through the string API (what the page and `slo-estimator reference` call): the report shows
// each measured figure beside the prediction of the same run, and calibration scales the times by
// the run's predicted / measured TPOT.
TEST(BenchOutput, APastedRunIsComparedPerFigureAndCalibratesTheTimes) {
  const std::string def = api::default_scenario();
  nlohmann::json pasted = call(api::paste_benchmark(def, fixture("sglang.txt"), "en"));
  ASSERT_TRUE(pasted["ok"].get<bool>()) << pasted.dump();
  EXPECT_NE(pasted["summary"].get<std::string>().find("closed loop of 64 clients"), std::string::npos);
  const nlohmann::json r1 = call(api::evaluate(pasted["scenario"].dump(), R"({"formats":["json"]})"));
  ASSERT_TRUE(r1["ok"].get<bool>()) << r1.dump();
  const nlohmann::json* cal = section(r1["report"], "calibration");
  ASSERT_NE(cal, nullptr);
  const nlohmann::json* table = item(*cal, "reference_figures");
  ASSERT_NE(table, nullptr);
  ASSERT_EQ((*table)["rows"].size(), 3u);  // TTFT, TPOT, throughput
  EXPECT_DOUBLE_EQ((*table)["rows"][0][1]["number"].get<double>(), 412.35);
  EXPECT_DOUBLE_EQ((*table)["rows"][1][1]["number"].get<double>(), 9.79);
  const double predicted_tpot = (*table)["rows"][1][2]["number"].get<double>();
  ASSERT_GT(predicted_tpot, 1.0);
  // A run measured at twice the predicted TPOT implies 50% efficiency; calibrating doubles the time scale.
  std::string slow = fixture("sglang.txt");
  slow.replace(slow.find("Mean ITL (ms):                           9.79"), 46, "Mean ITL (ms):                           " + std::to_string(2 * predicted_tpot));
  nlohmann::json p2 = call(api::paste_benchmark(def, slow, "en"));
  ASSERT_TRUE(p2["ok"].get<bool>()) << p2.dump();
  p2["scenario"]["reference"]["calibrate"] = true;
  const nlohmann::json r2 = call(api::evaluate(p2["scenario"].dump(), R"({"formats":["json"]})"));
  ASSERT_TRUE(r2["ok"].get<bool>()) << r2.dump();
  EXPECT_NEAR((*item(*section(r2["report"], "calibration"), "implied"))["value"]["number"].get<double>(), 0.5, 1e-3);
  const nlohmann::json* t2 = item(*section(r2["report"], "calibration"), "reference_figures");
  EXPECT_NEAR((*t2)["rows"][1][2]["number"].get<double>(), predicted_tpot, 1e-9);  // the table stays uncalibrated
}

TEST(BenchOutput, ThePasteNamesWhatIsWrong) {
  const nlohmann::json bad = call(api::paste_benchmark(api::default_scenario(), "Successful requests: 10\n", "zh"));
  EXPECT_FALSE(bad["ok"].get<bool>());
  EXPECT_EQ(bad["errors"][0]["path"], "benchmark");
  const nlohmann::json bad_scenario = call(api::paste_benchmark("{\"version\": 2, \"hardware\": {\"nodes\": 0}}", fixture("vllm.txt"), "en"));
  EXPECT_FALSE(bad_scenario["ok"].get<bool>());
  EXPECT_EQ(bad_scenario["errors"][0]["path"], "hardware.nodes");
}

// Variants seen in the wild (written here with invented numbers): indented lines with trailing
// blanks, "Failed requests", "not set" for the concurrency cap, no rate line at all (a burst), the
// capitalised "Total Token throughput" of vllm bench serve, and sglang's bench_serving against a
// vllm-chat backend (extra text/vision token lines).
TEST(BenchOutput, FormatVariantsSeenInTheWild) {
  const std::string indented =
      "============ Serving Benchmark Result ============   \n"
      "     Successful requests:                     10         \n"
      "     Failed requests:                         0          \n"
      "     Maximum request concurrency:             1          \n"
      "     Benchmark duration (s):                  69.66      \n"
      "     Total input tokens:                      10240      \n"
      "     Total generated tokens:                  2560       \n"
      "     Request throughput (req/s):              0.14       \n"
      "     Output token throughput (tok/s):         36.75      \n"
      "     Total Token throughput (tok/s):          183.75     \n"
      "     Mean TTFT (ms):                          812.30     \n"
      "     Mean TPOT (ms):                          24.10      \n";
  BenchParse a = parse_bench_output(indented);
  ASSERT_TRUE(a.ok);
  EXPECT_EQ(a.out.tool, "vllm");
  EXPECT_DOUBLE_EQ(a.out.concurrency, 1);
  EXPECT_DOUBLE_EQ(a.out.input_tokens, 1024);
  EXPECT_DOUBLE_EQ(a.out.output_tokens, 256);
  EXPECT_DOUBLE_EQ(a.out.total_tokens_per_s, 183.75);
  EXPECT_DOUBLE_EQ(a.out.tpot_mean_ms, 24.1);

  const std::string burst =
      "============ Serving Benchmark Result ============\n"
      "Successful requests:                     1000\n"
      "Benchmark duration (s):                  30.00\n"
      "Total input tokens:                      230000\n"
      "Total generated tokens:                  200000\n"
      "Request throughput (req/s):              33.33\n"
      "Output token throughput (tok/s):         6666.67\n"
      "Total Token throughput (tok/s):          14333.33\n"
      "Mean TTFT (ms):                          9000.00\n"
      "Mean TPOT (ms):                          70.00\n";
  BenchParse b = parse_bench_output(burst);
  ASSERT_TRUE(b.ok);
  EXPECT_DOUBLE_EQ(b.out.concurrency, 0);
  EXPECT_DOUBLE_EQ(b.out.request_rate, 0);
  const nlohmann::json normalized = parse_scenario(default_scenario_json()).normalized;
  const nlohmann::json w = bench_reference(b.out, normalized).document["reference"]["workload"];
  EXPECT_EQ(w["kind"], "burst");  // every request at once
  EXPECT_EQ(w["requests"], 1000);

  const std::string chat =
      "============ Serving Benchmark Result ============\n"
      "Backend:                                 vllm-chat\n"
      "Traffic request rate:                    inf\n"
      "Max request concurrency:                 not set\n"
      "Successful requests:                     100\n"
      "Total input tokens:                      51200\n"
      "Total input text tokens:                 1200\n"
      "Total input vision tokens:               50000\n"
      "Total generated tokens:                  100\n"
      "Total token throughput (tok/s):          9000.50\n"
      "Mean TTFT (ms):                          2500.00\n";
  BenchParse c = parse_bench_output(chat);
  ASSERT_TRUE(c.ok);
  EXPECT_EQ(c.out.tool, "sglang");  // sglang.bench_serving prints the backend it drove
  EXPECT_DOUBLE_EQ(c.out.concurrency, 0);
  EXPECT_DOUBLE_EQ(c.out.input_tokens, 512);
  EXPECT_DOUBLE_EQ(c.out.output_tokens, 1);
}
