// Tire forces: [GKS2025] eqs. 2-12 (3-D) and [SP2017] (planar), against
// hand-computed values and the model's invariants.
#include "contact/tire_model.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "support/random_shapes.h"

using namespace roverlab;

namespace {

// Hand computations below use the defaults: c_t = 2e5 N/m, b_t = 2e3 N·s/m,
// r0/r = 0.97, φ_max = 0.8, s0 = 0.1, s1 = 0.5, f = 0.018. Assert them so a
// change of defaults shows up here and not as mysterious numbers.
const TireParams kTire{};
const Material kGround = asphalt();

double phi(double s) { return 0.8 * (1 - std::exp(-s / 0.1)) * (1 + std::exp(-s / 0.5)); }

// Wheel of free radius 0.2 m, axle +y, contact straight below, Z = 0.01 m.
ContactKinematics below(const Vec3& vO, double spin) {
  ContactKinematics k;
  k.radius = 0.2;
  k.op = Vec3(0, 0, -0.2);
  k.axle = Vec3(0, 1, 0);
  k.centreVelocity = vO;
  k.omega = Vec3(0, spin, 0);
  k.spinRate = spin;
  k.deflection = 0.01;
  return k;
}

}  // namespace

TEST_CASE("tire defaults are the ones the hand computations assume", "[tire]") {
  CHECK(kTire.stiffness == 2e5);
  CHECK(kTire.damping == 2e3);
  CHECK(kTire.rollingRadiusRatio == 0.97);
  CHECK(kTire.slipSpeedFloor == 0.001);
  CHECK(kGround.phiMax == 0.8);
  CHECK(kGround.s0 == 0.1);
  CHECK(kGround.s1 == 0.5);
  CHECK(kGround.rolling == 0.018);
}

TEST_CASE("adhesion curve: zero at no slip, phi_max at large slip, value at s0", "[tire]") {
  CHECK(adhesion(kGround, 0.0) == 0.0);
  // s → ∞: (1 − e^{−s/s0}) → 1 and (1 + e^{−s/s1}) → 1; at s = 100 both
  // exponentials are below e^{−200} ≈ 1e-87.
  CHECK(adhesion(kGround, 100.0) == Approx(0.8).epsilon(1e-15));
  // s = s0 = 0.1: 0.8 · (1 − e^{−1}) · (1 + e^{−0.2})
  //            = 0.8 · 0.6321205588 · 1.8187307531 = 0.9197256800.
  CHECK(adhesion(kGround, 0.1) == Approx(0.9197256799954698).epsilon(1e-14));
  // Another material: φ_max = 0.5, s0 = 0.2, s1 = 0.05 at s = 0.1:
  // 0.5 · (1 − e^{−0.5}) · (1 + e^{−2}) = 0.5 · 0.3934693403 · 1.1353352832 = 0.2233598125
  const Material m{0.5, 0.2, 0.05, 0.01};
  CHECK(adhesion(m, 0.1) ==
        Approx(0.5 * (1 - std::exp(-0.5)) * (1 + std::exp(-2.0))).epsilon(1e-14));
  CHECK(adhesion(m, 0.1) == Approx(0.2233598125).epsilon(1e-9));
}

