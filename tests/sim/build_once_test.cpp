// A scenario is read and built once (scenario/scenario.h): the terrain is
// built and the robot compiled when it is read; every world made from it
// (makeSimulation, as a reset makes one again) shares that terrain, never a
// copy, and starts from that robot, so two worlds of one scenario run to the
// same state.
#include <catch2/catch.hpp>

#include "sim/run.h"
#include "support/scenario_files.h"
#include "world/state_hash.h"

using namespace roverlab;

TEST_CASE("the worlds of one scenario share its terrain and its compiled robot",
          "[sim][scenario]") {
  for (const char* file : {"heightmap-ditch-planar-vehicle.json", "rubble-articulated6.json"}) {
    INFO(file);
    const Expected<Scenario> scenario =
        parseScenario(testing::readText(testing::terrainsDir() / file));
    REQUIRE(scenario);
    const Scenario& s = scenario.value();
    REQUIRE(s.terrain);
    REQUIRE(s.robot.compiled);
    Expected<Simulation> a = makeSimulation(s), b = makeSimulation(s);
    REQUIRE(a);
    REQUIRE(b);
    // The same terrain object, not an equal copy.
    CHECK(a.value().model.terrain.get() == s.terrain.get());
    CHECK(b.value().model.terrain.get() == s.terrain.get());
    CHECK(a.value().model.robot.bodies.bodies.size() == s.robot.compiled->bodies.bodies.size());
    for (Simulation* sim : {&a.value(), &b.value()}) testing::runUntil(*sim, 0.5);
    CHECK(stateHash(a.value().state) == stateHash(b.value().state));
  }
}
