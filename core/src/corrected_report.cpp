// The corrected method's report: verdicts with margins, bottlenecks, every section with units,
// charts' data, recommendations and the seed-vs-corrected table. Labels in English and Chinese.
// The report stage: it formats an Analysis (analysis.hpp) and runs no physics; one builder per section.
#include "slo/corrected_report.hpp"

#include <algorithm>
#include <cmath>

#include "report_common.hpp"
#include "slo/band_format.hpp"
#include "slo/report_load.hpp"
#include "slo/seed_method.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

namespace rpt {

// Why a deployment that fits in memory serves no request within the targets.
std::string no_capacity_reason(const Ctx& c) {
  const B& b = c.b;
  if (!c.ev.tpot_feasible && c.a.tpot_batch1_s > 0)
    return std::string(b.t("even one sequence per GPU exceeds the TPOT target: TPOT at batch 1 is ", "即使每卡 1 个序列也超过 TPOT 目标：batch 1 的 TPOT 为 ")) +
           b.num(c.a.tpot_batch1_s * 1e3, 1) + " ms";
  return std::string(b.t("the deployment serves no request within the targets; bounded by ", "部署在目标内无法服务任何请求；受限于")) + limit_label(b, c.ev.lambda_limit);
}

void add_verdicts(Report& r, const Ctx& c) {
  const B& b = c.b;
  const Evaluation& ev = c.ev;
  const Scenario& s = c.s;
  const Workload& w = c.w;
  const TargetCheck& tc = c.tc;
  const bool fits = c.fits;
  const double worst_free = c.worst_free;
  const std::string& fit_detail = c.fit_detail;
  // The load exceeds what the deployment serves: say by how much (requests/min).
  const std::string overload = std::string(b.t("the load (", "负载（")) + b.num(ev.lambda_load * 60) + b.t(" requests/min) exceeds the capacity (", " 请求/分钟）超过能力（") +
                               b.num(ev.lambda_max * 60) + b.t(" requests/min)", " 请求/分钟）");
  // Every other verdict fails while a pool does not fit; say so instead of a misleading cause.
  const std::string unfit = std::string(b.t("fails: the ", "不达标：")) + fit_detail + b.t(" does not fit in GPU memory", "显存放不下");
  auto why = [&](const std::string& detail) { return fits ? detail : unfit; };
  r.verdicts.push_back(verdict("memory", b.t("Memory fits (weights + reserves per GPU)", "显存可行（每卡权重 + 预留）"), fits,
                               Value::str(fits ? b.t("fits", "可放下") : b.t("does not fit", "放不下")), Value::str(""),
                               b.fixed(worst_free / 1e9, 1, "GB"),
                               fits ? std::string(b.t("KV pool left on the tightest pool: ", "最紧张的池剩余 KV 空间：")) + fit_detail
                                    : std::string(b.t("short by this much on the ", "缺口所在：")) + fit_detail));
  if (s.slo.concurrent_sessions > 0)
    r.verdicts.push_back(verdict("concurrency",
                                 std::string(b.t("Concurrent sessions at ", "并发会话数 @ ")) + b.num(w.context_length) + b.t(" tokens", " tokens"),
                                 tc.concurrency, b.count(ev.sessions_target_ctx, b.t("sessions", "会话")),
                                 b.count(s.slo.concurrent_sessions, b.t("sessions", "会话")),
                                 margin(ev.sessions_target_ctx, s.slo.concurrent_sessions, 0, b.t("sessions", "会话"), true),
                                 why(b.t("KV capacity of the decode side (every DP group holds its own sessions)", "Decode 侧 KV 容量（每个 DP 组各自持有其会话）"))));
  if (s.slo.throughput_tokens_per_s > 0)
    r.verdicts.push_back(verdict("throughput", std::string(b.t("Throughput (", "吞吐量（")) + kind_label(b, s.slo.throughput_kind) + b.t(" tokens/s)", " tokens/s）"),
                                 tc.throughput, b.tps(ev.capacity_in_target_kind()), b.tps(s.slo.throughput_tokens_per_s),
                                 margin(ev.capacity_in_target_kind(), s.slo.throughput_tokens_per_s, 0, "tokens/s", true),
                                 why(std::string(b.t("capacity at the TPOT limit; bounded by ", "TPOT 限制下的最大能力；受限于")) + limit_label(b, ev.lambda_limit))));
  if (s.slo.tpot_ms > 0) {
    Value value = ev.load_sustainable ? b.ms(ev.op_load.tpot_s)
                  : fits             ? Value::str(b.t("unbounded (overloaded)", "无界（过载）"))
                                     : Value::str(b.t("not served", "无法服务"));
    std::string detail = ev.load_sustainable || ev.lambda_load <= 0 ? std::string(b.t("decode step bound by ", "Decode 单步瓶颈：")) + bottleneck_label(b, ev.op_load.step.bottleneck)
                                                                    : overload + b.t("; at capacity TPOT is ", "；满载时 TPOT 为 ") + b.num(ev.op_max.tpot_s * 1e3, 1) + " ms";
    if (fits && ev.lambda_max <= 0) {
      // No request is served within the targets: no decode step, so no bottleneck to name.
      value = Value::str(b.t("no capacity", "无服务能力"));
      detail = no_capacity_reason(c);
    }
    r.verdicts.push_back(verdict("tpot", b.t("TPOT at the workload's load", "负载下的 TPOT"), tc.tpot, value, b.fixed(s.slo.tpot_ms, 1, "ms"),
                                 ev.load_sustainable ? margin(ev.op_load.tpot_s * 1e3, s.slo.tpot_ms, 1, "ms", false) : Value::str(""), why(detail)));
  }
  auto ttft_value = [&](double x) {
    return ev.ttft.stable && ev.ttft.simulated > 0 ? b.ms(x, 0)
           : fits                                  ? Value::str(b.t("unbounded (queue grows)", "无界（队列持续增长）"))
                                                   : Value::str(b.t("not served", "无法服务"));
  };
  if (s.slo.ttft_p50_ms > 0)
    r.verdicts.push_back(verdict("ttft_p50", b.t("TTFT P50 at the workload's load", "负载下的 TTFT P50"), tc.ttft_p50, ttft_value(ev.ttft.p50),
                                 b.fixed(s.slo.ttft_p50_ms, 0, "ms"),
                                 ev.ttft.stable ? margin(ev.ttft.p50 * 1e3, s.slo.ttft_p50_ms, 0, "ms", false) : Value::str(""),
                                 why(ev.ttft.stable ? std::string("P99 ") + b.num(ev.ttft.p99 * 1e3) + " ms"
                                     : !ev.load_sustainable && ev.lambda_load > 0 ? overload
                                                                                  : std::string(b.t("arrivals exceed the prefill capacity", "到达率超过 prefill 能力")))));
  if (s.slo.ttft_p99_ms > 0)
    r.verdicts.push_back(verdict("ttft_p99", b.t("TTFT P99 at the workload's load", "负载下的 TTFT P99"), tc.ttft_p99, ttft_value(ev.ttft.p99),
                                 b.fixed(s.slo.ttft_p99_ms, 0, "ms"),
                                 ev.ttft.stable ? margin(ev.ttft.p99 * 1e3, s.slo.ttft_p99_ms, 0, "ms", false) : Value::str(""), why("")));
}

// One line above the verdicts (issue 12): how many targets are met, the largest miss relative to its
// target, and the smallest cluster meeting every target (the page offers to apply it).
void add_headline(Report& r, const Ctx& c) {
  const B& b = c.b;
  const TargetCheck& tc = c.tc;
  std::string h = tc.all() ? std::string(b.t("Meets every target (", "满足全部目标（")) + std::to_string(tc.set()) + b.t(").", " 项）。")
                           : std::string(b.t("Meets ", "达成 ")) + std::to_string(tc.met()) + b.t(" of ", " / ") + std::to_string(tc.set()) +
                                 b.t(" targets.", " 项目标。");
  const Verdict* worst = nullptr;
  double worst_pct = 0;
  int failing = 0;
  for (const Verdict& v : r.verdicts) {
    if (v.status != Status::Fail) continue;
    ++failing;
    if (!worst) worst = &v;
    if (v.margin.number && v.target.number && *v.target.number > 0) {
      const double pct = -*v.margin.number / *v.target.number * 100;
      if (pct > worst_pct) worst = &v, worst_pct = pct;
    }
  }
  const std::string sp = b.t(" ", "");  // sentences join with a space in English, none in Chinese
  if (worst) {
    const bool upper = worst->id == "tpot" || worst->id.rfind("ttft", 0) == 0;  // a limit, not a floor
    h += sp + worst->label +
         (worst_pct > 0 ? (upper ? b.t(": over its limit by ", "：超出上限 ") : b.t(": short by ", "：差 ")) + b.num(worst_pct, 0) + "%" + b.t(" (", "（") +
                              worst->value.text + b.t(" against ", "，目标 ") + worst->target.text + b.t(").", "）。")
                        : b.t(": ", "：") + worst->value.text + b.t(".", "。"));
    if (failing > 1) h += sp + std::to_string(failing - 1) + b.t(failing == 2 ? " more target missed." : " more targets missed.", " 项其他目标未达成。");
  }
  const Candidate& best = c.a.smallest;
  if (!tc.all() && best.found) {
    const Deployment& d = best.deployment;
    h += sp + b.t("Smallest cluster meeting every target: ", "满足全部目标的最小集群：") + std::to_string(best.nodes) + " x " +
         std::to_string(c.s.gpus_per_node) + " " + c.s.gpu.name +
         (d.disaggregated ? b.t(", ", "，") + std::to_string(d.prefill.gpus) + "P:" + std::to_string(d.decode.gpus) + "D" : std::string(b.t(", colocated", "，混合部署"))) +
         b.t(".", "。");
  } else if (!tc.all()) {
    h += sp + b.t("No cluster in the range searched meets every target.", "搜索范围内没有集群能满足全部目标。");
  }
  r.headline = h;
}

void add_bottlenecks(Report& r, const Ctx& c) {
  const B& b = c.b;
  const Analysis& a = c.a;
  const Evaluation& ev = c.ev;
  const Scenario& s = c.s;
  const Workload& w = c.w;
  const PoolEval& dec = c.dec;
  const PoolEval& pre = c.pre;
  const TargetCheck& tc = c.tc;
  r.bottlenecks.push_back(std::string(b.t("System capacity: ", "系统能力：")) + b.num(ev.lambda_max * 60, 0) + b.t(" requests/min, bounded by ", " 请求/分钟，受限于") +
                          limit_label(b, ev.lambda_limit) + ".");
  if (dec.plan.fits() && ev.op_max.in_flight > 0)
    r.bottlenecks.push_back(std::string(b.t("Decode step (", "Decode 单步（")) + b.num(ev.op_max.in_flight / dec.pool.cfg.attention_tp, 0) +
                            b.t(" sequences per GPU): ", " 序列/卡）：") + bottleneck_label(b, ev.op_max.step.bottleneck) + ", " +
                            b.num(ev.op_max.step.total * 1e3, 1) + " ms.");
  if (!ev.disaggregated() && dec.plan.fits() && ev.op_max.in_flight > 0) {
    const double work = a.colocated_prefill_work;
    if (ev.op_max.prefill_share > 1.5 * work && ev.op_max.prefill_share > 0.1)
      r.bottlenecks.push_back(std::string(b.t("Prefill interference (colocated): ", "Prefill 干扰（混合部署）：")) + b.num(ev.op_max.prefill_share * 100, 1) +
                              b.t("% of GPU time goes to prefill at capacity, of which ", "% 的 GPU 时间用于 prefill，其中 prefill 计算仅占 ") + b.num(work * 100, 1) +
                              b.t("% is prefill work; the rest is DP-attention ranks waiting for each other's prefill chunks (a P:D split removes it).",
                                  "%；其余为 DP 注意力各 rank 互相等待 prefill 分块（PD 分离可消除）。"));
  }
  if (pre.plan.fits())
    r.bottlenecks.push_back(std::string(b.t("Prefill pass (", "Prefill 前向（")) + b.num(s.deployment.chunked_prefill_tokens) + b.t(" tokens per DP group): ", " tokens/DP 组）：") +
                            bottleneck_label(b, ev.prefill_step.bottleneck) + ", " + b.num(ev.prefill_step.total * 1e3, 0) + " ms.");
  if (s.slo.concurrent_sessions > 0 && !tc.concurrency)
    r.bottlenecks.push_back(std::string(b.t("KV memory: one session of ", "KV 显存：一个 ")) + b.num(w.context_length) + b.t(" tokens takes ", " tokens 的会话占用 ") +
                            b.num(ev.session_bytes_target_ctx / 1e9, 2) + b.t(" GB per GPU of its DP group.", " GB（其 DP 组内每卡）。"));
}

}  // namespace rpt

Report corrected_report(const Analysis& a, Lang lang) {
  using namespace rpt;
  const Ctx c(a, lang);
  Report r;
  r.method = "corrected";
  r.lang = lang;
  r.title = display_name(a.input, lang) + c.b.t(" — SLO report", " — SLO 评估报告");
  add_verdicts(r, c);
  add_headline(r, c);
  add_bottlenecks(r, c);
  add_scenario(r, c);
  add_parameters(r, c);
  add_memory(r, c);
  add_kv_cache(r, c);
  add_prefill(r, c);
  add_decode(r, c);
  add_throughput(r, c);
  add_cost(r, c);
  add_ttft(r, c);
  add_calibration(r, c);
  add_recommendations(r, c);
  add_seed_vs_corrected(r, c);
  add_method(r, c);
  attach_bands(r, a.bands);
  add_load_section(r, a.ev, a.bands);
  add_seed_appendix(r, c);
  return r;
}

Report corrected_report(const Scenario& s, Lang lang) { return corrected_report(analyse(s), lang); }

}  // namespace slo

SLO_SIZE_END
