// Skid steering of the 3-D presets: different left and right wheel speeds
// turn the robot toward the slower side (left is +y, yaw counter-clockwise).
#include <catch2/catch.hpp>

#include "support/scenario_files.h"

using namespace roverlab;
using testing::runUntil;
using testing::simulationOf;

namespace {

double yaw(const Simulation& sim) {
  const Vec3 x = worldRotation(sim.data.bodies, sim.model.robot.base).col(0);
  return std::atan2(x.y(), x.x());
}

}  // namespace

TEST_CASE("skid steering turns articulated6 and rocker8", "[sim][steering]") {
  // Spin on the spot: the long, heavy rocker8 turns slowly (its wheelbase
  // 1.8 m exceeds its track 1.4 m, so the wheels scrub sideways a lot).
  const struct {
    const char* file;
    double spinYaw;  // (rad) least yaw after 3 s of spinning
  } cases[] = {{"flat-articulated6.json", 0.5}, {"flat-rocker8.json", 0.02}};
  for (const auto& c : cases) {
    const char* file = c.file;
    INFO(file);
    // Left faster than right: a right (clockwise, yaw < 0) turn while moving forward.
    Simulation faster = simulationOf(file, {"control.left_speed=3", "control.right_speed=1"});
    runUntil(faster, 3.0);
    CHECK(yaw(faster) < -0.1);
    CHECK(worldPoint(faster.data.bodies, faster.model.robot.base, Vec3::Zero()).x() > 0.3);
    // Mirror: the same magnitude of turn the other way (the presets are symmetric).
    Simulation right = simulationOf(file, {"control.left_speed=1", "control.right_speed=3"});
    runUntil(right, 3.0);
    CHECK(yaw(right) == Approx(-yaw(faster)).margin(1e-6));
    // Opposite speeds, left backwards: turning left on the spot.
    Simulation spin = simulationOf(file, {"control.left_speed=-2", "control.right_speed=2"});
    runUntil(spin, 3.0);
    CHECK(yaw(spin) > c.spinYaw);
    CHECK(worldPoint(spin.data.bodies, spin.model.robot.base, Vec3::Zero()).head<2>().norm() < 0.1);
  }
}
