// Published measurements: scenarios, predictions, the fit and leave-one-source-out validation.
#include "slo/benchmarks.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#ifndef __EMSCRIPTEN__
#include <atomic>
#include <thread>
#endif

#include "slo/data.hpp"
#include "slo/evaluation.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

using nlohmann::json;

namespace {

struct Prepared {
  json m;
  Scenario s;
  json normalized;
  std::string metric, kind, source;
  double param = 0;  // concurrency, batch or requests
  bool fit = true;   // false: a validation-only source (predicted and counted, never fitted on)
};

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// Legacy top-level fields (concurrency, batch_per_gpu, context) or the "params" object.
double param(const json& m, const char* key) {
  if (m.contains("params") && m.at("params").contains(key)) return m.at("params").at(key).get<double>();
  return m.value(key, 0.0);
}

// The scenario a measurement describes: its document, the engine it names, and the load kind its
// metric implies (closed loop at C clients, static batch of B, burst of N, Poisson at a rate).
json measurement_scenario(const json& m) {
  json sc = m.at("scenario");
  if (!sc.contains("name")) sc["name"] = m.at("label");
  if (!sc.contains("reference")) sc["reference"] = json{{"preset", "none"}};
  if (m.contains("engine")) {
    json e = m.at("engine");
    sc["deployment"]["engine"] = json{{"name", e.at("name")}, {"version", e.value("version", json())}};
  }
  const std::string metric = m.at("metric");
  json& w = sc["workload"];
  if (starts(metric, "closed_loop_")) {
    w["kind"] = "closed_loop", w["concurrency"] = param(m, "concurrency");
    if (param(m, "requests") > 0) w["requests"] = param(m, "requests");  // a finite run: its tail counts
  }
  if (starts(metric, "static_")) w["kind"] = "static_batch", w["batch"] = param(m, "batch");
  if (starts(metric, "burst_")) w["kind"] = "burst", w["requests"] = param(m, "requests");
  if (starts(metric, "poisson_")) w["arrival_qpm"] = param(m, "rate_qps") * 60.0;
  return sc;
}

std::vector<Prepared> load_all() {
  std::vector<Prepared> out;
  for (const std::string& file : data::list("benchmarks/measurements")) {
    const json doc = json::parse(data::file(file));
    // Sources marked "fit": false (with their reason in "fit_note") are validation only.
    std::set<std::string> validation_only;
    for (const auto& src : doc.value("sources", json::array()))
      if (!src.value("fit", true)) validation_only.insert(src.at("id").get<std::string>());
    for (const auto& m : doc.at("measurements")) {
      ParseResult p = parse_scenario(measurement_scenario(m));
      if (!p.ok) throw InternalError("benchmark " + m.at("id").get<std::string>() + ": " + p.errors.front().path + " " + p.errors.front().message);
      Prepared x{m, p.scenario, p.normalized, m.at("metric"), figure_kind(m.at("metric")), m.value("source", m.at("point").get<std::string>())};
      x.s.reference = Reference{};  // never used by a benchmark (reference.preset none); keeps copies small
      x.s.reference.present = false;
      x.param = param(m, "concurrency") + param(m, "batch");
      // A figure its own source reports as a fault or an unoptimized path is validation only too
      // ("fit": false on the figure, its reason in "fit_note"; docs/MEASUREMENTS.md, malfunction rule).
      x.fit = !validation_only.count(x.source) && m.value("fit", true);
      out.push_back(std::move(x));
    }
  }
  return out;
}

const std::vector<Prepared>& prepared() {
  static const std::vector<Prepared> list = load_all();
  return list;
}

bool needs_capacity(const std::string& metric) { return metric == "capacity_total_tps" || starts(metric, "poisson_"); }

Evaluation evaluate_for(const Prepared& p, const Scenario& s) {
  EvalOptions o;
  o.ttft = starts(p.metric, "poisson_");
  o.ttft_requests = 1500;
  o.capacity = needs_capacity(p.metric);
  return evaluate_scenario(s, o);
}

int pool_gpus(const Evaluation& ev) {
  int n = 0;
  for (const auto& pe : ev.pools) n += pe.pool.cfg.gpus;
  return n;
}

double predict(const Prepared& p, const Evaluation& ev) {
  const std::string& metric = p.metric;
  const json& m = p.m;
  const double gpn = ev.s.gpus_per_node;
  const LoadResult& l = ev.load;
  if (metric == "capacity_total_tps") return ev.total_tps_max;
  if (metric == "prefill_tps_per_node") return ev.prefill_tokens_s / (ev.prefill_pool().pool.cfg.gpus / gpn);
  if (metric == "decode_tps_per_node_at_batch") {
    const PoolEval& pe = ev.decode_pool();
    const double b = param(m, "batch_per_gpu") * pe.pool.cfg.attention_tp;
    const DecodePoint d = decode_at(pe, b, param(m, "context"), 0, ev.time_scale);
    return d.output_tps / (pe.pool.cfg.gpus / gpn);
  }
  if (metric == "poisson_ttft_ms") return (m.value("params", json::object()).value("stat", "mean") == "p50" ? ev.ttft.p50 : ev.ttft.mean) * 1e3;
  if (metric == "poisson_tpot_ms") return ev.op_load.tpot_s * 1e3;
  const std::string tail = metric.substr(metric.find('_', metric.find('_') + (starts(metric, "closed_loop_") ? 1 : 0)) + 1);
  if (tail == "output_tps") return l.output_tps;
  if (tail == "total_tps") return l.output_tps + l.input_tps;
  if (tail == "output_tps_per_gpu") return l.output_tps / pool_gpus(ev);
  if (tail == "tps_per_user") return l.tpot_s > 0 ? 1.0 / l.tpot_s : 0;
  if (tail == "tpot_ms") return l.tpot_s * 1e3;
  if (tail == "ttft_ms") return l.ttft_s * 1e3;
  if (tail == "latency_ms") return l.latency_s * 1e3;
  throw InternalError("unknown benchmark metric " + metric);
}

// In-flight sequences per decode DP group the figure was measured at.
double in_flight_per_group(const Prepared& p, const Evaluation& ev) {
  const double dp = std::max(1, ev.decode_pool().plan.dp);
  if (starts(p.metric, "closed_loop_") || starts(p.metric, "static_") || starts(p.metric, "burst_"))
    return std::max(1.0, ev.load.in_flight / dp);
  if (p.metric == "decode_tps_per_node_at_batch") return param(p.m, "batch_per_gpu");
  return 1e9;  // capacity, per-node prefill/decode, Poisson: the large-batch regime
}

void apply(const Calibration& cal, Scenario& s) {
  auto f = cal.family.find(s.gpu.family);
  if (f != cal.family.end()) s.gpu.eff = f->second;
  auto e = cal.engine.find(s.deployment.engine.profile);
  if (e != cal.engine.end()) s.deployment.engine.overheads = e->second;
}

BenchmarkRow row_of(const Prepared& p, const Scenario& s, const Evaluation& ev) {
  BenchmarkRow r;
  r.id = p.m.at("id");
  r.point = p.m.at("point");
  r.source = p.source;
  r.label = p.m.at("label");
  r.gpu = s.gpu_id;
  r.family = s.gpu.family;
  r.engine = s.deployment.engine.id;
  r.model = s.model.name;
  r.metric = p.metric;
  r.unit = p.m.at("unit");
  r.assumptions = p.m.value("assumptions", "");
  r.fitted = p.fit;
  r.measured = p.m.at("measured");
  r.predicted = predict(p, ev);
  r.regime = s.gpu.family + "/" + p.kind + "/" + batch_regime(in_flight_per_group(p, ev));
  r.scenario = p.normalized;
  return r;
}

}  // namespace

