// Configuration search (search.hpp): the Pareto frontier of tokens/s per GPU against tokens/s per
// user for a GPU budget, and the fewest GPUs meeting every target. Every configuration is a scenario
// evaluated by evaluate_scenario(); bounds skip configurations that cannot reach the frontier:
//  - colocated: capacity <= the pool's prefill capacity and tokens/s per user <= 1 / TPOT at one
//    sequence per DP group, both from a cheap evaluation (no capacity search); a configuration whose
//    bound is dominated by a point already found is not evaluated;
//  - disaggregated: the decode point (TPOT, batch) does not depend on the prefill pool and the
//    capacity is min(prefill, decode, KV transfer), so per split, KV precision and MTP only the prefill
//    layout and chunk with the largest prefill capacity is paired with the decode layouts.
#include <algorithm>
#include <cmath>
#include <optional>

#include "slo/analysis.hpp"
#include "slo/pool_memo.hpp"
#include "slo/search.hpp"
#include "batch_search.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

namespace {
// (x, y) = (tokens/s per user, tokens/s per GPU): a at least as good on both and better on one.
bool dominates_xy(double ax, double ay, double bx, double by) { return ax >= bx && ay >= by && (ax > bx || ay > by); }
}  // namespace

bool dominates(const SearchPoint& a, const SearchPoint& b) {
  return dominates_xy(a.tps_per_user, a.tps_per_gpu, b.tps_per_user, b.tps_per_gpu);
}

namespace {

std::vector<int> divisors(int n) {
  std::vector<int> d;
  for (int i = 1; i <= n; ++i)
    if (n % i == 0) d.push_back(i);
  return d;
}

}  // namespace

// Instance layouts of a pool of `n` GPUs that pass the scenario's divisibility rules.
std::vector<PoolConfig> pool_shapes(const ModelArch& m, int n, int gpn) {
  std::vector<PoolConfig> out;
  for (int g : divisors(n)) {
    // Instances of a power of two GPUs within a node, or whole nodes.
    if (!((g <= gpn && (g & (g - 1)) == 0) || g % gpn == 0)) continue;
    for (int pp : {1, 2}) {
      if (g % pp != 0 || pp > m.layers || (pp > 1 && g < 2 * gpn)) continue;
      const int stage = g / pp;
      for (int t : {1, 2, 4, 8, 16}) {
        if (stage % t != 0 || t > m.heads || m.heads % t != 0 || t > gpn) continue;
        PoolConfig p;
        p.gpus = n;
        p.replicas = n / g;
        p.pp = pp;
        p.attention_tp = t;
        if (!m.is_moe()) {
          if (t != stage) continue;  // dense: an instance is one TP group; replicas give data parallelism
          out.push_back(p);
          continue;
        }
        for (int moe_tp : {1, 2, 4, 8}) {
          if (stage % moe_tp != 0 || m.moe_intermediate % moe_tp != 0) continue;
          p.ep = stage / moe_tp;
          const int r0 = p.ep > 1 ? (p.ep - m.routed_experts % p.ep) % p.ep : 0;
          for (int r : {r0, r0 + p.ep}) {
            if (p.ep == 1 && r > 0) continue;
            if (p.ep > m.routed_experts + r) continue;
            p.redundant_experts = r;
            out.push_back(p);
          }
        }
      }
    }
  }
  return out;
}

