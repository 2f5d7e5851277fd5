// Chassis contact: with it on, the body of rocker8 stops against a block
// standing between its wheel tracks; with it off (the default) the body
// passes through the block.
#include <catch2/catch.hpp>

#include "support/scenario_files.h"

using namespace roverlab;
using testing::runUntil;
using testing::simulationOf;

TEST_CASE("chassis contact stops the body at a block between the wheel tracks", "[sim][chassis]") {
  // Block 0.4 m long from x = 2.8, 0.6 m wide (the wheels run at y = ±0.7,
  // 0.1 m wide), 0.6 m high; the body's front face is 0.8 m ahead of the
  // base and its bottom 0.35 m above the ground. Driving at 2 rad/s × 0.25 m
  // the body reaches the block after about 2 s.
  const std::vector<std::string> block = {
      "terrain.boxes[1]={\"centre\": [3.0, 0, 0.3], \"size\": [0.4, 0.6, 0.6]}"};
  std::vector<std::string> on = block;
  on.push_back("simulation.chassis_contact=true");
  Simulation with = simulationOf("flat-rocker8.json", on);
  REQUIRE(with.model.chassis.enabled);
  int touching = 0;
  for (double t = 0.5; t <= 5.0; t += 0.5) {
    runUntil(with, t);
    touching = std::max(touching, with.data.chassisContacts);
  }
  const double x = worldPoint(with.data.bodies, with.robot.base, Vec3::Zero()).x();
  CHECK(touching > 0);
  CHECK(x < 2.8 - 0.8 + 0.01);  // stopped with the body face at the block (1 cm of penetration)
  CHECK(x > 2.8 - 0.8 - 0.1);   // and it did get there

  Simulation without = simulationOf("flat-rocker8.json", block);
  REQUIRE_FALSE(without.model.chassis.enabled);
  runUntil(without, 5.0);
  CHECK(without.data.chassisContacts == 0);
  CHECK(worldPoint(without.data.bodies, without.robot.base, Vec3::Zero()).x() > 2.8 - 0.8 + 0.3);  // drove on into it
}
