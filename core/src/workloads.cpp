// Benchmark load kinds: closed loop, static batch, burst (see workloads.hpp).
#include "slo/workloads.hpp"

#include <algorithm>
#include <cmath>

#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

namespace {

// Prefill of `seqs` requests of `len` tokens on one DP group, chunked at the pool's budget:
// passes of equal size, causal work sum over requests of len^2 / 2. `per_pass` is added to each
// pass (the decode batch that rides along in a colocated pool).
double group_prefill_s(const Evaluation& ev, double seqs, double len, double per_pass) {
  const PoolEval& pre = ev.prefill_pool();
  const double chunk = ev.s.deployment.chunked_prefill_tokens;
  const double tokens = seqs * len;
  const double passes = std::max(1.0, std::ceil(tokens / chunk));
  const double work = seqs * len * len / 2.0;
  const double prefix = passes > 1 ? cut_prefix_fixed(len, chunk) : 0.0;
  const StepParts p = pool_prefill_pass(pre, tokens / passes, std::max(1.0, seqs / passes), work / passes, prefix, ev.time_scale);
  return passes * (p.total + per_pass);
}

// Time the engine's frontend (one process tokenizing, detokenizing and streaming every request)
// spends per request: it serves at most 1 / frontend_s requests per second.
// Source: SGLang TokenizerManager / vLLM API server, single process.
double frontend_s(const Evaluation& ev) {
  return ev.s.deployment.engine.overheads.frontend_ms * 1e-3;
}

double kv_transfer(const Evaluation& ev, double len) {
  return ev.disaggregated() ? len * ev.kv_transfer_per_token_s : 0.0;
}

// Sequences the decode side can hold at once (KV at the running context, engine request limit).
double admit_limit(const Evaluation& ev) {
  const PoolEval& pe = ev.decode_pool();
  const double per = pe.plan.session_bytes(ev.s.workload.input_tokens + ev.s.workload.output_tokens);
  const double kv = pe.plan.fits() && per > 0 ? std::floor(pe.plan.kv_pool / per) : 0.0;
  // The scenario's own batch cap (per GPU, so attention_tp per DP group) or the engine's default.
  const int cap_gpu = ev.s.deployment.max_decode_batch_per_gpu;
  const Engine& eng = ev.s.deployment.engine;
  double cap = cap_gpu > 0 ? static_cast<double>(cap_gpu) * pe.pool.cfg.attention_tp : eng.max_running_requests;
  // With speculative decoding an engine may lower its default limit for the whole instance, split
  // over its DP-attention ranks. Source: SGLang server_args (EAGLE/NEXTN: max_running_requests = 48;
  // the scheduler divides it by dp_size under DP attention).
  if (cap_gpu <= 0 && pe.pool.with_mtp && eng.spec_max_running_requests > 0)
    cap = std::max(1.0, std::floor(eng.spec_max_running_requests / std::max(1.0, static_cast<double>(pe.pool.dp()))));
  return pe.plan.dp * std::min(kv, cap);
}

// Expected longest of n output lengths: E[max] = integral of 1 - F(k)^n over [0, max].
// Source: order statistics (the CDF of the maximum of n independent draws is F^n).
double expected_longest(const LengthDist& out, double n) {
  const int steps = 64;
  const double h = out.max() / steps;
  double sum = 0;
  for (int i = 0; i < steps; ++i) sum += h * (1.0 - std::pow(out.cdf((i + 0.5) * h), n));
  return std::max(1.0, sum);
}

// Decode time for `c` requests that run together until the last ends: after k steps c x S(k) are
// still running (S: survival of the output lengths), so the batch and the step time shrink; the
// wave ends with its longest request. Integrated over batch levels c, c/r, c/r^2, ... down to 1.
// Source: order statistics of the workload's output-length distribution; step time at each batch.
double drain_s(const Evaluation& ev, double c) {
  const LengthDist& out = ev.output;
  const PoolEval& pe = ev.decode_pool();
  auto tpot = [&](double batch) { return ev.decode_tpot(std::max(1.0, batch / pe.plan.dp), 0); };
  if (out.fixed()) return std::max(0.0, out.mean() - 1.0) * tpot(c);
  const double end = expected_longest(out, c);
  const int levels = 24;
  double t = 0, k_prev = 1, b_prev = c;  // the first token comes out of the prefill pass
  for (int i = 1; i <= levels && k_prev < end; ++i) {
    const double b = i == levels ? 0.0 : c * std::pow(c, -static_cast<double>(i) / (levels - 1));
    // Steps at which b requests are left: S(k) = b / c, i.e. F(k) = 1 - b / c (the CDF's inverse).
    const double k = std::max(k_prev, std::min(end, b > 0 ? out.quantile(1.0 - b / c) : end));
    const double batch = std::max(1.0, std::sqrt(b_prev * std::max(b, 1.0)));
    t += (k - k_prev) * tpot(batch);
    k_prev = k;
    b_prev = b;
  }
  return t;
}

// Time until the first token of the last of `c` requests sent together: every prompt is prefilled
// in chunked passes on its DP group before decoding starts (one batch, no arrivals).
double wave_prefill_s(const Evaluation& ev, double c) {
  const double per_pre = std::ceil(c / ev.prefill_pool().plan.dp);
  const double in = ev.s.workload.input_tokens;
  return group_prefill_s(ev, per_pre, in, 0) + request_fixed_s(ev) + kv_transfer(ev, in);
}

// Mean first-token time of `c` requests sent together to an idle engine: each DP group prefills its
// share FIFO in chunked passes of equal time, so its j-th prompt has its first token when pass
// ceil(j L / chunk) ends, and not before the frontend has admitted it (j x frontend_ms).
// Source: FIFO chunked prefill (vLLM/SGLang schedulers); one frontend process admitting in turn.
double wave_mean_ttft_s(const Evaluation& ev, double c) {
  const double m = std::ceil(c / ev.prefill_pool().plan.dp);
  const double len = ev.s.workload.input_tokens, chunk = ev.s.deployment.chunked_prefill_tokens;
  const double passes = std::max(1.0, std::ceil(m * len / chunk));
  const double pass_s = group_prefill_s(ev, m, len, 0) / passes;
  const double admit_s = frontend_s(ev) * ev.prefill_pool().plan.dp;
  const int n = static_cast<int>(std::min(m, 4096.0));  // prompts sampled evenly beyond 4,096 per group
  const double stride = m / n;
  double sum = 0;
  for (int j = 1; j <= n; ++j) {
    const double done = std::min(passes, std::ceil(j * stride * len / chunk - 1e-9)) * pass_s;
    sum += std::max(done, j * stride * admit_s + pass_s);
  }
  return sum / n + request_fixed_s(ev) + kv_transfer(ev, len);
}

// A benchmark of N requests at concurrency C: the first C prompts are prefilled together, the next
// N - C requests finish at the steady rate C / L (each replacement's prefill inside L), then the
// last wave of C drains with a shrinking batch (drain_s). The mean TTFT weighs the first wave's
// (wave_mean_ttft_s) by C / N: a run of N = 5 C spends a fifth of its requests in it.
// Source: Little's law for the steady part; order statistics for the last wave.
void finite_run(LoadResult& r, const Evaluation& ev, double concurrency) {
  const double n = ev.s.workload.requests, c = std::min(concurrency, n);
  const double makespan = wave_prefill_s(ev, c) + std::max(0.0, n - c) * r.latency_s / c + drain_s(ev, c);
  const Workload& w = ev.s.workload;
  if (makespan <= 0) return;
  r.output_tps = n * w.output_tokens / makespan;
  r.input_tps = n * w.input_tokens / makespan;
  const double ttft = (c * wave_mean_ttft_s(ev, c) + (n - c) * r.ttft_s) / n;
  r.latency_s += ttft - r.ttft_s;
  r.ttft_s = ttft;
}

// A closed loop whose waves persist: identical requests (fixed input and output lengths) on a
// colocated prefill-first engine. Prompts that arrive together are all prefilled before any of them
// decodes, so they decode together, finish on the same step and return together: every wave is a
// first wave. (With varied prompts the steady loop is kept: docs/PHYSICS.md.)
bool waves_persist(const Evaluation& ev, double clients) {
  return clients > 1 && !ev.disaggregated() && ev.s.deployment.engine.prefill_first && ev.input.fixed() && ev.output.fixed();
}

// One wave of `c` requests: prefilled (wave_prefill_s: the last first token), then (out - 1) decode
// steps at batch c with no prefill beside them. A request's TPOT counts the wave's prefill after its
// own first token: bench_serving's TPOT is (latency - TTFT) / (out - 1).
// Source: prefill-first schedulers (engines.json prefill_first); a wave is FIFO chunked prefill.
struct Wave { double cycle_s = 0, ttft_s = 0, tpot_s = 0, prefill_s = 0; };
Wave wave_of(const Evaluation& ev, double c) {
  const PoolEval& pe = ev.decode_pool();
  const double steps = std::max(0.0, ev.s.workload.output_tokens - 1.0);
  const double per_group = std::max(1.0, c / pe.plan.dp);
  const double step = decode_at(pe, per_group, ev.running_context, 0, ev.time_scale).tpot_s;
  Wave v;
  v.ttft_s = wave_mean_ttft_s(ev, c);
  // The last first token: its prefill pass, or later when the frontend admits the wave more slowly.
  const double last = std::max(wave_prefill_s(ev, c), v.ttft_s);
  v.prefill_s = last;
  v.cycle_s = last + steps * step;
  v.tpot_s = step + (steps > 0 ? (last - v.ttft_s) / steps : 0.0);
  return v;
}

// The loop of `c` clients as repeated waves: N requests make floor(N / c) waves of c and one of the
// rest (N = 0: the steady loop, one wave). Means are over requests; throughput is tokens / makespan.
void wave_loop(LoadResult& r, const Evaluation& ev, double c, double n) {
  const Workload& w = ev.s.workload;
  const Wave full = wave_of(ev, c);
  const double waves = n > 0 ? std::floor(n / c) : 1.0, rest = n > 0 ? n - waves * c : 0.0;
  const Wave last = rest >= 1 ? wave_of(ev, rest) : Wave{};
  const double count = waves * c + (rest >= 1 ? rest : 0.0);
  const double makespan = waves * full.cycle_s + last.cycle_s;
  if (makespan <= 0 || count <= 0) return;
  r.ttft_s = (waves * c * full.ttft_s + rest * last.ttft_s) / count;
  r.tpot_s = (waves * c * full.tpot_s + rest * last.tpot_s) / count;
  r.latency_s = r.ttft_s + std::max(0.0, w.output_tokens - 1.0) * r.tpot_s;
  r.lambda = count / makespan;
  r.output_tps = r.lambda * w.output_tokens;
  r.input_tps = r.lambda * w.input_tokens;
  r.prefill_share = std::min(1.0, full.prefill_s / full.cycle_s);
  r.in_flight = c;
}

// The request rate at which the prefill side is busy 95% of the time (the cap on its share of GPU
// time): prompts beyond it queue, whatever the clients offer. Source: bulk-service (M/G/1) stability.
double prefill_saturation(const Evaluation& ev, double hi) {
  if (ev.prefill_utilisation(hi) <= 0.95) return hi;
  double lo = 0;
  for (int i = 0; i < 50; ++i) {
    const double mid = 0.5 * (lo + hi);
    (ev.prefill_utilisation(mid) <= 0.95 ? lo : hi) = mid;
  }
  return lo;
}

// Marks a load result present for `clients`; false when there is nothing to compute (a pool does
// not fit in memory, or no clients).
bool begin(LoadResult& r, const Evaluation& ev, double clients) {
  r.present = true;
  r.clients = clients;
  return ev.decode_pool().plan.fits() && ev.prefill_pool().plan.fits() && clients > 0;
}

}  // namespace

