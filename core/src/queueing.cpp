#include "slo/queueing.hpp"

#include <algorithm>
#include <cmath>
#include <deque>

namespace slo {

namespace {
// Moments of Y on [0, w] with density proportional to exp(-a y), a >= 0 (numerically stable for
// any a: q = exp(-a w) never overflows). Returns E[Y] and E[Y^2].
void decreasing_moments(double a, double w, double& m1, double& m2) {
  if (a * w < 1e-6) {  // uniform limit
    m1 = w / 2.0;
    m2 = w * w / 3.0;
    return;
  }
  const double q = std::exp(-a * w);
  m1 = (1.0 / a - q * (w + 1.0 / a)) / (1.0 - q);
  m2 = (2.0 / (a * a) - q * (w * w + 2.0 * w / a + 2.0 / (a * a))) / (1.0 - q);
}
}  // namespace

double cut_prefix_fixed(double L, double chunk) {
  if (L > chunk) return std::fmod(L, chunk) < 1e-9 ? (L - chunk) / 2.0 : L / 2.0;
  return std::fmod(chunk, L) < 1e-9 ? 0.0 : L / 2.0;
}

double cut_prefix(const LengthDist& in, double chunk) {
  return in.fixed() ? cut_prefix_fixed(in.mean(), chunk) : in.biased_done();
}

LengthDist::LengthDist(double mean, double max) : mean_(mean), max_(max) {
  const double w = max - 1.0;
  if (w <= 1e-9 || mean >= max - 1e-9 || mean <= 1.0 + 1e-9) {
    fixed_ = true;
    m2_ = mean * mean;
    return;
  }
  // Y = L - 1 on [0, w]. Below the midpoint the density decreases (rate a > 0); above it, the
  // mirror image w - Y decreases. Solve E[Y] = target by bisection on log(a) (E[Y] falls with a).
  mirrored_ = mean - 1.0 > w / 2.0;
  const double target = mirrored_ ? w - (mean - 1.0) : mean - 1.0;
  double lo = std::log(1e-9 / w), hi = std::log(1e9 / w);
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    double m1, m2;
    decreasing_moments(std::exp(mid), w, m1, m2);
    if (m1 > target) lo = mid;
    else hi = mid;
  }
  rate_ = std::exp(0.5 * (lo + hi));
  norm_ = -std::expm1(-rate_ * w);
  double m1, m2;
  decreasing_moments(rate_, w, m1, m2);
  // E[L^2] with L = 1 + Y (or 1 + w - Y when mirrored).
  if (!mirrored_) m2_ = 1.0 + 2.0 * m1 + m2;
  else m2_ = (1.0 + w) * (1.0 + w) - 2.0 * (1.0 + w) * m1 + m2;
}

double LengthDist::sample(double u) const {
  if (fixed_) return mean_;
  const double w = max_ - 1.0;
  double y;
  if (rate_ * w < 1e-6) y = u * w;
  else y = -std::log1p(-u * (1.0 - std::exp(-rate_ * w))) / rate_;  // inverse CDF of exp(-a y) on [0, w]
  if (mirrored_) y = w - y;
  return std::min(max_, std::max(1.0, 1.0 + y));
}

double LengthDist::cdf(double len) const {
  if (fixed_) return len >= mean_ ? 1.0 : 0.0;
  const double w = max_ - 1.0;
  const double y = std::clamp(mirrored_ ? w - (len - 1.0) : len - 1.0, 0.0, w);
  // CDF of exp(-a y) on [0, w]; mirrored: P(L <= len) = P(Y >= w - (len - 1)).
  const double f = rate_ * w < 1e-6 ? y / w : -std::expm1(-rate_ * y) / norm_;
  return mirrored_ ? 1.0 - f : f;
}

// cdf's inverse: sample() inverts Y's CDF and mirrors, so above the middle its argument runs the other way.
double LengthDist::quantile(double p) const { return sample(std::clamp(mirrored_ ? 1.0 - p : p, 0.0, 1.0)); }

