#include "slo/hardware.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "slo/data.hpp"
#include "slo/errors.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

using nlohmann::json;

// A board below its family's reference power runs its tensor cores at the clock its power limit
// allows: at one architecture's energy per FLOP, sustained FLOP/s scale with the power.
// Source: MLPerf Inference v5.0 Offline llama2-70b, 2 x H100 NVL (400 W) and 4 x H100 PCIe (350 W)
// deliver 0.55 and 0.53 of an H100 SXM's (700 W) tokens/s per GPU (docs/PHYSICS.md, power limit).
double Gpu::peak(DType t) const { return spec_peak(t) * power_scale; }

double Gpu::spec_peak(DType t) const {
  switch (t) {
    case DType::BF16:
    case DType::FP16: return bf16_flops;
    case DType::FP8: return fp8_flops;
    case DType::INT8: return int8_ops;
    case DType::INT4: return int8_ops;  // no INT4 tensor-core path is modelled: runs as INT8
    case DType::NVFP4:
    case DType::MXFP4:
    case DType::FP4: return fp4_flops;
  }
  return bf16_flops;
}

// An attention kernel's time per tile is its MMAs plus the work the rest of the SM does around them
// (softmax, rescaling, loads), which runs at the SM's own rate: t = F/peak x (1 + r), r = 1/e - 1 at
// the family's reference GPU. A GPU whose tensor cores are slower against its CUDA cores (H20: 148
// BF16 / 44 FP32 TFLOPS against H100's 989 / 66.9) keeps them busier: r scales with that ratio.
// Source: FlashMLA on H20 115-127 of 148 TFLOPS (deepseek-ai/FlashMLA#30) against 580 of 989 on
// H800; FlashAttention-3 on H20 108-126 of 148 (Dao-AILab/flash-attention#1310).
double Gpu::tensor_efficiency(double e) const {
  if (eff.tensor_fp32_ratio <= 0 || fp32_flops <= 0 || bf16_flops <= 0 || e <= 0) return e;
  const double rho = bf16_flops / fp32_flops / eff.tensor_fp32_ratio;
  if (std::fabs(rho - 1.0) < 1e-9) return e;  // the reference balance: the family's share as it is
  return 1.0 / (1.0 + (1.0 / e - 1.0) * rho);
}

static Efficiency read_eff(const json& j, Efficiency e) {
  e.gemm = j.value("gemm", e.gemm);
  e.attention = j.value("attention", e.attention);
  e.attention_hbm = j.value("attention_hbm", e.attention_hbm);
  e.hbm = j.value("hbm", e.hbm);
  e.nvlink = j.value("nvlink", e.nvlink);
  // Unstated (a family that extrapolates): the share of the family it extrapolates from.
  e.allreduce_bw = j.value("allreduce_bw", e.allreduce_bw);
  e.rdma = j.value("rdma", e.rdma);
  e.comm_latency_us = j.value("comm_latency_us", e.comm_latency_us);
  e.comm_latency_growth = j.value("comm_latency_growth", e.comm_latency_growth);
  e.allreduce_latency_us = j.value("allreduce_latency_us", e.allreduce_latency_us);
  e.net_allreduce_latency_us = j.value("net_allreduce_latency_us", e.net_allreduce_latency_us);
  e.launch_scale = j.value("launch_scale", e.launch_scale);
  e.tbo_overlap = j.value("tbo_overlap", e.tbo_overlap);
  e.block_fp8_tflops_per_sm = j.value("block_fp8_tflops_per_sm", e.block_fp8_tflops_per_sm);
  e.weight_only_gemm = j.value("weight_only_gemm", e.weight_only_gemm);
  e.platform = j.value("platform", e.platform);
  return e;
}

