// Mimic joints: the response M⁻¹ τ of the articulated-body algorithm, and the
// Leo Rover's rocker differential (a URDF <mimic>) held exactly while the
// rover drives over a bump under one side.
#include <catch2/catch.hpp>
#include <cmath>

#include "robots/compile.h"
#include "scenario/urdf_reader.h"
#include "support/imported_robots.h"

using namespace roverlab;

TEST_CASE("abaResponse is the part of the accelerations a joint force adds", "[mimic]") {
  // The accelerations are affine in τ: aba(τ) − aba(0) = M⁻¹ τ, which
  // abaResponse gives from the articulated inertias alone.
  Simulation sim = testing::simulationOf("climb-articulated6.json");
  testing::runUntil(sim, 0.5);
  const Multibody& model = sim.model.robot.bodies;
  MultibodyData& data = sim.data.bodies;
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
  for (Eigen::Index i = 0; i < model.nv; ++i) tau[i] = std::sin(1.0 + i);
  data.tau.setZero();
  aba(model, sim.state.bodies, data);
  const Eigen::VectorXd free = data.acceleration;
  data.tau = tau;
  aba(model, sim.state.bodies, data);
  const Eigen::VectorXd forced = data.acceleration;
  Eigen::VectorXd response(model.nv);
  abaResponse(model, data, tau, response);
  const Eigen::VectorXd expected = forced - free;
  INFO("expected " << expected.transpose() << "\ngot " << response.transpose());
  // Rounding only: both sides sum the same products in other orders.
  CHECK((response - expected).cwiseAbs().maxCoeff() <= 1e-9 * expected.cwiseAbs().maxCoeff());
  CHECK(expected.cwiseAbs().maxCoeff() > 0.1);
}

TEST_CASE("the Leo Rover's rocker differential holds exactly over a bump", "[mimic]") {
  Simulation sim = testing::leoOverBump();
  const Robot& robot = sim.model.robot;
  REQUIRE(robot.mimics.size() == 1);
  const Body& follower = robot.bodies.bodies[robot.mimics[0].body];
  const Body& leader = robot.bodies.bodies[robot.mimics[0].leader];
  CHECK(follower.name == "rocker_R_link");
  CHECK(leader.name == "rocker_L_link");
  double worstCoupling = 0, worstPitch = 0, swing = 0;
  while (sim.state.bodies.time < 3.0) {
    REQUIRE(advance(sim));
    updateKinematics(sim);
    const double qL = sim.state.bodies.q[leader.qIndex], qR = sim.state.bodies.q[follower.qIndex];
    worstCoupling = std::max(worstCoupling, std::abs(qR - qL));  // multiplier 1, offset 0
    swing = std::max(swing, std::abs(qL));
    // The body's pitch is the mean of the rockers' pitches: measured about
    // the body's own y axis (the rocker axes), the two rockers tilt by
    // opposite angles. The left rocker's frame is turned by π about z, so
    // its pitch about the body's y is minus its joint angle.
    const Mat3 body = worldRotation(sim.data.bodies, robot.base);
    const auto pitchInBody = [&](int b) {
      const Mat3 r = body.transpose() * worldRotation(sim.data.bodies, b);
      return std::atan2(r(0, 2), r(2, 2));  // rotation about the body's y
    };
    const double left = pitchInBody(robot.mimics[0].leader);
    const double right = pitchInBody(robot.mimics[0].body);
    worstPitch = std::max(worstPitch, std::abs(0.5 * (left + right)));
  }
  INFO("rocker swing " << swing << " rad");
  CHECK(swing > 0.02);  // the bump turns the rockers: the check below bites
  // The drift correction keeps q_R − q_L at the integrator's rounding.
  CHECK(worstCoupling < 1e-9);
  CHECK(worstPitch < 1e-9);
}
