// The analysis stage (see analysis.hpp): runs the physics the corrected report needs, once.
#include "slo/analysis.hpp"

#include <algorithm>
#include <cmath>

#include "slo/kv_cache.hpp"
#include "slo/workloads.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

double tokens_of(ThroughputKind k, double in, double out) {
  return k == ThroughputKind::Output ? out : k == ThroughputKind::Input ? in : in + out;
}

namespace {

// An observed run predicted at its own load: the closed loop, burst or static batch it ran, or the
// Poisson arrivals (TTFT from the queue simulation, TPOT at the load's batch, throughput as served).
std::vector<ReferenceFigure> reference_figures(const Scenario& s, const Evaluation& e) {
  const Reference& ref = s.reference;
  std::vector<ReferenceFigure> out;
  const Scenario& rs = e.s;
  const Workload& w = rs.workload;
  double ttft = e.load.ttft_s, tpot = e.load.tpot_s, out_tps = e.load.output_tps, in_tps = e.load.input_tps;
  if (!e.load.present) {  // Poisson: what is served of the arrivals (all of them when stable)
    const double served = std::min(e.lambda_load, e.lambda_max);
    ttft = e.ttft.stable ? e.ttft.mean : 0;
    tpot = e.op_load.tpot_s;
    out_tps = served * w.output_tokens;
    in_tps = served * w.input_tokens;
  }
  auto add = [&](const char* id, double measured, double predicted) {
    if (measured > 0) out.push_back(ReferenceFigure{id, measured, predicted});
  };
  add("ttft_ms", ref.ttft_limit_ms, ttft * 1e3);
  add("tpot_ms", ref.tpot_limit_ms, tpot * 1e3);
  add(ref.measured_kind == ThroughputKind::Output ? "output_tps" : ref.measured_kind == ThroughputKind::Input ? "input_tps" : "total_tps",
      ref.measured_tokens_per_s, tokens_of(ref.measured_kind, in_tps, out_tps));
  return out;
}

// An observed run: the figures at its load; the efficiency from its TPOT (the step time the
// calibration scales), else from its throughput at that load.
ReferenceFit calibrate_observed(const Scenario& s) {
  ReferenceFit c;
  const Reference& ref = s.reference;
  EvalOptions o;
  Scenario rs = reference_scenario(s);
  rs.slo.tpot_ms = 0;  // its TPOT is what it measured, not a limit it was held to
  o.ttft = rs.workload.kind == LoadKind::Poisson;
  o.ttft_requests = 1500;
  c.ref_eval = evaluate_scenario(rs, o);
  c.figures = reference_figures(s, c.ref_eval);
  c.present = !c.figures.empty();
  for (const ReferenceFigure& f : c.figures) {
    if (f.id == "tpot_ms" && f.predicted > 0) c.implied = f.predicted / f.measured, c.implied_from = "tpot";
    if (f.id != "ttft_ms" && f.id != "tpot_ms") c.predicted = f.predicted;  // the throughput figure
  }
  if (c.implied == 0 && c.predicted > 0) c.implied = ref.measured_tokens_per_s / c.predicted, c.implied_from = "throughput";
  c.calibrated = ref.calibrate && c.implied > 0;
  return c;
}

// Calibration to the reference measurement, when asked.
ReferenceFit calibrate(const Scenario& s) {
  ReferenceFit c;
  const Reference& ref = s.reference;
  if (ref.present && ref.observed) return calibrate_observed(s);
  c.present = ref.present && ref.measured_tokens_per_s > 0;
  if (!c.present) return c;
  EvalOptions ro;
  ro.ttft = false;
  c.ref_eval = evaluate_scenario(reference_scenario(s), ro);
  const Workload& rw = ref.workload;
  c.predicted = c.ref_eval.lambda_max * tokens_of(ref.measured_kind, rw.input_tokens, rw.output_tokens);
  c.implied = c.predicted > 0 ? ref.measured_tokens_per_s / c.predicted : 0;
  c.calibrated = ref.calibrate && c.implied > 0;
  return c;
}

// Throughput per GPU vs TPOT of the decode pool as the batch grows.
std::vector<std::pair<double, double>> decode_curve(const Evaluation& ev) {
  std::vector<std::pair<double, double>> pts;
  const PoolEval& dec = ev.decode_pool();
  if (!dec.plan.fits()) return pts;
  const DecodePoint& op = ev.op_max;
  const double kv_max = std::floor(dec.plan.kv_pool / std::max(1.0, dec.plan.session_bytes(ev.running_context)));
  const double top = std::max(1.0, std::min(kv_max, 4.0 * std::max(1.0, op.in_flight)));
  for (int i = 0; i <= 24; ++i) {
    const double bsz = std::max(1.0, std::round(std::pow(top, i / 24.0)));
    const DecodePoint d = decode_at(dec, bsz, ev.running_context, op.prefill_share, ev.time_scale);
    if (!pts.empty() && pts.back().first == d.tpot_s * 1e3) continue;
    pts.push_back({d.tpot_s * 1e3, d.output_tps / dec.pool.cfg.gpus});
  }
  return pts;
}

// TTFT percentiles as the arrival rate grows to the capacity.
std::vector<TtftCurvePoint> ttft_curve(const Evaluation& ev, const EvalOptions& eo) {
  std::vector<TtftCurvePoint> pts;
  if (!(ev.lambda_max > 0 && ev.prefill_pool().plan.fits())) return pts;
  EvalOptions o = eo;
  o.ttft_requests = 600;
  for (double f : {0.1, 0.25, 0.4, 0.55, 0.7, 0.8, 0.9, 0.95}) {
    const double qpm = f * ev.lambda_max * 60;
    const Evaluation e2 = evaluate_at_rate(ev, qpm, o);  // the capacity does not move with the load
    if (!e2.ttft.stable || e2.ttft.simulated == 0) continue;
    pts.push_back({qpm / 60, e2.ttft.p50, e2.ttft.p90, e2.ttft.p99});
  }
  return pts;
}

std::vector<Sensitivity> sensitivity(const Evaluation& ev, const EvalOptions& eo) {
  std::vector<Sensitivity> out;
  for (const Variant& v : sensitivity_variants(ev.s)) {
    EvalOptions o = eo;
    o.ttft_requests = 1000;
    Evaluation e2 = v.id == "as-is" ? ev : evaluate_scenario(v.scenario, o);
    const TargetCheck c2 = check_targets(e2);
    out.push_back(Sensitivity{v, std::move(e2), c2});
  }
  return out;
}

// Sessions decoding at once to deliver the throughput target at the TPOT limit (Little's law).
double littles_sessions(const Scenario& s) {
  const Workload& w = s.workload;
  if (!(s.slo.concurrent_sessions > 0 && s.slo.throughput_tokens_per_s > 0 && s.slo.tpot_ms > 0)) return 0;
  const double out_share = tokens_of(ThroughputKind::Output, w.input_tokens, w.output_tokens) /
                           tokens_of(s.slo.throughput_kind, w.input_tokens, w.output_tokens);
  const double out_target = s.slo.throughput_tokens_per_s * (s.slo.throughput_kind == ThroughputKind::Input ? w.output_tokens / w.input_tokens : out_share);
  return out_target * s.slo.tpot_ms * 1e-3;
}

}  // namespace

