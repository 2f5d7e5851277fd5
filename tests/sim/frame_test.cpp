// The drawn frame's body poses (sim/frame.h) and the controllers' link
// rotations (control/observation.h) turn a wheel by its spin angle, though the
// kinematics keep a wheel in its hub frame (Multibody::rotor).
#include "sim/frame.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "control/observation.h"
#include "sim/run.h"
#include "support/scenario_files.h"

using namespace roverlab;
using testing::simulationOf;

TEST_CASE("a wheel's drawn pose and observed rotation turn with its spin", "[sim][frame]") {
  Simulation sim = simulationOf("climb-articulated6.json");
  runSteps(sim, stepsIn(1.0, sim.model.dt), 1000, [](Simulation&) { return true; });
  const FrameLayout layout = frameLayout(sim);
  std::vector<double> frame;
  writeFrame(sim, layout, frame);
  Observation seen;
  observe(sim.model, sim.state, sim.data, seen);
  // The same robot with every wheel kept in its own frame: the reference.
  Multibody own = sim.model.robot.bodies;
  for (const WheelModel& w : sim.model.robot.wheels) keepFrame(own, w.body);
  MultibodyData reference = makeData(own);
  forwardKinematics(own, sim.state.bodies, reference);
  int spun = 0;
  for (const WheelModel& w : sim.model.robot.wheels) {
    INFO("wheel body " << w.body);
    REQUIRE(sim.model.robot.bodies.rotor[w.body]);
    const Mat3 expected = worldRotation(reference, w.body);
    const double* pose = &frame[layout.poses + FrameLayout::kPose * w.body];
    const Eigen::Quaterniond drawn(pose[3], pose[4], pose[5], pose[6]);
    // Rounding: the two frames' rotations are products of a few 3×3 matrices.
    CHECK((drawn.toRotationMatrix() - expected).norm() < 1e-12);
    CHECK((seen.links[w.body].rotation - expected).norm() < 1e-12);
    // The hub alone differs: the wheels have turned (about 3 rad in 1 s).
    spun += (worldRotation(sim.data.bodies, w.body) - expected).norm() > 0.1;
  }
  CHECK(spun == static_cast<int>(sim.model.robot.wheels.size()));
}
