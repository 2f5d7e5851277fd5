// The union law in motion: the wheel rig (55 kg on one wheel, carriage free
// in x and z) driven over random folded grounds (1-4 folds of 0.1° to 50°,
// concave and convex, across the path or along a heightmap's diagonals) at
// random speeds (0.05-2 m/s) and tire stiffness (2e5-2e6 N/m), the ground
// given as one hull per face, as cut hulls, as a heightmap and as a mesh.
//
// The bound. Rolling over a fold that turns the face by Δθ, the wheel centre's
// path turns by Δθ too: its velocity across the new face must change by
// Δv = v·sin Δθ. Taken up by the tire's spring and damper (both faces'
// springs engaged at once, stiffness 2c_t on mass m, damping 2b_t) the load
// rises at most by Δv·(√2·m·ω_n + 2·b_t), ω_n = √(c_t/m), above the
// quasi-static W/cos θ of the steeper face (the carriage is free in x: on a
// face of angle θ the ground carries W·cos θ, less than W/cos θ). Over a
// convex fold the centre follows an arc of radius about r round the crest,
// which unloads the ground by the centripetal m·v²/r; where the arc meets the
// next face that unloading ends at once, a step the tire's spring-damper
// overshoots by at most its size: the load stays below W/cos θ + m·v²/r.
// (Only at a crawl is it W/cos θ.) Faster than v² = g·r·cos θ the wheel
// leaves the ground and lands on the next face at Δv: the kink bound with one
// spring.
// Each sample is held to the bound of the last fold the wheel reached (its
// contact with a fold's second face starts within r before the fold) plus
// 2 % of W.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "support/folded_surfaces.h"
#include "support/scenario_files.h"

using namespace roverlab;

