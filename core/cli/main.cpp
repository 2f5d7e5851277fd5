// roverlab: the native command-line tool.
//
//   roverlab run SCENARIO.json [--duration S] [--dt S] [--set PATH=VALUE]...
//                              [--csv FILE] [--csv-rate HZ]
//   roverlab validate SCENARIO.json [--set PATH=VALUE]...
//   roverlab presets
//   roverlab robot PRESET [--set robot.params.NAME=VALUE]...
//   roverlab robot ROBOT.urdf | ROBOT.json
//   roverlab study STUDY.json [--jobs N] [--out RESULTS.csv] [--json]  (cli/study_command.h)
//
// Exit status: 0 success; 1 invalid scenario (the {path, message} list is
// printed as JSON); 2 usage error, unreadable file, failed write or any other
// error; 3 the simulation blew up; 4 the robot left the terrain (fell below
// its lowest point); 130 interrupted (Ctrl-C: the summary and the CSV hold
// what was simulated up to then).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>
#include <numeric>

#include "cli/study_command.h"
#include "scenario/folder_files.h"
#include "scenario/json_input.h"
#include "scenario/robot_reader.h"
#include "sim/describe.h"
#include "sim/run.h"
#include "sim/telemetry.h"

namespace {

using namespace roverlab;
using json = nlohmann::json;

const char* kUsage =
    "usage:\n"
    "  roverlab run SCENARIO.json [--duration S] [--dt S] [--set PATH=VALUE]... [--csv FILE] "
    "[--csv-rate HZ]\n"
    "  roverlab validate SCENARIO.json [--set PATH=VALUE]...\n"
    "  roverlab presets\n"
    "  roverlab robot PRESET [--set robot.params.NAME=VALUE]...\n"
    "  roverlab robot ROBOT.urdf | ROBOT.json\n"
    "  roverlab study STUDY.json [--jobs N] [--out RESULTS.csv] [--json]\n";

/// An error that is not the user's command line: a message, exit status 2.
int failure(const std::string& message) {
  std::cerr << "roverlab: " << message << "\n";
  return 2;
}

int usage(const std::string& message) {
  std::cerr << "roverlab: " << message << "\n" << kUsage;
  return 2;
}

int printIssues(const std::vector<Issue>& issues) {
  std::cout << dumpJson(json{{"ok", false}, {"issues", describeIssues(issues)}}, 2) << "\n";
  return 1;
}

/// --csv-rate bounds (samples per simulated second).
constexpr double kMinCsvRate = 1e-3, kMaxCsvRate = 1e6;

volatile std::sig_atomic_t interrupted = 0;
extern "C" void onInterrupt(int) { interrupted = 1; }

struct Options {
  std::string command, file, csv;
  std::vector<std::string> sets;
  double csvRate = 100.0;  // samples per simulated second
};

int presets() {
  std::cout << dumpJson(describePresets(), 2) << "\n";
  return 0;
}

// `roverlab robot`: a preset's description (with its parameters set), or a
// robot file's (a URDF read, a description normalised), compiled to check it,
// as the JSON of docs/robot-format.md; warnings on stderr.
int robot(const std::vector<std::string>& args) {
  std::string name;
  std::vector<std::string> sets;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--set") {
      if (i + 1 >= args.size()) return usage("--set needs a value");
      sets.push_back(args[++i]);
    } else if (args[i].rfind("--", 0) == 0) {
      return usage("unknown option " + args[i]);
    } else if (name.empty()) {
      name = args[i];
    } else {
      return usage("more than one robot");
    }
  }
  if (name.empty()) return usage("no preset or robot file");
  const auto isPreset = [&] {
    for (const std::string& p : presetNames())
      if (p == name) return true;
    return false;
  };
  // The robot as a scenario's robot section: {"preset": ...} or {"file": ...}
  // beside the current folder, read as a scenario reads it.
  json robotSection;
  if (isPreset()) {
    robotSection = {{"preset", name}};
  } else {
    if (!sets.empty()) return usage("--set sets a preset's parameters (robot.params.NAME=VALUE)");
    robotSection = {{"file", name.substr(folderOf(name).size())}};
  }
  for (const std::string& set : sets)
    if (set.rfind("robot.params.", 0) != 0)
      return usage("--set sets a preset's parameters here: robot.params.NAME=VALUE, got '" + set +
                   "'");
  const json doc = {
      {"format", kScenarioFormat},
      {"version", kScenarioVersion},
      {"terrain", {{"boxes", json::array({{{"centre", {0, 0, -0.5}}, {"size", {100, 100, 1}}}})}}},
      {"robot", robotSection}};
  Expected<std::string> text = applyOverrides(doc.dump(), sets);
  if (!text) return printIssues(text.issues());
  // A robot file is read as a scenario beside it reads it: its meshes from its folder.
  const ScenarioFiles files = filesInFolder(isPreset() ? std::string() : folderOf(name));
  Expected<Scenario> scenario = parseScenario(text.value(), files);
  if (!scenario) return printIssues(scenario.issues());
  std::cout << dumpJson(writeRobotDescription(scenario.value().robot.description), 2) << "\n";
  for (const Issue& w : scenario.value().robot.warnings)
    std::cerr << "roverlab: warning: " << w.path << ": " << w.message << "\n";
  return 0;
}

