// Report stage: the scenario, parameter, memory, KV-cache and prefill sections (formatting only).
#include <algorithm>
#include <cmath>

#include "report_common.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo::rpt {

void add_scenario(Report& r, const Ctx& c) {
  const B& b = c.b;
  const Evaluation& ev = c.ev;
  const Scenario& s = c.s;
  const ModelArch& m = c.m;
  const Workload& w = c.w;
  const int total_gpus = c.total_gpus;
  {
    Section& sec = r.add_section("scenario", b.t("Scenario", "场景"));
    const ParamBreakdown& p = ev.params;
    sec.row("model", b.t("Model", "模型"), Value::str(m.name + " (" + (m.attention == AttentionType::MLA ? "MLA" : "GQA") + (m.is_moe() ? ", MoE" : ", dense") + ")"));
    sec.row("params_total", b.t("Parameters (main model)", "参数量（主模型）"), b.params_b(p.total()));
    sec.row("params_active", b.t("Activated per token (incl. embedding and head)", "每 token 激活参数（含嵌入与输出头）"), b.params_b(p.active_all));
    sec.row("precision", b.t("Precision (weights / activations / KV)", "精度（权重 / 激活 / KV）"), Value::str(s.precision.scheme_name()));
    sec.row("gpu", b.t("GPU", "GPU"), Value::str(s.gpu.name + ", " + b.num(s.gpu.memory_bytes / 1e9, 0) + " GB, " + b.num(s.gpu.hbm_bytes_s / 1e12, 2) + " TB/s"));
    sec.row("cluster", b.t("Cluster", "集群"), Value::str(std::to_string(s.nodes) + " x " + std::to_string(s.gpus_per_node) + " = " + std::to_string(s.cluster_gpus()) + b.t(" GPUs", " 卡")));
    for (const auto& pe : ev.pools) sec.row("pool_" + pe.role, role_label(b, pe.role), Value::str(pool_desc(b, pe.pool.cfg, s.model.is_moe())));
    for (const auto& note : s.notes) r.warnings.push_back(note);  // derived defaults (scenario v2)
    if (total_gpus < s.cluster_gpus())
      r.warnings.push_back(std::to_string(s.cluster_gpus() - total_gpus) + b.t(" GPUs of the cluster are not in any pool.", " 张卡未分配到任何池。"));
    sec.row("mtp", b.t("MTP", "MTP"), Value::str(s.deployment.mtp.draft_tokens > 0 ? std::to_string(s.deployment.mtp.draft_tokens) + b.t(" draft tokens, acceptance ", " 个草稿 token，接受率 ") +
                                                                        b.num(s.deployment.mtp.acceptance, 2) : b.t("off", "关闭")));
    sec.row("workload", b.t("Workload (input / output tokens, mean and max)", "负载（输入 / 输出 tokens，均值与最大值）"),
            Value::str(b.num(w.input_tokens) + " (max " + b.num(w.input_tokens_max) + ") / " + b.num(w.output_tokens) + " (max " + b.num(w.output_tokens_max) + ")"));
    const char* src = ev.load_source == "arrival_qpm" ? b.t("workload.arrival_qpm", "workload.arrival_qpm")
                      : ev.load_source == "throughput_target" ? b.t("the rate that delivers the throughput target", "达成吞吐目标所需的请求率")
                                                              : b.t("80% of capacity (no rate or throughput target given)", "能力的 80%（未给出请求率与吞吐目标）");
    sec.row("load", b.t("Load", "负载"), b.fixed(ev.lambda_load * 60, 1, b.t("requests/min", "请求/分钟"), true), "", 0, src);
    if (s.deployment.mtp.draft_tokens > 0 && m.mtp_layers == 0)
      r.warnings.push_back(b.t("The model ships no MTP layer: MTP is costed as a one-layer draft module of the model's own shape.",
                               "模型未自带 MTP 层：按与模型同构的一层草稿模块计算 MTP 开销。"));
    if (m.max_position > 0 && w.context_length > m.max_position)
      r.warnings.push_back(std::string(b.t("workload.context_length exceeds the model's max_position_embeddings (", "workload.context_length 超过模型的 max_position_embeddings（")) +
                           b.num(m.max_position) + ").");
    if (w.input_tokens_max + w.output_tokens_max > w.context_length)
      r.warnings.push_back(b.t("The longest request (input max + output max) exceeds workload.context_length.",
                               "最长请求（输入最大值 + 输出最大值）超过 workload.context_length。"));
  }
}