namespace {

struct Space {
  const Scenario& s;
  const SearchOptions& o;
  int gpus = 0;
  std::vector<DType> kvs;
  std::vector<int> drafts;
};

Scenario base_scenario(const Space& sp) {
  Scenario c = sp.s;
  c.nodes = std::max(1, (sp.gpus + sp.s.gpus_per_node - 1) / sp.s.gpus_per_node);
  return c;
}

bool fits(const Evaluation& ev) {
  for (const auto& pe : ev.pools)
    if (!pe.plan.fits()) return false;
  return true;
}

double kind_tokens(const Scenario& s) { return tokens_of(s.slo.throughput_kind, s.workload.input_tokens, s.workload.output_tokens); }

// Bounds of the decode side of a pool from a cheap evaluation (no capacity search): the batch per DP
// group lies between b_lo (KV pool with the first plan's reserves, the cap, the TPOT limit) and b_hi
// (KV pool with the smallest reserves); tokens/s per user <= 1 / TPOT(b_lo) and output tokens/s <=
// the output at b_hi (without prefill: the colocated prefill share only lowers both).
struct DecodeBound {
  bool feasible = false;
  double x = 0, output_tps = 0;
};
DecodeBound decode_bound(const Evaluation& ev, PoolMemo& memo) {
  DecodeBound b;
  const PoolEval& pe = ev.decode_pool();
  const Scenario& s = ev.s;
  if (!pe.plan.fits()) return b;
  const double ctx = ev.running_context;
  const double cap_gpu = s.deployment.max_decode_batch_per_gpu > 0 ? s.deployment.max_decode_batch_per_gpu : 4096;
  const double cap = cap_gpu * pe.pool.cfg.attention_tp * pe.pool.cfg.pp;
  PoolMemoEntry& entry = memo.at(pe.pool);
  const MemoryPlan roomy = entry.plan(pe.pool, 1);
  auto kv_limit = [&](const MemoryPlan& m) {
    const double per = m.session_bytes(ctx);
    return per > 0 ? std::floor(m.kv_pool / per) : 0.0;
  };
  const double lo_kv = std::min(cap, kv_limit(pe.plan)), hi_kv = std::min(cap, kv_limit(roomy));
  if (hi_kv < 1) return b;
  const double limit = s.slo.tpot_ms > 0 ? s.slo.tpot_ms * 1e-3 : 0;
  auto tpot = [&](double n) { return ev.decode_tpot(n, 0, &entry); };  // decode_at(pe, n, ctx, 0, scale).tpot_s from the curve
  double b_tpot = hi_kv;
  // Candidates differing in their batch cap share the largest batch within the limit (pool_memo.hpp):
  // TPOT rises with the batch, so a cap at or below it meets the limit and one above it does not.
  const bool known = limit > 0 && entry.within_curve == entry.curve.get() && entry.within_limit == limit;
  if (known) {
    if (entry.within_batch < 1) return b;
    b_tpot = std::min(hi_kv, entry.within_batch);
  } else if (limit > 0 && tpot(hi_kv) > limit) {
    b_tpot = tpot(1) > limit ? 0.0 : largest_batch_within(tpot, 1, hi_kv, limit);
    entry.within_curve = entry.curve.get(), entry.within_limit = limit, entry.within_batch = b_tpot;
    if (b_tpot < 1) return b;
  }
  b.feasible = true;
  b.x = 1.0 / tpot(std::max(1.0, std::min(lo_kv, b_tpot)));
  const double b_out = std::min(hi_kv, b_tpot);
  b.output_tps = pe.plan.dp * b_out / tpot(b_out);  // decode_at(...).output_tps, from the curve
  return b;
}

// A feasible evaluation's figures as a point of the space, without its scenario.
struct Figures {
  double tps_per_gpu = 0, tps_per_user = 0, sessions = 0;
  TargetCheck met;
};
// False when it does not fit or serves no load.
bool point_figures(const Evaluation& ev, int gpus, Figures& f) {
  if (!fits(ev) || ev.lambda_max <= 0 || ev.op_max.tpot_s <= 0) return false;
  f.tps_per_gpu = ev.capacity_in_target_kind() / gpus;
  f.tps_per_user = 1.0 / ev.op_max.tpot_s;
  f.sessions = ev.sessions_target_ctx;
  f.met = check_targets(ev);
  return true;
}

SearchPoint make_point(const Scenario& c, const Figures& f, int gpus) {
  SearchPoint p;
  p.scenario = c;
  p.gpus = gpus;
  p.tps_per_gpu = f.tps_per_gpu;
  p.tps_per_user = f.tps_per_user;
  p.sessions = f.sessions;
  p.met = f.met;
  return p;
}

// A feasible evaluation as a point of the space (nullopt: it does not fit or serves no load).
std::optional<SearchPoint> point_of(const Scenario& c, const Evaluation& ev, int gpus) {
  Figures f;
  if (!point_figures(ev, gpus, f)) return std::nullopt;
  return make_point(c, f, gpus);
}

EvalOptions ttft_options(double time_scale) {
  EvalOptions e;
  e.time_scale = time_scale;
  e.ttft = true;
  e.ttft_requests = 1000;
  return e;
}

// TTFT of a point at the workload's load (from an evaluation with TTFT), and every target with it.
void add_ttft(SearchPoint& p, const Evaluation& ev) {
  p.met = check_targets(ev);
  p.ttft_known = ev.ttft.stable && ev.ttft.simulated > 0;
  p.ttft_p50 = p.ttft_known ? ev.ttft.p50 : 0;
  p.ttft_p90 = p.ttft_known ? ev.ttft.p90 : 0;
}

struct Search {
  Space sp;
  SearchResult res;
  const SearchProgress& progress;
  // Every candidate's evaluation shares the pools earlier candidates had (pool_memo.hpp).
  PoolMemo memo;

