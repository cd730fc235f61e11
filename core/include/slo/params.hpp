// Exact parameter breakdown by component, activated parameters per token, and the parameters one
// GPU holds under a parallel layout.
#pragma once
#include "slo/model.hpp"
#include "slo/scenario.hpp"

namespace slo {

struct ParamBreakdown {
  double attention = 0;            // all layers' attention projections (+ biases, sinks)
  double attention_per_layer = 0;  // one (full) attention layer, projections only
  double attention_norms = 0;      // MLA q_a/kv_a norms, Qwen3/GLM q/k norms (all layers)
  double dense_ffn = 0;            // dense FFN layers
  double routed_experts = 0;       // all routed experts of all MoE layers
  double per_expert = 0;           // one routed expert (gate, up, down [+ biases])
  double shared_experts = 0;       // shared experts of all MoE layers
  double router = 0;               // router weights (+ bias / e_score_correction_bias)
  double embedding = 0;
  double lm_head = 0;              // 0 when tied to the embedding
  double layer_norms = 0;          // input/post-attention norms of every layer + final norm
  double mtp = 0;                  // unique MTP / next-n parameters (not part of total())

  double total() const {
    return attention + attention_norms + dense_ffn + routed_experts + shared_experts + router + embedding + lm_head +
           layer_norms;
  }
  double active_all = 0;                   // per token, incl. embedding and lm_head
  double active_no_embedding = 0;          // without the input embedding
  double active_no_embedding_no_head = 0;  // without both
  // Active figure under the convention the publisher uses (ModelArch::active_convention).
  double active_as_published(const ModelArch& m) const;
};

ParamBreakdown count_params(const ModelArch& m);

// Parameters of one MLA or GQA attention layer split into what every attention-TP rank holds
// (replicated) and what is divided by the attention TP degree.
struct AttentionSplit {
  double replicated = 0;
  double split = 0;
};
AttentionSplit attention_split(const ModelArch& m);

}  // namespace slo