LoadResult closed_loop_admitted(const Evaluation& ev, double concurrency, bool finite);

namespace {
// More clients than the engine admits (KV cache, request limit): the excess waits in the engine's
// queue. The admitted ones run a closed loop; a waiting request's TTFT grows by the queue's
// Little's-law wait, (C - admitted) / rate. Source: Little's law on the waiting queue.
LoadResult closed_loop_at(const Evaluation& ev, double concurrency, bool finite) {
  const double admit = admit_limit(ev);
  if (admit < 1 || concurrency <= admit) return closed_loop_admitted(ev, concurrency, finite);
  LoadResult r = closed_loop_admitted(ev, admit, finite);
  if (r.lambda > 0) {
    const double wait = (concurrency - admit) / r.lambda;
    r.ttft_s += wait;
    r.latency_s += wait;
  }
  r.clients = concurrency;
  return r;
}
}  // namespace

LoadResult closed_loop(const Evaluation& ev, double concurrency) { return closed_loop_at(ev, concurrency, true); }
LoadResult steady_closed_loop(const Evaluation& ev, double concurrency) { return closed_loop_at(ev, concurrency, false); }

LoadResult closed_loop_admitted(const Evaluation& ev, double concurrency, bool finite) {
  LoadResult r;
  if (!begin(r, ev, concurrency)) return r;
  if (waves_persist(ev, concurrency)) {
    wave_loop(r, ev, concurrency, finite ? ev.s.workload.requests : 0.0);
    return r;
  }
  const PoolEval& pe = ev.decode_pool();
  const Workload& w = ev.s.workload;
  const double dp_d = pe.plan.dp, dp_p = ev.prefill_pool().plan.dp;
  const double per_group = std::max(1.0, concurrency / dp_d);
  const bool coloc = !ev.disaggregated();
  const double ride = coloc ? decode_at(pe, per_group, ev.running_context, 0, ev.time_scale).step.total : 0.0;
  // A request's own prefill runs before its decode: TPOT only loses time to the other clients'
  // prefills, (C - 1) / C of the prefill load (bench_serving's TPOT excludes the first token).
  const double t_pre = group_prefill_s(ev, 1, w.input_tokens, concurrency > 1 ? ride : 0.0);
  // With fixed output lengths the prompts one pass prefilled decode in step, finish on the same step
  // and return together: each arrives with the others of its pass and waits for all their prompts.
  // Source: FIFO chunked prefill at the pass's token budget (vLLM V1, TensorRT-LLM in-flight batching).
  const double together = ev.output.fixed() ? std::clamp(std::floor(ev.s.deployment.chunked_prefill_tokens / w.input_tokens), 1.0, std::max(1.0, concurrency / dp_p)) : 1.0;
  const double t_arrive = together > 1 ? group_prefill_s(ev, together, w.input_tokens, concurrency > 1 ? ride : 0.0) : t_pre;
  const double fixed = request_fixed_s(ev) + kv_transfer(ev, w.input_tokens);
  const double others = (concurrency - 1) / concurrency;
  auto share_at = [&](double lambda) { return coloc ? std::min(0.95, ev.prefill_share(lambda) * others) : 0.0; };
  // While the other clients decode, a new request first waits for the engine's iteration loop: the
  // running decode step, the batch an overlap scheduler already prepared, and one step to emit its
  // first token (engine profile: wait_steps). Source: SGLang/vLLM scheduler loops (one batch per iteration).
  const double lag = coloc ? others * ev.s.deployment.engine.overheads.wait_steps * ride : 0.0;
  auto ttft_at = [&](double lambda) {
    // Queueing behind the other clients' prompts on the same group (M/D/1 mean wait), never more
    // than the prompts that can be ahead in a closed loop. Waiting prompts share the next pass up to
    // the chunk budget, so the prefill side is busy for its bulk-service share, not one pass per
    // request. Source: vLLM/SGLang schedulers batch every waiting prompt into one chunked pass.
    const double rho = std::min(0.95, ev.prefill_utilisation(lambda));
    const double ahead = std::max(0.0, concurrency / dp_p - 1.0);
    return fixed + lag + t_arrive + std::min(rho / (2.0 * (1.0 - rho)), ahead) * t_pre;
  };
  // The step does not depend on the load; only the share of GPU time it gets does (decode_at's TPOT).
  const DecodePoint base = decode_at(pe, per_group, ev.running_context, 0, ev.time_scale);
  auto tpot_at = [&](double lambda) { return base.tpot_s / std::max(1e-6, 1.0 - share_at(lambda)); };
  // Little's law over a request's life: lambda = C / (TTFT + (out - 1) TPOT); the rate the clients
  // generate falls as lambda rises (more prefill interference), so bisect for the crossing.
  auto offered = [&](double lambda) {
    return concurrency / (ttft_at(lambda) + std::max(0.0, w.output_tokens - 1.0) * tpot_at(lambda));
  };
  double lo = 0, hi = offered(0);
  for (int i = 0; i < 50; ++i) {
    const double mid = 0.5 * (lo + hi);
    (offered(mid) > mid ? lo : hi) = mid;
  }
  // The frontend serves at most 1 / frontend_s requests per second.
  const double front = frontend_s(ev);
  const double cap = std::min(front > 0 ? 1.0 / front : 1e300, prefill_saturation(ev, hi));
  r.lambda = lo = std::min(lo, cap);
  r.tpot_s = tpot_at(lo);
  // At a capped rate the clients queue for it: Little's law closes the loop through TTFT.
  r.ttft_s = std::max(ttft_at(lo), lo > 0 ? concurrency / lo - std::max(0.0, w.output_tokens - 1.0) * r.tpot_s : 0.0);
  r.prefill_share = share_at(lo);
  r.latency_s = r.ttft_s + std::max(0.0, w.output_tokens - 1.0) * r.tpot_s;
  r.output_tps = lo * w.output_tokens;
  r.input_tps = lo * w.input_tokens;
  r.in_flight = concurrency;
  if (finite && w.requests > 0) finite_run(r, ev, concurrency);
  return r;
}

