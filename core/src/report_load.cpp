#include "slo/report_load.hpp"

#include "slo/band_format.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

void add_load_section(Report& r, const Evaluation& ev, const FigureBands& bands) {
  const LoadResult& l = ev.load;
  if (!l.present) return;
  const Lang lang = r.lang;
  auto t = [&](const char* en, const char* zh) { return std::string(L(lang, en, zh)); };
  const Workload& w = ev.s.workload;
  std::string title, who;
  switch (w.kind) {
    case LoadKind::ClosedLoop:
      title = t("Benchmark load: closed loop", "基准负载：闭环");
      who = format_fixed(w.concurrency, 0, true) + t(" clients, each sending its next request when the last one ends (bench_serving --max-concurrency)",
                                                     " 个客户端，每个在上一个请求结束后立即发送下一个（bench_serving --max-concurrency）");
      break;
    case LoadKind::StaticBatch:
      title = t("Benchmark load: static batch", "基准负载：静态批");
      who = format_fixed(w.batch, 0, true) + t(" requests prefilled together, then decoded together (bench_one_batch, vllm bench latency)",
                                               " 个请求一起预填充、一起解码（bench_one_batch、vllm bench latency）");
      break;
    case LoadKind::Burst:
      title = t("Benchmark load: burst", "基准负载：突发");
      who = format_fixed(w.requests, 0, true) + t(" requests sent at once; the engine admits what its KV cache and request limit allow",
                                                  " 个请求同时发送；引擎按 KV 缓存与请求上限接纳");
      break;
    case LoadKind::Poisson: return;
  }
  Section& sec = r.add_section("load", title);
  sec.text(who);
  if (l.tpot_s <= 0) {
    sec.text(t("No figure: the deployment does not fit in GPU memory.", "无结果：部署放不进显存。"));
    return;
  }
  sec.row("load_ttft", t("Mean time to first token", "平均首 token 延迟"), with_band(Value::fixed(l.ttft_s * 1e3, 1, "ms", true), bands.ttft, lang));
  sec.row("load_tpot", t("Mean time per output token", "平均每输出 token 时间（TPOT）"), with_band(Value::fixed(l.tpot_s * 1e3, 2, "ms"), bands.tpot, lang));
  sec.row("load_user", t("Tokens/s per user (1000 / TPOT)", "每用户 tokens/s（1000 / TPOT）"), with_band(Value::fixed(1.0 / l.tpot_s, 1, "tokens/s"), bands.tpot, lang));
  sec.row("load_latency", t("Mean end-to-end latency", "平均端到端延迟"), with_band(Value::fixed(l.latency_s * 1e3, 0, "ms", true), bands.latency, lang));
  const char* out_label = w.kind == LoadKind::StaticBatch ? L(lang, "Output tokens/s of the batch while decoding", "解码阶段整批输出 tokens/s")
                                                          : L(lang, "Output tokens/s", "输出 tokens/s");
  sec.row("load_output", out_label, with_band(Value::fixed(l.output_tps, l.output_tps < 100 ? 1 : 0, "tokens/s", true), bands.throughput, lang));
  int gpus = 0;
  for (const auto& pe : ev.pools) gpus += pe.pool.cfg.gpus;
  if (gpus > 0) sec.row("load_output_gpu", t("Output tokens/s per GPU", "每卡输出 tokens/s"), with_band(Value::fixed(l.output_tps / gpus, 1, "tokens/s", true), bands.throughput, lang));
  if (w.kind != LoadKind::StaticBatch)
    sec.row("load_total", t("Input + output tokens/s", "输入 + 输出 tokens/s"), with_band(Value::fixed(l.output_tps + l.input_tps, 0, "tokens/s", true), bands.throughput, lang));
  if (l.prefill_share > 0)
    sec.row("load_share", t("GPU time decode loses to other requests' prefill", "解码被其他请求预填充占用的 GPU 时间"), Value::percent(l.prefill_share, 1));
}

}  // namespace slo

SLO_SIZE_END
