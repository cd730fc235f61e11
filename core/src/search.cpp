#include "slo/search.hpp"

#include "slo/report.hpp"

#include <algorithm>
#include <cmath>

#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

TargetCheck check_targets(const Evaluation& ev) {
  TargetCheck c;
  const Scenario& s = ev.s;
  c.memory = true;
  for (const auto& pe : ev.pools) c.memory = c.memory && pe.plan.fits();
  if (s.slo.concurrent_sessions > 0) c.concurrency = ev.sessions_target_ctx >= s.slo.concurrent_sessions;
  if (s.slo.throughput_tokens_per_s > 0) c.throughput = ev.capacity_in_target_kind() >= s.slo.throughput_tokens_per_s * (1 - 1e-9);
  if (s.slo.tpot_ms > 0) c.tpot = ev.load_sustainable && ev.op_load.tpot_s * 1e3 <= s.slo.tpot_ms * (1 + 1e-9);
  if (s.slo.ttft_p50_ms > 0) c.ttft_p50 = ev.ttft.stable && ev.ttft.simulated > 0 && ev.ttft.p50 * 1e3 <= s.slo.ttft_p50_ms;
  if (s.slo.ttft_p99_ms > 0) c.ttft_p99 = ev.ttft.stable && ev.ttft.simulated > 0 && ev.ttft.p99 * 1e3 <= s.slo.ttft_p99_ms;
  c.has_concurrency = s.slo.concurrent_sessions > 0;
  c.has_throughput = s.slo.throughput_tokens_per_s > 0;
  c.has_tpot = s.slo.tpot_ms > 0;
  c.has_ttft_p50 = s.slo.ttft_p50_ms > 0;
  c.has_ttft_p99 = s.slo.ttft_p99_ms > 0;
  if (!c.memory) c.concurrency = c.throughput = c.tpot = c.ttft_p50 = c.ttft_p99 = false;
  return c;
}

PoolConfig default_layout(const ModelArch& m, int gpus, int gpn) {
  PoolConfig p;
  p.gpus = gpus;
  p.pp = 1;
  if (m.is_moe()) {
    // DP attention + EP over the whole pool; redundant experts fill EP ranks evenly (EPLB).
    p.attention_tp = m.attention == AttentionType::MLA ? 1 : std::min(gpus, std::min(gpn, m.kv_heads));
    while (p.attention_tp > 1 && (m.heads % p.attention_tp != 0 || gpus % p.attention_tp != 0)) --p.attention_tp;
    p.ep = gpus;
    // The expert TP degree (gpus / ep) must divide the expert width; ep = gpus makes it 1.
    const int rem = m.routed_experts % p.ep;
    p.redundant_experts = rem == 0 ? 0 : p.ep - rem;
    if (p.ep > m.routed_experts + p.redundant_experts) p.redundant_experts = p.ep - m.routed_experts;
  } else {
    // Dense: tensor parallel inside a node (dividing the heads), data-parallel replicas beyond.
    int t = std::min(gpus, gpn);
    while (t > 1 && (m.heads % t != 0 || gpus % t != 0)) --t;
    p.attention_tp = t;
    p.ep = 1;
  }
  return p;
}


