// PoolMemo (pool_memo.hpp): one entry per distinct pool of a search.
#include "slo/pool_memo.hpp"

#include <algorithm>

#include "slo/scenario.hpp"

// Not in a size region (size_region.hpp): a search asks for about 40,000 pools and plans per run
// (the default frontier), and -O3 here made the wasm search about 5% faster for 0.2 KB of gzip.

namespace slo {

MemoryPlan PoolMemoEntry::plan(const Pool& p, double decode_seqs) {
  for (int i = 0; i < plan_count_; ++i)
    if (plans_[i].seqs == decode_seqs) {
      MemoryPlan m = plans_[i].plan;
      m.pool = &p;
      return m;
    }
  if (!weights_) weights_ = weights_per_gpu(p);
  const MemoryPlan m = plan_memory(p, decode_seqs, *weights_);
  plans_[plan_next_] = Plan{decode_seqs, m};
  plan_next_ = (plan_next_ + 1) % kPlans;
  plan_count_ = std::max(plan_count_, plan_next_ == 0 ? kPlans : plan_next_);
  return m;
}

PoolMemoEntry& PoolMemo::at(const Pool& p) {
  const PoolConfig& c = p.cfg;
  auto two = [](int hi, int lo) { return static_cast<std::uint64_t>(static_cast<std::uint32_t>(hi)) << 32 | static_cast<std::uint32_t>(lo); };
  const Key key{{two(c.gpus, c.attention_tp), two(c.ep, c.pp), two(c.redundant_experts, c.replicas),
                 two(p.deployment->chunked_prefill_tokens, p.draft_tokens() << 16 | static_cast<int>(p.precision->kv_cache) << 8 | static_cast<int>(p.phase))},
                c.cpu_offload_gb};
  for (int i = 0; i < 2; ++i)  // a candidate asks for its pools in turn, and its neighbours share them
    if (last_[i] && last_key_[i] == key) return *last_[i];
  PoolMemoEntry& e = entries_[key];
  if (!e.consts) e.consts = std::make_shared<const StepConsts>(step_consts(p));
  last_[1] = last_[0], last_key_[1] = last_key_[0];
  last_[0] = &e, last_key_[0] = key;
  return e;
}

std::shared_ptr<const DecodeCurve> memo_curve(PoolMemoEntry* memo, const Pool& p, const StepConsts& k, double context, double scale) {
  if (memo && memo->curve && memo->curve_context == context && memo->curve_scale == scale) return memo->curve;
  auto curve = std::make_shared<const DecodeCurve>(p, k, context, scale);
  if (memo) {
    memo->curve = curve, memo->curve_context = context, memo->curve_scale = scale;
    memo->reset_totals();
    memo->within_curve = nullptr;  // a new curve may reuse the old one's address
  }
  return curve;
}

MemoryPlan memo_plan(PoolMemoEntry* memo, const Pool& p, double decode_seqs) {
  return memo ? memo->plan(p, decode_seqs) : plan_memory(p, decode_seqs);
}

const ParamBreakdown& PoolMemo::params(const ModelArch& m) {
  if (!params_) params_ = count_params(m);
  return *params_;
}

}  // namespace slo
