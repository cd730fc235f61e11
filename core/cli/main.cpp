// slo-estimator: the command-line front end of the estimator core (terminals and CI pipelines).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "slo/api.hpp"
#include "commands.hpp"

using nlohmann::json;

namespace {

const char* kUsage = R"(usage:
  slo-estimator [SCENARIO | -] [--format text|md|json] [--lang en|zh] [--method corrected|seed]
                [--preset ID]
      Evaluates a scenario (a JSON file, "-" for stdin, the default scenario when none) and prints
      the SLO report. Exit code 0 on success, 2 on invalid input (errors on stderr).
  slo-estimator validate [SCENARIO | -] [--lang en|zh]
  slo-estimator default-scenario          the full default scenario (the seed's case)
  slo-estimator minimal [SCENARIO | -]    the smallest document equal to SCENARIO
  slo-estimator catalog                   model, GPU and scenario presets
  slo-estimator benchmarks [--format text|md|json] [--loso [--write FILE]]
      Predicts every published measurement (core/data/benchmarks/) and prints prediction,
      measurement, error, and the errors by regime. --loso: leave-one-source-out (each source's
      figures predicted by factors fitted without that source); --write stores the regimes' bands
      (core/data/validation.json) that the report's error bars come from.
  slo-estimator fit [--write DATA_DIR]    fits the factors per GPU family and per engine; --write
                                          updates DATA_DIR/gpus.json and DATA_DIR/engines.json
  slo-estimator batch                     JSON lines {"scenario":..., "options":...} on stdin ->
                                          one evaluate() result per line on stdout
  slo-estimator search [SCENARIO | -] [--mode frontier|fewest] [--gpus N] [--format text|json]
      The Pareto frontier of tokens/s per GPU vs tokens/s per user for a GPU budget (the scenario's
      cluster unless --gpus), or the fewest GPUs meeting every target; the configurations meeting
      every target, each as the scenario that applies it (--format json).
  slo-estimator launch [SCENARIO | -] [--engine sglang|vllm|trtllm]
      Launch commands for the scenario's deployment, one per node role (TensorRT-LLM: with its
      extra-options YAML); layouts the engine cannot express are named instead.
  slo-estimator reference [SCENARIO | -] --bench OUTPUT [--calibrate] [--lang en|zh]
      Makes a benchmark run the scenario's reference measurement: OUTPUT is the text or JSON
      output of sglang.bench_serving, vllm bench serve or genai-perf. Prints the scenario document
      (what was read on stderr); --calibrate turns calibration to it on. Evaluate the document to
      see measured vs predicted per figure.
  slo-estimator --version
)";

