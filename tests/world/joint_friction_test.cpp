// Coulomb joint friction (robots/parts.h, JointFriction) in motion, against
// the friction-damped oscillator: an arm on a vertical axis (gravity does not
// turn it) above rocker8's 600 kg base, pulled by a joint spring k towards
// rest R, with friction F. From rest at q = 0 with k·R > F it swings as
// q = (R − F/k)(1 − cos ωt), ω = √(k/I), and stops at 2(R − F/k) at t = π/ω;
// each half cycle is a half cosine about R ∓ F/k, so the swing loses 2F/k
// each time, until the spring's pull no longer exceeds F. A spring torque
// under F moves the arm only by the friction band's creep.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "robots/robot.h"
#include "scenario/robot_reader.h"
#include "sim/run.h"
#include "support/scenario_files.h"

using namespace roverlab;

namespace {

constexpr double kMass = 2.0, kLength = 0.5;  // the arm: a 2 kg rod, 0.5 m from the pivot
// About the pivot: m L²/12 about its centre, plus m (L/2)².
constexpr double kPivotInertia = kMass * kLength * kLength / 12 + kMass * 0.25 * kLength * kLength;

// rocker8 on flat ground with the arm on top of its base (joint spring k, rest R, friction F).
Simulation armOnRocker8(double k, double rest, double friction) {
  RobotDescription d = describePreset("rocker8", {}).value();
  LinkDescription arm;
  arm.name = "arm";
  arm.mass = kMass;
  arm.com = Vec3(kLength / 2, 0, 0);
  arm.inertia =
      Vec3(1e-4, kMass * kLength * kLength / 12, kMass * kLength * kLength / 12).asDiagonal();
  d.links.push_back(arm);
  JointDescription j;
  j.name = "arm";
  j.kind = JointKind::Continuous;
  j.parent = d.base;
  j.child = "arm";
  j.origin.xyz = Vec3(0, 0, 0.6);
  j.axis = Vec3::UnitZ();
  j.friction = friction;
  j.spring.stiffness = k;
  j.spring.rest = rest;
  d.joints.push_back(j);
  nlohmann::json doc =
      nlohmann::json::parse(testing::readText(testing::terrainsDir() / "flat-rocker8.json"));
  doc["robot"] = {{"model", writeRobotDescription(d)}, {"pose", {{"position", {0, 0}}}}};
  doc["control"] = nlohmann::json::object();
  const Expected<Scenario> scenario = parseScenario(doc.dump());
  INFO(scenario.message());
  REQUIRE(scenario);
  Expected<Simulation> sim = makeSimulation(scenario.value());
  INFO(sim.message());
  REQUIRE(sim);
  return std::move(sim).value();
}

// The arm's angle (rad).
double armAngle(const Simulation& sim) {
  const std::vector<Body>& bodies = sim.model.robot.bodies.bodies;
  for (const Body& b : bodies)
    if (b.name == "arm") return sim.state.bodies.q[b.qIndex];
  FAIL("no arm");
  return 0;
}

}  // namespace

TEST_CASE("joint friction: a sliding arm loses 2F/k of its swing each half cycle",
          "[world][friction]") {
  const double k = 10, rest = 1, friction = 2;
  Simulation sim = armOnRocker8(k, rest, friction);
  const double omega = std::sqrt(k / kPivotInertia);
  // The band: the step's resolvable damping on the arm's inertia (about 0.01 rad/s).
  const double band = sim.model.robot.frictions.at(0).slipSpeed;
  CHECK(band > kFrictionSlipFloor);
  CHECK(band < 0.02);
  const double half = M_PI / omega;
  testing::runUntil(sim, half);
  // 1 %: the base (600 kg) turns a little under the arm's reaction, and the
  // swing passes through the band at its ends.
  CHECK(armAngle(sim) == Approx(2 * (rest - friction / k)).epsilon(0.01));  // 1.6 rad
  testing::runUntil(sim, 2 * half);
  // Back about R + F/k = 1.2 rad from 1.6: to 0.8 rad, where the spring's
  // k(R − q) = 2 N·m no longer exceeds F: it stays.
  CHECK(armAngle(sim) == Approx(0.8).epsilon(0.01));
  testing::runUntil(sim, 2 * half + 1.0);
  CHECK(armAngle(sim) == Approx(0.8).epsilon(0.02));
  // Without friction it would swing on between 0 and 2 rad.
  Simulation free = armOnRocker8(k, rest, 0);
  testing::runUntil(free, half);
  CHECK(armAngle(free) == Approx(2 * rest).epsilon(0.01));
}

TEST_CASE("joint friction: a torque under F moves a joint only within the band",
          "[world][friction]") {
  // k R = 1.5 N·m < F = 2 N·m: it creeps at most at band · 1.5 / 2.
  Simulation sim = armOnRocker8(10, 0.15, 2);
  const double band = sim.model.robot.frictions.at(0).slipSpeed;
  testing::runUntil(sim, 1.0);
  CHECK(armAngle(sim) >= 0);
  CHECK(armAngle(sim) <= band * 0.75 * 1.0 * 1.05);
  CHECK(armAngle(sim) < 0.05 * 0.3);  // free, it would swing to 0.3 rad
}
