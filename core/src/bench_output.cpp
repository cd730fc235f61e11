// Parser of pasted benchmark outputs (sglang.bench_serving, vllm bench serve, genai-perf / aiperf).
#include "slo/bench_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "slo/strict_json.hpp"
#include "size_region.hpp"

SLO_SIZE_BEGIN

namespace slo {

using nlohmann::json;

namespace {

// "1,234.5" -> 1234.5; "inf", "not set", "N/A" -> 0.
double number_of(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());
  const char* b = s.c_str();
  while (*b == ' ' || *b == '\t') ++b;
  char* end = nullptr;
  double x = std::strtod(b, &end);
  return end != b && std::isfinite(x) && x >= 0 ? x : 0;
}

double num(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return 0;
  if (it->is_number()) return std::isfinite(it->get<double>()) && it->get<double>() >= 0 ? it->get<double>() : 0;
  if (it->is_string()) return number_of(it->get<std::string>());
  return 0;
}

// genai-perf: {"time_to_first_token": {"unit": "ms", "avg": .., "p50": .., "p99": ..}}
double stat(const json& j, const char* key, const char* which) {
  auto it = j.find(key);
  return it != j.end() && it->is_object() ? num(*it, which) : 0;
}

bool from_json(const json& j, BenchOutput& b) {
  if (!j.is_object()) return false;
  b.format = "json";
  if (j.contains("time_to_first_token") && j["time_to_first_token"].is_object()) {
    b.tool = "genai-perf";
    b.ttft_mean_ms = stat(j, "time_to_first_token", "avg");
    b.ttft_median_ms = stat(j, "time_to_first_token", "p50");
    b.ttft_p99_ms = stat(j, "time_to_first_token", "p99");
    b.itl_mean_ms = stat(j, "inter_token_latency", "avg");
    b.e2e_mean_ms = stat(j, "request_latency", "avg");
    b.output_tokens_per_s = stat(j, "output_token_throughput", "avg");
    b.request_throughput = stat(j, "request_throughput", "avg");
    b.input_tokens = stat(j, "input_sequence_length", "avg");
    b.output_tokens = stat(j, "output_sequence_length", "avg");
    if (auto ic = j.find("input_config"); ic != j.end() && ic->is_object()) {
      b.concurrency = num(*ic, "concurrency");
      b.request_rate = num(*ic, "request_rate");
      if (auto pa = ic->find("perf_analyzer"); pa != ic->end() && pa->is_object()) {
        if (auto st = pa->find("stimulus"); st != pa->end() && st->is_object()) b.concurrency = std::max(b.concurrency, num(*st, "concurrency"));
      }
    }
    return true;
  }
  if (!j.contains("mean_ttft_ms") && !j.contains("output_throughput")) return false;
  // sglang writes "backend" and "sharegpt_output_len"/"random_input_len"; vLLM writes "endpoint_type" or "model_id".
  b.tool = j.contains("backend") && !j.contains("endpoint_type") ? "sglang" : "vllm";
  b.completed = num(j, "completed");
  if (b.completed > 0) {
    b.input_tokens = num(j, "total_input_tokens") / b.completed;
    b.output_tokens = num(j, "total_output_tokens") / b.completed;
  }
  b.concurrency = num(j, "max_concurrency");
  b.request_rate = num(j, "request_rate");
  b.request_throughput = num(j, "request_throughput");
  b.output_tokens_per_s = num(j, "output_throughput");
  b.total_tokens_per_s = num(j, "total_token_throughput");
  b.ttft_mean_ms = num(j, "mean_ttft_ms");
  b.ttft_median_ms = num(j, "median_ttft_ms");
  b.ttft_p99_ms = num(j, "p99_ttft_ms");
  b.tpot_mean_ms = num(j, "mean_tpot_ms");
  b.tpot_median_ms = num(j, "median_tpot_ms");
  b.itl_mean_ms = num(j, "mean_itl_ms");
  b.e2e_mean_ms = num(j, "mean_e2e_latency_ms");
  return true;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// One "Label:   value" line of the sglang / vLLM result block.
void text_line(const std::string& label, double v, BenchOutput& b, double& total_in, double& total_out) {
  const std::string l = lower(label);
  if (l == "successful requests") b.completed = v;
  else if (l == "total input tokens") total_in = v;
  else if (l == "total generated tokens") total_out = v;
  else if (l == "max request concurrency" || l == "maximum request concurrency") b.concurrency = v;
  else if (l == "traffic request rate" || l == "request rate configured (rps)") b.request_rate = v;
  else if (l == "request throughput (req/s)") b.request_throughput = v;
  else if (l == "output token throughput (tok/s)") b.output_tokens_per_s = v;
  else if (l == "total token throughput (tok/s)") b.total_tokens_per_s = v;
  else if (l == "mean ttft (ms)") b.ttft_mean_ms = v;
  else if (l == "median ttft (ms)") b.ttft_median_ms = v;
  else if (l == "p99 ttft (ms)") b.ttft_p99_ms = v;
  else if (l == "mean tpot (ms)") b.tpot_mean_ms = v;
  else if (l == "median tpot (ms)") b.tpot_median_ms = v;
  else if (l == "mean itl (ms)") b.itl_mean_ms = v;
  else if (l == "mean e2e latency (ms)") b.e2e_mean_ms = v;
}

// genai-perf's table row: "│ Time To First Token (ms) │ 19.31 │ 16.15 │ ..." (avg is the first column).
void table_row(const std::string& line, BenchOutput& b) {
  std::vector<std::string> cells;
  std::string cur;
  for (std::size_t i = 0; i < line.size();) {
    if (line.compare(i, 3, "\xE2\x94\x82") == 0 || line.compare(i, 3, "\xE2\x94\x83") == 0 || line[i] == '|') {
      cells.push_back(cur);
      cur.clear();
      i += line[i] == '|' ? 1 : 3;
    } else {
      cur += line[i++];
    }
  }
  if (cells.size() < 3) return;
  auto trim = [](std::string s) {
    s.erase(0, s.find_first_not_of(" \t"));
    s.erase(s.find_last_not_of(" \t") + 1);
    return s;
  };
  const std::string l = lower(trim(cells[1]));
  const double avg = number_of(trim(cells[2]));
  if (l.rfind("time to first token", 0) == 0) b.ttft_mean_ms = avg;
  else if (l.rfind("inter token latency", 0) == 0) b.itl_mean_ms = avg;
  else if (l.rfind("output token throughput", 0) == 0) b.output_tokens_per_s = avg;
  else if (l.rfind("request throughput", 0) == 0) b.request_throughput = avg;
  else if (l.rfind("request latency", 0) == 0) b.e2e_mean_ms = avg;
  else if (l.rfind("output sequence length", 0) == 0) b.output_tokens = avg;
  else if (l.rfind("input sequence length", 0) == 0) b.input_tokens = avg;
}

// The lines of `text` as std::getline reads them (no <sstream>: its locale facets cost the wasm
// about 80 KB).
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

bool from_text(const std::string& text, BenchOutput& b) {
  b.format = "text";
  const bool genai = text.find("GenAI-Perf") != std::string::npos || text.find("Time To First Token") != std::string::npos;
  b.tool = genai ? "genai-perf" : text.find("Backend:") != std::string::npos ? "sglang" : "vllm";
  double total_in = 0, total_out = 0;
  bool any = false;
  for (const std::string& line : lines_of(text)) {
    if (genai) {
      table_row(line, b);
      // "Concurrency: 10" in genai-perf's command echo / profile name
      continue;
    }
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string label = line.substr(0, colon);
    label.erase(label.find_last_not_of(" \t") + 1);
    label.erase(0, label.find_first_not_of(" \t"));
    text_line(label, number_of(line.substr(colon + 1)), b, total_in, total_out);
    any = true;
  }
  if (b.completed > 0 && total_in > 0) b.input_tokens = total_in / b.completed;
  if (b.completed > 0 && total_out > 0) b.output_tokens = total_out / b.completed;
  return any || genai;
}

}  // namespace

BenchParse parse_bench_output(const std::string& text, Lang lang) {
  BenchParse r;
  Errors E(lang);
  if (text.size() > (1u << 20)) {
    json n = static_cast<double>(text.size());
    E.add("benchmark", &n, "a benchmark output of at most 1 MiB", "不超过 1 MiB 的基准测试输出");
    r.errors = E.list();
    return r;
  }
  BenchOutput& b = r.out;
  // JSON (a whole document, or the last line of sglang's .jsonl). Python's json writes Infinity /
  // NaN for an unlimited request rate: read as null.
  std::string clean = text;
  for (const char* bad : {": -Infinity", ": Infinity", ": NaN"}) {
    for (std::size_t at = clean.find(bad); at != std::string::npos; at = clean.find(bad, at + 2)) clean.replace(at, std::string(bad).size(), ": null");
  }
  json j = parse_json(clean, false);
  if (j.is_discarded()) {
    std::string last;
    for (const std::string& line : lines_of(clean))
      if (line.find_first_not_of(" \t\r") != std::string::npos && line[line.find_first_not_of(" \t\r")] == '{') last = line;
    j = last.empty() ? json() : parse_json(last, false);
  }
  const bool parsed = (!j.is_discarded() && from_json(j, b)) || from_text(text, b);
  const bool latency = b.ttft_mean_ms > 0 || b.ttft_median_ms > 0 || b.tpot_mean_ms > 0 || b.itl_mean_ms > 0 ||
                       b.output_tokens_per_s > 0 || b.total_tokens_per_s > 0;
  if (!parsed || b.input_tokens <= 0 || b.output_tokens <= 0 || !latency) {
    json snippet = text.substr(0, 60);
    E.add("benchmark", &snippet,
          "the text or JSON output of sglang.bench_serving, vllm bench serve or genai-perf with request lengths and TTFT, TPOT or throughput",
          "sglang.bench_serving、vllm bench serve 或 genai-perf 的文本或 JSON 输出（含请求长度与 TTFT、TPOT 或吞吐）");
    r.errors = E.list();
    return r;
  }
  if (b.total_tokens_per_s <= 0 && b.output_tokens_per_s > 0)
    b.total_tokens_per_s = b.output_tokens_per_s * (b.input_tokens + b.output_tokens) / b.output_tokens;  // same requests, both phases
  // Little's law: clients in flight = completed requests/s x mean request latency.
  if (b.tool == "genai-perf" && b.concurrency <= 0 && b.request_rate <= 0 && b.request_throughput > 0 && b.e2e_mean_ms > 0) {
    b.concurrency = std::max(1.0, std::round(b.request_throughput * b.e2e_mean_ms * 1e-3));
    b.concurrency_inferred = true;
  } else if (b.tool == "genai-perf" && b.concurrency <= 0 && b.request_rate <= 0) {
    b.concurrency = 1;  // genai-perf's default --concurrency
  }
  r.ok = true;
  return r;
}

std::string bench_summary(const BenchOutput& b, Lang lang) {
  const bool zh = lang == Lang::Zh;
  auto n = [](double x) { return format_fixed(x, x < 100 ? 1 : 0, true); };
  auto count = [](double x) { return format_fixed(x, 0, true); };
  std::string load = b.request_rate > 0 ? (zh ? "泊松到达 " + n(b.request_rate) + " 请求/秒" : "Poisson arrivals at " + n(b.request_rate) + " requests/s")
                     : b.concurrency > 0 ? (zh ? "闭环 " + count(b.concurrency) + " 个并发客户端" : "closed loop of " + count(b.concurrency) + " clients")
                                         : (zh ? "全部请求同时发出" : "every request sent at once");
  if (b.concurrency_inferred)
    load += zh ? "（由 Little 定律推得：" + n(b.request_throughput) + " 请求/秒 x " + count(b.e2e_mean_ms) + " ms；genai-perf 的表格不打印 --concurrency）"
               : " (by Little's law: " + n(b.request_throughput) + " requests/s x " + count(b.e2e_mean_ms) + " ms; genai-perf's table does not print --concurrency)";
  const std::string requests = b.completed > 0 ? (zh ? count(b.completed) + " 个请求，" : count(b.completed) + " requests, ") : "";
  std::string s = zh ? "已读取 " + b.tool + " 的" + (b.format == "json" ? "JSON" : "文本") + "输出：" + requests + "输入 " +
                           n(b.input_tokens) + " / 输出 " + n(b.output_tokens) + " tokens，" + load
                     : "Read " + b.tool + " " + b.format + " output: " + requests + n(b.input_tokens) + " input / " +
                           n(b.output_tokens) + " output tokens, " + load;
  const double tpot = b.tpot_mean_ms > 0 ? b.tpot_mean_ms : b.itl_mean_ms;
  const double ttft = b.ttft_mean_ms > 0 ? b.ttft_mean_ms : b.ttft_median_ms;
  if (ttft > 0) s += (zh ? "；TTFT " : "; TTFT ") + n(ttft) + " ms";
  if (tpot > 0) s += (zh ? "，TPOT " : ", TPOT ") + n(tpot) + " ms";
  if (b.total_tokens_per_s > 0) s += (zh ? "，" : ", ") + n(b.total_tokens_per_s) + (zh ? " tokens/s（输入 + 输出）" : " tokens/s (input + output)");
  s += zh ? "。视为本场景部署的一次运行（若在别处运行，请修改参考实测字段）。" : ". Taken as a run of this scenario's deployment (edit the reference fields if it ran elsewhere).";
  return s;
}

namespace {
// Requests/s as requests/min to 0.01 (no float noise in the editor: 8.14 x 60 = 488.40000000000003).
double per_minute(double per_s) { return std::round(per_s * 6000.0) / 100.0; }
}  // namespace

BenchReference bench_reference(const BenchOutput& b, const json& normalized, Lang lang) {
  BenchReference r;
  Errors E(lang);
  const json& hw = normalized.at("hardware");
  if (hw.at("gpu") == "custom") {
    E.add_rule("hardware.gpu", &hw.at("gpu"), "is a custom GPU: a reference measurement names a GPU preset", "为自定义 GPU：参考实测须使用 GPU 预设",
               "a GPU preset (choose the GPU the benchmark ran on, then paste again)", "GPU 预设（先选择基准测试所用 GPU，再粘贴）");
    r.errors = E.list();
    return r;
  }
  // The run is taken as one of the scenario's own deployment: its GPU, precision and pools.
  json ref = normalized.at("reference");
  ref["preset"] = "custom";
  ref["name"] = b.tool + " benchmark (pasted)";
  ref["source"] = "pasted " + b.tool + " " + b.format + " output";
  ref["gpu"] = hw.at("gpu");
  ref["gpus_per_node"] = hw.at("gpus_per_node");
  ref["precision"] = normalized.at("precision");
  ref["deployment"] = normalized.at("deployment");
  // The load it ran: a capped client pool is a closed loop; a finite rate Poisson arrivals (the
  // tools draw exponential gaps by default); neither, every request sent at once (a burst).
  const double in = std::max(1.0, std::round(b.input_tokens)), out = std::max(1.0, std::round(b.output_tokens));
  json& w = ref["workload"];
  w = json{{"kind", "poisson"}, {"concurrency", nullptr}, {"batch", nullptr}, {"requests", nullptr}, {"input_tokens", in}, {"input_tokens_max", in},
           {"output_tokens", out}, {"output_tokens_max", out}, {"context_length", in + out}, {"arrival_qpm", nullptr}};
  if (b.request_rate > 0) {
    w["arrival_qpm"] = per_minute(b.request_rate);
  } else if (b.concurrency > 0) {
    w["kind"] = "closed_loop";
    w["concurrency"] = b.concurrency;
  } else {
    w["kind"] = "burst";
    w["requests"] = std::max(1.0, b.completed);
  }
  const double tpot = b.tpot_mean_ms > 0 ? b.tpot_mean_ms : b.itl_mean_ms;
  const double ttft = b.ttft_mean_ms > 0 ? b.ttft_mean_ms : b.ttft_median_ms;
  const double qpm = per_minute(b.request_throughput);
  ref["measured"] = json{{"throughput_tokens_per_s", b.total_tokens_per_s}, {"throughput_kind", "total"},
                         {"tpot_ms", tpot > 0 ? json(tpot) : json(nullptr)}, {"ttft_ms", ttft > 0 ? json(ttft) : json(nullptr)},
                         {"qpm", qpm > 0 ? json(qpm) : json(nullptr)}, {"observed", true}};
  ref["calibrate"] = false;
  r.document = normalized;
  r.document["reference"] = ref;
  r.ok = true;
  return r;
}

}  // namespace slo

SLO_SIZE_END
