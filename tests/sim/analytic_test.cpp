// The dynamics against analytic results: static tire deflection, coasting
// deceleration, holding and sliding on an incline, a pendulum's period and
// energy, and the highest step a single driven wheel climbs.
#include <catch2/catch.hpp>
#include <cmath>

#include "support/scenario_files.h"

using namespace roverlab;
using testing::runUntil;
using testing::simulationFromText;
using testing::wheelCentre;

namespace {

constexpr double g = 9.81;

/// The wheel rig on flat ground (top at z = 0) plus extra terrain and overrides.
std::string rig(const std::string& params, const std::string& material,
                const std::string& extraBoxes = "", double speed = 0.0) {
  return R"({"format": "roverlab-scenario", "version": 1,
    "terrain": {"materials": {"default": )" +
         material + R"(},
      "boxes": [{"centre": [0, 0, -0.5], "size": [40, 4, 1]})" +
         extraBoxes + R"(]},
    "robot": {"preset": "wheel-rig", "params": {)" +
         params + R"(}, "pose": {"position": [0, 0]}},
    "control": {"wheel_speed": )" +
         std::to_string(speed) + R"(}})";
}

const std::string kAsphalt = R"({"phi_max": 0.8, "s0": 0.1, "s1": 0.5, "rolling": 0.018})";

}  // namespace

TEST_CASE("static tire deflection is W/k", "[sim][analytic]") {
  // Carriage 50 kg + wheel 5 kg on one tire of k = 2e5 N/m: W/k = 2.698 mm.
  // After 2 s the damper (b = 2e3 N·s/m, ζ ≈ 0.3) has settled to far below
  // 1e-9 m, and the tread carries no vertical load.
  Simulation sim = simulationFromText(rig("", kAsphalt));
  runUntil(sim, 2.0);
  REQUIRE(sim.data.wheels[0].contacts.size() == 1);
  const double w = (50.0 + 5.0) * g;
  CHECK(sim.data.wheels[0].contacts[0].deflection == Approx(w / 2.0e5).epsilon(1e-6));
  CHECK(sim.data.wheels[0].normalLoad == Approx(w).epsilon(1e-6));
  // The centre sits at r − W/k above the ground.
  CHECK(wheelCentre(sim, 0).z() == Approx(0.19 - w / 2.0e5).epsilon(1e-6));
}

TEST_CASE("a coasting wheel decelerates at f·g·m/(m + J/r0²)", "[sim][analytic]") {
  // Free wheel (motor gain 0) rolling at 1 m/s. The rolling-resistance moment
  // f·R_z·r0 ([GKS2025] eq. 11) is the only loss: it brakes the spin, and the
  // contact force keeps the wheel rolling, so the rig (m = 55 kg, wheel
  // J = 0.09 kg·m² about r0 = 0.97·0.19 m) slows at
  //   a = f·g·m / (m + J/r0²)   (the tread's creep changes it below 0.1 %).
  // Measured between t = 0.5 s and 1.5 s from the carriage speed.
  const double f = 0.05;
  Simulation sim =
      simulationFromText(rig(R"("motor_gain": 0, "motor_integral_gain": 0)",
                             R"({"phi_max": 0.8, "s0": 0.1, "s1": 0.5, "rolling": 0.05})"));
  const double r0 = 0.97 * 0.19;
  const Body& x = sim.model.robot.bodies.bodies[0];
  const Body& wheel = sim.model.robot.bodies.bodies[sim.model.robot.wheels[0].body];
  sim.state.bodies.v[x.vIndex] = 1.0;
  sim.state.bodies.v[wheel.vIndex] = 1.0 / r0;
  runUntil(sim, 0.5);
  const double v0 = sim.state.bodies.v[x.vIndex];
  runUntil(sim, 1.5);
  const double v1 = sim.state.bodies.v[x.vIndex];
  const double m = 55.0, j = 0.09;
  const double expected = f * g * m / (m + j / (r0 * r0));
  INFO("v(0.5 s) = " << v0 << ", v(1.5 s) = " << v1);
  CHECK((v0 - v1) / 1.0 ==
        Approx(expected).epsilon(0.02));  // 2 %: the deflection makes r0 differ slightly
}

TEST_CASE("a braked robot holds below the adhesion limit and slides above it", "[sim][analytic]") {
  // articulated6 with every wheel commanded to 0 rad/s (the speed controllers
  // brake) on a plane tilted by θ. With s1 tiny the adhesion curve rises to
  // φ_max = 0.8 without overshoot. tan θ = 0.5: the robot holds; its creep
  // is below 1 mm/s averaged over the last second. tan θ = 1.0 > 0.8: it
  // slides, accelerating at about g(sin θ − 0.8 cos θ) = 1.39 m/s².
  const auto slope = [](double tanTheta) {
    const double c = 1 / std::sqrt(1 + tanTheta * tanTheta), s = tanTheta * c;
    // A slab 12 m long, 4 m wide, 1 m thick, rising along +x, top face through the origin.
    std::string points;
    for (double u : {-6.0, 6.0})
      for (double y : {-2.0, 2.0})
        for (double n : {0.0, -1.0}) {
          const double px = u * c - n * s, pz = u * s + n * c;
          points += (points.empty() ? "" : ", ") + std::string("[") + std::to_string(px) + ", " +
                    std::to_string(y) + ", " + std::to_string(pz) + "]";
        }
    return R"({"format": "roverlab-scenario", "version": 1,
      "terrain": {"materials": {"default": {"phi_max": 0.8, "s0": 0.1, "s1": 1e-9, "rolling": 0.018}},
        "hulls": [{"points": [)" +
           points + R"(]}]},
      "robot": {"preset": "articulated6", "pose": {"position": [0, 0], "pitch": )" +
           std::to_string(std::atan(tanTheta)) + R"(}},
      "control": {"wheel_speed": 0}})";
  };
  SECTION("tan θ = 0.5 holds") {
    Simulation sim = simulationFromText(slope(0.5));
    runUntil(sim, 4.0);
    const Vec3 a = worldPoint(sim.data.bodies, sim.model.robot.base, Vec3::Zero());
    runUntil(sim, 5.0);
    const Vec3 b = worldPoint(sim.data.bodies, sim.model.robot.base, Vec3::Zero());
    INFO("creep " << (b - a).norm() * 1e3 << " mm/s");
    CHECK((b - a).norm() < 1e-3);
  }
  SECTION("tan θ = 1.0 slides") {
    Simulation sim = simulationFromText(slope(1.0));
    runUntil(sim, 1.0);
    const Vec3 a = worldPoint(sim.data.bodies, sim.model.robot.base, Vec3::Zero());
    const double va = sim.state.bodies.v.segment<3>(3).norm();
    runUntil(sim, 2.0);
    const Vec3 b = worldPoint(sim.data.bodies, sim.model.robot.base, Vec3::Zero());
    const double vb = sim.state.bodies.v.segment<3>(3).norm();
    CHECK(b.z() < a.z() - 0.3);  // downhill
    // Acceleration within 15 % of g(sin θ − μ cos θ): rolling resistance and the
    // tread's compliance take a little, the adhesion curve is at φ_max in full slip.
    const double expected = g * (std::sin(M_PI / 4) - 0.8 * std::cos(M_PI / 4));
    CHECK(vb - va == Approx(expected).epsilon(0.15));
  }
}

namespace {

// A physical pendulum: one body on a revolute joint about y at the origin,
// a uniform rod of length 2L along −z (centre of mass L below the pivot).
Multibody pendulum(double length, double mass) {
  Multibody m;
  Body b;
  b.name = "rod";
  b.joint = JointType::Revolute;
  b.axis = Vec3::UnitY();
  b.mass = mass;
  b.com = Vec3(0, 0, -length);
  const double i = mass * (2 * length) * (2 * length) / 12.0;  // about the centre, across the rod
  b.inertia = Vec3(i, i, 1e-6).asDiagonal();
  addBody(m, b);
  return m;
}

}  // namespace

TEST_CASE("pendulum period through a revolute joint", "[sim][analytic][dynamics]") {
  // T0 = 2π √(I_O / (m g L)), I_O = m(2L)²/3 about the pivot; at amplitude
  // θ0 the period is T0 (1 + θ0²/16 + 11 θ0⁴/3072 + …). θ0 = 0.1 rad. The
  // period is measured between upward zero crossings of the angle over 10
  // swings, interpolated linearly inside a step: error ~ dt²-level per
  // crossing, far below the 1e-4 relative tolerance (dt = 1e-4 s, T ≈ 1.6 s).
  const double length = 0.5, mass = 2.0, theta0 = 0.1, dt = 1e-4;
  WorldModel model;
  model.robot.bodies = pendulum(length, mass);
  model.dt = dt;
  WorldState state = initialState(model);
  WorldData data = makeWorldData(model);
  state.bodies.q[0] = theta0;
  std::vector<double> crossings;
  double previous = state.bodies.q[0];
  while (crossings.size() < 11 && state.bodies.time < 30) {
    if (!step(model, state, data)) FAIL(data.error);
    const double now = state.bodies.q[0];
    if (previous < 0 && now >= 0)
      crossings.push_back(state.bodies.time - dt * now / (now - previous));
    previous = now;
  }
  REQUIRE(crossings.size() == 11);
  const double measured = (crossings.back() - crossings.front()) / 10;
  const double t0 = 2 * M_PI * std::sqrt((mass * 4 * length * length / 3) / (mass * g * length));
  const double expected = t0 * (1 + theta0 * theta0 / 16 + 11 * std::pow(theta0, 4) / 3072);
  CHECK(measured == Approx(expected).epsilon(1e-4));
}

TEST_CASE("undamped pendulum: energy stays bounded", "[sim][analytic][dynamics]") {
  // Semi-implicit Euler is symplectic: the energy of an undamped system
  // oscillates by O(dt) and does not drift. Over 20 periods at θ0 = 1 rad and
  // dt = 0.4 ms the swing stays within 0.1 % of the initial energy (m g L = 9.81 J
  // scale), and it does not grow from the first period to the last. RK4 is
  // not symplectic but fourth order: its drift over the same run is far below
  // 1e-6 of the energy.
  for (const Integrator integrator : {Integrator::SemiImplicitEuler, Integrator::RungeKutta4}) {
    WorldModel model;
    model.robot.bodies = pendulum(0.5, 2.0);
    model.integrator = integrator;
    WorldState state = initialState(model);
    WorldData data = makeWorldData(model);
    state.bodies.q[0] = 1.0;
    forwardKinematics(model.robot.bodies, state.bodies, data.bodies);
    const double e0 = mechanicalEnergy(model.robot.bodies, data.bodies);
    double firstMax = 0, lastMax = 0;
    const int steps = static_cast<int>(20 * 1.64 / model.dt);
    for (int i = 0; i < steps; ++i) {
      if (!step(model, state, data)) FAIL(data.error);
      forwardKinematics(model.robot.bodies, state.bodies, data.bodies);
      const double err = std::abs(mechanicalEnergy(model.robot.bodies, data.bodies) - e0);
      if (i < steps / 20) firstMax = std::max(firstMax, err);
      if (i >= steps - steps / 20) lastMax = std::max(lastMax, err);
    }
    const double scale = 2.0 * g * 0.5;
    INFO("integrator " << static_cast<int>(integrator) << ": first period " << firstMax
                       << " J, last " << lastMax << " J");
    if (integrator == Integrator::SemiImplicitEuler) {
      CHECK(lastMax < 1e-3 * scale);
      CHECK(lastMax < 1.5 * firstMax);  // oscillates, does not grow
    } else {
      CHECK(lastMax < 1e-6 * scale);
    }
  }
}

TEST_CASE("a driven wheel climbs steps up to h_max = r(1 − 1/√(1+μ²))", "[sim][analytic]") {
  // One wheel pushed only by its own drive meets a step edge; at the edge the
  // contact force is along the line to the edge, and the wheel rises only if
  // the friction at the edge can turn that line past the vertical load:
  // h_max = r(1 − 1/√(1+μ²)) = 0.0416 m for r = 0.19 m, μ = 0.8. The
  // adhesion curve saturates at μ (s1 tiny), the rolling resistance is 0 and
  // the wheel turns slowly (0.3 rad/s), so the climb is quasi-static. The
  // tire's compliance (2.7 mm of deflection under the load) shifts the
  // contact geometry by a few per cent of h: the wheel must climb 0.9 h_max and
  // stall at 1.1 h_max.
  const double r = 0.19, mu = 0.8;
  const double hMax = r * (1 - 1 / std::sqrt(1 + mu * mu));
  const auto climbs = [&](double h) {
    const std::string step = R"(, {"centre": [1.5, 0, )" + std::to_string(h / 2) +
                             R"(], "size": [2, 4, )" + std::to_string(h) + "]}";
    Simulation sim = simulationFromText(
        rig("", R"({"phi_max": 0.8, "s0": 0.1, "s1": 1e-9, "rolling": 0})", step, 0.3));
    runUntil(sim, 12.0);  // 0.3 rad/s × 0.19 m: the edge at x = 0.5 − r is reached after ~6 s
    const Vec3 c = wheelCentre(sim, 0);
    return c.x() > 0.5 && c.z() > h + 0.9 * r;
  };
  CHECK(climbs(0.9 * hMax));
  CHECK_FALSE(climbs(1.1 * hMax));
}