std::string figure_kind(const std::string& metric) {
  if (metric.find("tpot") != std::string::npos || metric.find("per_user") != std::string::npos) return "tpot";
  if (metric.find("ttft") != std::string::npos) return "ttft";
  if (metric.find("latency") != std::string::npos) return "latency";
  return "throughput";
}

std::string batch_regime(double b) { return b <= 1.0 ? "batch1" : b <= 16.0 ? "low" : "high"; }

Calibration Calibration::current() {
  Calibration c;
  for (const auto& g : gpu_presets()) c.family[g.family] = g.eff;
  for (const auto& e : engine_presets()) {
    c.engine[e.id] = e.overheads;
    if (e.builds)
      for (const auto& b : *e.builds) c.engine[e.id + "@" + b.key] = b.overheads;
  }
  return c;
}

std::vector<BenchmarkRow> run_benchmarks() { return run_benchmarks(Calibration::current()); }

std::vector<BenchmarkRow> run_benchmarks(const Calibration& cal) {
  std::vector<BenchmarkRow> rows;
  for (const auto& p : prepared()) {
    Scenario s = p.s;
    apply(cal, s);
    rows.push_back(row_of(p, s, evaluate_for(p, s)));
  }
  return rows;
}

// ---- the fit -------------------------------------------------------------------------------