  EvalOptions quick() {
    EvalOptions e;
    e.time_scale = sp.o.time_scale;
    e.ttft = false;
    e.memo = &memo;
    return e;
  }

  bool dominated(double x, double y) const {
    for (const auto& p : res.frontier)
      if (p.tps_per_user >= x && p.tps_per_gpu >= y) return true;
    return false;
  }



  Evaluation eval(const Scenario& c, const EvalOptions& e) {
    ++res.evaluated;
    return evaluate_scenario(c, e);
  }

  // What a candidate changes in the base scenario (plain values: no strings to copy).
  struct Knobs {
    DType kv = DType::BF16;
    bool disaggregated = false;
    PoolConfig colocated, prefill, decode;
    int chunk = 0, draft = 0, cap = 0;
  };
  static Knobs knobs_of(const Scenario& c) {
    const Deployment& d = c.deployment;
    return Knobs{c.precision.kv_cache, d.disaggregated, d.colocated, d.prefill, d.decode, d.chunked_prefill_tokens, d.mtp.draft_tokens,
                 d.max_decode_batch_per_gpu};
  }
  static void apply(Scenario& c, const Knobs& k) {
    Deployment& d = c.deployment;
    c.precision.kv_cache = k.kv;
    d.disaggregated = k.disaggregated;
    d.colocated = k.colocated;
    d.prefill = k.prefill;
    d.decode = k.decode;
    d.chunked_prefill_tokens = k.chunk;
    d.mtp.draft_tokens = k.draft;
    d.max_decode_batch_per_gpu = k.cap;
  }
  // One evaluation whose scenario, a copy of the base made once, takes each candidate's knobs and is
  // evaluated again in place (reevaluate): no Scenario copy or move per candidate (issue 11).
  Evaluation work;
  template <class F>
  auto with_knobs(const Knobs& k, const EvalOptions& e, F&& use) {
    apply(work.s, k);
    ++res.evaluated;
    reevaluate(work, e);
    return use(static_cast<const Evaluation&>(work));
  }

  struct Cand {
    Knobs k;
    double x_bound, y_bound;
  };
  // Every feasible configuration evaluated (for the top list): its knobs and figures; the scenario is
  // made from the knobs only for the few the top list tries (no Scenario copy per candidate).
  struct Seen {
    Knobs k;
    Figures figures;
    bool taken = false;  // tried for the top list
  };
  std::vector<Seen> all;

  void add(const Knobs& k, const Evaluation& ev) {
    Figures f;
    if (!point_figures(ev, sp.gpus, f)) return;
    all.push_back(Seen{k, f});
    for (const auto& q : res.frontier)
      if (q.tps_per_user >= f.tps_per_user && q.tps_per_gpu >= f.tps_per_gpu) return;  // dominated or equal
    auto beaten = [&](const SearchPoint& q) { return dominates_xy(f.tps_per_user, f.tps_per_gpu, q.tps_per_user, q.tps_per_gpu); };
    res.frontier.erase(std::remove_if(res.frontier.begin(), res.frontier.end(), beaten), res.frontier.end());
    res.frontier.push_back(make_point(ev.s, f, sp.gpus));  // a frontier point carries its scenario
  }
  // A candidate with its bounds, from a cheap evaluation; false when it cannot be feasible.
  bool bound(const Knobs& k, double prefill_rps_cap, std::vector<Cand>& out) {
    EvalOptions cheap = quick();
    cheap.capacity = false;
    return with_knobs(k, cheap, [&](const Evaluation& ev) { return bound_of(ev, prefill_rps_cap, k, out); });
  }

  bool bound_of(const Evaluation& ev, double prefill_rps_cap, const Knobs& k, std::vector<Cand>& out) {
    if (!fits(ev) || ev.prefill_tokens_s <= 0) return false;
    const DecodeBound db = decode_bound(ev, memo);
    if (!db.feasible) return false;
    const Workload& w = ev.s.workload;
    double rps = std::min({prefill_rps_cap, ev.prefill_tokens_s / w.input_tokens, db.output_tps / w.output_tokens});
    if (!ev.disaggregated()) {
      // Colocated: at lambda the decode side keeps at most 1 - (prefill work share) of the GPU time.
      double lo = 0, hi = rps;
      for (int i = 0; i < 30; ++i) {
        const double mid = 0.5 * (lo + hi);
        (mid * w.output_tokens <= db.output_tps * (1.0 - std::min(1.0, ev.prefill_work_share(mid))) ? lo : hi) = mid;
      }
      rps = hi;
    }
    out.push_back(Cand{k, db.x, rps * kind_tokens(ev.s) / sp.gpus});
    return true;
  }

