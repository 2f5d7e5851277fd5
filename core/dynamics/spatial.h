// Spatial (6-D) vector algebra after Featherstone, "Rigid Body Dynamics
// Algorithms" (RBDA), ch. 2: motion vectors [ω; v], force vectors [n; f], both
// expressed at a frame's origin in that frame's coordinates.
#pragma once

#include "common/types.h"

namespace roverlab {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Mat3 = Eigen::Matrix3d;

inline Mat3 skew(const Vec3& v) {
  Mat3 m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

/// Plücker transform from frame A to frame B (RBDA eq. 2.24): `rot` turns A
/// coordinates into B coordinates, `pos` is B's origin in A coordinates (m).
struct Transform {
  Mat3 rot = Mat3::Identity();
  Vec3 pos = Vec3::Zero();

  /// Motion vector from A to B coordinates.
  Vec6 apply(const Vec6& m) const {
    Vec6 out;
    out.head<3>() = rot * m.head<3>();
    out.tail<3>() = rot * (m.tail<3>() - pos.cross(m.head<3>()));
    return out;
  }
  /// Motion vector from B back to A coordinates.
  Vec6 applyInverse(const Vec6& m) const {
    Vec6 out;
    out.head<3>() = rot.transpose() * m.head<3>();
    out.tail<3>() = rot.transpose() * m.tail<3>() + pos.cross(out.head<3>());
    return out;
  }
  /// Force vector from B to A coordinates (X^T f, RBDA eq. 2.25).
  Vec6 applyTransposeForce(const Vec6& f) const {
    Vec6 out;
    out.tail<3>() = rot.transpose() * f.tail<3>();
    out.head<3>() = rot.transpose() * f.head<3>() + pos.cross(out.tail<3>());
    return out;
  }
  /// Force vector from A to B coordinates.
  Vec6 applyForce(const Vec6& f) const {
    Vec6 out;
    out.head<3>() = rot * (f.head<3>() - pos.cross(f.tail<3>()));
    out.tail<3>() = rot * f.tail<3>();
    return out;
  }
  /// This transform followed by `next` (A → B → C).
  Transform then(const Transform& next) const {
    Transform out;
    then(next, out);
    return out;
  }
  /// The same, written into `out` (neither this nor `next`).
  void then(const Transform& next, Transform& out) const {
    out.rot.noalias() = next.rot * rot;
    out.pos = pos + rot.transpose() * next.pos;
  }
  /// 6×6 matrix of the motion transform.
  Mat6 matrix() const {
    Mat6 x = Mat6::Zero();
    x.topLeftCorner<3, 3>() = rot;
    x.bottomRightCorner<3, 3>() = rot;
    x.bottomLeftCorner<3, 3>() = -rot * skew(pos);
    return x;
  }
};

/// Transform::apply for a rotation that is the identity (frame B parallel to
/// A, its origin at `pos`): the same numbers, less the products with the
/// rotation's ones and zeros (a zero's sign aside, see multibody.cpp's
/// "Coordinate axes").
inline Vec6 applyShift(const Vec3& pos, const Vec6& m) {
  Vec6 out;
  out.head<3>() = m.head<3>();
  out.tail<3>() = m.tail<3>() - pos.cross(m.head<3>());
  return out;
}

/// Transform::applyTransposeForce for a rotation that is the identity, likewise.
inline Vec6 applyTransposeForceShift(const Vec3& pos, const Vec6& f) {
  Vec6 out;
  out.tail<3>() = f.tail<3>();
  out.head<3>() = f.head<3>() + pos.cross(f.tail<3>());
  return out;
}

/// v ×m m (RBDA eq. 2.31).
inline Vec6 crossMotion(const Vec6& v, const Vec6& m) {
  Vec6 out;
  out.head<3>() = v.head<3>().cross(m.head<3>());
  out.tail<3>() = v.head<3>().cross(m.tail<3>()) + v.tail<3>().cross(m.head<3>());
  return out;
}

/// v ×f f (RBDA eq. 2.32).
inline Vec6 crossForce(const Vec6& v, const Vec6& f) {
  Vec6 out;
  out.head<3>() = v.head<3>().cross(f.head<3>()) + v.tail<3>().cross(f.tail<3>());
  out.tail<3>() = v.head<3>().cross(f.tail<3>());
  return out;
}

/// Spatial inertia of a body of mass m (kg) with centre of mass c (m) and
/// rotational inertia Ic about the centre of mass (kg·m²), at the frame origin
/// (RBDA eq. 2.63).
inline Mat6 spatialInertia(double m, const Vec3& c, const Mat3& ic) {
  Mat6 out;
  const Mat3 cx = skew(c);
  out.topLeftCorner<3, 3>() = ic + m * cx * cx.transpose();
  out.topRightCorner<3, 3>() = m * cx;
  out.bottomLeftCorner<3, 3>() = m * cx.transpose();
  out.bottomRightCorner<3, 3>() = m * Mat3::Identity();
  return out;
}

/// Spatial force of a world-frame force F (N) applied at world point p (m),
/// expressed at the world origin: [p × F; F].
inline Vec6 worldForceAt(const Vec3& p, const Vec3& force) {
  Vec6 out;
  out.head<3>() = p.cross(force);
  out.tail<3>() = force;
  return out;
}

}  // namespace roverlab