namespace {

// One fitted factor: which family or engine it belongs to, where it lives, its bounds and prior.
struct Param {
  bool engine = false;
  std::string key;
  double* (*ref)(Calibration&, const std::string&);
  double lo, hi, prior;
  bool weight_only = false;  // touches only the family's weight-only quantized figures (weight_only_int)
};

double* f_gemm(Calibration& c, const std::string& k) { return &c.family[k].gemm; }
double* f_hbm(Calibration& c, const std::string& k) { return &c.family[k].hbm; }
double* f_attn(Calibration& c, const std::string& k) { return &c.family[k].attention; }
double* f_launch(Calibration& c, const std::string& k) { return &c.family[k].launch_scale; }
double* f_arbw(Calibration& c, const std::string& k) { return &c.family[k].allreduce_bw; }
double* f_wonly(Calibration& c, const std::string& k) { return &c.family[k].weight_only_gemm; }
double* e_step(Calibration& c, const std::string& k) { return &c.engine[k].step_ms; }
double* e_kernel(Calibration& c, const std::string& k) { return &c.engine[k].kernel_us; }
double* e_pkernel(Calibration& c, const std::string& k) { return &c.engine[k].prefill_kernel_us; }
double* e_request(Calibration& c, const std::string& k) { return &c.engine[k].request_ms; }
double* e_seq(Calibration& c, const std::string& k) { return &c.engine[k].seq_us; }
double* e_wait(Calibration& c, const std::string& k) { return &c.engine[k].wait_steps; }
double* e_front(Calibration& c, const std::string& k) { return &c.engine[k].frontend_ms; }
double* e_moe(Calibration& c, const std::string& k) { return &c.engine[k].moe_gemm; }
double* e_kv(Calibration& c, const std::string& k) { return &c.engine[k].kv_read; }

const json& priors() {
  static const json p = json::parse(data::file("calibration-priors.json"));
  return p;
}

Calibration prior_calibration() {
  Calibration c = Calibration::current();
  for (const auto& [fam, f] : priors().at("families").items()) {
    Efficiency& e = c.family[fam];
    for (const auto& [k, v] : f.items()) {
      const double x = v.get<double>();
      if (k == "gemm") e.gemm = x;
      if (k == "hbm") e.hbm = x;
      if (k == "attention") e.attention = x;
      if (k == "attention_hbm") e.attention_hbm = x;
      if (k == "nvlink") e.nvlink = x;
      if (k == "allreduce_bw") e.allreduce_bw = x;
      if (k == "rdma") e.rdma = x;
      if (k == "comm_latency_us") e.comm_latency_us = x;
      if (k == "allreduce_latency_us") e.allreduce_latency_us = x;
      if (k == "net_allreduce_latency_us") e.net_allreduce_latency_us = x;
      if (k == "comm_latency_growth") e.comm_latency_growth = x;
      if (k == "launch_scale") e.launch_scale = x;
      if (k == "tbo_overlap") e.tbo_overlap = x;
      if (k == "weight_only_gemm") e.weight_only_gemm = x;
    }
  }
  for (const auto& [eng, o] : priors().at("engines").items()) {
    EngineOverheads& x = c.engine[eng];
    x.step_ms = o.at("step_ms");
    x.kernel_us = o.at("kernel_us");
    x.prefill_kernel_us = o.at("prefill_kernel_us");
    x.seq_us = o.value("seq_us", 10.0);
    x.wait_steps = o.value("wait_steps", 1.5);
    x.frontend_ms = o.value("frontend_ms", 10.0);
    x.moe_gemm = o.value("moe_gemm", 1.0);
    x.kv_read = o.value("kv_read", 1.0);
    x.request_ms = o.at("request_ms");
    x.prefill_ms = o.at("prefill_ms");
    x.pd_bootstrap_ms = o.at("pd_bootstrap_ms");
  }
  // A build ("sglang@rocm", "vllm@v0") starts from its engine's prior.
  for (auto& [key, o] : c.engine)
    if (const auto at = key.find('@'); at != std::string::npos && c.engine.count(key.substr(0, at))) o = c.engine.at(key.substr(0, at));
  return c;
}

// Link factors from DeepEP's low-latency kernel timings (rdma bandwidth share, per-op latency).
Efficiency fit_links(Efficiency start, double& rms) {
  auto loss = [&](const Efficiency& e) {
    double sum = 0;
    for (const auto& r : deepep_low_latency_rows(e)) {
      const double a = std::log(r.predicted_dispatch_us / r.dispatch_us), b = std::log(r.predicted_combine_us / r.combine_us);
      sum += a * a + b * b;
    }
    return sum;
  };
  double best = loss(start);
  for (double step = 0.4; step > 0.004; step *= 0.5)
    for (int pass = 0; pass < 4; ++pass)
      for (double* x : {&start.rdma, &start.comm_latency_us, &start.comm_latency_growth})
        for (double dir : {1.0, -1.0}) {
          const double old = *x;
          *x = x == &start.comm_latency_growth ? std::max(0.0, old + dir * step) : old * std::exp(dir * step);
          if (x == &start.rdma) *x = std::min(0.98, *x);
          const double l = loss(start);
          if (l < best - 1e-12) best = l;
          else *x = old;
        }
  rms = std::sqrt(best / (2.0 * deepep_low_latency_rows(start).size()));
  return start;
}

// Cauchy loss on a log error: a figure no shared factor explains must not drag every other one.
double robust(double e) {
  const double c = 0.15;
  return c * c * std::log1p((e / c) * (e / c));
}

}  // namespace