  // Most promising first, so that bounds prune the rest (ties keep their order: deterministic).
  void evaluate_all(std::vector<Cand>& cands, double f0, double f1) {
    std::vector<std::size_t> order(cands.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cands[a].y_bound > cands[b].y_bound; });
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (i % 16 == 0 && !tick(f0 + (f1 - f0) * i / cands.size())) return;
      const Cand& c = cands[order[i]];
      if (dominated(c.x_bound, c.y_bound)) {
        ++res.pruned;
        continue;
      }
      with_knobs(c.k, quick(), [&](const Evaluation& ev) { return add(c.k, ev), 0; });
    }
  }

  void colocated(const Scenario& base) {
    std::vector<Cand> cands;
    const std::vector<PoolConfig> shapes = pool_shapes(base.model, sp.gpus, base.gpus_per_node);
    cands.reserve(sp.kvs.size() * sp.drafts.size() * shapes.size() * sp.o.decode_batches.size());
    Knobs k = knobs_of(base);
    k.disaggregated = false;
    for (DType kv : sp.kvs)
      for (int d : sp.drafts)
        for (const PoolConfig& shape : shapes)
          for (int cap : sp.o.decode_batches) {
            ++res.considered;
            k.kv = kv;
            k.colocated = shape;
            k.draft = d;
            k.cap = cap;
            bound(k, 1e300, cands);
          }
    evaluate_all(cands, 0.5, 0.9);
  }

  void disaggregated(const Scenario& base, int prefill_gpus) {
    const int gpn = base.gpus_per_node;
    const std::vector<PoolConfig> pre_shapes = pool_shapes(base.model, prefill_gpus, gpn);
    const std::vector<PoolConfig> dec_shapes = pool_shapes(base.model, sp.gpus - prefill_gpus, gpn);
    if (pre_shapes.empty() || dec_shapes.empty()) return;
    EvalOptions cheap = quick();
    cheap.capacity = false;
    for (DType kv : sp.kvs)
      for (bool mtp_on : {false, true}) {
        if (mtp_on && sp.drafts.size() < 2) continue;
        // The prefill side with the largest capacity (prefill does not depend on the decode layout).
        Knobs k = knobs_of(base);
        k.kv = kv;
        k.disaggregated = true;
        k.decode = dec_shapes.front();
        k.draft = mtp_on ? 1 : 0;
        double best = 0, best_pass = 0;
        bool found = false;
        PoolConfig best_shape;
        int best_chunk = 0;
        for (const PoolConfig& ps : pre_shapes)
          for (int chunk : sp.o.chunks) {
            k.prefill = ps;
            k.chunk = chunk;
            with_knobs(k, cheap, [&](const Evaluation& ev) {
              if (!ev.prefill_pool().plan.fits()) return 0;
              const double cap = ev.prefill_tokens_s;
              if (!found || cap > best || (cap == best && ev.prefill_step.total < best_pass)) {
                best = cap;
                best_pass = ev.prefill_step.total;
                best_shape = ps;
                best_chunk = chunk;
                found = true;
              }
              return 0;
            });
          }
        res.pruned += static_cast<int>(pre_shapes.size() * sp.o.chunks.size()) - 1;
        if (!found) continue;
        k.prefill = best_shape;
        k.chunk = best_chunk;
        std::vector<Cand> cands;
        cands.reserve(sp.drafts.size() * dec_shapes.size() * sp.o.decode_batches.size());
        for (int d : sp.drafts) {
          if ((d > 0) != mtp_on) continue;
          k.draft = d;
          for (const PoolConfig& ds : dec_shapes)
            for (int cap : sp.o.decode_batches) {
              res.considered += static_cast<int>(pre_shapes.size() * sp.o.chunks.size());
              k.decode = ds;
              k.cap = cap;
              bound(k, best / base.workload.input_tokens, cands);
            }
        }
        evaluate_all(cands, 0.5, 0.5);
      }
  }

  bool tick(double f) {
    if (res.cancelled) return false;
    if (progress && !progress(std::clamp(f, 0.0, 1.0))) res.cancelled = true;
    return !res.cancelled;
  }

  void with_ttft(SearchPoint& p) {
    EvalOptions e = ttft_options(sp.o.time_scale);
    e.memo = &memo;
    add_ttft(p, eval(p.scenario, e));
  }

  void run() {
    const Scenario base = base_scenario(sp);
    work.s = base;
    const int gpn = base.gpus_per_node;
    // Disaggregated first: its evaluations are cheap, and its points prune the colocated ones.
    if (sp.o.disaggregated) {
      std::vector<int> splits;
      if (sp.gpus >= 2 * gpn) {
        for (int p = gpn; p < sp.gpus; p += gpn) splits.push_back(p);
      } else {
        for (int p = 1; p < sp.gpus; p *= 2) splits.push_back(p);
      }
      for (std::size_t i = 0; i < splits.size() && tick(0.5 * i / splits.size()); ++i) disaggregated(base, splits[i]);
    }
    if (sp.o.colocated && !res.cancelled) colocated(base);
    std::stable_sort(res.frontier.begin(), res.frontier.end(), [](const SearchPoint& a, const SearchPoint& b) { return a.tps_per_user < b.tps_per_user; });
    for (std::size_t i = 0; i < res.frontier.size(); ++i) {
      if (i % 4 == 0 && !tick(0.9 + 0.05 * i / res.frontier.size())) return;
      with_ttft(res.frontier[i]);
    }
    // The top list: every target met (TTFT simulated), most tokens/s per GPU first, the earliest
    // evaluated first among equals. At most 4 x top are tried, each picked by one scan.
    int tried = 0;
    while (static_cast<int>(res.top.size()) < sp.o.top && tried < 4 * sp.o.top) {
      Seen* best = nullptr;
      for (auto& seen : all) {
        const TargetCheck& m = seen.figures.met;
        if (seen.taken || !(m.memory && m.concurrency && m.throughput && m.tpot)) continue;
        if (!best || seen.figures.tps_per_gpu > best->figures.tps_per_gpu) best = &seen;
      }
      if (!best) break;
      best->taken = true;
      if (tried % 4 == 0 && !tick(0.95 + 0.05 * tried / (4.0 * sp.o.top))) return;
      ++tried;
      SearchPoint p = make_point(base, best->figures, sp.gpus);
      apply(p.scenario, best->k);
      with_ttft(p);
      if (p.met.all()) res.top.push_back(std::move(p));
    }
    tick(1.0);
  }
};

