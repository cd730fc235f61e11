// TTFT percentiles: a discrete-event simulation of the prefill pool (Poisson arrivals, input
// lengths with the workload's mean and maximum, chunked prefill batches, FIFO).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace slo {

// Input/output lengths on [1, max] with a given mean: the maximum-entropy (truncated exponential)
// distribution, the least-assuming one that matches what the workload states (mean and maximum).
// Source: Jaynes, maximum entropy on a bounded interval with a mean constraint.
class LengthDist {
 public:
  LengthDist(double mean, double max);
  double sample(double u) const;  // a length drawn from u in [0, 1) (mirrored lengths run the other way: not the quantile)
  double cdf(double len) const;   // P(L <= len)
  double quantile(double p) const;  // the length with P(L <= length) = p, p in (0, 1): cdf's inverse
  bool fixed() const { return fixed_; }  // every length equals the mean
  double mean() const { return mean_; }
  double max() const { return max_; }
  double second_moment() const { return m2_; }  // E[L^2]
  // Mean length a length-biased draw has done, E[L^2] / (2 E[L]) (L / 2 for fixed lengths): a token's
  // prefix within its request, a decoding sequence's output so far. Source: renewal-reward theorem.
  double biased_done() const { return mean_ > 0 ? m2_ / (2.0 * mean_) : 0.0; }
 private:
  double mean_, max_, rate_ = 0, m2_ = 0;
  double norm_ = 1;  // 1 - exp(-rate w): the truncated exponential's mass on [0, w]
  bool fixed_ = false, mirrored_ = false;
};

// Deterministic PRNG (splitmix64): identical streams natively and in wasm.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  double uniform();  // [0, 1)
 private:
  uint64_t s_;
};

// Cached prefix of a full chunked-prefill pass in a saturated FIFO stream: the pass carries on the
// request the previous pass cut, which has done E[L^2] / (2 E[L]) tokens on average (a cut lands
// on a token of a length-biased request). Fixed lengths the budget divides are never cut.
double cut_prefix(const LengthDist& in, double chunk);
double cut_prefix_fixed(double length, double chunk);  // the same for prompts of one length

struct PassWork {
  double tokens = 0;     // new tokens in the pass (whole pool)
  double seqs = 0;       // sequences touched
  double attn_work = 0;  // sum of chunk x (prefix + chunk / 2)
  double prefix = 0;     // cached tokens of the pass's sequences (their chunks already done)
};

struct TtftStats {
  bool stable = true;          // the prefill side keeps up with arrivals
  double utilization = 0;      // busy fraction of the prefill server
  double p50 = 0, p90 = 0, p99 = 0, mean = 0;  // seconds
  double mean_wait = 0;        // seconds queued before the first chunk starts
  double mean_prefill = 0;     // seconds from first chunk to last
  int simulated = 0;
};

// Simulates `requests` arrivals at `rate` per second. `pass_time(work)` gives the duration of one
// pass; `budget` is the pass token budget of the pool; `extra(len)` adds the per-request time after
// prefill (KV transfer + first decode step).
TtftStats simulate_ttft(double rate, const LengthDist& input, double budget,
                        const std::function<double(const PassWork&)>& pass_time,
                        const std::function<double(double)>& extra, int requests = 4000, uint64_t seed = 0x5EED5EEDULL);

// Requests simulate_ttft simulates: `requests`, fewer when each prompt needs many prefill chunks
// (a bound on the simulation's cost; queueing.cpp states the sampling error it introduces).
int ttft_requests_within_budget(int requests, double mean_input, double budget);

double percentile(std::vector<double> v, double q);

}  // namespace slo
