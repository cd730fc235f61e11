#include <gtest/gtest.h>

#include "slo/scenario.hpp"

using nlohmann::json;
using namespace slo;

TEST(Scenario, DefaultParses) {
  ParseResult p = parse_scenario(default_scenario_json());
  ASSERT_TRUE(p.ok) << (p.errors.empty() ? "" : p.errors[0].message);
  EXPECT_EQ(p.scenario.cluster_gpus(), 32);
  EXPECT_EQ(p.scenario.model.layers, 61);
}
