// The corrected method's numbers for one scenario: pools and memory plans, KV capacity, prefill
// capacity, the decode operating point, system throughput, TTFT percentiles, calibration.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "slo/memory_plan.hpp"
#include "slo/queueing.hpp"
#include "slo/step_time.hpp"
#include "slo/workload_result.hpp"

namespace slo {

struct PoolMemoEntry;  // pool_memo.hpp

struct PoolEval {
  std::string role;  // "colocated" | "prefill" | "decode"
  Pool pool;
  MemoryPlan plan;
  GemmBound gemm_bound;  // block-scaled FP8 GEMMs bound per SM (the report names it)
  // The pool's step constants (step_time.hpp), computed once when the pool is bound; shared by
  // copies of the evaluation (the pool they describe is the same).
  std::shared_ptr<const StepConsts> consts;
  // Decode steps already computed for this pool, by (sequences, context, time scale): the capacity
  // and load searches ask for the same points many times. Made on the first step asked for (most of
  // a search's evaluations ask for none), then shared by copies of the evaluation (the pool they
  // describe is the same); a new evaluation starts a new one. Not for threads sharing one evaluation.
  using StepMemo = std::map<std::tuple<double, double, double>, StepParts>;
  mutable std::shared_ptr<StepMemo> decode_memo;
};

// decode_step() and prefill_pass() of a bound pool, with its constants when it has them.
inline StepParts pool_decode_step(const PoolEval& pe, double seqs, double context, double scale) {
  return pe.consts ? decode_step(pe.pool, *pe.consts, seqs, context, scale) : decode_step(pe.pool, seqs, context, scale);
}
inline StepParts pool_prefill_pass(const PoolEval& pe, double tokens, double seqs, double attn_work, double prefix, double scale) {
  return pe.consts ? prefill_pass(pe.pool, *pe.consts, tokens, seqs, attn_work, prefix, scale)
                   : prefill_pass(pe.pool, tokens, seqs, attn_work, prefix, scale);
}

struct DecodePoint {
  double in_flight = 0;   // sequences decoding per DP group (pp micro-batches together)
  double context = 0;     // mean context of a running sequence
  double tokens_per_step = 1;
  StepParts step;         // one decode step (TPOT x tokens_per_step)
  double tpot_s = 0;      // time per output token (with the colocated prefill share)
  double prefill_share = 0;  // colocated: fraction of GPU time spent on prefill
  double output_tps = 0;  // output tokens/s of the decode pool
  std::string limit;      // what stops a larger batch: "tpot" | "kv" | "cap" | "load"
};

// What an evaluation computes from its scenario: every figure and none of the scenario, so that
// reevaluate() resets it as a whole.
struct EvaluationFigures {
  ParamBreakdown params;
  std::vector<PoolEval> pools;  // [colocated] or [prefill, decode]
  double time_scale = 1.0;      // calibration multiplier on every time (1 = preset factors)

  const PoolEval& decode_pool() const { return pools.back(); }
  const PoolEval& prefill_pool() const { return pools.front(); }
  bool disaggregated() const { return pools.size() == 2; }

  LengthDist input{1, 1}, output{1, 1};
  double running_context = 0;   // mean context of a decoding sequence: input + output / 2
  // The decode pool's step time by batch at running_context and time_scale (the searches' probes);
  // shared by copies of the evaluation, and by a search's evaluations of the same pool.
  std::shared_ptr<const DecodeCurve> decode_curve;  // null until evaluated
  // TPOT of the decode pool with `in_flight` sequences per DP group and a colocated prefill share:
  // decode_at(decode_pool(), in_flight, running_context, share, time_scale).tpot_s, from the curve
  // (through a search's memo of its step times when given: the same numbers).
  double decode_tpot(double in_flight, double share, PoolMemoEntry* memo = nullptr) const;

  // KV capacity (sessions of the decode/colocated pool).
  double sessions_target_ctx = 0, sessions_8k = 0, sessions_16k = 0, sessions_32k = 0;
  double session_bytes_target_ctx = 0;  // per GPU

  // Prefill.
  StepParts prefill_step;        // one full-budget pass
  double prefill_tokens_s = 0;   // prefill capacity of the prefill (or colocated) pool, input tokens/s
  double prefill_s_per_token = 0;      // full-chunk pass time per token
  double prefill_pass_fixed_s = 0;     // fixed cost of one prefill pass (launches, scheduling)
  double prefill_s_per_token_var = 0;  // the rest, per token