std::vector<KernelRow> deepep_low_latency_rows(const Efficiency& eff) {
  const json k = json::parse(data::file("published-benchmarks.json")).at("kernel_and_link_measurements").at("deepep_h800_low_latency_128_tokens");
  const ModelArch m = load_preset("deepseek-ai/DeepSeek-V3");
  Gpu g = *find_gpu("h800-80g");
  g.eff = eff;
  Precision pr;
  Deployment d;
  d.engine = *find_engine(default_engine_id());
  std::vector<KernelRow> rows;
  for (std::size_t i = 0; i < k.at("ep").size(); ++i) {
    Pool pool;
    pool.model = &m;
    pool.precision = &pr;
    pool.gpu = &g;
    pool.deployment = &d;
    pool.cfg.gpus = k.at("ep")[i];
    pool.cfg.ep = pool.cfg.gpus;
    pool.gpus_per_node = 8;
    pool.phase = Phase::Decode;
    const A2ATime t = ep_low_latency_time(pool, 128);
    rows.push_back(KernelRow{pool.cfg.ep, k.at("dispatch_us")[i], k.at("combine_us")[i], t.dispatch * 1e6, t.combine * 1e6});
  }
  return rows;
}

FitResult fit_calibration(const std::vector<std::string>& exclude_sources) {
  FitResult res;
  Calibration cal = prior_calibration();
  const Calibration prior = cal;
  cal.family["hopper"] = fit_links(cal.family["hopper"], res.kernel_rms_log_error);

  const auto& preps = prepared();
  std::vector<int> used;
  std::set<std::string> families, engines, wonly;
  for (int i = 0; i < static_cast<int>(preps.size()); ++i) {
    if (!preps[i].fit) continue;  // validation only
    if (std::find(exclude_sources.begin(), exclude_sources.end(), preps[i].source) != exclude_sources.end()) continue;
    used.push_back(i);
    families.insert(preps[i].s.gpu.family);
    engines.insert(preps[i].s.deployment.engine.profile);
    res.fitted_on[preps[i].s.gpu.family].push_back(preps[i].m.at("id"));
    if (weight_only_int(preps[i].s.precision)) wonly.insert(preps[i].s.gpu.family);
  }
  std::vector<Param> params;
  for (const auto& f : families) {
    params.push_back({false, f, f_gemm, 0.2, 0.95, 0});
    params.push_back({false, f, f_hbm, 0.3, 0.95, 0});
    params.push_back({false, f, f_attn, 0.1, 0.95, 0});
    params.push_back({false, f, f_launch, 0.3, 5, 0});
    params.push_back({false, f, f_arbw, 0.1, 0.95, 0});
  }
  // Only a family with weight-only quantized figures fits their kernel factor; the rest keep the prior.
  for (const auto& f : wonly) params.push_back({false, f, f_wonly, 0.3, 1.2, 0, true});
  for (const auto& e : engines) {
    params.push_back({true, e, e_step, 0.05, 20, 0});
    params.push_back({true, e, e_kernel, 0.2, 100, 0});
    params.push_back({true, e, e_pkernel, 0.5, 500, 0});
    params.push_back({true, e, e_request, 1, 500, 0});
    params.push_back({true, e, e_seq, 0.5, 200, 0});
    params.push_back({true, e, e_wait, 0.1, 10, 0});
    params.push_back({true, e, e_front, 0.1, 200, 0});
    params.push_back({true, e, e_moe, 0.2, 1.5, 0});
    params.push_back({true, e, e_kv, 0.3, 1.5, 0});
  }
  Calibration pc = prior;
  for (auto& p : params) p.prior = *p.ref(pc, p.key);
  const double wf = priors().at("prior_weight").at("family"), we = priors().at("prior_weight").at("engine");

  // Per-figure loss, recomputed only for the figures a changed factor touches.
  std::vector<double> loss_of(preps.size(), 0.0);
  // One working copy per figure, re-calibrated in place (no scenario copy per evaluation).
  std::vector<Scenario> work(preps.size());
  std::vector<double> measured(preps.size());
  for (int i : used) work[i] = preps[i].s, measured[i] = preps[i].m.at("measured").get<double>();
  auto touches = [&](const Param& p, int i) {
    if (p.engine) return preps[i].s.deployment.engine.profile == p.key;
    return preps[i].s.gpu.family == p.key && (!p.weight_only || weight_only_int(preps[i].s.precision));
  };
  // A figure's loss depends only on the fitted factors of its family and engine (apply()), and the
  // descent retries the same points pass after pass: each figure remembers its loss per factor tuple.
  std::vector<std::vector<int>> deps(preps.size());
  for (int i : used)
    for (int k = 0; k < static_cast<int>(params.size()); ++k)
      if (touches(params[k], i)) deps[i].push_back(k);
  std::vector<std::map<std::vector<double>, double>> seen(preps.size());
  auto eval_point = [&](int i) {
    std::vector<double> key;
    key.reserve(deps[i].size());
    for (int k : deps[i]) key.push_back(*params[k].ref(cal, params[k].key));
    if (auto hit = seen[i].find(key); hit != seen[i].end()) return hit->second;
    apply(cal, work[i]);
    const double pred = predict(preps[i], evaluate_for(preps[i], work[i]));
    const double e = pred > 0 && std::isfinite(pred) ? std::log(pred / measured[i]) : 3.0;
    return seen[i].emplace(std::move(key), robust(e)).first->second;
  };
  for (int i : used) loss_of[i] = eval_point(i);
  auto prior_loss = [&](const Param& p) {
    const double d = std::log(*p.ref(cal, p.key) / p.prior);
    return (p.engine ? we : wf) * d * d;
  };
  auto descend = [&]() {
  for (double step = 0.5; step > 0.01; step *= 0.5) {
    for (int pass = 0; pass < 6; ++pass) {
      bool improved = false;
      for (auto& p : params) {
        std::vector<int> idx;
        for (int i : used)
          if (touches(p, i)) idx.push_back(i);
        double* x = p.ref(cal, p.key);
        auto local = [&]() {
          double s = prior_loss(p);
          for (int i : idx) s += loss_of[i];
          return s;
        };
        double best = local();
        for (double dir : {1.0, -1.0}) {
          const double old = *x;
          const std::vector<double> saved = [&] {
            std::vector<double> v;
            for (int i : idx) v.push_back(loss_of[i]);
            return v;
          }();
          *x = std::clamp(old * std::exp(dir * step), p.lo, p.hi);
          if (*x == old) continue;
          for (int i : idx) loss_of[i] = eval_point(i);
          const double l = local();
          if (l < best - 1e-12) {
            best = l;
            improved = true;
          } else {
            *x = old;
            for (std::size_t j = 0; j < idx.size(); ++j) loss_of[idx[j]] = saved[j];
          }
        }
      }
      if (!improved) break;
    }
  }
  };
  descend();
  // Borrowing strength: NVIDIA families measured less than Hopper are pulled towards Hopper's
  // fitted factors (same vendor kernels and compilers) rather than towards the generic priors;
  // a family with no figure left (held out) is predicted from them.
  if (cal.family.count("hopper") && families.count("hopper")) {
    const Efficiency h = cal.family.at("hopper");
    for (const char* fam : {"blackwell", "ampere", "ada"}) {
      Efficiency& e = cal.family[fam];
      for (auto& p : params)
        if (!p.engine && p.key == fam) p.prior = *p.ref(cal, "hopper");
      if (!families.count(fam)) e.gemm = h.gemm, e.hbm = h.hbm, e.attention = h.attention, e.launch_scale = h.launch_scale;
    }
    for (int i : used) loss_of[i] = eval_point(i);
    descend();
  }
  double sq = 0;
  for (int i : used) {
    Scenario s = preps[i].s;
    apply(cal, s);
    const double y = predict(preps[i], evaluate_for(preps[i], s));
    if (!(y > 0)) {
      ++res.infeasible;
      continue;
    }
    const double e = std::log(y / preps[i].m.at("measured").get<double>());
    sq += e * e;
  }
  const int n = static_cast<int>(used.size()) - res.infeasible;
  res.rms_log_error = n > 0 ? std::sqrt(sq / n) : 0;
  res.cal = cal;
  return res;
}