SearchResult search_budget(const Scenario& s, const SearchOptions& o, int gpus, const SearchProgress& progress) {
  Space sp{s, o, gpus, {s.precision.kv_cache}, {0}};
  if (o.kv_fp8 && (s.precision.kv_cache == DType::BF16 || s.precision.kv_cache == DType::FP16)) sp.kvs.push_back(DType::FP8);
  if (o.mtp && s.model.mtp_layers > 0) sp.drafts = {0, 1, 2, 3};
  Search run{sp, {}, progress, {}, {}, {}};
  run.res.gpus = gpus;
  run.run();
  return run.res;
}

}  // namespace

SearchPoint scenario_point(const Scenario& s, double time_scale) {
  const Evaluation ev = evaluate_scenario(s, ttft_options(time_scale));
  std::optional<SearchPoint> p = point_of(s, ev, s.cluster_gpus());
  if (!p) {
    SearchPoint none;
    none.scenario = s;
    none.met = check_targets(ev);
    return none;
  }
  add_ttft(*p, ev);
  return *p;
}

SearchResult search_configurations(const Scenario& s, const SearchOptions& o, const SearchProgress& progress) {
  if (!o.fewest) return search_budget(s, o, o.gpus > 0 ? o.gpus : s.cluster_gpus(), progress);
  // Fewest GPUs: budgets upward, node by node; the first with a configuration meeting every target.
  const int max_nodes = o.max_nodes > 0 ? o.max_nodes : std::min(64, std::max(16, 4 * s.nodes));
  SearchResult total;
  for (int n = 1; n <= max_nodes; ++n) {
    auto sub = [&](double f) { return !progress || progress((n - 1 + f) / max_nodes); };
    SearchResult r = search_budget(s, o, n * s.gpus_per_node, sub);
    total.evaluated += r.evaluated;
    total.considered += r.considered;
    total.pruned += r.pruned;
    if (r.cancelled) {
      total.cancelled = true;
      return total;
    }
    if (!r.top.empty()) {
      r.evaluated = total.evaluated;
      r.considered = total.considered;
      r.pruned = total.pruned;
      return r;
    }
  }
  total.gpus = 0;
  return total;
}

}  // namespace slo

SLO_SIZE_END
