// A controller's command applied (sim/simulation.h, applyCommand): limits
// clamp, unset values keep the last command, non-finite ones are dropped and
// counted; a program's loop stops the run loop when its update is due; and
// the scenario's control.program is read and refused where it must be.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "sim/program_io.h"
#include "sim/run.h"
#include "support/scenario_files.h"

using namespace roverlab;
using testing::simulationOf;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

int actuator(const Simulation& sim, const std::string& name) {
  const int a = actuatorIndex(sim.model.robot, name);
  REQUIRE(a >= 0);
  return a;
}

}  // namespace

TEST_CASE("a command is clamped to the robot's limits; unset values keep the last command",
          "[control][command]") {
  Simulation sim = simulationOf("step-articulated6.json");
  const double limit = sim.model.robot.maxWheelSpeed;
  Command c;
  c.clear(sim.model.robot.actuators.size());
  c.wheel_speed_rad_s = 10 * limit;
  const int fold = actuator(sim, "fold_front");
  c.actuators[fold] = 100.0;  // rad: far past the fold's range
  CHECK(applyCommand(sim, c) == 2);
  for (int a : sim.model.robot.leftDrive) CHECK(sim.state.targets[a] == limit);
  double upper = 0;
  for (const JointLimit& l : sim.model.robot.limits)
    if (l.body == sim.model.robot.actuators[fold].body) upper = l.upper;
  CHECK(sim.state.targets[fold] == upper);

  c.clear(sim.model.robot.actuators.size());  // nothing set: nothing changes
  c.left_speed_rad_s = kInf;                  // dropped, and counted
  c.actuators[fold] = std::nan("");           // unset
  CHECK(applyCommand(sim, c) == 1);
  for (int a : sim.model.robot.leftDrive) CHECK(sim.state.targets[a] == limit);
  CHECK(sim.state.targets[fold] == upper);

  c.clear(sim.model.robot.actuators.size());
  c.right_speed_rad_s = -1.5;
  CHECK(applyCommand(sim, c) == 0);
  for (int a : sim.model.robot.rightDrive) CHECK(sim.state.targets[a] == -1.5);
  for (int a : sim.model.robot.leftDrive) CHECK(sim.state.targets[a] == limit);
}

TEST_CASE("a program's loop: the run loop stops when its update is due", "[control][command]") {
  Simulation sim = simulationOf("flat-rocker8.json");
  CHECK_FALSE(attachProgram(sim, sim.model.dt / 2));  // faster than the step
  REQUIRE(attachProgram(sim, 0.01));
  CHECK(programDue(sim));
  CHECK(runSteps(sim, 100, 1000, [](Simulation&) { return true; }) == 0);
  const std::vector<std::string> columns = commandColumns(sim);
  REQUIRE(columns.size() == 3 + sim.model.robot.actuators.size());
  std::vector<double> row(columns.size(), std::nan(""));
  row[0] = 2.0;  // wheel_speed
  Command c;
  commandFromRow(sim, row.data(), row.size(), c);
  observeNow(sim);
  std::vector<double> obs;
  observationRow(sim, obs);
  CHECK(obs.size() == observationColumns(sim).size());
  CHECK(commandProgram(sim, c) == 0);
  CHECK_FALSE(programDue(sim));
  // 0.01 s at 0.4 ms: 25 steps to the next update.
  CHECK(runSteps(sim, 100, 1000, [](Simulation&) { return true; }) == 25);
  CHECK(programDue(sim));
  for (int a : sim.model.robot.leftDrive) CHECK(sim.state.targets[a] == 2.0);
}

TEST_CASE("control.program: read, bounded, and one controller at a time", "[control][command]") {
  const auto issues = [](const std::string& control) {
    Expected<Scenario> s = parseScenario(
        R"({"format": "roverlab-scenario", "version": 1, "robot": {"preset": "wheel-rig"},
            "terrain": {"boxes": [{"centre": [0, 0, -0.5], "size": [4, 4, 1]}]},
            "control": )" +
        control + "}");
    return s ? std::vector<Issue>{} : s.issues();
  };
  CHECK(
      issues(R"({"program": {"language": "javascript", "source": "export default {}"}})").empty());
  CHECK(issues(R"({"program": {"language": "lua", "source": ""}})")[0].path ==
        "control.program.language");
  CHECK(issues(R"({"program": {"language": "javascript"}})")[0].path == "control.program.source");
  CHECK(issues(R"({"program": {"language": "python", "params": {"gain": 2}}})").empty());
  CHECK(issues(R"({"program": {"language": "javascript", "source": "x", "run": true}})")[0].path ==
        "control.program.run");
  CHECK(
      issues(R"({"controller": "step-climb", "program": {"language": "javascript", "source": ""}})")
          .back()
          .path == "control.program");
  // Named numbers for init (model.params), what a study sweeps.
  CHECK(issues(R"({"program": {"language": "javascript", "source": "", "params": {"gain": 2}}})")
            .empty());
  CHECK(issues(R"({"program": {"language": "javascript", "source": "", "params": [2]}})")[0].path ==
        "control.program.params");
  CHECK(issues(R"({"program": {"language": "javascript", "source": "", "params": {"k": "x"}}})")[0]
            .path == "control.program.params.k");
  CHECK(issues(R"({"program": {"language": "javascript", "source": "", "params": {"": 1}}})")[0]
            .path == "control.program.params");
  const std::string huge(kMaxProgramBytes + 1, 'x');
  const std::vector<Issue> big =
      issues(R"({"program": {"language": "javascript", "source": ")" + huge + "\"}}");
  REQUIRE(big.size() == 1);
  CHECK(big[0].path == "control.program.source");
  CHECK(big[0].message.find("at most 262144") != std::string::npos);
}