double Rng::uniform() {
  uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * (1.0 / 9007199254740992.0);
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * (v.size() - 1);
  const std::size_t i = static_cast<std::size_t>(std::floor(pos));
  const double f = pos - i;
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

// Cost bound of the TTFT simulation (docs/DESIGN.md, "Cost bound"): at most ~kMaxTtftPasses prefill
// passes per simulation, by simulating fewer requests when each needs many chunks. Error introduced:
// sampling only; the p99 of N simulated requests has a relative standard error of roughly
// sqrt(0.01 * 0.99 / N) / 0.01 of the tail mass (about 10% at N = 1000, 30% at the floor of 100);
// the mean and p50 move by a few percent. Scenarios of at most 2 chunks per prompt are unaffected.
int ttft_requests_within_budget(int requests, double mean_input, double budget) {
  constexpr double kMaxTtftPasses = 8000;
  constexpr int kMinRequests = 100;
  const double passes_per_request = budget > 0 ? std::max(1.0, std::ceil(mean_input / budget)) : 1.0;
  const double total = requests * 1.1;  // requests plus the 10% warm-up
  if (total * passes_per_request <= kMaxTtftPasses) return requests;
  return std::max(kMinRequests, static_cast<int>(kMaxTtftPasses / passes_per_request / 1.1));
}

namespace {

// The random part of a simulation: request i's exponential gap at rate 1 and its prompt length.
// It depends on the seed and the length distribution only, not on the rate or the count (a
// simulation of n requests reads the first n), so a report's 15 simulations (the TTFT-vs-load curve,
// the sensitivities) draw it once: the same numbers, without 3 logarithms per request each time.
struct ArrivalStream {
  uint64_t seed = 0;
  double mean = -1, max = -1;
  Rng rng{0};
  std::vector<double> gaps, lengths;
};

const ArrivalStream& arrival_stream(uint64_t seed, const LengthDist& input, int n) {
  thread_local ArrivalStream s;
  if (s.seed != seed || s.mean != input.mean() || s.max != input.max() || s.gaps.empty()) {
    s = ArrivalStream{seed, input.mean(), input.max(), Rng(seed), {}, {}};
  }
  while (static_cast<int>(s.gaps.size()) < n) {
    s.gaps.push_back(-std::log(1.0 - s.rng.uniform()));
    s.lengths.push_back(std::round(input.sample(s.rng.uniform())));
  }
  return s;
}

}  // namespace

TtftStats simulate_ttft(double rate, const LengthDist& input, double budget,
                        const std::function<double(const PassWork&)>& pass_time,
                        const std::function<double(double)>& extra, int requests, uint64_t seed) {
  TtftStats st;
  if (rate <= 0 || budget <= 0) return st;
  struct Req {
    double arrival, length, done = 0, start = -1;
  };
  requests = ttft_requests_within_budget(requests, input.mean(), budget);
  const int warmup = requests / 10;
  const int total = requests + warmup;
  const ArrivalStream& unit = arrival_stream(seed, input, total);
  std::vector<Req> reqs;
  reqs.reserve(total);
  double t_arr = 0;
  for (int i = 0; i < total; ++i) {
    t_arr += unit.gaps[i] / rate;
    reqs.push_back(Req{t_arr, unit.lengths[i]});
  }
  std::deque<int> queue;
  std::vector<double> ttft, waits, prefills;
  std::vector<std::pair<int, double>> taken;
  double t = 0, busy = 0;
  int next = 0, finished = 0;
  const double horizon_limit = reqs.back().arrival * 20.0 + 3600.0;
  while (finished < total) {
    while (next < total && reqs[next].arrival <= t) queue.push_back(next++);
    if (queue.empty()) {
      if (next >= total) break;
      t = reqs[next].arrival;
      continue;
    }
    // Form one pass: FIFO, chunking the request at the budget boundary.
    PassWork w;
    double left = budget;
    taken.clear();
    for (int idx : queue) {
      if (left <= 0) break;
      Req& r = reqs[idx];
      const double c = std::min(r.length - r.done, left);
      if (c <= 0) continue;
      w.tokens += c;
      w.seqs += 1;
      w.attn_work += c * (r.done + c / 2.0);
      w.prefix += r.done;
      taken.emplace_back(idx, c);
      left -= c;
    }
    const double dt = pass_time(w);
    for (auto& [idx, c] : taken)
      if (reqs[idx].start < 0) reqs[idx].start = t;
    t += dt;
    busy += dt;
    for (auto& [idx, c] : taken) {
      Req& r = reqs[idx];
      r.done += c;
      if (r.done >= r.length - 1e-9) {
        ++finished;
        if (idx >= warmup) {
          ttft.push_back(t - r.arrival + extra(r.length));
          waits.push_back(r.start - r.arrival);
          prefills.push_back(t - r.start);
        }
      }
    }
    // A pass takes a prefix of the queue and finishes all of it but perhaps its last request, so the
    // finished requests are a prefix too: popping them keeps each pass O(requests it takes), not
    // O(queue) (an overloaded load queues thousands). Empty prompts pop when they reach the front.
    while (!queue.empty() && reqs[queue.front()].done >= reqs[queue.front()].length - 1e-9) queue.pop_front();
    if (t > horizon_limit) {
      st.stable = false;
      break;
    }
  }
  st.simulated = static_cast<int>(ttft.size());
  st.utilization = t > 0 ? busy / t : 0;
  // Unstable when the queue grows without bound: the backlog at the end exceeds what a stable
  // server holds, or the simulation had to stop.
  const double span = reqs.back().arrival - reqs[warmup].arrival;
  if (!ttft.empty() && span > 0) {
    const double late = t - reqs.back().arrival;
    if (late > 0.25 * span && late > 10.0) st.stable = false;
  }
  if (ttft.empty()) {
    st.stable = false;
    return st;
  }
  double sum = 0, sw = 0, sp = 0;
  for (std::size_t i = 0; i < ttft.size(); ++i) {
    sum += ttft[i];
    sw += waits[i];
    sp += prefills[i];
  }
  st.mean = sum / ttft.size();
  st.mean_wait = sw / ttft.size();
  st.mean_prefill = sp / ttft.size();
  // Linear-interpolated percentiles by selection (ascending q: each selection works on the part
  // above the previous one), the same values a full sort gives.
  std::size_t from = 0;
  auto q = [&](double f) {
    const double pos = f * (ttft.size() - 1);
    const std::size_t i = static_cast<std::size_t>(std::floor(pos));
    std::nth_element(ttft.begin() + from, ttft.begin() + i, ttft.end());
    from = i;
    if (i + 1 >= ttft.size()) return ttft[i];
    const double next = *std::min_element(ttft.begin() + i + 1, ttft.end());
    return ttft[i] * (1 - (pos - i)) + next * (pos - i);
  };
  st.p50 = q(0.50);
  st.p90 = q(0.90);
  st.p99 = q(0.99);
  return st;
}

}  // namespace slo