TEST_CASE("tireForces: skidding wheel, hand-computed (relative slip, [GKS2025])", "[tire]") {
  // V_O = (1, 0, −0.05) m/s, ω = 4 rad/s about +y, OP = (0, 0, −0.2) m, Z = 0.01 m.
  //   ω × OP = (0, 4, 0) × (0, 0, −0.2) = (−0.8, 0, 0)
  //   V_P = V_O + ω × OP = (0.2, 0, −0.05)                    eq. 2
  //   e = OP/|OP| = (0, 0, −1), V_z = V_P·e = 0.05 m/s         eq. 3 (compressing)
  //   V_sk = V_P − V_z e = (0.2, 0, 0)                          eq. 4
  //   R_z = c_t Z + b_t V_z = 2e5·0.01 + 2e3·0.05 = 2100 N     eq. 5
  //   s = |V_sk| / max(|V_O|, |ω × OP|) = 0.2/√1.0025 = 0.19975046777556893   eq. 9
  //   φ(s) = 1.1551929978613404, R_xy = φ R_z = 2425.905295508815 N along −x
  //   M_ky = (r0/|OP|)(OP × R_xy)·n − f R_z r0 sign(ω)
  //        = 0.194·2425.9053 − 0.018·2100·0.194 = 470.6256 − 7.3332 = 463.2924 N·m
  //   OP × R = (0, 0.2·2425.9053, 0) is all about the axle: M_k = 0.
  const ContactKinematics k = below(Vec3(1, 0, -0.05), 4.0);
  const TireForces f = tireForces(kTire, kGround, k, SlipDefinition::Relative);
  // Sums and products of O(1e3) values: relative rounding ~1e-15, checked to 1e-12.
  CHECK(f.normal == Approx(2100).epsilon(1e-12));
  CHECK((f.normalForce - Vec3(0, 0, 2100)).norm() < 1e-9);
  CHECK((f.slipVelocity - Vec3(0.2, 0, 0)).norm() < 1e-15);
  CHECK(f.slip == Approx(0.19975046777556893).epsilon(1e-12));
  CHECK(f.adhesion == Approx(1.1551929978613404).epsilon(1e-12));
  CHECK((f.tangentialForce - Vec3(-2425.905295508815, 0, 0)).norm() < 1e-9);
  CHECK((f.force - Vec3(-2425.905295508815, 0, 2100)).norm() < 1e-9);
  CHECK(f.spinMoment == Approx(463.2924273287101).epsilon(1e-12));
  CHECK(f.axleMoment.norm() < 1e-9);
}

TEST_CASE("tireForces: lateral slip gives an axle moment perpendicular to the axle", "[tire]") {
  // As above with V_O = (1, 0.3, −0.05): V_P = (0.2, 0.3, −0.05), V_sk = (0.2, 0.3, 0),
  // |V_sk| = √0.13, s = √0.13/√1.0925 = 0.34495381576588147, φ = 1.1631443369672296,
  // R_xy = −φ·2100·(0.2, 0.3, 0)/√0.13 = (Tx, Ty, 0).
  //   OP × R = (0, 0, −0.2) × (Tx, Ty, 2100) = (0.2 Ty, −0.2 Tx, 0)
  //   M_ky = (0.194/0.2)(−0.2 Tx) − 7.3332 = −0.194 Tx − 7.3332
  //   M_k = (0.2 Ty, 0, 0)
  const ContactKinematics k = below(Vec3(1, 0.3, -0.05), 4.0);
  const TireForces f = tireForces(kTire, kGround, k);
  const double t = 1.1631443369672296 * 2100 / std::sqrt(0.13);
  const double tx = -0.2 * t, ty = -0.3 * t;
  CHECK(f.slip == Approx(0.34495381576588147).epsilon(1e-12));
  CHECK((f.tangentialForce - Vec3(tx, ty, 0)).norm() < 1e-9);
  CHECK(f.spinMoment == Approx(-0.194 * tx - 0.018 * 2100 * 0.194).epsilon(1e-12));
  CHECK((f.axleMoment - Vec3(0.2 * ty, 0, 0)).norm() < 1e-9);
}

