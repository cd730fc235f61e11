// Report stage: labels and value formatting shared by the corrected report's section builders.
#include "report_common.hpp"

#include <algorithm>

#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo::rpt {

std::string B::none() const {
  return t("no value: the inputs put this figure out of computable range (a division by zero or an overflow)",
           "无数值：输入使该指标超出可计算范围（除以零或溢出）");
}

std::string signed_num(double x, int digits) {
  std::string s = format_fixed(std::fabs(x), digits, true);
  // A value that rounds to zero has no sign ("margin 0 tokens/s", never "-0"; issue 12, defect 11).
  if (s.find_first_not_of("0.,") == std::string::npos) return s;
  return (x >= 0 ? "+" : "-") + s;
}
// Margin of `value` against `target` ("+376 sessions (+188.0%)"); `higher_is_better`.
Value margin(double value, double target, int digits, const std::string& unit, bool higher_is_better) {
  if (!std::isfinite(value) || !std::isfinite(target) || target == 0) return Value::str("");
  const double d = higher_is_better ? value - target : target - value;
  const double pct = d / target * 100.0;
  Value v;
  v.number = d;
  v.unit = unit;
  const std::string shown = signed_num(d, digits);
  const bool one = shown == "+1" || shown == "-1";  // "+1 session", not "+1 sessions"
  v.text = shown + (unit.empty() ? "" : " " + (one && unit == "sessions" ? std::string("session") : unit)) + " (" + signed_num(pct, 1) + "%)";
  return v;
}

const char* dtype_label(DType t) { return dtype_name(t); }

std::string pool_desc(const B& b, const PoolConfig& p, bool moe) {
  // Replicas: "24 GPU = 3 instances x 8 GPU: TP1 x DP8, EP8"; one instance prints as before.
  std::string s = std::to_string(p.gpus) + " GPU";
  if (p.replicas > 1) s += std::string(" = ") + std::to_string(p.replicas) + b.t(" instances x ", " 个实例 x ") + std::to_string(p.instance_gpus()) + " GPU";
  s += ": TP" + std::to_string(p.attention_tp) + " x DP" + std::to_string(p.instance_dp());
  if (p.ep > 1) s += ", EP" + std::to_string(p.ep);
  if (moe && p.moe_tp() > 1) s += ", MoE TP" + std::to_string(p.moe_tp());  // dense models have no experts to split
  if (p.redundant_experts > 0) s += ", +" + std::to_string(p.redundant_experts) + b.t(" redundant experts", " 个冗余专家");
  if (p.pp > 1) s += ", PP" + std::to_string(p.pp);
  return s;
}

std::string role_label(const B& b, const std::string& role) {
  if (role == "prefill") return b.t("prefill pool", "Prefill 池");
  if (role == "decode") return b.t("decode pool", "Decode 池");
  return b.t("colocated pool", "混合部署池");
}

// A deployment's pools in one line ("prefill pool 16 GPU: TP1 x DP16, EP16 : decode pool ...").
std::string layout_desc(const B& b, const Deployment& d, bool moe) {
  if (d.disaggregated)
    return role_label(b, "prefill") + " " + pool_desc(b, d.prefill, moe) + " : " + role_label(b, "decode") + " " + pool_desc(b, d.decode, moe);
  return role_label(b, "colocated") + " " + pool_desc(b, d.colocated, moe);
}

}  // namespace slo::rpt

namespace slo {

std::string configuration_label(const Scenario& s, Lang lang) {
  const rpt::B b{lang};
  const Deployment& d = s.deployment;
  std::string l = rpt::layout_desc(b, d, s.model.is_moe());
  l += d.mtp.draft_tokens > 0 ? " · MTP " + std::to_string(d.mtp.draft_tokens) : std::string(b.t(" · no MTP", " · 无 MTP"));
  l += std::string(" · KV ") + dtype_name(s.precision.kv_cache);
  if (d.disaggregated) l += b.t(" · prefill chunk ", " · Prefill 分块 ") + std::to_string(d.chunked_prefill_tokens);
  l += d.max_decode_batch_per_gpu > 0 ? b.t(" · decode batch <= ", " · Decode 批 <= ") + std::to_string(d.max_decode_batch_per_gpu) + b.t("/GPU", "/GPU")
                                      : std::string(b.t(" · decode batch: engine limit", " · Decode 批：引擎上限"));
  return l;
}

}  // namespace slo

