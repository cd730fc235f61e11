// The corrected method: memory, prefill capacity, decode operating point, system capacity, TTFT.
#include "slo/evaluation.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>
#include <utility>
#include <cmath>

#include "slo/kv_cache.hpp"
#include "slo/pool_memo.hpp"
#include "slo/workloads.hpp"
#include "batch_search.hpp"

namespace slo {

void make_pools(std::vector<PoolEval>& out, const Deployment& d, int gpn) {
  out.clear();
  out.reserve(2);
  auto add = [&](const char* role, const PoolConfig& cfg, Phase ph) {
    PoolEval& pe = out.emplace_back();
    pe.role = role;
    pe.pool.cfg = cfg;
    pe.pool.gpus_per_node = gpn;
    pe.pool.phase = ph;
    pe.pool.with_mtp = d.mtp.draft_tokens > 0;
  };
  if (d.disaggregated) {
    add("prefill", d.prefill, Phase::Prefill);
    add("decode", d.decode, Phase::Decode);
  } else {
    add("colocated", d.colocated, Phase::Colocated);
  }
}

namespace {

// LengthDist solves for its rate by bisection; fits and searches evaluate the same workloads many
// times, so each thread keeps their solutions (identical results, no shared state). A fit cycles
// through hundreds of distinct workloads (a last-16 cache missed nearly every time: 12% of a fit's
// time went to re-solving); the map is cleared when it reaches 4,096 entries.
LengthDist cached_length_dist(double mean, double max) {
  thread_local std::map<std::pair<double, double>, LengthDist> cache;
  const auto key = std::make_pair(mean, max);
  if (const auto hit = cache.find(key); hit != cache.end()) return hit->second;
  if (cache.size() >= 4096) cache.clear();
  return cache.emplace(key, LengthDist(mean, max)).first->second;
}

void bind(PoolEval& pe, const Scenario& s, const Deployment& d, const Precision& p, const Gpu& g) {
  pe.pool.model = &s.model;
  pe.pool.precision = &p;
  pe.pool.gpu = &g;
  pe.pool.deployment = &d;
}

// The root of f on [lo, hi] where f(lo) > 0 >= f(hi) (hi itself when f(hi) > 0): a bracket narrowed
// to `tol` relative, its left end on the f > 0 side (or `lo`), its right end on f <= 0. Illinois false
// position, with a bisection step whenever the bracket fails to halve, so a step function (integer
// expert counts) still converges; each f is a decode step, so ~8 of them instead of bisection's 50.
// Source: Dowell & Jarratt (1971), BIT 11.
struct Bracket {
  double lo, hi;
};
template <class F>
Bracket bracket_root(F&& f, double lo, double hi, double tol = 1e-10) {
  double flo = f(lo), fhi = f(hi);
  if (fhi > 0) return {hi, hi};
  int side = 0;
  for (int i = 0; i < 100 && hi - lo > tol * std::max(1.0, hi); ++i) {
    const double width = hi - lo;
    double x = lo + flo * (hi - lo) / (flo - fhi);
    if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
    const double fx = f(x);
    if (fx > 0) {
      lo = x, flo = fx;
      if (side == -1) fhi *= 0.5;  // Illinois: halve the stale end's value
      side = -1;
    } else {
      hi = x, fhi = fx;
      if (side == 1) flo *= 0.5;
      side = 1;
    }
    if (hi - lo > 0.5 * width) {  // slow progress: bisect once
      const double m = 0.5 * (lo + hi);
      const double fm = f(m);
      (fm > 0 ? lo : hi) = m;
      (fm > 0 ? flo : fhi) = fm;
      side = 0;
    }
  }
  return {lo, hi};
}

double tokens_of_kind(ThroughputKind k, double in, double out) {
  return k == ThroughputKind::Output ? out : k == ThroughputKind::Input ? in : in + out;
}

// One full-budget prefill pass per DP group: `chunk` tokens; sequences and causal work follow the
// input distribution (token-weighted mean prefix of a token is E[L^2] / (2 E[L])), and the pass
// carries on the request the previous one cut (cut_prefix).
StepParts full_prefill_pass(const PoolEval& pe, const LengthDist& in, double scale) {
  const double chunk = pe.pool.deployment->chunked_prefill_tokens;
  const double seqs = std::max(1.0, chunk / in.mean());
  const double work = chunk * in.biased_done();
  return pool_prefill_pass(pe, chunk, seqs, work, cut_prefix(in, chunk), scale);
}

// The full prefill pass of a pool, from a search's memo when there is one (computed on a miss, or
// when the memo's was made at other input lengths or another time scale).
StepParts memo_prefill_pass(PoolMemoEntry* memo, const PoolEval& pe, const Workload& w, const LengthDist& in, double scale) {
  if (memo && memo->has_prefill && memo->prefill_in_mean == w.input_tokens && memo->prefill_in_max == w.input_tokens_max &&
      memo->prefill_scale == scale)
    return memo->prefill;
  const StepParts pass = full_prefill_pass(pe, in, scale);
  if (memo) {
    memo->prefill = pass, memo->has_prefill = true;
    memo->prefill_in_mean = w.input_tokens, memo->prefill_in_max = w.input_tokens_max, memo->prefill_scale = scale;
  }
  return pass;
}

double pool_tokens_per_step(const PoolEval& pe) { return pe.pool.with_mtp ? tokens_per_step(pe.pool.deployment->mtp) : 1.0; }

// TPOT = step time / tokens per step, stretched by the time the GPUs spend on prefill.
double tpot_of_step(double step_total, double per_step, double prefill_share) {
  return step_total / per_step / std::max(1e-6, 1.0 - prefill_share);
}

// decode_step() through the pool's memo (a pure function of these arguments for one pool).
StepParts memo_decode_step(const PoolEval& pe, double seqs, double context, double scale) {
  if (!pe.decode_memo) pe.decode_memo = std::make_shared<PoolEval::StepMemo>();
  const auto key = std::make_tuple(seqs, context, scale);
  const auto it = pe.decode_memo->find(key);
  if (it != pe.decode_memo->end()) return it->second;
  StepParts s = pool_decode_step(pe, seqs, context, scale);
  if (pe.decode_memo->size() < 4096) pe.decode_memo->emplace(key, s);
  return s;
}

}  // namespace

DecodePoint decode_at(const PoolEval& pe, double in_flight, double context, double prefill_share, double scale) {
  DecodePoint d;
  const int pp = pe.pool.cfg.pp;
  d.in_flight = in_flight;
  d.context = context;
  d.tokens_per_step = pool_tokens_per_step(pe);
  const double seqs = std::max(1.0, in_flight / pp);
  d.step = memo_decode_step(pe, seqs, context, scale);
  d.prefill_share = prefill_share;
  d.tpot_s = tpot_of_step(d.step.total, d.tokens_per_step, prefill_share);
  d.output_tps = pe.plan.dp * in_flight / d.tpot_s;
  return d;
}

double request_fixed_s(const Evaluation& ev) {
  const EngineOverheads& o = ev.s.deployment.engine.overheads;
  // Fixed per-request time a client sees in TTFT: tokenizer, scheduling, HTTP, detokenizing the first
  // token (engine profile: host work), the PD handshake, and the first decode step where the engine needs one.
  double t = o.request_ms * 1e-3 + ev.first_decode_s;
  if (ev.disaggregated()) t += o.pd_bootstrap_ms * 1e-3;
  // With PP a prompt crosses every stage: the pass time counts one stage.
  const int pp = ev.prefill_pool().pool.cfg.pp;
  if (pp > 1) t += (pp - 1) * ev.prefill_step.total * std::min(1.0, ev.input.mean() / std::max(1.0, ev.s.deployment.chunked_prefill_tokens + 0.0));
  return t * ev.time_scale;
}

Scenario reference_scenario(const Scenario& s) {
  Scenario r = s;
  const Reference& ref = s.reference;
  r.name = ref.name;
  r.gpu_id = ref.gpu_id;
  r.gpu = ref.gpu;
  r.gpus_per_node = ref.gpus_per_node;
  r.nodes = std::max(1, (ref.gpus() + ref.gpus_per_node - 1) / ref.gpus_per_node);
  r.precision = ref.precision;
  r.deployment = ref.deployment;
  r.workload = ref.workload;
  r.slo = Slo{};
  r.slo.concurrent_sessions = 0;
  r.slo.throughput_tokens_per_s = 0;
  r.slo.ttft_p50_ms = 0;
  r.slo.tpot_ms = ref.tpot_limit_ms;
  r.reference.present = false;
  return r;
}

void Evaluation::rebind() {
  for (auto& pe : pools) {
    bind(pe, s, s.deployment, s.precision, s.gpu);
    pe.plan.pool = &pe.pool;
  }
}

double EvaluationFigures::decode_tpot(double in_flight, double share, PoolMemoEntry* memo) const {
  const PoolEval& dec = decode_pool();
  const double seqs = std::max(1.0, in_flight / dec.pool.cfg.pp);
  const double total = !decode_curve ? 0.0 : memo && memo->curve == decode_curve ? memo->curve_total(seqs) : decode_curve->total(seqs);
  return tpot_of_step(total, pool_tokens_per_step(dec), share);
}

double EvaluationData::prefill_work_share(double lambda) const {
  return disaggregated() ? 0.0 : prefill_utilisation(lambda);
}

double EvaluationData::prefill_utilisation(double lambda) const {
  const PoolEval& pre = prefill_pool();
  if (pre.plan.dp <= 0) return 0.0;
  // Each prefill pass pays a fixed cost (eager launches, scheduling); requests arriving while a pass
  // runs share the next one: m = (1 + lambda_g t_f) / (1 - lambda_g L s) requests per pass, at most a
  // chunk's worth. Light load: one pass per request; heavy load: full chunks (M/G/1 bulk service).
  const double lg = lambda / pre.plan.dp, in = s.workload.input_tokens;
  const double chunk = s.deployment.chunked_prefill_tokens;
  const double cap = chunk / in;
  const double denom = 1.0 - lg * in * prefill_s_per_token_var;
  const double m = denom > 1e-9 ? std::min(cap, (1.0 + lg * prefill_pass_fixed_s) / denom) : cap;
  return lg * (prefill_pass_fixed_s / std::max(m, 1e-9) + in * prefill_s_per_token_var);
}

double EvaluationData::prefill_share(double lambda) const {
  const double work = prefill_work_share(lambda);
  const int dp = prefill_pool().pool.dp();  // ranks of one instance stall each other; replicas do not
  if (!s.model.is_moe() || dp <= 1 || work >= 1) return work;
  // DP-attention ranks meet at every MoE layer, so a prefill chunk on one rank stalls the others
  // (LMSYS 96xH100 blog, "one DP worker may process a prefill batch while another handles a decode
  // batch, leading to increased decode latency"): the local part of each rank's prefill busies all
  // ranks (union of dp independent busy fractions), the routed-expert part is shared.
  const double f = prefill_local_fraction;
  double idle = 1.0, base = 1.0 - std::min(1.0, work * f);  // base^dp by squaring: dp is a whole number of ranks
  for (int e = dp; e > 0; e >>= 1, base *= base)
    if (e & 1) idle *= base;
  return std::min(1.0, 1.0 - idle + work * (1.0 - f));
}

double EvaluationData::capacity_in_target_kind() const {
  return s.slo.throughput_kind == ThroughputKind::Output  ? output_tps_max
         : s.slo.throughput_kind == ThroughputKind::Input ? input_tps_max
                                                          : total_tps_max;
}

namespace {
bool evaluate_capacity(Evaluation& ev, const EvalOptions& o);
void evaluate_at_load(Evaluation& ev, const EvalOptions& o);
}  // namespace

Evaluation evaluate_scenario(const Scenario& scenario, const EvalOptions& o) { return evaluate_scenario(Scenario(scenario), o); }

Evaluation evaluate_scenario(Scenario&& scenario, const EvalOptions& o) {
  Evaluation ev;
  ev.s = std::move(scenario);
  if (evaluate_capacity(ev, o)) evaluate_at_load(ev, o);
  return ev;
}

void reevaluate(Evaluation& ev, const EvalOptions& o) {
  std::vector<PoolEval> pools = std::move(ev.pools);  // its buffer is kept for the new pools
  static_cast<EvaluationFigures&>(ev) = EvaluationFigures{};
  ev.pools = std::move(pools);
  if (evaluate_capacity(ev, o)) evaluate_at_load(ev, o);
}

Evaluation evaluate_at_rate(const Evaluation& base, double arrival_qpm, const EvalOptions& o) {
  Evaluation ev = base;
  ev.s.workload.arrival_qpm = arrival_qpm;
  evaluate_at_load(ev, o);
  return ev;
}

namespace {

// What bounds the decode batch (or the load): an enum in the capacity search's hot loop, named once
// at the end (issue 11: no string compares or copies per probe).
enum class Bound : unsigned char { Kv, Cap, Tpot, Prefill };
const char* bound_name(Bound b) {
  switch (b) {
    case Bound::Kv: return "kv";
    case Bound::Cap: return "cap";
    case Bound::Tpot: return "tpot";
    case Bound::Prefill: break;
  }
  return "prefill";
}

// The capacity search's rate bracket: `lo` keeps up with the load, `hi` does not; each end's decode
// batch and what bounds it.
struct RateBracket {
  double lo, hi, b_lo, b_hi;
  Bound bound_lo, bound_hi;
};

// One function of the rate for every root solve_rate_segment takes (one instantiation of
// bracket_root): the decode side's surplus over the load at batch b, or (gap) how far TPOT at batch b
// is under the limit.
template <class Tpot>
struct SegmentFn {
  const Tpot& tpot;
  double dp, out, limit, b;
  bool gap;
  double operator()(double rate) const {
    if (gap) return limit - tpot(b, rate);
    return b < 1 ? -rate * out : dp * b / tpot(b, rate) - rate * out;
  }
};

// Once bisection has narrowed the rate to one batch change, the crossing is solved rather than
// bisected: within one decode batch b the capacity dp b / TPOT(b, share(rate)) is smooth and falls
// with the rate, and b drops by one where TPOT(b, share(rate)) reaches the limit. `tpot(b, rate)`:
// the decode TPOT at that rate's prefill share. False (bracket kept) while the ends are further apart.
template <class Tpot>
bool solve_rate_segment(RateBracket& r, double dp, double out, double tpot_limit, const Tpot& tpot) {
  auto surplus = [&](double b) { return SegmentFn<Tpot>{tpot, dp, out, tpot_limit, b, false}; };
  constexpr double tol = 1e-13;
  if (r.b_lo == r.b_hi && r.bound_lo == r.bound_hi && r.b_lo >= 1) {
    r.lo = bracket_root(surplus(r.b_lo), r.lo, r.hi, tol).lo;
    return true;
  }
  if (r.b_lo - r.b_hi != 1 || r.bound_hi != Bound::Tpot || tpot_limit <= 0) return false;
  // Where the larger batch stops meeting the TPOT limit.
  const Bracket j = bracket_root(SegmentFn<Tpot>{tpot, dp, out, tpot_limit, r.b_lo, true}, r.lo, r.hi, tol);
  if (surplus(r.b_lo)(j.lo) < 0) {  // the larger batch falls behind the load first
    r.lo = bracket_root(surplus(r.b_lo), r.lo, j.lo, tol).lo;
    r.bound_hi = r.bound_lo;
  } else if (surplus(r.b_hi)(j.hi) >= 0) {  // the smaller batch still keeps up past the change
    r.lo = bracket_root(surplus(r.b_hi), j.hi, r.hi, tol).lo;
  } else {
    r.lo = j.lo;
  }
  return true;
}

// Memory plans, prefill capacity, the decode operating point at the TPOT limit, system capacity and
// KV capacity: everything that does not depend on the workload's load. False when only the load
// kind's figures were asked for (already computed).
bool evaluate_capacity(Evaluation& ev, const EvalOptions& o) {
  const Scenario& s = ev.s;
  ev.time_scale = o.time_scale;
  ev.params = o.memo ? o.memo->params(s.model) : count_params(s.model);
  make_pools(ev.pools, s.deployment, s.gpus_per_node);
  PoolMemoEntry* memo[2] = {nullptr, nullptr};  // the search's entry of each pool (none outside a search)
  for (std::size_t i = 0; i < ev.pools.size(); ++i) {
    PoolEval& pe = ev.pools[i];
    bind(pe, s, s.deployment, s.precision, s.gpu);
    pe.gemm_bound = block_fp8_bound(pe.pool);
    if (o.memo) memo[i] = &o.memo->at(pe.pool);
    pe.consts = memo[i] ? memo[i]->consts : std::make_shared<const StepConsts>(step_consts(pe.pool));
  }
  const Workload& w = s.workload;
  ev.input = cached_length_dist(w.input_tokens, w.input_tokens_max);
  ev.output = cached_length_dist(w.output_tokens, w.output_tokens_max);
  // A decoding sequence is a length-biased draw (a slot holds a long request longer): its output so
  // far averages LengthDist::biased_done (renewal-reward theorem).
  ev.running_context = std::min(w.context_length, w.input_tokens + ev.output.biased_done());
  const double scale = o.time_scale;
  PoolMemoEntry* const dec_memo = memo[ev.pools.size() - 1];
  ev.decode_curve = memo_curve(dec_memo, ev.pools.back().pool, *ev.pools.back().consts, ev.running_context, scale);
  const double tpot_limit = s.slo.tpot_ms > 0 ? s.slo.tpot_ms * 1e-3 : 0.0;
  // max_decode_batch_per_gpu is per GPU: a DP group of attention_tp GPUs runs attention_tp times as many.
  const double cap_gpu = s.deployment.max_decode_batch_per_gpu > 0 ? s.deployment.max_decode_batch_per_gpu : 4096;
  const double cap_b = cap_gpu * s.deployment.decode_or_colocated().attention_tp;

  // Memory plans: reserves first sized for the default decode batch, then for the operating point.
  for (std::size_t i = 0; i < ev.pools.size(); ++i) ev.pools[i].plan = memo_plan(memo[i], ev.pools[i].pool, std::min(cap_b, kDefaultDecodeBatch));
  PoolEval& dec = ev.pools.back();
  PoolEval& pre = ev.pools.front();

  // Prefill capacity.
  ev.prefill_step = memo_prefill_pass(memo[0], pre, w, ev.input, scale);
  const double chunk = s.deployment.chunked_prefill_tokens;
  ev.prefill_s_per_token = ev.prefill_step.total / chunk;  // per DP group, full chunks
  ev.prefill_pass_fixed_s = ev.prefill_step.overhead;
  ev.prefill_s_per_token_var = std::max(0.0, ev.prefill_step.total - ev.prefill_step.overhead) / chunk;
  ev.prefill_tokens_s = pre.plan.fits() ? pre.plan.dp * chunk / ev.prefill_step.total : 0;
  if (s.model.is_moe() && ev.prefill_step.total > 0) {
    // Routed-expert share of the GEMM FLOPs (top-k experts of every MoE layer over the active
    // parameters outside the embedding and head) plus the EP communication are shared work.
    const double active = ev.params.active_no_embedding_no_head;
    const double routed = static_cast<double>(s.model.experts_per_tok) * ev.params.per_expert * s.model.moe_layers();
    const double shared_t = ev.prefill_step.gemm * (active > 0 ? routed / active : 0) + ev.prefill_step.exposed_comm;
    ev.prefill_local_fraction = std::clamp(1.0 - shared_t / ev.prefill_step.total, 0.0, 1.0);
  }

  // Largest in-flight batch per DP group allowed by KV (per GPU pool / per-session bytes).
  double kv_dec = -1;  // kv_limit(dec) for the decode pool's current plan (-1: not computed yet)
  auto kv_limit = [&](const PoolEval& pe) {
    const double per = pe.plan.session_bytes(ev.running_context);
    return pe.plan.fits() && per > 0 ? std::floor(pe.plan.kv_pool / per) : 0.0;
  };
  // TPOT of the decode pool at an integer batch: the step time does not depend on the prefill share,
  // so the capacity search (40 shares x a search on the batch, mostly the same batches) takes each
  // batch's step from the decode curve once.
  CurveTotals<256> step_totals;
  const double tokens_step = pool_tokens_per_step(dec);
  auto dec_step_total = [&](double b) { return step_totals.at(*ev.decode_curve, std::max(1.0, b / dec.pool.cfg.pp)); };
  auto tpot_of = [&](double b, double share) { return tpot_of_step(dec_step_total(b), tokens_step, share); };
  // Largest decode batch with TPOT <= limit (given the prefill share), bounded by KV and the cap.
  // `known_ok` / `known_bad`: batches already known to meet / miss the limit at this share (from
  // the bisection's neighbours: a larger share allows no larger batch), so the search starts there.
  auto best_batch = [&](double share, Bound& limit, double known_ok, double known_bad) {
    if (kv_dec < 0) kv_dec = kv_limit(dec);
    const double kv = kv_dec;
    const double cap = cap_b * dec.pool.cfg.pp;
    double hi = std::min(kv, cap);
    limit = kv <= cap ? Bound::Kv : Bound::Cap;
    if (hi < 1) {
      limit = Bound::Kv;
      return 0.0;
    }
    if (tpot_limit <= 0) return hi;
    if (tpot_of(hi, share) <= tpot_limit) return hi;
    if (tpot_of(1, share) > tpot_limit) {
      limit = Bound::Tpot;
      return 0.0;
    }
    limit = Bound::Tpot;
    return largest_batch_within([&](double b) { return tpot_of(b, share); }, std::max(1.0, known_ok), std::min(hi, known_bad), tpot_limit);
  };
  // Prefill share of a colocated pool at `lambda` requests/s.
  auto share_at = [&](double lambda) { return ev.prefill_share(lambda); };
  // Output tokens/s the decode side delivers at its best batch when the load is `lambda`.
  // (decode_at's output_tps from the cached step time, identical arithmetic: the bisection below
  // only compares it; `b` is the batch, 0 when none.)
  auto decode_capacity_tps = [&](double lambda, Bound& limit, double& b, double known_ok, double known_bad) {
    b = 0;
    const double share = share_at(lambda);
    if (share >= 1) {
      limit = Bound::Prefill;
      return 0.0;
    }
    b = best_batch(share, limit, known_ok, known_bad);
    return b < 1 ? 0.0 : dec.plan.dp * b / tpot_of(b, share);
  };
  // The same, with the decode point at that batch.
  auto decode_capacity = [&](double lambda, DecodePoint& dp_out, Bound& limit) {
    double b = 0;
    const double tps = decode_capacity_tps(lambda, limit, b, 1, 1e300);
    if (b >= 1) dp_out = decode_at(dec, b, ev.running_context, share_at(lambda), scale);
    return tps;
  };

  // Re-size reserves once for the operating batch (the first plan assumed the default batch).
  if (o.capacity) {
    Bound limit = Bound::Prefill;
    double in_flight = 0;
    decode_capacity_tps(0, limit, in_flight, 1, 1e300);  // the batch only: no decode point needed
    if (in_flight >= 1) {
      const double b = in_flight / dec.pool.cfg.pp;
      if (std::fabs(b - kDefaultDecodeBatch) > 0.5) dec.plan = memo_plan(dec_memo, dec.pool, b), kv_dec = -1;
    }
  }

  // System capacity: the largest lambda the prefill, decode and KV-transfer sides all sustain.
  const double lambda_prefill = ev.prefill_tokens_s / w.input_tokens;
  double lambda_kv = 1e300;
  if (ev.disaggregated()) {
    // KV of each request crosses the NIC from the prefill to the decode pool.
    // Source: ESTIMATOR-NOTES §4 (input tokens x KV bytes per token over RDMA).
    const double kv_req = w.input_tokens * kv_bytes_per_token(s.model, s.precision.kv_cache, 1);
    const int gpus = std::min(pre.pool.cfg.gpus, dec.pool.cfg.gpus);
    lambda_kv = gpus * s.gpu.nic_bytes_s * s.gpu.eff.rdma / kv_req;
    const double kv_rank = w.input_tokens * kv_bytes_per_token(s.model, s.precision.kv_cache, pre.pool.cfg.attention_tp) /
                           std::ceil(static_cast<double>(pre.pool.cfg.pp));
    ev.kv_transfer_per_token_s = kv_rank / w.input_tokens / (s.gpu.nic_bytes_s * s.gpu.eff.rdma) * scale;
    ev.kv_transfer_s = ev.kv_transfer_per_token_s * w.input_tokens + s.deployment.engine.overheads.pd_bootstrap_ms * 1e-3 * scale;
  }
  if (!o.capacity) {  // load-kind figures only (benchmarks): no capacity search, no TTFT simulation
    ev.load = run_load(ev);
    return false;
  }
  // (After the return above: the search's bound evaluations and the load-kind figures never read it.)
  ev.tpot_feasible = tpot_limit <= 0 || tpot_of(1, share_at(0)) <= tpot_limit;  // decode_at(dec, 1, ...).tpot_s, from the curve
  if (!dec.plan.fits() || !pre.plan.fits()) {
    ev.lambda_max = 0;
    ev.lambda_limit = "infeasible";
    // The pool that fits still reports its own figures (decode batch, TPOT), so the report can show
    // what it would deliver once the other pool is fixed.
    if (dec.plan.fits()) {
      Bound limit = Bound::Prefill;
      decode_capacity(0, ev.op_max, limit);
      ev.op_max.limit = bound_name(limit);
    }
  } else if (ev.disaggregated()) {
    Bound limit = Bound::Prefill;
    const double out_tps = decode_capacity(0, ev.op_max, limit);
    const double lambda_dec = out_tps / w.output_tokens;
    ev.lambda_max = std::min({lambda_prefill, lambda_dec, lambda_kv});
    ev.lambda_limit = ev.lambda_max == lambda_dec ? (limit == Bound::Kv ? "decode-kv" : limit == Bound::Cap ? "decode-cap" : "decode-tpot")
                      : ev.lambda_max == lambda_prefill ? "prefill"
                                                        : "kv-transfer";
    if (out_tps <= 0) ev.lambda_limit = limit == Bound::Tpot ? "decode-tpot" : "decode-kv";
  } else {
    // Colocated: bisection on lambda; feasible while the decode side keeps up with lambda x output.
    // The prefill share grows with lambda, so the best batch shrinks: the batches found at the
    // bracket's ends bound the one at its middle.
    // Bisection stops once both ends run the same batch, or batches one apart (solve_rate_segment).
    RateBracket r{0, lambda_prefill, 1e300, 1, Bound::Prefill, Bound::Prefill};  // b_lo, b_hi: the batch search's first bounds
    bool lo_probed = false, hi_probed = false;
    auto tpot_at_rate = [&](double b, double lambda) { return tpot_of(b, share_at(lambda)); };
    for (int i = 0; i < 40; ++i) {
      if (lo_probed && hi_probed && solve_rate_segment(r, dec.plan.dp, w.output_tokens, tpot_limit, tpot_at_rate)) break;
      const double mid = 0.5 * (r.lo + r.hi);
      Bound l = Bound::Prefill;
      double b = 0;
      const double cap = decode_capacity_tps(mid, l, b, r.b_hi, r.b_lo + 1);
      if (cap >= mid * w.output_tokens) {
        r.lo = mid, r.b_lo = b, r.bound_lo = l;
        lo_probed = true;
      } else {
        r.hi = mid, r.b_hi = b, r.bound_hi = l;
        hi_probed = true;
      }
    }
    const double lo = r.lo;
    const Bound limit = r.bound_hi;
    ev.lambda_max = lo;
    Bound l = Bound::Prefill;
    decode_capacity(lo, ev.op_max, l);
    ev.lambda_limit = lo >= lambda_prefill * (1 - 1e-9) ? "prefill"
                      : limit == Bound::Kv             ? "decode-kv"
                      : limit == Bound::Cap            ? "decode-cap"
                      : limit == Bound::Prefill        ? "prefill"
                                                       : "decode-tpot";
    if (lo <= 0) ev.lambda_limit = ev.tpot_feasible ? "decode-kv" : "decode-tpot";
  }
  ev.input_tps_max = ev.lambda_max * w.input_tokens;
  ev.output_tps_max = ev.lambda_max * w.output_tokens;
  ev.total_tps_max = ev.input_tps_max + ev.output_tps_max;

  // KV capacity of the decode (or colocated) pool.
  ev.session_bytes_target_ctx = dec.plan.session_bytes(w.context_length);
  ev.sessions_target_ctx = dec.plan.sessions(w.context_length);
  ev.sessions_8k = dec.plan.sessions(8192);
  ev.sessions_16k = dec.plan.sessions(16384);
  ev.sessions_32k = dec.plan.sessions(32768);
  return true;
}

// The workload's load on an evaluated capacity: the arrival rate, the decode point at it (Little's
// law), TTFT percentiles and the load kind's figures. Overwrites every load figure of `ev`.
void evaluate_at_load(Evaluation& ev, const EvalOptions& o) {
  const Scenario& s = ev.s;
  const Workload& w = s.workload;
  const PoolEval& dec = ev.decode_pool();
  const PoolEval& pre = ev.prefill_pool();
  const double scale = ev.time_scale;
  const double chunk = s.deployment.chunked_prefill_tokens;
  const double dp_d = dec.plan.dp;
  auto share_at = [&](double lambda) { return ev.prefill_share(lambda); };
  ev.ttft = TtftStats{};
  // The workload's load.
  if (w.arrival_qpm > 0) {
    ev.lambda_load = w.arrival_qpm / 60.0;
    ev.load_source = "arrival_qpm";
  } else if (s.slo.throughput_tokens_per_s > 0) {
    ev.lambda_load = s.slo.throughput_tokens_per_s / tokens_of_kind(s.slo.throughput_kind, w.input_tokens, w.output_tokens);
    ev.load_source = "throughput_target";
  } else {
    ev.lambda_load = 0.8 * ev.lambda_max;
    ev.load_source = "capacity";
  }
  ev.load_sustainable = ev.lambda_load <= ev.lambda_max * (1 + 1e-9) && ev.lambda_max > 0;

  // Decode point at the load: in-flight sequences follow Little's law, b = lambda_g x out x TPOT(b).
  if (ev.load_sustainable && ev.lambda_load > 0) {
    const double share = share_at(ev.lambda_load);
    const double lam_g = ev.lambda_load / dp_d;
    auto excess = [&](double b) { return lam_g * w.output_tokens * ev.decode_tpot(std::max(b, 1e-3), share) - b; };
    const double hi = bracket_root(excess, 0.0, std::max(1.0, ev.op_max.in_flight)).hi;
    ev.op_load = decode_at(dec, std::max(hi, 1e-3), ev.running_context, share, scale);
    ev.op_load.limit = "load";
  } else {
    ev.op_load = ev.op_max;
  }
  ev.first_decode_s = s.deployment.engine.first_token_decode_step ? ev.op_load.step.total : 0.0;

  // TTFT percentiles at the load (discrete-event simulation of one DP group of the prefill side:
  // a request's prefill runs on the group it is routed to; groups are symmetric).
  if (o.ttft && ev.lambda_load > 0 && pre.plan.fits()) {
    const double dp_p = pre.plan.dp;
    const bool coloc = !ev.disaggregated();
    const double decode_step_s = coloc ? ev.op_load.step.total : 0.0;
    // A pass's time depends only on its shape; the simulation meets few distinct shapes (fixed
    // lengths: a handful over ~1,600 passes), so each is computed once (same numbers, issue 11).
    std::map<std::tuple<double, double, double, double>, double> memo;
    auto pass = [&](const PassWork& pw) {
      const auto key = std::make_tuple(pw.tokens, pw.seqs, pw.attn_work, pw.prefix);
      if (auto it = memo.find(key); it != memo.end()) return it->second;
      // Colocated: every chunked-prefill iteration also runs the decode batch.
      const double t = pool_prefill_pass(pre, pw.tokens, std::max(1.0, pw.seqs), pw.attn_work, pw.prefix, scale).total + decode_step_s;
      if (memo.size() < 4096) memo.emplace(key, t);
      return t;
    };
    const double fixed = request_fixed_s(ev);
    auto extra = [&](double len) { return fixed + (ev.disaggregated() ? len * ev.kv_transfer_per_token_s : 0.0); };
    ev.ttft = simulate_ttft(ev.lambda_load / dp_p, ev.input, chunk, pass, extra, o.ttft_requests);
    if (!ev.load_sustainable) ev.ttft.stable = false;
  } else {
    ev.ttft.stable = ev.lambda_load <= 0;
  }
  ev.load = run_load(ev);
}

}  // namespace

}  // namespace slo