bool read_all(const std::string& path, std::string& out) {
  if (path == "-") {
    out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  out = s.str();
  return true;
}

int print_errors(const json& result) {
  for (const auto& e : result.at("errors")) std::cerr << "error: " << e.value("message", "") << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string command, file, format = "text", lang = "en", method = "corrected", preset, write_path, mode = "frontier", gpus, engine = "sglang", bench;
  bool loo = false, calibrate = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&](std::string& dst) {
      if (i + 1 >= args.size()) {
        std::cerr << "error: " << a << " needs a value\n" << kUsage;
        std::exit(2);
      }
      dst = args[++i];
    };
    if (a == "--format") next(format);
    else if (a == "--lang") next(lang);
    else if (a == "--method") next(method);
    else if (a == "--preset") next(preset);
    else if (a == "--write") next(write_path);
    else if (a == "--mode") next(mode);
    else if (a == "--engine") next(engine);
    else if (a == "--gpus") next(gpus);
    else if (a == "--bench") next(bench);
    else if (a == "--calibrate") calibrate = true;
    else if (a == "--loo" || a == "--loso") loo = true;
    else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--version") {
      std::cout << "slo-estimator " << slo::api::version() << "\n";
      return 0;
    } else if (a.size() > 1 && a[0] == '-' && a != "-") {
      std::cerr << "error: unknown option " << a << "\n" << kUsage;
      return 2;
    } else if (command.empty() && file.empty() &&
               (a == "validate" || a == "default-scenario" || a == "minimal" || a == "catalog" || a == "benchmarks" ||
                a == "fit" || a == "batch" || a == "search" || a == "launch" || a == "reference")) {
      command = a;
    } else if (file.empty()) {
      file = a;
    } else {
      std::cerr << "error: unexpected argument " << a << "\n" << kUsage;
      return 2;
    }
  }
  if (format == "markdown") format = "md";
  if (format != "text" && format != "md" && format != "json") {
    std::cerr << "error: --format: invalid value \"" << format << "\"; allowed: text, md, json\n";
    return 2;
  }
  if (lang != "en" && lang != "zh") {
    std::cerr << "error: --lang: invalid value \"" << lang << "\"; allowed: en, zh\n";
    return 2;
  }

  if (command == "default-scenario") {
    std::cout << json::parse(slo::api::default_scenario()).dump(2) << "\n";
    return 0;
  }
  if (command == "catalog") {
    std::cout << json::parse(slo::api::catalog(lang)).dump(2) << "\n";
    return 0;
  }
  if (command == "benchmarks") return slo::cli::benchmarks(format, loo, write_path);
  if (command == "fit") return slo::cli::fit(write_path);
  if (command == "batch") {
    std::string line;
    while (std::getline(std::cin, line)) {
      if (line.empty()) continue;
      json req = json::parse(line, nullptr, false);
      if (req.is_discarded() || !req.is_object()) {
        std::cout << R"J({"ok":false,"errors":[{"path":"(batch)","value":"","expected":"","message":"batch line is not a JSON object"}]})J" << "\n";
        continue;
      }
      std::string scenario = req.contains("scenario") ? req["scenario"].dump() : "{}";
      std::string options = req.contains("options") ? req["options"].dump() : "{}";
      std::cout << slo::api::evaluate(scenario, options) << "\n";
    }
    return 0;
  }

  std::string text;
  if (!preset.empty()) {
    json cat = json::parse(slo::api::catalog(lang));
    bool found = false;
    std::string ids;
    for (const auto& p : cat["scenario_presets"]["presets"]) {
      ids += (ids.empty() ? "" : ", ") + p["id"].get<std::string>();
      if (p["id"] == preset) {
        text = p["scenario"].dump();
        found = true;
      }
    }
    if (!found) {
      std::cerr << "error: --preset: invalid value \"" << preset << "\"; allowed: " << ids << "\n";
      return 2;
    }
  } else if (file.empty()) {
    text = slo::api::default_scenario();
  } else if (!read_all(file, text)) {
    std::cerr << "error: cannot read " << file << "\n";
    return 1;
  }

  if (command == "launch") {
    const json r = json::parse(slo::api::launch(text, json{{"engine", engine}, {"lang", lang}}.dump()));
    if (!r["ok"].get<bool>()) return print_errors(r);
    for (const auto& c : r["commands"]) {
      std::cout << "# " << c["role"].get<std::string>() << ": " << c["replicas"] << " instance(s), " << c["nodes"] << " node(s) each\n";
      if (!c["command"].get<std::string>().empty()) std::cout << c["command"].get<std::string>() << "\n";
      if (!c["yaml"].get<std::string>().empty()) std::cout << "# " << c["role"].get<std::string>() << ".yaml\n" << c["yaml"].get<std::string>();
    }
    for (const auto& x : r["cannot"]) std::cout << "# not expressible in " << engine << ": " << x.get<std::string>() << "\n";
    return 0;
  }
  if (command == "reference") {
    std::string output;
    if (bench.empty() || !read_all(bench, output)) {
      std::cerr << "error: --bench: " << (bench.empty() ? "needed (a benchmark output file)" : "cannot read " + bench) << "\n";
      return 2;
    }
    json r = json::parse(slo::api::paste_benchmark(text, output, lang));
    if (!r["ok"].get<bool>()) return print_errors(r);
    if (calibrate) r["scenario"]["reference"]["calibrate"] = true;
    std::cerr << r["summary"].get<std::string>() << "\n";
    std::cout << r["scenario"].dump(2) << "\n";
    return 0;
  }
  if (command == "search") {
    json opts{{"mode", mode}, {"lang", lang}};
    if (!gpus.empty()) {
      const json g = json::parse(gpus, nullptr, false);
      opts["gpus"] = g.is_discarded() ? json(gpus) : g;
    }
    return slo::cli::search(text, opts.dump(), format);
  }
  if (command == "validate" || command == "minimal") {
    json r = json::parse(slo::api::validate(text, lang));
    if (!r["ok"].get<bool>()) return print_errors(r);
    std::cout << (command == "minimal" ? r["minimal"].dump(2) : std::string("ok")) << "\n";
    return 0;
  }

  json opts{{"lang", lang}, {"method", method},
            {"formats", json::array({format == "json" ? "json" : format == "md" ? "markdown" : "text"})}};
  json r = json::parse(slo::api::evaluate(text, opts.dump()));
  if (!r["ok"].get<bool>()) return print_errors(r);
  if (format == "json") std::cout << r["report"].dump(2) << "\n";
  else if (format == "md") std::cout << r["markdown"].get<std::string>();
  else std::cout << r["text"].get<std::string>();
  return 0;
}
