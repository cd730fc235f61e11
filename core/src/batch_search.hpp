// The largest batch meeting a TPOT limit, for the capacity search and the configuration search.
#pragma once
#include <algorithm>
#include <cmath>

namespace slo {

// Largest integer b in [lo, hi) with tpot(b) <= limit, given tpot(lo) <= limit < tpot(hi) and tpot
// rising with the batch (so the answer is the one bisection finds). TPOT is nearly linear in the
// batch between roofline knees: the next probe is the linear interpolation of the crossing, and a
// bisection follows any guess that did not halve the bracket (the safeguard of bracketed_root in
// evaluation.cpp), so the search stays within about twice bisection's probes.
template <class F>
double largest_batch_within(F&& tpot, double lo, double hi, double limit) {
  double t_lo = tpot(lo), t_hi = tpot(hi);
  bool bisect = false;
  while (hi - lo > 1) {
    const double width = hi - lo;
    double mid = std::floor((lo + hi) / 2);
    if (!bisect && t_hi > t_lo) mid = std::clamp(std::floor(lo + (limit - t_lo) / (t_hi - t_lo) * width), lo + 1, hi - 1);
    const double t = tpot(mid);
    if (t <= limit) lo = mid, t_lo = t;
    else hi = mid, t_hi = t;
    bisect = !bisect && hi - lo > width / 2;
  }
  return lo;
}

}  // namespace slo