std::vector<BenchmarkRow> leave_one_source_out() {
  std::vector<std::string> sources;
  for (const auto& p : prepared())
    if (std::find(sources.begin(), sources.end(), p.source) == sources.end()) sources.push_back(p.source);
  // One refit per source; folds are independent, so native builds run them on every core (the
  // result does not depend on the order: each fold writes its own slot).
  // A source with no fitted figure (validation only) leaves the fit unchanged: its fold is the full
  // fit, computed once (slot sources.size()) for every such source.
  std::set<std::string> fitted_sources;
  for (const auto& p : prepared())
    if (p.fit) fitted_sources.insert(p.source);
  const bool any_unfitted = fitted_sources.size() < sources.size();
  std::vector<Calibration> cals(sources.size() + 1);
  std::vector<std::size_t> jobs;
  for (std::size_t i = 0; i < sources.size(); ++i)
    if (fitted_sources.count(sources[i])) jobs.push_back(i);
  if (any_unfitted) jobs.push_back(sources.size());
  auto fit_job = [&](std::size_t j) {
    cals[j] = fit_calibration(j < sources.size() ? std::vector<std::string>{sources[j]} : std::vector<std::string>{}).cal;
  };
#ifndef __EMSCRIPTEN__
  std::atomic<std::size_t> next{0};
  const unsigned workers = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), 8u));
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < workers; ++w)
    pool.emplace_back([&] {
      for (std::size_t k; (k = next++) < jobs.size();) fit_job(jobs[k]);
    });
  for (auto& t : pool) t.join();
#else
  for (std::size_t j : jobs) fit_job(j);
#endif
  std::vector<BenchmarkRow> out;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const Calibration& cal = fitted_sources.count(sources[i]) ? cals[i] : cals[sources.size()];
    for (const auto& p : prepared()) {
      if (p.source != sources[i]) continue;
      Scenario s = p.s;
      apply(cal, s);
      out.push_back(row_of(p, s, evaluate_for(p, s)));
    }
  }
  return out;
}

}  // namespace slo

SLO_SIZE_END
