// Every preset: builds, parameters within their ranges, the papers' masses,
// settles on flat ground carrying its weight, joint limits that hold.
#include <catch2/catch.hpp>

#include "support/scenario_files.h"

using namespace roverlab;
using testing::runUntil;
using testing::simulationOf;

namespace {

double totalMass(const Multibody& m) {
  double mass = 0;
  for (const Body& b : m.bodies) mass += b.mass;
  return mass;
}

}  // namespace

TEST_CASE("every preset builds with defaults inside their ranges", "[robots]") {
  REQUIRE(presetNames().size() == 5);
  for (const std::string& name : presetNames()) {
    INFO(name);
    CHECK_FALSE(presetDescription(name).empty());
    for (const ParamSpec& p : presetParams(name)) {
      INFO(p.name);
      CHECK(p.value >= p.min);
      CHECK(p.value <= p.max);
      CHECK_FALSE(p.unit.empty());
    }
    const Expected<Robot> robot = buildRobot(name, {});
    REQUIRE(robot.ok());
    CHECK(!robot.value().wheels.empty());
  }
  CHECK(buildRobot("tank", {}).issues()[0].path == "preset");
}

TEST_CASE("the papers' robots: articulated6 126 kg, rocker8 with 8 wheels on 4 rockers",
          "[robots]") {
  const Robot a6 = buildRobot("articulated6", {}).value();
  CHECK(totalMass(a6.bodies) == Approx(126.0));
  CHECK(a6.wheels.size() == 6);
  CHECK(a6.maxWheelSpeed == 5.0);
  CHECK(a6.joints.size() == 4);
  const Robot r8 = buildRobot("rocker8", {}).value();
  CHECK(r8.wheels.size() == 8);
  int rockers = 0;
  for (const Body& b : r8.bodies.bodies) rockers += b.name.rfind("rocker_", 0) == 0;
  CHECK(rockers == 4);
  CHECK(r8.leftDrive.size() == 4);
  CHECK(r8.rightDrive.size() == 4);
  const Robot planar = buildRobot("planar-vehicle", {{"rear_drive", 0}}).value();
  CHECK(planar.planar);
  CHECK(planar.leftDrive.size() + planar.rightDrive.size() == 1);  // front-wheel drive only
}

TEST_CASE("every preset settles on flat ground carrying its weight", "[robots]") {
  for (const std::string& name : presetNames()) {
    INFO(name);
    Simulation sim = simulationOf("flat-" + name + ".json", {"control.wheel_speed=0"});
    runUntil(sim, 2.0);
    double load = 0;
    for (const WheelResult& w : sim.data.wheels) {
      CHECK_FALSE(w.contacts.empty());
      load += w.normalLoad;
    }
    // At rest the wheels carry the whole weight (1 %: what is left of the settling motion).
    CHECK(load == Approx(totalMass(sim.model.robot.bodies) * 9.81).epsilon(0.01));
  }
}

TEST_CASE("articulated6's fold limit holds without jitter", "[robots]") {
  // Target 2.5 rad, beyond the ±90° range. The servo (5000 N·m/rad, limited to
  // 800 N·m) pushes into the limit spring (50× stiffer): the fold stops within
  // 800 / 2.5e5 = 3.2 mrad of π/2 in steady state; allow 0.05 rad of overshoot
  // on the way. After settling the joint speed is below 1e-3 rad/s: no chatter.
  Simulation sim = simulationOf("flat-articulated6.json",
                                {"control.wheel_speed=0", "control.joints={\"fold_front\": 2.5}"});
  const Body& fold =
      sim.model.robot.bodies.bodies[1 + 2];  // base, two middle wheels, then fold_front
  REQUIRE(fold.name == "fold_front");
  double peak = 0;
  for (double t = 0.05; t <= 4.0; t += 0.05) {
    runUntil(sim, t);
    peak = std::max(peak, sim.state.bodies.q[fold.qIndex]);
  }
  CHECK(peak < M_PI / 2 + 0.05);
  CHECK(sim.state.bodies.q[fold.qIndex] == Approx(M_PI / 2).margin(0.004));
  CHECK(std::abs(sim.state.bodies.v[fold.vIndex]) < 1e-3);
}
