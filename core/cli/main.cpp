// roverlab: the native command-line tool.
//
//   roverlab run SCENARIO.json [--duration S] [--dt S] [--set PATH=VALUE]...
//                              [--csv FILE] [--csv-rate HZ]
//   roverlab validate SCENARIO.json [--set PATH=VALUE]...
//   roverlab presets
//
// Exit status: 0 success; 1 invalid scenario (the {path, message} list is
// printed as JSON); 2 usage error or unreadable file; 3 the simulation blew up;
// 4 the robot left the terrain (fell below its lowest point).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/telemetry.h"

namespace {

using namespace roverlab;
using json = nlohmann::json;

const char* kUsage =
    "usage:\n"
    "  roverlab run SCENARIO.json [--duration S] [--dt S] [--set PATH=VALUE]... [--csv FILE] [--csv-rate HZ]\n"
    "  roverlab validate SCENARIO.json [--set PATH=VALUE]...\n"
    "  roverlab presets\n";

int usage(const std::string& message) {
  std::cerr << "roverlab: " << message << "\n" << kUsage;
  return 2;
}

int printIssues(const std::vector<Issue>& issues) {
  json list = json::array();
  for (const Issue& i : issues) list.push_back({{"path", i.path}, {"message", i.message}});
  std::cout << json{{"ok", false}, {"issues", list}}.dump(2) << "\n";
  return 1;
}

struct Options {
  std::string command, file, csv;
  std::vector<std::string> sets;
  double csvRate = 100.0;  // samples per simulated second
};

int presets() {
  json out = json::array();
  for (const std::string& name : presetNames()) {
    json params = json::array();
    for (const ParamSpec& p : presetParams(name))
      params.push_back({{"name", p.name}, {"default", p.value}, {"min", p.min}, {"max", p.max}, {"unit", p.unit},
                        {"description", p.description}});
    out.push_back({{"preset", name}, {"description", presetDescription(name)}, {"params", params}});
  }
  std::cout << out.dump(2) << "\n";
  return 0;
}

int run(const Options& o, const Scenario& scenario) {
  Expected<Simulation> made = makeSimulation(scenario);
  if (!made) return printIssues(made.issues());
  Simulation& sim = made.value();
  std::ofstream csv;
  std::vector<double> row;
  const long every = std::max(1L, std::lround(1.0 / (o.csvRate * sim.model.dt)));
  if (!o.csv.empty()) {
    csv.open(o.csv);
    if (!csv) return usage("cannot write " + o.csv);
    const std::vector<std::string> cols = telemetryColumns(sim);
    for (size_t i = 0; i < cols.size(); ++i) csv << (i ? "," : "") << cols[i];
    csv << "\n";
    csv.precision(9);
  }
  RunStats stats;
  const long total = std::lround(sim.duration / sim.model.dt);
  const auto start = std::chrono::steady_clock::now();
  double simulatedWall = 0;
  for (long i = 0; i < total; ++i) {
    if (!advance(sim)) break;
    if (sim.steps % every == 0) {
      updateKinematics(sim);
      stats.sample(sim);
      if (csv.is_open()) {
        telemetryRow(sim, row);
        for (size_t k = 0; k < row.size(); ++k) csv << (k ? "," : "") << row[k];
        csv << "\n";
      }
    }
  }
  simulatedWall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  updateKinematics(sim);
  stats.sample(sim);
  std::cout << summaryJson(sim, stats, simulatedWall) << "\n";
  for (const Issue& w : sim.warnings)
    std::cerr << "roverlab: warning: " << w.path << ": " << w.message << "\n";
  switch (sim.outcome) {
    case RunOutcome::Ok:
      return 0;
    case RunOutcome::BlewUp:
      std::cerr << "roverlab: " << sim.data.error << "\n";
      return 3;
    case RunOutcome::LeftTerrain:
      std::cerr << "roverlab: " << sim.data.error << "\n";
      return 4;
  }
  return 3;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage("no command");
  o.command = args[0];
  if (o.command == "presets") return presets();
  if (o.command != "run" && o.command != "validate") return usage("unknown command '" + o.command + "'");
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* name) -> const std::string* {
      if (i + 1 >= args.size()) return nullptr;
      (void)name;
      return &args[++i];
    };
    if (a == "--set" || a == "--duration" || a == "--dt" || a == "--csv" || a == "--csv-rate") {
      const std::string* v = value(a.c_str());
      if (!v) return usage(a + " needs a value");
      if (a == "--set") o.sets.push_back(*v);
      else if (a == "--duration") o.sets.push_back("simulation.duration=" + *v);
      else if (a == "--dt") o.sets.push_back("simulation.dt=" + *v);
      else if (a == "--csv") o.csv = *v;
      else {
        char* end = nullptr;
        o.csvRate = std::strtod(v->c_str(), &end);
        if (end == v->c_str() || *end || !(o.csvRate > 0) || !std::isfinite(o.csvRate))
          return usage("--csv-rate must be a positive number of samples per simulated second");
      }
    } else if (a.rfind("--", 0) == 0) {
      return usage("unknown option " + a);
    } else if (o.file.empty()) {
      o.file = a;
    } else {
      return usage("more than one scenario file");
    }
  }
  if (o.file.empty()) return usage("no scenario file");
  std::ifstream in(o.file);
  if (!in) return usage("cannot read " + o.file);
  std::stringstream text;
  text << in.rdbuf();
  Expected<std::string> doc = applyOverrides(text.str(), o.sets);
  if (!doc) return printIssues(doc.issues());
  Expected<Scenario> scenario = parseScenario(doc.value());
  if (!scenario) return printIssues(scenario.issues());
  if (o.command == "validate") {
    // The complete check: the file, then the robot placed on its terrain.
    Expected<Simulation> sim = makeSimulation(scenario.value());
    if (!sim) return printIssues(sim.issues());
    json warnings = json::array();
    for (const Issue& w : sim.value().warnings)
      warnings.push_back({{"path", w.path}, {"message", w.message}});
    std::cout << json{{"ok", true}, {"warnings", warnings}}.dump() << "\n";
    return 0;
  }
  return run(o, scenario.value());
}