void add_parameters(Report& r, const Ctx& c) {
  const B& b = c.b;
  const Evaluation& ev = c.ev;
  const ModelArch& m = c.m;
  {
    Section& sec = r.add_section("parameters", b.t("Parameter breakdown", "参数分解"));
    const ParamBreakdown& p = ev.params;
    Table t;
    t.id = "params";
    t.columns = {b.t("component", "组件"), b.t("parameters", "参数量"), b.t("share", "占比")};
    auto add = [&](const char* en, const char* zh, double x) {
      if (x > 0) t.rows.push_back({Value::str(b.t(en, zh)), b.count(x), b.percent(x / p.total(), 1)});
    };
    add(m.attention == AttentionType::MLA ? "MLA attention" : "GQA attention", m.attention == AttentionType::MLA ? "MLA 注意力" : "GQA 注意力", p.attention + p.attention_norms);
    add("dense FFN layers", "Dense FFN 层", p.dense_ffn);
    add("routed experts", "路由专家", p.routed_experts);
    add("shared experts", "共享专家", p.shared_experts);
    add("routers", "路由器", p.router);
    add("embedding", "嵌入层", p.embedding);
    add("lm_head", "输出头", p.lm_head);
    add("layer norms", "层归一化", p.layer_norms);
    t.rows.push_back({Value::str(b.t("total", "合计")), b.count(p.total()), b.percent(1.0, 1)});
    if (p.mtp > 0) t.rows.push_back({Value::str(b.t("MTP module (not in total)", "MTP 模块（不计入合计）")), b.count(p.mtp), Value::str("")});
    sec.table(t);
    sec.row("per_layer_attention", b.t("Attention per layer", "每层注意力"), b.count(p.attention_per_layer));
    if (m.is_moe()) sec.row("per_expert", b.t("One routed expert", "单个路由专家"), b.count(p.per_expert));
    sec.row("active_all", b.t("Activated per token, incl. embedding and head", "每 token 激活（含嵌入与输出头）"), b.params_b(p.active_all));
    sec.row("active_no_emb", b.t("Activated per token, without the input embedding", "每 token 激活（不含输入嵌入）"), b.params_b(p.active_no_embedding));
    if (m.published_total > 0)
      sec.row("published", b.t("Published (total / active)", "官方公布（总 / 激活）"),
              Value::str(b.num(m.published_total / 1e9, 1) + "B / " + b.num(m.published_active / 1e9, 1) + "B"));
  }
}