double analyse_time_scale(const Scenario& s) {
  const ReferenceFit c = calibrate(s);
  return c.calibrated ? 1.0 / c.implied : 1.0;
}

CostFigures cost_at_capacity(const Evaluation& ev, double gpu_hour_usd) {
  CostFigures c;
  if (gpu_hour_usd <= 0) return c;
  c.stated = true;
  const Scenario& s = ev.s;
  c.cluster_per_hour = gpu_hour_usd * s.cluster_gpus();
  const Deployment& d = s.deployment;
  // GPU time behind the input tokens: the prefill pool's share of the pools, or the colocated
  // prefill share of GPU time at capacity (the decode side keeps the rest).
  c.input_share = ev.disaggregated() ? static_cast<double>(d.prefill.gpus) / std::max(1, d.prefill.gpus + d.decode.gpus)
                                     : std::clamp(ev.op_max.prefill_share, 0.0, 1.0);
  const double hour = 3600.0;
  if (ev.input_tps_max > 0) c.per_million_input = c.cluster_per_hour * c.input_share / (ev.input_tps_max * hour) * 1e6;
  if (ev.output_tps_max > 0) c.per_million_output = c.cluster_per_hour * (1 - c.input_share) / (ev.output_tps_max * hour) * 1e6;
  if (ev.total_tps_max > 0) c.per_million_total = c.cluster_per_hour / (ev.total_tps_max * hour) * 1e6;
  return c;
}

