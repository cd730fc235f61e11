// GPU presets added for deployments the measurements do not cover (2026-12-06): their datasheet
// figures, and the interconnect each implies. A800 = the A100 with NVLink cut to 400 GB/s
// bidirectional; H100 PCIe and H100 NVL talk to peers over PCIe beyond a bridged pair; L4 is a
// 24 GB, 300 GB/s Ada card. Sources: the NVIDIA datasheets quoted in core/data/gpus.json.
#include <gtest/gtest.h>

#include "slo/evaluation.hpp"
#include "slo/hardware.hpp"
#include "test_scenario.hpp"

namespace slo {
namespace {

using nlohmann::json;

const Gpu& preset(const std::string& id) {
  const Gpu* g = find_gpu(id);
  if (!g) throw std::runtime_error("no GPU preset " + id);
  return *g;
}

TEST(GpuPresets, DatasheetFiguresOfTheAddedPresets) {
  EXPECT_DOUBLE_EQ(preset("a800-80g").peak(DType::BF16), preset("a100-80g").peak(DType::BF16));
  EXPECT_DOUBLE_EQ(preset("a800-80g").hbm_bytes_s, 2.039e12);
  EXPECT_DOUBLE_EQ(preset("a800-80g").nvlink_bytes_s, 200e9);  // 400 GB/s bidirectional (A100: 600)
  EXPECT_DOUBLE_EQ(preset("h100-pcie-80g").spec_peak(DType::BF16), 756e12);
  EXPECT_DOUBLE_EQ(preset("h100-pcie-80g").spec_peak(DType::FP8), 1513e12);
  EXPECT_DOUBLE_EQ(preset("h100-pcie-80g").hbm_bytes_s, 2.0e12);
  EXPECT_DOUBLE_EQ(preset("h100-nvl-94g").spec_peak(DType::BF16), 835e12);
  EXPECT_DOUBLE_EQ(preset("h100-nvl-94g").hbm_bytes_s, 3.9e12);
  EXPECT_DOUBLE_EQ(preset("h100-nvl-94g").usable_memory_bytes(), 95330.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(preset("l4").spec_peak(DType::BF16), 121e12);
  EXPECT_DOUBLE_EQ(preset("l4").usable_memory_bytes(), 23034.0 * 1024 * 1024);
  for (const char* id : {"h100-pcie-80g", "h100-nvl-94g", "l4"}) EXPECT_TRUE(preset(id).pcie_peers) << id;
  EXPECT_FALSE(preset("a800-80g").pcie_peers);
}

json llama70b_tp(const std::string& gpu, int tp) {
  return json{{"model", {{"preset", "meta-llama/Llama-3.1-70B-Instruct"}}},
              {"precision", {{"weights", "bf16"}, {"activations", "bf16"}, {"kv_cache", "bf16"}}},
              {"hardware", {{"gpu", gpu}, {"nodes", 1}}},
              {"deployment", {{"colocated", {{"gpus", tp}, {"attention_tp", tp}, {"ep", 1}, {"redundant_experts", 0}}}}},
              {"reference", {{"preset", "none"}}}};
}

// A board whose power is a smaller share of its family's reference GPU's than its tensor spec
// sustains only that share of the reference's spec (Gpu::peak): H100 PCIe (350 W) and NVL (400 W)
// against H100 SXM (989 TFLOPS at 700 W), L4 (72 W) against L40S (362 at 350 W). Parts whose spec is
// the smaller share (H20, L20) and families without a reference GPU (Blackwell, CDNA) keep their spec.
// Source: MLPerf Inference v5.0 Offline llama2-70b, per GPU 0.55 (NVL) and 0.53 (PCIe) of an SXM H100.
TEST(GpuPresets, PowerLimitedBoardsSustainTheirPowerShareOfTheReference) {
  EXPECT_DOUBLE_EQ(preset("h100-pcie-80g").peak(DType::BF16), 989e12 * 350.0 / 700.0);
  EXPECT_DOUBLE_EQ(preset("h100-pcie-80g").peak(DType::FP8), 1513e12 * (989.0 * 350.0 / 700.0) / 756.0);
  EXPECT_DOUBLE_EQ(preset("h100-nvl-94g").peak(DType::BF16), 989e12 * 400.0 / 700.0);
  EXPECT_NEAR(preset("l4").peak(DType::BF16), 362.05e12 * 72.0 / 350.0, 1e3);
  for (const char* id : {"h100-80g", "h200-141g", "h800-80g", "h20-96g", "l20", "l40s", "a100-80g", "b200-180g", "gb200", "mi300x", "mi325x"})
    EXPECT_DOUBLE_EQ(preset(id).peak(DType::BF16), preset(id).spec_peak(DType::BF16)) << id;
  // A compute-bound prefill pass (Llama 70B BF16, 8,192 tokens per TP4 group) takes the power share's
  // inverse longer in GEMM compute on the PCIe board than its spec alone would say.
  const auto pass = [](const std::string& gpu) {
    const Evaluation ev = evaluate_scenario(test::scenario(llama70b_tp(gpu, 4)), EvalOptions{1.0, false, 0});
    return ev.prefill_step.gemm;
  };
  EXPECT_NEAR(pass("h100-pcie-80g") / pass("h100-80g"), 2.0, 0.02);
}

// At batch 128 a Llama 70B TP8 step all-reduces 160 x 2 MB: bandwidth-bound, so the A800's two
// thirds of the A100's NVLink make it about 1.5x as long; everything else (same die, same HBM) is equal.
// An H100 PCIe's TP4 all-reduce runs NCCL's ring over PCIe and takes far longer than the SXM part's;
// its weights stream at its HBM2e's rate.
TEST(GpuPresets, CutNvlinkAndPcieOnlyPeersLengthenTheAllReduceOnly) {
  const EvalOptions quick{1.0, false, 0};
  auto step = [&](const std::string& gpu, int tp, double batch = 128) {
    const Evaluation ev = evaluate_scenario(test::scenario(llama70b_tp(gpu, tp)), quick);
    return decode_step(ev.pools.front().pool, batch, 2048);
  };
  const StepParts a100 = step("a100-80g", 8), a800 = step("a800-80g", 8);
  EXPECT_DOUBLE_EQ(a800.weights, a100.weights);
  EXPECT_DOUBLE_EQ(a800.gemm, a100.gemm);
  EXPECT_GT(a800.tp_allreduce, 1.3 * a100.tp_allreduce);
  EXPECT_LT(a800.tp_allreduce, 1.6 * a100.tp_allreduce);
  const StepParts sxm = step("h100-80g", 4), pcie = step("h100-pcie-80g", 4);
  EXPECT_GT(pcie.tp_allreduce, 3.0 * sxm.tp_allreduce);
  // At batch 1 the step streams the weights: HBM2e 2.0 vs HBM3 3.35 TB/s.
  EXPECT_NEAR(step("h100-pcie-80g", 4, 1).weights / step("h100-80g", 4, 1).weights, 3.35 / 2.0, 0.02);
}

}  // namespace
}  // namespace slo