Candidate smallest_cluster(const Scenario& s, double time_scale) {
  Candidate best;
  const int gpn = s.gpus_per_node;
  const int max_nodes = std::min(64, std::max(16, 4 * s.nodes));
  EvalOptions quick;
  quick.time_scale = time_scale;
  quick.ttft = false;
  EvalOptions full = quick;
  full.ttft = true;
  full.ttft_requests = 1000;
  for (int n = 1; n <= max_nodes && !best.found; ++n) {
    std::vector<Deployment> options;
    Deployment d = s.deployment;
    d.disaggregated = false;
    d.colocated = default_layout(s.model, n * gpn, gpn);
    options.push_back(d);
    std::vector<int> splits;
    if (n <= 16)
      for (int p = 1; p < n; ++p) splits.push_back(p);
    else
      for (double f : {0.125, 0.25, 1.0 / 3.0, 0.5}) splits.push_back(std::max(1, static_cast<int>(std::round(n * f))));
    for (int p : splits) {
      Deployment dd = s.deployment;
      dd.disaggregated = true;
      dd.prefill = default_layout(s.model, p * gpn, gpn);
      dd.decode = default_layout(s.model, (n - p) * gpn, gpn);
      options.push_back(dd);
    }
    for (const auto& opt : options) {
      Scenario c = s;
      c.nodes = n;
      c.deployment = opt;
      ++best.evaluated;
      Evaluation ev = evaluate_scenario(c, quick);
      TargetCheck t = check_targets(ev);
      // TTFT needs the simulation: only for candidates that meet everything else.
      if (!(t.memory && t.concurrency && t.throughput && t.tpot)) continue;
      ev = evaluate_scenario(c, full);
      if (!check_targets(ev).all()) continue;
      best.found = true;
      best.nodes = n;
      best.deployment = opt;
      best.eval = ev;
      break;
    }
  }
  return best;
}

namespace {

// The memory plans only: no TTFT simulation, no capacity search.
Evaluation plans_only(const Scenario& s) {
  EvalOptions quick;
  quick.ttft = false;
  quick.capacity = false;
  return evaluate_scenario(s, quick);
}

// Every pool's memory plan fits (the memory target of check_targets).
bool pools_fit(const Scenario& s) { return check_targets(plans_only(s)).memory; }

}  // namespace

// A dense model's colocated pool whose weights do not fit: the smallest tensor-parallel degree
// inside a node (dividing the heads and the pipeline stage) that makes them fit. True, with `s`
// changed to it, when there is one; `s` is left as given otherwise.
bool tp_that_fits(Scenario& s) {
  if (s.deployment.disaggregated || s.model.is_moe() || pools_fit(s)) return false;
  PoolConfig& p = s.deployment.colocated;
  const int stage = p.instance_gpus() / p.pp, from = p.attention_tp;
  for (int t = from * 2; t <= std::min(stage, s.gpus_per_node); t *= 2) {
    if (stage % t != 0 || s.model.heads % t != 0) continue;
    p.attention_tp = t;
    if (pools_fit(s)) return true;
  }
  p.attention_tp = from;
  return false;
}

bool offload_that_fits(Scenario& s) {
  Deployment& d = s.deployment;
  std::vector<PoolConfig*> pools;
  if (d.disaggregated) pools = {&d.prefill, &d.decode};
  else pools = {&d.colocated};
  for (const PoolConfig* p : pools)
    if (p->cpu_offload_gb > 0) return false;
  if (pools_fit(s)) return false;
  const Scenario given = s;
  d.offload_prefetch = true;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    auto fits = [&](double gb) {
      pools[i]->cpu_offload_gb = gb;
      return plans_only(s).pools[i].plan.fits();
    };
    const MemoryPlan none = plans_only(s).pools[i].plan;
    if (none.fits()) continue;
    // Offload frees the pool's memory one GB at a time; bisect the least whole number that fits.
    double hi = std::ceil(none.weights.total() / 1e9), lo = 0;
    if (!fits(hi)) {
      s = given;
      return false;
    }
    while (hi - lo > 1) {
      const double mid = std::floor((lo + hi) / 2);
      (fits(mid) ? hi : lo) = mid;
    }
    pools[i]->cpu_offload_gb = hi;
  }
  if (pools_fit(s)) return true;
  s = given;
  return false;
}

