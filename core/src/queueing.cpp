#include "slo/queueing.hpp"

#include <algorithm>
#include <cmath>
#include <deque>

namespace slo {

namespace {
// Mean of the density proportional to exp(theta x) on [0, w].
double te_mean(double theta, double w) {
  if (std::fabs(theta * w) < 1e-6) return w / 2.0;
  const double e = std::exp(theta * w);
  return w * e / (e - 1.0) - 1.0 / theta;
}
}  // namespace

LengthDist::LengthDist(double mean, double max) : mean_(mean), max_(max) {
  const double w = max - 1.0;
  if (w <= 1e-9 || mean >= max - 1e-9 || mean <= 1.0 + 1e-9) {
    fixed_ = true;
    m2_ = mean * mean;
    return;
  }
  // Solve te_mean(theta, w) = mean - 1 by bisection (te_mean increases with theta).
  double lo = -200.0 / w, hi = 200.0 / w;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (te_mean(mid, w) < mean - 1.0) lo = mid;
    else hi = mid;
  }
  theta_ = 0.5 * (lo + hi);
  // E[L^2] by midpoint integration of the density.
  const int n = 4000;
  double z = 0, s2 = 0;
  for (int i = 0; i < n; ++i) {
    const double x = (i + 0.5) / n * w;
    const double d = std::exp(theta_ * x - (theta_ > 0 ? theta_ * w : 0.0));
    z += d;
    s2 += d * (1.0 + x) * (1.0 + x);
  }
  m2_ = s2 / z;
}

double LengthDist::sample(double u) const {
  if (fixed_) return mean_;
  const double w = max_ - 1.0;
  double x;
  if (std::fabs(theta_ * w) < 1e-9) x = u * w;
  else x = std::log1p(u * std::expm1(theta_ * w)) / theta_;
  return std::min(max_, std::max(1.0, 1.0 + x));
}

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

TtftStats simulate_ttft(double rate, const LengthDist& input, double budget,
                        const std::function<double(const PassWork&)>& pass_time,
                        const std::function<double(double)>& extra, int requests, uint64_t seed) {
  TtftStats st;
  if (rate <= 0 || budget <= 0) return st;
  struct Req {
    double arrival, length, done = 0, start = -1;
  };
  Rng rng(seed);
  const int warmup = requests / 10;
  const int total = requests + warmup;
  std::vector<Req> reqs;
  reqs.reserve(total);
  double t_arr = 0;
  for (int i = 0; i < total; ++i) {
    t_arr += -std::log(1.0 - rng.uniform()) / rate;
    reqs.push_back(Req{t_arr, std::round(input.sample(rng.uniform()))});
  }
  std::deque<int> queue;
  std::vector<double> ttft, waits, prefills;
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
    std::vector<std::pair<int, double>> taken;
    for (int idx : queue) {
      if (left <= 0) break;
      Req& r = reqs[idx];
      const double c = std::min(r.length - r.done, left);
      if (c <= 0) continue;
      w.tokens += c;
      w.seqs += 1;
      w.attn_work += c * (r.done + c / 2.0);
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
    while (!queue.empty() && reqs[queue.front()].done >= reqs[queue.front()].length - 1e-9) queue.pop_front();
    // Remove finished entries anywhere in the queue (a request can finish behind a partial one).
    queue.erase(std::remove_if(queue.begin(), queue.end(), [&](int i) { return reqs[i].done >= reqs[i].length - 1e-9; }), queue.end());
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
  st.p50 = percentile(ttft, 0.50);
  st.p90 = percentile(ttft, 0.90);
  st.p99 = percentile(ttft, 0.99);
  return st;
}

}  // namespace slo