TEST_CASE("tireForces: spin moment sign convention", "[tire]") {
  // spinMoment is the moment ON the wheel about +n_k. Rolling resistance
  // opposes the spin: −f R_z r0 sign(spinRate). With no sliding (V_P = 0:
  // V_O = 1 m/s, ω = 5 rad/s, r = 0.2) only that term remains:
  //   R_z = 2e5·0.01 = 2000 N (V_z = 0), M_ky = −0.018·2000·0.194 = −6.984 N·m.
  const TireForces fwd = tireForces(kTire, kGround, below(Vec3(1, 0, 0), 5.0));
  CHECK(fwd.tangentialForce.norm() == 0);
  CHECK(fwd.slip == 0);
  CHECK(fwd.spinMoment == Approx(-6.984).epsilon(1e-12));
  // Rolling backwards flips it.
  const TireForces back = tireForces(kTire, kGround, below(Vec3(-1, 0, 0), -5.0));
  CHECK(back.spinMoment == Approx(6.984).epsilon(1e-12));
  // A wheel spinning in place (drive torque, V_O = 0): the contact slides
  // backwards, the ground pushes it forwards (+x), and the reaction brakes the
  // spin: the tangential moment has the opposite sign of the spin.
  const TireForces spinning = tireForces(kTire, kGround, below(Vec3(0, 0, 0), 5.0));
  CHECK(spinning.tangentialForce.x() > 0);
  CHECK(spinning.spinMoment < 0);
}

TEST_CASE("tireForces: absolute slip speed ([SP2017] definition)", "[tire]") {
  // Same kinematics as the skidding case: S = |V_sk| = 0.2 m/s, φ(0.2) = 1.1554134476076914.
  const TireForces f =
      tireForces(kTire, kGround, below(Vec3(1, 0, -0.05), 4.0), SlipDefinition::Absolute);
  CHECK(f.slip == Approx(0.2).epsilon(1e-14));
  CHECK(f.adhesion == Approx(1.1554134476076914).epsilon(1e-12));
  CHECK(f.tangentialForce.x() == Approx(-1.1554134476076914 * 2100).epsilon(1e-12));
}

TEST_CASE("tireForces: slip ratio uses the speed floor at standstill", "[tire]") {
  // V_O = (0.0001, 0, 0), ω = 0: s = 0.0001 / max(0.0001, 0, floor 0.001) = 0.1.
  const TireForces f = tireForces(kTire, kGround, below(Vec3(0.0001, 0, 0), 0.0));
  CHECK(f.slip == Approx(0.1).epsilon(1e-12));
  CHECK(f.adhesion == Approx(0.9197256799954698).epsilon(1e-12));
  // Completely at rest: no slip, no tangential force, finite numbers.
  const TireForces rest = tireForces(kTire, kGround, below(Vec3::Zero(), 0.0));
  CHECK(rest.slip == 0);
  CHECK(rest.tangentialForce.norm() == 0);
  CHECK(rest.normal == Approx(2000).epsilon(1e-14));
  CHECK(rest.spinMoment == 0);  // sign(0) = 0: no rolling resistance at rest
}

TEST_CASE("tireForces: non-holding normal force", "[tire]") {
  SECTION("no deflection, no force") {
    for (double z : {0.0, -0.01}) {
      ContactKinematics k = below(Vec3(1, 0, -0.5), 2.0);
      k.deflection = z;
      const TireForces f = tireForces(kTire, kGround, k);
      CHECK(f.normal == 0);
      CHECK(f.force.norm() == 0);
      CHECK(f.spinMoment == 0);
      CHECK(f.axleMoment.norm() == 0);
    }
  }
  SECTION("damping never pulls") {
    // Z = 0.001, V_z = −2 m/s (wheel leaving the ground):
    // c_t Z + b_t V_z = 200 − 4000 < 0 → R_z = 0, not −3800.
    ContactKinematics k = below(Vec3(1, 0, 2), 3.0);
    k.deflection = 0.001;
    const TireForces f = tireForces(kTire, kGround, k);
    CHECK(f.normal == 0);
    CHECK(f.normalForce.norm() == 0);
    CHECK(f.tangentialForce.norm() == 0);  // R_xy = φ R_z = 0
    CHECK(f.force.norm() == 0);
    // Leaving slowly: 200 − 2e3·0.05 = 100 N, still pushing.
    k.centreVelocity = Vec3(1, 0, 0.05);
    CHECK(tireForces(kTire, kGround, k).normal == Approx(100).epsilon(1e-12));
  }
}