namespace {

constexpr double g = 9.81, mass = 55, r = 0.19, damping = 2e3;

struct Crossing {
  double worst = 0;  ///< largest load over its bound, as a fraction of W
  double peak = 0;   ///< largest load (N)
  long samples = 0;
};

Crossing drive(const testing::FoldedSurface& s, const std::string& terrain, double speed,
               double stiffness) {
  // Started so that it is up to speed and settled (0.5 s) 0.3 m before the
  // first fold.
  const double start = s.xOf(s.folds[0], 0) - 0.3 - 0.6 * speed;
  Simulation sim = testing::simulationFromText(
      R"({"format": "roverlab-scenario", "version": 1, "terrain": {)" + terrain +
      R"(}, "robot": {"preset": "wheel-rig", "params": {"tire_stiffness": )" +
      testing::number(stiffness) + R"(}, "pose": {"position": [)" + testing::number(start) +
      R"(, 0]}},
      "control": {"wheel_speed": )" +
      testing::number(speed / (0.97 * r)) + R"(}, "simulation": {"duration": 1000}})");
  const double weight = mass * g, omega = std::sqrt(stiffness / mass);
  std::vector<double> foldX, bound;
  const double before = 1.02 * weight;  // on the first face, flat
  for (size_t k = 0; k < s.folds.size(); ++k) {
    foldX.push_back(s.xOf(s.folds[k], 0));
    const double turn = s.foldAngle(k);
    const double steeper =
        std::max(std::abs(std::atan(s.slopes[k])), std::abs(std::atan(s.slopes[k + 1])));
    // Along a diagonal the path meets the fold at 45°: the turn along the
    // path is smaller than the fold's, so the fold's own bounds it.
    const double dv = speed * std::sin(std::abs(turn));
    const bool flies = turn < 0 && speed * speed > g * r * std::cos(steeper);
    const double kick =
        turn > 0 ? dv * (std::sqrt(2.0) * mass * omega + 2 * damping)
                 : mass * speed * speed / r + (flies ? dv * (mass * omega + damping) : 0.0);
    bound.push_back(weight / std::cos(steeper) + kick + 0.02 * weight);
  }
  testing::runUntil(sim, 0.5);  // settled on the flat, up to speed (under 1 m at 2 m/s)
  Crossing c;
  const double end = foldX.back() + 0.5;
  // To the end, or as long as that takes at the set speed and half again (a
  // face too steep to climb stops the wheel at its foot).
  const double until = 0.5 + 1.5 * (end - start) / speed;
  size_t reached = 0;  // folds reached so far (a wheel may roll back from one)
  while (testing::wheelCentre(sim, 0).x() < end && sim.state.bodies.time < until) {
    if (!advance(sim)) FAIL(sim.data.error);
    updateKinematics(sim);
    const double x = testing::wheelCentre(sim, 0).x(), load = sim.data.wheels[0].normalLoad;
    while (reached < foldX.size() && x > foldX[reached] - r) ++reached;
    const double limit = reached ? bound[reached - 1] : before;
    c.worst = std::max(c.worst, (load - limit) / weight);
    c.peak = std::max(c.peak, load);
    ++c.samples;
  }
  return c;
}

void checkEveryKind(const testing::FoldedSurface& s, double speed, double stiffness,
                    std::mt19937& rng) {
  const std::pair<const char*, std::string> kinds[] = {
      {"hulls", testing::hullsJson(s, false, rng)},
      {"cut hulls", testing::hullsJson(s, true, rng)},
      {"heightmap", testing::heightmapJson(s)},
      {"mesh", testing::meshJson(s, rng)}};
  double reference = 0;
  for (const auto& [kind, terrain] : kinds) {
    const Crossing c = drive(s, terrain, speed, stiffness);
    std::string folds;
    for (size_t k = 0; k < s.folds.size(); ++k)
      folds += " " + std::to_string(s.foldAngle(k) * 180 / M_PI);
    INFO(kind << ": folds (deg)" << folds << ", " << speed << " m/s, c_t " << stiffness
              << " N/m: peak " << c.peak << " N over " << c.samples << " samples, " << c.worst
              << " W over the bound");
    CHECK(c.samples > 1000);
    CHECK(c.worst <= 0);
    // The same ground, however given, gives the same run: the peak load
    // within 1 % of the hulls' (seen: 2e-6).
    if (!reference) reference = c.peak;
    CHECK(std::abs(c.peak - reference) <= 0.01 * reference);
  }
}

}  // namespace

TEST_CASE("a wheel rolled over a concave fold of 0.1° to 85° stays within the kink bound",
          "[sim][law][union]") {
  // The defect this law mends: before it, 1° at 0.4 m/s on a 2e6 N/m tire
  // gave twice the weight (1 076 N against a bound of 682 N).
  std::mt19937 rng(2813);
  for (double degrees : {0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 60.0, 85.0})
    for (double speed : {0.05, 0.4, 2.0})
      for (double stiffness : {2e5, 2e6}) {
        testing::FoldedSurface s;
        s.folds = {1.5};
        s.slopes = {0, std::tan(degrees * M_PI / 180)};
        s.uMax = 3;
        INFO(degrees << "° at " << speed << " m/s, c_t " << stiffness);
        checkEveryKind(s, speed, stiffness, rng);
      }
}

TEST_CASE("a wheel rolled over folds of any angle stays within the kink bound, on every kind",
          "[sim][law][union]") {
  std::mt19937 rng(2812);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int surface = 0; surface < 8; ++surface) {
    const bool diagonal = surface % 2 == 1;
    const testing::FoldedSurface s =
        testing::randomFolded(rng, 1 + surface / 2, 0.1, 50, diagonal ? 20 : 25, diagonal, 1.5);
    const double speed = 0.05 * std::pow(40, unit(rng));     // 0.05 … 2 m/s
    const double stiffness = 2e5 * std::pow(10, unit(rng));  // 2e5 … 2e6 N/m
    checkEveryKind(s, speed, stiffness, rng);
  }
}
