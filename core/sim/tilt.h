// Tilt of a body: pitch and roll that do not wrap at 90°, and whether the
// body is upside down (docs/dynamics.md, "Tilt angles").
//
// With the body axes in world coordinates (x forward, y left, z up of the
// body) and s = +1 when the body's z axis points up or sideways (z_b·ẑ ≥ 0),
// −1 when it points down:
//   pitch = atan2(x_b·ẑ, s·|x_b − (x_b·ẑ)ẑ|)   angle of the forward axis above
//                                               the horizontal, nose up > 0
//   roll  = atan2(y_b·ẑ, s·|y_b − (y_b·ẑ)ẑ|)   angle of the left axis above
//                                               the horizontal, left up > 0
// Upright (s = +1) these are the elevations of the axes, in [−90°, 90°].
// Upside down the elevation e reads ±180° − e: a body pitched nose up past
// vertical reads 100°, 135°, … and 180° when it lies on its back facing
// backwards. So |pitch| > 90° and |roll| > 90° exactly when it is upside down
// (unless the axis is vertical).
#pragma once

#include "common/types.h"

namespace roverlab {

struct Tilt {
  double pitch = 0.0;       ///< rad in [−π, π], nose up positive
  double roll = 0.0;        ///< rad in [−π, π], left side up positive
  bool upsideDown = false;  ///< the body's z axis points below the horizontal (z_b·ẑ < 0)
  /// Flipped over: the z axis points more than 30° below the horizontal
  /// (z_b·ẑ < −1/2, tilted more than 120° from upright). A section that rears
  /// a few degrees past vertical while climbing and comes back is upside down
  /// for a moment but has not flipped over.
  bool flippedOver = false;
};

/// z_b·ẑ below which a body has flipped over (-): cos 120°.
constexpr double kFlippedOverCosine = -0.5;

/// Tilt of a body from its rotation (body → world coordinates, columns the
/// body's x, y, z axes).
Tilt tiltOf(const Eigen::Matrix3d& rotation);

}  // namespace roverlab
