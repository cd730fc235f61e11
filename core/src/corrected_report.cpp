// The corrected method's report: verdicts with margins, bottlenecks, every section with units,
// charts' data, recommendations and the seed-vs-corrected table. Labels in English and Chinese.
#include "slo/corrected_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "slo/band_format.hpp"
#include "slo/report_load.hpp"
#include "slo/evaluation.hpp"
#include "slo/workloads.hpp"
#include "slo/kv_cache.hpp"
#include "slo/search.hpp"
#include "slo/seed_method.hpp"

namespace slo {

namespace {

struct B {
  Lang lang;
  const char* t(const char* en, const char* zh) const { return L(lang, en, zh); }
};

std::string num(double x, int digits = 0) { return format_fixed(x, digits, true); }
Value gb(double bytes, int digits = 1) { return Value::fixed(bytes / 1e9, digits, "GB"); }
Value ms(double s, int digits = 1) { return Value::fixed(s * 1e3, digits, "ms"); }
Value tps(double x, const std::string& unit = "tokens/s") { return Value::fixed(x, x < 100 ? 1 : 0, unit, true); }
Value count(double x, const std::string& unit = "") { return Value::fixed(x, 0, unit, true); }
Value params_b(double p) { return Value::fixed(p / 1e9, 2, "B", false, ""); }

std::string signed_num(double x, int digits) {
  std::string s = format_fixed(std::fabs(x), digits, true);
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
  v.text = signed_num(d, digits) + (unit.empty() ? "" : " " + unit) + " (" + signed_num(pct, 1) + "%)";
  return v;
}

const char* dtype_label(DType t) { return dtype_name(t); }

std::string pool_desc(const B& b, const PoolConfig& p) {
  std::string s = std::to_string(p.gpus) + " GPU: TP" + std::to_string(p.attention_tp) + " x DP" + std::to_string(p.dp_attention());
  if (p.ep > 1) s += ", EP" + std::to_string(p.ep);
  if (p.moe_tp() > 1 && p.ep >= 1) s += ", MoE TP" + std::to_string(p.moe_tp());
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
std::string layout_desc(const B& b, const Deployment& d) {
  if (d.disaggregated)
    return role_label(b, "prefill") + " " + pool_desc(b, d.prefill) + " : " + role_label(b, "decode") + " " + pool_desc(b, d.decode);
  return role_label(b, "colocated") + " " + pool_desc(b, d.colocated);
}

std::string bottleneck_label(const B& b, const std::string& k) {
  if (k == "compute") return b.t("compute (tensor cores)", "算力（张量核心）");
  if (k == "hbm-weights") return b.t("HBM bandwidth (weight reads)", "显存带宽（读权重）");
  if (k == "hbm-kv") return b.t("HBM bandwidth (KV cache / activations)", "显存带宽（KV 缓存 / 激活）");
  if (k == "network") return b.t("network (EP / TP communication)", "网络（EP / TP 通信）");
  if (k == "overhead") return b.t("per-step overhead", "每步固定开销");
  if (k.empty()) return b.t("n/a", "不适用");
  return k;
}

std::string limit_label(const B& b, const std::string& k) {
  if (k == "prefill") return b.t("prefill capacity", "Prefill 处理能力");
  if (k == "decode-tpot") return b.t("decode batch limited by the TPOT target", "Decode 批大小受 TPOT 目标限制");
  if (k == "decode-kv") return b.t("decode batch limited by KV-cache memory", "Decode 批大小受 KV 缓存显存限制");
  if (k == "decode-cap") return b.t("decode batch limited by max_decode_batch_per_gpu", "Decode 批大小受 max_decode_batch_per_gpu 限制");
  if (k == "kv-transfer") return b.t("KV transfer bandwidth between pools", "池间 KV 传输带宽");
  if (k == "infeasible") return b.t("the weights and reserves do not fit in GPU memory", "权重与预留显存放不下");
  return k;
}

Verdict verdict(const std::string& id, const std::string& label, bool ok, Value value, Value target, Value m,
                const std::string& detail, bool info = false) {
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

double tokens_of(ThroughputKind k, double in, double out) {
  return k == ThroughputKind::Output ? out : k == ThroughputKind::Input ? in : in + out;
}

const char* kind_label(const B& b, ThroughputKind k) {
  return k == ThroughputKind::Output ? b.t("output", "输出") : k == ThroughputKind::Input ? b.t("input", "输入") : b.t("input + output", "输入 + 输出");
}

void step_rows(const B& b, Table& t, const StepParts& s) {
  auto row = [&](const char* en, const char* zh, double v) {
    if (v > 0) t.rows.push_back({Value::str(b.t(en, zh)), ms(v, 2)});
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
  t.rows.push_back({Value::str(b.t("step total", "单步合计")), ms(s.total, 2)});
}

// The report's title: the scenario's name, unless it is the default scenario's name carried over
// by a document that changed the model, GPU or cluster (then the name would describe another case).
std::string display_name(const Scenario& s, Lang lang) {
  const nlohmann::json def = defaults_for_version(s.version);
  const std::string def_name = def.value("name", "");
  const auto& hw = def.at("hardware");
  const bool same_case = s.model_preset == def.at("model").value("preset", "") && s.gpu_id == hw.value("gpu", "") &&
                         s.nodes == hw.value("nodes", 0) && s.gpus_per_node == hw.value("gpus_per_node", 0);
  if (!s.name.empty() && s.name != def_name) return s.name;
  if (!s.name.empty() && same_case && lang == Lang::Zh) {
    // The default scenario is the "seed-default" preset: its Chinese name.
    const nlohmann::json presets = scenario_presets();  // kept alive: the loop ranges over a member
    for (const auto& p : presets.at("presets"))
      if (p.value("id", "") == "seed-default") return p.at("name").value("zh", s.name);
  }
  if (!s.name.empty() && same_case) return s.name;
  return lang == Lang::Zh ? s.model.name + " · " + std::to_string(s.cluster_gpus()) + " 卡 " + s.gpu.name
                          : s.model.name + " on " + std::to_string(s.cluster_gpus()) + " x " + s.gpu.name;
}

}  // namespace

Report corrected_report(const Scenario& s_in, Lang lang) {
  B b{lang};
  Report r;
  r.method = "corrected";
  r.lang = lang;
  r.title = display_name(s_in, lang) + b.t(" — SLO report (corrected method)", " — SLO 评估报告（修正方法）");

  // Calibration to the reference measurement, when asked.
  const Reference& ref = s_in.reference;
  Evaluation ev_ref;
  double ref_pred = 0, implied = 0;
  if (ref.present && ref.measured_tokens_per_s > 0) {
    EvalOptions ro;
    ro.ttft = false;
    ev_ref = evaluate_scenario(reference_scenario(s_in), ro);
    const Workload& rw = ref.workload;
    ref_pred = ev_ref.lambda_max * tokens_of(ref.measured_kind, rw.input_tokens, rw.output_tokens);
    implied = ref_pred > 0 ? ref.measured_tokens_per_s / ref_pred : 0;
  }
  const bool calibrated = ref.present && ref.calibrate && implied > 0;
  EvalOptions eo;
  eo.time_scale = calibrated ? 1.0 / implied : 1.0;
  const Evaluation ev = evaluate_scenario(s_in, eo);
  const Scenario& s = ev.s;
  const ModelArch& m = s.model;
  const Workload& w = s.workload;
  const PoolEval& dec = ev.decode_pool();
  const PoolEval& pre = ev.prefill_pool();
  const TargetCheck tc = check_targets(ev);
  const int total_gpus = ev.disaggregated() ? pre.pool.cfg.gpus + dec.pool.cfg.gpus : dec.pool.cfg.gpus;

  // ------------------------------------------------------------------ verdicts
  bool fits = true;
  double worst_free = 1e300;
  std::string fit_detail;
  for (const auto& pe : ev.pools) {
    fits = fits && pe.plan.fits();
    const double free = pe.plan.fits() ? pe.plan.kv_pool : -pe.plan.shortfall;
    if (free < worst_free) {
      worst_free = free;
      fit_detail = role_label(b, pe.role);
    }
  }
  // The load exceeds what the deployment serves: say by how much (requests/min).
  const std::string overload = std::string(b.t("the load (", "负载（")) + num(ev.lambda_load * 60) + b.t(" requests/min) exceeds the capacity (", " 请求/分钟）超过能力（") +
                               num(ev.lambda_max * 60) + b.t(" requests/min)", " 请求/分钟）");
  // Every other verdict fails while a pool does not fit; say so instead of a misleading cause.
  const std::string unfit = std::string(b.t("fails: the ", "不达标：")) + fit_detail + b.t(" does not fit in GPU memory", "显存放不下");
  auto why = [&](const std::string& detail) { return fits ? detail : unfit; };
  r.verdicts.push_back(verdict("memory", b.t("Memory fits (weights + reserves per GPU)", "显存可行（每卡权重 + 预留）"), fits,
                               Value::str(fits ? b.t("fits", "可放下") : b.t("does not fit", "放不下")), Value::str(""),
                               Value::fixed(worst_free / 1e9, 1, "GB"),
                               fits ? std::string(b.t("KV pool left on the tightest pool: ", "最紧张的池剩余 KV 空间：")) + fit_detail
                                    : std::string(b.t("short by this much on the ", "缺口所在：")) + fit_detail));
  if (s.slo.concurrent_sessions > 0)
    r.verdicts.push_back(verdict("concurrency",
                                 std::string(b.t("Concurrent sessions at ", "并发会话数 @ ")) + num(w.context_length) + b.t(" tokens", " tokens"),
                                 tc.concurrency, count(ev.sessions_target_ctx, b.t("sessions", "会话")),
                                 count(s.slo.concurrent_sessions, b.t("sessions", "会话")),
                                 margin(ev.sessions_target_ctx, s.slo.concurrent_sessions, 0, b.t("sessions", "会话"), true),
                                 why(b.t("KV capacity of the decode side (every DP group holds its own sessions)", "Decode 侧 KV 容量（每个 DP 组各自持有其会话）"))));
  if (s.slo.throughput_tokens_per_s > 0)
    r.verdicts.push_back(verdict("throughput", std::string(b.t("Throughput (", "吞吐量（")) + kind_label(b, s.slo.throughput_kind) + b.t(" tokens/s)", " tokens/s）"),
                                 tc.throughput, tps(ev.capacity_in_target_kind()), tps(s.slo.throughput_tokens_per_s),
                                 margin(ev.capacity_in_target_kind(), s.slo.throughput_tokens_per_s, 0, "tokens/s", true),
                                 why(std::string(b.t("capacity at the TPOT limit; bounded by ", "TPOT 限制下的最大能力；受限于")) + limit_label(b, ev.lambda_limit))));
  if (s.slo.tpot_ms > 0)
    r.verdicts.push_back(verdict("tpot", b.t("TPOT at the workload's load", "负载下的 TPOT"), tc.tpot,
                                 ev.load_sustainable ? ms(ev.op_load.tpot_s)
                                 : fits             ? Value::str(b.t("unbounded (overloaded)", "无界（过载）"))
                                                    : Value::str(b.t("not served", "无法服务")),
                                 Value::fixed(s.slo.tpot_ms, 1, "ms"),
                                 ev.load_sustainable ? margin(ev.op_load.tpot_s * 1e3, s.slo.tpot_ms, 1, "ms", false) : Value::str(""),
                                 why(ev.load_sustainable || ev.lambda_load <= 0 ? std::string(b.t("decode step bound by ", "Decode 单步瓶颈：")) + bottleneck_label(b, ev.op_load.step.bottleneck)
                                                                              : overload + b.t("; at capacity TPOT is ", "；满载时 TPOT 为 ") + num(ev.op_max.tpot_s * 1e3, 1) + " ms")));
  auto ttft_value = [&](double x) {
    return ev.ttft.stable && ev.ttft.simulated > 0 ? ms(x, 0)
           : fits                                  ? Value::str(b.t("unbounded (queue grows)", "无界（队列持续增长）"))
                                                   : Value::str(b.t("not served", "无法服务"));
  };
  if (s.slo.ttft_p50_ms > 0)
    r.verdicts.push_back(verdict("ttft_p50", b.t("TTFT P50 at the workload's load", "负载下的 TTFT P50"), tc.ttft_p50, ttft_value(ev.ttft.p50),
                                 Value::fixed(s.slo.ttft_p50_ms, 0, "ms"),
                                 ev.ttft.stable ? margin(ev.ttft.p50 * 1e3, s.slo.ttft_p50_ms, 0, "ms", false) : Value::str(""),
                                 why(ev.ttft.stable ? std::string("P99 ") + num(ev.ttft.p99 * 1e3) + " ms"
                                     : !ev.load_sustainable && ev.lambda_load > 0 ? overload
                                                                                  : std::string(b.t("arrivals exceed the prefill capacity", "到达率超过 prefill 能力")))));
  if (s.slo.ttft_p99_ms > 0)
    r.verdicts.push_back(verdict("ttft_p99", b.t("TTFT P99 at the workload's load", "负载下的 TTFT P99"), tc.ttft_p99, ttft_value(ev.ttft.p99),
                                 Value::fixed(s.slo.ttft_p99_ms, 0, "ms"),
                                 ev.ttft.stable ? margin(ev.ttft.p99 * 1e3, s.slo.ttft_p99_ms, 0, "ms", false) : Value::str(""), why("")));

  // ------------------------------------------------------------------ bottlenecks
  r.bottlenecks.push_back(std::string(b.t("System capacity: ", "系统能力：")) + num(ev.lambda_max * 60, 0) + b.t(" requests/min, bounded by ", " 请求/分钟，受限于") +
                          limit_label(b, ev.lambda_limit) + ".");
  if (dec.plan.fits() && ev.op_max.in_flight > 0)
    r.bottlenecks.push_back(std::string(b.t("Decode step (", "Decode 单步（")) + num(ev.op_max.in_flight / dec.pool.cfg.attention_tp, 0) +
                            b.t(" sequences per GPU): ", " 序列/卡）：") + bottleneck_label(b, ev.op_max.step.bottleneck) + ", " +
                            num(ev.op_max.step.total * 1e3, 1) + " ms.");
  if (!ev.disaggregated() && dec.plan.fits() && ev.op_max.in_flight > 0) {
    const double work = ev.prefill_work_share(ev.lambda_max);
    if (ev.op_max.prefill_share > 1.5 * work && ev.op_max.prefill_share > 0.1)
      r.bottlenecks.push_back(std::string(b.t("Prefill interference (colocated): ", "Prefill 干扰（混合部署）：")) + format_fixed(ev.op_max.prefill_share * 100, 1, true) +
                              b.t("% of GPU time goes to prefill at capacity, of which ", "% 的 GPU 时间用于 prefill，其中 prefill 计算仅占 ") + format_fixed(work * 100, 1, true) +
                              b.t("% is prefill work; the rest is DP-attention ranks waiting for each other's prefill chunks (a P:D split removes it).",
                                  "%；其余为 DP 注意力各 rank 互相等待 prefill 分块（PD 分离可消除）。"));
  }
  if (pre.plan.fits())
    r.bottlenecks.push_back(std::string(b.t("Prefill pass (", "Prefill 前向（")) + num(s.deployment.chunked_prefill_tokens) + b.t(" tokens per DP group): ", " tokens/DP 组）：") +
                            bottleneck_label(b, ev.prefill_step.bottleneck) + ", " + num(ev.prefill_step.total * 1e3, 0) + " ms.");
  if (s.slo.concurrent_sessions > 0 && !tc.concurrency)
    r.bottlenecks.push_back(std::string(b.t("KV memory: one session of ", "KV 显存：一个 ")) + num(w.context_length) + b.t(" tokens takes ", " tokens 的会话占用 ") +
                            num(ev.session_bytes_target_ctx / 1e9, 2) + b.t(" GB per GPU of its DP group.", " GB（其 DP 组内每卡）。"));

  // ------------------------------------------------------------------ scenario
  {
    Section& sec = r.add_section("scenario", b.t("Scenario", "场景"));
    const ParamBreakdown& p = ev.params;
    sec.row("model", b.t("Model", "模型"), Value::str(m.name + " (" + (m.attention == AttentionType::MLA ? "MLA" : "GQA") + (m.is_moe() ? ", MoE" : ", dense") + ")"));
    sec.row("params_total", b.t("Parameters (main model)", "参数量（主模型）"), params_b(p.total()));
    sec.row("params_active", b.t("Activated per token (incl. embedding and head)", "每 token 激活参数（含嵌入与输出头）"), params_b(p.active_all));
    sec.row("precision", b.t("Precision (weights / activations / KV)", "精度（权重 / 激活 / KV）"), Value::str(s.precision.scheme_name()));
    sec.row("gpu", b.t("GPU", "GPU"), Value::str(s.gpu.name + ", " + num(s.gpu.memory_bytes / 1e9, 0) + " GB, " + num(s.gpu.hbm_bytes_s / 1e12, 2) + " TB/s"));
    sec.row("cluster", b.t("Cluster", "集群"), Value::str(std::to_string(s.nodes) + " x " + std::to_string(s.gpus_per_node) + " = " + std::to_string(s.cluster_gpus()) + b.t(" GPUs", " 卡")));
    for (const auto& pe : ev.pools) sec.row("pool_" + pe.role, role_label(b, pe.role), Value::str(pool_desc(b, pe.pool.cfg)));
    for (const auto& note : s.notes) r.warnings.push_back(note);
    if (total_gpus < s.cluster_gpus())
      r.warnings.push_back(std::to_string(s.cluster_gpus() - total_gpus) + b.t(" GPUs of the cluster are not in any pool.", " 张卡未分配到任何池。"));
    sec.row("mtp", b.t("MTP", "MTP"), Value::str(s.deployment.mtp.draft_tokens > 0 ? std::to_string(s.deployment.mtp.draft_tokens) + b.t(" draft tokens, acceptance ", " 个草稿 token，接受率 ") +
                                                                        num(s.deployment.mtp.acceptance, 2) : b.t("off", "关闭")));
    sec.row("workload", b.t("Workload (input / output tokens, mean and max)", "负载（输入 / 输出 tokens，均值与最大值）"),
            Value::str(num(w.input_tokens) + " (max " + num(w.input_tokens_max) + ") / " + num(w.output_tokens) + " (max " + num(w.output_tokens_max) + ")"));
    const char* src = ev.load_source == "arrival_qpm" ? b.t("workload.arrival_qpm", "workload.arrival_qpm")
                      : ev.load_source == "throughput_target" ? b.t("the rate that delivers the throughput target", "达成吞吐目标所需的请求率")
                                                              : b.t("80% of capacity (no rate or throughput target given)", "能力的 80%（未给出请求率与吞吐目标）");
    sec.row("load", b.t("Load", "负载"), Value::fixed(ev.lambda_load * 60, 1, b.t("requests/min", "请求/分钟"), true), "", 0, src);
    if (s.deployment.mtp.draft_tokens > 0 && m.mtp_layers == 0)
      r.warnings.push_back(b.t("The model ships no MTP layer: MTP is costed as a one-layer draft module of the model's own shape.",
                               "模型未自带 MTP 层：按与模型同构的一层草稿模块计算 MTP 开销。"));
    if (m.max_position > 0 && w.context_length > m.max_position)
      r.warnings.push_back(std::string(b.t("workload.context_length exceeds the model's max_position_embeddings (", "workload.context_length 超过模型的 max_position_embeddings（")) +
                           num(m.max_position) + ").");
    if (w.input_tokens_max + w.output_tokens_max > w.context_length)
      r.warnings.push_back(b.t("The longest request (input max + output max) exceeds workload.context_length.",
                               "最长请求（输入最大值 + 输出最大值）超过 workload.context_length。"));
  }

  // ------------------------------------------------------------------ parameters
  {
    Section& sec = r.add_section("parameters", b.t("Parameter breakdown", "参数分解"));
    const ParamBreakdown& p = ev.params;
    Table t;
    t.id = "params";
    t.columns = {b.t("component", "组件"), b.t("parameters", "参数量"), b.t("share", "占比")};
    auto add = [&](const char* en, const char* zh, double x) {
      if (x > 0) t.rows.push_back({Value::str(b.t(en, zh)), count(x), Value::percent(x / p.total(), 1)});
    };
    add(m.attention == AttentionType::MLA ? "MLA attention" : "GQA attention", m.attention == AttentionType::MLA ? "MLA 注意力" : "GQA 注意力", p.attention + p.attention_norms);
    add("dense FFN layers", "Dense FFN 层", p.dense_ffn);
    add("routed experts", "路由专家", p.routed_experts);
    add("shared experts", "共享专家", p.shared_experts);
    add("routers", "路由器", p.router);
    add("embedding", "嵌入层", p.embedding);
    add("lm_head", "输出头", p.lm_head);
    add("layer norms", "层归一化", p.layer_norms);
    t.rows.push_back({Value::str(b.t("total", "合计")), count(p.total()), Value::percent(1.0, 1)});
    if (p.mtp > 0) t.rows.push_back({Value::str(b.t("MTP module (not in total)", "MTP 模块（不计入合计）")), count(p.mtp), Value::str("")});
    sec.table(t);
    sec.row("per_layer_attention", b.t("Attention per layer", "每层注意力"), count(p.attention_per_layer));
    if (m.is_moe()) sec.row("per_expert", b.t("One routed expert", "单个路由专家"), count(p.per_expert));
    sec.row("active_all", b.t("Activated per token, incl. embedding and head", "每 token 激活（含嵌入与输出头）"), params_b(p.active_all));
    sec.row("active_no_emb", b.t("Activated per token, without the input embedding", "每 token 激活（不含输入嵌入）"), params_b(p.active_no_embedding));
    if (m.published_total > 0)
      sec.row("published", b.t("Published (total / active)", "官方公布（总 / 激活）"),
              Value::str(num(m.published_total / 1e9, 1) + "B / " + num(m.published_active / 1e9, 1) + "B"));
  }

  // ------------------------------------------------------------------ memory
  {
    Section& sec = r.add_section("memory", b.t("Memory plan per GPU", "每卡显存规划"));
    Table t;
    t.id = "memory_plan";
    t.columns = {b.t("item", "项目")};
    for (const auto& pe : ev.pools) t.columns.push_back(role_label(b, pe.role) + " (GB)");
    auto row = [&](const char* en, const char* zh, auto get) {
      std::vector<Value> cells{Value::str(b.t(en, zh))};
      double largest = 0;
      for (const auto& pe : ev.pools) {
        cells.push_back(gb(get(pe.plan), 2));
        largest = std::max(largest, get(pe.plan));
      }
      if (largest >= 0.005e9) t.rows.push_back(cells);  // rows that are zero on every pool are left out
    };
    row("HBM", "显存总量", [](const MemoryPlan& p) { return p.hbm; });
    row("usable (x memory_fraction)", "可用（x memory_fraction）", [](const MemoryPlan& p) { return p.usable; });
    row("weights: attention", "权重：注意力", [](const MemoryPlan& p) { return p.weights.attention; });
    row("weights: dense FFN", "权重：Dense FFN", [](const MemoryPlan& p) { return p.weights.dense_ffn; });
    row("weights: shared experts", "权重：共享专家", [](const MemoryPlan& p) { return p.weights.shared_experts; });
    row("weights: routed experts (local)", "权重：本卡路由专家", [](const MemoryPlan& p) { return p.weights.routed_experts; });
    row("weights: routers", "权重：路由器", [](const MemoryPlan& p) { return p.weights.router; });
    row("weights: embedding + lm_head", "权重：嵌入 + 输出头", [](const MemoryPlan& p) { return p.weights.embedding + p.weights.lm_head; });
    row("weights: norms", "权重：归一化", [](const MemoryPlan& p) { return p.weights.norms; });
    row("weights: MTP module", "权重：MTP 模块", [](const MemoryPlan& p) { return p.weights.mtp; });
    row("weights total", "权重合计", [](const MemoryPlan& p) { return p.weights.total(); });
    row("activation workspace", "激活工作区", [](const MemoryPlan& p) { return p.activations; });
    row("EP communication buffers", "EP 通信缓冲", [](const MemoryPlan& p) { return p.ep_buffers; });
    row("CUDA-graph pool", "CUDA Graph 内存池", [](const MemoryPlan& p) { return p.cuda_graph; });
    row("KV transfer staging", "KV 传输缓冲", [](const MemoryPlan& p) { return p.kv_transfer; });
    row("KV-cache pool", "KV 缓存池", [](const MemoryPlan& p) { return p.kv_pool; });
    row("shortfall", "缺口", [](const MemoryPlan& p) { return p.shortfall; });
    t.note = b.t("GB = 1e9 bytes. Reserves are sized from the batch each pool serves (decode batch at the operating point, the prefill chunk).",
                 "GB = 1e9 字节。预留按各池实际批大小计算（工作点的 decode 批、prefill 分块）。");
    sec.table(t);
    // Chart: stacked per-GPU memory by pool.
    Chart c;
    c.id = "memory_breakdown";
    c.title = b.t("Per-GPU memory", "每卡显存构成");
    c.kind = "stacked-bar";
    c.y_label = b.t("memory", "显存");
    c.y_unit = "GB";
    for (const auto& pe : ev.pools) c.categories.push_back(role_label(b, pe.role));
    auto series = [&](const char* en, const char* zh, auto get) {
      Series sr;
      sr.name = b.t(en, zh);
      for (std::size_t i = 0; i < ev.pools.size(); ++i) sr.points.push_back({static_cast<double>(i), get(ev.pools[i].plan) / 1e9});
      c.series.push_back(sr);
    };
    series("weights", "权重", [](const MemoryPlan& p) { return p.weights.total(); });
    series("reserves", "预留", [](const MemoryPlan& p) { return p.reserves(); });
    series("KV cache", "KV 缓存", [](const MemoryPlan& p) { return p.kv_pool; });
    series("not usable", "不可用", [](const MemoryPlan& p) { return std::max(0.0, p.hbm - std::max(p.usable, p.weights.total() + p.reserves())); });
    Marker mk;
    mk.axis = "y";
    mk.value = s.gpu.memory_bytes / 1e9;
    mk.label = b.t("HBM", "显存总量");
    c.markers.push_back(mk);
    sec.chart(c);
  }

  // ------------------------------------------------------------------ KV capacity
  {
    Section& sec = r.add_section("kv_cache", b.t("KV cache and concurrency", "KV 缓存与并发能力"));
    const PoolConfig& pc = dec.pool.cfg;
    const double per_tok = kv_bytes_per_token(m, s.precision.kv_cache, 1);
    sec.row("kv_per_token", b.t("KV bytes per token (all layers)", "每 token KV 字节（全部层）"), count(per_tok, "B"), "", 0,
            m.attention == AttentionType::MLA
                ? std::string(b.t("MLA latent: kv_lora_rank + rope = ", "MLA 潜变量：kv_lora_rank + rope = ")) + std::to_string(m.kv_lora_rank + m.qk_rope_dim) + b.t(" elements per layer", " 元素/层")
                : std::string(b.t("2 x KV heads x head_dim per layer", "每层 2 x KV 头数 x head_dim")));
    sec.row("kv_per_token_gpu", b.t("KV bytes per token on one GPU", "单卡每 token KV 字节"), count(dec.plan.kv_token_bytes, "B"), "", 0,
            m.attention == AttentionType::MLA && pc.attention_tp > 1 ? b.t("MLA latent replicated on every attention-TP rank", "MLA 潜变量在每个注意力 TP rank 上复制")
                                                                     : "");
    sec.row("session_gb", std::string(b.t("One session of ", "单会话 ")) + num(w.context_length) + b.t(" tokens, per GPU", " tokens，每卡"), gb(ev.session_bytes_target_ctx, 3));
    sec.row("kv_pool", b.t("KV pool per GPU", "每卡 KV 缓存池"), gb(dec.plan.kv_pool));
    sec.row("dp_groups", b.t("DP groups holding sessions", "持有会话的 DP 组数"), count(dec.plan.dp));
    Table t;
    t.id = "capacity";
    t.title = b.t("Maximum concurrent sessions (decode side)", "最大并发会话（decode 侧）");
    t.columns = {b.t("context", "上下文"), b.t("per DP group", "每 DP 组"), b.t("cluster", "集群")};
    std::vector<double> contexts{8192.0, 16384.0, 32768.0};
    if (std::find(contexts.begin(), contexts.end(), w.context_length) == contexts.end()) contexts.push_back(w.context_length);
    for (double ctx : contexts) {
      const double all = dec.plan.sessions(ctx);
      t.rows.push_back({count(ctx, "tokens"), count(dec.plan.dp > 0 ? all / dec.plan.dp : 0), count(all)});
      if (ctx == w.context_length) t.rows.back()[0].text += b.t(" (scenario)", "（场景）");
    }
    sec.table(t);
  }

  // ------------------------------------------------------------------ prefill
  {
    Section& sec = r.add_section("prefill", b.t("Prefill", "Prefill"));
    if (!pre.plan.fits()) {
      sec.row("prefill_capacity", b.t("Prefill capacity", "Prefill 能力"), Value::str(b.t("none: the pool does not fit in GPU memory", "无：该池显存放不下")), "", 0,
              std::string(b.t("short by ", "缺口 ")) + num(pre.plan.shortfall / 1e9, 2) + " GB " + b.t("per GPU on the ", "/卡，") + role_label(b, pre.role));
    } else {
    sec.row("prefill_capacity", b.t("Prefill capacity", "Prefill 能力"), tps(ev.prefill_tokens_s, "tokens/s"), "", 0,
            std::string(b.t("input tokens/s of the ", "输入 tokens/s，")) + role_label(b, pre.role));
    sec.row("prefill_per_gpu", b.t("Prefill capacity per GPU", "每卡 Prefill 能力"), tps(ev.prefill_tokens_s / pre.pool.cfg.gpus, "tokens/s"));
    sec.row("prefill_pass", b.t("One prefill pass", "单次 Prefill 前向"), ms(ev.prefill_step.total, 0), "", 0,
            num(s.deployment.chunked_prefill_tokens) + b.t(" tokens per DP group; ", " tokens/DP 组；") + bottleneck_label(b, ev.prefill_step.bottleneck));
    if (ev.disaggregated()) sec.row("kv_transfer", b.t("KV transfer to decode (mean request)", "KV 传输到 decode（平均请求）"), ms(ev.kv_transfer_s, 2));
    Table t;
    t.id = "prefill_breakdown";
    t.title = b.t("Prefill pass breakdown (one GPU)", "Prefill 前向分解（单卡）");
    t.columns = {b.t("part", "部分"), b.t("time", "时间")};
    step_rows(b, t, ev.prefill_step);
    sec.table(t);
    }
  }

  // ------------------------------------------------------------------ decode
  {
    Section& sec = r.add_section("decode", b.t("Decode operating point", "Decode 工作点"));
    const DecodePoint& op = ev.op_max;
    const double per_gpu_batch = op.in_flight / dec.pool.cfg.attention_tp;
    if (!dec.plan.fits() || op.in_flight <= 0) {
      const bool unfit_pool = !dec.plan.fits();
      sec.row("batch", b.t("Sequences per GPU at capacity", "满载时每卡序列数"), count(0), "", 0,
              unfit_pool ? std::string(b.t("the pool does not fit in GPU memory: short by ", "该池显存放不下：缺口 ")) + num(dec.plan.shortfall / 1e9, 2) + " GB"
              : !ev.tpot_feasible ? std::string(b.t("even one sequence per GPU exceeds the TPOT target: TPOT at batch 1 is ", "即使每卡 1 个序列也超过 TPOT 目标：batch 1 的 TPOT 为 ")) +
                                       num(decode_at(dec, 1, ev.running_context, 0, ev.time_scale).tpot_s * 1e3, 1) + " ms"
                                  : std::string(b.t("no session of the running context fits in the KV pool", "KV 缓存池放不下一个运行中的会话")));
    } else {
    const std::string batch_limit = ev.lambda_limit == "infeasible" && !op.limit.empty()
                                        ? limit_label(b, "decode-" + op.limit) + b.t(" (this pool alone; the system does not fit)", "（仅此池；系统整体放不下）")
                                        : limit_label(b, ev.lambda_limit);
    sec.row("batch", b.t("Sequences per GPU at capacity", "满载时每卡序列数"), count(per_gpu_batch), "", 0, batch_limit);
    sec.row("context", b.t("Mean context of a decoding sequence", "解码序列平均上下文"), count(op.context, "tokens"));
    sec.row("tokens_per_step", b.t("Tokens per step per sequence (MTP)", "每步每序列 token 数（MTP）"), Value::fixed(op.tokens_per_step, 2));
    sec.row("tpot_capacity", b.t("TPOT at capacity", "满载 TPOT"), ms(op.tpot_s, 1));
    if (!ev.disaggregated()) {
      const double work = ev.prefill_work_share(ev.lambda_max);
      sec.row("prefill_share", b.t("GPU time spent on prefill (colocated)", "用于 prefill 的 GPU 时间（混合部署）"), Value::percent(op.prefill_share, 1), "", 0,
              op.prefill_share > work * 1.001
                  ? std::string(b.t("prefill work ", "prefill 计算 ")) + format_fixed(work * 100, 1, true) +
                        b.t("%; the rest is DP-attention ranks waiting at every MoE layer for another rank's prefill chunk",
                            "%；其余为 DP 注意力各 rank 在每个 MoE 层等待其他 rank 的 prefill 分块")
                  : std::string());
    }
    sec.row("tbo", b.t("Two-batch overlap", "两批重叠（TBO）"), Value::str(op.step.tbo ? b.t("on", "开启") : b.t("off", "关闭")));
    sec.row("bottleneck", b.t("Decode bottleneck", "Decode 瓶颈"), Value::str(bottleneck_label(b, op.step.bottleneck)));
    Table t;
    t.id = "decode_breakdown";
    t.title = b.t("Decode step breakdown at capacity (one GPU)", "满载时 Decode 单步分解（单卡）");
    t.columns = {b.t("part", "部分"), b.t("time", "时间")};
    step_rows(b, t, op.step);
    sec.table(t);
    }
    // Chart: throughput per GPU vs TPOT as the batch grows (also when no batch meets the limit).
    if (dec.plan.fits()) {
    Chart c;
    c.id = "throughput_vs_tpot";
    c.title = b.t("Decode throughput vs TPOT as the batch grows", "Decode 吞吐随批大小增长与 TPOT 的关系");
    c.kind = "line";
    c.x_label = "TPOT";
    c.x_unit = "ms";
    c.y_label = b.t("output tokens/s per GPU", "每卡输出 tokens/s");
    c.y_unit = "tokens/s";
    Series sr;
    sr.name = b.t("decode pool", "Decode 池");
    const double kv_max = dec.plan.fits() ? std::floor(dec.plan.kv_pool / std::max(1.0, dec.plan.session_bytes(ev.running_context))) : 0;
    const double top = std::max(1.0, std::min(kv_max, 4.0 * std::max(1.0, op.in_flight)));
    for (int i = 0; i <= 24 && dec.plan.fits(); ++i) {
      const double bsz = std::max(1.0, std::round(std::pow(top, i / 24.0)));
      const DecodePoint d = decode_at(dec, bsz, ev.running_context, op.prefill_share, ev.time_scale);
      if (!sr.points.empty() && sr.points.back().first == d.tpot_s * 1e3) continue;
      sr.points.push_back({d.tpot_s * 1e3, d.output_tps / dec.pool.cfg.gpus});
    }
    c.series.push_back(sr);
    if (s.slo.tpot_ms > 0) c.markers.push_back(Marker{"x", s.slo.tpot_ms, b.t("TPOT limit", "TPOT 上限")});
    sec.chart(c);
    }
  }

  // ------------------------------------------------------------------ throughput
  {
    Section& sec = r.add_section("throughput", b.t("Throughput", "吞吐量"));
    Table t;
    t.id = "throughput";
    t.title = b.t("Capacity at the TPOT limit", "TPOT 限制下的最大吞吐");
    t.columns = {b.t("tokens/s", "tokens/s"), b.t("cluster", "集群"), b.t("per GPU", "每卡"), b.t("per decode GPU", "每 decode 卡")};
    auto row = [&](const char* en, const char* zh, double x) {
      t.rows.push_back({Value::str(b.t(en, zh)), tps(x), tps(x / total_gpus), tps(x / dec.pool.cfg.gpus)});
    };
    row("input", "输入", ev.input_tps_max);
    row("output", "输出", ev.output_tps_max);
    row("total", "合计", ev.total_tps_max);
    sec.table(t);
    sec.row("requests", b.t("Requests", "请求数"), Value::fixed(ev.lambda_max * 60, 1, b.t("requests/min", "请求/分钟"), true));
    sec.row("limit", b.t("Bounded by", "受限于"), Value::str(limit_label(b, ev.lambda_limit)));
    sec.row("per_user", b.t("Output tokens/s per user at capacity", "满载时每用户输出 tokens/s"), Value::fixed(ev.op_max.tpot_s > 0 ? 1.0 / ev.op_max.tpot_s : 0, 1, "tokens/s"));
    if (ev.load_sustainable && ev.lambda_load > 0) {
      sec.row("at_load", b.t("At the workload's load: total tokens/s", "负载下合计 tokens/s"), tps(ev.lambda_load * (w.input_tokens + w.output_tokens)));
      sec.row("at_load_tpot", b.t("At the workload's load: TPOT", "负载下 TPOT"), ms(ev.op_load.tpot_s), "", 0,
              num(ev.op_load.in_flight / dec.pool.cfg.attention_tp, 1) + b.t(" sequences per GPU (Little's law)", " 序列/卡（Little 定律）"));
    }
    // Little's law consistency of the targets.
    if (s.slo.concurrent_sessions > 0 && s.slo.throughput_tokens_per_s > 0 && s.slo.tpot_ms > 0) {
      const double out_share = tokens_of(ThroughputKind::Output, w.input_tokens, w.output_tokens) /
                               tokens_of(s.slo.throughput_kind, w.input_tokens, w.output_tokens);
      const double out_target = s.slo.throughput_tokens_per_s * (s.slo.throughput_kind == ThroughputKind::Input ? w.output_tokens / w.input_tokens : out_share);
      const double needed = out_target * s.slo.tpot_ms * 1e-3;
      sec.row("littles_law", b.t("Sessions decoding at once to deliver the throughput target at the TPOT limit", "在 TPOT 上限下达成吞吐目标所需的同时解码会话数"),
              count(needed, b.t("sessions", "会话")), "", 0,
              needed > s.slo.concurrent_sessions
                  ? std::string(b.t("more than the concurrency target: the throughput target implies more sessions than ", "多于并发目标：吞吐目标隐含的会话数超过 ")) + num(s.slo.concurrent_sessions)
                  : b.t("within the concurrency target", "不超过并发目标"));
    }
    // The concurrency target as a benchmark client sees it: that many sessions always in flight.
    if (s.slo.concurrent_sessions > 0 && fits) {
      const LoadResult c = closed_loop(ev, s.slo.concurrent_sessions);
      const double held = dec.plan.sessions(ev.running_context);
      const double prefill_rps = w.input_tokens > 0 ? ev.prefill_tokens_s / w.input_tokens : 0;
      std::string note = std::string(b.t("output ", "输出 ")) + num(c.output_tps) + b.t(" tokens/s, ", " tokens/s，") + num(c.lambda * 60) +
                         b.t(" requests/min", " 请求/分钟");
      if (s.slo.concurrent_sessions > held)
        note += std::string(b.t("; more sessions than the KV pool holds at the running context (", "；超过运行上下文下 KV 池可容纳的会话数（")) + num(held) + b.t(")", "）");
      else if (c.lambda > prefill_rps * (1 + 1e-9))
        note += std::string(b.t("; more than the prefill capacity (", "；超过 prefill 能力（")) + num(prefill_rps * 60) + b.t(" requests/min)", " 请求/分钟）");
      sec.row("at_concurrency", std::string(b.t("With ", "始终保持 ")) + num(s.slo.concurrent_sessions) + b.t(" sessions always in flight: TPOT", " 个会话在途时的 TPOT"),
              ms(c.tpot_s), "", 0, note);
    }
  }

  // ------------------------------------------------------------------ TTFT
  {
    Section& sec = r.add_section("ttft", b.t("Time to first token", "首 token 延迟（TTFT）"));
    sec.row("rate", b.t("Arrival rate", "到达率"), Value::fixed(ev.lambda_load, 2, b.t("requests/s", "请求/秒")));
    if (ev.ttft.simulated > 0 && ev.ttft.stable) {
      sec.row("p50", "TTFT P50", ms(ev.ttft.p50, 0));
      sec.row("p90", "TTFT P90", ms(ev.ttft.p90, 0));
      sec.row("p99", "TTFT P99", ms(ev.ttft.p99, 0));
      sec.row("mean", b.t("TTFT mean", "TTFT 均值"), ms(ev.ttft.mean, 0));
      sec.row("wait", b.t("queueing (mean)", "排队（均值）"), ms(ev.ttft.mean_wait, 0), "", 1);
      sec.row("prefill", b.t("prefill (mean)", "prefill（均值）"), ms(ev.ttft.mean_prefill, 0), "", 1);
      if (ev.disaggregated()) sec.row("kvx", b.t("KV transfer (mean request)", "KV 传输（平均请求）"), ms(ev.kv_transfer_s, 1), "", 1);
      sec.row("first", b.t("first decode step", "首个 decode 步"), ms(ev.first_decode_s, 1), "", 1);
      sec.row("util", b.t("Prefill server utilisation", "Prefill 服务利用率"), Value::percent(ev.ttft.utilization, 1));
    } else {
      sec.row("unstable", b.t("TTFT", "TTFT"), Value::str(b.t("unbounded: arrivals exceed what the deployment serves", "无界：到达率超过部署处理能力")));
    }
    sec.text(b.t("Method: discrete-event simulation of Poisson arrivals with input lengths drawn from the maximum-entropy distribution with the workload's mean and maximum; FIFO chunked prefill passes; TTFT = queueing + prefill + KV transfer + first decode step.",
                 "方法：离散事件仿真，泊松到达，输入长度取满足均值与最大值的最大熵分布；先到先服务的分块 prefill；TTFT = 排队 + prefill + KV 传输 + 首个 decode 步。"));
    // Chart: TTFT percentiles vs arrival rate.
    if (ev.lambda_max > 0 && pre.plan.fits()) {
      Chart c;
      c.id = "ttft_vs_rate";
      c.title = b.t("TTFT percentiles vs arrival rate", "TTFT 分位数随到达率变化");
      c.kind = "line";
      c.x_label = b.t("arrival rate", "到达率");
      c.x_unit = "requests/s";
      c.y_label = "TTFT";
      c.y_unit = "ms";
      Series p50{"P50", {}}, p90{"P90", {}}, p99{"P99", {}};
      for (double f : {0.1, 0.25, 0.4, 0.55, 0.7, 0.8, 0.9, 0.95}) {
        Scenario v = s;
        v.workload.arrival_qpm = f * ev.lambda_max * 60;
        EvalOptions o = eo;
        o.ttft_requests = 600;
        const Evaluation e2 = evaluate_scenario(v, o);
        if (!e2.ttft.stable || e2.ttft.simulated == 0) continue;
        const double x = v.workload.arrival_qpm / 60;
        p50.points.push_back({x, e2.ttft.p50 * 1e3});
        p90.points.push_back({x, e2.ttft.p90 * 1e3});
        p99.points.push_back({x, e2.ttft.p99 * 1e3});
      }
      c.series = {p50, p90, p99};
      if (s.slo.ttft_p50_ms > 0) c.markers.push_back(Marker{"y", s.slo.ttft_p50_ms, b.t("TTFT P50 target", "TTFT P50 目标")});
      if (ev.lambda_load > 0) c.markers.push_back(Marker{"x", ev.lambda_load, b.t("workload", "负载")});
      sec.chart(c);
    }
  }

  // ------------------------------------------------------------------ calibration
  if (ref.present && ref.measured_tokens_per_s > 0) {
    Section& sec = r.add_section("calibration", b.t("Reference measurement and calibration", "参考实测与校准"));
    sec.row("ref", b.t("Reference", "参考"), Value::str(ref.name.empty() ? ref.id : ref.name));
    sec.row("ref_gpus", b.t("Reference deployment", "参考部署"), Value::str(std::to_string(ref.gpus()) + " x " + ref.gpu.name + ", " + ref.precision.scheme_name()));
    sec.row("ref_measured", std::string(b.t("Measured (", "实测（")) + kind_label(b, ref.measured_kind) + ")", tps(ref.measured_tokens_per_s));
    sec.row("ref_predicted", std::string(b.t("Predicted by this estimator at TPOT <= ", "本估算器预测（TPOT <= ")) + num(ref.tpot_limit_ms) + " ms" + b.t("", "）"), tps(ref_pred), "", 0,
            limit_label(b, ev_ref.lambda_limit));
    sec.row("implied", b.t("Implied efficiency (measured / predicted)", "隐含效率（实测 / 预测）"), Value::percent(implied, 1));
    sec.row("calibrated", b.t("Target projected with it", "按此效率投射目标"), Value::str(calibrated ? b.t("yes: every time in this report is scaled by predicted / measured", "是：本报告所有时间均乘以 预测 / 实测")
                                                                                                       : b.t("no (set reference.calibrate to project the target with the implied efficiency)", "否（设置 reference.calibrate 以按隐含效率投射）")));
    if (calibrated && ref.gpu_id != s.gpu_id)
      r.warnings.push_back(b.t("The reference ran on a different GPU: its implied efficiency transfers only approximately.", "参考实测使用了不同的 GPU：其隐含效率只能近似迁移。"));
  }

  // ------------------------------------------------------------------ recommendations
  {
    Section& sec = r.add_section("recommendations", b.t("Recommendations", "优化建议"));
    const Candidate best = smallest_cluster(s, eo.time_scale);
    if (tc.all()) sec.bullet(b.t("The deployment as specified meets every target.", "当前部署满足全部目标。"));
    if (best.found) {
      sec.row("smallest", b.t("Smallest cluster meeting every target", "满足全部目标的最小集群"),
              Value::str(std::to_string(best.nodes) + " x " + std::to_string(s.gpus_per_node) + " = " + std::to_string(best.nodes * s.gpus_per_node) + b.t(" GPUs", " 卡")), "", 0, layout_desc(b, best.deployment));
      sec.row("smallest_capacity", b.t("its throughput capacity", "其吞吐能力"), tps(best.eval.capacity_in_target_kind()), "", 1);
      sec.row("smallest_sessions", b.t("its concurrent sessions", "其并发会话"), count(best.eval.sessions_target_ctx), "", 1);
      if (best.eval.ttft.stable) sec.row("smallest_ttft", b.t("its TTFT P50", "其 TTFT P50"), ms(best.eval.ttft.p50, 0), "", 1);
    } else {
      sec.row("smallest", b.t("Smallest cluster meeting every target", "满足全部目标的最小集群"),
              Value::str(b.t("none found", "未找到")), "", 0,
              std::to_string(best.evaluated) + b.t(" layouts tried up to ", " 种布局，最多 ") + std::to_string(std::min(64, std::max(16, 4 * s.nodes))) +
                  b.t(" nodes; relax a target or change precision/GPU", " 节点；请放宽目标或更换精度/GPU"));
    }
    Table t;
    t.id = "sensitivity";
    t.title = b.t("What changes the verdicts (same GPUs)", "影响结论的因素（相同 GPU）");
    t.columns = {b.t("change", "改动"), b.t("sessions", "会话数"), b.t("throughput", "吞吐"), b.t("TPOT at load", "负载 TPOT"), b.t("TTFT P50", "TTFT P50"),
                 b.t("targets met", "达成目标")};
    const TargetCheck base = tc;
    for (const Variant& v : sensitivity_variants(s)) {
      EvalOptions o = eo;
      o.ttft_requests = 1000;
      const Evaluation e2 = v.id == "as-is" ? ev : evaluate_scenario(v.scenario, o);
      const TargetCheck c2 = check_targets(e2);
      t.rows.push_back({Value::str(lang == Lang::Zh ? v.label_zh : v.label_en), count(e2.sessions_target_ctx), tps(e2.capacity_in_target_kind()),
                        e2.load_sustainable ? ms(e2.op_load.tpot_s) : Value::str(b.t("overloaded", "过载")),
                        e2.ttft.stable && e2.ttft.simulated > 0 ? ms(e2.ttft.p50, 0) : Value::str(b.t("unbounded", "无界")),
                        Value::str(std::to_string(c2.met()) + " / 6")});
      const std::string name = lang == Lang::Zh ? v.label_zh : v.label_en;
      if (v.id == "as-is") continue;
      if (c2.met() > base.met())
        sec.bullet(name + b.t(": meets ", "：达成 ") + std::to_string(c2.met()) + b.t(" of 6 targets (now ", "/6 项目标（当前 ") + std::to_string(base.met()) + b.t(").", "）。"));
      const double cap0 = ev.capacity_in_target_kind(), cap1 = e2.capacity_in_target_kind();
      if (cap0 > 0 && cap1 > cap0 * 1.05)
        sec.bullet(name + b.t(": throughput capacity ", "：吞吐能力 ") + num(cap0) + " -> " + num(cap1) + " tokens/s (" + signed_num((cap1 / cap0 - 1) * 100, 0) + "%).");
      if (ev.sessions_target_ctx > 0 && e2.sessions_target_ctx > ev.sessions_target_ctx * 1.05 && s.slo.concurrent_sessions > 0 && !base.concurrency)
        sec.bullet(name + b.t(": concurrent sessions ", "：并发会话 ") + num(ev.sessions_target_ctx) + " -> " + num(e2.sessions_target_ctx) + ".");
    }
    sec.table(t);
  }

  // ------------------------------------------------------------------ seed vs corrected
  {
    const SeedFigures sf = seed_figures(s);
    Section& sec = r.add_section("seed_vs_corrected", b.t("Seed method vs corrected", "种子方法 vs 修正方法"));
    Table t;
    t.id = "seed_vs_corrected";
    t.columns = {b.t("figure", "指标"), b.t("seed", "种子"), b.t("corrected", "修正"), b.t("why they differ", "差异原因")};
    const MemoryPlan& dp = dec.plan;
    t.rows.push_back({Value::str(b.t("weights per GPU", "单卡权重显存")), Value::fixed(sf.per_gpu_memory_gb, 1, "GB"), gb(dp.weights.total()),
                      Value::str(std::string(b.t("seed: 2 B/param, 4d^2 attention, 2-matrix experts, x1.48 scale; corrected: ", "种子：2 B/参数、4d² 注意力、双矩阵专家、整体 x1.48；修正：")) +
                                 dtype_label(s.precision.weights) + b.t(" weights, exact MLA/expert shapes, BF16 embedding/head/router", " 权重、精确 MLA/专家形状、嵌入/输出头/路由器 BF16"))});
    t.rows.push_back({Value::str(b.t("KV bytes per token", "每 token KV 字节")), count(sf.kv_cache_per_token_bytes, "B"), count(kv_bytes_per_token(m, s.precision.kv_cache, 1), "B"),
                      Value::str(b.t("seed: 2 (K and V) x d_c; MLA caches one latent of kv_lora_rank + rope", "种子：2（K 与 V）x d_c；MLA 只缓存 kv_lora_rank + rope 的潜变量"))});
    t.rows.push_back({Value::str(b.t("KV per GPU for the concurrency target", "并发目标所需的单卡 KV")), Value::fixed(sf.per_gpu_kv_cache_gb, 1, "GB"),
                      gb(s.slo.concurrent_sessions * ev.session_bytes_target_ctx / std::max(1, dp.dp)),
                      Value::str(b.t("seed: every GPU holds all sessions; with DP attention each group holds its own (total / DP)", "种子：每卡持有全部会话；DP 注意力下每组只持有自己的会话（总量 / DP）"))});
    t.rows.push_back({Value::str(b.t("memory left for KV per GPU", "单卡可用于 KV 的显存")), Value::fixed(sf.available_memory_gb, 1, "GB"), gb(dp.kv_pool),
                      Value::str(b.t("seed: fixed 4 + 2 GB reserves and BF16 weights; corrected: memory fraction and reserves sized from the batch", "种子：固定 4 + 2 GB 预留与 BF16 权重；修正：显存比例与按批大小计算的预留"))});
    t.rows.push_back({Value::str(std::string(b.t("sessions at 32K", "32K 会话数"))), count(sf.max_concurrent_32k), count(ev.sessions_32k),
                      Value::str(b.t("seed: one GPU's figure compared with a cluster target; corrected: summed over DP groups", "种子：用单卡数值对比集群目标；修正：按 DP 组求和"))});
    t.rows.push_back({Value::str(b.t("throughput", "吞吐量")), tps(sf.actual_expected), tps(ev.capacity_in_target_kind()),
                      Value::str(b.t("seed: 31,600 x sessions / 200; corrected: decode batch bounded by KV and TPOT, prefill capacity", "种子：31,600 x 会话数 / 200；修正：受 KV 与 TPOT 约束的 decode 批与 prefill 能力"))});
    t.rows.push_back({Value::str(b.t("TTFT", "TTFT")), Value::fixed(sf.total_ttft_ms, 1, "ms"),
                      ev.ttft.stable && ev.ttft.simulated > 0 ? ms(ev.ttft.p50, 0) : Value::str(b.t("unbounded", "无界")),
                      Value::str(b.t("seed: whole prefill on one GPU at 1 FLOP/MAC + 8 ms; corrected: prefill pool, 2 FLOPs/MAC, quadratic attention, queueing (P50)", "种子：整段 prefill 在单卡、每乘加 1 FLOP + 8 ms；修正：prefill 池、每乘加 2 FLOP、二次注意力、排队（P50）"))});
    t.rows.push_back({Value::str(b.t("benchmark figure used", "基准数值的含义")), tps(ref.measured_tokens_per_s), Value::str(b.t("input + output", "输入 + 输出")),
                      Value::str(b.t("212 QPM x (3,584 + 1,228) / 60 = 17.0k: the 15,800 tokens/s counts input and output", "212 QPM x (3,584 + 1,228) / 60 = 17.0k：15,800 tokens/s 包含输入与输出"))});
    sec.table(t);
  }

  // ------------------------------------------------------------------ method notes
  {
    Section& sec = r.add_section("method", b.t("How these numbers are computed", "计算方法"));
    sec.bullet(b.t("Each operation costs max(bytes / achieved HBM bandwidth, FLOPs / achieved peak); EP dispatch/combine over NVLink and RDMA with per-layer latency; two-batch overlap hides part of the communication.",
                   "每个算子耗时 = max(字节 / 实际显存带宽, FLOPs / 实际峰值)；EP dispatch/combine 按 NVLink 与 RDMA 带宽及每层延迟计算；两批重叠掩盖部分通信。"));
    sec.bullet(std::string(b.t("Efficiency factors of ", "效率系数：")) + s.gpu.name + ": GEMM " + num(s.gpu.eff.gemm * 100, 0) + "%, attention " + num(s.gpu.eff.attention * 100, 0) +
               "%, HBM " + num(s.gpu.eff.hbm * 100, 0) + "%, RDMA " + num(s.gpu.eff.rdma * 100, 0) + "%, NVLink " + num(s.gpu.eff.nvlink * 100, 0) + "%" +
               (s.gpu.calibrated_on.empty() ? std::string(b.t(" (no published measurement for this GPU: family defaults)", "（该 GPU 无公开实测：使用同族默认值）"))
                                            : std::string(b.t(" (fitted on ", "（拟合自 ")) + std::to_string(s.gpu.calibrated_on.size()) +
                                                  (s.gpu.calibrated_on.size() == 1 ? b.t(" published measurement)", " 个公开实测）") : b.t(" published measurements)", " 个公开实测）"))));
    if (s.gpu.calibrated_on.empty())
      r.warnings.push_back(std::string(s.gpu.name) + b.t(": no published measurement in the calibration set; expect larger errors.", "：校准集中没有公开实测，误差可能更大。"));
    if (!ev.load_sustainable && ev.lambda_load > 0)
      r.warnings.push_back(b.t("The workload's load exceeds the deployment's capacity: TTFT grows without bound.", "负载超过部署能力：TTFT 将无限增长。"));
    sec.bullet(std::string(b.t("Serving engine profile: ", "推理引擎配置：")) + s.deployment.engine.name +
               (s.deployment.engine_version.empty() ? "" : " " + s.deployment.engine_version) + " (" + s.deployment.engine.memory_flag + ")");
  }
  const FigureBands bands = figure_bands(ev);
  attach_bands(r, bands);
  add_load_section(r, ev, bands);

  r.appendices.push_back(seed_report(s_in, lang));
  return r;
}

}  // namespace slo