TEST_CASE("tireForces invariants on random kinematics", "[tire]") {
  shapes::Rng rng(31);
  int checked = 0;
  for (int i = 0; i < 2000; ++i) {
    ContactKinematics k;
    k.radius = shapes::uniform(rng, 0.1, 0.5);
    k.axle = shapes::unitVector(rng);
    // Contact direction: roughly perpendicular to the axle (in the tread band).
    Vec3 e = shapes::unitVector(rng);
    e = (e - 0.8 * e.dot(k.axle) * k.axle).normalized();
    k.op = k.radius * e;
    k.centreVelocity = shapes::uniformBox(rng, Vec3::Constant(-3), Vec3::Constant(3));
    k.spinRate = shapes::uniform(rng, -20, 20);
    k.omega = k.spinRate * k.axle + shapes::uniformBox(rng, Vec3::Constant(-1), Vec3::Constant(1));
    k.deflection = shapes::uniform(rng, 1e-4, 0.05);
    const SlipDefinition def = i % 2 ? SlipDefinition::Relative : SlipDefinition::Absolute;
    const TireForces f = tireForces(kTire, kGround, k, def);
    INFO("case " << i);
    // Independent recomputation of eqs. 2-5 and 9.
    const Vec3 wxop = k.omega.cross(k.op);
    const Vec3 vp = k.centreVelocity + wxop;
    const double vz = vp.dot(e);
    const Vec3 vsk = vp - vz * e;
    const double rz = std::max(0.0, kTire.stiffness * k.deflection + kTire.damping * vz);
    const double s =
        def == SlipDefinition::Absolute
            ? vsk.norm()
            : vsk.norm() / std::max({k.centreVelocity.norm(), wxop.norm(), kTire.slipSpeedFloor});
    // Forces up to ~1e4 N: 1e-12 relative ≈ 1e-8 N absolute.
    const double tol = 1e-12 * (1 + rz);
    CHECK(f.normal == Approx(rz).margin(tol));
    CHECK((f.slipVelocity - vsk).norm() < 1e-12);
    CHECK(f.slip == Approx(s).epsilon(1e-12));
    CHECK(f.adhesion == Approx(phi(s)).epsilon(1e-12));
    CHECK((f.normalForce + rz * e).norm() < tol);     // from P towards O
    CHECK(std::abs(f.tangentialForce.dot(e)) < tol);  // in the contact plane
    CHECK(f.tangentialForce.norm() == Approx(phi(s) * rz).margin(tol));
    if (rz > 0 && vsk.norm() > 1e-9) {
      CHECK(f.tangentialForce.dot(vsk) < 0);  // opposite V_sk
      CHECK(f.tangentialForce.cross(vsk).norm() < tol * vsk.norm());
      ++checked;
    }
    CHECK((f.force - f.normalForce - f.tangentialForce).norm() < tol);
    // The contact moment about O splits into the spin part and M_k ⟂ n_k.
    const Vec3 m = k.op.cross(f.force);
    CHECK(std::abs(f.axleMoment.dot(k.axle)) < tol);
    CHECK((m - m.dot(k.axle) * k.axle - f.axleMoment).norm() < tol);
    const double r0 = 0.97 * k.radius;
    const double sgn = (k.spinRate > 0) - (k.spinRate < 0);
    CHECK(f.spinMoment ==
          Approx(r0 / k.radius * k.op.cross(f.tangentialForce).dot(k.axle) - 0.018 * rz * r0 * sgn)
              .margin(tol));
  }
  CHECK(checked > 1000);
}

