// The papers' qualitative results, reproduced from the scenario files of
// terrains/ ([SP2017]: front- vs all-wheel drive; [KJ2025]: rocker rover).
#include <catch2/catch.hpp>

#include "support/scenario_files.h"

using namespace roverlab;
using testing::runUntil;
using testing::simulationOf;
using testing::wheelCentre;

namespace {

// Lowest wheel-centre height (m) and smallest x of the wheels.
double lowestWheel(const Simulation& sim) {
  double z = 1e300;
  for (size_t w = 0; w < sim.model.robot.wheels.size(); ++w)
    z = std::min(z, wheelCentre(sim, static_cast<int>(w)).z());
  return z;
}

double rearmostWheel(const Simulation& sim) {
  double x = 1e300;
  for (size_t w = 0; w < sim.model.robot.wheels.size(); ++w)
    x = std::min(x, wheelCentre(sim, static_cast<int>(w)).x());
  return x;
}

}  // namespace

TEST_CASE("[SP2017]: front-wheel drive sticks at the cube, all-wheel drive crosses it",
          "[sim][paper]") {
  // Block 0.2 m high (0.67 r) from x = 2.0 to 2.4. Stuck: the front wheel
  // stays against its face (centre at most r in front of it); crossed: both
  // wheels beyond the block after 10 s.
  Simulation fwd = simulationOf("block-planar-vehicle.json");
  runUntil(fwd, 10.0);
  CHECK(wheelCentre(fwd, 0).x() < 2.0 - 0.25);
  CHECK(wheelCentre(fwd, 0).x() > 2.0 - 0.31);  // it did reach the block
  Simulation awd = simulationOf("block-planar-vehicle.json", {"robot.params.rear_drive=1"});
  runUntil(awd, 10.0);
  CHECK(rearmostWheel(awd) > 2.4 + 0.3);
}

TEST_CASE("[SP2017]: all-wheel drive climbs the vertical wall, front-wheel drive does not",
          "[sim][paper]") {
  // Wall 0.25 m (0.83 r) at x = 2: on top means wheel centres at 0.25 + r
  // less the tire deflection (a few mm).
  Simulation awd = simulationOf("wall-planar-vehicle.json");
  runUntil(awd, 10.0);
  CHECK(lowestWheel(awd) > 0.25 + 0.3 - 0.02);
  CHECK(rearmostWheel(awd) > 2.0);
  Simulation fwd = simulationOf("wall-planar-vehicle.json", {"robot.params.rear_drive=0"});
  runUntil(fwd, 10.0);
  CHECK(rearmostWheel(fwd) < 2.0);
}

TEST_CASE("[SP2017]: all-wheel drive climbs the stairs, front-wheel drive stalls", "[sim][paper]") {
  // Four stairs of 0.12 m: the top is at 0.48 m.
  Simulation awd = simulationOf("stairs-planar-vehicle.json");
  runUntil(awd, 12.0);
  CHECK(lowestWheel(awd) > 0.48 + 0.3 - 0.02);
  Simulation fwd = simulationOf("stairs-planar-vehicle.json", {"robot.params.rear_drive=0"});
  runUntil(fwd, 12.0);
  CHECK(lowestWheel(fwd) < 0.3 + 0.01);  // the rear wheel never left the ground level
}

TEST_CASE("[KJ2025]: rocker8 rolls into the depression with all right wheels touching",
          "[sim][paper]") {
  // Right row dips 0.25 m between x = 2 and 7, deepest from 4 to 5. While the
  // body is over the deepest part (t = 13-16 s, base at x = 4.4-5.2) it rolls
  // right (left side up: roll > 0) and wheels 5-8 all carry load. (Earlier,
  // on the way down, the four free rockers of a rigid body share the load
  // unevenly: which wheel of the front right rocker carries it shifts.)
  Simulation sim = simulationOf("depression-rocker8.json");
  double minRoll = 1e300;
  for (double t = 13.0; t <= 16.0; t += 0.5) {
    runUntil(sim, t);
    minRoll = std::min(minRoll, bodyRoll(sim, sim.model.robot.base));
    for (int w = 4; w < 8; ++w) {
      INFO("t = " << t << " s, wheel " << w + 1);
      CHECK(sim.data.wheels[w].normalLoad > 0);
    }
  }
  CHECK(minRoll > 0.1);
}

TEST_CASE("[KJ2025]: on the slope the right rear rocker's wheels 7-8 hang in the air",
          "[sim][paper]") {
  // The right row rises 0.3 m from x = 1 to 3; the left stays flat. While the
  // rover climbs (t = 1-7.5 s) the body rests on the other three rockers.
  Simulation sim = simulationOf("slope-rocker8.json");
  double weight = 0;
  for (const Body& b : sim.model.robot.bodies.bodies) weight += b.mass * 9.81;
  for (double t = 1.0; t <= 7.5; t += 0.5) {
    runUntil(sim, t);
    INFO("t = " << t << " s");
    CHECK(sim.data.wheels[6].contacts.empty());
    CHECK(sim.data.wheels[7].contacts.empty());
    double load = 0;
    for (const WheelResult& w : sim.data.wheels) load += w.normalLoad;
    CHECK(load == Approx(weight).epsilon(0.1));  // still carried, by the other six (dynamic ±10 %)
  }
}

TEST_CASE("[SP2017]: the wheel-walker steps its wheels up a step that rolling cannot climb",
          "[sim][paper]") {
  // Step 0.3 m (2 wheel radii) at x = 1. The timed script lifts legs 1-3
  // onto it one by one, then raises the body so wheel 4 follows: at the end
  // every wheel centre is at step height + r (less a few mm of deflection).
  Simulation walker = simulationOf("step-wheel-walker.json");
  runUntil(walker, 30.0);
  for (int w = 0; w < 4; ++w) {
    INFO("wheel " << w + 1);
    CHECK(wheelCentre(walker, w).z() > 0.3 + 0.15 - 0.01);
    CHECK(wheelCentre(walker, w).x() > 1.0);
  }
  // Without the script the machine only drives into the step and stays below it.
  Simulation rolling = simulationOf("step-wheel-walker.json", {"control.script=[]"});
  runUntil(rolling, 30.0);
  CHECK(lowestWheel(rolling) < 0.3);
}