LoadResult static_batch(const Evaluation& ev, double batch) {
  LoadResult r;
  if (!begin(r, ev, batch)) return r;
  const PoolEval& pe = ev.decode_pool();
  const Workload& w = ev.s.workload;
  const double per_dec = std::ceil(batch / pe.plan.dp);
  r.ttft_s = wave_prefill_s(ev, batch);
  const DecodePoint d = decode_at(pe, per_dec, w.input_tokens + w.output_tokens / 2.0, 0, ev.time_scale);
  r.tpot_s = d.tpot_s;
  r.latency_s = r.ttft_s + std::max(0.0, w.output_tokens - 1.0) * r.tpot_s;
  r.in_flight = batch;
  r.lambda = batch / r.latency_s;
  r.output_tps = batch / r.tpot_s;  // decode throughput of the batch
  r.input_tps = batch * w.input_tokens / std::max(1e-9, r.ttft_s);
  return r;
}

LoadResult burst(const Evaluation& ev, double requests) {
  const double admit = admit_limit(ev);
  if (admit >= 1 && requests > admit) {
    // More than fit at once: the engine runs at its admission limit, refilling as requests finish.
    LoadResult r = closed_loop(ev, admit);
    r.clients = requests;
    return r;
  }
  LoadResult r = static_batch(ev, requests);
  if (r.tpot_s <= 0) return r;
  // Every request admitted at once: the burst lasts until its longest request ends, while the batch
  // shrinks as shorter ones finish (drain_s). Throughput = tokens / makespan.
  const Workload& w = ev.s.workload;
  const double makespan = r.ttft_s + drain_s(ev, requests);
  // The frontend admits the burst one request after another (frontend_s).
  const double span = std::max(makespan, requests * frontend_s(ev));
  r.output_tps = span > 0 ? requests * w.output_tokens / span : 0;
  r.input_tps = span > 0 ? requests * w.input_tokens / span : 0;
  // The mean first token of the burst, not its last (the wave's FIFO passes; see finite_run).
  const double mean_ttft = wave_mean_ttft_s(ev, requests);
  r.latency_s += mean_ttft - r.ttft_s;
  r.ttft_s = mean_ttft;
  return r;
}

LoadResult run_load(const Evaluation& ev) {
  const Workload& w = ev.s.workload;
  switch (w.kind) {
    case LoadKind::ClosedLoop: return closed_loop(ev, w.concurrency);
    case LoadKind::StaticBatch: return static_batch(ev, w.batch);
    case LoadKind::Burst: return burst(ev, w.requests);
    case LoadKind::Poisson: break;
  }
  return LoadResult{};
}

}  // namespace slo

SLO_SIZE_END
