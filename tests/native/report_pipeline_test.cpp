// The report pipeline: analyse() runs the physics once, the report stage formats it; the same
// analysis gives the same report as corrected_report(scenario); no figure prints "n/a".
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>

#include "slo/analysis.hpp"
#include "slo/api.hpp"
#include "slo/corrected_report.hpp"
#include "slo/hardware.hpp"
#include "slo/scenario.hpp"
#include "slo/search.hpp"
#include "slo/seed_method.hpp"
#include "test_scenario.hpp"

namespace slo {
namespace {

using nlohmann::json;

TEST(ReportPipeline, ReportOfAnAnalysisEqualsReportOfTheScenario) {
  const Scenario s = test::scenario(json::object());
  const Analysis a = analyse(s);
  EXPECT_EQ(render_text(corrected_report(a, Lang::En)), render_text(corrected_report(s, Lang::En)));
  EXPECT_EQ(to_json(corrected_report(a, Lang::Zh)).dump(), to_json(corrected_report(s, Lang::Zh)).dump());
  // The analysis carries the figures the report prints: the default case's smallest cluster and
  // the sensitivity rows (one per variant, the first the scenario as specified).
  EXPECT_TRUE(a.smallest.found);
  ASSERT_FALSE(a.sensitivity.empty());
  EXPECT_EQ(a.sensitivity.front().variant.id, "as-is");
  EXPECT_EQ(a.sensitivity.front().eval.lambda_max, a.ev.lambda_max);
  EXPECT_EQ(a.ttft_curve.size(), 8u);  // every rate below capacity is stable on the default case
}

// The method notes name the engine build the figures come from (issue 9: the report says which
// profile was used): vLLM 0.6.3 on an H100 is the V0 engine, on an MI300X the ROCm build.
TEST(ReportPipeline, MethodNotesNameTheEngineBuild) {
  auto notes = [](const char* gpu, const char* version) {
    const Scenario s = test::scenario(json{{"version", 2},
                                           {"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                                           {"hardware", {{"gpu", gpu}, {"nodes", 1}}},
                                           {"deployment", {{"engine", {{"name", "vllm"}, {"version", version}}}}}});
    return render_text(corrected_report(s, Lang::En));
  };
  EXPECT_NE(notes("h100-80g", "0.6.3").find("vLLM 0.6.3, V0 engine (releases before 0.8.0)"), std::string::npos);
  EXPECT_NE(notes("mi300x", "0.6.3").find("vLLM 0.6.3, ROCm build"), std::string::npos);
  const std::string v1 = notes("h100-80g", "0.11.0");
  EXPECT_EQ(v1.find("V0 engine"), std::string::npos);
  EXPECT_EQ(v1.find("ROCm build"), std::string::npos);
}

// A figure of zero (the pool does not fit: nothing is served) carries no error band; a served one does.
TEST(ReportPipeline, AZeroFigureHasNoErrorBand) {
  const Scenario dense = test::scenario(json{{"version", 2}, {"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                                             {"hardware", {{"gpu", "l40s"}, {"nodes", 1}}}});
  const Report r = corrected_report(dense, Lang::En);
  bool seen = false;
  for (const auto& v : r.verdicts)
    if (v.id == "throughput") {
      seen = true;
      ASSERT_TRUE(v.value.number.has_value());
      EXPECT_EQ(*v.value.number, 0.0) << "TP1 on a 48 GB GPU does not hold 70 GB of FP8 weights";
      EXPECT_FALSE(v.value.band.has_value());
    }
  EXPECT_TRUE(seen);
  for (const auto& v : corrected_report(test::scenario(json::object()), Lang::En).verdicts)
    if (v.id == "throughput") EXPECT_TRUE(v.value.band.has_value());
}

// What to change when a dense model's weights do not fit: the smallest in-node tensor-parallel degree
// that makes them fit is one of the report's variants (TP2 for Llama 70B FP8 on 48 GB L40S: 35 GB per
// GPU); a pool that fits, or a MoE model, gets no such row.
TEST(ReportPipeline, ADenseModelThatDoesNotFitGetsTheTensorParallelThatFits) {
  const Scenario dense = test::scenario(json{{"version", 2}, {"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                                             {"hardware", {{"gpu", "l40s"}, {"nodes", 1}}}});
  const std::vector<Variant> v = sensitivity_variants(dense);
  const auto it = std::find_if(v.begin(), v.end(), [](const Variant& x) { return x.id == "tp-fits"; });
  ASSERT_NE(it, v.end());
  EXPECT_EQ(it->scenario.deployment.colocated.attention_tp, 2);
  EXPECT_TRUE(evaluate_scenario(it->scenario).pools.front().plan.fits());
  Scenario same = dense;
  same.deployment.colocated.attention_tp = 4;
  EXPECT_FALSE(tp_that_fits(same)) << "a pool that fits is left as it is";
  EXPECT_EQ(same.deployment.colocated.attention_tp, 4);
  for (const Variant& x : sensitivity_variants(test::scenario(json::object()))) EXPECT_NE(x.id, "tp-fits");
}

// A pool that does not fit gets a "what changes the verdicts" row with the least whole number of
// GB per GPU offloaded to host memory (prefetched) that makes it fit: Llama 70B in BF16 (141 GB)
// on one H100, where no tensor parallelism is left to add.
TEST(ReportPipeline, APoolThatDoesNotFitGetsTheOffloadThatFits) {
  const Scenario one = test::scenario(json{{"version", 2}, {"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                                           {"precision", {{"weights", "bf16"}, {"activations", "bf16"}}},
                                           {"hardware", {{"gpu", "h100-80g"}, {"nodes", 1}, {"gpus_per_node", 1}}}});
  const std::vector<Variant> v = sensitivity_variants(one);
  const auto it = std::find_if(v.begin(), v.end(), [](const Variant& x) { return x.id == "offload-fits"; });
  ASSERT_NE(it, v.end());
  const double gb = it->scenario.deployment.colocated.cpu_offload_gb;
  EXPECT_TRUE(it->scenario.deployment.offload_prefetch);
  EXPECT_GT(gb, 60);  // about 141 GB of weights against ~74 GB of usable memory
  EXPECT_LT(gb, 100);
  EXPECT_TRUE(evaluate_scenario(it->scenario).pools.front().plan.fits());
  Scenario less = it->scenario;
  less.deployment.colocated.cpu_offload_gb = gb - 1;
  EXPECT_FALSE(evaluate_scenario(less).pools.front().plan.fits()) << "the least whole GB";
  EXPECT_NE(it->label_en.find(format_fixed(gb, 0, true) + " GB per GPU"), std::string::npos) << it->label_en;
  for (const Variant& x : sensitivity_variants(test::scenario(json::object()))) EXPECT_NE(x.id, "offload-fits");
}

// The report's JSON is written as text, not built as a tree (issue 11): it must be the compact
// dump nlohmann gives the same document (keys in std::map order, its number format and escapes),
// for both methods, both languages, and a name with quotes, control characters and CJK.
TEST(ReportPipeline, ReportJsonTextIsTheCompactDumpOfItsDocument) {
  const Scenario s = test::scenario(json{{"name", "a \"q\" \\ \n\t\u0001 \u00fc \u4e2d </b>"}});
  for (Lang lang : {Lang::En, Lang::Zh}) {
    for (const Report& r : {corrected_report(s, lang), seed_report(s, lang)}) {
      const std::string text = report_json_text(r);
      EXPECT_EQ(json::parse(text).dump(-1, ' ', false, json::error_handler_t::replace), text);
    }
    // The corrected report's title carries the name, its control character escaped.
    EXPECT_NE(report_json_text(corrected_report(s, lang)).find("\\n\\t\\u0001"), std::string::npos);
  }
}

// A TPOT target no decode batch meets (1 ms) and no throughput target: these printed
// "decode step bound by n/a" and the seed appendix's "Target achievement: n/a".
TEST(ReportPipeline, FiguresWithoutAValueSayWhy) {
  const Scenario s = test::scenario(json{{"slo", {{"tpot_ms", 1}, {"throughput_tokens_per_s", nullptr}}}});
  for (Lang lang : {Lang::En, Lang::Zh}) {
    const Report r = corrected_report(s, lang);
    const std::string text = render_text(r);
    EXPECT_EQ(text.find("n/a"), std::string::npos) << text;
    EXPECT_EQ(text.find("不适用"), std::string::npos);
    const Verdict* tpot = nullptr;
    for (const auto& v : r.verdicts)
      if (v.id == "tpot") tpot = &v;
    ASSERT_NE(tpot, nullptr);
    EXPECT_EQ(tpot->value.text, lang == Lang::En ? "no capacity" : "无服务能力");
    EXPECT_NE(tpot->detail.find(lang == Lang::En ? "TPOT at batch 1 is" : "batch 1 的 TPOT 为"), std::string::npos) << tpot->detail;
  }
  const std::string seed = render_text(corrected_report(s, Lang::En).appendices.at(0));
  EXPECT_NE(seed.find("Target achievement: no value: no throughput target"), std::string::npos) << seed;
}

}  // namespace
}  // namespace slo

namespace slo {
namespace {

// Issue 13: a dense model's pool was described as "MoE TP8" (the condition ep >= 1 always held);
// the label is for models with experts only.
TEST(ReportPipeline, DensePoolsHaveNoMoeTpLabel) {
  const nlohmann::json dense = {{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                                {"precision", {{"weights", "bf16"}, {"activations", "bf16"}}},
                                {"hardware", {{"gpu", "h100-80g"}, {"nodes", 1}}},
                                {"deployment", {{"colocated", {{"gpus", 8}, {"attention_tp", 8}, {"ep", 1}, {"redundant_experts", 0}}}}},
                                {"reference", {{"preset", "none"}}}};
  const std::string text = render_text(corrected_report(test::scenario(dense), Lang::En));
  EXPECT_EQ(text.find("MoE TP"), std::string::npos);
  // An MoE model split 8 ways without expert parallel keeps it.
  const nlohmann::json moe = {{"hardware", {{"gpu", "h200-141g"}, {"nodes", 1}}},
                              {"deployment", {{"colocated", {{"gpus", 8}, {"attention_tp", 8}, {"ep", 1}, {"redundant_experts", 0}}}}},
                              {"reference", {{"preset", "none"}}}};
  EXPECT_NE(render_text(corrected_report(test::scenario(moe), Lang::En)).find("MoE TP8"), std::string::npos);
}

// The method section names the weight-only GEMM rate when the weights are dequantized inside the GEMM
// (AWQ INT4 with BF16 activations on A100: the fitted Ampere share), and only then.
TEST(ReportPipeline, MethodNamesTheWeightOnlyGemmRate) {
  nlohmann::json awq = {{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                        {"precision", {{"weights", "int4"}, {"activations", "bf16"}, {"kv_cache", "bf16"}}},
                        {"hardware", {{"gpu", "a100-80g"}, {"nodes", 1}}},
                        {"deployment", {{"colocated", {{"gpus", 4}, {"attention_tp", 4}, {"ep", 1}, {"redundant_experts", 0}}}}},
                        {"reference", {{"preset", "none"}}}};
  const std::string pct = std::to_string(static_cast<int>(std::lround(find_gpu("a100-80g")->eff.weight_only_gemm * 100))) + "% of the 16-bit GEMM rate";
  const std::string text = render_text(corrected_report(test::scenario(awq), Lang::En));
  EXPECT_NE(text.find("Weight-only quantized GEMMs (int4 weights, bf16 activations) run a Marlin-class kernel"), std::string::npos) << text;
  EXPECT_NE(text.find(pct), std::string::npos) << pct;
  awq["precision"] = {{"weights", "bf16"}, {"activations", "bf16"}, {"kv_cache", "bf16"}};
  EXPECT_EQ(render_text(corrected_report(test::scenario(awq), Lang::En)).find("Weight-only quantized"), std::string::npos);
}

// The method names the attention share of the scenario's GPU, and says where it comes from when its
// tensor/FP32 balance differs from its family's reference GPU (Gpu::tensor_efficiency).
TEST(ReportPipeline, MethodNamesTheGpusOwnComputeShares) {
  nlohmann::json doc = {{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                        {"hardware", {{"gpu", "h20-96g"}, {"nodes", 1}}},
                        {"deployment", {{"colocated", {{"gpus", 8}, {"attention_tp", 8}, {"ep", 1}, {"redundant_experts", 0}}}}},
                        {"reference", {{"preset", "none"}}}};
  const Gpu& h20 = *find_gpu("h20-96g");
  const std::string attn = "attention " + std::to_string(static_cast<int>(std::lround(h20.tensor_efficiency(h20.eff.attention) * 100))) + "%";
  const std::string text = render_text(corrected_report(test::scenario(doc), Lang::En));
  EXPECT_NE(text.find("Efficiency factors of NVIDIA H20 96GB: GEMM"), std::string::npos);
  EXPECT_NE(text.find(attn + ", HBM"), std::string::npos) << attn;
  EXPECT_NE(text.find("so attention kernels keep them busier"), std::string::npos);
  // The Chinese report names every share in Chinese: no English word left in the line.
  const std::string zh = render_text(corrected_report(test::scenario(doc), Lang::Zh));
  const std::size_t line = zh.find("效率系数：NVIDIA H20 96GB: GEMM");
  ASSERT_NE(line, std::string::npos);
  const std::string factors = zh.substr(line, zh.find('\n', line) - line);
  EXPECT_NE(factors.find("%，注意力 " + attn.substr(10)), std::string::npos) << factors;
  EXPECT_EQ(factors.find("attention"), std::string::npos) << factors;
  EXPECT_EQ(factors.find(", "), std::string::npos) << factors;
  doc["hardware"]["gpu"] = "h100-80g";
  EXPECT_EQ(render_text(corrected_report(test::scenario(doc), Lang::En)).find("keep them busier"), std::string::npos);
}

}  // namespace
}  // namespace slo

namespace slo {
namespace {

// Issue 12, defect 6: "targets met" counts the memory verdict and the targets the scenario sets,
// never an unset target as met (the default sets four SLO targets: "n / 5"; none set: "n / 1").
std::string met_cell(const Report& r) {
  for (const auto& sec : r.sections)
    for (const auto& it : sec.items)
      if (it.table.id == "sensitivity" && !it.table.rows.empty()) return it.table.rows.front().back().text;
  return "";
}

TEST(ReportPipeline, TargetsMetCountOnlyTargetsThatAreSet) {
  const Scenario base = test::scenario(json::object());
  const Analysis a = analyse(base);
  EXPECT_EQ(a.targets.set(), 5);
  EXPECT_LE(a.targets.met(), 5);
  EXPECT_EQ(met_cell(corrected_report(a, Lang::En)), std::to_string(a.targets.met()) + " / 5");
  const Scenario none = test::scenario(json{{"slo",
                                             {{"concurrent_sessions", nullptr},
                                              {"throughput_tokens_per_s", nullptr},
                                              {"tpot_ms", nullptr},
                                              {"ttft_p50_ms", nullptr},
                                              {"ttft_p99_ms", nullptr}}}});
  const Analysis b = analyse(none);
  EXPECT_TRUE(b.targets.all());
  EXPECT_EQ(b.targets.set(), 1);
  EXPECT_EQ(met_cell(corrected_report(b, Lang::En)), "1 / 1");
}

}  // namespace
}  // namespace slo

#include "../../core/src/report_common.hpp"

namespace slo {
namespace {

// Issue 12, defect 11: a margin that rounds to zero printed "margin -0 tokens/s".
TEST(ReportPipeline, MarginsThatRoundToZeroHaveNoSign) {
  using rpt::margin;
  using rpt::signed_num;
  using rpt::B;
  EXPECT_EQ(signed_num(-0.3, 0), "0");
  EXPECT_EQ(signed_num(-0.04, 1), "0.0");
  EXPECT_EQ(signed_num(-1.6, 0), "-2");
  EXPECT_EQ(signed_num(1234.0, 0), "+1,234");
  EXPECT_EQ(margin(199.7, 200, 0, "sessions", true).text, "0 sessions (-0.2%)");
  // "1 sessions" (issue 12, defect 11): the count and the margin say "1 session".
  EXPECT_EQ(margin(201, 200, 0, "sessions", true).text, "+1 session (+0.5%)");
  EXPECT_EQ(B{Lang::En}.count(1, "sessions").text, "1 session");
  EXPECT_EQ(B{Lang::En}.count(2, "sessions").text, "2 sessions");
}

}  // namespace
}  // namespace slo

namespace slo {
namespace {

// Issue 12, defect 7: one unit per request rate (requests/min, as the workload and the verdicts
// state it), and an overloaded workload is named in the TTFT chart's title, not drawn as a marker
// 10x beyond the curve's points (the default is overloaded: 1,752 requests/min against ~180).
const Chart* chart_of(const Report& r, const std::string& id) {
  for (const auto& sec : r.sections)
    for (const auto& it : sec.items)
      if (it.kind == Item::Kind::Chart && it.chart.id == id) return &it.chart;
  return nullptr;
}

TEST(ReportPipeline, TtftChartUsesRequestsPerMinuteAndKeepsItsScale) {
  const Report r = corrected_report(test::scenario(json::object()), Lang::En);
  const Chart* chart = chart_of(r, "ttft_vs_rate");
  ASSERT_NE(chart, nullptr);
  EXPECT_EQ(chart->x_unit, "requests/min");
  double last = 0;
  for (const auto& p : chart->series.front().points) last = std::max(last, p.first);
  for (const auto& m : chart->markers)
    if (m.axis == "x") EXPECT_LE(m.value, 1.25 * last) << m.label;
  EXPECT_NE(chart->title.find("1,752 requests/min is beyond this range"), std::string::npos) << chart->title;
  EXPECT_EQ(render_text(r).find("requests/s"), std::string::npos);
}

// The memory chart: its bars stack up to its HBM line when the plan fits (SGLang's fraction holds
// weights + KV, the reserves sit outside it: they were once counted twice, 4 GB over the line), and
// the line is the HBM the plan uses (H20: the driver's 97,871 MiB = 102.6 GB), not the marketed 96 GB.
TEST(ReportPipeline, MemoryChartHbmLineIsWhatTheBarsFill) {
  const Report r = corrected_report(test::scenario(json::object()), Lang::En);
  const Chart* chart = chart_of(r, "memory_breakdown");
  ASSERT_NE(chart, nullptr);
  double stacked = 0;
  for (const auto& s : chart->series) stacked += s.points.at(0).second;
  ASSERT_EQ(chart->markers.size(), 1u);
  EXPECT_NEAR(chart->markers[0].value, 102.63, 0.01);
  EXPECT_NEAR(stacked, chart->markers[0].value, 1e-6);
}

}  // namespace
}  // namespace slo

namespace slo {
namespace {

// Issue 12, defect 5: the seed method is a labelled comparison under the corrected report, never a
// second verdict: one top-level heading in the Markdown, the appendix one level down with a notice,
// its verdicts carrying what the script claims (status Info, no pass/fail icon), its "met" rows
// saying whose claim they are; the seed method on its own (--method seed) is unchanged.
TEST(ReportPipeline, SeedAppendixIsAComparisonNotASecondVerdict) {
  const Scenario s = test::scenario(json::object());
  for (Lang lang : {Lang::En, Lang::Zh}) {
    const Report r = corrected_report(s, lang);
    ASSERT_EQ(r.appendices.size(), 1u);
    const Report& seed = r.appendices[0];
    EXPECT_TRUE(seed.comparison);
    EXPECT_NE(seed.notice.find(lang == Lang::En ? "Not a verdict" : "这不是判定"), std::string::npos) << seed.notice;
    ASSERT_EQ(seed.verdicts.size(), 4u);
    for (const auto& v : seed.verdicts) {
      EXPECT_EQ(v.status, Status::Info) << v.id;
      ASSERT_TRUE(v.claimed.has_value()) << v.id;
    }
    EXPECT_EQ(*seed.verdicts[1].claimed, Status::Fail);  // the script's 1 session against 200
    const std::string md = render_markdown(r);
    int top = 0;
    for (std::size_t i = 0; (i = md.find("\n# ", i)) != std::string::npos; ++i) ++top;
    EXPECT_EQ(top, 0) << "one top-level heading (the first line)";
    EXPECT_EQ(md.rfind("# ", 0), 0u);
    const std::string appendix = md.substr(md.find("\n---\n"));
    EXPECT_EQ(appendix.find("✅"), std::string::npos) << appendix;
    EXPECT_EQ(appendix.find("❌"), std::string::npos) << appendix;
    EXPECT_NE(appendix.find(lang == Lang::En ? "| claims fail |" : "| 声称未通过 |"), std::string::npos);
    EXPECT_NE(appendix.find("\n> "), std::string::npos) << "the notice as a quote";
    const json j = to_json(r).at("appendices").at(0);
    EXPECT_TRUE(j.at("comparison").get<bool>());
    EXPECT_EQ(j.at("verdicts").at(1).at("claimed"), "fail");
    EXPECT_EQ(j.at("verdicts").at(1).at("status"), "info");
  }
  // The seed method on its own keeps the script's verdicts (it reproduces the script's output).
  const Report alone = seed_report(s, Lang::En);
  EXPECT_FALSE(alone.comparison);
  EXPECT_EQ(alone.verdicts.at(1).status, Status::Fail);
}

}  // namespace
}  // namespace slo

namespace slo {
namespace {

// Issue 12: the headline above the verdicts (targets met, the largest miss relative to its target,
// the smallest cluster meeting every target), and the document that applies that cluster, which
// then meets every target.
TEST(ReportPipeline, HeadlineNamesTheWorstMissAndItsFixApplies) {
  const Report r = corrected_report(test::scenario(json::object()), Lang::En);
  EXPECT_EQ(r.headline.rfind("Meets 2 of 5 targets. Throughput (input + output tokens/s): short by 91% (", 0), 0u) << r.headline;
  EXPECT_NE(r.headline.find(" tokens/s against 50,000 tokens/s). 2 more targets missed."), std::string::npos) << r.headline;
  EXPECT_NE(r.headline.find("Smallest cluster meeting every target: 9 x 8 NVIDIA H20 96GB, 16P:56D."), std::string::npos) << r.headline;
  const json out = json::parse(api::evaluate(api::default_scenario(), "{}"));
  ASSERT_TRUE(out.contains("recommended"));
  EXPECT_EQ(out["recommended"]["gpus"], 72);
  const json applied = json::parse(api::evaluate(out["recommended"]["scenario"].dump(), "{}"));
  ASSERT_TRUE(applied["ok"].get<bool>()) << applied["errors"].dump();
  EXPECT_EQ(applied["report"]["headline"].get<std::string>().rfind("Meets every target (5).", 0), 0u) << applied["report"]["headline"];
  EXPECT_FALSE(applied.contains("recommended"));
}

}  // namespace
}  // namespace slo

namespace slo {
namespace {

// Issue 12, defect 11: one way to print a number; every count of 1,000 or more carries thousands
// separators ("5,887 ms" beside "1,752 requests/min", never "5887 ms"), in both languages.
TEST(ReportPipeline, EveryLargeNumberHasThousandsSeparators) {
  const std::regex bare("[^0-9,.A-Za-z_-][0-9]{4,}[^0-9,]");
  for (Lang lang : {Lang::En, Lang::Zh}) {
    Report r = corrected_report(test::scenario(json::object()), lang);
    r.appendices.clear();  // the seed method prints as the original script did
    const std::string md = render_markdown(r);
    std::smatch m;
    EXPECT_FALSE(std::regex_search(md, m, bare)) << m.str() << " in " << (lang == Lang::En ? "en" : "zh");
  }
}

}  // namespace
}  // namespace slo

namespace slo {
namespace {

// Issue 12, cost: a stated price per GPU-hour gives USD per million input, output and all tokens at
// capacity; input tokens carry the prefill share of GPU time. Unset (every released link), no cost.
Scenario v2(json doc) {
  doc["version"] = 2;
  ParseResult p = parse_scenario(doc);
  if (!p.ok) throw std::runtime_error(p.errors.front().message);
  return p.scenario;
}

TEST(ReportPipeline, CostPerMillionTokensFromAStatedGpuPrice) {
  const Analysis none = analyse(test::scenario(json::object()));
  EXPECT_FALSE(none.cost.stated);
  for (const auto& sec : corrected_report(none, Lang::En).sections) EXPECT_NE(sec.id, "cost");
  const Analysis a = analyse(v2(json{{"hardware", {{"gpu_hour_usd", 2.5}}}}));
  const CostFigures& k = a.cost;
  ASSERT_TRUE(k.stated);
  EXPECT_DOUBLE_EQ(k.cluster_per_hour, 2.5 * 32);
  // The two shares add up to the whole bill: input $ + output $ = cluster $ (per hour at capacity).
  const double billed = k.per_million_input * a.ev.input_tps_max * 3600 / 1e6 + k.per_million_output * a.ev.output_tps_max * 3600 / 1e6;
  EXPECT_NEAR(billed, k.cluster_per_hour, 1e-9 * k.cluster_per_hour);
  EXPECT_NEAR(k.per_million_total, k.cluster_per_hour / (a.ev.total_tps_max * 3600) * 1e6, 1e-12);
  EXPECT_NEAR(k.input_share, a.ev.op_max.prefill_share, 1e-12);  // colocated: the prefill share of GPU time
  const std::string text = render_text(corrected_report(a, Lang::En));
  EXPECT_NE(text.find("Cluster, per hour: 80.00 USD/h"), std::string::npos) << text;
  // Disaggregated: the prefill pool's GPUs are the input tokens' share.
  const Analysis d = analyse(v2(json{{"hardware", {{"gpu_hour_usd", 2.0}}}, {"deployment", {{"mode", "disaggregated"}}}}));
  EXPECT_NEAR(d.cost.input_share, static_cast<double>(d.input.deployment.prefill.gpus) / 32, 1e-12);
  // A version 1 document (a released link) has no price: the migration leaves it unset.
  const ParseResult v1 = parse_scenario(json{{"version", 1}});
  ASSERT_TRUE(v1.ok);
  EXPECT_TRUE(v1.normalized["hardware"]["gpu_hour_usd"].is_null());
  const ParseResult bad = parse_scenario(json{{"version", 2}, {"hardware", {{"gpu_hour_usd", -1}}}});
  ASSERT_FALSE(bad.ok);
  EXPECT_EQ(bad.errors.front().path, "hardware.gpu_hour_usd");
}

}  // namespace
}  // namespace slo

namespace slo {
namespace {

// Releases compare on the bound's numeric components, whatever the suffixes.
TEST(EngineRelease, AtOrBeforeComparesNumbers) {
  EXPECT_TRUE(release_at_or_before("0.4.3.post2", "0.4.3"));
  EXPECT_TRUE(release_at_or_before("v0.4.2", "0.4.3"));
  EXPECT_TRUE(release_at_or_before("0.7.3.dev138 (rocm/vllm-dev:vllm-ds3-staging-0217)", "0.7.4"));
  EXPECT_TRUE(release_at_or_before("0.17.post1.dev", "0.17"));
  EXPECT_FALSE(release_at_or_before("0.4.6", "0.4.3"));
  EXPECT_FALSE(release_at_or_before("0.10.2", "0.7.4"));  // numbers, not text: 10 > 7
  EXPECT_FALSE(release_at_or_before("1.0 (PyTorch backend)", "0.17"));
  EXPECT_FALSE(release_at_or_before("", "0.4.3"));
  EXPECT_FALSE(release_at_or_before("nightly", "0.4.3"));
}

// A stated engine release the profile does not describe for an MLA model (dstack's early-2025
// releases, 86% off held out) is named in the report's warnings; a later release or a dense model
// is not.
TEST(ReportPipeline, AnEarlyEngineReleaseOfAnMlaModelIsWarnedAbout) {
  const auto warned = [](const json& patch) {
    const Report r = corrected_report(test::scenario(patch), Lang::En);
    for (const auto& w : r.warnings)
      if (w.find("the engine profile describes releases after") != std::string::npos) return true;
    return false;
  };
  const json sglang = {{"deployment", {{"engine", {{"name", "sglang"}, {"version", "0.4.3.post2"}}}}}};
  EXPECT_TRUE(warned(sglang));
  EXPECT_FALSE(warned({{"deployment", {{"engine", {{"name", "sglang"}, {"version", "0.5.3"}}}}}}));
  EXPECT_FALSE(warned({{"deployment", {{"engine", {{"name", "sglang"}}}}}}));  // no release stated
  json llama = sglang;
  llama["model"] = {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}};
  llama["deployment"]["colocated"] = {{"gpus", 32}, {"attention_tp", 8}, {"ep", 1}};
  llama["reference"] = {{"preset", "none"}};
  EXPECT_FALSE(warned(llama));
}

// A tensor-parallel group spanning nodes (the layout of the validation-only 16 x H100 source) is
// warned about, in both languages; TP inside a node, EP across nodes and data-parallel replicas of a
// dense model are not.
TEST(ReportPipeline, TensorParallelAcrossNodesIsWarnedAbout) {
  const auto warned = [](const json& patch, Lang lang, const char* needle) {
    const Report r = corrected_report(test::scenario(patch), lang);
    for (const auto& w : r.warnings)
      if (w.find(needle) != std::string::npos) return true;
    return false;
  };
  const char* en = "A tensor-parallel group spans nodes";
  json tp16 = {{"model", {{"preset", "deepseek-ai/DeepSeek-R1"}}},
               {"hardware", {{"gpu", "h100-80g"}, {"nodes", 2}, {"gpus_per_node", 8}}},
               {"deployment", {{"colocated", {{"gpus", 16}, {"attention_tp", 16}, {"ep", 1}, {"redundant_experts", 0}}}}},
               {"reference", {{"preset", "none"}}}};
  EXPECT_TRUE(warned(tp16, Lang::En, en));
  EXPECT_TRUE(warned(tp16, Lang::Zh, "张量并行组跨越节点"));
  json moe_tp = tp16;  // DP attention, experts tensor-parallel over both nodes
  moe_tp["deployment"]["colocated"]["attention_tp"] = 1;
  EXPECT_TRUE(warned(moe_tp, Lang::En, en));
  json ep16 = moe_tp;
  ep16["deployment"]["colocated"]["ep"] = 16;
  EXPECT_FALSE(warned(ep16, Lang::En, en));
  EXPECT_FALSE(warned(json::object(), Lang::En, en));  // the default: EP32 over 4 nodes
  json llama = {{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
                {"hardware", {{"gpu", "h100-80g"}, {"nodes", 4}, {"gpus_per_node", 8}}},
                {"deployment", {{"colocated", {{"gpus", 32}, {"attention_tp", 8}, {"ep", 1}}}}},
                {"reference", {{"preset", "none"}}}};
  EXPECT_FALSE(warned(llama, Lang::En, en));
}

}  // namespace
}  // namespace slo

namespace slo {
namespace {

// The prefill section names the block-FP8 bound where it applies (vLLM, DeepSeek-R1 FP8, TP8 on
// H200: dense layers and experts at 400 TFLOP/s per GPU), in both languages, and nowhere else (the
// default scenario: H20, whose SMs out-run its FP8 tensor cores; a per-tensor checkpoint).
TEST(ReportPipeline, PrefillSectionNamesTheBlockFp8Bound) {
  json doc = {{"version", 2},
              {"hardware", {{"gpu", "h200-141g"}, {"nodes", 1}, {"gpus_per_node", 8}}},
              {"deployment", {{"engine", {{"name", "vllm"}}}, {"colocated", {{"gpus", 8}, {"attention_tp", 8}, {"ep", 1}}}}}};
  const std::string en = render_text(corrected_report(test::scenario(doc), Lang::En));
  EXPECT_NE(en.find("Block-scaled FP8 GEMMs: at most 400 TFLOP/s per GPU  (dense layers and tensor-parallel experts; vLLM's kernels"),
            std::string::npos) << en;
  EXPECT_NE(render_text(corrected_report(test::scenario(doc), Lang::Zh)).find("块缩放 FP8 GEMM: 至多 400 TFLOP/s/卡"), std::string::npos);
  EXPECT_EQ(render_text(corrected_report(test::scenario(json::object()), Lang::En)).find("Block-scaled FP8"), std::string::npos);
  doc["precision"] = {{"fp8_scales", "tensor"}};
  EXPECT_EQ(render_text(corrected_report(test::scenario(doc), Lang::En)).find("Block-scaled FP8"), std::string::npos);
}

}  // namespace
}  // namespace slo
