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
  std::string command, file, format = "text", lang = "en", method = "corrected", preset, write_path;
  bool loo = false;
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
                a == "fit" || a == "batch")) {
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