const std::vector<Gpu>& gpu_presets() {
  static const std::vector<Gpu> gpus = [] {
    std::vector<Gpu> out;
    json doc = json::parse(data::file("gpus.json"));
    std::map<std::string, Efficiency> families;
    const json& fams = doc.at("efficiency_families");
    for (const auto& [name, f] : fams.items())
      if (!f.contains("extrapolate_from")) families[name] = read_eff(f, Efficiency{});
    // A family without any published measurement starts from a measured sibling's fitted factors
    // (same vendor's kernels and compilers); its predictions are flagged extrapolated (no band data).
    for (const auto& [name, f] : fams.items())
      if (f.contains("extrapolate_from")) {
        const std::string from = f.at("extrapolate_from");
        if (!families.count(from)) throw InternalError("gpus.json: family " + name + " extrapolates from unknown " + from);
        families[name] = read_eff(f, families[from]);
      }
    for (const auto& g : doc.at("gpus")) {
      Gpu x;
      x.id = g.at("id");
      x.name = g.at("name");
      x.silicon = g.value("silicon", x.id);
      // Spec sheets give memory in GB (1e9 B) or, where the vendor does, GiB.
      // What the driver reports (nvidia-smi / rocm-smi MiB) where known: the engine sees that, not the
      // marketed figure (H20 "96 GB" = 97,871 MiB). Source: nvidia-smi output quoted in gpus.json.
      x.memory_bytes = g.contains("memory_gib") ? g.at("memory_gib").get<double>() * 1073741824.0
                                                : g.at("memory_gb").get<double>() * 1e9;
      x.driver_memory_bytes = g.value("memory_mib", 0.0) * 1048576.0;
      x.pcie_bytes_s = g.value("pcie_gb_s", 32.0) * 1e9;
      // Host memory reaches a GPU over its PCIe link, or on a Grace superchip over NVLink-C2C
      // (host_link_gb_s: this GPU's share of the CPU's memory bandwidth). Source: gpus.json notes.
      x.host_bytes_s = g.value("host_link_gb_s", g.value("pcie_gb_s", 32.0)) * 1e9;
      x.pcie_peers = g.value("peer_link", std::string("nvlink")) == "pcie";
      x.gddr = g.value("memory_kind", std::string("HBM")) == "GDDR6";
      x.hbm_bytes_s = g.at("hbm_tb_s").get<double>() * 1e12;
      x.bf16_flops = g.at("bf16_tflops").get<double>() * 1e12;
      x.fp8_flops = g.value("fp8_tflops", 0.0) * 1e12;
      x.int8_ops = g.value("int8_tops", 0.0) * 1e12;
      x.board_power_w = g.value("board_power_w", 0.0);
      x.fp4_flops = g.value("fp4_tflops", 0.0) * 1e12;
      x.fp32_flops = g.value("fp32_tflops", 0.0) * 1e12;
      x.nvlink_bytes_s = g.value("nvlink_gb_s", 0.0) * 1e9;
      x.nic_bytes_s = g.value("nic_gb_s", 0.0) * 1e9;
      x.nvlink_domain = g.value("nvlink_domain", 8);
      x.sms = g.value("sms", 132);
      std::string fam = g.value("efficiency_family", "default");
      if (!families.count(fam)) throw InternalError("gpus.json: unknown efficiency family " + fam);
      x.family = fam;
      x.eff = families[fam];
      const json& fj = doc.at("efficiency_families").at(fam);
      if (fj.contains("fitted_on")) {
        const json& f = fj.at("fitted_on");
        x.calibrated_figures = f.is_array() ? static_cast<int>(f.size()) : f.get<int>();
      }
      out.push_back(std::move(x));
    }
    // A family's attention share holds at its reference GPU's tensor/FP32 ratio (Gpu::tensor_efficiency);
    // a family without one applies it to every GPU as it is.
    for (const auto& [name, f] : fams.items()) {
      if (!f.contains("tensor_reference_gpu")) continue;
      const std::string ref = f.at("tensor_reference_gpu");
      const Gpu* r = nullptr;
      for (const auto& x : out)
        if (x.id == ref) r = &x;
      if (!r || r->fp32_flops <= 0) throw InternalError("gpus.json: family " + name + ": reference GPU " + ref + " unknown or without fp32_tflops");
      const double ratio = r->bf16_flops / r->fp32_flops;
      // The reference GPU's power and spec also set the family's energy per FLOP (Gpu::peak).
      const double ref_power = r->board_power_w, ref_flops = r->bf16_flops;
      for (auto& x : out) {
        if (x.family != name) continue;
        x.eff.tensor_fp32_ratio = ratio;
        if (ref_power > 0 && x.board_power_w > 0 && x.bf16_flops > 0)
          x.power_scale = std::min(1.0, x.board_power_w / ref_power * ref_flops / x.bf16_flops);
      }
    }
    return out;
  }();
  return gpus;
}

const Gpu* find_gpu(const std::string& id) {
  for (const auto& g : gpu_presets())
    if (g.id == id) return &g;
  return nullptr;
}

}  // namespace slo

SLO_SIZE_END
