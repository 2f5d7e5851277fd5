// The tread element (contact/tread.h): [GKS2025]'s law in steady slip, a
// spring at rest, and a tangential force never beyond the adhesion curve's
// peak; rolling resistance with stiction; the curve's peak.
#include "contact/tread.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "contact/tire_model.h"

using namespace roverlab;

namespace {

const TreadParams kTread;  // σ0 = 2e5 N/m, σ1 = 2e3 N·s/m
const Vec3 kUp(0, 0, 1);
constexpr double kDt = 4e-4;

}  // namespace

TEST_CASE("adhesion peak: the curve's maximum, by a dense scan", "[tread]") {
  // Oracle: 2e6 slips uniformly over [0, 5]; the curve is smooth (|φ''| ≤ ~100),
  // so the scan is within 100·(2.5e-6)²/2 ≈ 3e-10 of the maximum.
  for (const Material& m :
       {Material{}, Material{0.5, 0.2, 0.05, 0.02}, Material{1.0, 0.05, 1.0, 0.0}}) {
    double best = 0;
    for (int i = 0; i <= 2000000; ++i) best = std::max(best, adhesion(m, i * 2.5e-6));
    best = std::max(best, m.phiMax);  // the value as s → ∞
    CHECK(adhesionPeak(m) == Approx(best).epsilon(1e-9));
    CHECK(adhesionPeak(m) >= best - 1e-12);
  }
  // The default asphalt (φ_max 0.8, s0 0.1, s1 0.5) peaks at 1.181.
  CHECK(adhesionPeak(Material{}) == Approx(1.18112).margin(1e-5));
}

TEST_CASE("treadForce: steady sliding gives [GKS2025]'s law exactly", "[tread]") {
  // Constant slip velocity 0.3 m/s along x, limit g = 400 N: the bristle
  // settles at z = g/σ0 and the force at −g along the slip.
  const Vec3 vs(0.3, 0, 0);
  const double g = 400, bound = 600;
  Vec3 z = Vec3::Zero(), next;
  Vec3 f;
  for (int i = 0; i < 2000; ++i) {
    f = treadForce(kTread, z, vs, kUp, g, bound, kDt, next);
    z = next;
  }
  CHECK(f.x() == Approx(-g).epsilon(1e-9));
  CHECK(std::abs(f.y()) + std::abs(f.z()) < 1e-12);
}

TEST_CASE("treadForce: at rest the tread spring holds below the bound", "[tread]") {
  // A deflected bristle with no slip (ż = V_sk − σ0|V_sk|z/g = 0) holds its
  // spring force σ0·z, whatever g.
  Vec3 next;
  const Vec3 z(1e-3, 0, 0);
  const Vec3 f = treadForce(kTread, z, Vec3::Zero(), kUp, 0.0, 1000.0, kDt, next);
  CHECK(next.x() == Approx(1e-3).epsilon(1e-12));
  CHECK(f.x() == Approx(-200.0).epsilon(1e-9));
}

TEST_CASE("treadForce: the load dropping within a step gives no spike", "[tread]") {
  // The case behind |R_t|/R_z of 34 on the step scenario: a bristle wound up
  // at 1 000 N of load whose load falls to 20 N in one step, slipping back
  // fast. The old damping term σ1·(z_clamped − z)/dt reached σ1·5e-3/4e-4 =
  // 25 000 N; the bound keeps it to the curve's peak of the new load.
  const double peak = adhesionPeak(Material{});
  const Vec3 z(5e-3, 0, 0);  // 1 000 N of spring force
  Vec3 next;
  const double load = 20;
  const Vec3 f = treadForce(kTread, z, Vec3(-2.0, 0, 0), kUp, 0.8 * load, peak * load, kDt, next);
  CHECK(f.norm() <= peak * load * (1 + 1e-12));
  CHECK(next.norm() <= peak * load / kTread.stiffness * (1 + 1e-12));
}

TEST_CASE("treadForce: random transients never exceed the bound", "[tread]") {
  // Random loads (including zero), slip velocities, normals turning and
  // limits below the bound, 200 000 steps of one bristle carried along.
  std::mt19937 rng(10);
  std::uniform_real_distribution<double> u(-1, 1);
  Vec3 z = Vec3::Zero(), next;
  int violations = 0;
  for (int i = 0; i < 200000; ++i) {
    const Vec3 normal = Vec3(0.3 * u(rng), 0.3 * u(rng), 1).normalized();
    Vec3 vs(u(rng), u(rng), u(rng));
    vs *= std::pow(10.0, 3 * u(rng));
    vs -= vs.dot(normal) * normal;
    const double load = std::max(0.0, 2000 * u(rng));
    const double bound = 1.18 * load;
    const double limit = bound * std::abs(u(rng));
    const Vec3 f = treadForce(kTread, z, vs, normal, limit, bound, kDt, next);
    if (f.norm() > bound * (1 + 1e-12) || !f.allFinite()) ++violations;
    z = next;
  }
  CHECK(violations == 0);
}

TEST_CASE("rollingResistance: holds below breakaway, f·R_z·r0 against the spin beyond", "[tread]") {
  const double breakaway = 1.6, inertia = 0.07;
  double theta = 0, next = 0;
  SECTION("rolling: the paper's moment opposing the spin") {
    double m = 0;
    for (int i = 0; i < 100; ++i) {
      m = rollingResistance(kTread, theta, 5.0, breakaway, inertia, kDt, next);
      theta = next;
    }
    CHECK(m == Approx(-breakaway).epsilon(1e-12));
    m = rollingResistance(kTread, theta, -5.0, breakaway, inertia, kDt,
                          next);  // reversal: the spring unwinds
    CHECK(std::abs(m) <= breakaway);
  }
  SECTION("at rest: a moment below breakaway is held by the spring, no sign switching") {
    // Wound up by 1e-3 rad (half of θ_b) and at rest: the moment is half the breakaway.
    const double m = rollingResistance(kTread, 1e-3, 0.0, breakaway, inertia, kDt, next);
    CHECK(m == Approx(-0.5 * breakaway).epsilon(1e-12));
    CHECK(next == 1e-3);
  }
  SECTION("no load, no moment, the spring springs back") {
    CHECK(rollingResistance(kTread, 1e-3, 3.0, 0.0, inertia, kDt, next) == 0.0);
    CHECK(next == 0.0);
  }
  SECTION("a light wheel: spring and damper limited so the step stays stable") {
    // J = 1e-4 kg·m² (the smallest wheel inertia allowed): k ≤ 0.09 J/dt²
    // (ω_n·dt ≤ 0.3). A free spin of a wound-up wheel on its own decays.
    const double j = 1e-4;
    double w = 0, th = 1e-3;
    for (int i = 0; i < 20000; ++i) {
      const double m = rollingResistance(kTread, th, w, breakaway, j, kDt, next);
      w += kDt * m / j;  // semi-implicit Euler as in the world step
      th = next;
      REQUIRE(std::isfinite(w));
    }
    CHECK(std::abs(w) < 1e-6);
  }
}
