#include "slo/benchmarks.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "slo/data.hpp"
#include "slo/evaluation.hpp"

namespace slo {

using nlohmann::json;

namespace {


double predict(const json& m, const Evaluation& ev) {
  const std::string metric = m.at("metric");
  const double gpn = ev.s.gpus_per_node;
  if (metric == "capacity_total_tps") return ev.total_tps_max;
  if (metric == "prefill_tps_per_node") return ev.prefill_tokens_s / (ev.prefill_pool().pool.cfg.gpus / gpn);
  if (metric == "decode_tps_per_node_at_batch") {
    const PoolEval& pe = ev.decode_pool();
    const double b = m.at("batch_per_gpu").get<double>() * pe.pool.cfg.attention_tp;
    const DecodePoint d = decode_at(pe, b, m.at("context").get<double>(), 0, ev.time_scale);
    return d.output_tps / (pe.pool.cfg.gpus / gpn);
  }
  const ClosedLoop c = closed_loop(ev, m.at("concurrency").get<double>());
  if (metric == "closed_loop_output_tps") return c.output_tps;
  if (metric == "closed_loop_output_tps_per_gpu") return c.output_tps / ev.decode_pool().pool.cfg.gpus;
  if (metric == "closed_loop_tps_per_user") return 1.0 / c.tpot_s;
  if (metric == "closed_loop_tpot_ms") return c.tpot_s * 1e3;
  throw InternalError("unknown benchmark metric " + metric);
}

struct Prepared {
  json m;
  Scenario s;
  json normalized;
};

const std::vector<Prepared>& prepared() {
  static const std::vector<Prepared> list = [] {
    std::vector<Prepared> out;
    json doc = json::parse(data::file("benchmarks/measurements.json"));
    for (const auto& m : doc.at("measurements")) {
      json sc = m.at("scenario");
      if (!sc.contains("name")) sc["name"] = m.at("label");
      if (!sc.contains("reference")) sc["reference"] = json{{"preset", "none"}};
      ParseResult p = parse_scenario(sc);
      if (!p.ok) throw InternalError("benchmark " + m.at("id").get<std::string>() + ": " + p.errors.front().message);
      out.push_back(Prepared{m, p.scenario, p.normalized});
    }
    return out;
  }();
  return list;
}

}  // namespace

std::vector<BenchmarkRow> run_benchmarks(const std::map<std::string, Efficiency>& overrides) {
  std::vector<BenchmarkRow> rows;
  for (const auto& p : prepared()) {
    Scenario s = p.s;
    auto it = overrides.find(s.gpu_id);
    if (it != overrides.end()) s.gpu.eff = it->second;
    EvalOptions o;
    o.ttft = false;
    const Evaluation ev = evaluate_scenario(s, o);
    BenchmarkRow r;
    r.id = p.m.at("id");
    r.point = p.m.at("point");
    r.label = p.m.at("label");
    r.gpu = s.gpu_id;
    r.metric = p.m.at("metric");
    r.unit = p.m.at("unit");
    r.assumptions = p.m.value("assumptions", "");
    r.measured = p.m.at("measured");
    r.predicted = predict(p.m, ev);
    r.scenario = p.normalized;
    rows.push_back(std::move(r));
  }
  return rows;
}

namespace {

// Factor vector in a fixed order, with bounds; optimised in log space.
constexpr int kN = 9;
struct Bound {
  double lo, hi;
};
const Bound kBounds[kN] = {{0.1, 0.95}, {0.1, 0.95}, {0.3, 0.95}, {0.2, 0.95}, {0.2, 0.95}, {3, 150}, {0.2, 8}, {0.3, 0.98}, {0.2, 1.0}};
std::array<double, kN> to_vec(const Efficiency& e) {
  return {e.gemm, e.attention, e.hbm, e.nvlink, e.rdma, e.comm_latency_us, e.step_overhead_ms, e.attention_hbm, e.tbo_overlap};
}
Efficiency from_vec(const std::array<double, kN>& v) {
  Efficiency e;
  e.gemm = v[0];
  e.attention = v[1];
  e.hbm = v[2];
  e.nvlink = v[3];
  e.rdma = v[4];
  e.comm_latency_us = v[5];
  e.step_overhead_ms = v[6];
  e.attention_hbm = v[7];
  e.tbo_overlap = v[8];
  return e;
}

// Coordinate descent in log space with a shrinking step: coordinate i moves when `bound(i)` gives
// it a range (a null range keeps it fixed). Works on std::array and std::vector alike.
template <class Vec, class BoundOf, class Loss>
Vec coordinate_descent(Vec x, BoundOf bound, Loss loss) {
  double best = loss(x);
  double step = 0.4;
  for (int round = 0; round < 7; ++round) {
    for (int pass = 0; pass < 4; ++pass) {
      bool improved = false;
      for (std::size_t i = 0; i < x.size(); ++i) {
        const Bound* b = bound(i);
        if (b == nullptr) continue;
        for (double dir : {1.0, -1.0}) {
          auto y = x;
          y[i] = std::min(b->hi, std::max(b->lo, x[i] * std::exp(dir * step)));
          if (y[i] == x[i]) continue;
          const double l = loss(y);
          if (l < best - 1e-12) {
            best = l;
            x = y;
            improved = true;
          }
        }
      }
      if (!improved) break;
    }
    step *= 0.5;
  }
  return x;
}

// The factors `mask` selects, within their bounds.
template <class Loss>
std::array<double, kN> minimise(std::array<double, kN> x, Loss loss, std::array<bool, kN> mask) {
  return coordinate_descent(x, [&](std::size_t i) { return mask[i] ? &kBounds[i] : nullptr; }, loss);
}

// Fitted on end-to-end points: GEMM efficiency, weight-streaming bandwidth, per-step overhead.
// Kernel-measured, not fitted end to end: attention (FlashMLA), attention_hbm (FlashMLA), links (DeepEP).
// Per-GPU prior weights (per point): HBM and step overhead stay near the family unless many points
// say otherwise; attention is freer (attention kernels differ most between frameworks).
constexpr double kPriorAttention = 0.2, kPriorOther = 10.0;
const std::array<bool, kN> kComputeMask = {true, false, true, false, false, false, true, false, true};
const std::array<bool, kN> kLinkMask = {false, false, false, false, true, true, false, false, false};

}  // namespace

std::vector<KernelRow> deepep_low_latency_rows(const Efficiency& eff) {
  const json k = json::parse(data::file("published-benchmarks.json")).at("kernel_and_link_measurements").at("deepep_h800_low_latency_128_tokens");
  const ModelArch m = load_preset("deepseek-ai/DeepSeek-V3");
  Gpu g = *find_gpu("h800-80g");
  g.eff = eff;
  Precision pr;
  Deployment d;
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

FitResult fit_efficiency(const std::vector<std::string>& exclude_points) {
  FitResult res;
  const auto& preps = prepared();
  std::map<std::string, std::vector<int>> by_gpu;
  for (int i = 0; i < static_cast<int>(preps.size()); ++i) {
    const std::string point = preps[i].m.at("point");
    if (std::find(exclude_points.begin(), exclude_points.end(), point) != exclude_points.end()) continue;
    by_gpu[preps[i].s.gpu_id].push_back(i);
  }
  for (auto& [g, idx] : by_gpu)
    for (int i : idx) res.points[g].push_back(preps[i].m.at("id"));

  // Robust (Cauchy) loss for the family fit: a point that no shared factors explain (one
  // framework's slow kernel) must not drag the factors every other GPU starts from.
  auto robust = [](double e) {
    const double c = 0.1;
    return c * c * std::log1p((e / c) * (e / c));
  };
  auto sq_err = [&](const std::vector<int>& idx, const std::map<std::string, Efficiency>& eff, bool robust_loss = false) {
    double sum = 0;
    for (int i : idx) {
      Scenario s = preps[i].s;
      s.gpu.eff = eff.at(s.gpu_id);
      EvalOptions o;
      o.ttft = false;
      const Evaluation ev = evaluate_scenario(s, o);
      const double pred = predict(preps[i].m, ev);
      const double e = pred > 0 ? std::log(pred / preps[i].m.at("measured").get<double>()) : 5.0;
      sum += robust_loss ? robust(e) : e * e;
    }
    return sum;
  };
  auto prior = [](const std::array<double, kN>& x, const std::array<double, kN>& x0, double w) {
    double s = 0;
    for (int i = 0; i < kN; ++i) {
      const double d = std::log(x[i] / x0[i]);
      s += w * d * d;
    }
    return s;
  };

  // 0. Links from kernel measurements (DeepEP on H800; the same CX7 NICs and NVLink generation
  //    as the other Hopper systems in the set).
  Efficiency start = find_gpu("h100-80g")->eff;
  start.nvlink = 155.0 / 200.0;     // DeepEP intranode ~153-158 GB/s on H800's 200 GB/s per direction
  start.attention = 580.0 / 989.0;  // FlashMLA compute-bound, H800 BF16
  start.attention_hbm = 3000.0 / 3350.0;  // FlashMLA memory-bound, H800
  auto link = minimise(to_vec(start), [&](const std::array<double, kN>& x) {
    double sum = 0;
    for (const auto& r : deepep_low_latency_rows(from_vec(x))) {
      const double a = std::log(r.predicted_dispatch_us / r.dispatch_us), b = std::log(r.predicted_combine_us / r.combine_us);
      sum += a * a + b * b;
    }
    return sum;
  }, kLinkMask);
  {
    double sum = 0;
    int n = 0;
    for (const auto& r : deepep_low_latency_rows(from_vec(link))) {
      const double a = std::log(r.predicted_dispatch_us / r.dispatch_us), b = std::log(r.predicted_combine_us / r.combine_us);
      sum += a * a + b * b;
      n += 2;
    }
    res.kernel_rms_log_error = std::sqrt(sum / n);
  }
  start = from_vec(link);

  // 1. Hopper family: all Hopper points, weak prior towards the spec-sheet-style defaults.
  std::vector<int> hopper;
  for (auto& [g, idx] : by_gpu)
    if (g.rfind("h", 0) == 0) hopper.insert(hopper.end(), idx.begin(), idx.end());
  const auto x0 = to_vec(Efficiency{});
  auto fam = minimise(to_vec(start), [&](const std::array<double, kN>& x) {
    std::map<std::string, Efficiency> eff;
    for (auto& [g, idx] : by_gpu) eff[g] = from_vec(x);
    return sq_err(hopper, eff, true) + prior(x, x0, 0.1);
  }, kComputeMask);
  res.family = from_vec(fam);

  // 2. Per silicon: one GEMM efficiency shared by the GPUs on the same die (same SMs and clocks),
  //    per GPU its HBM streaming efficiency, attention efficiency and step overhead. Priors pull
  //    towards the family (and attention towards FlashMLA's kernel figure), weaker with more points.
  std::map<std::string, std::vector<std::string>> by_silicon;
  for (auto& [g, idx] : by_gpu) by_silicon[find_gpu(g)->silicon].push_back(g);
  double total = 0;
  int count = 0;
  for (auto& entry : by_silicon) {
    const std::vector<std::string>& gpus = entry.second;  // (a structured binding cannot be captured in C++17)
    std::vector<int> idx_all;
    for (const auto& g : gpus) idx_all.insert(idx_all.end(), by_gpu[g].begin(), by_gpu[g].end());
    // Vector: [gemm, (hbm, attention, overhead) per GPU].
    std::vector<double> x{fam[0]};
    std::vector<Bound> bounds{kBounds[0]};
    std::vector<double> x0{fam[0]};
    std::vector<double> w{0.5 / idx_all.size()};
    for (const auto& g : gpus) {
      const double n = static_cast<double>(by_gpu[g].size());
      for (int k : {2, 1, 6}) {
        x.push_back(fam[k]);
        x0.push_back(fam[k]);
        bounds.push_back(kBounds[k]);
        w.push_back((k == 1 ? kPriorAttention : kPriorOther) / n);
      }
    }
    auto unpack = [&](const std::vector<double>& v) {
      std::map<std::string, Efficiency> eff;
      for (std::size_t j = 0; j < gpus.size(); ++j) {
        auto e = fam;
        e[0] = v[0];
        e[2] = v[1 + 3 * j];
        e[1] = v[2 + 3 * j];
        e[6] = v[3 + 3 * j];
        eff[gpus[j]] = from_vec(e);
      }
      return eff;
    };
    auto loss = [&](const std::vector<double>& v) {
      double pr = 0;
      for (std::size_t j = 0; j < v.size(); ++j) {
        const double d = std::log(v[j] / x0[j]);
        pr += w[j] * d * d;
      }
      return sq_err(idx_all, unpack(v)) + pr;
    };
    x = coordinate_descent(x, [&](std::size_t i) { return &bounds[i]; }, loss);
    auto eff = unpack(x);
    for (auto& [g, e] : eff) res.per_gpu[g] = e;
    total += sq_err(idx_all, eff);
    count += static_cast<int>(idx_all.size());
  }
  res.rms_log_error = count ? std::sqrt(total / count) : 0;
  return res;
}

std::vector<BenchmarkRow> leave_one_out() {
  std::vector<std::string> points;
  for (const auto& p : prepared()) {
    const std::string id = p.m.at("point");
    if (std::find(points.begin(), points.end(), id) == points.end()) points.push_back(id);
  }
  std::vector<BenchmarkRow> out;
  for (const auto& held : points) {
    const FitResult f = fit_efficiency({held});
    std::map<std::string, Efficiency> eff;
    for (const auto& g : gpu_presets()) eff[g.id] = f.per_gpu.count(g.id) ? f.per_gpu.at(g.id) : f.family;
    for (auto& row : run_benchmarks(eff))
      if (row.point == held) out.push_back(std::move(row));
  }
  return out;
}

}  // namespace slo