void add_memory(Report& r, const Ctx& c) {
  const B& b = c.b;
  const Evaluation& ev = c.ev;
  const Scenario& s = c.s;
  {
    Section& sec = r.add_section("memory", b.t("Memory plan per GPU", "每卡显存规划"));
    Table t;
    t.id = "memory_plan";
    t.columns = {b.t("item", "项目")};
    for (const auto& pe : ev.pools) t.columns.push_back(role_label(b, pe.role) + " (GB)");
    auto row = [&](const char* en, const char* zh, auto get) {
      std::vector<Value> cells{Value::str(b.t(en, zh))};
      double largest = 0;
      for (const auto& pe : ev.pools) {
        cells.push_back(b.gb(get(pe.plan), 2));
        largest = std::max(largest, get(pe.plan));
      }
      if (largest >= 0.005e9) t.rows.push_back(cells);  // rows that are zero on every pool are left out
    };
    row("HBM", "显存总量", [](const MemoryPlan& p) { return p.hbm; });
    row("usable (x memory fraction)", "可用（x 显存比例）", [](const MemoryPlan& p) { return p.usable; });
    row("weights: attention", "权重：注意力", [](const MemoryPlan& p) { return p.weights.attention; });
    row("weights: dense FFN", "权重：Dense FFN", [](const MemoryPlan& p) { return p.weights.dense_ffn; });
    row("weights: shared experts", "权重：共享专家", [](const MemoryPlan& p) { return p.weights.shared_experts; });
    row("weights: routed experts (local)", "权重：本卡路由专家", [](const MemoryPlan& p) { return p.weights.routed_experts; });
    row("weights: routers", "权重：路由器", [](const MemoryPlan& p) { return p.weights.router; });
    row("weights: embedding + lm_head", "权重：嵌入 + 输出头", [](const MemoryPlan& p) { return p.weights.embedding + p.weights.lm_head; });
    row("weights: norms", "权重：归一化", [](const MemoryPlan& p) { return p.weights.norms; });
    row("weights: MTP module", "权重：MTP 模块", [](const MemoryPlan& p) { return p.weights.mtp; });
    row("weights total", "权重合计", [](const MemoryPlan& p) { return p.weights.total(); });
    row("of which in host memory (offloaded)", "其中卸载到主机内存", [](const MemoryPlan& p) { return p.offloaded; });
    row("offload staging (prefetch)", "卸载预取缓冲", [](const MemoryPlan& p) { return p.offload_staging; });
    row("activation workspace", "激活工作区", [](const MemoryPlan& p) { return p.activations; });
    row("EP communication buffers", "EP 通信缓冲", [](const MemoryPlan& p) { return p.ep_buffers; });
    row("CUDA-graph pool", "CUDA Graph 内存池", [](const MemoryPlan& p) { return p.cuda_graph; });
    row("KV transfer staging", "KV 传输缓冲", [](const MemoryPlan& p) { return p.kv_transfer; });
    row("KV-cache pool", "KV 缓存池", [](const MemoryPlan& p) { return p.kv_pool; });
    row("shortfall", "缺口", [](const MemoryPlan& p) { return p.shortfall; });
    t.note = b.t("GB = 1e9 bytes. Reserves are sized from the batch each pool serves (decode batch at the operating point, the prefill chunk).",
                 "GB = 1e9 字节。预留按各池实际批大小计算（工作点的 decode 批、prefill 分块）。");
    if (!ev.pools.empty() && ev.pools.front().plan.fraction_auto) {
      std::string f;
      bool low = false;  // the engine's reserve leaves less than half of the memory on some pool
      for (const auto& pe : ev.pools) {
        f += (f.empty() ? "" : " / ") + b.num(pe.plan.fraction, 3);
        low = low || pe.plan.fraction < 0.5;
      }
      t.note += std::string(b.t(" Memory fraction not set: ", "未设置显存比例：")) + s.deployment.engine.name + b.t("'s automatic choice ", " 的自动取值 ") + f + b.t(" (", "（") +
                s.deployment.engine.memory_flag + b.t(" as the engine sets it for this GPU, parallel layout and chunk).", "，引擎按本 GPU、并行布局与分块自动设定）。");
      if (low)
        t.note += b.t(" At this layout the engine's reserve (it grows with the chunk flag, the CUDA-graph batch and DP attention) leaves too little: state the memory fraction.",
                      "此布局下引擎的预留（随分块参数、CUDA Graph 批大小与 DP 注意力增长）所剩无几：请设置显存比例。");
    }
    sec.table(t);
    // Chart: stacked per-GPU memory by pool.
    Chart c;
    c.id = "memory_breakdown";
    c.title = b.t("Per-GPU memory", "每卡显存构成");
    c.kind = "stacked-bar";
    c.y_label = b.t("memory", "显存");
    c.y_unit = "GB";
    for (const auto& pe : ev.pools) c.categories.push_back(role_label(b, pe.role));
    auto series = [&](const char* en, const char* zh, auto get) {
      Series sr;
      sr.name = b.t(en, zh);
      for (std::size_t i = 0; i < ev.pools.size(); ++i) sr.points.push_back({static_cast<double>(i), get(ev.pools[i].plan) / 1e9});
      c.series.push_back(sr);
    };
    series("weights", "权重", [](const MemoryPlan& p) { return p.resident_weights(); });
    series("reserves", "预留", [](const MemoryPlan& p) { return p.reserves(); });
    series("KV cache", "KV 缓存", [](const MemoryPlan& p) { return p.kv_pool; });
    // What is left of the HBM: the stack reaches the HBM line exactly when the plan fits, whatever the
    // engine's memory flag covers (SGLang's fraction holds weights + KV, the reserves sit outside it).
    series("not usable", "不可用", [](const MemoryPlan& p) { return std::max(0.0, p.hbm - p.resident_weights() - p.reserves() - p.kv_pool); });
    Marker mk;
    mk.axis = "y";
    // The capacity the bars stack up to (the driver-reported HBM the plan uses, e.g. H20: 102.6 GB),
    // not the marketed size (96 GB), which a fitting plan would seem to overflow.
    mk.value = (ev.pools.front().plan.hbm > 0 ? ev.pools.front().plan.hbm : s.gpu.memory_bytes) / 1e9;
    mk.label = b.t("HBM", "显存总量");
    c.markers.push_back(mk);
    sec.chart(c);
  }
}