namespace slo::rpt {

std::string bottleneck_label(const B& b, const std::string& k) {
  if (k == "compute") return b.t("compute (tensor cores)", "算力（张量核心）");
  if (k == "hbm-weights") return b.t("HBM bandwidth (weight reads)", "显存带宽（读权重）");
  if (k == "hbm-kv") return b.t("HBM bandwidth (KV cache / activations)", "显存带宽（KV 缓存 / 激活）");
  if (k == "network") return b.t("network (EP / TP communication)", "网络（EP / TP 通信）");
  if (k == "overhead") return b.t("per-step overhead", "每步固定开销");
  if (k == "host-link") return b.t("host memory link (offloaded weights)", "主机内存链路（卸载的权重）");
  if (k.empty()) return b.t("none: no step runs at this point (the pool serves no batch)", "无：此工作点不运行任何一步（该池没有可服务的批）");
  return k;
}

std::string limit_label(const B& b, const std::string& k) {
  if (k == "prefill") return b.t("prefill capacity", "Prefill 处理能力");
  if (k == "decode-tpot") return b.t("decode batch limited by the TPOT target", "Decode 批大小受 TPOT 目标限制");
  if (k == "decode-kv") return b.t("decode batch limited by KV-cache memory", "Decode 批大小受 KV 缓存显存限制");
  if (k == "decode-cap") return b.t("decode batch limited by the cap on sequences per GPU", "Decode 批大小受每卡序列数上限限制");
  if (k == "kv-transfer") return b.t("KV transfer bandwidth between pools", "池间 KV 传输带宽");
  if (k == "infeasible") return b.t("the weights and reserves do not fit in GPU memory", "权重与预留显存放不下");
  return k;
}

Verdict verdict(const std::string& id, const std::string& label, bool ok, Value value, Value target, Value m,
                const std::string& detail, bool info) {
  Verdict v;
  v.id = id;
  v.label = label;
  v.status = info ? Status::Info : ok ? Status::Pass : Status::Fail;
  v.value = std::move(value);
  v.target = std::move(target);
  v.margin = std::move(m);
  v.detail = detail;
  return v;
}


const char* kind_label(const B& b, ThroughputKind k) {
  return k == ThroughputKind::Output ? b.t("output", "输出") : k == ThroughputKind::Input ? b.t("input", "输入") : b.t("input + output", "输入 + 输出");
}

void step_rows(const B& b, Table& t, const StepParts& s) {
  auto row = [&](const char* en, const char* zh, double v) {
    if (v > 0) t.rows.push_back({Value::str(b.t(en, zh)), b.ms(v, 2)});
  };
  row("weight reads (HBM)", "读权重（HBM）", s.weights);
  row("KV-cache reads (HBM)", "读 KV 缓存（HBM）", s.kv);
  row("GEMM compute", "GEMM 计算", s.gemm);
  row("attention core compute", "注意力核心计算", s.attention);
  row("elementwise / activations (HBM)", "逐元素 / 激活（HBM）", s.elementwise);
  if (s.tbo) row("compute side with two-batch overlap", "两批重叠后的计算侧", s.compute_total);
  row("EP dispatch + combine over NVLink", "EP dispatch + combine（NVLink）", s.ep_nvlink);
  row("EP dispatch + combine over RDMA", "EP dispatch + combine（RDMA）", s.ep_rdma);
  row("EP per-layer latency", "EP 每层延迟", s.ep_latency);
  row("TP all-reduce", "TP all-reduce", s.tp_allreduce);
  row("PP activation sends", "PP 激活传输", s.pp_send);
  row("communication not hidden", "未被掩盖的通信", s.exposed_comm);
  row("per-step overhead", "每步固定开销", s.overhead);
  row("MTP draft passes", "MTP 草稿前向", s.mtp_draft);
  row("offloaded weights over the host link", "卸载权重经主机链路传入", s.host_link);
  row("waiting for offloaded weights", "等待卸载权重", s.host_wait);
  t.rows.push_back({Value::str(b.t("step total", "单步合计")), b.ms(s.total, 2)});
}

// The report's title: the scenario's name, unless it is the default scenario's name carried over
// by a document that changed the model, GPU or cluster (then the name would describe another case).
std::string display_name(const Scenario& s, Lang lang) {
  const nlohmann::json& def = defaults_for_version(s.version);
  const std::string def_name = def.value("name", "");
  const auto& hw = def.at("hardware");
  const bool same_case = s.model_preset == def.at("model").value("preset", "") && s.gpu_id == hw.value("gpu", "") &&
                         s.nodes == hw.value("nodes", 0) && s.gpus_per_node == hw.value("gpus_per_node", 0);
  if (!s.name.empty() && s.name != def_name) return s.name;
  if (!s.name.empty() && same_case && lang == Lang::Zh) {
    // The default scenario is the "seed-default" preset: its Chinese name.
    const nlohmann::json& presets = scenario_presets();
    for (const auto& p : presets.at("presets"))
      if (p.value("id", "") == "seed-default") return p.at("name").value("zh", s.name);
  }
  if (!s.name.empty() && same_case) return s.name;
  return lang == Lang::Zh ? s.model.name + " · " + std::to_string(s.cluster_gpus()) + " 卡 " + s.gpu.name
                          : s.model.name + " on " + std::to_string(s.cluster_gpus()) + " x " + s.gpu.name;
}

Ctx::Ctx(const Analysis& an, Lang lang)
    : b{lang}, a(an), ev(an.ev), s(an.ev.s), m(an.ev.s.model), w(an.ev.s.workload), dec(an.ev.decode_pool()), pre(an.ev.prefill_pool()),
      tc(an.targets) {
  total_gpus = ev.disaggregated() ? pre.pool.cfg.gpus + dec.pool.cfg.gpus : dec.pool.cfg.gpus;
  for (const auto& pe : ev.pools) {
    fits = fits && pe.plan.fits();
    const double free = pe.plan.fits() ? pe.plan.kv_pool : -pe.plan.shortfall;
    if (free < worst_free) {
      worst_free = free;
      fit_detail = role_label(b, pe.role);
    }
  }
}

}  // namespace slo::rpt

SLO_SIZE_END
