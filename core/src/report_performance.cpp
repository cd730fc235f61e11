// Report stage: the decode, throughput, TTFT and calibration sections (formatting only).
#include <algorithm>
#include <cmath>

#include "report_common.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo::rpt {

void add_decode(Report& r, const Ctx& c) {
  const B& b = c.b;
  const Analysis& a = c.a;
  const Evaluation& ev = c.ev;
  const Scenario& s = c.s;
  const PoolEval& dec = c.dec;
  {
    Section& sec = r.add_section("decode", b.t("Decode operating point", "Decode 工作点"));
    const DecodePoint& op = ev.op_max;
    const double per_gpu_batch = op.in_flight / dec.pool.cfg.attention_tp;
    if (!dec.plan.fits() || op.in_flight <= 0) {
      const bool unfit_pool = !dec.plan.fits();
      sec.row("batch", b.t("Sequences per GPU at capacity", "满载时每卡序列数"), b.count(0), "", 0,
              unfit_pool ? std::string(b.t("the pool does not fit in GPU memory: short by ", "该池显存放不下：缺口 ")) + b.num(dec.plan.shortfall / 1e9, 2) + " GB"
              : !ev.tpot_feasible ? std::string(b.t("even one sequence per GPU exceeds the TPOT target: TPOT at batch 1 is ", "即使每卡 1 个序列也超过 TPOT 目标：batch 1 的 TPOT 为 ")) +
                                       b.num(a.tpot_batch1_s * 1e3, 1) + " ms"
                                  : std::string(b.t("no session of the running context fits in the KV pool", "KV 缓存池放不下一个运行中的会话")));
    } else {
    const std::string batch_limit = ev.lambda_limit == "infeasible" && !op.limit.empty()
                                        ? limit_label(b, "decode-" + op.limit) + b.t(" (this pool alone; the system does not fit)", "（仅此池；系统整体放不下）")
                                        : limit_label(b, ev.lambda_limit);
    sec.row("batch", b.t("Sequences per GPU at capacity", "满载时每卡序列数"), b.count(per_gpu_batch), "", 0, batch_limit);
    sec.row("context", b.t("Mean context of a decoding sequence", "解码序列平均上下文"), b.count(op.context, "tokens"));
    sec.row("tokens_per_step", b.t("Tokens per step per sequence (MTP)", "每步每序列 token 数（MTP）"), b.fixed(op.tokens_per_step, 2));
    sec.row("tpot_capacity", b.t("TPOT at capacity", "满载 TPOT"), b.ms(op.tpot_s, 1));
    if (!ev.disaggregated()) {
      const double work = a.colocated_prefill_work;
      sec.row("prefill_share", b.t("GPU time spent on prefill (colocated)", "用于 prefill 的 GPU 时间（混合部署）"), b.percent(op.prefill_share, 1), "", 0,
              op.prefill_share > work * 1.001
                  ? std::string(b.t("prefill work ", "prefill 计算 ")) + b.num(work * 100, 1) +
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
    sr.points = a.decode_curve;
    c.series.push_back(sr);
    if (s.slo.tpot_ms > 0) c.markers.push_back(Marker{"x", s.slo.tpot_ms, b.t("TPOT limit", "TPOT 上限")});
    sec.chart(c);
    }
  }
}

void add_throughput(Report& r, const Ctx& c) {
  const B& b = c.b;
  const Analysis& a = c.a;
  const Evaluation& ev = c.ev;
  const Scenario& s = c.s;
  const Workload& w = c.w;
  const PoolEval& dec = c.dec;
  const int total_gpus = c.total_gpus;
  {
    Section& sec = r.add_section("throughput", b.t("Throughput", "吞吐量"));
    Table t;
    t.id = "throughput";
    t.title = b.t("Capacity at the TPOT limit", "TPOT 限制下的最大吞吐");
    t.columns = {b.t("tokens/s", "tokens/s"), b.t("cluster", "集群"), b.t("per GPU", "每卡"), b.t("per decode GPU", "每 decode 卡")};
    auto row = [&](const char* en, const char* zh, double x) {
      t.rows.push_back({Value::str(b.t(en, zh)), b.tps(x), b.tps(x / total_gpus), b.tps(x / dec.pool.cfg.gpus)});
    };
    row("input", "输入", ev.input_tps_max);
    row("output", "输出", ev.output_tps_max);
    row("total", "合计", ev.total_tps_max);
    sec.table(t);
    sec.row("requests", b.t("Requests", "请求数"), b.fixed(ev.lambda_max * 60, 1, b.t("requests/min", "请求/分钟"), true));
    sec.row("limit", b.t("Bounded by", "受限于"), Value::str(limit_label(b, ev.lambda_limit)));
    sec.row("per_user", b.t("Output tokens/s per user at capacity", "满载时每用户输出 tokens/s"), b.fixed(ev.op_max.tpot_s > 0 ? 1.0 / ev.op_max.tpot_s : 0, 1, "tokens/s"));
    if (ev.load_sustainable && ev.lambda_load > 0) {
      sec.row("at_load", b.t("At the workload's load: total tokens/s", "负载下合计 tokens/s"), b.tps(ev.lambda_load * (w.input_tokens + w.output_tokens)));
      sec.row("at_load_tpot", b.t("At the workload's load: TPOT", "负载下 TPOT"), b.ms(ev.op_load.tpot_s), "", 0,
              b.num(ev.op_load.in_flight / dec.pool.cfg.attention_tp, 1) + b.t(" sequences per GPU (Little's law)", " 序列/卡（Little 定律）"));
    }
    // Little's law consistency of the targets.
    if (s.slo.concurrent_sessions > 0 && s.slo.throughput_tokens_per_s > 0 && s.slo.tpot_ms > 0) {
      const double needed = a.littles_sessions;
      sec.row("littles_law", b.t("Sessions decoding at once to deliver the throughput target at the TPOT limit", "在 TPOT 上限下达成吞吐目标所需的同时解码会话数"),
              b.count(needed, b.t("sessions", "会话")), "", 0,
              needed > s.slo.concurrent_sessions
                  ? std::string(b.t("more than the concurrency target: the throughput target implies more sessions than ", "多于并发目标：吞吐目标隐含的会话数超过 ")) + b.num(s.slo.concurrent_sessions)
                  : b.t("within the concurrency target", "不超过并发目标"));
    }
    // The concurrency target as a benchmark client sees it: that many sessions always in flight.
    if (a.at_concurrency) {
      const LoadResult& c = a.at_concurrency->loop;
      const double held = a.at_concurrency->held_sessions;
      const double prefill_rps = a.at_concurrency->prefill_rps;
      std::string note = std::string(b.t("output ", "输出 ")) + b.num(c.output_tps) + b.t(" tokens/s, ", " tokens/s，") + b.num(c.lambda * 60) +
                         b.t(" requests/min", " 请求/分钟");
      if (s.slo.concurrent_sessions > held)
        note += std::string(b.t("; more sessions than the KV pool holds at the running context (", "；超过运行上下文下 KV 池可容纳的会话数（")) + b.num(held) + b.t(")", "）");
      else if (c.lambda > prefill_rps * (1 + 1e-9))
        note += std::string(b.t("; more than the prefill capacity (", "；超过 prefill 能力（")) + b.num(prefill_rps * 60) + b.t(" requests/min)", " 请求/分钟）");
      sec.row("at_concurrency", std::string(b.t("With ", "始终保持 ")) + b.num(s.slo.concurrent_sessions) + b.t(" sessions always in flight: TPOT", " 个会话在途时的 TPOT"),
              b.ms(c.tpot_s), "", 0, note);
    }
  }
}

// Cost at capacity (a stated price per GPU-hour): USD per million input, output and all tokens.
void add_cost(Report& r, const Ctx& c) {
  const B& b = c.b;
  const CostFigures& k = c.a.cost;
  if (!k.stated) return;
  Section& sec = r.add_section("cost", b.t("Cost at capacity", "满载成本"));
  auto usd = [&](double x, const char* unit) { return x > 0 ? b.fixed(x, x < 10 ? 3 : 2, unit, true) : Value::str(b.t("no capacity", "无服务能力")); };
  sec.row("cluster_per_hour", b.t("Cluster, per hour", "集群每小时"), b.fixed(k.cluster_per_hour, 2, "USD/h", true), "", 0,
          b.num(c.s.gpu_hour_usd, 2) + b.t(" USD per GPU-hour x ", " 美元/卡时 x ") + std::to_string(c.s.cluster_gpus()) + " GPU");
  sec.row("per_million_input", b.t("Per million input tokens", "每百万输入 tokens"), usd(k.per_million_input, "USD/M tokens"), "", 0,
          b.num(k.input_share * 100, 1) + b.t("% of GPU time (prefill)", "% 的 GPU 时间（prefill）"));
  sec.row("per_million_output", b.t("Per million output tokens", "每百万输出 tokens"), usd(k.per_million_output, "USD/M tokens"), "", 0,
          b.num((1 - k.input_share) * 100, 1) + b.t("% of GPU time (decode)", "% 的 GPU 时间（decode）"));
  sec.row("per_million_total", b.t("Per million tokens, input and output together", "每百万 tokens（输入与输出合计）"), usd(k.per_million_total, "USD/M tokens"));
}

void add_ttft(Report& r, const Ctx& c) {
  const B& b = c.b;
  const Analysis& a = c.a;
  const Evaluation& ev = c.ev;
  const Scenario& s = c.s;
  const PoolEval& pre = c.pre;
  {
    Section& sec = r.add_section("ttft", b.t("Time to first token", "首 token 延迟（TTFT）"));
    // One unit per quantity across the report: request rates in requests/min, as the workload states them.
    sec.row("rate", b.t("Arrival rate", "到达率"), b.fixed(ev.lambda_load * 60, 1, b.t("requests/min", "请求/分钟"), true));
    if (ev.ttft.simulated > 0 && ev.ttft.stable) {
      sec.row("p50", "TTFT P50", b.ms(ev.ttft.p50, 0));
      sec.row("p90", "TTFT P90", b.ms(ev.ttft.p90, 0));
      sec.row("p99", "TTFT P99", b.ms(ev.ttft.p99, 0));
      sec.row("mean", b.t("TTFT mean", "TTFT 均值"), b.ms(ev.ttft.mean, 0));
      sec.row("wait", b.t("queueing (mean)", "排队（均值）"), b.ms(ev.ttft.mean_wait, 0), "", 1);
      sec.row("prefill", b.t("prefill (mean)", "prefill（均值）"), b.ms(ev.ttft.mean_prefill, 0), "", 1);
      if (ev.disaggregated()) sec.row("kvx", b.t("KV transfer (mean request)", "KV 传输（平均请求）"), b.ms(ev.kv_transfer_s, 1), "", 1);
      sec.row("first", b.t("first decode step", "首个 decode 步"), b.ms(ev.first_decode_s, 1), "", 1);
      sec.row("util", b.t("Prefill server utilisation", "Prefill 服务利用率"), b.percent(ev.ttft.utilization, 1));
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
      c.x_unit = "requests/min";
      c.y_label = "TTFT";
      c.y_unit = "ms";
      Series p50{"P50", {}, {}}, p90{"P90", {}, {}}, p99{"P99", {}, {}};
      for (const TtftCurvePoint& q : a.ttft_curve) {
        p50.points.push_back({q.rate * 60, q.p50 * 1e3});
        p90.points.push_back({q.rate * 60, q.p90 * 1e3});
        p99.points.push_back({q.rate * 60, q.p99 * 1e3});
      }
      c.series = {p50, p90, p99};
      if (s.slo.ttft_p50_ms > 0) c.markers.push_back(Marker{"y", s.slo.ttft_p50_ms, b.t("TTFT P50 target", "TTFT P50 目标")});
      // The load marker only when it lies on the curve's scale: an overloaded workload (load beyond
      // the last stable rate by more than a quarter) is named in the title, not drawn 10x off the points.
      double last = 0;
      for (const TtftCurvePoint& q : a.ttft_curve) last = std::max(last, q.rate);
      if (ev.lambda_load > 0 && ev.lambda_load <= 1.25 * last) c.markers.push_back(Marker{"x", ev.lambda_load * 60, b.t("workload", "负载")});
      else if (ev.lambda_load > 0)
        c.title += std::string(b.t(" (the workload's ", "（负载 ")) + b.num(ev.lambda_load * 60) + b.t(" requests/min is beyond this range: overloaded)", " 请求/分钟超出此范围：过载）");
      sec.chart(c);
    }
  }
}

namespace {

Value error_value(double pct) {
  Value v = Value::fixed(pct, 0, "%", false, "");
  v.text = signed_num(pct, 0) + "%";
  return v;
}

// An observed reference run: each measured figure beside the prediction of the same run.
Table reference_figures_table(const B& b, const std::vector<ReferenceFigure>& figures) {
  Table t;
  t.id = "reference_figures";
  t.title = b.t("The reference run at its own load: measured vs predicted (before calibration)", "参考运行在其自身负载下：实测与预测（校准前）");
  t.columns = {b.t("figure", "指标"), b.t("measured", "实测"), b.t("predicted", "预测"), b.t("error", "误差")};
  for (const ReferenceFigure& f : figures) {
    const bool time = f.id == "ttft_ms" || f.id == "tpot_ms";
    const std::string label = f.id == "ttft_ms" ? b.t("TTFT (mean)", "TTFT（均值）") : f.id == "tpot_ms" ? b.t("TPOT (mean)", "TPOT（均值）")
                            : f.id == "output_tps" ? b.t("output tokens/s", "输出 tokens/s") : f.id == "input_tps" ? b.t("input tokens/s", "输入 tokens/s")
                                                                                          : b.t("input + output tokens/s", "输入 + 输出 tokens/s");
    auto value = [&](double x) { return time ? b.fixed(x, x < 100 ? 1 : 0, "ms", true) : b.tps(x); };
    t.rows.push_back({Value::str(label), value(f.measured), f.predicted > 0 ? value(f.predicted) : Value::str(b.t("none (does not fit)", "无（放不下）")),
                      f.predicted > 0 ? error_value((f.predicted / f.measured - 1) * 100) : Value::str("")});
  }
  t.note = b.t("Error = predicted / measured - 1. The run is predicted with the reference deployment and the same lengths and load.",
               "误差 = 预测 / 实测 - 1。按参考部署、相同长度与负载预测这次运行。");
  return t;
}

}  // namespace

void add_calibration(Report& r, const Ctx& c) {
  const B& b = c.b;
  const Analysis& a = c.a;
  const Scenario& s = c.s;
  const Reference& ref = c.a.input.reference;
  if (a.calibration.present) {
    Section& sec = r.add_section("calibration", b.t("Reference measurement and calibration", "参考实测与校准"));
    sec.row("ref", b.t("Reference", "参考"), Value::str(ref.name.empty() ? ref.id : ref.name));
    sec.row("ref_gpus", b.t("Reference deployment", "参考部署"), Value::str(std::to_string(ref.gpus()) + " x " + ref.gpu.name + ", " + ref.precision.scheme_name()));
    sec.row("ref_measured", std::string(b.t("Measured (", "实测（")) + kind_label(b, ref.measured_kind) + ")", b.tps(ref.measured_tokens_per_s));
    if (ref.observed) {
      sec.row("ref_predicted", b.t("Predicted by this estimator for the same run", "本估算器对同一运行的预测"), b.tps(a.calibration.predicted));
      sec.row("implied", a.calibration.implied_from == "tpot" ? b.t("Implied efficiency (predicted TPOT / measured TPOT)", "隐含效率（预测 TPOT / 实测 TPOT）")
                                                              : b.t("Implied efficiency (measured / predicted throughput)", "隐含效率（实测 / 预测吞吐）"),
              b.percent(a.calibration.implied, 1));
    } else {
      sec.row("ref_predicted", std::string(b.t("Predicted by this estimator at TPOT <= ", "本估算器预测（TPOT <= ")) + b.num(ref.tpot_limit_ms) + " ms" + b.t("", "）"), b.tps(a.calibration.predicted), "", 0,
              limit_label(b, a.calibration.ref_eval.lambda_limit));
      sec.row("implied", b.t("Implied efficiency (measured / predicted)", "隐含效率（实测 / 预测）"), b.percent(a.calibration.implied, 1));
    }
    sec.row("calibrated", b.t("Target projected with it", "按此效率投射目标"), Value::str(a.calibration.calibrated ? b.t("yes: every time in this report is scaled by predicted / measured", "是：本报告所有时间均乘以 预测 / 实测")
                                                                                                       : b.t("no (turn on \"Calibrate to this measurement\" under \"Reference measurement and calibration\" to project the targets with this efficiency)", "否（在“参考实测与校准”中打开“按此实测校准”，即按此效率推算各目标）")));
    if (!a.calibration.figures.empty()) sec.table(reference_figures_table(b, a.calibration.figures));
    if (a.calibration.calibrated && ref.gpu_id != s.gpu_id)
      r.warnings.push_back(b.t("The reference ran on a different GPU: its implied efficiency transfers only approximately.", "参考实测使用了不同的 GPU：其隐含效率只能近似迁移。"));
  }
}

}  // namespace slo::rpt

SLO_SIZE_END