void add_kv_cache(Report& r, const Ctx& c) {
  const B& b = c.b;
  const Analysis& a = c.a;
  const Evaluation& ev = c.ev;
  const ModelArch& m = c.m;
  const Workload& w = c.w;
  const PoolEval& dec = c.dec;
  {
    Section& sec = r.add_section("kv_cache", b.t("KV cache and concurrency", "KV 缓存与并发能力"));
    const PoolConfig& pc = dec.pool.cfg;
    const double per_tok = a.kv_bytes_per_token;
    sec.row("kv_per_token", b.t("KV bytes per token (all layers)", "每 token KV 字节（全部层）"), b.count(per_tok, "B"), "", 0,
            m.attention == AttentionType::MLA
                ? std::string(b.t("MLA latent: kv_lora_rank + rope = ", "MLA 潜变量：kv_lora_rank + rope = ")) + std::to_string(m.kv_lora_rank + m.qk_rope_dim) + b.t(" elements per layer", " 元素/层")
                : std::string(b.t("2 x KV heads x head_dim per layer", "每层 2 x KV 头数 x head_dim")));
    sec.row("kv_per_token_gpu", b.t("KV bytes per token on one GPU", "单卡每 token KV 字节"), b.count(dec.plan.kv_token_bytes, "B"), "", 0,
            m.attention == AttentionType::MLA && pc.attention_tp > 1 ? b.t("MLA latent replicated on every attention-TP rank", "MLA 潜变量在每个注意力 TP rank 上复制")
                                                                     : "");
    sec.row("session_gb", std::string(b.t("One session of ", "单会话 ")) + b.num(w.context_length) + b.t(" tokens, per GPU", " tokens，每卡"), b.gb(ev.session_bytes_target_ctx, 3));
    sec.row("kv_pool", b.t("KV pool per GPU", "每卡 KV 缓存池"), b.gb(dec.plan.kv_pool));
    sec.row("dp_groups", b.t("DP groups holding sessions", "持有会话的 DP 组数"), b.count(dec.plan.dp));
    Table t;
    t.id = "capacity";
    t.title = b.t("Maximum concurrent sessions (decode side)", "最大并发会话（decode 侧）");
    t.columns = {b.t("context", "上下文"), b.t("per DP group", "每 DP 组"), b.t("cluster", "集群")};
    for (const auto& [ctx, all] : a.capacity) {
      t.rows.push_back({b.count(ctx, "tokens"), b.count(dec.plan.dp > 0 ? all / dec.plan.dp : 0), b.count(all)});
      if (ctx == w.context_length) t.rows.back()[0].text += b.t(" (scenario)", "（场景）");
    }
    sec.table(t);
  }
}

void add_prefill(Report& r, const Ctx& c) {
  const B& b = c.b;
  const Evaluation& ev = c.ev;
  const Scenario& s = c.s;
  const PoolEval& pre = c.pre;
  {
    Section& sec = r.add_section("prefill", b.t("Prefill", "Prefill"));
    if (!pre.plan.fits()) {
      sec.row("prefill_capacity", b.t("Prefill capacity", "Prefill 能力"), Value::str(b.t("none: the pool does not fit in GPU memory", "无：该池显存放不下")), "", 0,
              std::string(b.t("short by ", "缺口 ")) + b.num(pre.plan.shortfall / 1e9, 2) + " GB " + b.t("per GPU on the ", "/卡，") + role_label(b, pre.role));
    } else {
    sec.row("prefill_capacity", b.t("Prefill capacity", "Prefill 能力"), b.tps(ev.prefill_tokens_s, "tokens/s"), "", 0,
            std::string(b.t("input tokens/s of the ", "输入 tokens/s，")) + role_label(b, pre.role));
    sec.row("prefill_per_gpu", b.t("Prefill capacity per GPU", "每卡 Prefill 能力"), b.tps(ev.prefill_tokens_s / pre.pool.cfg.gpus, "tokens/s"));
    sec.row("prefill_pass", b.t("One prefill pass", "单次 Prefill 前向"), b.ms(ev.prefill_step.total, 0), "", 0,
            b.num(s.deployment.chunked_prefill_tokens) + b.t(" tokens per DP group; ", " tokens/DP 组；") + bottleneck_label(b, ev.prefill_step.bottleneck));
    if (const GemmBound& g = pre.gemm_bound; g.flops_s > 0)
      sec.row("block_fp8_bound", b.t("Block-scaled FP8 GEMMs", "块缩放 FP8 GEMM"),
              Value::str(b.t("at most ", "至多 ") + b.num(g.flops_s / 1e12, 0) + b.t(" TFLOP/s per GPU", " TFLOP/s/卡")), "", 0,
              std::string(g.dense && g.experts ? b.t("dense layers and tensor-parallel experts", "稠密层与张量并行专家")
                          : g.dense ? b.t("dense layers", "稠密层") : b.t("tensor-parallel experts", "张量并行专家")) +
                  b.t("; ", "；") + s.deployment.engine.name +
                  b.t("'s kernels promote every 128-deep sum to FP32 on the CUDA cores, as this GPU's tensor cores have no block scaling",
                      " 的内核每累加 128 项便在 CUDA 核上转为 FP32 累加，因为此 GPU 的张量核不支持块缩放"));
    if (ev.disaggregated()) sec.row("kv_transfer", b.t("KV transfer to decode (mean request)", "KV 传输到 decode（平均请求）"), b.ms(ev.kv_transfer_s, 2));
    Table t;
    t.id = "prefill_breakdown";
    t.title = b.t("Prefill pass breakdown (one GPU)", "Prefill 前向分解（单卡）");
    t.columns = {b.t("part", "部分"), b.t("time", "时间")};
    step_rows(b, t, ev.prefill_step);
    sec.table(t);
    }
  }
}

}  // namespace slo::rpt

SLO_SIZE_END
