#include "sim/tilt.h"

#include <cmath>

#include "common/elementary.h"

namespace roverlab {
namespace {

// Elevation of a unit axis above the horizontal, extended past ±90° by the
// sign s of the body's up axis.
double elevation(const Vec3& axis, double s) {
  return elementary::atan2(axis.z(), s * elementary::hypot(axis.x(), axis.y()));
}

}  // namespace

Tilt tiltOf(const Eigen::Matrix3d& rotation) {
  Tilt t;
  t.upsideDown = rotation(2, 2) < 0;
  t.flippedOver = rotation(2, 2) < kFlippedOverCosine;
  const double s = t.upsideDown ? -1.0 : 1.0;
  t.pitch = elevation(rotation.col(0), s);
  t.roll = elevation(rotation.col(1), s);
  return t;
}

}  // namespace roverlab