Analysis analyse(const Scenario& s_in) {
  Analysis a;
  a.input = s_in;
  a.calibration = calibrate(s_in);
  a.options.time_scale = a.calibration.calibrated ? 1.0 / a.calibration.implied : 1.0;
  a.ev = evaluate_scenario(s_in, a.options);
  const Evaluation& ev = a.ev;
  const Scenario& s = ev.s;
  const PoolEval& dec = ev.decode_pool();
  a.targets = check_targets(ev);
  bool fits = true;
  for (const auto& pe : ev.pools) fits = fits && pe.plan.fits();

  if (!ev.disaggregated() && dec.plan.fits() && ev.op_max.in_flight > 0) a.colocated_prefill_work = ev.prefill_work_share(ev.lambda_max);
  a.kv_bytes_per_token = kv_bytes_per_token(s.model, s.precision.kv_cache, 1);
  std::vector<double> contexts{8192.0, 16384.0, 32768.0};
  if (std::find(contexts.begin(), contexts.end(), s.workload.context_length) == contexts.end()) contexts.push_back(s.workload.context_length);
  for (double ctx : contexts) a.capacity.push_back({ctx, dec.plan.sessions(ctx)});
  if (dec.plan.fits()) a.tpot_batch1_s = decode_at(dec, 1, ev.running_context, 0, ev.time_scale).tpot_s;
  a.decode_curve = decode_curve(ev);
  a.littles_sessions = littles_sessions(s);
  const Engine& eng = s.deployment.engine;
  if (s.model.attention == AttentionType::MLA && !eng.mla_profile_after.empty() &&
      release_at_or_before(s.deployment.engine_version, eng.mla_profile_after))
    a.unprofiled_release_bound = eng.mla_profile_after;
  a.cuda_graph_limit = eng.eager_decode_above(s.gpu, dec.pool.stage_gpus());
  for (const auto& pe : ev.pools)
    a.tp_spans_nodes = a.tp_spans_nodes || std::max(pe.pool.cfg.attention_tp, s.model.is_moe() ? pe.pool.cfg.moe_tp() : 1) > pe.pool.nvlink_gpus();
  if (s.slo.concurrent_sessions > 0 && fits) {
    AtConcurrency c;
    c.loop = steady_closed_loop(ev, s.slo.concurrent_sessions);
    c.held_sessions = dec.plan.sessions(ev.running_context);
    c.prefill_rps = s.workload.input_tokens > 0 ? ev.prefill_tokens_s / s.workload.input_tokens : 0;
    a.at_concurrency = c;
  }
  a.ttft_curve = ttft_curve(ev, a.options);
  a.cost = cost_at_capacity(ev, s_in.gpu_hour_usd);
  a.smallest = smallest_cluster(s, a.options.time_scale);
  a.sensitivity = sensitivity(ev, a.options);
  a.seed = seed_figures(s);
  a.bands = figure_bands(ev);
  return a;
}

}  // namespace slo

SLO_SIZE_END