  // System capacity at the TPOT limit.
  double lambda_max = 0;         // requests/s the deployment sustains
  std::string lambda_limit;      // "prefill" | "decode-tpot" | "decode-kv" | "kv-transfer" | "infeasible"
  DecodePoint op_max;            // decode operating point at lambda_max
  double input_tps_max = 0, output_tps_max = 0, total_tps_max = 0;
  bool tpot_feasible = true;     // TPOT at batch 1 meets the limit

  // At the workload's load.
  double lambda_load = 0;        // requests/s of the workload (arrival_qpm or the throughput target)
  std::string load_source;       // "arrival_qpm" | "throughput_target" | "capacity"
  bool load_sustainable = true;
  DecodePoint op_load;
  double kv_transfer_s = 0;      // per mean request (disaggregated), handshake included
  double kv_transfer_per_token_s = 0;
  double first_decode_s = 0;
  TtftStats ttft;                // at lambda_load
  LoadResult load;               // the workload's own load kind (closed loop, static batch, burst)

  // Colocated pools: share of one prefill pass spent on the rank that owns the tokens (attention,
  // dense layers, shared experts), as opposed to the routed experts every EP rank shares.
  double prefill_local_fraction = 0;
};

// An evaluation: its scenario and what was computed from it.
struct EvaluationData : EvaluationFigures {
  Scenario s;
  // Colocated pools at `lambda` requests/s: the prefill work per GPU (fraction of GPU time), and the
  // share of GPU time lost to it once DP-attention ranks waiting for another rank's prefill chunk at
  // every MoE layer are counted (equal to the work for one DP group or a dense model).
  double prefill_work_share(double lambda) const;   // colocated pools only (0 when disaggregated)
  double prefill_utilisation(double lambda) const;  // busy fraction of the prefill side, any mode
  double prefill_share(double lambda) const;

  // Throughput target in its own kind, and the capacity in that kind.
  double capacity_in_target_kind() const;
};

// The pools point into the evaluation's own scenario: copies and moves re-point them.
struct Evaluation : EvaluationData {
  Evaluation() = default;
  Evaluation(const Evaluation& o) : EvaluationData(o) { rebind(); }
  Evaluation(Evaluation&& o) noexcept : EvaluationData(std::move(o)) { rebind(); }
  Evaluation& operator=(const Evaluation& o) {
    EvaluationData::operator=(o);
    rebind();
    return *this;
  }
  Evaluation& operator=(Evaluation&& o) noexcept {
    EvaluationData::operator=(std::move(o));
    rebind();
    return *this;
  }
  void rebind();
};

// Builds the pools of a deployment into `out` (its contents replaced, its buffer reused).
void make_pools(std::vector<PoolEval>& out, const Deployment& d, int gpus_per_node);

class PoolMemo;  // pool_memo.hpp
struct EvalOptions {
  double time_scale = 1.0;
  bool ttft = true;
  int ttft_requests = 3000;
  bool capacity = true;  // false: memory plans, prefill and the workload's load kind only
  // A search's per-pool work shared across its candidates (pool_memo.hpp; null: none). Same results.
  PoolMemo* memo = nullptr;
};
Evaluation evaluate_scenario(const Scenario& s, const EvalOptions& o = {});
// The same, taking the scenario over (no copy: the search's candidates, issue 11).
Evaluation evaluate_scenario(Scenario&& s, const EvalOptions& o = {});
// Evaluates `ev.s` again, in place: every figure recomputed from the scenario as it now is, equal to
// evaluate_scenario(ev.s, o). A search's candidates set their knobs on one scenario and evaluate it
// there: no Scenario copy or move per candidate (issue 11).
void reevaluate(Evaluation& ev, const EvalOptions& o = {});
// The same deployment at another arrival rate: `base`'s capacity kept (it does not depend on the
// load), the load's figures (decode point, TTFT, load kind) recomputed. Equal to evaluating the
// scenario with workload.arrival_qpm = arrival_qpm.
Evaluation evaluate_at_rate(const Evaluation& base, double arrival_qpm, const EvalOptions& o);

// Decode point of a pool at `in_flight` sequences per DP group (prefill share for colocated pools).
DecodePoint decode_at(const PoolEval& pe, double in_flight, double context, double prefill_share, double time_scale);

// Fixed per-request part of TTFT (engine request overhead, PD handshake, first decode step where
// the engine needs one, pipeline stages beyond the first).
double request_fixed_s(const Evaluation& ev);

// The scenario a reference measurement describes (same model; its GPU, precision, deployment, workload).
Scenario reference_scenario(const Scenario& s);

}  // namespace slo
