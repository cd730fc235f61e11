// Pools of N identical instances (`replicas`): each instance has its own TP / DP attention / EP /
// PP, instances share no EP traffic and do not stall each other, requests are balanced.
#include <gtest/gtest.h>

#include "slo/evaluation.hpp"
#include "test_scenario.hpp"

namespace slo {
namespace {

using nlohmann::json;

json colocated(int nodes, json pool, double qpm) {
  return json{{"model", {{"preset", "Qwen/Qwen3-235B-A22B"}}},
              {"hardware", {{"nodes", nodes}}},
              {"deployment", {{"mode", "colocated"}, {"colocated", pool}}},
              {"workload", {{"arrival_qpm", qpm}}},
              {"reference", {{"preset", "none"}}}};
}

// 3 x (8 GPU, DP8, EP8) at three times the load is exactly three copies of one 8-GPU instance:
// capacity and sessions triple; TPOT, TTFT and the memory plan per GPU are the same.
TEST(Replicas, ThreeInstancesAreThreeCopiesOfOne) {
  const json one = {{"gpus", 8}, {"attention_tp", 1}, {"ep", 8}, {"redundant_experts", 16}};
  json three = one;
  three["gpus"] = 24;
  three["replicas"] = 3;
  const Evaluation e1 = evaluate_scenario(test::scenario(colocated(1, one, 40)));
  const Evaluation e3 = evaluate_scenario(test::scenario(colocated(3, three, 120)));
  ASSERT_GT(e1.lambda_max, 0);
  EXPECT_NEAR(e3.lambda_max / e1.lambda_max, 3.0, 1e-9);
  EXPECT_NEAR(e3.sessions_target_ctx / e1.sessions_target_ctx, 3.0, 1e-9);
  EXPECT_EQ(e3.decode_pool().plan.dp, 24);
  EXPECT_EQ(e3.decode_pool().plan.kv_pool, e1.decode_pool().plan.kv_pool);
  EXPECT_NEAR(e3.op_load.tpot_s, e1.op_load.tpot_s, 1e-12);
  ASSERT_TRUE(e1.ttft.stable && e3.ttft.stable);
  EXPECT_NEAR(e3.ttft.p50, e1.ttft.p50, 1e-12);
  EXPECT_NEAR(e3.ttft.p90, e1.ttft.p90, 1e-12);
}

// Instances do not share EP traffic: 3 x EP8 on 8-GPU nodes keeps dispatch/combine on NVLink,
// one EP24 sends it over RDMA; at the same sequences per GPU the replicated step is shorter.
TEST(Replicas, InstancesShareNoExpertTraffic) {
  const json ep24 = {{"gpus", 24}, {"attention_tp", 1}, {"ep", 24}, {"redundant_experts", 16}};
  const json rep = {{"gpus", 24}, {"attention_tp", 1}, {"ep", 8}, {"redundant_experts", 16}, {"replicas", 3}};
  const Evaluation a = evaluate_scenario(test::scenario(colocated(3, ep24, 100)));
  const Evaluation b = evaluate_scenario(test::scenario(colocated(3, rep, 100)));
  const DecodePoint da = decode_at(a.decode_pool(), 64, a.running_context, 0, 1.0);
  const DecodePoint db = decode_at(b.decode_pool(), 64, b.running_context, 0, 1.0);
  EXPECT_GT(da.step.ep_rdma, 0);
  EXPECT_EQ(db.step.ep_rdma, 0);
  EXPECT_GT(db.step.ep_nvlink, 0);
  EXPECT_LT(db.step.total, da.step.total);
  // The same DP groups in total: the same output per step when the step time is equal.
  EXPECT_EQ(a.decode_pool().plan.dp, b.decode_pool().plan.dp);
}

TEST(Replicas, DefaultIsOneInstance) {
  const Scenario s = test::scenario(json::object());
  EXPECT_EQ(s.deployment.colocated.replicas, 1);
  EXPECT_EQ(s.deployment.decode.replicas, 1);
  EXPECT_EQ(s.deployment.colocated.instance_gpus(), s.deployment.colocated.gpus);
}

TEST(Replicas, ValidationNamesFieldValueAndRange) {
  json doc = colocated(3, {{"gpus", 24}, {"ep", 8}, {"replicas", 5}}, 100);
  doc["version"] = 1;
  for (Lang lang : {Lang::En, Lang::Zh}) {
    const ParseResult p = parse_scenario(doc, lang);
    ASSERT_FALSE(p.ok);
    const FieldError* e = nullptr;
    for (const auto& x : p.errors)
      if (x.path == "deployment.colocated.replicas") e = &x;
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->value, "5");
    EXPECT_NE(e->message.find("24"), std::string::npos) << e->message;
    EXPECT_NE(e->message.find(lang == Lang::En ? "a divisor of 24" : "24 的约数"), std::string::npos) << e->message;
  }
  // EP must divide an instance's GPUs, not the pool's: 2 x 8 GPUs with EP16 is impossible.
  json bad = colocated(2, {{"gpus", 16}, {"ep", 16}, {"replicas", 2}}, 100);
  bad["version"] = 1;
  const ParseResult p = parse_scenario(bad, Lang::En);
  ASSERT_FALSE(p.ok);
  bool ep_error = false;
  for (const auto& x : p.errors) ep_error = ep_error || x.path == "deployment.colocated.ep";
  EXPECT_TRUE(ep_error);
  // Out of range.
  json zero = colocated(1, {{"gpus", 8}, {"ep", 8}, {"replicas", 0}}, 100);
  zero["version"] = 1;
  EXPECT_FALSE(parse_scenario(zero, Lang::En).ok);
}

}  // namespace
}  // namespace slo
