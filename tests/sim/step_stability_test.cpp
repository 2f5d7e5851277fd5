// The validator's step-stability checks (sim/step_stability.h): effective
// masses against analytic values, each coefficient refused at its parameter
// with the bound, the step refused or warned about, and every preset range
// runnable at some allowed step.
#include "sim/step_stability.h"

#include <catch2/catch.hpp>

#include "support/scenario_files.h"

using namespace roverlab;

namespace {

Expected<Simulation> made(const std::string& file, const std::vector<std::string>& overrides) {
  const Expected<std::string> text =
      applyOverrides(testing::readText(testing::terrainsDir() / file), overrides);
  REQUIRE(text.ok());
  const Expected<Scenario> scenario = parseScenario(text.value());
  REQUIRE(scenario.ok());
  return makeSimulation(scenario.value());
}

// The issue at `path`, or an empty one.
Issue issueAt(const Expected<Simulation>& sim, const std::string& path) {
  for (const Issue& i : sim.issues())
    if (i.path == path) return i;
  return {};
}

const StepLimit& limitOf(const std::vector<StepLimit>& limits, const std::string& what) {
  for (const StepLimit& l : limits)
    if (l.what == what) return l;
  FAIL("no step limit '" << what << "'");
  return limits.front();
}

}  // namespace

TEST_CASE("effective masses of the wheel rig match the analytic ones", "[stability]") {
  // The rig: a 50 kg carriage free in x and z (no pitch) with one 5 kg wheel
  // of radius 0.19 m and spin inertia J = 0.09 kg·m².
  const Simulation sim = testing::simulationOf("flat-wheel-rig.json");
  const std::vector<StepLimit> limits = stepLimits(sim.model.robot, sim.state.bodies);
  const double m = 55, r = 0.19, j = 0.09;
  // Vertically the whole rig moves: 55 kg.
  CHECK(limitOf(limits, "tire damping of wheel 'wheel'").mass == Approx(m).epsilon(1e-12));
  // Along the ground at the wheel's lowest point the rig translates and the
  // wheel spins: 1 / (1/m + r²/J).
  CHECK(limitOf(limits, "tread damping of wheel 'wheel'").mass ==
        Approx(1 / (1 / m + r * r / j)).epsilon(1e-12));
  // The spin joint: the carriage cannot turn, so the motor meets J alone.
  CHECK(limitOf(limits, "speed controller gain of 'wheel'").mass == Approx(j).epsilon(1e-12));
  const StepLimit& gain = limitOf(limits, "speed controller gain of 'wheel'");
  CHECK(gain.maxDt() == Approx(j / 100.0));  // c·dt/J ≤ 1 with c = 100 N·m·s/rad
}

TEST_CASE("a damping or gain the step cannot resolve is refused at its parameter with the bound",
          "[stability][scenario]") {
  struct Case {
    const char* file;
    const char* assignment;
    const char* path;
  };
  const Case cases[] = {
      {"flat-rocker8.json", "robot.params.tire_damping=1e6", "robot.params.tire_damping"},
      {"flat-rocker8.json", "robot.params.tread_damping=1e6", "robot.params.tread_damping"},
      {"flat-rocker8.json", "robot.params.tread_stiffness=1e8", "robot.params.tread_stiffness"},
      {"flat-rocker8.json", "robot.params.motor_gain=1e4", "robot.params.motor_gain"},
      {"flat-rocker8.json", "robot.params.rocker_damping=1e5", "robot.params.rocker_damping"},
      {"flat-articulated6.json", "robot.params.fold_damping=1e5", "robot.params.fold_damping"},
      {"flat-articulated6.json", "robot.params.fold_gain=1e6", "robot.params.fold_gain"},
      {"flat-articulated6.json", "robot.params.extension_damping=1e6",
       "robot.params.extension_damping"},
      {"flat-planar-vehicle.json", "robot.params.suspension_damping=1e6",
       "robot.params.suspension_damping"},
      {"flat-wheel-walker.json", "robot.params.leg_damping=1e5", "robot.params.leg_damping"},
  };
  for (const Case& c : cases) {
    const Expected<Simulation> sim = made(c.file, {c.assignment});
    INFO(c.file << " with " << c.assignment << ": " << sim.message());
    REQUIRE_FALSE(sim.ok());
    const Issue issue = issueAt(sim, c.path);
    CHECK(issue.message.find("too large for the step of 0.0004 s") == 0);
    CHECK(issue.message.find("needs dt ≤ ") != std::string::npos);
    CHECK(issue.message.find("; at this step use at most ") != std::string::npos);
  }
  // The bound it names is the one that passes.
  const Expected<Simulation> bad = made("flat-rocker8.json", {"robot.params.tire_damping=1e6"});
  const std::string message = issueAt(bad, "robot.params.tire_damping").message;
  const double most = std::stod(message.substr(message.find("use at most ") + 12));
  CHECK(
      made("flat-rocker8.json", {"robot.params.tire_damping=" + std::to_string(0.99 * most)}).ok());
  CHECK_FALSE(
      made("flat-rocker8.json", {"robot.params.tire_damping=" + std::to_string(1.02 * most)}).ok());
}

