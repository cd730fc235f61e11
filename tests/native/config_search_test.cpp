// The configuration search: every frontier point meets the targets it claims; brute force over a
// small space finds no configuration dominating a frontier point; the fewest-GPU answer is not
// beaten by an exhaustive check of every smaller budget.
#include <gtest/gtest.h>

#include "slo/api.hpp"
#include "slo/pool_memo.hpp"
#include "slo/search.hpp"
#include "test_scenario.hpp"

namespace slo {
namespace {

using nlohmann::json;

// A small space: an MoE model without an MTP layer on nodes of 4 H100s.
Scenario small(int nodes, double throughput) {
  return test::scenario(json{{"model", {{"preset", "Qwen/Qwen3-30B-A3B"}}},
                             {"hardware", {{"gpu", "h100-80g"}, {"nodes", nodes}, {"gpus_per_node", 4}}},
                             {"deployment", {{"mode", "colocated"}, {"colocated", {{"gpus", 4 * nodes}, {"attention_tp", 1}, {"ep", 4 * nodes}}}}},
                             {"slo", {{"concurrent_sessions", 16}, {"throughput_tokens_per_s", throughput}, {"ttft_p50_ms", 2000}, {"tpot_ms", 50}}},
                             {"reference", {{"preset", "none"}}}});
}

// Every configuration of the documented space for a budget of `gpus` (as search.hpp lists it).
std::vector<Scenario> space(const Scenario& s, const SearchOptions& o, int gpus) {
  std::vector<Scenario> out;
  const int gpn = s.gpus_per_node;
  Scenario base = s;
  base.nodes = (gpus + gpn - 1) / gpn;
  std::vector<DType> kvs{s.precision.kv_cache};
  if (o.kv_fp8) kvs.push_back(DType::FP8);
  for (DType kv : kvs) {
    for (const PoolConfig& c : pool_shapes(s.model, gpus, gpn))
      for (int cap : o.decode_batches) {
        Scenario x = base;
        x.precision.kv_cache = kv;
        x.deployment.disaggregated = false;
        x.deployment.colocated = c;
        x.deployment.max_decode_batch_per_gpu = cap;
        out.push_back(x);
      }
    std::vector<int> splits;
    if (gpus >= 2 * gpn)
      for (int p = gpn; p < gpus; p += gpn) splits.push_back(p);
    else
      for (int p = 1; p < gpus; p *= 2) splits.push_back(p);
    for (int p : splits)
      for (const PoolConfig& pc : pool_shapes(s.model, p, gpn))
        for (int chunk : o.chunks)
          for (const PoolConfig& dc : pool_shapes(s.model, gpus - p, gpn))
            for (int cap : o.decode_batches) {
              Scenario x = base;
              x.precision.kv_cache = kv;
              x.deployment.disaggregated = true;
              x.deployment.prefill = pc;
              x.deployment.decode = dc;
              x.deployment.chunked_prefill_tokens = chunk;
              x.deployment.max_decode_batch_per_gpu = cap;
              out.push_back(x);
            }
  }
  return out;
}

bool fits(const Evaluation& ev) {
  for (const auto& pe : ev.pools)
    if (!pe.plan.fits()) return false;
  return true;
}

TEST(ConfigSearch, FrontierPointsMeetWhatTheyClaimAndNothingDominatesThem) {
  const Scenario s = small(1, 5000);
  SearchOptions o;
  const SearchResult r = search_configurations(s, o);
  ASSERT_GE(r.frontier.size(), 3u);
  EXPECT_GT(r.pruned, 0);
  for (std::size_t i = 0; i < r.frontier.size(); ++i) {
    const SearchPoint& p = r.frontier[i];
    if (i > 0) {
      EXPECT_GT(p.tps_per_user, r.frontier[i - 1].tps_per_user);  // a frontier: x up, y down
      EXPECT_LT(p.tps_per_gpu, r.frontier[i - 1].tps_per_gpu);
    }
    // The point's scenario evaluated as the report evaluates it gives the claimed figures and verdicts.
    EvalOptions e;
    e.ttft_requests = 1000;
    const Evaluation ev = evaluate_scenario(p.scenario, e);
    EXPECT_DOUBLE_EQ(ev.capacity_in_target_kind() / 4, p.tps_per_gpu);
    EXPECT_DOUBLE_EQ(1.0 / ev.op_max.tpot_s, p.tps_per_user);
    const TargetCheck c = check_targets(ev);
    EXPECT_EQ(c.all(), p.met.all());
    EXPECT_EQ(c.tpot, p.met.tpot);
    EXPECT_EQ(c.throughput, p.met.throughput);
    EXPECT_EQ(c.ttft_p50, p.met.ttft_p50);
    if (s.slo.tpot_ms > 0) EXPECT_GE(p.tps_per_user, 1000.0 / s.slo.tpot_ms * (1 - 1e-9));
  }
  for (const SearchPoint& p : r.top) EXPECT_TRUE(p.met.all());
  ASSERT_FALSE(r.top.empty());
  // Brute force: no configuration of the space dominates a frontier point.
  EvalOptions quick;
  quick.ttft = false;
  int feasible = 0;
  for (const Scenario& c : space(s, o, 4)) {
    const Evaluation ev = evaluate_scenario(c, quick);
    if (!fits(ev) || ev.lambda_max <= 0 || ev.op_max.tpot_s <= 0) continue;
    ++feasible;
    SearchPoint q;
    q.tps_per_gpu = ev.capacity_in_target_kind() / 4;
    q.tps_per_user = 1.0 / ev.op_max.tpot_s;
    for (const SearchPoint& p : r.frontier)
      ASSERT_FALSE(dominates(q, p)) << "a configuration (" << q.tps_per_user << ", " << q.tps_per_gpu << ") dominates frontier point ("
                                    << p.tps_per_user << ", " << p.tps_per_gpu << ")";
  }
  EXPECT_GT(feasible, 100);
}

TEST(ConfigSearch, FewestGpusIsNotBeatenByAnExhaustiveCheck) {
  const Scenario s = small(1, 200000);
  SearchOptions o;
  o.fewest = true;
  o.max_nodes = 4;
  const SearchResult r = search_configurations(s, o);
  ASSERT_GT(r.gpus, 4);  // one node is not enough for 200,000 tokens/s
  ASSERT_FALSE(r.top.empty());
  EXPECT_TRUE(r.top.front().met.all());
  EXPECT_EQ(r.top.front().gpus, r.gpus);
  // Every smaller budget (whole nodes), every configuration: none meets every target.
  EvalOptions quick, full;
  quick.ttft = false;
  full.ttft_requests = 1000;
  for (int g = 4; g < r.gpus; g += 4)
    for (const Scenario& c : space(s, o, g)) {
      const TargetCheck t = check_targets(evaluate_scenario(c, quick));
      if (!(t.memory && t.concurrency && t.throughput && t.tpot)) continue;
      EXPECT_FALSE(check_targets(evaluate_scenario(c, full)).all()) << g << " GPUs meet every target";
    }
}

TEST(ConfigSearch, DeterministicAndCancellable) {
  const Scenario s = small(1, 5000);
  const SearchResult a = search_configurations(s, {}), b = search_configurations(s, {});
  ASSERT_EQ(a.frontier.size(), b.frontier.size());
  for (std::size_t i = 0; i < a.frontier.size(); ++i) EXPECT_EQ(a.frontier[i].tps_per_gpu, b.frontier[i].tps_per_gpu);
  int calls = 0;
  const SearchResult c = search_configurations(s, {}, [&](double f) {
    EXPECT_GE(f, 0.0);
    EXPECT_LE(f, 1.0);
    return ++calls < 3;
  });
  EXPECT_TRUE(c.cancelled);
  EXPECT_LT(c.evaluated, a.evaluated);
}

// The string API the page uses: the scenario's own point (evaluated as the search evaluates its
// candidates; the small space contains it, so it dominates no frontier point), a label per point,
// and progress with cancel.
TEST(ConfigSearch, ApiGivesTheScenariosOwnPointLabelsAndProgress) {
  const json doc{{"version", 2},
                 {"model", {{"preset", "Qwen/Qwen3-30B-A3B"}}},
                 {"hardware", {{"gpu", "h100-80g"}, {"nodes", 1}, {"gpus_per_node", 4}}},
                 {"deployment", {{"mode", "colocated"}, {"colocated", {{"gpus", 4}, {"attention_tp", 1}, {"ep", 4}}}}},
                 {"slo", {{"concurrent_sessions", 16}, {"throughput_tokens_per_s", 5000}, {"ttft_p50_ms", 2000}, {"tpot_ms", 50}}},
                 {"reference", {{"preset", "none"}}}};
  const json r = json::parse(api::search(doc.dump(), R"({"kv_fp8": false})"));
  ASSERT_TRUE(r.at("ok").get<bool>()) << r.dump();
  const json& cur = r.at("current");
  ASSERT_TRUE(cur.at("feasible").get<bool>());
  const SearchPoint direct = scenario_point(small(1, 5000), 1.0);
  EXPECT_NEAR(cur.at("tokens_per_s_per_gpu").get<double>(), direct.tps_per_gpu, 1e-9 * direct.tps_per_gpu);
  EXPECT_EQ(cur.at("label").get<std::string>(), "colocated pool 4 GPU: TP1 x DP4, EP4 · no MTP · KV bf16 · decode batch: engine limit");
  SearchPoint here;
  here.tps_per_gpu = cur.at("tokens_per_s_per_gpu").get<double>();
  here.tps_per_user = cur.at("tokens_per_s_per_user").get<double>();
  ASSERT_FALSE(r.at("frontier").empty());
  for (const auto& f : r.at("frontier")) {
    SearchPoint q;
    q.tps_per_gpu = f.at("tokens_per_s_per_gpu").get<double>();
    q.tps_per_user = f.at("tokens_per_s_per_user").get<double>();
    EXPECT_FALSE(dominates(here, q)) << f.at("label");
    EXPECT_NE(f.at("label").get<std::string>().find(" · KV "), std::string::npos);
  }
  int calls = 0;
  const json c = json::parse(api::search(doc.dump(), "{}", [&](double) { return ++calls < 2; }));
  EXPECT_TRUE(c.at("cancelled").get<bool>());
  EXPECT_EQ(calls, 2);
}

// A search's pool memo (pool_memo.hpp) hands every candidate the numbers a fresh evaluation gives:
// over the default scenario's space on 16 GPUs (MLA, MTP drafts, both modes; every 97th candidate, with 0-3
// drafts) and over the small one's (every 13th), one memo per space (a memo serves one base scenario), then the
// same candidates at another workload (the memo's curves and prefill passes must notice the new
// context and input lengths). Each memoized evaluation is, as in the search, one Evaluation
// re-evaluated in place (reevaluate) after the previous candidate's, every other one without the
// capacity search (the search's bound evaluations): nothing of the previous candidate may remain.
// Exact equality.
void expect_same_capacity(const Evaluation& a, const Evaluation& b) {
  ASSERT_EQ(a.pools.size(), b.pools.size());
  for (std::size_t i = 0; i < a.pools.size(); ++i) {
    EXPECT_EQ(a.pools[i].plan.kv_pool, b.pools[i].plan.kv_pool);
    EXPECT_EQ(a.pools[i].plan.shortfall, b.pools[i].plan.shortfall);
  }
  EXPECT_EQ(a.prefill_tokens_s, b.prefill_tokens_s);
  EXPECT_EQ(a.prefill_step.total, b.prefill_step.total);
  EXPECT_EQ(a.lambda_max, b.lambda_max);
  EXPECT_EQ(a.lambda_limit, b.lambda_limit);
  EXPECT_EQ(a.op_max.in_flight, b.op_max.in_flight);
  EXPECT_EQ(a.op_max.tpot_s, b.op_max.tpot_s);
  EXPECT_EQ(a.tpot_feasible, b.tpot_feasible);
  EXPECT_EQ(a.sessions_target_ctx, b.sessions_target_ctx);
  EXPECT_EQ(a.decode_tpot(7, 0.1), b.decode_tpot(7, 0.1));
  EXPECT_EQ(a.load.output_tps, b.load.output_tps);
}

TEST(ConfigSearch, APoolMemoGivesEveryCandidateTheNumbersAFreshEvaluationGives) {
  const Scenario def = parse_scenario(default_scenario_json()).scenario;
  std::vector<Scenario> big;
  const std::vector<Scenario> all = space(def, SearchOptions{}, 16);
  for (std::size_t i = 0; i < all.size(); i += 97) big.push_back(all[i]), big.back().deployment.mtp.draft_tokens = static_cast<int>(i % 4);
  std::vector<Scenario> little;
  const std::vector<Scenario> all_small = space(small(2, 5000), SearchOptions{}, 8);
  for (std::size_t i = 0; i < all_small.size(); i += 13) little.push_back(all_small[i]);
  ASSERT_GT(big.size(), 500u);
  ASSERT_GT(little.size(), 500u);
  for (std::vector<Scenario> cands : {big, little}) {
    PoolMemo memo;
    EvalOptions fresh, memoized;
    fresh.ttft = memoized.ttft = false;
    memoized.memo = &memo;
    Evaluation work;
    for (int round = 0; round < 2; ++round) {
      for (std::size_t i = 0; i < cands.size(); ++i) {
        Scenario& c = cands[i];
        if (round == 1) c.workload.input_tokens += 1000, c.workload.input_tokens_max += 1000, c.workload.output_tokens += 100;
        fresh.capacity = memoized.capacity = i % 2 == 0;
        work.s = c;
        reevaluate(work, memoized);
        expect_same_capacity(work, evaluate_scenario(c, fresh));
        if (HasFailure()) return;
      }
    }
  }
}
}  // namespace
}  // namespace slo