int run(const Options& o, const Scenario& scenario) {
  Expected<Simulation> made = makeUnattendedSimulation(scenario);
  if (!made) return printIssues(made.issues());
  Simulation& sim = made.value();
  std::ofstream csv;
  std::vector<double> row;
  // Statistics are sampled every kSampleInterval as in the WebAssembly
  // module; CSV rows at the CSV rate.
  const long long csvEvery =
      std::max(1LL, std::llround(std::min(1e15, 1.0 / (o.csvRate * sim.model.dt))));
  const long long statsEvery = std::max(1LL, stepsIn(kSampleInterval, sim.model.dt));
  if (!o.csv.empty()) {
    csv.open(o.csv);
    if (!csv) return failure("cannot write " + o.csv + ": " + std::strerror(errno));
    const std::vector<std::string> cols = telemetryColumns(sim);
    for (size_t i = 0; i < cols.size(); ++i) csv << (i ? "," : "") << cols[i];
    csv << "\n";
    csv.precision(9);
    startRow(sim, row);  // t = 0: the start state and its forces
    for (size_t k = 0; k < row.size(); ++k) csv << (k ? "," : "") << row[k];
    csv << "\n";
  }
  RunStats stats;
  const long long total = stepsIn(sim.duration, sim.model.dt);
  const bool progress = isatty(STDERR_FILENO);
  std::signal(SIGINT, onInterrupt);
  const auto start = std::chrono::steady_clock::now();
  auto lastReport = start;
  bool writeFailed = false;
  runSteps(sim, total, csv.is_open() ? std::gcd(csvEvery, statsEvery) : statsEvery,
           [&](Simulation& s) {
             if (s.steps % statsEvery == 0) stats.sample(s);
             if (csv.is_open() && s.steps % csvEvery == 0) {
               telemetryRow(s, row);
               for (size_t k = 0; k < row.size(); ++k) csv << (k ? "," : "") << row[k];
               csv << "\n";
               if (!csv) return !(writeFailed = true);
             }
             if (progress) {
               const auto now = std::chrono::steady_clock::now();
               if (now - lastReport > std::chrono::seconds(1)) {
                 lastReport = now;
                 std::fprintf(stderr, "\rroverlab: t = %.3f of %g s (%.1f %%)", s.state.bodies.time,
                              s.duration,
                              100.0 * static_cast<double>(s.steps) / static_cast<double>(total));
               }
             }
             return !interrupted;
           });
  if (writeFailed) return failure("cannot write " + o.csv + ": " + std::strerror(errno));
  if (progress && lastReport != start) std::fprintf(stderr, "\n");
  const double simulatedWall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  updateKinematics(sim);
  stats.sample(sim);
  if (csv.is_open()) {
    csv.close();
    if (csv.fail()) return failure("cannot write " + o.csv + ": " + std::strerror(errno));
  }
  std::cout << dumpJson(describeRun(sim, stats, simulatedWall)) << "\n";
  for (const Issue& w : sim.warnings)
    std::cerr << "roverlab: warning: " << w.path << ": " << w.message << "\n";
  if (interrupted) {
    std::cerr << "roverlab: interrupted at t = " << sim.state.bodies.time << " s\n";
    return 130;
  }
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

int command(int argc, char** argv) {
  Options o;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage("no command");
  o.command = args[0];
  if (o.command == "presets") return presets();
  if (o.command == "robot") return robot(args);
  if (o.command == "study") return studyCommand(args);
  if (o.command != "run" && o.command != "validate")
    return usage("unknown command '" + o.command + "'");
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
      if (a == "--set")
        o.sets.push_back(*v);
      else if (a == "--duration")
        o.sets.push_back("simulation.duration=" + *v);
      else if (a == "--dt")
        o.sets.push_back("simulation.dt=" + *v);
      else if (a == "--csv")
        o.csv = *v;
      else {
        char* end = nullptr;
        o.csvRate = std::strtod(v->c_str(), &end);
        if (end == v->c_str() || *end || !(o.csvRate >= kMinCsvRate && o.csvRate <= kMaxCsvRate))
          return usage(
              "--csv-rate must be a number of samples per simulated second in [0.001, 1e6]");
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
  if (!std::ifstream(o.file)) return failure("cannot read " + o.file + ": " + std::strerror(errno));
  Expected<std::string> content = readDocument(o.file);  // refuses a file over the size limit
  if (!content) return printIssues(content.issues());
  Expected<std::string> doc = applyOverrides(content.value(), o.sets);
  if (!doc) return printIssues(doc.issues());
  // Files are named relative to the scenario's folder, and stay inside it.
  const ScenarioFiles files = filesInFolder(folderOf(o.file));
  Expected<Scenario> scenario = parseScenario(doc.value(), files);
  if (!scenario) return printIssues(scenario.issues());
  if (o.command == "validate") {
    // The complete check: the file, then the robot placed on its terrain.
    Expected<Simulation> sim = makeSimulation(scenario.value());
    if (!sim) return printIssues(sim.issues());
    std::cout << dumpJson(json{{"ok", true}, {"warnings", describeIssues(sim.value().warnings)}})
              << "\n";
    return 0;
  }
  return run(o, scenario.value());
}

}  // namespace

int main(int argc, char** argv) {
  // Whatever goes wrong, a message and exit status 2, never an abort.
  int status = 2;
  try {
    status = command(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "roverlab: out of memory\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "roverlab: " << e.what() << "\n";
    return 2;
  } catch (...) {
    std::cerr << "roverlab: unexpected error\n";
    return 2;
  }
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "roverlab: cannot write the standard output\n";
    return 2;
  }
  return status;
}