TEST_CASE("a step above the default that is not resolved is one issue at simulation.dt",
          "[stability][scenario]") {
  // flat-rocker8 at 10 ms once ran, 0.56 m behind its 0.4 ms position after 2 s.
  const Expected<Simulation> sim = made("flat-rocker8.json", {"simulation.dt=0.01"});
  REQUIRE_FALSE(sim.ok());
  REQUIRE(sim.issues().size() == 1);
  const Issue& issue = sim.issues().front();
  CHECK(issue.path == "simulation.dt");
  // The speed controller is the tightest: 300 N·m·s/rad on the wheel's 0.3 kg·m² (a little less
  // with the rover free).
  CHECK(issue.message.find("too large: use dt ≤ 0.000929 s") == 0);
  CHECK(issue.message.find("speed controller gain of 'wheel_1'") != std::string::npos);
  // Just inside the bound it runs, without a warning (below 5× the default).
  const Expected<Simulation> inside = made("flat-rocker8.json", {"simulation.dt=0.0009"});
  REQUIRE(inside.ok());
  CHECK(inside.value().warnings.empty());
}

TEST_CASE("a resolved step far above the default runs with a warning", "[stability][scenario]") {
  // A wheel rig soft enough for 10 ms: heavy wheel, soft tire and tread.
  const std::vector<std::string> soft = {
      "robot.params.wheel_inertia=1", "robot.params.tire_stiffness=1e5",
      "robot.params.tread_stiffness=4e4", "robot.params.tread_damping=1500"};
  std::vector<std::string> at10ms = soft;
  at10ms.push_back("simulation.dt=0.01");
  const Expected<Simulation> sim = made("flat-wheel-rig.json", at10ms);
  INFO(sim.message());
  REQUIRE(sim.ok());
  REQUIRE(sim.value().warnings.size() == 1);
  CHECK(sim.value().warnings[0].path == "simulation.dt");
  CHECK(sim.value().warnings[0].message.find("25× the default step") != std::string::npos);
  // 5× the default (2 ms) is the last step without one.
  std::vector<std::string> at2ms = soft;
  at2ms.push_back("simulation.dt=0.002");
  CHECK(made("flat-wheel-rig.json", at2ms).value().warnings.empty());
}

TEST_CASE("every preset parameter's range runs at some allowed step", "[stability][robots]") {
  // Each parameter at its smallest and largest value, the others at their
  // defaults, upright at rest: the largest stable step must be at least the
  // smallest allowed dt, 1e-6 s. (This is why wheel_inertia starts at 1e-3
  // kg·m² and motor_gain stops at 1e4 N·m·s/rad.)
  for (const std::string& preset : presetNames())
    for (const ParamSpec& p : presetParams(preset))
      for (const double value : {p.min, p.max}) {
        const Expected<Robot> robot = buildRobot(preset, {{p.name, value}});
        REQUIRE(robot.ok());
        MultibodyState state = neutralState(robot.value().bodies);
        double maxDt = 1e300;
        std::string what;
        for (const StepLimit& l : stepLimits(robot.value(), state))
          if (l.maxDt() < maxDt) maxDt = l.maxDt(), what = l.what;
        INFO(preset << " " << p.name << " = " << value << ": " << what << " needs dt ≤ " << maxDt
                    << " s");
        CHECK(maxDt >= 1e-6);
      }
}
