// Tilt angles (sim/tilt.h): pitch and roll that keep growing past 90° to
// 180° instead of wrapping, and the upside-down flag; compared with the
// rotation that made them.
#include <catch2/catch.hpp>
#include <cmath>

#include "support/scenario_files.h"

using namespace roverlab;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180;
// Rounding only: the angles come from atan2 of products of cos and sin of
// the rotation, a few ulps each.
constexpr double kTol = 1e-12;

// Difference of two angles on the circle (rad, in [0, π]): ±180° is one reading.
double angleGap(double a, double b) {
  const double d = std::fmod(std::abs(a - b), 2 * kPi);
  return std::min(d, 2 * kPi - d);
}

Mat3 rotation(double yaw, const Vec3& axis, double angle) {
  return (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(angle, axis))
      .toRotationMatrix();
}

}  // namespace

TEST_CASE("a body pitched from -180° to 180° reads that pitch, with no wrap at 90°", "[tilt]") {
  // Nose up is a rotation about −y (x turns towards +z). Every heading gives the same reading.
  for (const double yaw : {0.0, 0.7, -2.5}) {
    double previous = -1e300;
    for (int tenth = -1800; tenth <= 1800;
         tenth += 5) {  // every 0.5°, including ±90° and ±89.5°, ±90.5°
      const double pitch = tenth / 10.0 * kDeg;
      const Tilt t = tiltOf(rotation(yaw, -Vec3::UnitY(), pitch));
      INFO("yaw " << yaw << " rad, pitch " << tenth / 10.0 << "°: read " << t.pitch / kDeg
                  << "°, roll " << t.roll / kDeg << "°");
      CHECK(angleGap(t.pitch, pitch) < kTol);
      CHECK(t.upsideDown == (std::abs(tenth) > 900));
      // The left axis stays horizontal: roll 0 upright, ±180° upside down.
      CHECK(angleGap(t.roll, t.upsideDown ? kPi : 0.0) < kTol);
      // Monotone through ±90°: no jump back as the nose passes vertical (the
      // ends, where ±180° are one reading, left out).
      if (tenth > -1795 && tenth < 1800) CHECK(t.pitch > previous);
      previous = t.pitch;
    }
  }
}

TEST_CASE("a body rolled from -180° to 180° reads that roll", "[tilt]") {
  for (int tenth = -1795; tenth <= 1795; tenth += 5) {
    const double roll = tenth / 10.0 * kDeg;
    const Tilt t = tiltOf(rotation(0.3, Vec3::UnitX(), roll));  // left side up: about +x
    INFO("roll " << tenth / 10.0 << "°: read " << t.roll / kDeg << "°, pitch " << t.pitch / kDeg
                 << "°");
    CHECK(angleGap(t.roll, roll) < kTol);
    CHECK(t.upsideDown == (std::abs(tenth) > 900));
    CHECK(angleGap(t.pitch, t.upsideDown ? kPi : 0.0) < kTol);
  }
}

TEST_CASE("upright, pitch and roll are the elevations of the forward and left axes", "[tilt]") {
  // Any rotation that keeps the up axis up: pitch = asin(x_b·ẑ), roll = asin(y_b·ẑ).
  for (double yaw = -3; yaw < 3; yaw += 0.9)
    for (double a = -1.4; a <= 1.4; a += 0.35)
      for (double b = -1.4; b <= 1.4; b += 0.35) {
        const Mat3 r = (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) *
                        Eigen::AngleAxisd(-a, Vec3::UnitY()) * Eigen::AngleAxisd(b, Vec3::UnitX()))
                           .toRotationMatrix();
        if (r(2, 2) < 0) continue;
        const Tilt t = tiltOf(r);
        CHECK_FALSE(t.upsideDown);
        CHECK(std::abs(t.pitch - std::asin(r(2, 0))) < 1e-9);  // asin loses digits near ±90°
        CHECK(std::abs(t.roll - std::asin(r(2, 1))) < 1e-9);
        CHECK(std::abs(t.pitch - a) < kTol);  // the nose-up angle of the pose
      }
}

TEST_CASE("upside down exactly when |pitch| and |roll| are past 90°", "[tilt]") {
  // Lying on its back after a roll-over (nose still forward) and after a
  // backflip (nose backwards) both read |pitch| = |roll| = 180°.
  const Tilt rolled = tiltOf(rotation(0.0, Vec3::UnitX(), kPi));
  const Tilt flipped = tiltOf(rotation(0.0, Vec3::UnitY(), kPi));
  for (const Tilt& t : {rolled, flipped}) {
    CHECK(t.upsideDown);
    CHECK(std::abs(std::abs(t.pitch) - kPi) < kTol);
    CHECK(std::abs(std::abs(t.roll) - kPi) < kTol);
  }
  for (double a = -3.1; a <= 3.1; a += 0.2)
    for (double b = -3.1; b <= 3.1; b += 0.2) {
      const Mat3 r = (Eigen::AngleAxisd(-a, Vec3::UnitY()) * Eigen::AngleAxisd(b, Vec3::UnitX()))
                         .toRotationMatrix();
      const Tilt t = tiltOf(r);
      INFO("about y " << a << " rad, then about x " << b << " rad");
      CHECK(t.upsideDown == (r(2, 2) < 0));
      CHECK((std::abs(t.pitch) > kPi / 2) == t.upsideDown);
      CHECK((std::abs(t.roll) > kPi / 2) == t.upsideDown);
    }
}

TEST_CASE("a simulation's base reads the pitch of its pose", "[tilt][sim]") {
  // setBasePose's pitch is nose up positive; bodyTilt reads it back, also
  // past 90°.
  roverlab::Simulation sim = testing::simulationOf("flat-rocker8.json");
  for (const double pitch : {-2.5, -0.4, 0.0, 1.2, 1.9, 3.0}) {
    Pose pose;
    pose.position = Vec3(0, 0, 3);
    pose.yaw = 0.4;
    pose.pitch = pitch;
    setBasePose(sim.model.robot, sim.state.bodies, pose);
    updateKinematics(sim);
    const Tilt t = bodyTilt(sim, sim.model.robot.base);
    CHECK(angleGap(t.pitch, pitch) < kTol);
    CHECK(bodyPitch(sim, sim.model.robot.base) == t.pitch);
    CHECK(t.upsideDown == (std::abs(pitch) > kPi / 2));
  }
}

TEST_CASE("flipped over means tilted more than 120 degrees, not a moment past vertical", "[tilt]") {
  // Pitched nose up about y, at any heading: 93° (the climb's middle section
  // rearing past vertical) is upside down but not flipped over; 121° and more is.
  for (const double yaw : {0.0, 1.0, -2.5})
    for (int tenth = 0; tenth <= 1800; tenth += 5) {
      if (tenth == 900 || tenth == 1200) continue;  // on a threshold: rounding decides
      const Tilt t =
          tiltOf(rotation(yaw, Vec3::UnitY(), -tenth * 0.1 * kDeg));  // −angle about y: nose up
      INFO("yaw " << yaw << " pitch " << tenth * 0.1 << "°");
      CHECK(t.flippedOver == (tenth > 1200));
      CHECK(t.upsideDown == (tenth > 900));
    }
}