TEST_CASE("planarTireForces: hand-computed contact ([SP2017])", "[tire][planar]") {
  // r = 0.2 m, r_p = (0, −0.19): δ = 0.01 m, rolling radius 0.19 m, n_p = (0, −1).
  // V_C = (1, −0.05), ω = 4 rad/s about +y: ω ŷ × (x, z) = (ω z, −ω x) = (−0.76, 0)
  //   V_K = (0.24, −0.05); δ̇ = n_p·V_K = 0.05 m/s
  //   |F_n| = k_u δ + k_d δ̇ = 2e5·0.01 + 2e3·0.05 = 2100 N, F_n = −|F_n| n_p = (0, 2100)
  //   V_tK = V_K − (V_K·n_p) n_p = (0.24, 0), S = 0.24 m/s, μ = φ(0.24) = 1.177544540546076
  //   F_t = −μ |F_n| (1, 0) = (−2472.843535146760, 0)
  //   M_t = (r_p × F_t)_y = r_z F_x − r_x F_z = (−0.19)(−2472.8435) = 469.84027167788435 N·m
  //   M_f = f r_roll |F_n| (−sign ω) = −0.018·0.19·2100 = −7.182 N·m
  PlanarContactKinematics k;
  k.rp = Vec2(0, -0.19);  // every field set: Eigen members are not zero-initialised
  k.centreVelocity = Vec2(1, -0.05);
  k.omega = 4;
  k.radius = 0.2;
  const PlanarTireForces f = planarTireForces(kTire, kGround, k);
  CHECK(f.normal == Approx(2100).epsilon(1e-12));
  CHECK((f.normalForce - Vec2(0, 2100)).norm() < 1e-9);
  CHECK(f.slipSpeed == Approx(0.24).epsilon(1e-12));
  CHECK(f.adhesion == Approx(1.177544540546076).epsilon(1e-12));
  CHECK((f.tangentialForce - Vec2(-1.177544540546076 * 2100, 0)).norm() < 1e-9);
  CHECK(f.contactMoment == Approx(469.84027167788435).epsilon(1e-12));
  CHECK(f.rollingMoment == Approx(-7.182).epsilon(1e-12));
}

TEST_CASE("planarTireForces on a slanted contact and its limits", "[tire][planar]") {
  // Contact at 45° down-forward: r_p = 0.18 (1, −1)/√2, δ = 0.02 m. V_C = 0,
  // ω = 0: no motion, |F_n| = 2e5·0.02 = 4000 N along −n_p.
  PlanarContactKinematics k;  // Eigen members are not zero-initialised: set them all
  k.rp = 0.18 * Vec2(1, -1).normalized();
  k.centreVelocity = Vec2::Zero();
  k.omega = 0;
  k.radius = 0.2;
  const PlanarTireForces f = planarTireForces(kTire, kGround, k);
  CHECK(f.normal == Approx(4000).epsilon(1e-12));
  CHECK((f.normalForce - 4000 * Vec2(-1, 1).normalized()).norm() < 1e-9);
  CHECK(f.tangentialForce.norm() == 0);
  CHECK(f.rollingMoment == 0);
  // Sliding along the slope: V_C = (1, 0) → V_tK = (1,0) − ((1,0)·n_p) n_p = (0.5, 0.5).
  k.centreVelocity = Vec2(1, 0);
  const PlanarTireForces g = planarTireForces(kTire, kGround, k);
  // δ̇ = n_p·V_K = 1/√2 → |F_n| = 4000 + 2e3/√2; F_t ∥ −(1, 1).
  CHECK(g.normal == Approx(4000 + 2000 / std::sqrt(2.0)).epsilon(1e-12));
  CHECK(g.slipSpeed == Approx(std::sqrt(0.5)).epsilon(1e-12));
  CHECK((g.tangentialForce.normalized() - Vec2(-1, -1).normalized()).norm() < 1e-12);
  CHECK(g.tangentialForce.norm() == Approx(phi(std::sqrt(0.5)) * g.normal).epsilon(1e-12));
  // Non-holding: |r_p| ≥ r gives nothing; damping never pulls.
  k.rp = Vec2(0, -0.2);
  CHECK(planarTireForces(kTire, kGround, k).normal == 0);
  k.rp = Vec2(0, -0.199);         // δ = 0.001: 200 N of spring
  k.centreVelocity = Vec2(0, 1);  // leaving at 1 m/s: δ̇ = −1, 200 − 2000 < 0
  const PlanarTireForces h = planarTireForces(kTire, kGround, k);
  CHECK(h.normal == 0);
  CHECK(h.normalForce.norm() == 0);
  CHECK(h.tangentialForce.norm() == 0);
}
