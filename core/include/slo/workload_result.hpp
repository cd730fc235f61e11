// Figures of a workload's own load kind: what a benchmark client of that kind would print.
#pragma once

namespace slo {

struct LoadResult {
  bool present = false;       // false for Poisson (the capacity/TTFT sections answer it)
  double clients = 0;         // closed loop: concurrency; static batch: batch; burst: requests
  double in_flight = 0;       // sequences decoding at once (whole deployment)
  double lambda = 0;          // requests/s completed
  double ttft_s = 0;          // mean time to first token
  double tpot_s = 0;          // mean time per output token after the first
  double latency_s = 0;       // mean end-to-end latency of a request (static batch: of the batch)
  double output_tps = 0, input_tps = 0;  // whole deployment
  double prefill_share = 0;   // colocated: GPU time decode loses to other requests' prefill
};

}  // namespace slo
