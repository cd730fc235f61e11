// Per-pool work a configuration search's evaluations share (issue 11): each distinct pool's step
// constants, decode curve (and the step times probed on it), memory plans and full-budget prefill
// pass, and the model's parameter counts. A search evaluates thousands of scenarios that differ only
// in its knobs, and most of them repeat a pool another one had (every decode-batch cap of a decode
// layout, every decode layout beside one prefill layout).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "slo/memory_plan.hpp"
#include "slo/params.hpp"
#include "slo/step_time.hpp"

namespace slo {

// What one pool's evaluations share. The curve and the prefill pass record the context, input
// lengths and time scale they were computed at; a lookup at other ones recomputes them.
struct PoolMemoEntry {
  std::shared_ptr<const StepConsts> consts;
  double curve_context = 0, curve_scale = 0;
  std::shared_ptr<const DecodeCurve> curve;  // null until a decode evaluation asks for it
  // curve->total(seqs), the last batches kept.
  double curve_total(double seqs) { return totals_.at(*curve, seqs); }
  void reset_totals() { totals_.clear(); }
  bool has_prefill = false;
  double prefill_in_mean = 0, prefill_in_max = 0, prefill_scale = 0;
  StepParts prefill;
  // The largest decode batch whose TPOT on `curve` is within `within_limit` (0: not even one), once a
  // search's bound has found it: the same for every batch cap above it, as TPOT rises with the batch.
  // Valid for that curve and limit.
  const DecodeCurve* within_curve = nullptr;
  double within_limit = 0, within_batch = 0;
  // plan_memory(p, decode_seqs) for pool `p` (this entry's), its last few batches kept.
  MemoryPlan plan(const Pool& p, double decode_seqs);

 private:
  struct Plan {
    double seqs;
    MemoryPlan plan;
  };
  // A decode pool's plans in one search: its roomiest (1 sequence), the default batch under each of
  // the five batch caps, and its operating batch: eight keep them all.
  static constexpr int kPlans = 8;
  Plan plans_[kPlans];
  int plan_count_ = 0, plan_next_ = 0;
  std::optional<WeightBytes> weights_;  // weights_per_gpu(p): the same at every batch
  CurveTotals<64> totals_;
};

// Keyed by what a search varies in a pool: its phase and layout, the KV-cache precision, the MTP
// draft tokens and the chunk budget. So it is valid only for scenarios that are otherwise equal
// (one search's base scenario with its knobs applied: config_search.cpp). One per search, one thread.
class PoolMemo {
 public:
  PoolMemoEntry& at(const Pool& p);
  // The model's parameter counts (one model per search).
  const ParamBreakdown& params(const ModelArch& m);

 private:
  // The pool's phase, layout, KV precision, draft tokens and chunk budget, two to a word (a lookup
  // compares 5 words, not 11 fields); its offloaded GB.
  struct Key {
    std::uint64_t w[4];
    double offload;
    bool operator==(const Key& o) const { return w[0] == o.w[0] && w[1] == o.w[1] && w[2] == o.w[2] && w[3] == o.w[3] && offload == o.offload; }
    bool operator<(const Key& o) const {
      for (int i = 0; i < 4; ++i)
        if (w[i] != o.w[i]) return w[i] < o.w[i];
      return offload < o.offload;
    }
  };
  std::map<Key, PoolMemoEntry> entries_;
  PoolMemoEntry* last_[2] = {nullptr, nullptr};  // the last two pools asked for (a candidate's two)
  Key last_key_[2];
  std::optional<ParamBreakdown> params_;
};

// The decode curve and the memory plan of pool `p`, from its memo entry when there is one (null:
// computed): the same numbers either way.
std::shared_ptr<const DecodeCurve> memo_curve(PoolMemoEntry* memo, const Pool& p, const StepConsts& k, double context, double scale);
MemoryPlan memo_plan(PoolMemoEntry* memo, const Pool& p, double decode_seqs);

}  // namespace slo