std::vector<Variant> sensitivity_variants(const Scenario& s) {
  std::vector<Variant> v;
  auto add = [&](const char* id, std::string en, std::string zh, Scenario sc) { v.push_back(Variant{id, std::move(en), std::move(zh), std::move(sc)}); };
  add("as-is", "As specified", "当前配置", s);
  if (Scenario c = s; tp_that_fits(c)) {
    const std::string t = std::to_string(c.deployment.colocated.attention_tp);
    add("tp-fits", "Tensor parallel " + t + " (the smallest whose weights fit)", "张量并行 " + t + "（权重放得下的最小值）", c);
  }
  if (Scenario c = s; offload_that_fits(c)) {
    const Deployment& d = c.deployment;
    auto gb = [](const PoolConfig& p) { return format_fixed(p.cpu_offload_gb, 0, true) + " GB"; };
    std::string en = "Weights offloaded to host memory, prefetched: ", zh = "权重卸载到主机内存（预取）：";
    if (d.disaggregated) {
      en += "prefill " + gb(d.prefill) + ", decode " + gb(d.decode) + " per GPU (the least that fits)";
      zh += "prefill 每卡 " + gb(d.prefill) + "、decode 每卡 " + gb(d.decode) + "（放得下的最小值）";
    } else {
      en += gb(d.colocated) + " per GPU (the least that fits)";
      zh += "每卡 " + gb(d.colocated) + "（放得下的最小值）";
    }
    add("offload-fits", en, zh, c);
  }
  {
    Scenario c = s;
    c.precision.kv_cache = DType::FP8;
    if (s.precision.kv_cache != DType::FP8 && s.precision.kv_cache != DType::INT8) add("kv-fp8", "FP8 KV cache", "FP8 KV 缓存", c);
  }
  if (s.gpu.int8_ops > 0 && s.precision.weights != DType::INT4) {
    Scenario c = s;
    c.precision.weights = DType::INT4;
    c.precision.activations = DType::INT8;
    c.precision.kv_cache = DType::INT8;
    add("w4a8c8", "w4a8c8 (INT4 weights, INT8 activations and KV)", "w4a8c8（INT4 权重、INT8 激活与 KV）", c);
  }
  if (s.deployment.mtp.draft_tokens == 0) {
    Scenario c = s;
    c.deployment.mtp.draft_tokens = 1;
    c.deployment.mtp.acceptance = 0.7;
    add("mtp", "MTP, 1 draft token at acceptance 0.7", "MTP，1 个草稿 token，接受率 0.7", c);
  }
  {
    Scenario c = s;
    c.workload.context_length = std::max(1024.0, std::floor(s.workload.context_length / 2));
    const std::string ctx = format_fixed(c.workload.context_length, 0, true);  // "16,384" as every count in the report
    add("ctx-half", "Half the context length (" + ctx + ")", "上下文减半（" + ctx + "）", c);
  }
  {
    Scenario c = s;
    const int total = s.deployment.disaggregated ? s.deployment.prefill.gpus + s.deployment.decode.gpus : s.deployment.colocated.gpus;
    const int gpn = s.gpus_per_node;
    if (!s.deployment.disaggregated && total >= 2 * gpn) {
      // The P:D split of the same GPUs with the highest capacity.
      c.deployment.disaggregated = true;
      int best_p = 0;
      double best_cap = -1;
      EvalOptions quick;
      quick.ttft = false;
      for (int p = 1; p < total / gpn; ++p) {
        Scenario t = c;
        t.deployment.prefill = default_layout(s.model, p * gpn, gpn);
        t.deployment.decode = default_layout(s.model, total - p * gpn, gpn);
        const double cap = evaluate_scenario(t, quick).capacity_in_target_kind();
        if (cap > best_cap) {
          best_cap = cap;
          best_p = p;
        }
      }
      const int p_nodes = best_p;
      c.deployment.prefill = default_layout(s.model, p_nodes * gpn, gpn);
      c.deployment.decode = default_layout(s.model, total - p_nodes * gpn, gpn);
      add("pd", "Prefill/decode disaggregation " + std::to_string(p_nodes) + "P:" + std::to_string(total / gpn - p_nodes) + "D nodes (best split)",
          "PD 分离 " + std::to_string(p_nodes) + "P:" + std::to_string(total / gpn - p_nodes) + "D 节点（最佳配比）", c);
    } else if (s.deployment.disaggregated) {
      c.deployment.disaggregated = false;
      c.deployment.colocated = default_layout(s.model, total, gpn);
      add("colocated", "One colocated pool of " + std::to_string(total) + " GPUs", "单一混合池 " + std::to_string(total) + " 卡", c);
    }
  }
  return v;
}

}  // namespace slo

SLO_SIZE_END
